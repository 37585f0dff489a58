/* The solving pipeline shared by every command:
 *   load machine + workset -> bind a problem -> the exact search
 *   (solver/search/search.h) -> certify in integers -> closed form;
 *   with --solver glpk, GLPK solves the whole integer program and its
 *   point is certified against the exact one (solver/solve_ilp.h);
 *   with --lp / --mps, the integer program is written (solver/export.h).
 * and `check`, which evaluates one fixed point without a solver. */
#ifndef TF_SOLVER_SOLVE_H
#define TF_SOLVER_SOLVE_H

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "model/input/machine.h"
#include "model/input/workset.h"
#include "solver/backend.h"
#include "solver/search/search.h"

/* A loaded machine and workset, resolved from a request's names. */
typedef struct tf_loaded {
  tf_machine *machine;
  tf_workset *workset;
} tf_loaded;

/* Where the request's names came from, for errors: "-m"/"-w" on the
 * command line, "$.machine"/"$.workset" in a problem line. */
int tf_load(const tf_request *req, const char *mwhere, const char *wwhere, tf_loaded *out, tf_error *err);

/* The request names a machine and a workset: 0, or -1 with the error
 * tf_load gives for the one missing (the batch cache asks the same). */
int tf_load_names(const tf_request *req, const char *mwhere, const char *wwhere, tf_error *err);
void tf_loaded_release(tf_loaded *l);

typedef struct tf_solve_out {
  const char *lp_file;  /* write the model here (CPLEX LP), or NULL */
  const char *mps_file; /* write the model here (free MPS), or NULL */
} tf_solve_out;

/* Solves a bound problem exactly (solver/search/search.h; o->time_limit_s bounds
 * the whole solve), then, when o->backend is set, by that ILP solver,
 * certified (solver/solve_ilp.h).  An infeasible problem is a result
 * (a->status == TF_ANSWER_INFEASIBLE with a->why), not an error.  With
 * out->lp_file / mps_file the integer program is written, one file per
 * level (solver/export.h). */
int tf_solve(const tf_problem *p, const tf_solve_opts *o, const tf_solve_out *out, tf_answer *a, tf_error *err);

/* *o with the request's own "solver" (a problem line's, a spec's) in
 * place of the command's; an unknown name is TF_EINPUT naming `where`
 * ("line 3: $.solver"). */
int tf_solve_opts_for(const tf_solve_opts *o, const tf_request *req, const char *where, tf_solve_opts *out,
                      tf_error *err);

/* The k best distinct points in the exact search's order (solver/search/search.h):
 * fills answers[0..*n-1] (each initialised by the caller with
 * tf_answer_init); *n < k when fewer exist, 0 when none (answers[0] then
 * says why). */
int tf_solve_top(const tf_problem *p, const tf_solve_opts *o, int k, tf_answer *answers, int *n, tf_error *err);

/* The k best distinct configurations (--top K): as tf_solve_top, with
 * points folded into the best point of their configuration -- the same
 * values of the choose variables outside placement, and a placement that
 * changes no shown objective and no roofline cycle, or counts alone (a
 * worse stage count of the same tile).  Searches up to TF_TOP_MAX_POINTS
 * points for them. */
#define TF_TOP_MAX_POINTS 65536
int tf_solve_configs(const tf_problem *p, const tf_solve_opts *o, int k, tf_answer *answers, int *n, tf_error *err);

/* The second half of tf_solve and tf_solve_top, for callers that ran the
 * search themselves (a sweep reusing a result): infeasible with the reason
 * when n == 0, otherwise each point certified into answers[i]. */
int tf_solve_found(const tf_problem *p, const tf_found *found, size_t n, tf_answer *answers, tf_error *err);

/* Every variable must be fixed; sets TF_ANSWER_FITS or TF_ANSWER_NO_FIT. */
int tf_check(const tf_problem *p, tf_answer *a, tf_error *err);
/* The variables check would find free ("B_r, B_c" into buf); returns 1
 * when there is one, else 0. */
int tf_check_free_variables(const tf_problem *p, char *buf, size_t size);
/* The same as names (borrowed from p), the first `max` of them; returns
 * how many are free. */
size_t tf_check_free_names(const tf_problem *p, const char **names, size_t max);

/* What layout and emit answer with: tf_check when every variable is fixed
 * (placements may stay free, as for check), else tf_solve. */
int tf_solve_or_check(const tf_problem *p, const tf_solve_opts *o, tf_answer *a, tf_error *err);

#endif
