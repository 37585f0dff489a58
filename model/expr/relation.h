/* A top-level comparison of an expression, as requires are written
 * ("EXPR <= EXPR"): which relation it is, its two sides, its text, and
 * whether it holds between two values.  Part of the expression language
 * (model/expr/expr.h includes it). */
#ifndef TF_MODEL_RELATION_H
#define TF_MODEL_RELATION_H

#include <stdint.h>

struct tf_expr;

/* A top-level comparison, for constraints: returns the relation and its
 * two sides (borrowed from e), or TF_REL_NONE. */
enum tf_rel { TF_REL_NONE, TF_REL_LE, TF_REL_LT, TF_REL_GE, TF_REL_GT, TF_REL_EQ, TF_REL_NE };
enum tf_rel tf_expr_relation(const struct tf_expr *e, const struct tf_expr **lhs, const struct tf_expr **rhs);
const char *tf_rel_text(enum tf_rel rel);
/* Does a REL b hold (TF_REL_NONE: never)?  Inline: a point's requires
 * and every bound combination's count-free rows ask it. */
static inline int tf_rel_holds(enum tf_rel rel, int64_t a, int64_t b) {
  switch (rel) {
  case TF_REL_NONE: return 0;
  case TF_REL_LE: return a <= b;
  case TF_REL_LT: return a < b;
  case TF_REL_GE: return a >= b;
  case TF_REL_GT: return a > b;
  case TF_REL_EQ: return a == b;
  case TF_REL_NE: return a != b;
  }
  return 0;
}

#endif
