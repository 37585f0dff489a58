/* Running a request: what the command line (solver/cli/) and the
 * library's JSON entry point (solver/api_json.c) share once each has read
 * its own front end into a tf_request.  Load the request's machine and
 * workset, check the architecture, bind the problem; solve it once or for
 * the K best configurations.  Each front end then reports the answers in
 * its own framing (exit codes and stderr; an answer object). */
#ifndef TF_SOLVER_RUN_H
#define TF_SOLVER_RUN_H

#include "solver/solve.h"

/* A bound request: its machine and workset and the problem bound from
 * them.  Owned here: tf_run_release frees all three. */
typedef struct tf_run {
  tf_loaded loaded;
  tf_problem *problem;
} tf_run;

/* Loads req's machine and workset (an error names `mwhere` or `wwhere`),
 * then, when `arch_where` is given, refuses a machine outside the
 * workset's architectures as an error at arch_where (about any_arch,
 * which the front end spells), then binds with a time limit (0: none).
 * 0 ok; -1 with *err, r released-safe. */
int tf_run_bind(const tf_request *req, const char *mwhere, const char *wwhere, const char *arch_where,
                double time_limit_s, tf_run *r, tf_error *err);
void tf_run_release(tf_run *r);

/* The same for a request only the exact search solves (no --solver,
 * --lp, --mps or --explain, which need every combination bound): a
 * problem of more than TF_ON_DEMAND_FROM combinations is bound on demand
 * (tf_problem_new_on_demand), whatever its size. */
int tf_run_bind_on_demand(const tf_request *req, const char *mwhere, const char *wwhere, const char *arch_where,
                          double time_limit_s, tf_run *r, tf_error *err);

/* The architecture check alone, for a front end that loaded the machine
 * and workset itself: 0, or -1 with an error at `where`, about any_arch,
 * whose message ends in `hint` (NULL: none). */
int tf_run_arch_check(const tf_machine *m, const tf_workset *w, const tf_request *req, const char *where,
                      const char *hint, tf_error *err);

/* A solve's answers in rank order.  top == 0: one answer (tf_solve, any
 * status), n = 1.  top = K: up to K distinct configurations (`points`:
 * every point, as --top-points), ranked 1..n; n = 0 when nothing fits,
 * and a[0] then holds the infeasible answer (rank 0). */
typedef struct tf_ranked {
  tf_answer *a;
  int n, cap;
} tf_ranked;

/* Solves p for r (released by tf_ranked_release, even on failure);
 * `out` (LP/MPS export) only for a single solve.  0 ok, -1 with *err. */
int tf_run_solve(const tf_problem *p, const tf_solve_opts *o, const tf_solve_out *out, int top, int points,
                 tf_ranked *r, tf_error *err);
void tf_ranked_release(tf_ranked *r);

#endif
