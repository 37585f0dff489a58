/* What an ILP solver (a backend, solver/backend.h) hands back: the integer
 * point it ends at and the optimum of each lexicographic level.  Its own
 * file so that a backend can release a solution without calling up into
 * backend.c, whose table of solvers names the backends. */
#ifndef TF_SOLVER_SOLUTION_H
#define TF_SOLVER_SOLUTION_H

#include <stddef.h>

enum tf_sol_status { TF_SOL_OPTIMAL, TF_SOL_INFEASIBLE };

typedef struct tf_solution {
  int status; /* enum tf_sol_status */
  double *x;  /* ncols values, owned */
  size_t ncols;
  double *objval; /* optimum of each lexicographic level, owned */
  size_t nobjs;   /* levels solved (fewer than the objectives when one is infeasible) */
} tf_solution;

/* Frees what s owns and zeroes it. */
void tf_solution_release(tf_solution *s);

#endif
