#include "backend.h"

#include <string.h>

#include "model/core/suggest.h"
#include "model/core/text.h"

void tf_solve_opts_init(tf_solve_opts *o) {
  memset(o, 0, sizeof *o);
  o->backend = NULL; /* the exact search */
  o->time_limit_s = 60;
  o->presolve = 1;
}

/* Every solver a problem can name, the exact search first (the default). */
static const struct {
  const char *name;
  const tf_backend *backend;
} solvers[] = {{"exact", NULL}, {"glpk", &tf_backend_glpk}};
#define NSOLVERS (sizeof solvers / sizeof *solvers)

int tf_solver_named(const char *name, const char *where, const tf_backend **b, tf_error *err) {
  const char *names[NSOLVERS];
  for (size_t i = 0; i < NSOLVERS; i++) {
    names[i] = solvers[i].name;
    if (!strcmp(name, solvers[i].name)) {
      *b = solvers[i].backend;
      return 0;
    }
  }
  const char *near = tf_suggest(name, names, NSOLVERS);
  char list[64];
  tf_strbuf l = tf_strbuf_of(list, sizeof list);
  for (size_t i = 0; i < NSOLVERS; i++)
    tf_strbuf_item(&l, " or ", "%s", names[i]);
  if (near)
    return tf_error_set(err, TF_EINPUT, where, "unknown solver '%s'; did you mean '%s'? (%s)", name, near, list);
  return tf_error_set(err, TF_EINPUT, where, "unknown solver '%s'; expected %s", name, list);
}

const char *tf_solver_name(const tf_backend *b) { return b ? b->name : solvers[0].name; }

int tf_backend_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err) {
  return o->backend->solve(ilp, o, s, err);
}

void tf_backend_thread_done(void) {
  for (size_t i = 0; i < NSOLVERS; i++)
    if (solvers[i].backend)
      solvers[i].backend->thread_done();
}
