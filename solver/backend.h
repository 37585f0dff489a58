/* The solver interface: what the pipeline asks of an ILP solver.  A backend
 * is data -- a name and three functions -- so a second solver is one more
 * file and one more row in backend.c's table, and nothing else includes a
 * solver's own header.  GLPK (solver/glpk.c) is the one implementation.
 *
 * Two solvers answer a problem (tf_solve_opts.backend):
 *   exact  (NULL, the default)  the exact search (solver/search/search.h)
 *   glpk   the whole integer program (encode/build.h) solved by GLPK, its
 *          point decoded and certified against the exact optimum
 *          (solver/solve_ilp.c)
 * and the integer program is exported (--lp, --mps) by a backend's writer
 * whichever solver answered.
 *
 * A backend solves a tf_ilp's objectives lexicographically, fixing each
 * optimum before the next, and reports the integer point it ends at; it
 * never aborts the process (a solver failure is TF_ESOLVER) and never
 * prints. */
#ifndef TF_SOLVER_BACKEND_H
#define TF_SOLVER_BACKEND_H

#include <stddef.h>

#include "encode/ilp.h"
#include "model/core/error.h"
#include "solver/solution.h"

typedef struct tf_backend tf_backend;

typedef struct tf_solve_opts {
  const tf_backend *backend; /* NULL: the exact search; else this ILP solver, certified */
  double time_limit_s;       /* wall-clock s for the whole solve of a problem; <= 0: no limit */
  int presolve;              /* 1: the ILP solver's MIP presolver on (the default) */
  int fault;                 /* tests only: 1 makes the solver fail inside its error guard */
} tf_solve_opts;

void tf_solve_opts_init(tf_solve_opts *o);

struct tf_backend {
  const char *name;
  /* Fills *s (which it initialises) and returns 0 with s->status, or -1
   * with TF_ESOLVER (time limit, solver error); *s holds nothing to
   * release after -1. */
  int (*solve)(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err);
  /* The ILP as the solver sees lexicographic level `level` (0-based):
   * that objective, levels 0..level-1 pinned as rows at pins[0..level-1],
   * as the text of a model file (mps: free MPS, else CPLEX LP) in *text
   * (the caller frees it), *len bytes; the caller writes the files
   * (solver/export.c), so that several appear together or not at all.
   * TF_EOUTPUT naming `where` and `file` when the text cannot be made. */
  int (*text)(const tf_ilp *ilp, size_t level, const double *pins, int mps, const char *file, const char *where,
              char **text, size_t *len, tf_error *err);
  /* Frees what the solver keeps per thread; a solving thread calls it
   * before it ends. */
  void (*thread_done)(void);
};

extern const tf_backend tf_backend_glpk;

/* The backend that writes --lp / --mps files, whichever solver answers. */
#define TF_BACKEND_WRITER (&tf_backend_glpk)

/* "exact" or "glpk" -> *b (NULL for exact); anything else is TF_EINPUT
 * naming `where`, with the nearest name. */
int tf_solver_named(const char *name, const char *where, const tf_backend **b, tf_error *err);
/* The solver's name: "exact" when o->backend is NULL. */
const char *tf_solver_name(const tf_backend *b);

int tf_backend_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err);
/* What a solving thread calls before it ends (the writer's too). */
void tf_backend_thread_done(void);

#endif
