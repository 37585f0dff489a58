/* Binding's reuse of values from one combination to the next.
 *
 * Combinations come in odometer order, the last choose variable fastest,
 * so most expressions read none of the variables that changed since the
 * previous combination: a buffer's size that depends on tile_m and tile_k
 * is the same for every tile_n.  The lets are evaluated again only when a
 * variable they depend on changed (model/input/lets.h); the buffers'
 * sizes, the requires' sides and the objectives are too, through this:
 * each value keeps the variables it reads (through its lets) and those
 * that changed since it was evaluated, and is evaluated again only when
 * the two meet.  Evaluating an expression whose inputs are the same gives
 * the same value, so the forms are those evaluating every one gives. */
#ifndef TF_MODEL_REUSE_H
#define TF_MODEL_REUSE_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"

typedef struct tf_reuse {
  size_t n;         /* values: the buffers' sizes, two sides per require, the objectives */
  uint64_t *reads;  /* per value: bit i, choose variable i; TF_LETS_PLACED, a placement; all: every combination */
  uint64_t *stale;  /* per value: the variables that changed since it was evaluated */
  tf_affine *value; /* per value: its value then */
  int64_t at[TF_MAX_CHOOSE]; /* the previous combination's choose values */
  int started;               /* at holds them */
} tf_reuse;

/* The indices of buffer b's size, require r's sides (0 left, 1 right) and
 * objective o. */
static inline size_t tf_reuse_buffer(size_t b) { return b; }
static inline size_t tf_reuse_side(const tf_problem *p, size_t r, int side) {
  return p->nbuffers + 2 * r + (size_t)side;
}
static inline size_t tf_reuse_objective(const tf_problem *p, size_t o) { return p->nbuffers + 2 * p->nrequire + o; }

/* Reads every value's expression for the variables it depends on; p's
 * buffers, requires and objectives are bound.  Release with
 * tf_reuse_release.  Allocation failure is what model/core/alloc.h says. */
void tf_reuse_init(tf_reuse *r, const tf_problem *p);
void tf_reuse_release(tf_reuse *r);

/* The next combination: notes which variables changed since the last. */
void tf_reuse_next(tf_reuse *r, const tf_problem *p, const int64_t *choose);

#define TF_REUSE_EVERY (~(uint64_t)0)

/* Evaluates value i (tf_reuse_eval's miss). */
int tf_reuse_evaluate(tf_reuse *r, size_t i, const tf_expr *e, const tf_eval_env *env, tf_error *err);

/* Value i of the combination, `e` evaluated in env unless none of the
 * variables it reads changed since it last was: 0 with *out pointing at
 * it (valid until value i is evaluated again), or -1 with *err.  Inline:
 * binding asks for every value of every combination.  `stale` is all
 * ones until a value's first evaluation, so one that reads no variable is
 * evaluated once. */
static inline int tf_reuse_eval(tf_reuse *r, size_t i, const tf_expr *e, const tf_eval_env *env, const tf_affine **out,
                                tf_error *err) {
  *out = &r->value[i];
  if (r->stale[i] != TF_REUSE_EVERY && !(r->reads[i] & r->stale[i]))
    return 0;
  return tf_reuse_evaluate(r, i, e, env, err);
}

#endif
