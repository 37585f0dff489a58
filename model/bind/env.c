/* A bound problem's symbols (env.h). */
#include "model/bind/env.h"

#include <string.h>

#include "model/input/lets.h" /* TF_LETS_OCCUPANCY */

tf_eval_env tf_problem_env(const tf_problem *p) {
  tf_eval_env env = {p->syms, p->ncounts, p->count_names};
  return env;
}

int tf_problem_only_params(const tf_problem *p, const tf_expr *e, const char *where, const char *what, tf_error *err) {
  int other = tf_problem_first_other(p->workset, e, 1u << TF_SYM_PARAM | 1u << TF_SYM_MACHINE);
  if (other < 0)
    return 0;
  char buf[32];
  return tf_error_set(err, TF_EINPUT, where, "%s may use only params and machine constants, not '%s'", what,
                      tf_workset_sym_name(p->workset, other, buf, sizeof buf));
}

int tf_problem_param_const(const tf_problem *p, const tf_expr *e, const char *where, const char *what, int64_t *out,
                           tf_error *err) {
  tf_eval_env env = tf_problem_env(p);
  if (tf_problem_only_params(p, e, where, what, err) || tf_expr_eval_const(e, &env, out, err))
    return tf_error_set_path(err, where), -1;
  return 0;
}

/* The symbols an expression uses, each once, in order of first use. */
void tf_problem_symbols_of(const tf_expr *e, tf_symbols *s) {
  memset(s, 0, sizeof *s);
  tf_expr_symbols(e, s);
}

/* The first symbol of e whose kind is not in `allowed` (a bit per enum
 * sym_kind), or -1. */
int tf_problem_first_other(const tf_workset *w, const tf_expr *e, unsigned allowed) {
  tf_symbols s;
  tf_problem_symbols_of(e, &s);
  int found = -1;
  for (size_t k = 0; k < s.n && found < 0; k++)
    if (!(allowed & (1u << tf_workset_sym_kind(w, s.v[k]))))
      found = s.v[k];
  tf_symbols_release(&s);
  return found;
}

/* Does symbol `sym` read "occupancy", itself or through lets?  A require
 * or objective that does makes it a variable of the problem. */
int tf_problem_reads_occupancy(const tf_workset *w, int sym) {
  enum tf_sym_kind kind = tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_LET)
    return (w->let_graph.choose[sym - tf_workset_sym_let(w, 0)] & TF_LETS_OCCUPANCY) != 0;
  return kind == TF_SYM_OCCUPANCY;
}

int tf_problem_expr_reads_occupancy(const tf_workset *w, const tf_expr *e) {
  tf_symbols s;
  tf_problem_symbols_of(e, &s);
  int found = 0;
  for (size_t k = 0; k < s.n && !found; k++)
    found = tf_problem_reads_occupancy(w, s.v[k]);
  tf_symbols_release(&s);
  return found;
}
