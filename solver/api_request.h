/* Internal to solver/: a JSON API call's request as its commands read it
 * (api_request.c): the call's context, its options read by the
 * command-option table, and its problem bound.  The framing (api_json.c)
 * reads a request's options and makes handles here; the commands
 * (api_solve.c, api_commands.c) bind their problem here. */
#ifndef TF_SOLVER_API_REQUEST_H
#define TF_SOLVER_API_REQUEST_H

#include "model/core/json.h"
#include "model/formats/case.h"
#include "solver/api.h"
#include "solver/command_options.h"
#include "solver/run.h"
#include "solver/solve.h"

/* A call's exit status (tf_call_json's *status). */
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

/* The request's options for the commands `bits` (enum tf_cmd_bit: their
 * rows of the command-option table), each read by its kind: the one
 * reader of them. */
int tf_api_read_args(const cJSON *req, unsigned bits, tf_command_args *a, tf_error *err);

/* The command's options as the solver's ("solver", "time_limit",
 * "presolve"). */
int tf_api_read_solve_opts(const tf_command_args *a, tf_solve_opts *o, tf_error *err);

/* The problem of a request (its own, or a handle's laid over by the
 * request), loaded and bound; released by tf_api_bound_release, even on
 * failure. */
int tf_api_bind_problem(const cJSON *req, const api_ctx *x, bound *b, tf_error *err);
void tf_api_bound_release(bound *b);

/* A handle's problem, the JSON text `problem`, parsed into h->problem and
 * h->base and loaded and bound into h->run (its paths the problem's own,
 * "$.machine"); what it holds is released with the handle. */
int tf_api_bind_handle(const char *problem, tf_json_handle *h, tf_error *err);

#endif
