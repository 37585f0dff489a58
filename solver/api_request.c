/* A JSON API call's request as its commands read it (api_request.h): its
 * options, each read by the command-option table's kind, the solver
 * options among them, and its problem -- its own, a CUTLASS kernel name's
 * or a handle's with the call's laid over it -- loaded and bound.  An
 * error names the request's member ("$.problem.fix.B_r"). */
#include "solver/api_request.h"

#include <stdio.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/formats/case.h"
#include "model/formats/cutlass_name.h"
#include "solver/backend.h"
#include "solver/command_options.h"
#include "solver/run.h"

/* ------------------------------------------------------------- requests */

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
  case TF_OPTK_FLAG:
  case TF_OPTK_NOFLAG:
    if (!cJSON_IsBool(v))
      return tf_error_set(err, TF_EINPUT, path, "expected true or false");
    return *(int *)m = cJSON_IsTrue(v), 0;
  case TF_OPTK_WORD:
  case TF_OPTK_TEXT: return tf_json_string(v, path, m, err);
  case TF_OPTK_SHARD: return read_shard(v, o, m, err);
  case TF_OPTK_PAIRS:
  case TF_OPTK_OPERAND: return *(const cJSON **)m = v, 0;
  }
  return tf_error_set(err, TF_EINTERNAL, path, "an option of no kind");
}

int tf_api_read_args(const cJSON *req, unsigned bits, tf_command_args *a, tf_error *err) {
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
  static const char *const keys[] = {"machine", "params",   "fix",    "domain", "require", "objective",
                                     "place",   "any_arch", "solver", "id",     "comment", NULL};
  const char *name, *machine = NULL;
  if (tf_json_string(tf_json_member(req, "cutlass_name"), "$.cutlass_name", &name, err))
    return -1;
  if (p && !cJSON_IsObject(p))
    return tf_error_set(err, TF_EINPUT, "$.problem", "expected an object");
  if (tf_json_member(p, "workset"))
    return tf_error_set(err, TF_EINPUT, "$.problem.workset",
                        "cannot be combined with cutlass_name, which names the workset");
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

/* ---------------------------------------------------------------- handles */

int tf_api_bind_handle(const char *problem, tf_json_handle *h, tf_error *err) {
  h->problem = tf_json_parse(problem, strlen(problem), "", err);
  int rc = !h->problem ? -1
           : !cJSON_IsObject(h->problem)
               ? tf_error_set(err, TF_EINPUT, "$", "expected a problem object with machine and workset")
               : parse_problem(h->problem, 0, &h->base, err) ||
                     tf_run_bind(&h->base.req, "$.machine", "$.workset", "$.any_arch", 0, &h->run, err);
  if (rc && !strncmp(err->path, "$.", 2))
    err->file[0] = 0;
  return rc ? -1 : 0;
}
