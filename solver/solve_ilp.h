/* --solver glpk: the whole integer program of a problem (encode/build.h:
 * one binary per kept combination, disaggregated counts, exact granule
 * rounding, every require, the objectives lexicographically) solved by an
 * ILP backend, its point decoded and certified by the exact engine.  The
 * certificate: the decoded point fits, re-evaluated from the workset's
 * expressions in checked int64 arithmetic, and its objective vector equals
 * both the backend's reported optimum and the exact search's optimum.
 * Anything else -- a worse point, a wrong "infeasible", a time limit, a
 * solver error -- is TF_ESOLVER with both sides' values, never the exact
 * answer in the ILP's place. */
#ifndef TF_SOLVER_SOLVE_ILP_H
#define TF_SOLVER_SOLVE_ILP_H

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "solver/backend.h"

/* `a` holds the exact search's certified answer (optimal or infeasible);
 * on success it becomes the backend's: its point, a->solver, and the
 * backend's own level values and solve time.  limit_s: what is left of the
 * time limit (<= 0: none). */
int tf_solve_ilp(const tf_problem *p, const tf_solve_opts *o, double limit_s, tf_answer *a, tf_error *err);

#endif
