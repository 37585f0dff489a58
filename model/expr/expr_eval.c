/* Evaluating expressions (expr.h): checked int64 arithmetic, the tree walk,
 * the compiled programs over int64 and over affine values. */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/expr/expr_internal.h"

#define TF_OP_TEXT(n, s) s,
static const char *const op_text[] = {TF_OPS(TF_OP_TEXT)};

/* ------------------------------------------------------------ arithmetic */

int64_t tf_fdiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

int64_t tf_cdiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    q++;
  return q;
}

int tf_affine_add(tf_affine *out, const tf_affine *a, const tf_affine *b, int sign) {
  tf_affine r;
  int64_t t;
  if (tf_checked_mul(b->c, sign, &t) || tf_checked_add(a->c, t, &r.c))
    return -1;
  for (int i = 0; i < TF_MAX_COUNTS; i++)
    if (tf_checked_mul(b->k[i], sign, &t) || tf_checked_add(a->k[i], t, &r.k[i]))
      return -1;
  *out = r;
  return 0;
}

int tf_affine_scale(tf_affine *out, const tf_affine *a, int64_t s) {
  tf_affine r;
  if (tf_checked_mul(a->c, s, &r.c))
    return -1;
  for (int i = 0; i < TF_MAX_COUNTS; i++)
    if (tf_checked_mul(a->k[i], s, &r.k[i]))
      return -1;
  *out = r;
  return 0;
}

int tf_affine_is_const(const tf_affine *a, int ncounts) {
  for (int i = 0; i < ncounts; i++)
    if (a->k[i])
      return 0;
  return 1;
}

int tf_affine_at(const tf_affine *a, const int64_t *counts, int ncounts, int64_t *out) {
  int64_t v = a->c, t;
  for (int i = 0; i < ncounts; i++)
    if (a->k[i] && (tf_checked_mul(a->k[i], counts[i], &t) || tf_checked_add(v, t, &v)))
      return -1;
  *out = v;
  return 0;
}

/* ------------------------------------------------------------ evaluation */

static int overflow(const tf_expr *e, tf_error *err) {
  return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': integer overflow", e->text);
}

static int not_affine(const tf_expr *e, const tf_eval_env *env, const tf_affine *v, tf_error *err) {
  int i = 0;
  while (i < env->ncounts && !v->k[i])
    i++;
  const char *name = env->count_names && i < env->ncounts ? env->count_names[i] : "?";
  return tf_error_set(err, TF_EINPUT, NULL,
                      "in expression '%s': not affine in count variable '%s' ('%s' of a value that depends on it)",
                      e->text, name, op_text[e->op]);
}

static tf_affine constant(int64_t c) {
  tf_affine a;
  memset(&a, 0, sizeof a);
  a.c = c;
  return a;
}

static int eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err);

/* Operators whose operands must not depend on counts. */
static int eval_scalar(const tf_expr *e, const int64_t *x, int64_t *out, tf_error *err) {
  int64_t a = x[0], b = e->nargs > 1 ? x[1] : 0;
  switch (e->op) {
  case OP_NOT: *out = !a; return 0;
  case OP_LT: *out = a < b; return 0;
  case OP_LE: *out = a <= b; return 0;
  case OP_GT: *out = a > b; return 0;
  case OP_GE: *out = a >= b; return 0;
  case OP_EQ: *out = a == b; return 0;
  case OP_NE: *out = a != b; return 0;
  case OP_AND: *out = a && b; return 0;
  case OP_OR: *out = a || b; return 0;
  case OP_MIN:
  case OP_MAX:
    *out = a;
    for (int i = 1; i < e->nargs; i++)
      if (e->op == OP_MIN ? x[i] < *out : x[i] > *out)
        *out = x[i];
    return 0;
  case OP_POW2:
    *out = 1;
    while (*out < a)
      if (tf_checked_mul(*out, 2, out))
        return overflow(e, err);
    return 0;
  default: break;
  }
  /* the division family */
  if (b == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
  switch (e->op) {
  case OP_MOD: /* the remainder takes the divisor's sign; INT64_MIN % -1 would trap */
    *out = b == -1 ? 0 : a % b;
    if (*out && (*out < 0) != (b < 0))
      *out += b;
    return 0;
  default: break;
  }
  if (b == -1 && a == INT64_MIN)
    return overflow(e, err);
  switch (e->op) {
  case OP_CDIV: *out = tf_cdiv(a, b); return 0;
  case OP_FDIV: *out = tf_fdiv(a, b); return 0;
  case OP_ALIGN:
    if (b < 0)
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': align() to a negative value", e->text);
    return tf_checked_mul(tf_cdiv(a, b), b, out) ? overflow(e, err) : 0;
  default: break;
  }
  return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': unknown operator", e->text);
}

static int eval_div(const tf_expr *e, const tf_eval_env *env, const tf_affine *a, const tf_affine *b, tf_affine *out,
                    tf_error *err) {
  if (!tf_affine_is_const(b, env->ncounts))
    return not_affine(e, env, b, err);
  if (b->c == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
  if (b->c == -1 && a->c == INT64_MIN)
    return overflow(e, err);
  *out = *a;
  if (a->c % b->c)
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': %lld / %lld leaves a remainder (use fdiv or cdiv)",
                        e->text, (long long)a->c, (long long)b->c);
  out->c = a->c / b->c;
  for (int i = 0; i < env->ncounts; i++) {
    if (b->c == -1 && a->k[i] == INT64_MIN)
      return overflow(e, err);
    if (a->k[i] % b->c)
      return tf_error_set(err, TF_EINPUT, NULL,
                          "in expression '%s': dividing the coefficient %lld of count '%s' by %lld leaves a remainder",
                          e->text, (long long)a->k[i], env->count_names ? env->count_names[i] : "?", (long long)b->c);
    out->k[i] = a->k[i] / b->c;
  }
  return 0;
}

static int eval_args(const tf_expr *e, const tf_eval_env *env, tf_affine *v, tf_error *err) {
  for (int i = 0; i < e->nargs; i++)
    if (eval(e->args[i], env, &v[i], err))
      return -1;
  return 0;
}

/* A number or a bound name: its value without a call (half of all nodes). */
static int leaf(const tf_expr *e, const tf_eval_env *env, int64_t *out) {
  if (e->op == OP_NUM)
    return *out = e->num, 1;
  if (e->op == OP_NAME && e->sym >= 0)
    return *out = env->syms[e->sym].c, 1;
  return 0;
}

/* A count-free node's operator applied to its arguments' values x. */
static int apply(const tf_expr *e, const int64_t *x, int64_t *out, tf_error *err) {
  int64_t t;
  switch (e->op) {
  case OP_NEG: return tf_checked_mul(x[0], -1, out) ? overflow(e, err) : 0;
  case OP_ADD: return tf_checked_add(x[0], x[1], out) ? overflow(e, err) : 0;
  case OP_SUB: return tf_checked_mul(x[1], -1, &t) || tf_checked_add(x[0], t, out) ? overflow(e, err) : 0;
  case OP_MUL: return tf_checked_mul(x[1], x[0], out) ? overflow(e, err) : 0;
  case OP_DIV:
    if (x[1] == 0)
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
    if (x[1] == -1 && x[0] == INT64_MIN)
      return overflow(e, err);
    if (x[0] % x[1])
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': %lld / %lld leaves a remainder (use fdiv or cdiv)",
                          e->text, (long long)x[0], (long long)x[1]);
    *out = x[0] / x[1];
    return 0;
  default: return eval_scalar(e, x, out, err);
  }
}

static int unbound(const tf_expr *e, tf_error *err) {
  return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': name '%s' is not bound", e->text, e->name);
}

/* The tree walk: for a subtree deeper than the program's stack. */
static int eval_tree(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  int64_t x[16];
  switch (e->op) {
  case OP_NUM: *out = e->num; return 0;
  case OP_NAME:
    if (e->sym < 0)
      return unbound(e, err);
    *out = env->syms[e->sym].c;
    return 0;
  case OP_IF: return eval_tree(e->args[0], env, &x[0], err) ? -1 : eval_tree(e->args[x[0] ? 1 : 2], env, out, err);
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!leaf(e->args[i], env, &x[i]) && eval_tree(e->args[i], env, &x[i], err))
      return -1;
  return apply(e, x, out, err);
}

#define RUN_STACK 64 /* values a compiled subtree may stack; deeper ones walk the tree */

/* The compiled subtree (compile below): the tree walk's steps in its
 * order, so the same value and the first error it would meet, without a
 * call per node.  An if() evaluates its condition and then one branch,
 * as the walk does. */
static int run(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  int64_t st[RUN_STACK];
  int sp = 0;
  for (const struct insn *in = e->code, *end = in + e->ncode; in < end; in++) {
    switch (in->op) {
    case OP_NUM: st[sp++] = in->value; continue;
    case OP_NAME:
      if (in->value < 0)
        return unbound(in->e, err);
      st[sp++] = env->syms[in->value].c;
      continue;
    case INSN_BRANCH:
      if (!st[--sp])
        in += in->value;
      continue;
    case INSN_JUMP: in += in->value; continue;
    /* the commonest operators inline, as apply computes them */
    case OP_ADD:
      sp--;
      if (tf_checked_add(st[sp - 1], st[sp], &st[sp - 1]))
        return overflow(in->e, err);
      continue;
    case OP_MUL:
      sp--;
      if (tf_checked_mul(st[sp], st[sp - 1], &st[sp - 1]))
        return overflow(in->e, err);
      continue;
    default: break;
    }
    int64_t v;
    sp -= in->e->nargs;
    if (apply(in->e, st + sp, &v, err))
      return -1;
    st[sp++] = v;
  }
  *out = st[0];
  return 0;
}

/* A count-free node in int64 alone: the same results and the same errors
 * as the affine evaluation below gives it, without carrying coefficients
 * that are all zero. */
static int eval_const(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  if (e->code && e->nstack <= RUN_STACK)
    return run(e, env, out, err);
  return eval_tree(e, env, out, err);
}

/* ------------------------------------------- the program over affine values
 *
 * A marked root that depends on counts runs its affine program (compile_affine)
 * on a stack of values c, k[0..n), n = env->ncounts: the coefficients past
 * ncounts are zero in every symbol's value (the environment's contract), so
 * they stay zero and are not carried.  Each step does what the tree walk
 * (eval below) does at that node, in its order, with its messages. */

#define AFFINE_STACK 32 /* affine values a program may stack; deeper trees walk */
typedef int64_t avalue[1 + TF_MAX_COUNTS];

static int is_const_n(const int64_t *v, int n) {
  for (int i = 1; i <= n; i++)
    if (v[i])
      return 0;
  return 1;
}

/* The copies and clears below move whole values (a fixed size the compiler
 * inlines), the arithmetic only the n coefficients that can be nonzero. */
static tf_affine to_affine(const int64_t *v, int n) {
  (void)n;
  tf_affine a;
  a.c = v[0];
  memcpy(a.k, v + 1, sizeof a.k);
  return a;
}

static int not_affine_n(const tf_expr *e, const tf_eval_env *env, const int64_t *v, tf_error *err) {
  tf_affine a = to_affine(v, env->ncounts);
  return not_affine(e, env, &a, err);
}

/* out = a * s, element by element (out may be a). */
static int scale_n(int64_t *out, const int64_t *a, int64_t s, int n) {
  for (int i = 0; i <= n; i++)
    if (tf_checked_mul(a[i], s, &out[i]))
      return -1;
  return 0;
}

/* a += sign * b, as tf_affine_add computes it. */
static int add_n(int64_t *a, const int64_t *b, int sign, int n) {
  int64_t t;
  for (int i = 0; i <= n; i++)
    if (tf_checked_mul(b[i], sign, &t) || tf_checked_add(a[i], t, &a[i]))
      return -1;
  return 0;
}

/* a / b for a count-free b, as eval_div does it. */
static int div_n(const tf_expr *e, const tf_eval_env *env, int64_t *a, const int64_t *b, tf_error *err) {
  tf_affine q, x = to_affine(a, env->ncounts), y = to_affine(b, env->ncounts);
  if (eval_div(e, env, &x, &y, &q, err))
    return -1;
  a[0] = q.c;
  memcpy(a + 1, q.k, sizeof q.k);
  return 0;
}

/* Node e applied to the nargs values at v; the result replaces v[0]. */
static int apply_affine(const tf_expr *e, const tf_eval_env *env, avalue *v, tf_error *err) {
  int n = env->ncounts;
  switch (e->op) {
  case OP_NEG: return scale_n(v[0], v[0], -1, n) ? overflow(e, err) : 0;
  case OP_ADD: return add_n(v[0], v[1], 1, n) ? overflow(e, err) : 0;
  case OP_SUB: return add_n(v[0], v[1], -1, n) ? overflow(e, err) : 0;
  case OP_MUL:
    if (is_const_n(v[0], n))
      return scale_n(v[0], v[1], v[0][0], n) ? overflow(e, err) : 0;
    if (is_const_n(v[1], n))
      return scale_n(v[0], v[0], v[1][0], n) ? overflow(e, err) : 0;
    return not_affine_n(e, env, v[1], err);
  case OP_DIV: return div_n(e, env, v[0], v[1], err);
  default: break;
  }
  int64_t x[16];
  for (int i = 0; i < e->nargs; i++) {
    if (!is_const_n(v[i], n))
      return not_affine_n(e, env, v[i], err);
    x[i] = v[i][0];
  }
  memset(v[0], 0, sizeof v[0]);
  return eval_scalar(e, x, &v[0][0], err);
}

/* Pushes the value of one leaf step: a number, a count-free subtree, or a
 * name with its coefficients. */
static int push_leaf(const struct insn *in, const tf_eval_env *env, int64_t *top, tf_error *err) {
  const tf_expr *e = in->e;
  memset(top + 1, 0, TF_MAX_COUNTS * sizeof *top);
  if (in->op == OP_NUM)
    return top[0] = in->value, 0;
  if (e->sym < 0 && e->op == OP_NAME)
    return unbound(e, err);
  if (e->op == OP_NAME) { /* a bound name: its value, without a program */
    top[0] = env->syms[e->sym].c;
    if (in->op == OP_NAME)
      memcpy(top + 1, env->syms[e->sym].k, sizeof env->syms[e->sym].k);
    return 0;
  }
  return eval_const(e, env, &top[0], err);
}

static int run_affine(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  avalue st[AFFINE_STACK];
  int sp = 0, n = env->ncounts;
  for (const struct insn *in = e->acode, *end = in + e->nacode; in < end; in++) {
    switch (in->op) {
    case OP_NUM:
    case OP_NAME:
    case INSN_CONST:
      if (push_leaf(in, env, st[sp++], err))
        return -1;
      continue;
    case INSN_BRANCH: /* only the condition must be count-free; the branch taken may be affine */
      if (!is_const_n(st[--sp], n))
        return not_affine_n(in->e, env, st[sp], err);
      if (!st[sp][0])
        in += in->value;
      continue;
    case INSN_JUMP: in += in->value; continue;
    default: break;
    }
    sp -= in->e->nargs;
    if (apply_affine(in->e, env, st + sp, err))
      return -1;
    sp++;
  }
  /* in place, element by element: a whole-value copy of what scalar
   * stores just wrote would wait on each of them (store forwarding) */
  out->c = st[0][0];
  memset(out->k, 0, sizeof out->k);
  for (int i = 0; i < n; i++)
    out->k[i] = st[0][1 + i];
  return 0;
}

static int eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  tf_affine v[16];
  if (e->count_free) {
    int64_t c;
    if (eval_const(e, env, &c, err))
      return -1;
    *out = constant(c);
    return 0;
  }
  if (e->acode && e->nastack <= AFFINE_STACK)
    return run_affine(e, env, out, err);
  switch (e->op) {
  case OP_NUM: *out = constant(e->num); return 0;
  case OP_NAME:
    if (e->sym < 0)
      return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': name '%s' is not bound", e->text, e->name);
    *out = env->syms[e->sym];
    return 0;
  case OP_IF: {
    /* only the condition must be count-free; the branch taken may be affine */
    if (eval(e->args[0], env, &v[0], err))
      return -1;
    if (!tf_affine_is_const(&v[0], env->ncounts))
      return not_affine(e, env, &v[0], err);
    return eval(e->args[v[0].c ? 1 : 2], env, out, err);
  }
  default: break;
  }
  if (eval_args(e, env, v, err))
    return -1;
  switch (e->op) {
  case OP_NEG: return tf_affine_scale(out, &v[0], -1) ? overflow(e, err) : 0;
  case OP_ADD: return tf_affine_add(out, &v[0], &v[1], 1) ? overflow(e, err) : 0;
  case OP_SUB: return tf_affine_add(out, &v[0], &v[1], -1) ? overflow(e, err) : 0;
  case OP_MUL:
    if (tf_affine_is_const(&v[0], env->ncounts))
      return tf_affine_scale(out, &v[1], v[0].c) ? overflow(e, err) : 0;
    if (tf_affine_is_const(&v[1], env->ncounts))
      return tf_affine_scale(out, &v[0], v[1].c) ? overflow(e, err) : 0;
    return not_affine(e, env, &v[1], err);
  case OP_DIV: return eval_div(e, env, &v[0], &v[1], out, err);
  default: break;
  }
  int64_t x[16];
  for (int i = 0; i < e->nargs; i++) {
    if (!tf_affine_is_const(&v[i], env->ncounts))
      return not_affine(e, env, &v[i], err);
    x[i] = v[i].c;
  }
  int64_t r = 0;
  if (eval_scalar(e, x, &r, err))
    return -1;
  *out = constant(r);
  return 0;
}

int tf_expr_eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  return eval(e, env, out, err);
}

int tf_expr_eval_const(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  tf_affine v;
  if (eval(e, env, &v, err))
    return -1;
  if (!tf_affine_is_const(&v, env->ncounts)) {
    int i = 0;
    while (!v.k[i])
      i++;
    return tf_error_set(err, TF_EINPUT, NULL, "expression '%s' must not depend on count variable '%s'", e->text,
                        env->count_names ? env->count_names[i] : "?");
  }
  *out = v.c;
  return 0;
}

int tf_expr_eval_at(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  return eval_const(e, env, out, err);
}
