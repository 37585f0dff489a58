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

#include "solver/api_json_internal.h"

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
int tf_api_read_solve_opts(const tf_command_args *a, tf_solve_opts *o, tf_error *err) {
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

/* Binds the call's problem: released by tf_api_bound_release, even on failure. */
int tf_api_bind_problem(const cJSON *req, const api_ctx *x, bound *b, tf_error *err) {
  memset(b, 0, sizeof *b);
  tf_case_init(&b->own);
  tf_solve_opts o;
  if (x->handle && tf_json_member(req, "cutlass_name"))
    return tf_error_set(err, TF_EINPUT, "$.cutlass_name", "names a workset; a handle has its own");
  int rc = tf_api_read_solve_opts(&x->args, &o, err) ||
           (x->handle ? bind_on_handle(req, x->handle, b, o.time_limit_s, err) : bind_own(req, b, o.time_limit_s, err));
  if (rc)
    request_error(err);
  return rc ? -1 : 0;
}

void tf_api_bound_release(bound *b) {
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
  if (tf_api_read_solve_opts(a, &o, err))
    return -1;
  bound b;
  int rc = tf_api_bind_problem(req, x, &b, err);
  if (!rc)
    rc = tf_solve_opts_for(&o, &b.c->req, "$.problem.solver", &o, err);
  tf_ranked r = {0};
  if (!rc)
    rc = tf_run_solve(b.p, &o, NULL, top, a->top_points, &r, err) ? -1 : write_answers(out, &b, &r, top, a->explain);
  tf_ranked_release(&r);
  tf_api_bound_release(&b);
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
  int rc = tf_api_bind_problem(req, x, &b, err) || tf_api_read_solve_opts(&x->args, &o, err) ? -1 : 0;
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
  tf_api_bound_release(&b);
  return rc;
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
    {"sweep", tf_api_sweep, TF_CMD_SWEEP, NULL, 0},
    {"validate", tf_api_validate, TF_CMD_VALIDATE, NULL, 0},
    {"machines", tf_api_machines, 0, NULL, 0},
    {"worksets", tf_api_worksets, 0, NULL, 0},
    {"machine", tf_api_machine, 0, name_extra, 0},
    {"workset", tf_api_workset, 0, name_extra, 0},
    {"version", tf_api_version, 0, NULL, 0},
    {"options", tf_api_options, 0, NULL, 0},
    {"prune", tf_api_prune, TF_CMD_PRUNE, prune_extra, 0},
    {"layout", tf_api_layout, TF_CMD_LAYOUT, NULL, 1},
    {"emit", tf_api_emit, TF_CMD_EMIT, NULL, 1},
    {"plot", tf_api_plot, TF_CMD_PLOT_MAP | TF_CMD_PLOT_SWEEP, NULL, 1},
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
