/* Internal to model/: what problem.c, point.c and occupancy.c share
 * (with a problem's symbols, env.h, and its let evaluation, let_eval.h).
 * Not part of the documented API (solver/tilefit.h). */
#ifndef TF_MODEL_PROBLEM_INTERNAL_H
#define TF_MODEL_PROBLEM_INTERNAL_H

#include "model/bind/env.h"
#include "model/bind/let_eval.h"
#include "model/bind/problem.h"

/* Inline, and built in place: a memset-then-copy out of line cost a
 * store-forwarding stall per symbol, a fifth of certifying a point. */
static inline tf_affine tf_affine_constant(int64_t c) {
  tf_affine a = {c, {0}};
  return a;
}

/* Every let an expression reaches, at the point now in p->syms
 * (bind_rows.c, with the lets a problem's rows reach). */
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

/* The count-free limits on CTAs per SM (registers, threads, TMEM, the CTA
 * limit): 1 when the combination's occupancy fits, 0 with a reason, -1 on
 * an error.  `sizes` holds each buffer's size as an affine form (stride
 * 1 + ncounts). */
int tf_occupancy_fits(const tf_problem *p, const int64_t *choose, const int64_t *sizes, char *why, size_t size,
                      tf_error *err);

#endif
