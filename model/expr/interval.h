/* An expression over a box: every value it takes where each symbol ranges
 * over an interval, as the exact search's boxes of choose variables need
 * (model/bind/box.h).
 *
 * A value is affine in the counts (model/expr/expr.h), so over a box of
 * choose values it is an affine form whose constant and coefficients each
 * lie in an interval: tf_ival, lo[0] <= c <= hi[0] and
 * lo[1 + i] <= k[i] <= hi[1 + i].  Each operator is bounded exactly in
 * integers from its arguments' intervals (a product's, a quotient's, a
 * remainder's or an if()'s extremes are at their arguments' ends, or
 * within a remainder's period), so at every point of the box the value
 * tf_expr_eval gives lies in the result.
 *
 * Where an operator could fail at some point of the box -- a division by
 * an interval that holds 0, an exact `/` whose remainder cannot be ruled
 * out, a product of two values that may both depend on counts, a bound
 * past int64 -- the bound is refused (1): the caller must not decide
 * anything about such a box but split it, so that the error is met where
 * binding meets it, at a single combination.  Refusing is always sound;
 * it only costs splitting. */
#ifndef TF_MODEL_INTERVAL_H
#define TF_MODEL_INTERVAL_H

#include <stdint.h>

#include "model/expr/expr.h"

typedef struct tf_ival {
  int64_t lo[1 + TF_MAX_COUNTS], hi[1 + TF_MAX_COUNTS]; /* [0]: the constant, [1 + i]: count i's coefficient */
  uint64_t g; /* a count-free value: every value it takes is a multiple of g (0: every value is 0); else 1 */
} tf_ival;

typedef struct tf_ival_env {
  const tf_ival *syms; /* every symbol's interval value */
  int ncounts;
} tf_ival_env;

/* The value c at every point. */
static inline tf_ival tf_ival_point(int64_t c) {
  tf_ival v = {{c}, {c}, c < 0 ? -(uint64_t)c : (uint64_t)c};
  return v;
}

/* The greatest common divisor (gcd(0, b) = b). */
static inline uint64_t tf_gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

/* Does v depend on no count at any point of the box? */
int tf_ival_count_free(const tf_ival *v, int ncounts);

/* Bounds e over the box env describes: 0 with *out, or 1 when e may fail
 * at some point of the box or cannot be bounded there (above). */
int tf_expr_interval(const tf_expr *e, const tf_ival_env *env, tf_ival *out);

#endif
