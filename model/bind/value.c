#include "model/bind/value.h"

#include "model/bind/problem_internal.h"

/* The point once, then each expression with the lets it reaches: what n
 * calls of tf_problem_value compute, since a let's value is a function of
 * the point alone (each expression's lets are evaluated again, in order). */
int tf_problem_values(const tf_problem *cp, const int64_t *choose, const int64_t *counts, const tf_expr *const *e,
                      size_t n, int64_t *values, int *failed) {
  tf_problem *p = (tf_problem *)cp; /* only the scratch symbol array changes */
  tf_error err;
  tf_error_init(&err);
  tf_point pt;
  tf_point_init(&pt, p);
  /* the point sets the lets and the derived used/slack symbols ... */
  int rc = tf_problem_eval_point(p, choose, counts, &pt, &err);
  tf_point_release(&pt);
  for (size_t k = 0; k < n; k++)
    failed[k] = rc != 0;
  if (rc)
    return -1;
  /* ... and restores the counts as symbols, so pin them again */
  for (int i = 0; i < p->ncounts; i++)
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(counts[i]);
  tf_problem_set_choose(p, choose);
  tf_eval_env env = tf_problem_env(p);
  int lets = tf_problem_eval_lets(p, &err);
  for (size_t k = 0; k < n; k++) {
    tf_error_init(&err);
    failed[k] = lets || tf_problem_eval_lets_of(p, e[k], &err) || tf_expr_eval_const(e[k], &env, &values[k], &err);
  }
  for (int i = 0; i < p->ncounts; i++) {
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(0);
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)].k[i] = 1;
  }
  return 0;
}

int tf_problem_value(const tf_problem *cp, const int64_t *choose, const int64_t *counts, const tf_expr *e,
                     int64_t *value, tf_error *err) {
  tf_problem *p = (tf_problem *)cp; /* only the scratch symbol array changes */
  tf_point pt;
  tf_point_init(&pt, p);
  /* the point sets the lets and the derived used/slack symbols ... */
  int rc = tf_problem_eval_point(p, choose, counts, &pt, err);
  tf_point_release(&pt);
  if (rc)
    return -1;
  /* ... and restores the counts as symbols, so pin them again */
  for (int i = 0; i < p->ncounts; i++)
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(counts[i]);
  tf_problem_set_choose(p, choose);
  tf_eval_env env = tf_problem_env(p);
  rc = tf_problem_eval_lets(p, err) || tf_problem_eval_lets_of(p, e, err) ? -1 : tf_expr_eval_const(e, &env, value, err);
  for (int i = 0; i < p->ncounts; i++) {
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(0);
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)].k[i] = 1;
  }
  return rc;
}
