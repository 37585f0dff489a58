/* Internal to model/: what problem.c, point.c and occupancy.c share.
 * Not part of the documented API (solver/tilefit.h). */
#ifndef TF_MODEL_PROBLEM_INTERNAL_H
#define TF_MODEL_PROBLEM_INTERNAL_H

#include "model/bind/problem.h"

/* Inline, and built in place: a memset-then-copy out of line cost a
 * store-forwarding stall per symbol, a fifth of certifying a point. */
static inline tf_affine tf_affine_constant(int64_t c) {
  tf_affine a = {c, {0}};
  return a;
}
tf_eval_env tf_problem_env(const tf_problem *p);

/* e's value where it may use only params and machine constants (an
 * alignment, a count bound, a placement pin); the error names `where`. */
int tf_problem_param_const(const tf_problem *p, const tf_expr *e, const char *where, const char *what, int64_t *out,
                           tf_error *err);

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
/* Every let an expression reaches, at the point now in p->syms. */
int tf_problem_eval_lets_of(tf_problem *p, const tf_expr *e, tf_error *err);

/* The steps of tf_problem_new (model/bind/problem.c) in other files:
 * bind_rows.c binds the requires, objectives, lets and buffers,
 * enumerate.c the choose combinations, whole or on demand. */
void tf_problem_mark_occupancy_request(tf_problem *p, const tf_request *req);
int tf_problem_bind_requires(tf_problem *p, const tf_request *req, tf_error *err);
int tf_problem_bind_objectives(tf_problem *p, const tf_request *req, tf_error *err);
int tf_problem_bind_lets_and_buffers(tf_problem *p, tf_error *err);
int tf_problem_enumerate(tf_problem *p, double start, size_t from, tf_error *err);
double tf_problem_now_s(void);
/* Evaluates the lets list[0..n) that `changed` reaches; the failure of
 * let i said in the problem's terms. */
int tf_problem_eval_let_list(tf_problem *p, const int *list, size_t n, uint64_t changed, tf_error *err);
int tf_problem_let_failed(const tf_problem *p, size_t i, tf_error *err);
/* The symbols an expression uses; the first whose kind is not in
 * `allowed` (a bit per enum tf_sym_kind), or -1; whether a symbol or an
 * expression reads occupancy, itself or through lets. */
void tf_problem_symbols_of(const tf_expr *e, tf_symbols *s);
int tf_problem_first_other(const tf_workset *w, const tf_expr *e, unsigned allowed);
int tf_problem_reads_occupancy(const tf_workset *w, int sym);
int tf_problem_expr_reads_occupancy(const tf_workset *w, const tf_expr *e);

/* The count-free limits on CTAs per SM (registers, threads, TMEM, the CTA
 * limit): 1 when the combination's occupancy fits, 0 with a reason, -1 on
 * an error.  `sizes` holds each buffer's size as an affine form (stride
 * 1 + ncounts). */
int tf_occupancy_fits(const tf_problem *p, const int64_t *choose, const int64_t *sizes, char *why, size_t size,
                      tf_error *err);

#endif
