#include "model/expr/interval.h"

#include <string.h>

#include "model/expr/expr_internal.h"

__extension__ typedef __int128 wide;

#define REFUSE 1 /* tf_expr_interval's "may fail here, or cannot be bounded" */

int tf_ival_count_free(const tf_ival *v, int n) {
  for (int i = 1; i <= n; i++)
    if (v->lo[i] || v->hi[i])
      return 0;
  return 1;
}

static int fits64(wide v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* [lo, hi] into component i of out: REFUSE past int64, where a point's
 * evaluation may overflow. */
static int put(tf_ival *out, int i, wide lo, wide hi) {
  if (!fits64(lo) || !fits64(hi))
    return REFUSE;
  out->lo[i] = (int64_t)lo, out->hi[i] = (int64_t)hi;
  return 0;
}

static wide wmin(wide a, wide b) { return a < b ? a : b; }
static wide wmax(wide a, wide b) { return a > b ? a : b; }

/* Component i of out = [alo, ahi] * [blo, bhi]: the extremes are products
 * of ends. */
static int mul_range(tf_ival *out, int i, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
  wide p[4] = {(wide)alo * blo, (wide)alo * bhi, (wide)ahi * blo, (wide)ahi * bhi};
  return put(out, i, wmin(wmin(p[0], p[1]), wmin(p[2], p[3])), wmax(wmax(p[0], p[1]), wmax(p[2], p[3])));
}

static int add(tf_ival *out, const tf_ival *a, const tf_ival *b, int sign, int n) {
  for (int i = 0; i <= n; i++) {
    wide lo = sign > 0 ? (wide)a->lo[i] + b->lo[i] : (wide)a->lo[i] - b->hi[i];
    wide hi = sign > 0 ? (wide)a->hi[i] + b->hi[i] : (wide)a->hi[i] - b->lo[i];
    if (put(out, i, lo, hi))
      return REFUSE;
  }
  return 0;
}

/* a * b where at every point one side is count-free, as tf_expr_eval
 * requires: each component of the other side times the count-free one's
 * constant.  When both may depend on counts a point may fail: refused. */
static int mul(tf_ival *out, const tf_ival *a, const tf_ival *b, int n) {
  if (!tf_ival_count_free(a, n)) {
    const tf_ival *t = a;
    a = b, b = t;
  }
  if (!tf_ival_count_free(a, n))
    return REFUSE;
  tf_ival r = tf_ival_point(0);
  for (int i = 0; i <= n; i++)
    if (mul_range(&r, i, a->lo[0], a->hi[0], b->lo[i], b->hi[i]))
      return REFUSE;
  *out = r;
  return 0;
}

/* Exact `/`: a remainder is an error, which only a quotient of one
 * dividend by one divisor can rule out; anything wider is refused. */
static int div_exact(tf_ival *out, const tf_ival *a, const tf_ival *b, int n) {
  int64_t d = b->lo[0];
  if (!tf_ival_count_free(b, n) || d != b->hi[0] || d == 0)
    return REFUSE;
  tf_ival r = tf_ival_point(0);
  for (int i = 0; i <= n; i++) {
    if (a->lo[i] != a->hi[i] || (d == -1 && a->lo[i] == INT64_MIN) || a->lo[i] % d)
      return REFUSE;
    r.lo[i] = r.hi[i] = a->lo[i] / d;
  }
  *out = r;
  return 0;
}

static wide floor_div(wide a, wide b) {
  wide q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The remainder as expr.c computes it: the divisor's sign (floor). */
static wide floor_mod(wide a, wide b) { return a - b * floor_div(a, b); }

/* fdiv and cdiv are monotone in the dividend for a divisor of one sign, and
 * in the divisor for a dividend of one sign: the extremes are at corners. */
static int divide(int op, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, tf_ival *r) {
  if (blo <= 0 && bhi >= 0)
    return REFUSE; /* a division by zero somewhere */
  if (blo <= -1 && bhi >= -1 && alo == INT64_MIN)
    return REFUSE; /* INT64_MIN / -1 overflows */
  wide lo = 0, hi = 0;
  const int64_t as[2] = {alo, ahi}, bs[2] = {blo, bhi};
  for (int i = 0; i < 4; i++) {
    wide x = as[i / 2], y = bs[i % 2], q = op == OP_FDIV ? floor_div(x, y) : -floor_div(-x, y);
    lo = i ? wmin(lo, q) : q;
    hi = i ? wmax(hi, q) : q;
  }
  return put(r, 0, lo, hi);
}

/* a % b: within one period of a single divisor the remainder grows with
 * the dividend; else it lies between 0 and the divisor (exclusive). */
static int modulo(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, tf_ival *r) {
  if (blo <= 0 && bhi >= 0)
    return REFUSE;
  if (blo == bhi && floor_div(alo, blo) == floor_div(ahi, blo))
    return put(r, 0, floor_mod(alo, blo), floor_mod(ahi, blo));
  if (blo > 0 && alo >= 0 && ahi < blo)
    return put(r, 0, alo, ahi); /* below every divisor: the dividend itself */
  if (blo > 0)
    return put(r, 0, 0, alo >= 0 ? wmin((wide)bhi - 1, ahi) : (wide)bhi - 1);
  return put(r, 0, (wide)blo + 1, 0);
}

/* align(x, a) = cdiv(x, a) * a, for a >= 1: x itself up to a - 1 more. */
static int align_up(int64_t xlo, int64_t xhi, int64_t alo, int64_t ahi, tf_ival *r) {
  if (alo < 1)
    return REFUSE; /* align() to 0 or a negative value fails */
  if (alo == ahi)
    return put(r, 0, -floor_div(-(wide)xlo, alo) * alo, -floor_div(-(wide)xhi, alo) * alo);
  return put(r, 0, xlo, (wide)xhi + ahi - 1);
}

static wide pow2_of(wide a) {
  wide v = 1;
  while (v < a)
    v *= 2;
  return v;
}

/* A truth value's interval: 1 surely true, 0 surely false, -1 either. */
static int truth(int64_t lo, int64_t hi) { return lo > 0 || hi < 0 ? 1 : lo == 0 && hi == 0 ? 0 : -1; }

static int boolean(int t, tf_ival *r) {
  *r = tf_ival_point(t > 0);
  if (t < 0)
    r->lo[0] = 0, r->hi[0] = 1;
  return 0;
}

/* A comparison of [alo, ahi] with [blo, bhi]: settled or either. */
static int compare(int op, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi, tf_ival *r) {
  int t = -1;
  switch (op) {
  case OP_LT: t = ahi < blo ? 1 : alo >= bhi ? 0 : -1; break;
  case OP_LE: t = ahi <= blo ? 1 : alo > bhi ? 0 : -1; break;
  case OP_GT: t = alo > bhi ? 1 : ahi <= blo ? 0 : -1; break;
  case OP_GE: t = alo >= bhi ? 1 : ahi < blo ? 0 : -1; break;
  case OP_EQ: t = alo == ahi && blo == bhi && alo == blo ? 1 : ahi < blo || alo > bhi ? 0 : -1; break;
  case OP_NE: t = alo == ahi && blo == bhi && alo == blo ? 0 : ahi < blo || alo > bhi ? 1 : -1; break;
  default: break;
  }
  return boolean(t, r);
}

/* The operators whose arguments must be count-free, on their constants. */
static int scalar(const tf_expr *e, const tf_ival *v, tf_ival *r) {
  const int64_t *lo = v[0].lo, *hi = v[0].hi;
  int64_t blo = e->nargs > 1 ? v[1].lo[0] : 0, bhi = e->nargs > 1 ? v[1].hi[0] : 0;
  *r = tf_ival_point(0);
  switch (e->op) {
  case OP_NOT: return boolean(truth(lo[0], hi[0]) < 0 ? -1 : !truth(lo[0], hi[0]), r);
  case OP_AND:
  case OP_OR: {
    int a = truth(lo[0], hi[0]), b = truth(blo, bhi), and = e->op == OP_AND;
    int t = and ? (a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1) : (a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1);
    return boolean(t, r);
  }
  case OP_MIN:
  case OP_MAX: {
    wide l = lo[0], h = hi[0];
    for (int i = 1; i < e->nargs; i++) {
      l = e->op == OP_MIN ? wmin(l, v[i].lo[0]) : wmax(l, v[i].lo[0]);
      h = e->op == OP_MIN ? wmin(h, v[i].hi[0]) : wmax(h, v[i].hi[0]);
    }
    return put(r, 0, l, h);
  }
  case OP_POW2: return hi[0] > ((int64_t)1 << 62) ? REFUSE : put(r, 0, pow2_of(lo[0]), pow2_of(hi[0]));
  case OP_MOD: return modulo(lo[0], hi[0], blo, bhi, r);
  case OP_CDIV:
  case OP_FDIV: return divide(e->op, lo[0], hi[0], blo, bhi, r);
  case OP_ALIGN: return align_up(lo[0], hi[0], blo, bhi, r);
  default: return compare(e->op, lo[0], hi[0], blo, bhi, r);
  }
}

/* Every value either branch takes. */
static void hull(tf_ival *a, const tf_ival *b, int n) {
  for (int i = 0; i <= n; i++) {
    a->lo[i] = a->lo[i] < b->lo[i] ? a->lo[i] : b->lo[i];
    a->hi[i] = a->hi[i] > b->hi[i] ? a->hi[i] : b->hi[i];
  }
}

static int eval(const tf_expr *e, const tf_ival_env *env, tf_ival *out);

/* if(): one branch when the condition is settled over the box (as a point
 * evaluates only the branch it takes), else both, joined. */
static int eval_if(const tf_expr *e, const tf_ival_env *env, tf_ival *out) {
  tf_ival c, other;
  if (eval(e->args[0], env, &c) || !tf_ival_count_free(&c, env->ncounts))
    return REFUSE;
  int t = truth(c.lo[0], c.hi[0]);
  if (t >= 0)
    return eval(e->args[t ? 1 : 2], env, out);
  if (eval(e->args[1], env, out) || eval(e->args[2], env, &other))
    return REFUSE;
  hull(out, &other, env->ncounts);
  return 0;
}

static int eval(const tf_expr *e, const tf_ival_env *env, tf_ival *out) {
  tf_ival v[16];
  int n = env->ncounts;
  switch (e->op) {
  case OP_NUM: *out = tf_ival_point(e->num); return 0;
  case OP_NAME:
    if (e->sym < 0)
      return REFUSE;
    *out = env->syms[e->sym];
    return 0;
  case OP_IF: return eval_if(e, env, out);
  default: break;
  }
  if (e->nargs > 16)
    return REFUSE;
  for (int i = 0; i < e->nargs; i++)
    if (eval(e->args[i], env, &v[i]))
      return REFUSE;
  switch (e->op) {
  case OP_NEG: {
    tf_ival zero = tf_ival_point(0);
    return add(out, &zero, &v[0], -1, n);
  }
  case OP_ADD: return add(out, &v[0], &v[1], 1, n);
  case OP_SUB: return add(out, &v[0], &v[1], -1, n);
  case OP_MUL: return mul(out, &v[0], &v[1], n);
  case OP_DIV: return div_exact(out, &v[0], &v[1], n);
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!tf_ival_count_free(&v[i], n))
      return REFUSE; /* a point where it depends on a count fails */
  return scalar(e, v, out);
}

int tf_expr_interval(const tf_expr *e, const tf_ival_env *env, tf_ival *out) {
  if (eval(e, env, out))
    return REFUSE;
  for (int i = env->ncounts + 1; i <= TF_MAX_COUNTS; i++)
    out->lo[i] = out->hi[i] = 0;
  return 0;
}
