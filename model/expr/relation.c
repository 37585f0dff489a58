/* A top-level comparison of an expression (relation.h). */

#include "model/expr/relation.h"

#include "model/expr/expr_internal.h"

enum tf_rel tf_expr_relation(const tf_expr *e, const tf_expr **lhs, const tf_expr **rhs) {
  enum tf_rel rel;
  switch (e->op) {
  case OP_LE: rel = TF_REL_LE; break;
  case OP_LT: rel = TF_REL_LT; break;
  case OP_GE: rel = TF_REL_GE; break;
  case OP_GT: rel = TF_REL_GT; break;
  case OP_EQ: rel = TF_REL_EQ; break;
  case OP_NE: rel = TF_REL_NE; break;
  default: return TF_REL_NONE;
  }
  *lhs = e->args[0];
  *rhs = e->args[1];
  return rel;
}

const char *tf_rel_text(enum tf_rel rel) {
  static const char *const t[] = {"", "<=", "<", ">=", ">", "==", "!="};
  return t[rel];
}
