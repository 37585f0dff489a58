/* Internal to solver/: what the JSON API's framing (api_json.c) and its
 * commands (api_commands.c) share: a call's context, a bound problem, and
 * each command's function, which the dispatch table names. */
#ifndef TF_SOLVER_API_JSON_INTERNAL_H
#define TF_SOLVER_API_JSON_INTERNAL_H

#include <stdio.h>

#include "model/core/json.h"
#include "model/formats/case.h"
#include "solver/command_options.h"
#include "solver/run.h"
#include "solver/solve.h"
#include "solver/tilefit.h"

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

/* The problem of a request (its own, or a handle's laid over by the
 * request), loaded and bound; released by tf_api_bound_release. */
int tf_api_bind_problem(const cJSON *req, const api_ctx *x, bound *b, tf_error *err);
void tf_api_bound_release(bound *b);
/* The command's options as the solver's (--solver, --time-limit, ...). */
int tf_api_read_solve_opts(const tf_command_args *a, tf_solve_opts *o, tf_error *err);

/* The commands besides solve and check (api_commands.c): each answers
 * the request on out, API_OK, API_NO or API_USAGE with x->err set. */
int tf_api_layout(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_emit(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_plot(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_sweep(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_validate(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_machines(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_worksets(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_machine(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_workset(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_options(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_version(const cJSON *req, FILE *out, api_ctx *x);
int tf_api_prune(const cJSON *req, FILE *out, api_ctx *x);

#endif
