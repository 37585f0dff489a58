/* Internal to model/expr/: the expression tree, which expr.c builds and
 * evaluates and interval.c bounds over boxes.  Not part of the API. */
#ifndef TF_MODEL_EXPR_INTERNAL_H
#define TF_MODEL_EXPR_INTERNAL_H

#include "model/expr/expr.h"
#include "model/expr/expr_arena.h" /* struct chunk */

/* Operators, in one list so that names, arities and printing agree. */
/* clang-format off */
#define TF_OPS(X) \
  X(NUM, "number") X(NAME, "name") \
  X(NEG, "-") X(NOT, "!") \
  X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%") \
  X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=") X(EQ, "==") X(NE, "!=") \
  X(AND, "&&") X(OR, "||") \
  X(CDIV, "cdiv") X(FDIV, "fdiv") X(ALIGN, "align") X(MIN, "min") X(MAX, "max") \
  X(IF, "if") X(POW2, "pow2")
/* clang-format on */
#define TF_OP_ENUM(n, s) OP_##n,
enum op { TF_OPS(TF_OP_ENUM) OP_COUNT };

struct insn;

struct tf_expr {
  enum op op;
  int64_t num;
  int sym;    /* OP_NAME: bound symbol id, -1 before binding */
  char *name; /* OP_NAME */
  int nargs;
  struct tf_expr **args;
  char *text; /* the whole source text, owned by the root */
  int is_root;
  int count_free;      /* 1: no count can reach this node (tf_expr_mark_count_free) */
  struct chunk *arena; /* the root's: every node, argument list and name of the tree */
  /* The subtree in postfix (compile below): a range of the root's
   * program, and the values it stacks at most. */
  struct insn *code;
  int ncode, nstack;
  /* A root that depends on counts, once marked: its program over affine
   * values (compile_affine below), and the values it stacks at most. */
  struct insn *acode;
  int nacode, nastack;
  int marked; /* root: tf_expr_mark_count_free has run on it */
};

/* Shared by expr.c (the parser and the tree), expr_compile.c and
 * expr_eval.c. */
/* One step of a compiled expression: a number or a bound name pushed
 * (`value`: the number, or the symbol id, -1 before binding), a node
 * applied to the values its arguments left on the stack, or an if()'s
 * branch (pop; when zero, skip `value` steps) or jump (skip `value`
 * steps).  `op` is the node's operator or one of the three below; `e`
 * the node, for its arity and its error text.  INSN_CONST appears only in
 * a program over affine values: the count-free subtree `e`, evaluated in
 * int64 and pushed as a constant. */
enum { INSN_BRANCH = OP_COUNT, INSN_JUMP, INSN_CONST };
struct insn {
  int op;
  int64_t value;
  const struct tf_expr *e;
};

/* Writes the tree's postfix programs into the root's arena (expr_compile.c);
 * tf_expr_compile_marked the affine program, once the count-free subtrees
 * are marked. */
void tf_expr_compile(struct tf_expr *root, struct chunk **arena);
void tf_expr_compile_marked(struct tf_expr *root);

#endif
