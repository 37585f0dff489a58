#include "backend.h"

#include <stdlib.h>
#include <string.h>

void tf_solve_opts_init(tf_solve_opts *o) {
  memset(o, 0, sizeof *o);
  o->backend = &tf_backend_glpk;
  o->time_limit_s = 60;
  o->presolve = 1;
}

void tf_solution_release(tf_solution *s) {
  free(s->x);
  free(s->objval);
  memset(s, 0, sizeof *s);
}

const tf_backend *tf_backend_of(const tf_solve_opts *o) { return o->backend ? o->backend : &tf_backend_glpk; }

int tf_backend_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err) {
  return tf_backend_of(o)->solve(ilp, o, s, err);
}
