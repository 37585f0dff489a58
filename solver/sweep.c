#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "encode/build.h"
#include "encode/decode.h"
#include "encode/verify.h"
#include "model/alloc.h"
#include "model/case.h"
#include "model/catalog.h"
#include "model/json.h"
#include "solver/memo.h"
#include "solver/output.h"
#include "solver/report.h"
#include "solver/solve.h"


/* ------------------------------------------------------------- helpers */

/* Text built in memory through a FILE *, so the report functions can
 * write into it. */
struct text {
  char *buf;
  size_t len;
  FILE *f;
};

static FILE *text_open(struct text *t) {
  t->buf = NULL;
  t->len = 0;
  t->f = open_memstream(&t->buf, &t->len);
  if (!t->f)
    abort(); /* out of memory, as tf_nalloc */
  return t->f;
}

static char *text_close(struct text *t, size_t *len) {
  if (fclose(t->f))
    abort();
  if (len)
    *len = t->len;
  return t->buf;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


/* A CSV field, quoted when it must be (RFC 4180). */
static void csv_field(FILE *f, const char *s) {
  if (!s[strcspn(s, ",\"\n\r")]) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}


const char *tf_sweep_status_name(int status) {
  return status == TF_SWEEP_ERROR ? "error" : tf_answer_status_name(status);
}

/* --------------------------------------------------------------- sweep */

struct values {      /* a swept list, or a domain */
  char *name;
  int64_t *v;
  size_t n;
};

struct objlist {     /* one lexicographic list; n == 0: the workset's own */
  char **texts;
  size_t n;
};

struct wsinfo {      /* a workset named by the sweep, loaded for expansion */
  char *name;
  tf_workset *w;     /* owned; NULL when it does not load */
};

struct csv_cols {
  char **params;  size_t nparams, capparams;
  char **vars;    size_t nvars, capvars;
  char **counts;  size_t ncounts, capcounts;
  int mem[TF_NMEM];
  size_t nobjectives;
};

struct tf_sweep {
  char *file;
  int is_spec;
  size_t npoints;

  /* a spec */
  char **machines;       size_t nmachines;
  size_t *wsidx;         size_t nworksets;   /* per spec workset: index into ws */
  struct values *params; size_t nparams;
  struct values *fixes;  size_t nfixes;
  struct values *domains; size_t ndomains;
  char **requires;       size_t nrequires;
  struct objlist *objectives; size_t nobjectives; /* 0: no "objectives" key */
  tf_expr **where;       size_t nwhere;
  unsigned char *applies;   /* per spec workset: params, fixes, domains, requires, objectives */
  size_t napplies;
  int32_t *sel;             /* per point: machine, workset, objective, param value idx..., fix value idx... */
  size_t stride, capsel;

  /* a problem list */
  tf_case *cases;        /* per point */
  char **case_error;     /* per point: why the line does not parse, or NULL */
  size_t capcases;

  struct wsinfo *ws;     size_t nws, capws;
  struct csv_cols csv;
  char *csv_header;
  char **warnings;       size_t nwarnings, capwarnings;
};

static void warn(tf_sweep *s, const char *fmt, const char *a, const char *b) {
  char buf[1024];
  snprintf(buf, sizeof buf, fmt, a, b);
  char *w = tf_strdup(buf);
  TF_PUSH(s->warnings, s->nwarnings, s->capwarnings, w);
}

/* The workset of that name, loaded once per sweep (for its names only;
 * solving goes through the cache). */
static size_t workset_index(tf_sweep *s, const char *name) {
  for (size_t i = 0; i < s->nws; i++)
    if (!strcmp(s->ws[i].name, name))
      return i;
  struct wsinfo info = {tf_strdup(name), NULL};
  tf_error err;
  tf_error_init(&err);
  char path[4096];
  if (!tf_catalog_find(TF_CATALOG_WORKSETS, name, "workset", path, sizeof path, &err))
    info.w = tf_workset_load(path, &err);
  if (!info.w) {
    char msg[1024];
    tf_error_format(&err, msg, sizeof msg);
    warn(s, "workset '%s' does not load, its points are error lines: %s", name, msg);
  }
  TF_PUSH(s->ws, s->nws, s->capws, info);
  return s->nws - 1;
}

static void check_machine(tf_sweep *s, const char *name) {
  tf_error err;
  tf_error_init(&err);
  char path[4096];
  tf_machine *m = NULL;
  if (!tf_catalog_find(TF_CATALOG_MACHINES, name, "machine", path, sizeof path, &err))
    m = tf_machine_load(path, &err);
  if (!m) {
    char msg[1024];
    tf_error_format(&err, msg, sizeof msg);
    warn(s, "machine '%s' does not load, its points are error lines: %s", name, msg);
  }
  tf_machine_free(m);
}

void tf_sweep_free(tf_sweep *s) {
  if (!s)
    return;
  free(s->file);
  for (size_t i = 0; i < s->nmachines; i++)
    free(s->machines[i]);
  free(s->machines);
  free(s->wsidx);
  struct values *lists[] = {s->params, s->fixes, s->domains};
  size_t nlists[] = {s->nparams, s->nfixes, s->ndomains};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < nlists[l]; i++)
      free(lists[l][i].name), free(lists[l][i].v);
    free(lists[l]);
  }
  for (size_t i = 0; i < s->nrequires; i++)
    free(s->requires[i]);
  free(s->requires);
  for (size_t i = 0; i < s->nobjectives; i++) {
    for (size_t j = 0; j < s->objectives[i].n; j++)
      free(s->objectives[i].texts[j]);
    free(s->objectives[i].texts);
  }
  free(s->objectives);
  for (size_t i = 0; i < s->nwhere; i++)
    tf_expr_free(s->where[i]);
  free(s->where);
  free(s->applies);
  free(s->sel);
  for (size_t i = 0; s->cases && i < s->npoints; i++) {
    tf_case_release(&s->cases[i]);
    free(s->case_error[i]);
  }
  free(s->cases);
  free(s->case_error);
  for (size_t i = 0; i < s->nws; i++) {
    free(s->ws[i].name);
    tf_workset_free(s->ws[i].w);
  }
  free(s->ws);
  char **names[] = {s->csv.params, s->csv.vars, s->csv.counts};
  size_t nnames[] = {s->csv.nparams, s->csv.nvars, s->csv.ncounts};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < nnames[l]; i++)
      free(names[l][i]);
    free(names[l]);
  }
  free(s->csv_header);
  for (size_t i = 0; i < s->nwarnings; i++)
    free(s->warnings[i]);
  free(s->warnings);
  free(s);
}

size_t tf_sweep_npoints(const tf_sweep *s) { return s->npoints; }
size_t tf_sweep_nwarnings(const tf_sweep *s) { return s->nwarnings; }
const char *tf_sweep_warning(const tf_sweep *s, size_t i) { return s->warnings[i]; }
const char *tf_sweep_csv_header(const tf_sweep *s) { return s->csv_header; }

/* ---------------------------------------------------------------- spec */

static int has_param(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->nparams; i++)
    if (!strcmp(w->params[i].name, name))
      return 1;
  return 0;
}

static int has_choose(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->nchoose; i++)
    if (!strcmp(w->choose[i].name, name))
      return 1;
  return 0;
}

static int has_variable(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->ncounts; i++)
    if (!strcmp(w->counts[i].name, name))
      return 1;
  return has_choose(w, name);
}

static int binds_require(const tf_workset *w, const char *text) {
  tf_error err;
  tf_error_init(&err);
  tf_expr *e = tf_workset_parse_require(w, text, "require", &err);
  tf_expr_free(e);
  return e != NULL;
}

static int binds_objectives(const tf_workset *w, const struct objlist *o) {
  for (size_t i = 0; i < o->n; i++) {
    tf_error err;
    tf_error_init(&err);
    tf_objective obj;
    memset(&obj, 0, sizeof obj);
    int rc = tf_workset_parse_objective(w, o->texts[i], "objective", &obj, &err);
    tf_objective_release(&obj);
    if (rc)
      return 0;
  }
  return 1;
}

/* "machines"/"worksets": a list of names, or "*" for every shipped one. */
static int read_names(const cJSON *v, const char *path, int kind, char ***out, size_t *n, tf_error *err) {
  if (cJSON_IsString(v) && !strcmp(v->valuestring, "*")) {
    *out = tf_catalog_list(kind, n);
    if (!*n)
      return tf_error_set(err, TF_EINPUT, path, "\"*\" found no shipped %s", kind ? "worksets" : "machines");
    return 0;
  }
  if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty list of names, or \"*\" for all shipped");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(v), sizeof **out);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, *n);
    if (!cJSON_IsString(x) || !x->valuestring[0])
      return tf_error_set(err, TF_EINPUT, sub, "expected a non-empty string");
    for (size_t i = 0; i < *n; i++)
      if (!strcmp((*out)[i], x->valuestring))
        return tf_error_set(err, TF_EINPUT, sub, "'%s' appears twice", x->valuestring);
    (*out)[(*n)++] = tf_strdup(x->valuestring);
  }
  return 0;
}

/* {"NAME": [integers] | {"from", "to", "step"} | integer, ...} */
static int read_lists(const cJSON *obj, const char *path, struct values **out, size_t *n, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, path, "expected an object of NAME: [integers]");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(obj) + 1, sizeof **out);
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char sub[160];
    tf_path_key(sub, sizeof sub, path, m->string);
    tf_choose c;
    memset(&c, 0, sizeof c);
    if (cJSON_IsNumber(m)) {
      int64_t v;
      if (tf_json_int(m, sub, -TF_JSON_EXACT, TF_JSON_EXACT, &v, err))
        return -1;
      c.values = tf_nalloc(1, sizeof *c.values);
      c.values[0] = v;
      c.nvalues = 1;
    } else if (tf_read_domain(&c, m, sub, err)) {
      free(c.values);
      return -1;
    }
    (*out)[(*n)++] = (struct values){tf_strdup(m->string), c.values, c.nvalues};
  }
  return 0;
}

/* A string, or a list of strings. */
static int read_strings(const cJSON *v, const char *path, int allow_empty, char ***out, size_t *n, tf_error *err) {
  if (!v)
    return 0;
  if (cJSON_IsString(v)) {
    *out = tf_nalloc(1, sizeof **out);
    (*out)[(*n)++] = tf_strdup(v->valuestring);
    return 0;
  }
  if (!cJSON_IsArray(v) || (!allow_empty && !cJSON_GetArraySize(v)))
    return tf_error_set(err, TF_EINPUT, path, "expected a string or a list of strings");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, *n);
    if (!cJSON_IsString(x))
      return tf_error_set(err, TF_EINPUT, sub, "expected a string");
    (*out)[(*n)++] = tf_strdup(x->valuestring);
  }
  return 0;
}

/* "objectives": a list whose items are each a string (one objective) or a
 * list of strings (lexicographic; [] for the workset's own). */
static int read_objectives(tf_sweep *s, const cJSON *v, tf_error *err) {
  if (!v)
    return 0;
  if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
    return tf_error_set(err, TF_EINPUT, "$.objectives",
                        "expected a non-empty list of objective lists, e.g. [[], \"max stages\"]");
  s->objectives = tf_nalloc((size_t)cJSON_GetArraySize(v), sizeof *s->objectives);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.objectives", s->nobjectives);
    struct objlist *o = &s->objectives[s->nobjectives++];
    if (read_strings(x, sub, 1, &o->texts, &o->n, err))
      return -1;
  }
  return 0;
}

/* Names `where` filters may use: the swept params, then the swept fixes. */
struct where_ctx {
  const tf_sweep *s;
};

static int where_resolve(void *ctx, const char *name) {
  const tf_sweep *s = ((struct where_ctx *)ctx)->s;
  for (size_t i = 0; i < s->nparams; i++)
    if (!strcmp(s->params[i].name, name))
      return (int)i;
  for (size_t i = 0; i < s->nfixes; i++)
    if (!strcmp(s->fixes[i].name, name))
      return (int)(s->nparams + i);
  return -1;
}

static int read_where(tf_sweep *s, const cJSON *v, tf_error *err) {
  char **texts = NULL;
  size_t n = 0;
  int rc = read_strings(v, "$.where", 0, &texts, &n, err);
  s->where = tf_nalloc(n + 1, sizeof *s->where);
  struct where_ctx ctx = {s};
  for (size_t i = 0; i < n; i++) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.where", i);
    tf_expr *e = rc ? NULL : tf_expr_parse(texts[i], err);
    if (!rc && !e)
      tf_error_set_path(err, sub), rc = -1;
    if (e) {
      s->where[s->nwhere++] = e;
      if (tf_expr_bind(e, where_resolve, &ctx, err))
        tf_error_set_path(err, sub), rc = -1;
    }
    free(texts[i]);
  }
  free(texts);
  return rc;
}

/* Applicability table: for spec workset i, entry j over params, fixes,
 * domains, requires, objectives. */
static unsigned char *applies_row(const tf_sweep *s, size_t wi) { return s->applies + wi * s->napplies; }

static int compute_applies(tf_sweep *s, tf_error *err) {
  s->napplies = s->nparams + s->nfixes + s->ndomains + s->nrequires + s->nobjectives + 1;
  s->applies = tf_nalloc(s->nworksets * s->napplies + 1, 1);
  int any_loaded = 0;
  for (size_t wi = 0; wi < s->nworksets; wi++) {
    const tf_workset *w = s->ws[s->wsidx[wi]].w;
    unsigned char *a = applies_row(s, wi);
    size_t j = 0;
    any_loaded |= w != NULL;
    for (size_t i = 0; i < s->nparams; i++)
      a[j++] = has_param(w, s->params[i].name);
    for (size_t i = 0; i < s->nfixes; i++)
      a[j++] = has_variable(w, s->fixes[i].name);
    for (size_t i = 0; i < s->ndomains; i++)
      a[j++] = has_choose(w, s->domains[i].name);
    for (size_t i = 0; i < s->nrequires; i++)
      a[j++] = w && binds_require(w, s->requires[i]);
    for (size_t i = 0; i < s->nobjectives; i++)
      a[j++] = !w || binds_objectives(w, &s->objectives[i]); /* a workset that does not load: error lines */
  }
  if (!any_loaded)
    return 0; /* nothing to check names against */
  static const char *const what[] = {"params", "fix", "domain", "require", "objectives"};
  size_t counts[] = {s->nparams, s->nfixes, s->ndomains, s->nrequires, s->nobjectives};
  size_t j = 0;
  for (int g = 0; g < 5; g++)
    for (size_t i = 0; i < counts[g]; i++, j++) {
      int used = 0;
      for (size_t wi = 0; wi < s->nworksets && !used; wi++)
        used = s->ws[s->wsidx[wi]].w && applies_row(s, wi)[j];
      if (used)
        continue;
      char group[32], path[160];
      snprintf(group, sizeof group, "$.%s", what[g]);
      if (g < 3) {
        const struct values *v = g == 0 ? &s->params[i] : g == 1 ? &s->fixes[i] : &s->domains[i];
        tf_path_key(path, sizeof path, group, v->name);
        return tf_error_set(err, TF_EINPUT, path, "no workset of the sweep has a %s '%s'",
                            g == 0 ? "param" : g == 1 ? "variable" : "choose variable", v->name);
      }
      tf_path_index(path, sizeof path, group, i);
      return tf_error_set(err, TF_EINPUT, path, "binds in no workset of the sweep (a misspelt name?)");
    }
  return 0;
}

static int32_t *point_sel(const tf_sweep *s, size_t i) { return s->sel + i * s->stride; }

struct symbol_check {
  const int *set;
  int ok;
};
static void symbol_is_set(void *ctx, int sym) {
  struct symbol_check *c = ctx;
  if (!c->set[sym])
    c->ok = 0;
}

/* Does the point pass every `where` filter that applies to it? */
static int passes_where(const tf_sweep *s, const int32_t *vals, size_t mi, size_t wi, tf_error *err) {
  size_t nsym = s->nparams + s->nfixes;
  tf_affine syms[nsym + 1];
  int set[nsym + 1];
  memset(syms, 0, sizeof syms);
  for (size_t k = 0; k < nsym; k++) {
    set[k] = vals[k] >= 0;
    if (set[k])
      syms[k].c = k < s->nparams ? s->params[k].v[vals[k]] : s->fixes[k - s->nparams].v[vals[k]];
  }
  tf_eval_env env = {syms, 0, NULL};
  for (size_t i = 0; i < s->nwhere; i++) {
    struct symbol_check c = {set, 1};
    tf_expr_each_symbol(s->where[i], symbol_is_set, &c);
    if (!c.ok)
      continue;
    int64_t v;
    if (tf_expr_eval_const(s->where[i], &env, &v, err)) {
      char path[160];
      tf_path_index(path, sizeof path, "$.where", i);
      tf_error_set_path(err, path);
      snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (at %s, %s)", s->machines[mi],
               s->ws[s->wsidx[wi]].name);
      return -1;
    }
    if (!v)
      return 0;
  }
  return 1;
}

static int push_point(tf_sweep *s, size_t mi, size_t wi, size_t oi, const int32_t *vals, tf_error *err) {
  if (s->npoints >= TF_SWEEP_MAX_POINTS)
    return tf_error_set(err, TF_EINPUT, "$", "the sweep has more than %d points", TF_SWEEP_MAX_POINTS);
  if (s->npoints == s->capsel) {
    s->capsel = s->capsel ? 2 * s->capsel : 256;
    s->sel = tf_nrealloc(s->sel, s->capsel * s->stride, sizeof *s->sel);
  }
  int32_t *p = point_sel(s, s->npoints++);
  p[0] = (int32_t)mi, p[1] = (int32_t)wi, p[2] = (int32_t)oi;
  memcpy(p + 3, vals, (s->nparams + s->nfixes) * sizeof *vals);
  return 0;
}

/* machines x worksets x params x fixes x objectives, last fastest. */
static int expand(tf_sweep *s, tf_error *err) {
  size_t nd = s->nparams + s->nfixes;
  s->stride = 3 + nd;
  int32_t vals[nd + 1];
  size_t dims[nd + 1], lens[nd + 1];
  for (size_t mi = 0; mi < s->nmachines; mi++)
    for (size_t wi = 0; wi < s->nworksets; wi++) {
      const unsigned char *a = applies_row(s, wi);
      size_t n = 0;
      for (size_t d = 0; d < nd; d++) {
        vals[d] = -1;
        if (a[d]) {
          dims[n] = d;
          lens[n++] = d < s->nparams ? s->params[d].n : s->fixes[d - s->nparams].n;
        }
      }
      for (size_t k = 0; k < n; k++)
        vals[dims[k]] = 0;
      for (;;) {
        int keep = passes_where(s, vals, mi, wi, err);
        if (keep < 0)
          return -1;
        for (size_t oi = 0; keep && oi < (s->nobjectives ? s->nobjectives : 1); oi++)
          if ((!s->nobjectives || a[nd + s->ndomains + s->nrequires + oi]) && push_point(s, mi, wi, oi, vals, err))
            return -1;
        size_t k = n;
        while (k > 0 && (size_t)++vals[dims[k - 1]] == lens[k - 1])
          vals[dims[--k]] = 0;
        if (k == 0)
          break;
      }
    }
  return 0;
}

static int parse_spec(tf_sweep *s, const cJSON *root, tf_error *err) {
  static const char *const keys[] = {"machines", "worksets", "params",     "fix",     "domain",
                                     "require",  "objectives", "where",    "comment", NULL};
  static const char *const required[] = {"machines", "worksets", NULL};
  if (tf_json_keys(root, "$", keys, required, err))
    return -1;
  char **wsnames = NULL;
  size_t nws = 0;
  int rc = read_names(tf_json_member(root, "machines"), "$.machines", TF_CATALOG_MACHINES, &s->machines,
                      &s->nmachines, err) ||
                   read_names(tf_json_member(root, "worksets"), "$.worksets", TF_CATALOG_WORKSETS, &wsnames, &nws, err) ||
                   read_lists(tf_json_member(root, "params"), "$.params", &s->params, &s->nparams, err) ||
                   read_lists(tf_json_member(root, "fix"), "$.fix", &s->fixes, &s->nfixes, err) ||
                   read_lists(tf_json_member(root, "domain"), "$.domain", &s->domains, &s->ndomains, err) ||
                   read_strings(tf_json_member(root, "require"), "$.require", 0, &s->requires, &s->nrequires, err) ||
                   read_objectives(s, tf_json_member(root, "objectives"), err)
               ? -1
               : 0;
  if (!rc) {
    s->wsidx = tf_nalloc(nws + 1, sizeof *s->wsidx);
    for (size_t i = 0; i < nws; i++)
      s->wsidx[i] = workset_index(s, wsnames[i]);
    s->nworksets = nws;
    for (size_t i = 0; i < s->nmachines; i++)
      check_machine(s, s->machines[i]);
    for (size_t i = 0; i < s->nfixes && !rc; i++)
      for (size_t j = 0; j < s->nparams && !rc; j++)
        if (!strcmp(s->fixes[i].name, s->params[j].name))
          rc = tf_error_set(err, TF_EINPUT, "$.fix", "'%s' is both a param and a fix", s->fixes[i].name);
  }
  for (size_t i = 0; i < nws; i++)
    free(wsnames[i]);
  free(wsnames);
  const cJSON *where = tf_json_member(root, "where");
  if (rc || (where && read_where(s, where, err)) || compute_applies(s, err) || expand(s, err))
    return -1;
  return 0;
}

/* -------------------------------------------------------- problem list */

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

struct list_ctx {
  tf_sweep *sweep;
  const char *file;
};

/* One problem line; a line that does not parse becomes an error point. */
static int load_line(void *ctx, const char *line, size_t len, size_t lineno, tf_error *err) {
  struct list_ctx *x = ctx;
  tf_sweep *s = x->sweep;
  if (s->npoints >= TF_SWEEP_MAX_POINTS) {
    tf_error_set(err, TF_EINPUT, NULL, "more than %d problems", TF_SWEEP_MAX_POINTS);
    tf_error_set_file(err, x->file);
    return -1;
  }
  if (s->npoints == s->capcases) {
    s->capcases = s->capcases ? 2 * s->capcases : 64;
    TF_NREALLOC(s->cases, s->capcases);
    TF_NREALLOC(s->case_error, s->capcases);
  }
  tf_case *c = &s->cases[s->npoints];
  tf_case_init(c);
  s->case_error[s->npoints] = NULL;
  tf_error e;
  tf_error_init(&e);
  if (tf_case_parse(line, len, x->file, lineno, c, &e)) {
    char msg[1024];
    tf_error_format(&e, msg, sizeof msg);
    char *id = c->req.id ? tf_strdup(c->req.id) : NULL; /* keep the id if it was read */
    tf_case_release(c);
    c->req.id = id;
    s->case_error[s->npoints] = tf_strdup(msg);
  }
  if (!c->req.id) {
    char id[32];
    snprintf(id, sizeof id, "line-%zu", lineno);
    c->req.id = tf_strdup(id);
  }
  if (c->req.workset)
    workset_index(s, c->req.workset);
  s->npoints++;
  return 0;
}

static int load_list(tf_sweep *s, const char *file, tf_error *err) {
  struct list_ctx x = {s, file};
  return tf_jsonl_each(file, load_line, &x, err);
}

/* ----------------------------------------------------------- CSV header */

static void add_name(char ***v, size_t *n, size_t *cap, const char *name) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i], name))
      return;
  char *copy = tf_strdup(name);
  TF_PUSH(*v, *n, *cap, copy);
}

static void csv_columns(tf_sweep *s) {
  struct csv_cols *c = &s->csv;
  for (size_t i = 0; i < s->nws; i++) {
    const tf_workset *w = s->ws[i].w;
    if (!w)
      continue;
    for (size_t k = 0; k < w->nparams; k++)
      add_name(&c->params, &c->nparams, &c->capparams, w->params[k].name);
    for (size_t k = 0; k < w->nchoose; k++)
      add_name(&c->vars, &c->nvars, &c->capvars, w->choose[k].name);
    for (size_t k = 0; k < w->ncounts; k++) {
      add_name(&c->vars, &c->nvars, &c->capvars, w->counts[k].name);
      add_name(&c->counts, &c->ncounts, &c->capcounts, w->counts[k].name);
    }
    for (size_t b = 0; b < w->nbuffers; b++)
      c->mem[w->buffers[b].memory] = 1;
    if (w->nobjective > c->nobjectives)
      c->nobjectives = w->nobjective;
  }
  for (size_t i = 0; i < s->nobjectives; i++)
    if (s->objectives[i].n > c->nobjectives)
      c->nobjectives = s->objectives[i].n;
  for (size_t i = 0; s->cases && i < s->npoints; i++)
    if (s->cases[i].req.nobjectives > c->nobjectives)
      c->nobjectives = s->cases[i].req.nobjectives;
  struct text t;
  FILE *f = text_open(&t);
  fputs("index,total,id,machine,workset,status,objectives", f);
  for (size_t i = 0; i < c->nparams; i++)
    fputc(',', f), fputs("param_", f), csv_field(f, c->params[i]);
  for (size_t i = 0; i < c->nvars; i++)
    fputc(',', f), csv_field(f, c->vars[i]);
  for (int m = 0; m < TF_NMEM; m++)
    if (c->mem[m])
      fprintf(f, ",%s_used,%s_capacity", tf_memory_name(m), tf_memory_name(m));
  for (size_t o = 0; o < c->nobjectives; o++)
    fprintf(f, ",objective%zu", o + 1);
  for (size_t k = 0; k < c->ncounts; k++)
    fprintf(f, ",closed_%s,closed_%s_agrees", c->counts[k], c->counts[k]);
  fputs(",reason\n", f);
  s->csv_header = text_close(&t, NULL);
}

/* ---------------------------------------------------------------- load */

tf_sweep *tf_sweep_parse_spec(const char *text, size_t len, const char *file, tf_error *err) {
  cJSON *root = tf_json_parse(text, len, file, err);
  if (!root)
    return NULL;
  tf_sweep *s = tf_nalloc(1, sizeof *s);
  s->file = tf_strdup(file);
  s->is_spec = 1;
  int rc = cJSON_IsObject(root) ? parse_spec(s, root, err)
                                : tf_error_set(err, TF_EINPUT, "$", "expected a sweep spec object (a problem list "
                                                                    "is a file ending in .jsonl)");
  cJSON_Delete(root);
  if (rc) {
    tf_error_set_file(err, file);
    tf_sweep_free(s);
    return NULL;
  }
  csv_columns(s);
  return s;
}

tf_sweep *tf_sweep_load(const char *file, tf_error *err) {
  if (has_suffix(file, ".jsonl") || has_suffix(file, ".ndjson")) {
    tf_sweep *s = tf_nalloc(1, sizeof *s);
    s->file = tf_strdup(file);
    if (load_list(s, file, err)) {
      tf_sweep_free(s);
      return NULL;
    }
    csv_columns(s);
    return s;
  }
  size_t len;
  char *text = tf_read_file(file, &len, err);
  if (!text)
    return NULL;
  tf_sweep *s = tf_sweep_parse_spec(text, len, file, err);
  free(text);
  return s;
}

/* ------------------------------------------------------ ids, requests */

char *tf_sweep_id(const tf_sweep *s, size_t i) {
  if (!s->is_spec)
    return tf_strdup(s->cases[i].req.id);
  const int32_t *p = point_sel(s, i);
  struct text t;
  FILE *f = text_open(&t);
  fprintf(f, "%s/%s", s->machines[p[0]], s->ws[s->wsidx[p[1]]].name);
  const int32_t *vals = p + 3;
  int first = 1;
  for (size_t k = 0; k < s->nparams; k++)
    if (vals[k] >= 0) {
      fprintf(f, "%s%s=%lld", first ? "/" : ",", s->params[k].name, (long long)s->params[k].v[vals[k]]);
      first = 0;
    }
  first = 1;
  for (size_t k = 0; k < s->nfixes; k++)
    if (vals[s->nparams + k] >= 0) {
      fprintf(f, "%s%s=%lld", first ? "/fix:" : ",", s->fixes[k].name,
              (long long)s->fixes[k].v[vals[s->nparams + k]]);
      first = 0;
    }
  if (s->nobjectives)
    fprintf(f, "/o%d", p[2] + 1);
  return text_close(&t, NULL);
}

static void copy_request(tf_request *dst, const tf_request *src) {
  dst->id = src->id ? tf_strdup(src->id) : NULL;
  dst->machine = src->machine ? tf_strdup(src->machine) : NULL;
  dst->workset = src->workset ? tf_strdup(src->workset) : NULL;
  for (size_t i = 0; i < src->nparams; i++)
    tf_request_add_param(dst, src->params[i].name, src->params[i].value, src->params[i].where);
  for (size_t i = 0; i < src->nfixes; i++)
    tf_request_add_fix(dst, src->fixes[i].name, src->fixes[i].value, src->fixes[i].where);
  for (size_t i = 0; i < src->ndomains; i++)
    tf_request_add_domain(dst, src->domains[i].name, src->domains[i].values, src->domains[i].nvalues,
                          src->domains[i].where);
  for (size_t i = 0; i < src->nrequires; i++)
    tf_request_add_require(dst, src->requires[i].text, src->requires[i].where);
  for (size_t i = 0; i < src->nobjectives; i++)
    tf_request_add_objective(dst, src->objectives[i].text, src->objectives[i].where);
}

int tf_sweep_request(const tf_sweep *s, size_t i, tf_request *req, int *check, tf_error *err) {
  *check = 0;
  if (!s->is_spec) {
    if (s->case_error[i]) {
      req->id = tf_strdup(s->cases[i].req.id);
      return tf_error_set(err, TF_EINPUT, NULL, "%s", s->case_error[i]);
    }
    copy_request(req, &s->cases[i].req);
    *check = s->cases[i].kind == TF_KIND_FITS;
    return 0;
  }
  const int32_t *p = point_sel(s, i);
  const unsigned char *a = applies_row(s, (size_t)p[1]);
  const int32_t *vals = p + 3;
  char where[160];
  req->id = tf_sweep_id(s, i);
  req->machine = tf_strdup(s->machines[p[0]]);
  req->workset = tf_strdup(s->ws[s->wsidx[p[1]]].name);
  for (size_t k = 0; k < s->nparams; k++)
    if (vals[k] >= 0) {
      tf_path_key(where, sizeof where, "$.params", s->params[k].name);
      tf_request_add_param(req, s->params[k].name, s->params[k].v[vals[k]], where);
    }
  for (size_t k = 0; k < s->nfixes; k++)
    if (vals[s->nparams + k] >= 0) {
      tf_path_key(where, sizeof where, "$.fix", s->fixes[k].name);
      tf_request_add_fix(req, s->fixes[k].name, s->fixes[k].v[vals[s->nparams + k]], where);
    }
  size_t j = s->nparams + s->nfixes;
  for (size_t k = 0; k < s->ndomains; k++, j++)
    if (a[j]) {
      tf_path_key(where, sizeof where, "$.domain", s->domains[k].name);
      tf_request_add_domain(req, s->domains[k].name, s->domains[k].v, s->domains[k].n, where);
    }
  for (size_t k = 0; k < s->nrequires; k++, j++)
    if (a[j]) {
      tf_path_index(where, sizeof where, "$.require", k);
      tf_request_add_require(req, s->requires[k], where);
    }
  if (s->nobjectives) {
    const struct objlist *o = &s->objectives[p[2]];
    for (size_t k = 0; k < o->n; k++) {
      snprintf(where, sizeof where, "$.objectives[%d][%zu]", p[2], k);
      tf_request_add_objective(req, o->texts[k], where);
    }
  }
  return 0;
}

/* ----------------------------------------------------------------- keys */

char *tf_sweep_key(const tf_request *req, const tf_problem *p, int check, size_t *len) {
  struct text t;
  FILE *f = text_open(&t);
  fprintf(f, "m=%s\037w=%s\037p=", req->machine, req->workset);
  for (size_t i = 0; i < p->workset->nparams; i++)
    fprintf(f, "%lld,", (long long)p->param_values[i]);
  fputs("\037f=", f);
  for (size_t i = 0; i < req->nfixes; i++)
    fprintf(f, "%s=%lld\036", req->fixes[i].name, (long long)req->fixes[i].value);
  fputs("\037d=", f);
  for (size_t i = 0; i < req->ndomains; i++) {
    fprintf(f, "%s:", req->domains[i].name);
    for (size_t k = 0; k < req->domains[i].nvalues; k++)
      fprintf(f, "%lld,", (long long)req->domains[i].values[k]);
    fputc('\036', f);
  }
  fputs("\037r=", f);
  for (size_t i = 0; i < req->nrequires; i++)
    fprintf(f, "%s\036", req->requires[i].text);
  fputs("\037o=", f);
  for (size_t i = 0; i < req->nobjectives; i++)
    fprintf(f, "%s\036", req->objectives[i].text);
  fprintf(f, "\037k=%d", check);
  return text_close(&t, len);
}

/* The exact content of an integer program: what GLPK is given, without
 * the names, which do not change its answer. */
static char *ilp_key(const tf_ilp *ilp, size_t *len) {
  struct text t;
  FILE *f = text_open(&t);
  size_t head[3] = {ilp->ncols, ilp->nrows, ilp->nobjs};
  fwrite(head, sizeof head, 1, f);
  for (size_t j = 0; j < ilp->ncols; j++) {
    const tf_ilp_col *c = &ilp->cols[j];
    fwrite(&c->kind, sizeof c->kind, 1, f);
    fwrite(&c->lo, sizeof c->lo, 1, f);
    fwrite(&c->hi, sizeof c->hi, 1, f);
  }
  for (size_t i = 0; i < ilp->nrows; i++) {
    const tf_ilp_row *r = &ilp->rows[i];
    fwrite(&r->sense, sizeof r->sense, 1, f);
    fwrite(&r->rhs, sizeof r->rhs, 1, f);
    fwrite(&r->lin.n, sizeof r->lin.n, 1, f);
    fwrite(r->lin.ind, sizeof *r->lin.ind, r->lin.n, f);
    fwrite(r->lin.val, sizeof *r->lin.val, r->lin.n, f);
  }
  for (size_t o = 0; o < ilp->nobjs; o++) {
    const tf_ilp_obj *ob = &ilp->objs[o];
    fwrite(&ob->maximize, sizeof ob->maximize, 1, f);
    fwrite(&ob->lin.n, sizeof ob->lin.n, 1, f);
    fwrite(ob->lin.ind, sizeof *ob->lin.ind, ob->lin.n, f);
    fwrite(ob->lin.val, sizeof *ob->lin.val, ob->lin.n, f);
  }
  return text_close(&t, len);
}

/* ------------------------------------------------------------------ run */

struct slot {
  char *text;
  size_t len;
  int status;
};

struct run {
  const tf_sweep *s;
  tf_cache *cache;
  tf_sweep_opts o;
  size_t *todo, ntodo;
  struct slot *ring;     /* window slots, by position mod window */
  size_t window;
  size_t next, written;  /* positions in todo */
  int stop;
  pthread_mutex_t lock;
  pthread_cond_t ready, room;
  tf_memo answers, ilps;
  /* progress */
  double start, last;
  size_t resumed;
};

static void line_prefix(FILE *f, int format, size_t index, size_t total, const char *id) {
  if (format == TF_FORMAT_CSV) {
    fprintf(f, "%zu,%zu,", index, total);
    csv_field(f, id);
    fputc(',', f);
  } else {
    fprintf(f, "{\"index\":%zu,\"total\":%zu,\"id\":", index, total);
    tf_json_write_string(f, id);
    fputc(',', f);
  }
}

static void json_input(FILE *f, const tf_request *req, int check) {
  fputs("\"input\":{", f);
  const char *sep = "";
  if (req->nparams) {
    fputs("\"params\":{", f);
    for (size_t i = 0; i < req->nparams; i++) {
      fputs(i ? "," : "", f);
      tf_json_write_string(f, req->params[i].name);
      fprintf(f, ":%lld", (long long)req->params[i].value);
    }
    fputc('}', f);
    sep = ",";
  }
  if (req->nfixes) {
    fprintf(f, "%s\"fix\":{", sep);
    for (size_t i = 0; i < req->nfixes; i++) {
      fputs(i ? "," : "", f);
      tf_json_write_string(f, req->fixes[i].name);
      fprintf(f, ":%lld", (long long)req->fixes[i].value);
    }
    fputc('}', f);
    sep = ",";
  }
  if (req->ndomains) {
    fprintf(f, "%s\"domain\":{", sep);
    for (size_t i = 0; i < req->ndomains; i++) {
      fputs(i ? "," : "", f);
      tf_json_write_string(f, req->domains[i].name);
      fputs(":[", f);
      for (size_t k = 0; k < req->domains[i].nvalues; k++)
        fprintf(f, "%s%lld", k ? "," : "", (long long)req->domains[i].values[k]);
      fputc(']', f);
    }
    fputc('}', f);
    sep = ",";
  }
  const tf_text_req *lists[] = {req->requires, req->objectives};
  size_t nlists[] = {req->nrequires, req->nobjectives};
  static const char *const names[] = {"require", "objective"};
  for (int l = 0; l < 2; l++) {
    if (!nlists[l])
      continue;
    fprintf(f, "%s\"%s\":[", sep, names[l]);
    for (size_t i = 0; i < nlists[l]; i++) {
      fputs(i ? "," : "", f);
      tf_json_write_string(f, lists[l][i].text);
    }
    fputc(']', f);
    sep = ",";
  }
  if (check)
    fprintf(f, "%s\"kind\":\"fits\"", sep);
  fputs("},", f);
}

static void csv_int(FILE *f, int ok, int64_t v) {
  if (ok)
    fprintf(f, ",%lld", (long long)v);
  else
    fputc(',', f);
}

static void csv_objectives_text(FILE *f, const tf_request *req, const tf_problem *p) {
  struct text t;
  FILE *g = text_open(&t);
  size_t n = p ? p->nobjective : req->nobjectives;
  for (size_t o = 0; o < n; o++)
    fprintf(g, "%s%s", o ? "; " : "", p ? p->objective[o].text : req->objectives[o].text);
  char *s = text_close(&t, NULL);
  fputc(',', f);
  csv_field(f, s);
  free(s);
}

/* The CSV body: machine, workset, status, then the sweep's columns; `a`
 * may be NULL (an error), `p` too (an error before binding). */
static void csv_body(FILE *f, const tf_sweep *s, const tf_request *req, const tf_problem *p, const tf_answer *a,
                     const char *reason) {
  const struct csv_cols *c = &s->csv;
  csv_field(f, p ? p->machine->name : req->machine ? req->machine : "");
  fputc(',', f);
  csv_field(f, p ? p->workset->name : req->workset ? req->workset : "");
  fprintf(f, ",%s", tf_sweep_status_name(a ? a->status : TF_SWEEP_ERROR));
  csv_objectives_text(f, req, p);
  for (size_t i = 0; i < c->nparams; i++) {
    int found = 0;
    int64_t v = 0;
    for (size_t k = 0; p && k < p->workset->nparams && !found; k++)
      if (!strcmp(p->workset->params[k].name, c->params[i]))
        found = 1, v = p->param_values[k];
    for (size_t k = 0; !p && k < req->nparams; k++)
      if (!strcmp(req->params[k].name, c->params[i]))
        found = 1, v = req->params[k].value;
    csv_int(f, found, v);
  }
  int has = a && a->status != TF_ANSWER_INFEASIBLE, opt = a && a->status == TF_ANSWER_OPTIMAL;
  for (size_t i = 0; i < c->nvars; i++) {
    int found = 0;
    int64_t v = 0;
    for (size_t k = 0; has && k < p->workset->nchoose && !found; k++)
      if (!strcmp(p->workset->choose[k].name, c->vars[i]))
        found = 1, v = a->choose[k];
    for (int k = 0; has && k < p->ncounts && !found; k++)
      if (!strcmp(p->count_names[k], c->vars[i]))
        found = 1, v = a->counts[k];
    csv_int(f, found, v);
  }
  for (int m = 0; m < TF_NMEM; m++) {
    if (!c->mem[m])
      continue;
    int uses = 0;
    for (size_t b = 0; p && b < p->nbuffers; b++)
      uses |= p->workset->buffers[b].memory == m;
    csv_int(f, uses && has, has ? a->point.used[m] : 0);
    csv_int(f, uses, p ? p->capacity[m] : 0);
  }
  for (size_t o = 0; o < c->nobjectives; o++)
    csv_int(f, opt && o < p->nobjective, opt && o < p->nobjective ? a->point.objective[o] : 0);
  for (size_t i = 0; i < c->ncounts; i++) {
    int k = -1;
    for (int j = 0; opt && j < p->ncounts; j++)
      if (!strcmp(p->count_names[j], c->counts[i]))
        k = j;
    if (k >= 0 && a->closed[k].applies)
      fprintf(f, ",%lld,%s", (long long)a->closed[k].value, a->closed[k].agrees ? "yes" : "no");
    else
      fputs(",,", f);
  }
  fputc(',', f);
  csv_field(f, reason ? reason : "");
  fputc('\n', f);
}

static void error_body(FILE *f, const struct run *r, const tf_request *req, const tf_problem *p, const tf_error *err) {
  char msg[1024];
  tf_error_format(err, msg, sizeof msg);
  if (r->o.format == TF_FORMAT_CSV) {
    csv_body(f, r->s, req, p, NULL, msg);
    return;
  }
  const char *machine = p ? p->machine->name : req->machine, *workset = p ? p->workset->name : req->workset;
  if (machine) {
    fputs("\"machine\":", f);
    tf_json_write_string(f, machine);
    fputc(',', f);
  }
  if (workset) {
    fputs("\"workset\":", f);
    tf_json_write_string(f, workset);
    fputc(',', f);
  }
  fputs("\"status\":\"error\",\"error\":", f);
  tf_json_write_string(f, msg);
  fputs("}\n", f);
}

static void answer_body(FILE *f, const struct run *r, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  if (r->o.format == TF_FORMAT_CSV) {
    int why = a->status == TF_ANSWER_INFEASIBLE || a->status == TF_ANSWER_NO_FIT;
    csv_body(f, r->s, req, p, a, why ? a->why : NULL);
    return;
  }
  tf_request anon = *req; /* shallow: the id goes in front of the line */
  anon.id = NULL;
  struct text t;
  FILE *g = text_open(&t);
  tf_report_json_object(g, &anon, p, a);
  size_t len;
  char *obj = text_close(&t, &len);
  fwrite(obj + 1, 1, len - 1, f); /* without its opening brace */
  fputc('\n', f);
  free(obj);
}

/* Solves with the ILP memo: an identical integer program is solved once,
 * and every point decodes and verifies the solution on its own problem.
 * The same steps as tf_solve otherwise. */
static int solve_point(struct run *r, const tf_problem *p, int check, tf_answer *a, tf_error *err) {
  if (check)
    return tf_check(p, a, err);
  if (!(r->o.reuse & TF_REUSE_ILP) || p->ncombos == 0)
    return tf_solve(p, &r->o.solve, NULL, a, err);
  tf_model m;
  if (tf_model_build_reduced(&m, p, err))
    return -1;
  size_t klen;
  char *key = ilp_key(&m.ilp, &klen);
  int own;
  tf_memo_entry *e = tf_memo_get(&r->ilps, key, klen, &own);
  free(key);
  tf_solution mine;
  memset(&mine, 0, sizeof mine);
  const tf_solution *sol = &e->sol;
  int rc = 0;
  if (own || e->state == TF_MEMO_FAILED) {
    rc = tf_glpk_solve(&m.ilp, &r->o.solve, &mine, err);
    sol = &mine;
    if (own && !rc) {
      e->sol = mine;
      memset(&mine, 0, sizeof mine);
      sol = &e->sol;
    }
    if (own)
      tf_memo_finish(&r->ilps, e, !rc);
  }
  if (!rc && sol->status == TF_SOL_INFEASIBLE) {
    /* rare: let tf_solve say why, in its words */
    tf_solution_release(&mine);
    tf_model_release(&m);
    return tf_solve(p, &r->o.solve, NULL, a, err);
  }
  if (!rc)
    rc = tf_decode(&m, p, sol->x, a, err) || tf_verify(p, a, sol->objval, err) ? -1 : 0;
  tf_solution_release(&mine);
  tf_model_release(&m);
  return rc;
}

/* The body of a bound problem's line, from the answer memo or solved. */
static int problem_body(FILE *f, struct run *r, const tf_request *req, const tf_problem *p, int check) {
  tf_memo_entry *e = NULL;
  int own = 0;
  if (r->o.reuse & TF_REUSE_ANSWER) {
    size_t klen;
    char *key = tf_sweep_key(req, p, check, &klen);
    e = tf_memo_get(&r->answers, key, klen, &own);
    free(key);
    if (!own && e->state == TF_MEMO_DONE) {
      fwrite(e->text, 1, e->tlen, f);
      return e->status;
    }
  }
  tf_answer a;
  tf_answer_init(&a, p);
  tf_error err;
  tf_error_init(&err);
  struct text t;
  FILE *g = text_open(&t);
  int status;
  if (solve_point(r, p, check, &a, &err)) {
    status = TF_SWEEP_ERROR;
    error_body(g, r, req, p, &err);
  } else {
    status = a.status;
    answer_body(g, r, req, p, &a);
  }
  tf_answer_release(&a);
  size_t len;
  char *body = text_close(&t, &len);
  fwrite(body, 1, len, f);
  if (own) {
    int ok = status != TF_SWEEP_ERROR; /* solver failures (time limits) are not reused */
    if (ok)
      e->text = body, e->tlen = len, e->status = status, body = NULL;
    tf_memo_finish(&r->answers, e, ok);
  }
  free(body);
  return status;
}

/* One point's whole line. */
static void run_point(struct run *r, size_t pos, struct slot *out) {
  const tf_sweep *s = r->s;
  size_t i = r->todo[pos];
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  int check = 0;
  char *id = tf_sweep_id(s, i);
  struct text t;
  FILE *f = text_open(&t);
  line_prefix(f, r->o.format, i, s->npoints, id);
  int status = TF_SWEEP_ERROR;
  int bad = tf_sweep_request(s, i, &req, &check, &err);
  if (r->o.format != TF_FORMAT_CSV)
    json_input(f, &req, check);
  const tf_machine *m;
  const tf_workset *w;
  tf_problem *p = NULL;
  if (bad || tf_cache_get(r->cache, &req, "$.machine", "$.workset", &m, &w, &err) ||
      !(p = tf_problem_new(m, w, &req, &err)))
    error_body(f, r, &req, NULL, &err);
  else
    status = problem_body(f, r, &req, p, check);
  tf_problem_free(p);
  tf_request_release(&req);
  free(id);
  out->text = text_close(&t, &out->len);
  out->status = status;
}

static void *worker(void *arg) {
  struct run *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->lock);
    while (!r->stop && r->next < r->ntodo && r->next - r->written >= r->window)
      pthread_cond_wait(&r->room, &r->lock);
    if (r->stop || r->next >= r->ntodo) {
      pthread_mutex_unlock(&r->lock);
      break;
    }
    size_t pos = r->next++;
    pthread_mutex_unlock(&r->lock);
    struct slot done;
    run_point(r, pos, &done);
    pthread_mutex_lock(&r->lock);
    r->ring[pos % r->window] = done;
    if (pos == r->written)
      pthread_cond_signal(&r->ready);
    pthread_mutex_unlock(&r->lock);
  }
  tf_glpk_thread_done(); /* GLPK 5 keeps an environment per thread */
  return NULL;
}

static void format_eta(char *buf, size_t size, double s) {
  if (!(s >= 0) || s > 1e7)
    snprintf(buf, size, "--");
  else if (s >= 3600)
    snprintf(buf, size, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
  else
    snprintf(buf, size, "%d:%02d", (int)s / 60, (int)s % 60);
}

static void progress(struct run *r, int final) {
  FILE *f = r->o.progress;
  if (!f)
    return;
  double t = now(), dt = t - r->start;
  if (!final && t - r->last < (r->o.progress_tty ? 0.1 : r->o.progress_every))
    return;
  r->last = t;
  size_t total = r->resumed + r->ntodo, done = r->resumed + r->written;
  double rate = dt > 0 ? (double)r->written / dt : 0;
  double pct = total ? 100.0 * (double)done / (double)total : 100;
  char eta[32];
  format_eta(eta, sizeof eta, rate > 0 ? (double)(r->ntodo - r->written) / rate : -1);
  if (r->o.progress_tty) {
    char bar[31];
    int fill = (int)(pct * 30 / 100);
    for (int i = 0; i < 30; i++)
      bar[i] = i < fill ? '#' : '.';
    bar[30] = 0;
    fprintf(f, "\r[%s] %zu/%zu %5.1f%% %8.0f points/s  ETA %-8s", bar, done, total, pct, rate, eta);
    if (final)
      fputc('\n', f);
  } else if (!final) {
    fprintf(f, "sweep: %zu/%zu points (%.1f%%), %.0f points/s, ETA %s\n", done, total, pct, rate, eta);
  }
  fflush(f);
}

/* Writes ready lines in order until every position is written. */
static int writer(struct run *r, int fd, tf_sweep_stats *st, const char *file, tf_error *err) {
  char *buf = NULL;
  size_t cap = 0;
  int rc = 0;
  while (r->written < r->ntodo) {
    pthread_mutex_lock(&r->lock);
    while (!r->ring[r->written % r->window].text) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += 200 * 1000 * 1000;
      if (ts.tv_nsec >= 1000000000)
        ts.tv_sec++, ts.tv_nsec -= 1000000000;
      if (pthread_cond_timedwait(&r->ready, &r->lock, &ts) == ETIMEDOUT) {
        pthread_mutex_unlock(&r->lock);
        progress(r, 0);
        pthread_mutex_lock(&r->lock);
      }
    }
    size_t end = r->written;
    while (end < r->ntodo && end - r->written < r->window && r->ring[end % r->window].text)
      end++;
    pthread_mutex_unlock(&r->lock);
    /* positions [written, end) belong to this thread until `written` moves */
    size_t len = 0;
    for (size_t k = r->written; k < end; k++)
      len += r->ring[k % r->window].len;
    if (len > cap) {
      cap = 2 * len;
      TF_NREALLOC(buf, cap);
    }
    len = 0;
    for (size_t k = r->written; k < end; k++) {
      struct slot *sl = &r->ring[k % r->window];
      memcpy(buf + len, sl->text, sl->len);
      len += sl->len;
      st->status[sl->status]++;
      free(sl->text);
      sl->text = NULL;
    }
    if (tf_write_all(fd, buf, len)) {
      rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", file ? file : "standard output",
                        strerror(errno));
      pthread_mutex_lock(&r->lock);
      r->stop = 1;
      pthread_cond_broadcast(&r->room);
      pthread_mutex_unlock(&r->lock);
      break;
    }
    pthread_mutex_lock(&r->lock);
    r->written = end;
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->lock);
    progress(r, 0);
  }
  free(buf);
  return rc;
}

static char *expected_prefix(const struct run *r, size_t pos, size_t *len) {
  char *id = tf_sweep_id(r->s, r->todo[pos]);
  struct text t;
  FILE *f = text_open(&t);
  line_prefix(f, r->o.format, r->todo[pos], r->s->npoints, id);
  free(id);
  return text_close(&t, len);
}

/* Reads what an earlier run wrote: every complete line must be the next
 * point of this sweep; a torn last line is cut off.  Leaves the file
 * offset after the last complete line and returns how many points it has. */
static int resume_scan(struct run *r, int fd, const char *file, size_t *done, size_t *torn, tf_error *err) {
  *done = 0;
  *torn = 0;
  int fd2 = dup(fd);
  FILE *f = fd2 >= 0 ? fdopen(fd2, "r") : NULL;
  if (!f) {
    if (fd2 >= 0)
      close(fd2);
    return tf_error_set(err, TF_EINPUT, NULL, "cannot read %s to resume: %s", file, strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  off_t good = 0;
  ssize_t len;
  int rc = 0, csv = r->o.format == TF_FORMAT_CSV;
  const char *header = r->s->csv_header;
  while (!rc && (len = getline(&line, &cap, f)) >= 0) {
    if (line[len - 1] != '\n') {
      *torn = (size_t)len; /* a torn last line: the run was killed while writing it */
      break;
    }
    lineno++;
    if (csv && lineno == 1) {
      if (strcmp(line, header))
        rc = tf_error_set(err, TF_EINPUT, NULL,
                          "%s: line 1 is not this sweep's CSV header; not resuming (remove the file to start over)",
                          file);
    } else if (*done >= r->ntodo) {
      rc = tf_error_set(err, TF_EINPUT, NULL, "%s has more lines than this sweep has points (%zu); not resuming",
                        file, r->ntodo);
    } else {
      size_t plen;
      char *want = expected_prefix(r, *done, &plen);
      if ((size_t)len < plen || memcmp(line, want, plen)) {
        char *id = tf_sweep_id(r->s, r->todo[*done]);
        rc = tf_error_set(err, TF_EINPUT, NULL,
                          "%s: line %zu is not point %zu (%s) of this sweep; not resuming (wrong spec, shard or "
                          "format? remove the file to start over)",
                          file, lineno, r->todo[*done], id);
        free(id);
      }
      free(want);
      (*done)++;
    }
    good += len;
  }
  if (!rc && ferror(f))
    rc = tf_error_set(err, TF_EINPUT, NULL, "cannot read %s to resume: %s", file, strerror(errno));
  free(line);
  fclose(f);
  if (rc)
    return -1;
  if (*torn && ftruncate(fd, good))
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot cut the torn last line of %s: %s", file, strerror(errno));
  if (lseek(fd, good, SEEK_SET) < 0)
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot seek in %s: %s", file, strerror(errno));
  if (csv && good == 0 && tf_write_all(fd, header, strlen(header)))
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", file, strerror(errno));
  return 0;
}

void tf_sweep_opts_init(tf_sweep_opts *o) {
  memset(o, 0, sizeof *o);
  o->jobs = 1;
  o->format = TF_FORMAT_JSON;
  o->reuse = TF_REUSE_ANSWER | TF_REUSE_ILP;
  tf_solve_opts_init(&o->solve);
  o->progress_every = 5;
}

int tf_sweep_run(const tf_sweep *s, tf_cache *cache, const tf_sweep_opts *o, const char *out_file,
                 tf_sweep_stats *st, tf_error *err) {
  memset(st, 0, sizeof *st);
  struct run r;
  memset(&r, 0, sizeof r);
  r.s = s;
  r.cache = cache;
  r.o = *o;
  if (r.o.format != TF_FORMAT_CSV)
    r.o.format = TF_FORMAT_JSON;
  if (r.o.jobs < 1)
    r.o.jobs = 1;
  if (o->resume && !out_file)
    return tf_error_set(err, TF_EINPUT, "--resume", "needs the output file (-o FILE)");
  st->points = s->npoints;
  r.todo = tf_nalloc(s->npoints + 1, sizeof *r.todo);
  for (size_t i = 0; i < s->npoints; i++)
    if (tf_sweep_in_shard(i, o->shard_index, o->shard_count))
      r.todo[r.ntodo++] = i;
  st->shard_points = r.ntodo;

  int fd = 1, rc = 0;
  if (out_file) {
    fd = open(out_file, o->resume ? O_RDWR | O_CREAT : O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
      free(r.todo);
      return tf_error_set(err, TF_EINPUT, "-o", "cannot open %s: %s", out_file, strerror(errno));
    }
  } else {
    fflush(stdout);
  }
  size_t done = 0;
  if (o->resume)
    rc = resume_scan(&r, fd, out_file, &done, &st->torn_bytes, err);
  else if (r.o.format == TF_FORMAT_CSV && tf_write_all(fd, s->csv_header, strlen(s->csv_header)))
    rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", out_file ? out_file : "standard output",
                      strerror(errno));
  st->resumed = done;
  r.resumed = done;
  r.todo += done; /* restored before free */
  r.ntodo -= done;
  r.window = 1024 + 64 * (size_t)r.o.jobs;
  r.ring = tf_nalloc(r.window, sizeof *r.ring);
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.ready, NULL);
  pthread_cond_init(&r.room, NULL);
  tf_memo_init(&r.answers);
  tf_memo_init(&r.ilps);
  r.start = r.last = now();
  if (!rc && r.ntodo) {
    size_t nthreads = (size_t)r.o.jobs < r.ntodo ? (size_t)r.o.jobs : r.ntodo, started = 0;
    pthread_t *threads = tf_nalloc(nthreads, sizeof *threads);
    for (; started < nthreads; started++)
      if (pthread_create(&threads[started], NULL, worker, &r))
        break;
    if (!started)
      rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot start a worker thread");
    else
      rc = writer(&r, fd, st, out_file, err);
    for (size_t t = 0; t < started; t++)
      pthread_join(threads[t], NULL);
    free(threads);
    progress(&r, 1);
  }
  st->seconds = now() - r.start;
  st->written = r.written;
  st->answer_lookups = r.answers.lookups, st->answer_hits = r.answers.hits;
  st->ilp_lookups = r.ilps.lookups, st->ilp_hits = r.ilps.hits;
  for (size_t k = 0; k < r.window; k++)
    free(r.ring[k].text);
  free(r.ring);
  tf_memo_release(&r.answers);
  tf_memo_release(&r.ilps);
  pthread_mutex_destroy(&r.lock);
  pthread_cond_destroy(&r.ready);
  pthread_cond_destroy(&r.room);
  free(r.todo - done);
  if (out_file && close(fd) && !rc)
    rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", out_file, strerror(errno));
  return rc;
}

