#include "solver/search/relax.h"

#include <stdint.h>
#include <stdlib.h>

#include "model/bind/memory.h"
#include "model/core/alloc.h"

#define SMALL ((tf_wide)1 << 62) /* a row's coefficients, below this in magnitude */
#define NO_POINT (-((tf_wide)1 << 120))

void tf_rows_init(tf_rows *r) {
  r->combo = SIZE_MAX;
  r->n = r->nall = r->cap = 0;
  r->f = NULL;
}

void tf_rows_release(tf_rows *r) {
  free(r->f);
  tf_rows_init(r);
}

static tf_wide wabs(tf_wide v) { return v < 0 ? -v : v; }

/* Appends f (negated when `neg`) when it depends on a count and every
 * coefficient is small. */
static void add_row(tf_rows *r, int n, const tf_wide *f, int neg) {
  int dependent = 0;
  for (int k = 0; k <= n; k++) {
    if (wabs(f[k]) >= SMALL)
      return;
    dependent |= k > 0 && f[k] != 0;
  }
  if (!dependent)
    return;
  if (r->nall == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 8;
    r->f = tf_nrealloc(r->f, (size_t)r->cap * (size_t)(1 + n), sizeof *r->f);
  }
  tf_wide *to = r->f + (size_t)r->nall++ * (size_t)(1 + n);
  for (int k = 0; k <= n; k++)
    to[k] = neg ? -f[k] : f[k];
}

void tf_rows_of(const tf_problem *p, size_t c, tf_rows *r) {
  if (r->combo == c)
    return;
  int n = p->ncounts;
  tf_wide f[1 + TF_MAX_COUNTS], mf[TF_MEMORY_SLOTS][1 + TF_MAX_COUNTS];
  unsigned char ok[TF_MEMORY_SLOTS];
  r->combo = c;
  r->nall = 0;
  for (int mr = 0, nmr = tf_box_memory_rows(p, c, mf, ok); mr < nmr; mr++)
    if (ok[mr])
      add_row(r, n, mf[mr], 0);
  for (size_t live = 0; live < p->nlive_row; live++) { /* the others hold everywhere */
    size_t q = p->live_row[live];
    const int64_t *a = tf_problem_row(p, c, q);
    for (int k = 0; k <= n; k++)
      f[k] = a[k];
    if (p->row_kind[q] != TF_ROW_GE)
      add_row(r, n, f, 0);
    if (p->row_kind[q] != TF_ROW_LE)
      add_row(r, n, f, 1);
  }
  r->n = r->nall;
  for (size_t i = 0; i < p->nbuffers; i++) { /* -size <= 0 */
    const int64_t *a = tf_problem_buf(p, c, i);
    for (int k = 0; k <= n; k++)
      f[k] = a[k];
    if (p->count_dependent[i])
      add_row(r, n, f, 1);
  }
}

int tf_rows_narrow(const tf_problem *p, size_t c, tf_rows *r, tf_box *b) {
  tf_rows_of(p, c, r);
  for (int pass = 0; pass < 8; pass++) { /* as tf_box_narrow: a few passes reach a fixed point */
    int changed = 0;
    for (int q = 0; q < r->nall; q++)
      if (!tf_box_narrow_le(r->f + (size_t)q * (size_t)(1 + p->ncounts), p->ncounts, b, &changed))
        return 0;
    if (!changed)
      break;
  }
  return 1;
}

/* A count the relaxation may move off the objective's preferred end:
 * each unit costs `cost` of the objective and gains `gain` of the row;
 * `span` units at most. */
struct move {
  tf_wide cost, gain, span;
};

/* Cheapest per unit of row gained first: cost_a / gain_a < cost_b / gain_b
 * (products below 2^126: costs below 2^64, gains below 2^62). */
static void sort_moves(struct move *m, int k) {
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && m[j].cost * m[j - 1].gain < m[j - 1].cost * m[j].gain; j--) {
      struct move t = m[j];
      m[j] = m[j - 1];
      m[j - 1] = t;
    }
}

/* The greatest value of c[0] + sum c[1 + i] x_i over the real points of
 * box b with f <= 0, rounded down; NO_POINT when there are none.  Each
 * count starts at the end c prefers (a count c ignores at the end that
 * lowers the row), where the value is the box's bound; while the row is
 * over by d > 0, the counts whose move toward their other end lowers the
 * row are moved, cheapest per unit first, the last one by a fraction: the
 * optimum of this continuous knapsack.  Magnitudes: |c| <= 2^63, |f| <
 * 2^62, spans <= 2^54, so every product stays below 2^126. */
static tf_wide relaxed(const tf_wide *c, const tf_wide *f, int n, const tf_box *b) {
  struct move m[TF_MAX_COUNTS];
  int k = 0;
  tf_wide v = c[0], d = f[0];
  for (int i = 0; i < n; i++) {
    tf_wide ci = c[1 + i], fi = f[1 + i];
    int64_t x = ci > 0 ? b->hi[i] : ci < 0 ? b->lo[i] : fi > 0 ? b->lo[i] : b->hi[i];
    v += ci * x;
    d += fi * x;
    if (ci != 0 && fi != 0 && (ci > 0) == (fi > 0)) /* moving off the end lowers the row */
      m[k].cost = wabs(ci), m[k].gain = wabs(fi), m[k++].span = (tf_wide)b->hi[i] - b->lo[i];
  }
  if (d <= 0)
    return v;
  sort_moves(m, k);
  for (int j = 0; j < k; j++) {
    if (m[j].gain * m[j].span < d) {
      d -= m[j].gain * m[j].span;
      v -= m[j].cost * m[j].span;
      continue;
    }
    tf_wide q = d / m[j].gain, rest = d % m[j].gain; /* d / gain units: q whole and rest / gain */
    tf_wide part = m[j].cost * rest, lost = part / m[j].gain + (part % m[j].gain != 0);
    return v - m[j].cost * q - lost;
  }
  return NO_POINT;
}

tf_wide tf_relax_level(const tf_wide *c, const tf_wide *f, int n, const tf_box *b) { return relaxed(c, f, n, b); }

void tf_box_score_relaxed(const tf_problem *p, size_t c, tf_rows *r, const tf_box *b, tf_wide *score) {
  tf_box_score_bound(p, c, b, score);
  tf_box_score_tighten(p, c, r, b, score);
}

void tf_box_score_tighten(const tf_problem *p, size_t c, tf_rows *r, const tf_box *b, tf_wide *score) {
  int n = p->ncounts;
  if (!n)
    return; /* the box's bound is exact */
  tf_rows_of(p, c, r);
  tf_wide obj[1 + TF_MAX_COUNTS];
  for (size_t o = 0; o < p->nobjective && r->n; o++) {
    const int64_t *a = tf_problem_obj(p, c, o);
    int dependent = 0;
    for (int k = 0; k <= n; k++) { /* the level to maximise: a min objective negated */
      obj[k] = p->objective[o].maximize ? (tf_wide)a[k] : -(tf_wide)a[k];
      dependent |= k > 0 && a[k] != 0;
    }
    for (int q = 0; dependent && q < r->n; q++) {
      tf_wide t = relaxed(obj, r->f + (size_t)q * (size_t)(1 + n), n, b);
      if (t == NO_POINT) {
        for (size_t l = 0; l < p->nobjective; l++)
          score[l] = NO_POINT;
        return;
      }
      if (t < score[o])
        score[o] = t;
    }
  }
}
