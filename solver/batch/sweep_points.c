/* What a sweep's points are: a spec's (model/formats/spec.c expands it) or a
 * problem list's lines, their stable ids, the request each point makes,
 * the worksets and machines they name (loaded once), and the CSV header
 * they share. */
#include "sweep.h"

#include "solver/batch/sweep_internal.h"

#include "solver/backend.h"

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
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/lines.h"
#include "model/core/text.h"
#include "model/formats/case.h"
#include "model/input/catalog.h"
#include "model/input/place.h"
#include "solver/batch/memo.h"
#include "solver/output.h"
#include "solver/report.h"
#include "solver/solve.h"

void tf_sweep_warn(tf_sweep *s, const char *fmt, const char *a, const char *b) {
  char buf[1024];
  snprintf(buf, sizeof buf, fmt, a, b);
  char *w = tf_strdup(buf);
  TF_PUSH(s->warnings, s->nwarnings, s->capwarnings, w);
}

/* The workset of that name, loaded once per sweep (for its names only;
 * solving goes through the cache). */
size_t tf_sweep_workset_index(tf_sweep *s, const char *name) {
  for (size_t i = 0; i < s->nws; i++)
    if (!strcmp(s->ws[i].name, name))
      return i;
  tf_error err;
  tf_error_init(&err);
  struct wsinfo info = {tf_strdup(name), tf_cache_workset(&s->cache, name, "workset", &err)};
  if (!info.w) {
    char msg[1024];
    tf_error_format(&err, msg, sizeof msg);
    tf_sweep_warn(s, "workset '%s' does not load, its points are error lines: %s", name, msg);
  }
  TF_PUSH(s->ws, s->nws, s->capws, info);
  return s->nws - 1;
}

void tf_sweep_free(tf_sweep *s) {
  if (!s)
    return;
  free(s->file);
  tf_spec_release(&s->spec);
  free(s->wsidx);
  for (size_t i = 0; s->cases && i < s->npoints; i++) {
    tf_case_release(&s->cases[i]);
    free(s->case_error[i]);
  }
  free(s->cases);
  free(s->case_error);
  for (size_t i = 0; i < s->nws; i++)
    free(s->ws[i].name);
  free(s->ws);
  tf_cache_release(&s->cache);
  tf_csv_columns_release(&s->csv);
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

/* -------------------------------------------------------- problem list */

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* A problem list's lines, from a file or from memory (tf_sweep_load_lines):
 * one rule for both, load_line. */
struct list_ctx {
  tf_sweep *sweep;
  const char *file;
  const char *where; /* NULL: a file's line, which may fail as an error point;
                        else a line in memory, bad input at where[i] */
};

/* Line `lineno` into c.  A file's line that does not parse keeps its id
 * and says why (*why); an in-memory one is the object where[lineno - 1],
 * whose paths (its own, and those binding reports later) start there, and
 * fails: bad input. */
static int parse_line(const struct list_ctx *x, const char *line, size_t len, size_t lineno, tf_case *c, char **why,
                      tf_error *err) {
  if (x->where) {
    char root[64];
    snprintf(root, sizeof root, "%s[%zu]", x->where, lineno - 1);
    if (!tf_case_parse_at(line, len, x->file, root, c, err))
      return 0;
    if (strncmp(err->path, root, strlen(root))) /* not a field's: the text itself */
      snprintf(err->path, sizeof err->path, "%s", root);
    tf_case_release(c);
    return -1;
  }
  tf_error e;
  tf_error_init(&e);
  if (!tf_case_parse(line, len, x->file, lineno, c, &e))
    return 0;
  char msg[1024];
  tf_error_format(&e, msg, sizeof msg);
  char *id = c->req.id ? tf_strdup(c->req.id) : NULL; /* keep the id if it was read */
  tf_case_release(c);
  c->req.id = id;
  *why = tf_strdup(msg);
  return 0;
}

/* The next point's case, initialised; NULL past the limit. */
static tf_case *next_case(const struct list_ctx *x, tf_error *err) {
  tf_sweep *s = x->sweep;
  if (s->npoints >= TF_SPEC_MAX_POINTS) {
    tf_error_set(err, TF_EINPUT, x->where, "more than %d problems", TF_SPEC_MAX_POINTS);
    tf_error_set_file(err, x->file);
    return NULL;
  }
  if (s->npoints == s->capcases) {
    s->capcases = s->capcases ? 2 * s->capcases : 64;
    TF_NREALLOC(s->cases, s->capcases);
    TF_NREALLOC(s->case_error, s->capcases);
  }
  tf_case *c = &s->cases[s->npoints];
  tf_case_init(c);
  s->case_error[s->npoints] = NULL;
  return c;
}

/* Point `lineno` read into the next case: its default id, its workset. */
static void case_read(tf_sweep *s, size_t lineno) {
  tf_case *c = &s->cases[s->npoints];
  if (!c->req.id) {
    char id[32];
    snprintf(id, sizeof id, "line-%zu", lineno);
    c->req.id = tf_strdup(id);
  }
  if (c->req.workset)
    tf_sweep_workset_index(s, c->req.workset);
  s->npoints++;
}

/* One problem line; a file's line that does not parse becomes an error
 * point. */
static int load_line(void *ctx, const char *line, size_t len, size_t lineno, tf_error *err) {
  struct list_ctx *x = ctx;
  tf_case *c = next_case(x, err);
  if (!c || parse_line(x, line, len, lineno, c, &x->sweep->case_error[x->sweep->npoints], err))
    return -1;
  case_read(x->sweep, lineno);
  return 0;
}

/* One problem object of an array already parsed, x->where[lineno - 1]: as
 * an in-memory line of the same text would be, without the text. */
static int load_object(struct list_ctx *x, const cJSON *obj, size_t lineno, tf_error *err) {
  char root[64];
  snprintf(root, sizeof root, "%s[%zu]", x->where, lineno - 1);
  tf_case *c = next_case(x, err);
  if (!c)
    return -1;
  if (tf_case_read(obj, x->file, root, c, err)) {
    tf_case_release(c);
    return -1;
  }
  case_read(x->sweep, lineno);
  return 0;
}

static int load_list(tf_sweep *s, const char *file, tf_error *err) {
  struct list_ctx x = {s, file, NULL};
  return tf_jsonl_each(file, load_line, &x, err);
}

/* ----------------------------------------------------------- CSV header */

/* What point `req` of workset ws[wsi] makes of the answer columns, by the
 * binder's own steps (tf_problem_shape_of): occupancy among its workset's
 * variables, and how many objective columns.  A point that cannot bind
 * (its workset does not load, a require that does not parse) is an error
 * line, whose row shows the objectives it asked for. */
static void add_shape(const tf_sweep *s, size_t wsi, const tf_request *req, unsigned char *occupancy,
                      size_t *nobjectives) {
  const tf_workset *w = wsi < s->nws ? s->ws[wsi].w : NULL;
  tf_problem_shape shape = {0, req->nobjectives};
  tf_error err;
  tf_error_init(&err);
  if (w && !tf_problem_shape_of(w, req, &shape, &err))
    occupancy[wsi] |= (unsigned char)shape.occupancy;
  else
    shape.nobjectives = req->nobjectives;
  if (shape.nobjectives > *nobjectives)
    *nobjectives = shape.nobjectives;
}

/* Do two lines of a list have the same shape (the same workset, fix and
 * domain names, requires and objectives)?  A list's lines mostly do. */
static int same_texts(const tf_text_req *a, size_t na, const tf_text_req *b, size_t nb) {
  for (size_t i = 0; na == nb && i < na; i++)
    if (strcmp(a[i].text, b[i].text))
      return 0;
  return na == nb;
}

static int same_shape(const tf_request *a, const tf_request *b) {
  if (!a->workset || !b->workset || strcmp(a->workset, b->workset) || a->nfixes != b->nfixes ||
      a->ndomains != b->ndomains)
    return 0;
  for (size_t i = 0; i < a->nfixes; i++)
    if (strcmp(a->fixes[i].name, b->fixes[i].name))
      return 0;
  for (size_t i = 0; i < a->ndomains; i++)
    if (strcmp(a->domains[i].name, b->domains[i].name))
      return 0;
  return same_texts(a->requires, a->nrequires, b->requires, b->nrequires) &&
         same_texts(a->objectives, a->nobjectives, b->objectives, b->nobjectives);
}

/* A spec's points differ in their shape only by workset and objective
 * list (its fixes, domains and requires apply per workset): one point of
 * each pair is asked. */
static void spec_shapes(const tf_sweep *s, unsigned char *occupancy, size_t *nobjectives) {
  const tf_spec *sp = &s->spec;
  size_t nobj = sp->nobjectives ? sp->nobjectives : 1;
  unsigned char *seen = tf_nalloc(sp->nworksets * nobj + 1, 1);
  for (size_t i = 0; i < sp->npoints; i++) {
    const int32_t *sel = sp->sel + i * sp->stride; /* machine, workset, objective list, ... */
    size_t pair = (size_t)sel[1] * nobj + (size_t)(sp->nobjectives ? sel[2] : 0);
    if (seen[pair])
      continue;
    seen[pair] = 1;
    tf_request req;
    tf_request_init(&req);
    tf_spec_request(sp, i, &req);
    add_shape(s, s->wsidx[sel[1]], &req, occupancy, nobjectives);
    tf_request_release(&req);
  }
  free(seen);
}

/* The union of the points' answer columns (solver/report.h), after the
 * line's index, total and id: each workset's, with occupancy where one of
 * its points binds it, and the most objectives a point shows. */
static void csv_columns(tf_sweep *s) {
  tf_csv_columns *c = &s->csv;
  unsigned char *occupancy = tf_nalloc(s->nws + 1, 1);
  size_t nobjectives = 0;
  if (s->is_spec)
    spec_shapes(s, occupancy, &nobjectives);
  for (size_t i = 0; !s->is_spec && i < s->npoints; i++)
    if (!i || !same_shape(&s->cases[i].req, &s->cases[i - 1].req))
      add_shape(s, s->cases[i].req.workset ? tf_sweep_workset_index(s, s->cases[i].req.workset) : s->nws,
                &s->cases[i].req, occupancy, &nobjectives);
  for (size_t i = 0; i < s->nws; i++)
    if (s->ws[i].w)
      tf_csv_columns_add_workset(c, s->ws[i].w, occupancy[i]);
  tf_csv_columns_add_objectives(c, nobjectives);
  free(occupancy);
  s->csv_header = tf_csv_columns_header(c, "index,total,id");
}

/* ---------------------------------------------------------------- load */

static tf_sweep *sweep_new(const char *file) {
  tf_sweep *s = tf_nalloc(1, sizeof *s);
  tf_cache_init(&s->cache);
  s->file = tf_strdup(file);
  return s;
}

/* Every machine and workset a spec names must load: one that does not is
 * bad input, found before any point is solved or any line written. */
static int spec_names_load(tf_sweep *s, tf_error *err) {
  char where[64];
  for (size_t i = 0; i < s->spec.nmachines; i++) {
    snprintf(where, sizeof where, "$.machines[%zu]", i);
    if (!tf_cache_machine(&s->cache, s->spec.machines[i], where, err))
      return -1;
  }
  for (size_t i = 0; i < s->spec.nworksets; i++) {
    snprintf(where, sizeof where, "$.worksets[%zu]", i);
    if (!tf_cache_workset(&s->cache, s->spec.worksets[i], where, err))
      return -1;
  }
  return 0;
}

/* Which machine x workset pairs cross architectures (unless the spec says
 * any_arch): a machine the workset does not model, or one without an MMA
 * it names.  A workset that does not load keeps its points (error lines). */
static unsigned char *arch_pairs(tf_sweep *s, const tf_workset *const *ws) {
  tf_spec *sp = &s->spec;
  unsigned char *ok = tf_nalloc(sp->nmachines * sp->nworksets + 1, 1);
  for (size_t mi = 0; mi < sp->nmachines; mi++) {
    tf_error e;
    tf_error_init(&e);
    const tf_machine *m = tf_cache_machine(&s->cache, sp->machines[mi], "machine", &e);
    for (size_t wi = 0; wi < sp->nworksets; wi++)
      ok[mi * sp->nworksets + wi] = !m || !ws[wi] || !tf_place_check_machine(m, ws[wi], sp->any_arch, &e);
  }
  return ok;
}

/* The spec's machines and worksets loaded into the sweep, then its points;
 * the pairs that cross architectures are counted, in a warning. */
static int expand_spec(tf_sweep *s, tf_error *err) {
  tf_spec *sp = &s->spec;
  if (spec_names_load(s, err))
    return -1;
  const tf_workset **ws = tf_nalloc(sp->nworksets + 1, sizeof *ws);
  s->wsidx = tf_nalloc(sp->nworksets + 1, sizeof *s->wsidx);
  for (size_t i = 0; i < sp->nworksets; i++) {
    s->wsidx[i] = tf_sweep_workset_index(s, sp->worksets[i]);
    ws[i] = s->ws[s->wsidx[i]].w;
  }
  unsigned char *ok = arch_pairs(s, ws);
  int rc = tf_spec_expand(sp, ws, ok, err);
  free(ok);
  free(ws);
  s->npoints = sp->npoints;
  if (!rc && sp->skipped_arch) {
    char n[48];
    snprintf(n, sizeof n, "%zu point%s", sp->skipped_arch, sp->skipped_arch == 1 ? "" : "s");
    tf_sweep_warn(s, "%s skipped: architecture (%s)", n,
                  "a machine its workset does not model; \"any_arch\": true or --any-arch solves them");
  }
  return rc;
}

/* A spec's lists read (tf_spec_parse or tf_spec_read): the sweep from them. */
static tf_sweep *spec_sweep(tf_sweep *s, const char *file, int read, tf_error *err) {
  const tf_backend *solver; /* a spec's "solver" is checked before any point is solved */
  if (read || (s->spec.solver && tf_solver_named(s->spec.solver, "$.solver", &solver, err)) || expand_spec(s, err)) {
    tf_error_set_file(err, file);
    tf_sweep_free(s);
    return NULL;
  }
  csv_columns(s);
  return s;
}

tf_sweep *tf_sweep_parse_spec(const char *text, size_t len, const char *file, tf_error *err) {
  tf_sweep *s = sweep_new(file);
  s->is_spec = 1;
  return spec_sweep(s, file, tf_spec_parse(&s->spec, text, len, file, err), err);
}

tf_sweep *tf_sweep_read_spec(const cJSON *spec, const char *file, tf_error *err) {
  tf_sweep *s = sweep_new(file);
  s->is_spec = 1;
  return spec_sweep(s, file, tf_spec_read(&s->spec, spec, file, err), err);
}

/* Standard input: a spec when it is one JSON object with "machines", else
 * a problem list.  Read whole without the file limit, as a named list is
 * (a line at a time): each line, or the spec, then gets the limit its
 * named counterpart has. */
static tf_sweep *load_stdin(tf_error *err) {
  size_t len;
  char *text = tf_read_file_limit("-", 0, &len, err);
  if (!text)
    return NULL;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  int is_spec = cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "machines") && end &&
                !end[strspn(end, " \t\r\n")]; /* one document, nothing after it */
  cJSON_Delete(root);
  tf_sweep *s = NULL;
  if (is_spec && len > TF_MAX_FILE_BYTES) {
    tf_error_set(err, TF_EINPUT, NULL, "file larger than %u bytes", TF_MAX_FILE_BYTES);
    tf_error_set_file(err, "-");
  } else if (is_spec) {
    s = tf_sweep_parse_spec(text, len, "-", err);
  } else {
    s = sweep_new("-");
    struct list_ctx x = {s, "-", NULL};
    if (tf_jsonl_each_text(text, len, load_line, &x, err)) {
      tf_error_set_file(err, "-");
      tf_sweep_free(s);
      s = NULL;
    } else {
      csv_columns(s);
    }
  }
  free(text);
  return s;
}

tf_sweep *tf_sweep_load(const char *file, tf_error *err) {
  if (!strcmp(file, "-"))
    return load_stdin(err);
  if (has_suffix(file, ".jsonl") || has_suffix(file, ".ndjson")) {
    tf_sweep *s = sweep_new(file);
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

tf_sweep *tf_sweep_load_lines(const char *const *lines, const size_t *lens, size_t n, const char *name,
                              const char *where, tf_error *err) {
  tf_sweep *s = sweep_new(name);
  struct list_ctx x = {s, name, where};
  for (size_t i = 0; i < n; i++) {
    size_t first; /* the length a file's reader sees, its limit checked (model/core/lines.h) */
    int too_long = tf_line_in_text(lines[i], lines[i] + lens[i], i + 1, &first, err);
    if (too_long && where) { /* the line as a whole: where[i] */
      char root[64];
      snprintf(root, sizeof root, "%s[%zu]", where, i);
      snprintf(err->path, sizeof err->path, "%s", root);
    }
    if (too_long || load_line(&x, lines[i], lens[i], i + 1, err)) {
      tf_error_set_file(err, name);
      tf_sweep_free(s);
      return NULL;
    }
  }
  csv_columns(s);
  return s;
}

tf_sweep *tf_sweep_read_problems(const cJSON *array, const char *name, const char *where, tf_error *err) {
  if (!cJSON_IsArray(array))
    return tf_error_set(err, TF_EINPUT, where, "expected an array of problem objects"), NULL;
  tf_sweep *s = sweep_new(name);
  struct list_ctx x = {s, name, where};
  size_t lineno = 1;
  for (const cJSON *p = array->child; p; p = p->next, lineno++)
    if (load_object(&x, p, lineno, err)) {
      tf_sweep_free(s);
      return NULL;
    }
  csv_columns(s);
  return s;
}

/* ------------------------------------------------------ ids, requests */

char *tf_sweep_id(const tf_sweep *s, size_t i) {
  return s->is_spec ? tf_spec_id(&s->spec, i) : tf_strdup(s->cases[i].req.id);
}

int tf_sweep_request(const tf_sweep *s, size_t i, tf_request *req, int *check, tf_error *err) {
  *check = 0;
  if (!s->is_spec) {
    if (s->case_error[i]) {
      req->id = tf_strdup(s->cases[i].req.id);
      return tf_error_set(err, TF_EINPUT, NULL, "%s", s->case_error[i]);
    }
    tf_request_copy(req, &s->cases[i].req);
    *check = s->cases[i].kind == TF_KIND_FITS;
    return 0;
  }
  tf_spec_request(&s->spec, i, req);
  return 0;
}
