/* The opaque C interface of the installed header (solver/api.h): thin
 * wrappers over the modules `tilefit solve` and `check` use (the catalog,
 * requests, binding, tf_solve / tf_check, tf_report_answers).  Each call
 * runs under a recovery point of its own (model/core/alloc.h), so running out
 * of memory is an error like any other, and hands a failure back as a
 * tf_error on the heap.  The JSON half of the header is solver/api_json.c. */
#include "api.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/problem.h"
#include "model/core/alloc.h"
#include "model/core/error.h"
#include "model/core/text.h"
#include "model/input/catalog.h"
#include "model/input/request.h"
#include "solver/backend.h"
#include "solver/report.h"
#include "solver/run.h"
#include "solver/solve.h"

/* A result: its problem (borrowed), the answer, and whether the text
 * report explains what does not fit (check's, as `tilefit check`). */
struct tf_result {
  const tf_problem *p;
  int explain;
  tf_answer a;
};

/* The error when memory ran out: needs none, and tf_error_free knows it. */
static const tf_error out_of_memory = {.code = TF_ENOMEM, .msg = "out of memory"};

const char *tf_version(void) { return TF_LIBRARY_VERSION; }

/* ---------------------------------------------------------------- errors */

int tf_error_status(const tf_error *e) { return !e || e->code == TF_OK ? 0 : e->code == TF_EINPUT ? 2 : 3; }

const char *tf_error_message(const tf_error *e) { return e ? e->msg : ""; }

void tf_error_free(tf_error *e) {
  if (e != &out_of_memory)
    free(e);
}

/* *err = a copy of e on the heap, unless it holds one already (the first
 * wins); malloc, not tf_nalloc: this runs outside any recovery point. */
static void keep(tf_error **err, const tf_error *e) {
  if (!err || *err)
    return;
  tf_error *copy = malloc(sizeof *copy);
  *err = copy ? memcpy(copy, e, sizeof *copy) : (tf_error *)&out_of_memory;
}

/* One call's body: what it made (non-NULL), or NULL with *e filled. */
typedef void *(*body_fn)(void *arg, tf_error *e);
typedef struct guard {
  body_fn body;
  void *arg;
  tf_error *e;
} guard;

static void *run_body(void *g) { return ((guard *)g)->body(((guard *)g)->arg, ((guard *)g)->e); }

/* body(arg) under a recovery point: what it returns, or NULL with the
 * error in *err (out of memory when an allocation failed; what the body
 * had allocated is lost, as model/core/alloc.h says). */
static void *guarded(body_fn body, void *arg, tf_error **err) {
  tf_error e;
  tf_error_init(&e);
  guard g = {body, arg, &e};
  void *made = NULL;
  if (tf_alloc_try(run_body, &g, &made)) {
    keep(err, &out_of_memory);
    return NULL;
  }
  if (!made)
    keep(err, &e);
  return made;
}

/* NULL where an object is needed: status 2, so a chain whose first call
 * failed fails through. */
static void *missing(tf_error *e, const char *what) {
  tf_error_set(e, TF_EINPUT, NULL, "no %s (NULL)", what);
  return NULL;
}

/* -------------------------------------------------- machines and worksets */

static void *open_machine(void *name, tf_error *e) {
  return name ? tf_catalog_load(TF_CATALOG_MACHINES, name, "machine", e) : missing(e, "machine name");
}

static void *open_workset(void *name, tf_error *e) {
  return name ? tf_catalog_load(TF_CATALOG_WORKSETS, name, "workset", e) : missing(e, "workset name");
}

tf_machine *tf_machine_open(const char *name, tf_error **err) { return guarded(open_machine, (void *)name, err); }

tf_workset *tf_workset_open(const char *name, tf_error **err) { return guarded(open_workset, (void *)name, err); }

const char *tf_machine_name(const tf_machine *m) { return m ? m->name : ""; }

const char *tf_workset_name(const tf_workset *w) { return w ? w->name : ""; }

/* -------------------------------------------------------------- requests */

static void *new_request(void *arg, tf_error *e) {
  (void)arg, (void)e;
  tf_request *r = tf_nalloc(1, sizeof *r);
  tf_request_init(r);
  return r;
}

tf_request *tf_request_new(tf_error **err) { return guarded(new_request, NULL, err); }

void tf_request_free(tf_request *r) {
  if (r)
    tf_request_release(r);
  free(r);
}

/* One addition to a request; `where` names it in binding's errors. */
typedef struct addition {
  tf_request *r;
  int field;        /* enum tf_request_field_id */
  const char *name; /* params, fixes, domains: the name; requires, objectives: the text */
  int64_t value;
  const int64_t *values;
  size_t n;
} addition;

static void *add(void *arg, tf_error *e) {
  addition *x = arg;
  if (!x->r)
    return missing(e, "request");
  if (!x->name || (x->field == TF_RQF_domains && (!x->n || !x->values)))
    return missing(e, x->field == TF_RQF_domains ? "name or values" : x->field >= TF_RQF_requires ? "text" : "name");
  const char *where = tf_request_fields[x->field].key; /* "params", "fix", ... */
  if (x->field == TF_RQF_params)
    tf_request_add_param(x->r, x->name, x->value, where);
  else if (x->field == TF_RQF_fixes)
    tf_request_add_fix(x->r, x->name, x->value, where);
  else if (x->field == TF_RQF_domains)
    tf_request_add_domain(x->r, x->name, x->values, x->n, where);
  else if (x->field == TF_RQF_requires)
    tf_request_add_require(x->r, x->name, where);
  else
    tf_request_add_objective(x->r, x->name, where);
  return x;
}

static int added(tf_request *r, int field, const char *name, int64_t value, tf_error **err) {
  addition x = {r, field, name, value, NULL, 0};
  return guarded(add, &x, err) ? 0 : -1;
}

int tf_request_param(tf_request *r, const char *name, int64_t value, tf_error **err) {
  return added(r, TF_RQF_params, name, value, err);
}

int tf_request_fix(tf_request *r, const char *name, int64_t value, tf_error **err) {
  return added(r, TF_RQF_fixes, name, value, err);
}

int tf_request_domain(tf_request *r, const char *name, const int64_t *values, size_t n, tf_error **err) {
  addition x = {r, TF_RQF_domains, name, 0, values, n};
  return guarded(add, &x, err) ? 0 : -1;
}

int tf_request_require(tf_request *r, const char *constraint, tf_error **err) {
  return added(r, TF_RQF_requires, constraint, 0, err);
}

int tf_request_objective(tf_request *r, const char *objective, tf_error **err) {
  return added(r, TF_RQF_objectives, objective, 0, err);
}

int tf_request_any_arch(tf_request *r, int flag, tf_error **err) {
  tf_error e;
  tf_error_init(&e);
  if (!r) {
    missing(&e, "request");
    keep(err, &e);
    return -1;
  }
  r->any_arch = flag != 0;
  return 0;
}

/* ---------------------------------------------------- problems and results */

typedef struct binding {
  const tf_machine *m;
  const tf_workset *w;
  const tf_request *r;
} binding;

static void *bind_problem(void *arg, tf_error *e) {
  binding *b = arg;
  if (!b->m || !b->w || !b->r)
    return missing(e, !b->m ? "machine" : !b->w ? "workset" : "request");
  return tf_run_arch_check(b->m, b->w, b->r, "any_arch", " (tf_request_any_arch solves it anyway)", e)
             ? NULL
             : tf_problem_new(b->m, b->w, b->r, e);
}

tf_problem *tf_problem_bind(const tf_machine *m, const tf_workset *w, const tf_request *r, tf_error **err) {
  binding b = {m, w, r};
  return guarded(bind_problem, &b, err);
}

/* tf_solve with the default options (the exact search), or tf_check. */
typedef struct solving {
  const tf_problem *p;
  int check;
} solving;

static void *solve(void *arg, tf_error *e) {
  const solving *s = arg;
  if (!s->p)
    return missing(e, "problem");
  tf_result *a = tf_nalloc(1, sizeof *a);
  a->p = s->p;
  a->explain = s->check;
  tf_answer_init(&a->a, s->p);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  int rc = s->check ? tf_check(s->p, &a->a, e) : tf_solve(s->p, &o, NULL, &a->a, e);
  tf_backend_thread_done(); /* a solver's per-thread state: leave none behind */
  if (rc) {
    tf_result_free(a);
    return NULL;
  }
  return a;
}

tf_result *tf_problem_solve(const tf_problem *p, tf_error **err) {
  solving s = {p, 0};
  return guarded(solve, &s, err);
}

tf_result *tf_problem_check(const tf_problem *p, tf_error **err) {
  solving s = {p, 1};
  return guarded(solve, &s, err);
}

const char *tf_result_status(const tf_result *a) { return a ? tf_answer_status_name(a->a.status) : ""; }

const char *tf_result_reason(const tf_result *a) {
  return a && (a->a.status == TF_ANSWER_INFEASIBLE || a->a.status == TF_ANSWER_NO_FIT) ? a->a.why : "";
}

int tf_result_value(const tf_result *a, const char *name, int64_t *value) {
  if (!a || !name || !tf_report_has_answer(&a->a))
    return -1;
  const tf_problem *p = a->p;
  for (size_t i = 0; i < tf_place_nnumeric(p); i++) /* the choose variables; placement's are memories */
    if (!strcmp(p->choose_names[i], name))
      return *value = a->a.choose[i], 0;
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], name))
      return *value = a->a.counts[k], 0;
  return -1;
}

void tf_result_free(tf_result *a) {
  if (a)
    tf_answer_release(&a->a);
  free(a);
}

/* --------------------------------------------------------------- reports */

typedef struct reporting {
  const tf_result *a;
  int format;
  FILE *f;    /* the caller's, or NULL: into text */
  char *text; /* that text, the caller's to free */
  size_t len;
} reporting;

/* The report as `tilefit solve` / `check` writes it for one answer (the
 * request only names an id, which this interface's have not). */
static void write_report(FILE *f, const reporting *x) {
  tf_request none;
  tf_request_init(&none);
  tf_report_answers(f, x->format == TF_REPORT_JSON ? TF_FORMAT_JSON : TF_FORMAT_TEXT, &none, x->a->p, &x->a->a, 1,
                    x->a->explain);
}

static void *report(void *arg, tf_error *e) {
  reporting *x = arg;
  if (!x->a)
    return missing(e, "result");
  if (x->format != TF_REPORT_TEXT && x->format != TF_REPORT_JSON) {
    tf_error_set(e, TF_EINPUT, "format", "unknown report format %d (TF_REPORT_TEXT, TF_REPORT_JSON)", x->format);
    return NULL;
  }
  if (x->f) {
    write_report(x->f, x);
    if (!fflush(x->f) && !ferror(x->f))
      return x;
    tf_error_set(e, TF_EOUTPUT, NULL, "cannot write the report");
    return NULL;
  }
  tf_text t;
  write_report(tf_text_open(&t), x);
  x->text = tf_text_close(&t, &x->len);
  return x;
}

int tf_report_file(const tf_result *a, int format, FILE *f, tf_error **err) {
  reporting x = {a, format, f, NULL, 0};
  if (!f) {
    tf_error e;
    tf_error_init(&e);
    missing(&e, "FILE *");
    keep(err, &e);
    return -1;
  }
  return guarded(report, &x, err) ? 0 : -1;
}

int tf_report_string(const tf_result *a, int format, char *buf, size_t size, size_t *len, tf_error **err) {
  reporting x = {a, format, NULL, NULL, 0};
  if (!guarded(report, &x, err))
    return -1;
  if (size && buf) {
    size_t n = x.len < size ? x.len : size - 1;
    memcpy(buf, x.text, n);
    buf[n] = 0;
  }
  if (len)
    *len = x.len;
  free(x.text);
  return 0;
}
