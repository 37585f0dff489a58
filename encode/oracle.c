#include "oracle.h"

#include "model/bind/memory.h"

#include <string.h>

/* Does combination c fit at these counts?  1 yes, 0 no, -1 on overflow.
 * The oracle's own test, on purpose not the search's (solver/search/bound.c):
 * the memory module's use of the point (tf_memory_use: each buffer's
 * charge, by its lifetime rule), then the requires. */
static int oracle_fits(const tf_problem *p, size_t c, const int64_t *counts) {
  int64_t used[TF_NMEM];
  int use = tf_memory_use(p, c, counts, used);
  if (use <= 0) /* -1 overflow, 0 a negative size */
    return use;
  for (int m = 0; m < TF_NMEM; m++)
    if (used[m] > tf_memory_capacity(p, m, c))
      return 0;
  for (size_t live = 0; live < p->nlive_row; live++) { /* the others hold everywhere (problem.h) */
    size_t r = p->live_row[live];
    int64_t v;
    if (tf_problem_form_at(p, tf_problem_row(p, c, r), counts, &v))
      return -1;
    if (p->row_kind[r] == TF_ROW_LE ? v > 0 : p->row_kind[r] == TF_ROW_GE ? v < 0 : v != 0)
      return 0;
  }
  return 1;
}

/* Is objective vector a better than b, lexicographically? */
static int better(const tf_problem *p, const int64_t *a, const int64_t *b) {
  for (size_t o = 0; o < p->nobjective; o++) {
    if (a[o] == b[o])
      continue;
    return p->objective[o].maximize ? a[o] > b[o] : a[o] < b[o];
  }
  return 0;
}

/* The k best so far, best first; a point met later is worse on ties. */
struct best {
  tf_oracle_result *r;
  size_t k, n, points;
};

static int visit(const tf_problem *p, size_t c, const int64_t *counts, struct best *b, tf_error *err) {
  int ok = oracle_fits(p, c, counts);
  if (ok < 0)
    return tf_error_set(err, TF_EINPUT, NULL, "integer overflow evaluating a point");
  if (!ok)
    return 0;
  int64_t obj[TF_MAX_OBJECTIVES];
  for (size_t o = 0; o < p->nobjective; o++)
    if (tf_problem_form_at(p, tf_problem_obj(p, c, o), counts, &obj[o]))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow evaluating an objective");
  size_t i = b->n;
  while (i > 0 && better(p, obj, b->r[i - 1].objective))
    i--;
  if (i == b->k)
    return 0;
  if (b->n < b->k)
    b->n++;
  memmove(&b->r[i + 1], &b->r[i], (b->n - 1 - i) * sizeof *b->r);
  tf_oracle_result *x = &b->r[i];
  memset(x, 0, sizeof *x);
  x->feasible = 1;
  x->combo = c;
  memcpy(x->counts, counts, (size_t)p->ncounts * sizeof *counts);
  memcpy(x->objective, obj, p->nobjective * sizeof *obj);
  return 0;
}

static int check_size(const tf_problem *p, size_t max_points, tf_error *err) {
  if (p->nobjective > TF_MAX_OBJECTIVES)
    return tf_error_set(err, TF_EINPUT, NULL, "the oracle handles at most %d objectives", TF_MAX_OBJECTIVES);
  size_t box = 1;
  for (int i = 0; i < p->ncounts; i++) {
    /* unsigned: the span of [INT64_MIN, INT64_MAX] wraps to 0 instead of overflowing */
    size_t n = (size_t)((uint64_t)p->count_hi[i] - (uint64_t)p->count_lo[i] + 1);
    if (!n || box > max_points / n)
      return tf_error_set(err, TF_EINPUT, NULL, "the oracle would visit more than %zu points", max_points);
    box *= n;
  }
  if (p->ncombos && box > max_points / p->ncombos)
    return tf_error_set(err, TF_EINPUT, NULL, "the oracle would visit more than %zu points", max_points);
  return 0;
}

static int enumerate(const tf_problem *p, struct best *b, tf_error *err) {
  for (size_t c = 0; c < p->ncombos; c++) {
    int64_t counts[TF_MAX_COUNTS];
    for (int i = 0; i < p->ncounts; i++)
      counts[i] = p->count_lo[i];
    for (;;) {
      b->points++;
      if (visit(p, c, counts, b, err))
        return -1;
      int i = p->ncounts - 1;
      while (i >= 0 && counts[i] == p->count_hi[i])
        counts[i] = p->count_lo[i], i--;
      if (i < 0)
        break;
      counts[i]++;
    }
  }
  return 0;
}

int tf_oracle_top(const tf_problem *p, size_t max_points, size_t k, tf_oracle_result *r, size_t *n, tf_error *err) {
  struct best b = {r, k, 0, 0};
  *n = 0;
  if (check_size(p, max_points, err) || enumerate(p, &b, err))
    return -1;
  *n = b.n;
  for (size_t i = 0; i < b.n; i++)
    r[i].points = b.points;
  return 0;
}

int tf_oracle_solve(const tf_problem *p, size_t max_points, tf_oracle_result *r, tf_error *err) {
  memset(r, 0, sizeof *r);
  struct best b = {r, 1, 0, 0};
  if (check_size(p, max_points, err) || enumerate(p, &b, err))
    return -1;
  r->points = b.points;
  return 0;
}
