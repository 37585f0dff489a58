#include "solver/search/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/core/alloc.h"
#include "solver/search/combination.h"
#include "solver/search/search_internal.h"

/* The combination with the best bound over its full box (with `relax`
 * the relaxation's, relax.h, so usually the one that wins), other than
 * those in tried[0..ntried-1]; ncombos when none is left. */
static size_t best_root(struct search *s, const tf_box *full, const size_t *tried, int ntried, int relax,
                        tf_wide *score, tf_wide *scratch) {
  size_t best = s->p->ncombos;
  for (size_t c = 0; c < s->p->ncombos; c++) {
    int seen = 0;
    for (int t = 0; t < ntried; t++)
      seen |= tried[t] == c;
    if (seen)
      continue;
    tf_box_score_bound(s->p, c, full, scratch);
    struct key k = {scratch, c, s->p->count_lo}, b = {score, best, s->p->count_lo};
    int first = best == s->p->ncombos;
    if (relax && (first || cmp_key(s, k, b) < 0)) /* the relaxation is never above the box's bound */
      tf_box_score_tighten(s->p, c, &s->rows, full, scratch);
    if (first || cmp_key(s, k, b) < 0) {
      best = c;
      memcpy(score, scratch, s->nobj * sizeof *score);
    }
  }
  return best;
}

/* First the combinations with the best bound over their full box (up to
 * four while none has a point), for an incumbent; then every other one in
 * enumeration order, each opened only when its bound can still beat the
 * k-th best point found so far, and then searched to the end, so that the
 * open boxes are only ever one combination's.  The bounds are computed in
 * passes over the problem and never stored: keeping every combination's
 * would cost more in fresh memory than the passes do. */
static void run(struct search *s) {
  tf_box full;
  tf_box_full(s->p, &full);
  size_t tried[4];
  int ntried = 0;
  tf_wide *score = tf_nalloc(2 * s->nobj + 1, sizeof *score), *scratch = score + s->nobj;
  while (ntried < 4 && s->nbest < s->k && !s->timed_out) {
    size_t c = best_root(s, &full, tried, ntried, 1, score, scratch);
    if (c == s->p->ncombos)
      break;
    tried[ntried++] = c;
    tf_search_open_root(s, c, &full, score);
  }
  for (size_t c = 0; c < s->p->ncombos && !s->timed_out; c++) {
    int seen = 0;
    for (int t = 0; t < ntried; t++)
      seen |= tried[t] == c;
    if (!seen)
      tf_search_open_root(s, c, &full, score);
  }
  free(score);
}

/* "(v1, v2)": objective values from scores (a bound, or a point's). */
static void values_text(const tf_problem *p, const tf_wide *score, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "(");
  for (size_t o = 0; o < p->nobjective && n < size; o++) {
    tf_wide v = score[o];
    if (!p->objective[o].maximize)
      v = -v;
    n += (size_t)snprintf(buf + n, size - n, "%s%.17g", o ? ", " : "", (double)v);
  }
  if (n < size)
    snprintf(buf + n, size - n, ")");
}

/* bound: the best open box's scores, or NULL; best: the k-th best
 * point's, or NULL when none was found. */
/* On demand the bound is the better of the best open box of combinations
 * and the best open box of the combination being searched; unknown when
 * the first could not be bounded. */
static const tf_wide *overall_bound(const struct search *s, const tf_wide *bound_score) {
  if (!s->p->on_demand)
    return bound_score;
  if (s->space_unbounded)
    return NULL;
  if (!bound_score || !s->space_bound)
    return bound_score ? bound_score : s->space_bound;
  struct key a = {bound_score, 0, s->p->count_lo}, b = {s->space_bound, 0, s->p->count_lo};
  return cmp_key(s, a, b) <= 0 ? bound_score : s->space_bound;
}

static int timed_out(const struct search *s, const tf_wide *bound_score, const tf_wide *best_score, tf_error *err) {
  char bound[120] = "no bound known", best[120], work[96];
  if ((bound_score = overall_bound(s, bound_score)))
    values_text(s->p, bound_score, bound, sizeof bound);
  if (s->p->on_demand)
    snprintf(work, sizeof work, "%llu of %zu combinations bound one by one", (unsigned long long)s->p->space.visited,
             s->p->ncandidates);
  else
    snprintf(work, sizeof work, "%zu boxes bounded", s->st.nodes);
  if (!best_score)
    return tf_error_set(err, TF_ESOLVER, "@time_limit",
                        "time limit of %g s reached before any feasible solution; best bound %s (%s)", s->limit, bound,
                        work);
  values_text(s->p, best_score, best, sizeof best);
  return tf_error_set(err, TF_ESOLVER, "@time_limit",
                      "time limit of %g s reached before the optimum was proven: best found %s, best bound %s (%s)",
                      s->limit, best, bound, work);
}

/* ----------------------------------------------------------------- scan */

/* A problem with few count values per combination is scanned point by
 * point, in the order of the total order's ties (combinations in
 * enumeration order, counts lexicographically), as the oracle meets them:
 * a point's score is exact, so it is classified only when it beats the
 * k-th best kept, and a later point never displaces an earlier one of the
 * same score.  On such problems the boxes, the pool and the heap cost more
 * than the points themselves. */
#define SCAN_BOX 16 /* points per combination, at most */
#define SCAN_K 64   /* answers wanted, at most */
#define SCAN_OBJ 16 /* objectives, at most */

/* Points per combination, or 0 when more than SCAN_BOX. */
static size_t scan_box(const tf_problem *p) {
  size_t box = 1;
  for (int i = 0; i < p->ncounts; i++) {
    uint64_t n = (uint64_t)p->count_hi[i] - (uint64_t)p->count_lo[i] + 1;
    if (!n || n > SCAN_BOX || (box *= (size_t)n) > SCAN_BOX)
      return 0;
  }
  return box;
}

/* Files point (c, at) with score sc among the n kept, best first; the
 * caller knows it beats the k-th. */
static void scan_keep(struct search *s, tf_found *kept, tf_wide *kept_score, size_t c, const int64_t *at,
                      const tf_wide *sc) {
  size_t i = s->nbest < s->k ? s->nbest++ : s->k - 1;
  for (; i > 0; i--) {
    struct key a = {sc, c, at}, b = {kept_score + (i - 1) * s->nobj, kept[i - 1].combo, kept[i - 1].counts};
    if (cmp_key(s, a, b) >= 0)
      break;
    kept[i] = kept[i - 1];
    memcpy(kept_score + i * s->nobj, kept_score + (i - 1) * s->nobj, s->nobj * sizeof *sc);
  }
  kept[i].combo = c;
  memset(kept[i].counts, 0, sizeof kept[i].counts);
  memcpy(kept[i].counts, at, (size_t)s->nc * sizeof *at);
  memcpy(kept_score + i * s->nobj, sc, s->nobj * sizeof *sc);
}

/* Does the point beat the k-th best kept? */
static int scan_wins(const struct search *s, const tf_found *kept, const tf_wide *kept_score, struct key k) {
  if (s->nbest < s->k)
    return 1;
  struct key last = {kept_score + (s->k - 1) * s->nobj, kept[s->k - 1].combo, kept[s->k - 1].counts};
  return cmp_key(s, k, last) < 0;
}

/* The order a combination's points are visited in: each count from the
 * end the first objective that depends on it prefers, so that the best
 * points come early and the rest lose on their score alone.  Any order
 * gives the same points: a point is compared by its whole key (score,
 * combination, counts), ties included. */
static void scan_order(const struct search *s, size_t c, const tf_box *b, int64_t *from, int64_t *to, int64_t *step) {
  for (int i = 0; i < s->nc; i++)
    step[i] = 0;
  for (size_t o = 0; o < s->nobj; o++) {
    const int64_t *a = tf_problem_obj(s->p, c, o);
    for (int i = 0; i < s->nc; i++)
      if (!step[i] && a[1 + i])
        step[i] = (a[1 + i] > 0) == (s->p->objective[o].maximize != 0) ? -1 : 1;
  }
  for (int i = 0; i < s->nc; i++) {
    step[i] = step[i] ? step[i] : 1;
    from[i] = step[i] > 0 ? b->lo[i] : b->hi[i];
    to[i] = step[i] > 0 ? b->hi[i] : b->lo[i];
  }
}

/* Every point of combination c that may fit (scan_order): the box
 * narrowed first, as the box search narrows it (removing only points that
 * cannot fit); for one answer, a box every point of which fits gives its
 * best point directly, as the box search takes it. */
static void scan_combo(struct search *s, size_t c, const tf_box *full, tf_found *found, tf_wide *kept_score) {
  const tf_problem *p = s->p;
  tf_wide sc[SCAN_OBJ + 1];
  tf_box b = *full;
  /* a box of one point (every count fixed) is classified at that point:
   * one value per form where the box's bounds take two */
  int kind = s->nc && s->one_point ? tf_point_classify(p, c, b.lo) : s->nc ? tf_box_classify(p, c, &b) : TF_BOX_SOME;
  if (kind == TF_BOX_SOME && s->nc && (!tf_box_narrow(p, c, &b) || (kind = tf_box_classify(p, c, &b)) == TF_BOX_NONE))
    return;
  if (kind == TF_BOX_NONE)
    return;
  int64_t at[TF_MAX_COUNTS];
  if (kind == TF_BOX_ALL && s->k == 1) {
    tf_box_best_point(p, c, &b, at);
    tf_point_score(p, c, at, sc);
    struct key k = {sc, c, at};
    if (scan_wins(s, found, kept_score, k))
      scan_keep(s, found, kept_score, c, at, sc);
    return;
  }
  int64_t from[TF_MAX_COUNTS], to[TF_MAX_COUNTS], step[TF_MAX_COUNTS];
  scan_order(s, c, &b, from, to, step);
  memcpy(at, from, (size_t)s->nc * sizeof *at);
  for (;;) {
    tf_search_check_time(s);
    s->st.nodes++;
    tf_point_score(p, c, at, sc);
    struct key k = {sc, c, at};
    if (scan_wins(s, found, kept_score, k) && (kind == TF_BOX_ALL || tf_point_classify(p, c, at) != TF_BOX_NONE))
      scan_keep(s, found, kept_score, c, at, sc);
    int i = s->nc - 1; /* the next point */
    while (i >= 0 && at[i] == to[i])
      at[i] = from[i], i--;
    if (i < 0)
      return;
    at[i] += step[i];
  }
}

/* Every point of the problem that can win; the best into found[0..*n-1],
 * best first.  As the box search does, the combination with the best
 * bound over its full box comes first, for an incumbent, and then each
 * other one is scanned only when that bound can still beat the k-th best
 * kept. */
static int scan(struct search *s, tf_found *found, size_t *n, tf_search_stats *stats, tf_error *err) {
  const tf_problem *p = s->p;
  /* on the stack for one answer: a small problem's allocation cost as much as its points */
  tf_wide small[3 * SCAN_OBJ + 1];
  size_t nscore = s->k * s->nobj + 2 * s->nobj + 1;
  tf_wide *kept_score = nscore <= sizeof small / sizeof *small ? small : tf_nalloc(nscore, sizeof *kept_score);
  tf_wide *bound = kept_score + s->k * s->nobj, *scratch = bound + s->nobj;
  tf_box full;
  tf_box_full(p, &full);
  size_t first = best_root(s, &full, NULL, 0, 0, bound, scratch); /* few points: the box's bound is enough */
  if (first < p->ncombos)
    scan_combo(s, first, &full, found, kept_score);
  for (size_t c = 0; c < p->ncombos && !s->timed_out; c++) {
    if (c == first)
      continue;
    tf_box_score_bound(p, c, &full, bound);
    struct key k = {bound, c, p->count_lo};
    if (scan_wins(s, found, kept_score, k))
      scan_combo(s, c, &full, found, kept_score);
  }
  *n = s->timed_out ? 0 : s->nbest;
  s->st.scanned = 1;
  int rc = s->timed_out ? timed_out(s, NULL, s->nbest ? kept_score + (s->nbest - 1) * s->nobj : NULL, err) : 0;
  if (kept_score != small)
    free(kept_score);
  if (stats)
    *stats = s->st;
  return rc;
}

static int search(const tf_problem *p, size_t k, double time_limit_s, int may_scan, tf_found *found, size_t *n,
                  tf_search_stats *stats, tf_error *err) {
  struct search s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.nobj = p->nobjective;
  s.nc = p->ncounts;
  s.open.key_of = node_key;
  s.k = k ? k : 1;
  s.limit = time_limit_s;
  tf_rows_init(&s.rows);
  clock_gettime(CLOCK_MONOTONIC, &s.start);
  size_t box = may_scan && !p->on_demand && s.k <= SCAN_K && s.nobj <= SCAN_OBJ ? scan_box(p) : 0;
  if (box) {
    s.one_point = box == 1;
    int rc = scan(&s, found, n, stats, err);
    tf_rows_release(&s.rows);
    return rc;
  }
  s.best = tf_nalloc(s.k, sizeof *s.best);
  s.err = err;
  if (p->on_demand)
    tf_space_run(&s);
  else
    run(&s);
  *n = 0;
  int rc = s.failed      ? -1
           : s.timed_out ? timed_out(&s, s.open.n ? s.score + s.open.v[0] * s.nobj : NULL,
                                     s.nbest ? s.score + s.best[s.nbest - 1] * s.nobj : NULL, err)
                         : 0;
  for (size_t i = 0; !rc && i < s.nbest; i++, ++*n) {
    found[i].combo = s.combo[s.best[i]];
    memset(found[i].counts, 0, sizeof found[i].counts);
    memcpy(found[i].counts, node_key(&s, s.best[i]).lo, (size_t)s.nc * sizeof *found[i].counts);
  }
  if (stats)
    *stats = s.st;
  free(s.combo);
  free(s.all);
  free(s.box);
  free(s.score);
  free(s.freed);
  free(s.open.v);
  free(s.best);
  free(s.space_bound);
  tf_rows_release(&s.rows);
  return rc;
}

int tf_search(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n, tf_search_stats *stats,
              tf_error *err) {
  return search(p, k, time_limit_s, 1, found, n, stats, err);
}

int tf_search_boxes(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n,
                    tf_search_stats *stats, tf_error *err) {
  return search(p, k, time_limit_s, 0, found, n, stats, err);
}
