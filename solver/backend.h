/* The solver interface: what the pipeline asks of an ILP solver.  A backend
 * is data -- a name and two functions -- so a second solver is one more
 * file and one more table entry, and nothing else includes a solver's own
 * header.  GLPK (solver/glpk.c) is the one implementation today.
 *
 * A backend solves a tf_ilp's objectives lexicographically, fixing each
 * optimum before the next, and reports the integer point it ends at; it
 * never aborts the process (a solver failure is TF_ESOLVER) and never
 * prints. */
#ifndef TF_SOLVER_BACKEND_H
#define TF_SOLVER_BACKEND_H

#include <stddef.h>

#include "encode/ilp.h"
#include "model/error.h"

typedef struct tf_backend tf_backend;

typedef struct tf_solve_opts {
  const tf_backend *backend; /* which solver; tf_solve_opts_init picks GLPK */
  double time_limit_s;       /* per MIP solve; <= 0: no limit */
  int presolve;              /* 1: the solver's MIP presolver on (the default) */
  int fault;                 /* tests only: 1 makes the solver fail inside its error guard */
  const char *lp_file;       /* after solving, write the model solved last (CPLEX LP) */
  const char *mps_file;      /* (free MPS; its objective, earlier levels pinned as rows) */
} tf_solve_opts;

void tf_solve_opts_init(tf_solve_opts *o);

enum tf_sol_status { TF_SOL_OPTIMAL, TF_SOL_INFEASIBLE };

typedef struct tf_solution {
  int status;     /* enum tf_sol_status */
  double *x;      /* ncols values, owned */
  size_t ncols;
  double *objval; /* optimum of each lexicographic level, owned */
  size_t nobjs;
} tf_solution;

void tf_solution_release(tf_solution *s);

struct tf_backend {
  const char *name;
  /* Fills *s (which it initialises) and returns 0 with s->status, or -1
   * with TF_ESOLVER (time limit, solver error) or TF_EINPUT (--lp/--mps
   * cannot be written); *s holds nothing to release after -1. */
  int (*solve)(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err);
  /* Frees what the solver keeps per thread; a solving thread calls it
   * before it ends. */
  void (*thread_done)(void);
};

extern const tf_backend tf_backend_glpk;

/* The backend o names (GLPK when none), and its solve. */
const tf_backend *tf_backend_of(const tf_solve_opts *o);
int tf_backend_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err);

#endif
