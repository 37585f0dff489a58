#include "solver/search/bound.h"

#include "model/bind/memory.h"

#define WIDE_CAP ((tf_wide)1 << 120)

static tf_wide sat(tf_wide v) { return v > WIDE_CAP ? WIDE_CAP : v < -WIDE_CAP ? -WIDE_CAP : v; }

void tf_box_full(const tf_problem *p, tf_box *b) {
  for (int i = 0; i < p->ncounts; i++)
    b->lo[i] = p->count_lo[i], b->hi[i] = p->count_hi[i];
}

/* Least and greatest value of an affine form over the box. */
static void range(const int64_t *a, int n, const tf_box *b, tf_wide *mn, tf_wide *mx) {
  tf_wide lo = a[0], hi = a[0];
  for (int i = 0; i < n; i++) {
    if (!a[1 + i])
      continue;
    tf_wide x = (tf_wide)a[1 + i] * b->lo[i], y = (tf_wide)a[1 + i] * b->hi[i];
    lo += x < y ? x : y;
    hi += x < y ? y : x;
  }
  *mn = lo;
  *mx = hi;
}

/* What a buffer of size v >= 0 takes in its memory: the memory module's
 * charge (model/bind/memory.h) where v is an int64; a larger size is past every
 * capacity whatever its rounding, and stays as it is. */
static tf_wide charge(const tf_problem *p, size_t b, tf_wide v) {
  int64_t charged;
  if (v > INT64_MAX || tf_memory_charge(p, b, (int64_t)v, &charged))
    return v;
  return charged;
}

static int64_t limit_of(const tf_problem *p, size_t c, int m) { return tf_memory_capacity(p, m, c); }

static int row_kind(const tf_problem *p, size_t r, tf_wide mn, tf_wide mx) {
  switch ((enum tf_row_kind)p->row_kind[r]) {
  case TF_ROW_LE: return mn > 0 ? TF_BOX_NONE : mx > 0 ? TF_BOX_SOME : TF_BOX_ALL;
  case TF_ROW_GE: return mx < 0 ? TF_BOX_NONE : mn < 0 ? TF_BOX_SOME : TF_BOX_ALL;
  case TF_ROW_EQ: return mn > 0 || mx < 0 ? TF_BOX_NONE : mn == 0 && mx == 0 ? TF_BOX_ALL : TF_BOX_SOME;
  }
  return TF_BOX_SOME; /* not reached: every kind is a case above (-Wswitch says when one is not) */
}

/* A wide sum >= 0 as an int64 slot: past INT64_MAX it is past every
 * capacity, whatever the lifetime rule adds to it. */
static int64_t narrow_slot(tf_wide v) { return v > INT64_MAX ? INT64_MAX : (int64_t)v; }

/* Each memory's least and greatest use over the box, by the memory
 * module's lifetime rule (tf_memory_total) over per-phase sums; kind
 * becomes TF_BOX_SOME where a size may be negative, and TF_BOX_NONE is
 * returned where one always is. */
static int use_bounds(const tf_problem *p, size_t c, const tf_box *b, int64_t *lo, int64_t *hi, int *kind) {
  tf_wide wlo[TF_MEMORY_SLOTS], whi[TF_MEMORY_SLOTS], mn, mx;
  int64_t slo[TF_MEMORY_SLOTS], shi[TF_MEMORY_SLOTS];
  for (int m = 0; m < TF_NMEM; m++) /* only the slots of the problem's rows: the search's hot path */
    for (int r = 0; r < tf_memory_nrows(p); r++)
      wlo[TF_MEMORY_SLOT(m, r)] = whi[TF_MEMORY_SLOT(m, r)] = 0;
  for (size_t i = 0; i < p->nbuffers; i++) {
    range(tf_problem_buf(p, c, i), p->ncounts, b, &mn, &mx);
    if (mx < 0)
      return TF_BOX_NONE; /* a negative size fits nowhere */
    if (mn < 0)
      *kind = TF_BOX_SOME, mn = 0;
    size_t s = tf_memory_slot(p, i, tf_memory_of(p, i, c));
    wlo[s] = sat(wlo[s] + charge(p, i, mn));
    whi[s] = sat(whi[s] + charge(p, i, mx));
  }
  for (int m = 0; m < TF_NMEM; m++)
    for (int r = 0; r < tf_memory_nrows(p); r++) {
      size_t s = TF_MEMORY_SLOT(m, r);
      slo[s] = narrow_slot(wlo[s]), shi[s] = narrow_slot(whi[s]);
    }
  tf_memory_total(p, slo, 1, lo);
  tf_memory_total(p, shi, 1, hi);
  return *kind;
}

int tf_box_classify(const tf_problem *p, size_t c, const tf_box *b) {
  int64_t lo[TF_NMEM], hi[TF_NMEM];
  tf_wide mn, mx;
  int kind = TF_BOX_ALL;
  if (use_bounds(p, c, b, lo, hi, &kind) == TF_BOX_NONE)
    return TF_BOX_NONE;
  for (int m = 0; m < TF_NMEM; m++) {
    if (lo[m] > limit_of(p, c, m))
      return TF_BOX_NONE;
    if (hi[m] > limit_of(p, c, m))
      kind = TF_BOX_SOME;
  }
  for (size_t live = 0; live < p->nlive_row; live++) { /* the others hold everywhere */
    size_t r = p->live_row[live];
    range(tf_problem_row(p, c, r), p->ncounts, b, &mn, &mx);
    int k = row_kind(p, r, mn, mx);
    if (k == TF_BOX_NONE)
      return k;
    if (k == TF_BOX_SOME)
      kind = k;
  }
  return kind;
}

/* ------------------------------------------------------------ a point */

/* An affine form's value at x. */
static tf_wide value_at(const int64_t *a, int n, const int64_t *x) {
  tf_wide v = a[0];
  for (int i = 0; i < n; i++)
    if (a[1 + i])
      v += (tf_wide)a[1 + i] * x[i];
  return v;
}

/* tf_box_classify at a box of one point, with one value per form where
 * the box's bounds take two. */
int tf_point_classify(const tf_problem *p, size_t c, const int64_t *x) {
  tf_wide w[TF_MEMORY_SLOTS];
  int64_t slot[TF_MEMORY_SLOTS], use[TF_NMEM];
  for (int m = 0; m < TF_NMEM; m++)
    for (int r = 0; r < tf_memory_nrows(p); r++)
      w[TF_MEMORY_SLOT(m, r)] = 0;
  for (size_t i = 0; i < p->nbuffers; i++) {
    tf_wide v = value_at(tf_problem_buf(p, c, i), p->ncounts, x);
    if (v < 0)
      return TF_BOX_NONE;
    size_t s = tf_memory_slot(p, i, tf_memory_of(p, i, c));
    w[s] = sat(w[s] + charge(p, i, v));
  }
  for (int m = 0; m < TF_NMEM; m++)
    for (int r = 0; r < tf_memory_nrows(p); r++)
      slot[TF_MEMORY_SLOT(m, r)] = narrow_slot(w[TF_MEMORY_SLOT(m, r)]);
  tf_memory_total(p, slot, 1, use);
  for (int m = 0; m < TF_NMEM; m++)
    if (use[m] > limit_of(p, c, m))
      return TF_BOX_NONE;
  for (size_t live = 0; live < p->nlive_row; live++) {
    size_t r = p->live_row[live];
    tf_wide v = value_at(tf_problem_row(p, c, r), p->ncounts, x);
    if (row_kind(p, r, v, v) == TF_BOX_NONE)
      return TF_BOX_NONE;
  }
  return TF_BOX_ALL;
}

void tf_point_score(const tf_problem *p, size_t c, const int64_t *x, tf_wide *score) {
  for (size_t o = 0; o < p->nobjective; o++) {
    tf_wide v = value_at(tf_problem_obj(p, c, o), p->ncounts, x);
    score[o] = p->objective[o].maximize ? v : -v;
  }
}

/* ----------------------------------------------------------- narrowing */

static tf_wide floor_div(tf_wide a, tf_wide b) {
  tf_wide q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
static tf_wide ceil_div(tf_wide a, tf_wide b) {
  tf_wide q = a / b;
  return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;
}

/* f[0] + sum f[1+i] x_i <= 0 over the box: tightens each coordinate by
 * what the others leave it.  Returns 0 when no point can satisfy it.
 * Coefficients must stay below 2^70 in magnitude (the caller checks). */
int tf_box_narrow_le(const tf_wide *f, int n, tf_box *b, int *changed) {
  tf_wide part[TF_MAX_COUNTS], least = f[0];
  for (int i = 0; i < n; i++) {
    part[i] = f[1 + i] > 0 ? f[1 + i] * b->lo[i] : f[1 + i] * b->hi[i];
    least += part[i];
  }
  if (least > 0)
    return 0;
  for (int j = 0; j < n; j++) {
    if (!f[1 + j])
      continue;
    tf_wide room = part[j] - least; /* f_j x_j <= room */
    if (f[1 + j] > 0) {
      tf_wide t = floor_div(room, f[1 + j]);
      if (t < b->hi[j])
        b->hi[j] = (int64_t)t, *changed = 1; /* t >= lo: least <= 0 */
    } else {
      tf_wide t = ceil_div(room, f[1 + j]);
      if (t > b->lo[j])
        b->lo[j] = (int64_t)t, *changed = 1;
    }
  }
  return 1;
}

/* The row as a wide form, negated when `neg`. */
static void widen(const int64_t *a, int n, int neg, tf_wide *f) {
  for (int i = 0; i <= n; i++)
    f[i] = neg ? -(tf_wide)a[i] : (tf_wide)a[i];
}

static int narrow_rows(const tf_problem *p, size_t c, tf_box *b, int *changed) {
  tf_wide f[1 + TF_MAX_COUNTS];
  int n = p->ncounts;
  for (size_t live = 0; live < p->nlive_row; live++) {
    size_t r = p->live_row[live];
    const int64_t *a = tf_problem_row(p, c, r);
    int kind = p->row_kind[r];
    if (kind != TF_ROW_GE && (widen(a, n, 0, f), !tf_box_narrow_le(f, n, b, changed)))
      return 0;
    if (kind != TF_ROW_LE && (widen(a, n, 1, f), !tf_box_narrow_le(f, n, b, changed)))
      return 0;
  }
  for (size_t i = 0; i < p->nbuffers; i++) /* -size <= 0 */
    if (p->count_dependent[i] && (widen(tf_problem_buf(p, c, i), n, 1, f), !tf_box_narrow_le(f, n, b, changed)))
      return 0;
  return 1;
}

/* Each row of each memory (model/bind/memory.h, lifetimes): sum of its sizes (a
 * count-free one as charged) minus the memory's bound <= 0, implied
 * because a charge is never below its size and the use is the largest
 * row.  One pass over the buffers fills every row. */
int tf_box_memory_rows(const tf_problem *p, size_t c, tf_wide (*f)[1 + TF_MAX_COUNTS], unsigned char *ok) {
  int n = p->ncounts, nrows = tf_memory_nrows(p), nmr = TF_NMEM * nrows;
  for (int mr = 0; mr < nmr; mr++) {
    ok[mr] = 0; /* 1 once a coefficient is nonzero */
    for (int k = 0; k <= n; k++)
      f[mr][k] = 0;
  }
  for (size_t i = 0; i < p->nbuffers; i++) {
    int m = tf_memory_of(p, i, c);
    const int64_t *a = tf_problem_buf(p, c, i);
    for (int r = 0; m >= 0 && m < TF_NMEM && r < nrows; r++) {
      if (!tf_memory_in_row(p, i, r))
        continue;
      tf_wide *to = f[m * nrows + r];
      to[0] += p->count_dependent[i] ? a[0] : a[0] > 0 ? charge(p, i, a[0]) : 0;
      for (int k = 0; k < n; k++)
        to[1 + k] += a[1 + k], ok[m * nrows + r] |= a[1 + k] != 0;
    }
  }
  for (int mr = 0; mr < nmr; mr++) {
    for (int k = 0; k <= n; k++)
      ok[mr] &= f[mr][k] < ((tf_wide)1 << 70) && f[mr][k] > -((tf_wide)1 << 70);
    f[mr][0] -= limit_of(p, c, mr / nrows);
  }
  return nmr;
}

int tf_box_narrow(const tf_problem *p, size_t c, tf_box *b) {
  tf_wide f[TF_MEMORY_SLOTS][1 + TF_MAX_COUNTS];
  unsigned char ok[TF_MEMORY_SLOTS];
  int nmr = tf_box_memory_rows(p, c, f, ok); /* the same in every pass: the box does not enter them */
  for (int pass = 0; pass < 8; pass++) {     /* a few passes reach a fixed point in practice */
    int changed = 0;
    if (!narrow_rows(p, c, b, &changed))
      return 0;
    for (int mr = 0; mr < nmr; mr++)
      if (ok[mr] && !tf_box_narrow_le(f[mr], p->ncounts, b, &changed))
        return 0;
    if (!changed)
      break;
  }
  return 1;
}

/* ----------------------------------------------------------- objectives */

void tf_box_score_bound(const tf_problem *p, size_t c, const tf_box *b, tf_wide *score) {
  for (size_t o = 0; o < p->nobjective; o++) {
    tf_wide mn, mx;
    range(tf_problem_obj(p, c, o), p->ncounts, b, &mn, &mx);
    score[o] = p->objective[o].maximize ? mx : -mn;
  }
}

void tf_box_best_point(const tf_problem *p, size_t c, const tf_box *b, int64_t *counts) {
  tf_box r = *b;
  for (size_t o = 0; o < p->nobjective; o++) {
    const int64_t *a = tf_problem_obj(p, c, o);
    for (int i = 0; i < p->ncounts; i++) {
      if (!a[1 + i])
        continue;
      int64_t v = (a[1 + i] > 0) == (p->objective[o].maximize != 0) ? r.hi[i] : r.lo[i];
      r.lo[i] = r.hi[i] = v;
    }
  }
  for (int i = 0; i < p->ncounts; i++)
    counts[i] = r.lo[i];
}
