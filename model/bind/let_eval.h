/* Evaluating a bound problem's lets into its symbols: at a combination
 * (the choose values set, the counts as affine forms), again only those
 * that read a variable that changed (each variable's bit in the let
 * graph, which reuse.c and box.c ask too), or at a concrete point; a let
 * that fails is said in the problem's terms.  The enumeration, binding's
 * fixed lets, a point's and a value's evaluation share it;
 * model/bind/problem_internal.h includes it. */
#ifndef TF_MODEL_LET_EVAL_H
#define TF_MODEL_LET_EVAL_H

#include "model/bind/problem.h"

/* The let graph's bit for problem variable i (model/input/lets.h): a
 * workset variable's own, TF_LETS_OCCUPANCY, or TF_LETS_PLACED. */
uint64_t tf_problem_var_bit(const tf_problem *p, size_t i);

/* Sets the choose variables' symbols, then evaluates the lets in order. */
void tf_problem_set_choose(tf_problem *p, const int64_t *choose);
int tf_problem_eval_lets(tf_problem *p, tf_error *err);
/* The same at a concrete point (every count in p->syms a constant): each
 * let by tf_expr_eval_at; leaves lets_valid 0, as the counts are not the
 * enumeration's. */
int tf_problem_eval_lets_at(tf_problem *p, tf_error *err);
/* Evaluates the lets list[0..n) that `changed` reaches; the failure of
 * let i said in the problem's terms. */
int tf_problem_eval_let_list(tf_problem *p, const int *list, size_t n, uint64_t changed, tf_error *err);
int tf_problem_let_failed(const tf_problem *p, size_t i, tf_error *err);

#endif
