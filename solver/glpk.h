/* The GLPK backend: the only file that includes <glpk.h>.  GLPK reports
 * misuse by calling abort() unless an error hook takes over; ours frees
 * GLPK's (per-thread) environment and longjmps back, so a GLPK failure
 * becomes TF_ESOLVER with GLPK's own message. */
#ifndef TF_SOLVER_GLPK_H
#define TF_SOLVER_GLPK_H

#include <stddef.h>

#include "encode/ilp.h"
#include "model/error.h"

enum tf_sol_status { TF_SOL_OPTIMAL, TF_SOL_INFEASIBLE };

typedef struct tf_solve_opts {
  double time_limit_s;  /* per MIP solve; <= 0: no limit */
  int presolve;         /* 1: GLPK's MIP presolver on (the default) */
  int fault;            /* tests only: 1 makes GLPK fail inside the hook's guard */
  const char *lp_file;  /* after solving, write the model GLPK solved last */
  const char *mps_file; /* (its objective, earlier levels pinned as rows) */
} tf_solve_opts;

void tf_solve_opts_init(tf_solve_opts *o);

typedef struct tf_solution {
  int status;           /* enum tf_sol_status */
  double *x;            /* ncols values, owned */
  size_t ncols;
  double *objval;       /* optimum of each lexicographic level, owned */
  size_t nobjs;
} tf_solution;

void tf_solution_release(tf_solution *s);

/* Solves the objectives in order, fixing each optimum before the next.
 * Returns 0 with s->status, or -1 with TF_ESOLVER (time limit, GLPK error). */
int tf_glpk_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err);


/* Frees this thread's GLPK environment (sweep workers call it on exit). */
void tf_glpk_thread_done(void);

#endif
