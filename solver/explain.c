#include "explain.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "solver/solve.h"

/* A candidate point: choose values and counts, and what it evaluates to. */
typedef tf_explain_level candidate;

/* Does the point keep levels < level equal to the answer and improve
 * `level`?  Returns the improvement (> 0) or 0. */
static int64_t improvement(const tf_problem *p, const tf_answer *a, const tf_point *pt, size_t level) {
  for (size_t j = 0; j < level; j++)
    if (pt->objective[j] != a->point.objective[j])
      return 0;
  int64_t d = pt->objective[level] - a->point.objective[level];
  return p->objective[level].maximize ? (d > 0 ? d : 0) : (d < 0 ? -d : 0);
}

static void consider(const tf_problem *p, const tf_answer *a, size_t level, const int64_t *choose,
                     const int64_t *counts, tf_point *pt, candidate *best, int64_t *best_gain) {
  tf_error e;
  tf_error_init(&e);
  if (tf_problem_eval_point(p, choose, counts, pt, &e))
    return;
  int64_t gain = improvement(p, a, pt, level);
  if (gain <= 0 || (best->found && gain >= *best_gain))
    return;
  tf_violation miss;
  if (tf_point_violation(p, pt, &miss))
    return; /* fits and is better: only an outside-the-domain point can; skip */
  memcpy(best->choose, choose, sizeof best->choose);
  memcpy(best->counts, counts, sizeof best->counts);
  best->value = pt->objective[level];
  best->miss = miss;
  best->found = 1;
  *best_gain = gain;
}

/* Candidates: every combination of the domains at the smallest counts and
 * at the answer's counts, and the answer's combination with one count
 * moved by one. */
static void search(const tf_problem *p, const tf_answer *a, size_t level, candidate *best) {
  tf_point pt;
  tf_point_init(&pt, p);
  int64_t gain = 0, choose[TF_MAX_CHOOSE], lo[TF_MAX_COUNTS], at[TF_MAX_COUNTS];
  for (int k = 0; k < p->ncounts; k++)
    lo[k] = p->count_lo[k];
  size_t idx[TF_MAX_CHOOSE] = {0}, total = 1;
  for (size_t i = 0; i < p->nchoose; i++)
    total *= p->ndomain[i];
  for (size_t n = 0; n < total && total <= TF_EXPLAIN_MAX_CANDIDATES; n++) {
    for (size_t i = 0; i < p->nchoose; i++)
      choose[i] = p->domain[i][idx[i]];
    consider(p, a, level, choose, lo, &pt, best, &gain);
    consider(p, a, level, choose, a->counts, &pt, best, &gain);
    for (size_t i = p->nchoose; i-- > 0;) {
      if (++idx[i] < p->ndomain[i])
        break;
      idx[i] = 0;
    }
  }
  for (int k = 0; k < p->ncounts; k++)
    for (int step = -1; step <= 1; step += 2) {
      memcpy(at, a->counts, sizeof at);
      at[k] += step;
      if (at[k] >= p->count_lo[k] && at[k] <= p->count_hi[k])
        consider(p, a, level, a->choose, at, &pt, best, &gain);
    }
  tf_point_release(&pt);
}

void tf_explain(const tf_problem *p, const tf_answer *a, tf_explanation *x) {
  memset(x, 0, sizeof *x);
  x->binding = tf_nalloc((size_t)p->ncounts + 1, sizeof *x->binding);
  for (int k = 0; k < p->ncounts; k++)
    tf_explain_next(p, a, p->count_names[k], &x->binding[k]);
  x->nlevels = p->nobjective_shown;
  x->levels = tf_nalloc(x->nlevels + 1, sizeof *x->levels);
  for (size_t level = 0; level < x->nlevels; level++)
    tf_explain_search(p, a, level, &x->levels[level]);
  tf_explain_places(p, a, x);
}

void tf_explanation_release(tf_explanation *x) {
  free(x->binding);
  free(x->levels);
  free(x->places);
  memset(x, 0, sizeof *x);
}

void tf_explain_search(const tf_problem *p, const tf_answer *a, size_t level, tf_explain_level *out) {
  memset(out, 0, sizeof *out);
  search(p, a, level, out);
}

/* The answer with variable `name` at its next larger value (the next
 * value of its domain, or one more for a count) in choose/counts: -1 when
 * unknown or at its largest. */
static int next_point(const tf_problem *p, const tf_answer *a, const char *name, int64_t *choose, int64_t *counts,
                      int64_t *value) {
  memcpy(choose, a->choose, sizeof(int64_t) * TF_MAX_CHOOSE);
  memcpy(counts, a->counts, sizeof(int64_t) * TF_MAX_COUNTS);
  for (size_t i = 0; i < p->nchoose; i++) {
    if (strcmp(p->choose_names[i], name))
      continue;
    int found = 0;
    for (size_t v = 0; v < p->ndomain[i]; v++)
      if (p->domain[i][v] > a->choose[i] && (!found || p->domain[i][v] < *value))
        *value = p->domain[i][v], found = 1;
    choose[i] = *value;
    return found ? 0 : -1;
  }
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], name)) {
      if (a->counts[k] >= p->count_hi[k])
        return -1;
      counts[k] = *value = a->counts[k] + 1;
      return 0;
    }
  return -1;
}

int tf_explain_next(const tf_problem *p, const tf_answer *a, const char *name, tf_explain_binding *b) {
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS], value = 0;
  memset(b, 0, sizeof *b);
  if (next_point(p, a, name, choose, counts, &value)) {
    b->at_bound = 1;
    for (int k = 0; k < p->ncounts; k++)
      if (!strcmp(p->count_names[k], name))
        snprintf(b->text, sizeof b->text, "%s is at its upper bound %lld", name, (long long)p->count_hi[k]);
    return -1;
  }
  b->candidate = value;
  if (tf_problem_violation(p, choose, counts, &b->miss) > 0)
    snprintf(b->text, sizeof b->text, "%s = %lld also fits; the objective prefers the answer's value", name,
             (long long)value);
  else /* a violation, or why it cannot be evaluated */
    snprintf(b->text, sizeof b->text, "%s = %lld: %s", name, (long long)value, b->miss.text);
  return 0;
}

int tf_explain_next_value(const tf_problem *p, const tf_answer *a, const char *name, char *buf, size_t size) {
  tf_explain_binding b;
  if (tf_explain_next(p, a, name, &b))
    return -1;
  snprintf(buf, size, "%s", b.text);
  return 0;
}
