#include "model/bind/value.h"

#include "model/bind/problem_internal.h"

/* Sets p's symbols to the point (choose, counts): the point's evaluation
 * sets the lets and the derived used/slack symbols, then the counts are
 * pinned again as constants and the lets evaluated at them.  Returns
 * -1 with *err when the point does not evaluate; 1 when it does but its
 * lets do not (*err says why); 0 when every symbol is set.  unpin()
 * restores the counts as variables either way. */
static int pin_point(tf_problem *p, const int64_t *choose, const int64_t *counts, tf_error *err) {
  tf_point pt;
  tf_point_init(&pt, p);
  int rc = tf_problem_eval_point(p, choose, counts, &pt, err);
  tf_point_release(&pt);
  if (rc)
    return -1;
  for (int i = 0; i < p->ncounts; i++)
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(counts[i]);
  tf_problem_set_choose(p, choose);
  return tf_problem_eval_lets(p, err) ? 1 : 0;
}

static void unpin(tf_problem *p) {
  for (int i = 0; i < p->ncounts; i++) {
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(0);
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)].k[i] = 1;
  }
}

/* e at the pinned point, with the lets it reaches. */
static int value_at(tf_problem *p, const tf_expr *e, int64_t *value, tf_error *err) {
  tf_eval_env env = tf_problem_env(p);
  return tf_problem_eval_lets_of(p, e, err) || tf_expr_eval_const(e, &env, value, err) ? -1 : 0;
}

int tf_problem_value(const tf_problem *cp, const int64_t *choose, const int64_t *counts, const tf_expr *e,
                     int64_t *value, tf_error *err) {
  tf_problem *p = (tf_problem *)cp; /* only the scratch symbol array changes */
  int rc = pin_point(p, choose, counts, err);
  if (rc < 0)
    return -1;
  rc = rc || value_at(p, e, value, err) ? -1 : 0;
  unpin(p);
  return rc;
}

/* The point once, then each expression with the lets it reaches: what n
 * calls of tf_problem_value compute, since a let's value is a function of
 * the point alone (each expression's lets are evaluated again, in order). */
int tf_problem_values(const tf_problem *cp, const int64_t *choose, const int64_t *counts, const tf_expr *const *e,
                      size_t n, int64_t *values, int *failed) {
  tf_problem *p = (tf_problem *)cp; /* only the scratch symbol array changes */
  tf_error err;
  tf_error_init(&err);
  int rc = pin_point(p, choose, counts, &err);
  for (size_t k = 0; k < n; k++) {
    tf_error_init(&err);
    failed[k] = rc != 0 || value_at(p, e[k], &values[k], &err);
  }
  if (rc >= 0)
    unpin(p);
  return rc < 0 ? -1 : 0;
}
