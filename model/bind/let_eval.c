/* Evaluating a bound problem's lets (let_eval.h). */
#include "model/bind/let_eval.h"

#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/problem_internal.h"
#include "model/input/lets.h"

uint64_t tf_problem_var_bit(const tf_problem *p, size_t i) {
  if (i < p->workset->nchoose)
    return (uint64_t)1 << i;
  return (int)i == p->occupancy ? TF_LETS_OCCUPANCY : TF_LETS_PLACED;
}

/* Also notes which of the workset's choose variables changed since the
 * lets were last evaluated, so that eval_lets redoes only the lets that
 * depend on one (combinations come in odometer order: most lets keep
 * their value from one combination to the next). */
void tf_problem_set_choose(tf_problem *p, const int64_t *choose) {
  p->choose_changed = 0;
  for (size_t i = 0; i < p->nchoose; i++) {
    if (p->choose_sym[i] >= 0) /* placement variables have none: placed() reads them */
      p->syms[p->choose_sym[i]] = tf_affine_constant(choose[i]);
    if (!p->lets_valid || choose[i] != p->lets_at[i])
      p->choose_changed |= tf_problem_var_bit(p, i);
    p->lets_at[i] = choose[i];
  }
  if (!p->lets_valid)
    p->choose_changed = ~(uint64_t)0;
  tf_place_set_symbols(p, choose);
}

/* Evaluates the lets a point needs (find_reached_lets) for the choose
 * values and counts now in p->syms. */
int tf_problem_eval_lets(tf_problem *p, tf_error *err) {
  p->lets_valid = 0; /* until they all are */
  if (tf_problem_eval_let_list(p, p->let_eval, p->nlet_eval, p->choose_changed, err))
    return -1;
  p->lets_valid = 1;
  return 0;
}

int tf_problem_eval_lets_at(tf_problem *p, tf_error *err) {
  const tf_workset *w = p->workset;
  tf_eval_env env = tf_problem_env(p);
  p->lets_valid = 0;
  for (size_t k = 0; k < p->nlet_eval; k++) {
    size_t i = (size_t)p->let_eval[k];
    int64_t v;
    if (tf_expr_eval_at(w->lets[i].expr, &env, &v, err))
      return tf_problem_let_failed(p, i, err);
    p->syms[tf_workset_sym_let(w, i)] = tf_affine_constant(v);
  }
  return 0;
}

/* A let that failed: the error gets the let's path in the workset, unless
 * it is the roofline's MMA term dividing by a rate of 0.  A machine may
 * give mma_f16_per_clk 0 ("unsupported", machines/README.md), and the
 * roofline's rate at every width falls back to it, so then the machine's
 * file and field are at fault, not the workset. */
int tf_problem_let_failed(const tf_problem *p, size_t i, tf_error *err) {
  const tf_workset *w = p->workset;
  if (p->machine->throughput.mma_f16_per_clk || strncmp(w->lets[i].path, "$.roofline.mma", 14) ||
      !strstr(err->msg, "division by zero"))
    return tf_error_set_path(err, w->lets[i].path), -1;
  tf_error m;
  tf_error_init(&m);
  tf_error_set(&m, TF_EINPUT, "$.throughput.mma_f16_per_clk",
               "0 (no 16-bit tensor-core rate), but %s's roofline divides by the MMA rate (%s: %s)", w->name,
               w->lets[i].path, err->msg);
  tf_error_set_file(&m, p->machine->file);
  *err = m;
  return -1;
}

/* Evaluates lets[list[0..n)] in that order into their symbols, those
 * whose choose variables are in `changed` (all: ~0). */
int tf_problem_eval_let_list(tf_problem *p, const int *list, size_t n, uint64_t changed, tf_error *err) {
  const tf_workset *w = p->workset;
  tf_eval_env env = tf_problem_env(p);
  for (size_t k = 0; k < n; k++) {
    size_t i = (size_t)list[k];
    if (!(w->let_graph.choose[i] & changed) && changed != ~(uint64_t)0)
      continue; /* the value from the last combination still holds */
    if (tf_expr_eval(w->lets[i].expr, &env, &p->syms[tf_workset_sym_let(w, i)], err))
      return tf_problem_let_failed(p, i, err);
  }
  return 0;
}
