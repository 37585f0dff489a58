/* The JSON API's commands besides solve and check (api_commands.h):
 * layout, emit, plot, sweep, validate, the names and version, prune. */
#include "solver/api_commands.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/text.h"
#include "model/formats/case.h"
#include "model/formats/cutlass_name.h"
#include "model/input/catalog.h"
#include "model/input/machine.h"
#include "model/input/place.h"
#include "solver/backend.h"
#include "solver/batch/cache.h"
#include "solver/batch/sweep.h"
#include "solver/command_options.h"
#include "solver/emit/emit.h"
#include "solver/emit/layout_write.h"
#include "solver/machine_json.h"
#include "solver/plot/map.h"
#include "solver/plot/scale.h"
#include "solver/plot/series.h"
#include "solver/plot/svg.h"
#include "solver/prune.h"
#include "solver/report.h"
#include "solver/run.h"
#include "solver/solve.h"
#include "solver/tilefit.h"
#include "solver/validate.h"
#include "solver/workset_json.h"

/* ---------------------------------------------------------------- layout */

/* "emit": "c" or "cute-dsl" answers {"text": the code}; without it the
 * object `layout --json` prints. */
static int read_form(const char *s, const char *const *words, const int *forms, int *form, tf_error *err) {
  if (!s)
    return 0;
  for (size_t i = 0; words[i]; i++)
    if (!strcmp(s, words[i]))
      return *form = forms[i], 0;
  return tf_error_set(err, TF_EINPUT, "$.emit", "unknown value '%s'", s);
}

/* The code a layout or emit request writes, as {"text": "..."}. */
static void text_object(FILE *out, const char *text) {
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "text", text);
  tf_json_out_end(&w);
}

int tf_api_layout(const cJSON *req, FILE *out, api_ctx *x) {
  static const char *const words[] = {"c", "cute-dsl", NULL};
  static const int forms[] = {TF_LAYOUT_C, TF_LAYOUT_CUTE_DSL};
  tf_error *err = &x->err;
  int form = TF_LAYOUT_JSON;
  tf_solve_opts o;
  if (read_form(x->args.emit, words, forms, &form, err) || tf_api_read_solve_opts(&x->args, &o, err))
    return -1;
  bound b;
  int rc = tf_api_bind_problem(req, x, &b, err);
  if (!rc) {
    tf_answer a;
    tf_answer_init(&a, b.p);
    tf_text t;
    FILE *f = form == TF_LAYOUT_JSON ? out : tf_text_open(&t);
    rc = tf_layout_run(f, b.p, &o, form, &a, err)                      ? -1
         : a.status == TF_ANSWER_OPTIMAL || a.status == TF_ANSWER_FITS ? API_OK
                                                                       : API_NO;
    if (f != out) {
      char *text = tf_text_close(&t, NULL);
      if (rc >= 0)
        text_object(out, text);
      free(text);
    }
    tf_answer_release(&a);
  }
  tf_api_bound_release(&b);
  return rc;
}

/* ------------------------------------------------------------------ emit */

/* "key": {"BLOCK_M": "BM", "GROUP_SIZE_M": 8}, as --key BLOCK_M=BM,GROUP_SIZE_M=8. */
static int emit_keys_read(const cJSON *keys, tf_prune_map *map, tf_error *err) {
  if (!keys)
    return 0;
  if (!cJSON_IsObject(keys))
    return tf_error_set(err, TF_EINPUT, "$.key", "expected an object {VAR: KEY or NEWKEY: integer}");
  const cJSON *v;
  cJSON_ArrayForEach(v, keys) {
    char path[160], num[32];
    int64_t x;
    tf_path_key(path, sizeof path, "$.key", v->string);
    if (!cJSON_IsString(v) && tf_json_int(v, path, -TF_JSON_EXACT, TF_JSON_EXACT, &x, err))
      return tf_error_set(err, TF_EINPUT, path, "expected a key name (a string) or an integer");
    snprintf(num, sizeof num, "%lld", cJSON_IsString(v) ? 0LL : (long long)x);
    tf_prune_pair pair = {tf_strdup(v->string), tf_strdup(cJSON_IsString(v) ? v->valuestring : num), ""};
    snprintf(pair.where, sizeof pair.where, "%s", path);
    TF_PUSH(map->pairs, map->n, map->cap, pair);
  }
  return 0;
}

int tf_api_emit(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const char *name = x->args.for_;
  tf_solve_opts o;
  if (!name)
    return tf_error_set(err, TF_EINPUT, "$.for", "expected one of cutlass, cute-dsl, triton, fa");
  if (tf_api_read_solve_opts(&x->args, &o, err))
    return -1;
  int target = tf_emit_target(name);
  if (target < 0)
    return tf_error_set(err, TF_EINPUT, "$.for", "expected one of cutlass, cute-dsl, triton, fa, got '%s'", name);
  bound b;
  tf_prune_map keys = {NULL, 0, 0};
  tf_problem *own = NULL;
  int rc = tf_api_bind_problem(req, x, &b, err) || emit_keys_read(x->args.key, &keys, err), status = TF_ANSWER_OPTIMAL;
  if (!rc)
    rc = tf_emit_bind(target, b.p, &b.c->req, &own, err) ||
                 tf_emit_run(out, own ? own : b.p, &o, target, (int)x->args.top, 1, &keys, &status, err)
             ? -1
         : status == TF_ANSWER_INFEASIBLE || status == TF_ANSWER_NO_FIT ? API_NO
                                                                        : API_OK;
  else
    rc = -1;
  tf_problem_free(own);
  tf_prune_map_release(&keys);
  tf_api_bound_release(&b);
  return rc;
}

/* ------------------------------------------------------------------ plot */

/* A string option the command needs, as read (NULL: not given). */
static int needed(const char *v, const char *key, tf_error *err) {
  char path[32];
  snprintf(path, sizeof path, "$.%s", key);
  return v ? 0 : tf_error_set(err, TF_EINPUT, path, "is needed");
}

/* {"text": the SVG, ...}: the caller writes its members after it into
 * w and closes the object. */
static void svg_object(tf_json_out *w, FILE *out, const tf_svg *svg) {
  tf_json_out_init(w, out);
  tf_json_out_object(w);
  tf_json_out_key_string(w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(w, "text", svg->buf ? svg->buf : "");
}

/* "kind": "map", `plot map`: "problem", "x", "y", "color"; status 1 when
 * no cell fits. */
static int plot_map(const cJSON *req, FILE *out, api_ctx *x, tf_error *err) {
  const tf_command_args *a = &x->args;
  tf_solve_opts o;
  tf_plot_map_opts mo = {.solve = &o, .x = a->x, .y = a->y, .color = a->color};
  if (needed(a->x, "x", err) || needed(a->y, "y", err) ||
      (mo.scale = tf_plot_scale_parse(a->scale, "$.scale", err)) < 0 || tf_api_read_solve_opts(a, &o, err))
    return -1;
  bound b;
  int rc = tf_api_bind_problem(req, x, &b, err);
  tf_plot_map m = {0};
  tf_svg svg = {0};
  if (!rc && !(rc = tf_plot_map_compute(b.p, &b.c->req, &mo, &m, err))) {
    tf_plot_map_draw(&m, &svg);
    tf_json_out w;
    svg_object(&w, out, &svg);
    tf_json_out_key_bool(&w, "feasible", m.has_best);
    tf_json_out_end(&w);
    rc = m.has_best ? API_OK : API_NO;
  }
  tf_svg_release(&svg);
  tf_plot_map_release(&m);
  tf_api_bound_release(&b);
  return rc;
}

/* "kind": "sweep", `plot sweep FILE`: "file", "x", "y", "by", "scale"
 * (the y axis's), "x_scale". */
static int plot_series(const tf_command_args *a, FILE *out, tf_error *err) {
  int y_scale = 0, x_scale = 0;
  if (needed(a->file, "file", err) || needed(a->x, "x", err) || needed(a->y, "y", err) ||
      (y_scale = tf_plot_scale_parse(a->scale, "$.scale", err)) < 0 ||
      (x_scale = tf_plot_scale_parse(a->x_scale, "$.x_scale", err)) < 0)
    return -1;
  tf_plot_series s = {0};
  tf_svg svg = {0};
  int rc = tf_plot_series_read(a->file, a->x, a->y, a->by, &s, err);
  if (!rc) {
    s.x_scale = x_scale;
    s.y_scale = y_scale;
    size_t lines = s.lines, skipped = s.skipped;
    tf_plot_series_draw(&s, &svg);
    tf_json_out w;
    svg_object(&w, out, &svg);
    tf_json_out_key_int(&w, "lines", (int64_t)lines);
    tf_json_out_key_int(&w, "skipped", (int64_t)skipped);
    tf_json_out_end(&w);
  }
  tf_svg_release(&svg);
  tf_plot_series_release(&s);
  return rc ? -1 : API_OK;
}

int tf_api_plot(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const char *kind = x->args.kind;
  if (needed(kind, "kind", err))
    return -1;
  if (!strcmp(kind, "map"))
    return plot_map(req, out, x, err);
  if (!strcmp(kind, "sweep") && !x->handle)
    return plot_series(&x->args, out, err);
  return tf_error_set(err, TF_EINPUT, "$.kind", "expected map%s, got '%s'", x->handle ? "" : " or sweep", kind);
}

/* ----------------------------------------------------------------- sweep */

/* The sweep the request names: exactly one of "spec", "file", "problems". */
static tf_sweep *load_sweep(const tf_command_args *a, tf_error *err) {
  if (!!a->spec + !!a->file + !!a->problems != 1)
    return tf_error_set(err, TF_EINPUT, "$", "a sweep needs exactly one of \"spec\", \"file\", \"problems\""), NULL;
  if (a->file)
    return tf_sweep_load(a->file, err);
  if (a->spec)
    return tf_sweep_read_spec(a->spec, "$.spec", err);
  return tf_sweep_read_problems(a->problems, "", "$.problems", err); /* each a problem line, as parsed */
}

/* JSON lines (each a whole object, newline-terminated) as one array, a
 * value of w. */
static void lines_array(tf_json_out *w, const char *text, size_t len) {
  tf_json_out_array(w);
  for (size_t i = 0, n; i < len; i += n + 1) {
    const char *nl = memchr(text + i, '\n', len - i);
    n = nl ? (size_t)(nl - (text + i)) : len - i;
    tf_json_out_raw(w, text + i, n);
  }
  tf_json_out_end(w);
}

/* A sweep line (o.line) as the next value of the "points" array. */
static int point_value(void *ctx, const char *line, size_t len, tf_error *err) {
  (void)err;
  tf_json_out_raw(ctx, line, len && line[len - 1] == '\n' ? len - 1 : len);
  return 0;
}

static void sweep_warnings(tf_json_out *w, const tf_sweep *s) {
  tf_json_out_key_array(w, "warnings");
  for (size_t i = 0; i < tf_sweep_nwarnings(s); i++)
    tf_json_out_string(w, tf_sweep_warning(s, i));
  tf_json_out_end(w);
}

/* With "fd": the lines go to that descriptor as they are solved (a pipe
 * the caller reads while the sweep runs) and the answer is
 * {"written": N, "warnings": [...]}; else {"points": [...], "warnings"}. */
static int run_sweep(tf_sweep *s, const tf_sweep_opts *o, FILE *out, tf_error *err) {
  tf_sweep_stats st;
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_object(&w);
  if (o->out_fd >= 0) {
    if (tf_sweep_run(s, o, NULL, &st, err))
      return -1;
    tf_json_out_key_int(&w, "written", (int64_t)st.written);
  } else { /* the lines into the answer as they come: an answer that fails is thrown away */
    tf_sweep_opts lines = *o;
    lines.line = point_value, lines.line_ctx = &w;
    tf_json_out_key_array(&w, "points");
    if (tf_sweep_run(s, &lines, NULL, &st, err))
      return -1;
    tf_json_out_end(&w);
  }
  sweep_warnings(&w, s);
  tf_json_out_end(&w);
  return 0;
}

/* "fd" must be open for writing: a closed number is the request's fault,
 * named by its field, not an output that failed. */
static int check_fd(int fd, tf_error *err) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0)
    return tf_error_set(err, TF_EINPUT, "$.fd", "descriptor %d is not open", fd);
  if ((flags & O_ACCMODE) == O_RDONLY)
    return tf_error_set(err, TF_EINPUT, "$.fd", "descriptor %d is not open for writing", fd);
  return 0;
}

int tf_api_sweep(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req; /* its options are x->args */
  tf_error *err = &x->err;
  const tf_command_args *a = &x->args;
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  if (tf_api_read_solve_opts(a, &o.solve, err) || (a->given[TF_COPT_fd] && check_fd((int)a->fd, err)))
    return -1;
  o.jobs = a->given[TF_COPT_jobs] ? (int)a->jobs : 1;
  o.out_fd = a->given[TF_COPT_fd] ? (int)a->fd : -1;
  if (a->given[TF_COPT_memo_max])
    o.memo_max = (size_t)a->memo_max;
  if (a->given[TF_COPT_shard])
    o.shard_index = (int)a->shard.index, o.shard_count = (int)a->shard.count;
  tf_sweep *s = load_sweep(a, err);
  int rc = s ? run_sweep(s, &o, out, err) : -1;
  tf_sweep_free(s);
  return rc;
}

/* -------------------------------------------------------------- validate */

/* "files": the CASES.jsonl paths, borrowed from the request. */
static int validate_paths(const cJSON *files, char ***paths, size_t *n, tf_error *err) {
  if (!cJSON_IsArray(files) || !files->child)
    return tf_error_set(err, TF_EINPUT, "$.files", "expected a non-empty array of CASES.jsonl paths");
  *paths = tf_nalloc((size_t)cJSON_GetArraySize(files) + 1, sizeof **paths);
  *n = 0;
  for (const cJSON *v = files->child; v; v = v->next, (*n)++) {
    char path[64];
    const char *name;
    tf_path_index(path, sizeof path, "$.files", *n);
    if (tf_json_string(v, path, &name, err))
      return -1;
    (*paths)[*n] = (char *)name;
  }
  return 0;
}

int tf_api_validate(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req; /* its options are x->args */
  tf_error *err = &x->err;
  char **paths = NULL;
  size_t n = 0;
  tf_solve_opts o;
  tf_validate_run v;
  memset(&v, 0, sizeof v); /* released whether or not the files ran */
  int rc = tf_api_read_solve_opts(&x->args, &o, err) || validate_paths(x->args.files, &paths, &n, err) ? -1 : 0;
  if (!rc && !(rc = tf_validate_files(paths, n, 1, &o, &v, err))) {
    tf_json_out w;
    tf_json_out_init(&w, out);
    tf_json_out_object(&w);
    tf_json_out_key(&w, "cases");
    lines_array(&w, v.rows, v.nrows);
    tf_json_out_key_int(&w, "passed", (int64_t)v.t.passed);
    tf_json_out_key_int(&w, "failed", (int64_t)v.t.failed);
    tf_json_out_key_int(&w, "skipped", (int64_t)v.t.skipped);
    if (v.set.n)
      tf_json_out_key_int(&w, "measured_cases", (int64_t)v.t.measured);
    tf_measured_write_json(&w, &v.set);
    tf_json_out_end(&w);
    rc = v.t.failed ? API_NO : API_OK;
  }
  tf_validate_run_release(&v);
  free(paths);
  return rc;
}

/* ------------------------------------------------------- names, version */

static int list_names(int kind, FILE *out) {
  size_t n;
  char **names = tf_catalog_list(kind, &n);
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_array(&w);
  for (size_t i = 0; i < n; i++)
    tf_json_out_string(&w, names[i]);
  tf_json_out_end(&w);
  tf_catalog_list_free(names, n);
  return API_OK;
}

int tf_api_machines(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  return list_names(TF_CATALOG_MACHINES, out);
}

int tf_api_worksets(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  return list_names(TF_CATALOG_WORKSETS, out);
}

/* "machine"/"workset" {"name": NAME or path}: the machine as `tilefit
 * machines NAME --json` prints it; the workset in full (solver/workset_json.h). */
int tf_api_machine(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const char *name;
  if (tf_json_string(tf_json_member(req, "name"), "$.name", &name, err))
    return -1;
  tf_machine *m = tf_catalog_load(TF_CATALOG_MACHINES, name, "$.name", err);
  if (m)
    tf_machine_write_json(out, m);
  tf_machine_free(m);
  return m ? API_OK : -1;
}

int tf_api_workset(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const char *name;
  if (tf_json_string(tf_json_member(req, "name"), "$.name", &name, err))
    return -1;
  tf_workset *w = tf_catalog_load(TF_CATALOG_WORKSETS, name, "$.name", err);
  if (w)
    tf_workset_write_json(out, w);
  tf_workset_free(w);
  return w ? API_OK : -1;
}

/* "options": the command-option table, what every front end takes. */
int tf_api_options(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  tf_command_options_write_json(out);
  return API_OK;
}

int tf_api_version(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "version", TF_LIBRARY_VERSION);
  tf_json_out_end(&w);
  return API_OK;
}

/* ----------------------------------------------------------------- prune */

/* "configs": objects (Triton's configs) or strings (CUTLASS kernel names),
 * read as `prune` reads a list; "file": such a list on disk. */
static int prune_list(const tf_command_args *a, tf_config_list *l, tf_error *err) {
  const cJSON *configs = a->configs;
  const char *path;
  size_t len;
  if (!configs == !a->file)
    return tf_error_set(err, TF_EINPUT, "$", "expected exactly one of \"configs\" and \"file\"");
  if (a->file) {
    char *text = tf_read_file(a->file, &len, err);
    int rc = text ? tf_configs_parse(text, len, a->file, l, err) : -1;
    free(text);
    return rc;
  }
  if (!cJSON_IsArray(configs) || !configs->child)
    return tf_error_set(err, TF_EINPUT, "$.configs",
                        "expected a non-empty array of configuration objects or kernel names");
  if (!cJSON_IsString(configs->child)) /* configuration objects, read where they are */
    return tf_configs_read_array(configs, "$.configs", l, err);
  tf_text t; /* kernel names, one a line, as a names file holds them */
  FILE *f = tf_text_open(&t);
  int rc = 0;
  size_t i = 0;
  for (const cJSON *c = configs->child; c && !rc; c = c->next, i++) {
    char where[48];
    tf_path_index(where, sizeof where, "$.configs", i);
    rc = tf_json_string(c, where, &path, err);
    if (!rc && strpbrk(path, "\n\r"))
      rc = tf_error_set(err, TF_EINPUT, where, "expected a kernel name (one line)");
    if (!rc)
      fprintf(f, "%s\n", path);
  }
  char *text = tf_text_close(&t, &len);
  if (!rc)
    rc = tf_configs_parse(text, len, "$.configs", l, err);
  free(text);
  return rc;
}

/* "machine", "workset", "params" {NAME: integer}, "map" {KEY: "VAR"}. */
/* Its problem's fields at the top (machine, workset, params, any_arch),
 * read as a problem line's; "map" {KEY: "VAR"}. */
static int prune_request(const cJSON *req, const cJSON *keys, tf_request *r, tf_prune_map *map, tf_error *err) {
  const cJSON *v;
  const char *s;
  if (tf_case_read_fields(req, "$", r, err))
    return -1;
  if (keys && !cJSON_IsObject(keys))
    return tf_error_set(err, TF_EINPUT, "$.map", "expected an object");
  cJSON_ArrayForEach(v, keys) {
    char path[160];
    tf_path_key(path, sizeof path, "$.map", v->string);
    if (tf_json_string(v, path, &s, err))
      return -1;
    tf_prune_pair pair = {tf_strdup(v->string), tf_strdup(s), ""};
    snprintf(pair.where, sizeof pair.where, "%s", path);
    TF_PUSH(map->pairs, map->n, map->cap, pair);
  }
  return err->code ? -1 : 0;
}

int tf_api_prune(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  tf_request r;
  tf_request_init(&r);
  tf_prune_map map = {NULL, 0, 0};
  tf_prune_batch b;
  tf_prune_batch_init(&b);
  tf_solve_opts o;
  int rc = tf_api_read_solve_opts(&x->args, &o, err) || prune_request(req, x->args.map, &r, &map, err) ||
           prune_list(&x->args, &b.list, err);
  if (!rc && b.list.form == TF_CONFIGS_NAMES && r.workset)
    rc = tf_error_set(err, TF_EINPUT, "$.workset", "cannot be combined with kernel names, which name their worksets");
  x->problem_fields = 0; /* machine, workset, params at the top */
  if (!rc)
    rc = tf_prune_batch_run(&b, &r, &map, o.time_limit_s, err);
  if (!rc)
    tf_prune_batch_json(out, &b);
  tf_prune_batch_release(&b);
  tf_prune_map_release(&map);
  tf_request_release(&r);
  return rc ? -1 : API_OK;
}
