/* tf_call_json: parse the request, run one command on the library, write
 * the answer with the command line's own JSON writer into memory.  The
 * commands are in one table at the end; each gets the request object
 * (checked for its keys, which solver/command_options.h's table gives),
 * its options read by that table's kinds (api_ctx.args), and a FILE * on
 * the answer.  Problem objects are read where they are, by the
 * problem-line reader; an error names a field or option by its key, and
 * error_answer spells it as the request's member. */
#include "api.h"

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

enum { API_OK = 0, API_NO = 1, API_USAGE = 2, API_INTERNAL = 3 };

/* A handle: a problem's machine and workset loaded and its request bound
 * once (tf_json_handle_new); never changed after, so calls on it only
 * read it. */
struct tf_json_handle {
  cJSON *problem; /* the problem object it was made from */
  tf_case base;   /* that problem, parsed */
  tf_run run;     /* its machine and workset, and the problem bound from them */
};

/* One call: its error, the handle it runs on (NULL: none), and what an
 * error answer says besides the message ("free": check's free variables,
 * each a name). */
#define API_MAX_FREE 64
typedef struct api_ctx {
  tf_error err;
  const tf_json_handle *handle;
  int problem_fields; /* its problem's fields are under "problem" (not prune's, at the top) */
  char free_vars[API_MAX_FREE][TF_MAX_NAME_BYTES + 1]; /* "B_r", "B_c" */
  size_t nfree;
  tf_command_args args; /* the command's options, read by the table */
} api_ctx;

/* ------------------------------------------------------------- requests */

/* "shard": [I, N], 1 <= I <= N: points i with i mod N = I - 1, as --shard I/N. */
static int read_shard(const cJSON *v, const tf_command_option *o, tf_shard_arg *s, tf_error *err) {
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
    return tf_error_set(err, TF_EINPUT, "$.shard", "expected [I, N], this shard's index from 1 and the count");
  return tf_json_int(cJSON_GetArrayItem(v, 1), "$.shard[1]", 1, o->hi, &s->count, err) ||
                 tf_json_int(cJSON_GetArrayItem(v, 0), "$.shard[0]", 1, s->count, &s->index, err)
             ? -1
             : 0;
}

/* One option's value, read by its kind into its member. */
static int read_arg(const cJSON *v, const tf_command_option *o, void *m, tf_error *err) {
  char path[48];
  snprintf(path, sizeof path, "$.%s", o->key);
  switch ((enum tf_option_kind)o->kind) {
  case TF_OPTK_INT: return tf_json_int(v, path, o->lo, o->hi, m, err);
  case TF_OPTK_SECONDS:
    if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || v->valuedouble > 1e9)
      return tf_error_set(err, TF_EINPUT, path, "expected a number of seconds > 0");
    return *(double *)m = v->valuedouble, 0;
  case TF_OPTK_FLAG: case TF_OPTK_NOFLAG:
    if (!cJSON_IsBool(v))
      return tf_error_set(err, TF_EINPUT, path, "expected true or false");
    return *(int *)m = cJSON_IsTrue(v), 0;
  case TF_OPTK_WORD: case TF_OPTK_TEXT: return tf_json_string(v, path, m, err);
  case TF_OPTK_SHARD: return read_shard(v, o, m, err);
  case TF_OPTK_PAIRS: case TF_OPTK_OPERAND: return *(const cJSON **)m = v, 0;
  }
  return tf_error_set(err, TF_EINTERNAL, path, "an option of no kind");
}

/* The request's options for the commands `bits` (their rows of the
 * command-option table), each read by its kind: the one reader of them. */
static int read_args(const cJSON *req, unsigned bits, tf_command_args *a, tf_error *err) {
  memset(a, 0, sizeof *a);
  a->presolve = 1;
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++) {
    const tf_command_option *o = &tf_command_options[i];
    const cJSON *v = (o->fronts & TF_FRONT_JSON) && (o->commands & bits) ? tf_json_member(req, o->key) : NULL;
    if (v && read_arg(v, o, (char *)a + tf_command_arg_offsets[i], err))
      return -1;
    a->given[i] = v != NULL;
  }
  return 0;
}

/* The solver options ("solver", "time_limit", "presolve") as read. */
static int read_solve_opts(const tf_command_args *a, tf_solve_opts *o, tf_error *err) {
  tf_solve_opts_init(o);
  if (a->given[TF_COPT_time_limit])
    o->time_limit_s = a->time_limit;
  o->presolve = a->presolve;
  return a->solver ? tf_solver_named(a->solver, "$.solver", &o->backend, err) : 0;
}

/* An error in the request's own fields needs no file name: the workset's
 * name is in the message when it matters ("workset 'fa4-fwd' has no param"). */
static void request_error(tf_error *err) {
  if (!strncmp(err->path, "$.problem", 9))
    err->file[0] = 0;
}

/* A problem object as a problem line (model/formats/case.h), so that it means
 * what the same object means in a validation file or a sweep; `relocated`
 * names its paths in the request ("$.problem.params.d"). */
static int parse_problem(const cJSON *p, int relocated, tf_case *c, tf_error *err) {
  return tf_case_read(p, "", relocated ? "$.problem" : "$", c, err);
}

/* A handle call's "problem" adds to the handle's (tf_request_overlay):
 * fix, domain and place by key (the call's win), require appends,
 * objective and solver replace.  What the handle bound (machine, workset,
 * params, any_arch) stays. */
static const char *const call_keys[] = {"id", "fix", "domain", "require", "objective", "place", "solver", NULL};

static int call_problem_keys(const cJSON *call, tf_error *err) {
  static const char *const bound_keys[] = {"machine", "workset", "params", "any_arch"};
  if (!cJSON_IsObject(call))
    return tf_error_set(err, TF_EINPUT, "$.problem", "expected an object");
  for (size_t i = 0; i < sizeof bound_keys / sizeof *bound_keys; i++)
    if (tf_json_member(call, bound_keys[i])) {
      char path[48];
      snprintf(path, sizeof path, "$.problem.%s", bound_keys[i]);
      return tf_error_set(err, TF_EINPUT, path, "bound when the handle was made; make another handle to change it");
    }
  return tf_json_keys(call, "$.problem", call_keys, NULL, err);
}

/* The problem a solve, check, layout or emit call runs on: its own
 * (parsed, loaded and bound here), or its handle's (borrowed, or bound
 * anew from the handle's loaded files when the call adds to the problem). */
typedef struct bound {
  tf_case own;
  tf_run run; /* own: loaded and bound here (a handle's call: bound only) */
  const tf_case *c;
  const tf_problem *p;
  int auto_stages; /* a CUTLASS name without a stage count: the builder's count */
} bound;

/* "cutlass_name", as --cutlass-name: the name's workset, params, tile
 * fixes and stages (or "max stages"), and its machine unless the problem
 * names one; the problem's other members laid over them as a handle
 * call's are. */
static int cutlass_case(const cJSON *req, const cJSON *p, bound *b, tf_error *err) {
  static const char *const keys[] = {"machine", "params", "fix", "domain", "require", "objective", "place",
                                     "any_arch", "solver", "id", "comment", NULL};
  const char *name, *machine = NULL;
  if (tf_json_string(tf_json_member(req, "cutlass_name"), "$.cutlass_name", &name, err))
    return -1;
  if (p && !cJSON_IsObject(p))
    return tf_error_set(err, TF_EINPUT, "$.problem", "expected an object");
  if (tf_json_member(p, "workset"))
    return tf_error_set(err, TF_EINPUT, "$.problem.workset", "cannot be combined with cutlass_name, which names the workset");
  if (p && tf_json_keys(p, "$.problem", keys, NULL, err))
    return -1;
  if (tf_json_member(p, "machine") && tf_json_string(tf_json_member(p, "machine"), "$.problem.machine", &machine, err))
    return -1;
  b->own.req.machine = machine ? tf_strdup(machine) : NULL;
  tf_cutlass_kernel k;
  if (tf_cutlass_name_request(name, &b->own.req, &k, err))
    return -1;
  b->auto_stages = !k.stages;
  return p ? tf_case_read_fields(p, "$.problem", &b->own.req, err) : 0;
}

static int bind_own(const cJSON *req, bound *b, double time_limit_s, tf_error *err) {
  const cJSON *p = tf_json_member(req, "problem");
  int rc = tf_json_member(req, "cutlass_name") ? cutlass_case(req, p, b, err)
           : !cJSON_IsObject(p)
               ? tf_error_set(err, TF_EINPUT, "$.problem", "expected a problem object with machine and workset")
               : parse_problem(p, 1, &b->own, err);
  b->c = &b->own;
  if (rc || tf_run_bind(&b->own.req, "$.problem.machine", "$.problem.workset", "$.problem.any_arch", time_limit_s,
                        &b->run, err))
    return -1;
  b->p = b->run.problem;
  return 0;
}

/* A call's own problem, the handle's as bound with the call's laid over
 * it, its paths those of the request ("$.problem.fix.B_r"). */
static int bind_on_handle(const cJSON *req, const tf_json_handle *h, bound *b, double time_limit_s, tf_error *err) {
  const cJSON *p = tf_json_member(req, "problem");
  if (!p || (cJSON_IsObject(p) && !p->child)) {
    b->c = &h->base, b->p = h->run.problem;
    return 0;
  }
  if (call_problem_keys(p, err) || tf_case_read(h->problem, "", "$.problem", &b->own, err) ||
      tf_case_read_fields(p, "$.problem", &b->own.req, err))
    return -1;
  b->c = &b->own;
  b->run.problem = tf_problem_new_timed(h->run.loaded.machine, h->run.loaded.workset, &b->own.req, time_limit_s, err);
  return (b->p = b->run.problem) ? 0 : -1;
}

/* Binds the call's problem: released by bound_release, even on failure. */
static int bind_problem(const cJSON *req, const api_ctx *x, bound *b, tf_error *err) {
  memset(b, 0, sizeof *b);
  tf_case_init(&b->own);
  tf_solve_opts o;
  if (x->handle && tf_json_member(req, "cutlass_name"))
    return tf_error_set(err, TF_EINPUT, "$.cutlass_name", "names a workset; a handle has its own");
  int rc = read_solve_opts(&x->args, &o, err) ||
           (x->handle ? bind_on_handle(req, x->handle, b, o.time_limit_s, err) : bind_own(req, b, o.time_limit_s, err));
  if (rc)
    request_error(err);
  return rc ? -1 : 0;
}

static void bound_release(bound *b) {
  tf_run_release(&b->run); /* a handle call's loaded files are the handle's: empty here */
  tf_case_release(&b->own);
}

/* ------------------------------------------------------- solve and check */

/* The answers as the call frames them: one solve object, or with "top"
 * an array of them in rank order (a single infeasible one when nothing
 * fits).  API_OK, or API_NO when nothing is optimal. */
static int write_answers(FILE *out, const bound *b, const tf_ranked *r, int top, int explain) {
  if (!top) {
    tf_report_json_answer(out, &b->c->req, b->p, &r->a[0], explain);
    return r->a[0].status == TF_ANSWER_OPTIMAL ? API_OK : API_NO;
  }
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_array(&w);
  tf_report_json_ranked(&w, &b->c->req, b->p, r->a, r->n ? r->n : 1, explain);
  tf_json_out_end(&w);
  return r->n ? API_OK : API_NO;
}

static int api_solve(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const tf_command_args *a = &x->args;
  int top = (int)a->top;
  tf_solve_opts o;
  if (read_solve_opts(a, &o, err))
    return -1;
  bound b;
  int rc = bind_problem(req, x, &b, err);
  if (!rc)
    rc = tf_solve_opts_for(&o, &b.c->req, "$.problem.solver", &o, err);
  tf_ranked r = {0};
  if (!rc)
    rc = tf_run_solve(b.p, &o, NULL, top, a->top_points, &r, err) ? -1 : write_answers(out, &b, &r, top, a->explain);
  tf_ranked_release(&r);
  bound_release(&b);
  return rc;
}

/* check needs every variable fixed (tf_check says which are not, an error
 * about fix): the free ones, each a name, for the answer's "free". */
static void free_variables(const tf_problem *p, api_ctx *x) {
  const char *names[API_MAX_FREE];
  size_t n = tf_check_free_names(p, names, API_MAX_FREE);
  for (x->nfree = 0; x->nfree < n && x->nfree < API_MAX_FREE; x->nfree++)
    snprintf(x->free_vars[x->nfree], sizeof x->free_vars[0], "%s", names[x->nfree]);
}

static int api_check(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  bound b;
  tf_solve_opts o;
  int rc = bind_problem(req, x, &b, err) || read_solve_opts(&x->args, &o, err) ? -1 : 0;
  if (!rc && b.auto_stages) /* as check --cutlass-name: the largest stage count that fits */
    rc = tf_fix_builder_stages(&b.own.req, &b.run.loaded, &o, &b.run.problem, err), b.p = b.run.problem;
  if (!rc) {
    tf_answer a;
    tf_answer_init(&a, b.p);
    rc = tf_check(b.p, &a, err) ? -1 : a.status == TF_ANSWER_FITS ? API_OK : API_NO;
    if (rc >= 0)
      tf_report_json_object(out, &b.c->req, b.p, &a);
    else if (!strcmp(err->at, "fix"))
      free_variables(b.p, x);
    tf_answer_release(&a);
  }
  bound_release(&b);
  return rc;
}

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

static int api_layout(const cJSON *req, FILE *out, api_ctx *x) {
  static const char *const words[] = {"c", "cute-dsl", NULL};
  static const int forms[] = {TF_LAYOUT_C, TF_LAYOUT_CUTE_DSL};
  tf_error *err = &x->err;
  int form = TF_LAYOUT_JSON;
  tf_solve_opts o;
  if (read_form(x->args.emit, words, forms, &form, err) || read_solve_opts(&x->args, &o, err))
    return -1;
  bound b;
  int rc = bind_problem(req, x, &b, err);
  if (!rc) {
    tf_answer a;
    tf_answer_init(&a, b.p);
    tf_text t;
    FILE *f = form == TF_LAYOUT_JSON ? out : tf_text_open(&t);
    rc = tf_layout_run(f, b.p, &o, form, &a, err) ? -1
         : a.status == TF_ANSWER_OPTIMAL || a.status == TF_ANSWER_FITS ? API_OK : API_NO;
    if (f != out) {
      char *text = tf_text_close(&t, NULL);
      if (rc >= 0)
        text_object(out, text);
      free(text);
    }
    tf_answer_release(&a);
  }
  bound_release(&b);
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

static int api_emit(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const char *name = x->args.for_;
  tf_solve_opts o;
  if (!name)
    return tf_error_set(err, TF_EINPUT, "$.for", "expected one of cutlass, cute-dsl, triton, fa");
  if (read_solve_opts(&x->args, &o, err))
    return -1;
  int target = tf_emit_target(name);
  if (target < 0)
    return tf_error_set(err, TF_EINPUT, "$.for", "expected one of cutlass, cute-dsl, triton, fa, got '%s'", name);
  bound b;
  tf_prune_map keys = {NULL, 0, 0};
  tf_problem *own = NULL;
  int rc = bind_problem(req, x, &b, err) || emit_keys_read(x->args.key, &keys, err),
      status = TF_ANSWER_OPTIMAL;
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
  bound_release(&b);
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
      (mo.scale = tf_plot_scale_parse(a->scale, "$.scale", err)) < 0 || read_solve_opts(a, &o, err))
    return -1;
  bound b;
  int rc = bind_problem(req, x, &b, err);
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
  bound_release(&b);
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

static int api_plot(const cJSON *req, FILE *out, api_ctx *x) {
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

static int api_sweep(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req; /* its options are x->args */
  tf_error *err = &x->err;
  const tf_command_args *a = &x->args;
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  if (read_solve_opts(a, &o.solve, err) || (a->given[TF_COPT_fd] && check_fd((int)a->fd, err)))
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

static int api_validate(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req; /* its options are x->args */
  tf_error *err = &x->err;
  char **paths = NULL;
  size_t n = 0;
  tf_solve_opts o;
  tf_validate_run v;
  memset(&v, 0, sizeof v); /* released whether or not the files ran */
  int rc = read_solve_opts(&x->args, &o, err) || validate_paths(x->args.files, &paths, &n, err) ? -1 : 0;
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

static int api_machines(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  return list_names(TF_CATALOG_MACHINES, out);
}

static int api_worksets(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  return list_names(TF_CATALOG_WORKSETS, out);
}

/* "machine"/"workset" {"name": NAME or path}: the machine as `tilefit
 * machines NAME --json` prints it; the workset in full (solver/workset_json.h). */
static int api_machine(const cJSON *req, FILE *out, api_ctx *x) {
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

static int api_workset(const cJSON *req, FILE *out, api_ctx *x) {
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
static int api_options(const cJSON *req, FILE *out, api_ctx *x) {
  (void)req, (void)x;
  tf_command_options_write_json(out);
  return API_OK;
}

static int api_version(const cJSON *req, FILE *out, api_ctx *x) {
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
    return tf_error_set(err, TF_EINPUT, "$.configs", "expected a non-empty array of configuration objects or kernel names");
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

static int api_prune(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  tf_request r;
  tf_request_init(&r);
  tf_prune_map map = {NULL, 0, 0};
  tf_prune_batch b;
  tf_prune_batch_init(&b);
  tf_solve_opts o;
  int rc = read_solve_opts(&x->args, &o, err) || prune_request(req, x->args.map, &r, &map, err) ||
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

/* -------------------------------------------------------------- dispatch */

/* What a request of each command may hold besides "cmd": the rows of the
 * command-option table (solver/command_options.h) its JSON takes for
 * `options`, and `extra` (prune's problem fields, at the top level). */
static const char *const prune_extra[] = {"machine", "workset", "params", "any_arch", NULL};
static const char *const name_extra[] = {"name", NULL};

static const struct api_cmd {
  const char *name;
  int (*run)(const cJSON *req, FILE *out, api_ctx *x);
  unsigned options; /* enum tf_cmd_bit: the table's rows for these commands */
  const char *const *extra;
  int on_handle; /* may run on a handle */
} commands[] = {
    {"solve", api_solve, TF_CMD_SOLVE, NULL, 1},
    {"check", api_check, TF_CMD_CHECK, NULL, 1},
    {"sweep", api_sweep, TF_CMD_SWEEP, NULL, 0},
    {"validate", api_validate, TF_CMD_VALIDATE, NULL, 0},
    {"machines", api_machines, 0, NULL, 0},
    {"worksets", api_worksets, 0, NULL, 0},
    {"machine", api_machine, 0, name_extra, 0},
    {"workset", api_workset, 0, name_extra, 0},
    {"version", api_version, 0, NULL, 0},
    {"options", api_options, 0, NULL, 0},
    {"prune", api_prune, TF_CMD_PRUNE, prune_extra, 0},
    {"layout", api_layout, TF_CMD_LAYOUT, NULL, 1},
    {"emit", api_emit, TF_CMD_EMIT, NULL, 1},
    {"plot", api_plot, TF_CMD_PLOT_MAP | TF_CMD_PLOT_SWEEP, NULL, 1},
};

/* The request's members must be the command's. */
static int command_keys(const cJSON *req, const struct api_cmd *c, tf_error *err) {
  const char *keys[TF_NCOMMAND_OPTIONS + 8];
  size_t n = 0;
  keys[n++] = "cmd";
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++)
    if ((tf_command_options[i].fronts & TF_FRONT_JSON) && (tf_command_options[i].commands & c->options))
      keys[n++] = tf_command_options[i].key;
  for (const char *const *e = c->extra; e && *e; e++)
    keys[n++] = *e;
  keys[n] = NULL;
  return tf_json_keys(req, "$", keys, NULL, err);
}

static const struct api_cmd *command(const cJSON *req, const api_ctx *x, tf_error *err) {
  const char *name = NULL;
  if (!cJSON_IsObject(req))
    return tf_error_set(err, TF_EINPUT, "$", "expected a request object with \"cmd\""), NULL;
  if (tf_json_string(tf_json_member(req, "cmd"), "$.cmd", &name, err))
    return NULL;
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(commands[i].name, name)) {
      if (x->handle && !commands[i].on_handle)
        break;
      return command_keys(req, &commands[i], err) ? NULL : &commands[i];
    }
  tf_error_set(err, TF_EINPUT, "$.cmd", x->handle ? "unknown command '%s' on a handle (solve, check, layout, emit, plot)"
               : "unknown command '%s' (solve, check, layout, emit, plot, sweep, validate, prune, machines, machine, worksets, "
                 "workset, version, options)",
               name);
  return NULL;
}

static int dispatch(const char *request, FILE *out, api_ctx *x) {
  cJSON *req = tf_json_parse(request, strlen(request), "", &x->err);
  if (!req)
    return -1;
  const struct api_cmd *c = command(req, x, &x->err);
  int rc = c && !read_args(req, c->options, &x->args, &x->err) ? c->run(req, out, x) : -1;
  cJSON_Delete(req);
  return rc;
}

/* The request member an error is in: the field or option the library
 * names (err->at, "time_limit"), else the path's: "$.problem.fix.B_r" is
 * in "fix", "$.top" in "top"; "" for an error elsewhere (a workset file). */
static void error_field(const tf_error *err, char *field, size_t size) {
  const char *p = err->path;
  field[0] = 0;
  if (err->at[0]) {
    snprintf(field, size, "%s", err->at);
    return;
  }
  if (!strncmp(err->file, "$.", 2)) /* an error in a member read as a document of its own: "$.spec" */
    p = err->file;
  else if (err->file[0] || strncmp(p, "$.", 2))
    return;
  p += 2;
  if (!strncmp(p, "problem.", 8))
    p += 8;
  size_t n = strcspn(p, ".[");
  snprintf(field, size, "%.*s", (int)n, p);
}

/* Is `key` a request field's (a problem's member)? */
static int request_key(const char *key) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    if (!strcmp(tf_request_fields[i].key, key))
      return 1;
  return 0;
}

/* The request member an error is in, as a JSON path. */
static void error_path(const api_ctx *x, char *path, size_t size) {
  const tf_error *err = &x->err;
  if (!strncmp(err->file, "$.", 2) && err->path[0] == '$') /* "$.spec" and "$.params.zz": "$.spec.params.zz" */
    snprintf(path, size, "%s%s", err->file, err->path + 1);
  else if (!err->path[0] && err->at[0]) /* a field or option the library names: its member */
    snprintf(path, size, "$.%s%s", x->problem_fields && request_key(err->at) ? "problem." : "", err->at);
  else
    snprintf(path, size, "%s", err->path);
}

/* {"error": the line, "status": N, "message": without its place, "path":
 * the JSON path, "field": the request member, "free": [check's free
 * variables]}: a binding names its own keyword from "field". */
static char *error_answer(const api_ctx *x, int status) {
  tf_error e = x->err; /* a field or option the library names is spelled as its member */
  char msg[1024], field[64], path[512];
  error_path(x, path, sizeof path);
  if (!e.path[0] && e.at[0])
    snprintf(e.path, sizeof e.path, "%s", path);
  tf_error_spell(&e, NULL); /* "@{fix}" in a message: the member's name */
  const tf_error *err = &e;
  tf_error_format(err, msg, sizeof msg);
  error_field(err, field, sizeof field);
  if (!strcmp(field, "any_arch"))
    snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " (\"any_arch\": true solves it anyway)");
  tf_text t;
  tf_json_out w;
  tf_json_out_init(&w, tf_text_open(&t));
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "error", msg);
  tf_json_out_key_int(&w, "status", status);
  tf_json_out_key_string(&w, "message", err->msg);
  tf_json_out_key_string(&w, "path", path);
  tf_json_out_key_string(&w, "field", field);
  if (!strcmp(err->path, "$.problem.fix") && x->nfree) {
    tf_json_out_key_array(&w, "free");
    for (size_t i = 0; i < x->nfree; i++)
      tf_json_out_string(&w, x->free_vars[i]);
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
  return tf_text_close(&t, NULL);
}

/* The answer when memory ran out: static, so it needs none (tf_free
 * knows it). */
static char out_of_memory[] = "{\"error\":\"out of memory\",\"status\":3}";

/* One call on a handle or none: `run` writes the answer to `out` and
 * returns an exit status, or -1 with x->err set. */
static char *answer(api_ctx *x, int (*run)(const char *, FILE *, api_ctx *, void *), const char *request, void *arg,
                    int *status) {
  tf_text t;
  jmp_buf here;
  jmp_buf *volatile outer = tf_alloc_recovery(&here);
  if (setjmp(here)) { /* an allocation failed: what this call held is lost, the process goes on */
    tf_alloc_recovery(outer);
    if (status)
      *status = API_INTERNAL;
    return out_of_memory;
  }
  FILE *out = tf_text_open(&t);
  int rc = -1;
  if (!request)
    tf_error_set(&x->err, TF_EINPUT, "$", "no request (NULL)");
  else
    rc = run(request, out, x, arg);
  char *text = tf_text_close(&t, NULL);
  tf_backend_thread_done(); /* GLPK keeps an environment per thread: leave none behind */
  if (rc < 0) {
    free(text);
    rc = x->err.code == TF_EINPUT ? API_USAGE : API_INTERNAL;
    text = error_answer(x, rc);
  }
  tf_alloc_recovery(outer);
  if (status)
    *status = rc;
  return text;
}

static void ctx_init(api_ctx *x, const tf_json_handle *h) {
  tf_error_init(&x->err);
  x->handle = h;
  x->problem_fields = 1;
  x->nfree = 0;
}

static int run_request(const char *request, FILE *out, api_ctx *x, void *arg) {
  (void)arg;
  return dispatch(request, out, x);
}

char *tf_call_json(const char *request, int *status) {
  api_ctx x;
  ctx_init(&x, NULL);
  return answer(&x, run_request, request, NULL, status);
}

char *tf_json_handle_call(const tf_json_handle *h, const char *request, int *status) {
  api_ctx x;
  ctx_init(&x, h);
  if (!h) {
    tf_error_set(&x.err, TF_EINPUT, "$", "no handle (NULL)");
    return answer(&x, run_request, NULL, NULL, status);
  }
  return answer(&x, run_request, request, NULL, status);
}

/* ---------------------------------------------------------------- handles */

/* Loads and binds the problem into *(tf_json_handle **)arg; the answer
 * names what it bound: {"machine": , "workset": }. */
static int make_handle(const char *problem, FILE *out, api_ctx *x, void *arg) {
  tf_error *err = &x->err;
  tf_json_handle *h = tf_nalloc(1, sizeof *h);
  tf_case_init(&h->base);
  h->problem = tf_json_parse(problem, strlen(problem), "", err);
  int rc = !h->problem ? -1
           : !cJSON_IsObject(h->problem) ? tf_error_set(err, TF_EINPUT, "$", "expected a problem object with machine and workset")
           : parse_problem(h->problem, 0, &h->base, err) ||
                     tf_run_bind(&h->base.req, "$.machine", "$.workset", "$.any_arch", 0, &h->run, err);
  if (rc) {
    if (!strncmp(err->path, "$.", 2))
      err->file[0] = 0;
    tf_json_handle_free(h);
    return -1;
  }
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "machine", h->run.loaded.machine->name);
  tf_json_out_key_string(&w, "workset", h->run.loaded.workset->name);
  tf_json_out_end(&w);
  *(tf_json_handle **)arg = h;
  return API_OK;
}

tf_json_handle *tf_json_handle_new(const char *problem, char **answer_out, int *status) {
  api_ctx x;
  ctx_init(&x, NULL);
  tf_json_handle *h = NULL;
  char *text = answer(&x, make_handle, problem, &h, status);
  if (answer_out)
    *answer_out = text;
  else
    tf_free(text);
  return h;
}

void tf_json_handle_free(tf_json_handle *h) {
  if (!h)
    return;
  tf_run_release(&h->run);
  tf_case_release(&h->base);
  cJSON_Delete(h->problem);
  free(h);
}

void tf_free(void *p) {
  if (p != out_of_memory)
    free(p);
}
