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

/* The values below may depend on counts: their divisor is 1 (interval.h). */
static int add(tf_ival *out, const tf_ival *a, const tf_ival *b, int sign, int n) {
  out->g = 1;
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
  r.g = 1;
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
  r.g = 1;
  for (int i = 0; i <= n; i++) {
    if (a->lo[i] != a->hi[i] || (d == -1 && a->lo[i] == INT64_MIN) || a->lo[i] % d)
      return REFUSE;
    r.lo[i] = r.hi[i] = a->lo[i] / d;
  }
  *out = r;
  return 0;
}

/* A count-free value's interval, and a divisor of every value in it
 * (interval.h). */
struct range {
  int64_t lo, hi;
  uint64_t g;
};

static uint64_t mag(int64_t v) { return v < 0 ? -(uint64_t)v : (uint64_t)v; }

/* [lo, hi], every value a multiple of g (a single value: its own). */
static int set_g(struct range *r, wide lo, wide hi, uint64_t g) {
  if (!fits64(lo) || !fits64(hi))
    return REFUSE;
  r->lo = (int64_t)lo, r->hi = (int64_t)hi;
  r->g = lo == hi ? mag(r->lo) : g;
  return 0;
}

static int set(struct range *r, wide lo, wide hi) { return set_g(r, lo, hi, 1); }

/* A divisor of every product of a multiple of a and a multiple of b. */
static uint64_t g_mul(uint64_t a, uint64_t b) {
  uint64_t m;
  return __builtin_mul_overflow(a, b, &m) ? (a ? a : b) : m;
}

/* floor(a / b) and a - b * floor(a / b) (the remainder as expr.c
 * computes it: the divisor's sign), in int64: b != 0, and not INT64_MIN
 * over -1 (the callers refuse it). */
static int64_t floor_div(int64_t a, int64_t b) { return tf_fdiv(a, b); }
static int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1)
    return 0;
  int64_t r = a % b;
  return r && (r < 0) != (b < 0) ? r + b : r;
}

/* fdiv and cdiv are monotone in the dividend for a divisor of one sign, and
 * in the divisor for a dividend of one sign: the extremes are at corners. */
static int divide(int op, struct range a, struct range b, struct range *r) {
  if (b.lo <= 0 && b.hi >= 0)
    return REFUSE; /* a division by zero somewhere */
  if (b.lo <= -1 && b.hi >= -1 && a.lo == INT64_MIN)
    return REFUSE; /* INT64_MIN / -1 overflows */
  const int64_t as[2] = {a.lo, a.hi}, bs[2] = {b.lo, b.hi};
  for (int i = 0; i < 4; i++) {
    int64_t q = op == OP_FDIV ? tf_fdiv(as[i / 2], bs[i % 2]) : tf_cdiv(as[i / 2], bs[i % 2]);
    r->lo = i && r->lo < q ? r->lo : q;
    r->hi = i && r->hi > q ? r->hi : q;
  }
  return 0;
}

/* a % b: within one period of a single divisor the remainder grows with
 * the dividend; else it lies between 0 and the divisor (exclusive). */
static int modulo(struct range a, struct range b, struct range *r) {
  if (b.lo <= 0 && b.hi >= 0)
    return REFUSE;
  if (b.lo == b.hi && (b.lo == -1 || floor_div(a.lo, b.lo) == floor_div(a.hi, b.lo)))
    return set(r, floor_mod(a.lo, b.lo), floor_mod(a.hi, b.lo));
  if (b.lo > 0 && a.lo >= 0 && a.hi < b.lo)
    return set(r, a.lo, a.hi); /* below every divisor: the dividend itself */
  if (b.lo > 0)
    return set(r, 0, a.lo >= 0 ? wmin((wide)b.hi - 1, a.hi) : (wide)b.hi - 1);
  return set(r, (wide)b.lo + 1, 0);
}

/* align(x, a) = cdiv(x, a) * a, for a >= 1: x itself up to a - 1 more. */
static int align_up(struct range x, struct range a, struct range *r) {
  if (a.lo < 1)
    return REFUSE; /* align() to 0 or a negative value fails */
  if (a.lo == a.hi)
    return set_g(r, (wide)tf_cdiv(x.lo, a.lo) * a.lo, (wide)tf_cdiv(x.hi, a.lo) * a.lo, mag(a.lo));
  return set(r, x.lo, (wide)x.hi + a.hi - 1);
}

static wide pow2_of(wide a) {
  wide v = 1;
  while (v < a)
    v *= 2;
  return v;
}

/* A truth value's interval: 1 surely true, 0 surely false, -1 either. */
static int truth(struct range v) { return v.lo > 0 || v.hi < 0 ? 1 : v.lo == 0 && v.hi == 0 ? 0 : -1; }

static int boolean(int t, struct range *r) { return set(r, t > 0, t != 0); }

/* A comparison of a with b: settled or either. */
static int compare(int op, struct range a, struct range b, struct range *r) {
  int t = -1, same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, apart = a.hi < b.lo || a.lo > b.hi;
  switch (op) {
  case OP_LT: t = a.hi < b.lo ? 1 : a.lo >= b.hi ? 0 : -1; break;
  case OP_LE: t = a.hi <= b.lo ? 1 : a.lo > b.hi ? 0 : -1; break;
  case OP_GT: t = a.lo > b.hi ? 1 : a.hi <= b.lo ? 0 : -1; break;
  case OP_GE: t = a.lo >= b.hi ? 1 : a.hi < b.lo ? 0 : -1; break;
  case OP_EQ: t = same ? 1 : apart ? 0 : -1; break;
  case OP_NE: t = same ? 0 : apart ? 1 : -1; break;
  default: break;
  }
  return boolean(t, r);
}

/* The operators of count-free arguments, on their intervals. */
static int scalar(const tf_expr *e, const struct range *v, struct range *r) {
  struct range a = v[0], b = e->nargs > 1 ? v[1] : v[0];
  switch (e->op) {
  case OP_NEG: return set_g(r, -(wide)a.hi, -(wide)a.lo, a.g);
  case OP_ADD: return set_g(r, (wide)a.lo + b.lo, (wide)a.hi + b.hi, tf_gcd(a.g, b.g));
  case OP_SUB: return set_g(r, (wide)a.lo - b.hi, (wide)a.hi - b.lo, tf_gcd(a.g, b.g));
  case OP_MUL: {
    wide p[4] = {(wide)a.lo * b.lo, (wide)a.lo * b.hi, (wide)a.hi * b.lo, (wide)a.hi * b.hi};
    return set_g(r, wmin(wmin(p[0], p[1]), wmin(p[2], p[3])), wmax(wmax(p[0], p[1]), wmax(p[2], p[3])),
                 g_mul(a.g, b.g));
  }
  case OP_DIV: /* exact: a remainder is ruled out when the divisor is one value dividing every dividend */
    if (b.lo != b.hi || b.lo == 0 || (b.lo == -1 && a.lo == INT64_MIN) || a.g % mag(b.lo))
      return REFUSE;
    return b.lo > 0 ? set_g(r, a.lo / b.lo, a.hi / b.lo, a.g / mag(b.lo))
                    : set_g(r, (wide)a.hi / b.lo, (wide)a.lo / b.lo, a.g / mag(b.lo));
  case OP_NOT: return boolean(truth(a) < 0 ? -1 : !truth(a), r);
  case OP_AND: return boolean(truth(a) == 0 || truth(b) == 0 ? 0 : truth(a) == 1 && truth(b) == 1 ? 1 : -1, r);
  case OP_OR: return boolean(truth(a) == 1 || truth(b) == 1 ? 1 : truth(a) == 0 && truth(b) == 0 ? 0 : -1, r);
  case OP_MIN:
  case OP_MAX:
    *r = a;
    for (int i = 1; i < e->nargs; i++) {
      r->lo = e->op == OP_MIN ? (v[i].lo < r->lo ? v[i].lo : r->lo) : (v[i].lo > r->lo ? v[i].lo : r->lo);
      r->hi = e->op == OP_MIN ? (v[i].hi < r->hi ? v[i].hi : r->hi) : (v[i].hi > r->hi ? v[i].hi : r->hi);
      r->g = tf_gcd(r->g, v[i].g); /* the value is one of the arguments' */
    }
    return set_g(r, r->lo, r->hi, r->g);
  case OP_POW2: /* every value a power of two from pow2(lo) up */
    return a.hi > ((int64_t)1 << 62) ? REFUSE : set_g(r, pow2_of(a.lo), pow2_of(a.hi), (uint64_t)pow2_of(a.lo));
  case OP_MOD: return modulo(a, b, r);
  case OP_CDIV:
  case OP_FDIV: return divide(e->op, a, b, r);
  case OP_ALIGN: return align_up(a, b, r);
  default: return compare(e->op, a, b, r);
  }
}

#define NARGS 16 /* arguments a node may have here; more are refused */

/* A count-free node (tf_expr_mark_count_free), on intervals alone. */
static int eval_free(const tf_expr *e, const tf_ival_env *env, struct range *r) {
  struct range v[NARGS];
  switch (e->op) {
  case OP_NUM: return set(r, e->num, e->num);
  case OP_NAME:
    if (e->sym < 0)
      return REFUSE;
    r->lo = env->syms[e->sym].lo[0], r->hi = env->syms[e->sym].hi[0], r->g = env->syms[e->sym].g;
    return 0;
  case OP_IF: {
    struct range c, other;
    if (eval_free(e->args[0], env, &c))
      return REFUSE;
    int t = truth(c);
    if (t >= 0)
      return eval_free(e->args[t ? 1 : 2], env, r);
    if (eval_free(e->args[1], env, r) || eval_free(e->args[2], env, &other))
      return REFUSE;
    r->lo = other.lo < r->lo ? other.lo : r->lo, r->hi = other.hi > r->hi ? other.hi : r->hi;
    r->g = tf_gcd(r->g, other.g);
    return 0;
  }
  default: break;
  }
  if (e->nargs > NARGS)
    return REFUSE;
  for (int i = 0; i < e->nargs; i++)
    if (eval_free(e->args[i], env, &v[i]))
      return REFUSE;
  return scalar(e, v, r);
}

/* Every value either branch takes. */
static void hull(tf_ival *a, const tf_ival *b, int n) {
  a->g = tf_gcd(a->g, b->g); /* one branch's value or the other's */
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
  struct range cr = {c.lo[0], c.hi[0], c.g};
  int t = truth(cr);
  if (t >= 0)
    return eval(e->args[t ? 1 : 2], env, out);
  if (eval(e->args[1], env, out) || eval(e->args[2], env, &other))
    return REFUSE;
  hull(out, &other, env->ncounts);
  return 0;
}

static int eval(const tf_expr *e, const tf_ival_env *env, tf_ival *out) {
  tf_ival v[NARGS];
  int n = env->ncounts;
  if (e->count_free) { /* most of a workset's nodes: one interval, not 1 + ncounts */
    struct range r;
    if (eval_free(e, env, &r))
      return REFUSE;
    *out = tf_ival_point(r.lo);
    out->hi[0] = r.hi, out->g = r.g;
    return 0;
  }
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
  if (e->nargs > NARGS)
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
  struct range x[NARGS], r;
  for (int i = 0; i < e->nargs; i++) {
    if (!tf_ival_count_free(&v[i], n))
      return REFUSE; /* a point where it depends on a count fails */
    x[i].lo = v[i].lo[0], x[i].hi = v[i].hi[0], x[i].g = v[i].g;
  }
  if (scalar(e, x, &r))
    return REFUSE;
  *out = tf_ival_point(r.lo);
  out->hi[0] = r.hi, out->g = r.g;
  return 0;
}

int tf_expr_interval(const tf_expr *e, const tf_ival_env *env, tf_ival *out) {
  if (eval(e, env, out))
    return REFUSE;
  for (int i = env->ncounts + 1; i <= TF_MAX_COUNTS; i++)
    out->lo[i] = out->hi[i] = 0;
  return 0;
}
