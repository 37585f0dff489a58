/* Compiling an expression tree into postfix programs (expr_internal.h):
 * every subtree's steps, and the affine program of a count-dependent root. */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/expr/expr_internal.h"

/* ------------------------------------------------------------- compiling */

/* Every node's subtree as a postfix program (struct insn), written once per
 * tree into its arena: the root's program holds each subtree's as a
 * contiguous range, since a subtree's steps are consecutive, and an if()'s
 * skips are relative.  Evaluating a count-free subtree is then a loop, not
 * a call per node (run). */
static int count_insns(const struct tf_expr *e) {
  int n = e->op == OP_IF ? 2 : 1; /* an if() is its branch and jump; any other node one step */
  for (int i = 0; i < e->nargs; i++)
    n += count_insns(e->args[i]);
  return n;
}

static int max_int(int a, int b) { return a > b ? a : b; }

/* Writes e's steps at code[*n] on, and sets its range and its stack depth:
 * an argument's values stack on those of the arguments before it. */
static void emit(struct tf_expr *e, struct insn *code, int *n) {
  int start = *n, depth = 1;
  if (e->op == OP_IF) {
    emit(e->args[0], code, n);
    int branch = (*n)++;
    emit(e->args[1], code, n);
    int jump = (*n)++;
    emit(e->args[2], code, n);
    code[branch] = (struct insn){INSN_BRANCH, jump - branch, e}; /* zero: past the jump, to the else */
    code[jump] = (struct insn){INSN_JUMP, *n - jump - 1, e};     /* past the else */
    for (int i = 0; i < 3; i++)
      depth = max_int(depth, e->args[i]->nstack);
  } else {
    for (int i = 0; i < e->nargs; i++) {
      emit(e->args[i], code, n);
      depth = max_int(depth, i + e->args[i]->nstack);
    }
    code[(*n)++] = (struct insn){(int)e->op, e->op == OP_NUM ? e->num : e->sym, e};
  }
  e->code = code + start;
  e->ncode = *n - start;
  e->nstack = depth;
}

void tf_expr_compile(struct tf_expr *root, struct chunk **arena) {
  int n = 0;
  struct insn *code = tf_expr_arena_alloc(arena, (size_t)count_insns(root) * sizeof *code, 1024);
  emit(root, code, &n);
}

/* The program over affine values of a marked tree: the tree walk's steps
 * in its order, with each count-free subtree one INSN_CONST step (its own
 * int64 program) and a number a push.  Returns the values it stacks. */
static int emit_affine(const struct tf_expr *e, struct insn *code, int *n) {
  if (e->count_free) {
    code[(*n)++] = (struct insn){e->op == OP_NUM ? OP_NUM : INSN_CONST, e->num, e};
    return 1;
  }
  int depth = 1;
  if (e->op == OP_IF) {
    depth = emit_affine(e->args[0], code, n);
    int branch = (*n)++;
    depth = max_int(depth, emit_affine(e->args[1], code, n));
    int jump = (*n)++;
    depth = max_int(depth, emit_affine(e->args[2], code, n));
    code[branch] = (struct insn){INSN_BRANCH, jump - branch, e};
    code[jump] = (struct insn){INSN_JUMP, *n - jump - 1, e};
    return depth;
  }
  for (int i = 0; i < e->nargs; i++)
    depth = max_int(depth, i + emit_affine(e->args[i], code, n));
  code[(*n)++] = (struct insn){(int)e->op, 0, e};
  return depth;
}

/* Node e's, written once into the root's arena (a tree has no more affine
 * steps than int64 ones) and rewritten in place when it is marked again. */
static void compile_affine(struct tf_expr *e, struct tf_expr *root) {
  if (!e->acode)
    e->acode = tf_expr_arena_alloc(&root->arena, (size_t)e->ncode * sizeof *e->acode, 1024);
  e->nacode = 0;
  e->nastack = emit_affine(e, e->acode, &e->nacode);
}

/* A marked root's affine programs: its own, and a relation's sides' (a
 * require is evaluated side by side), for those that depend on counts. */
void tf_expr_compile_marked(struct tf_expr *root) {
  root->marked = 1;
  const tf_expr *l, *r;
  struct tf_expr *node[3] = {root, NULL, NULL};
  if (tf_expr_relation(root, &l, &r) != TF_REL_NONE)
    node[1] = root->args[0], node[2] = root->args[1];
  for (int i = 0; i < 3; i++)
    if (node[i] && !node[i]->count_free)
      compile_affine(node[i], root);
}
