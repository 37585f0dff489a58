#include "solver/search/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/core/alloc.h"
#include "solver/search/search_internal.h"

/* ------------------------------------------------------------- the pool */

static void get_box(const struct search *s, size_t id, tf_box *b) {
  const int64_t *v = s->box + id * 2 * (size_t)s->nc;
  for (int i = 0; i < s->nc; i++)
    b->lo[i] = v[i], b->hi[i] = v[s->nc + i];
}

static size_t new_node(struct search *s, size_t combo, const tf_box *b, int all) {
  size_t id, w = 2 * (size_t)s->nc;
  if (s->nfreed) {
    id = s->freed[--s->nfreed];
  } else {
    if (s->nnode == s->capnode) {
      s->capnode = s->capnode ? 2 * s->capnode : 64; /* most problems need a few dozen */
      TF_NREALLOC(s->combo, s->capnode);
      TF_NREALLOC(s->all, s->capnode);
      s->box = tf_nrealloc(s->box, s->capnode * w + 1, sizeof *s->box);
      s->score = tf_nrealloc(s->score, s->capnode * s->nobj + 1, sizeof *s->score);
    }
    id = s->nnode++;
  }
  s->combo[id] = combo;
  s->all[id] = (unsigned char)all;
  for (int i = 0; i < s->nc; i++)
    s->box[id * w + (size_t)i] = b->lo[i], s->box[id * w + (size_t)(s->nc + i)] = b->hi[i];
  tf_box_score_bound(s->p, combo, b, s->score + id * s->nobj);
  /* Where every point fits the relaxation is the box's bound (relax.h);
   * with one count a narrowed box ends where each row's relaxation would
   * (consider narrows every box it files that is not a point). */
  if (!all && s->nc > 1)
    tf_box_score_tighten(s->p, combo, &s->rows, b, s->score + id * s->nobj);
  s->st.nodes++;
  return id;
}

static void free_node(struct search *s, size_t id) { TF_PUSH(s->freed, s->nfreed, s->capfreed, id); }

/* ------------------------------------------------------------ the heaps */

static int before(const struct search *s, const struct heap *h, size_t a, size_t b) {
  return cmp_key(s, h->key_of(s, a), h->key_of(s, b)) < 0;
}

static void sift_down(const struct search *s, struct heap *h, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < h->n && before(s, h, h->v[l], h->v[m]))
      m = l;
    if (l + 1 < h->n && before(s, h, h->v[l + 1], h->v[m]))
      m = l + 1;
    if (m == i)
      return;
    size_t t = h->v[i];
    h->v[i] = h->v[m];
    h->v[m] = t;
    i = m;
  }
}

void tf_search_heap_push(const struct search *s, struct heap *h, size_t id) {
  TF_PUSH(h->v, h->n, h->cap, id);
  for (size_t i = h->n - 1; i > 0;) {
    size_t up = (i - 1) / 2;
    if (!before(s, h, h->v[i], h->v[up]))
      break;
    size_t t = h->v[i];
    h->v[i] = h->v[up];
    h->v[up] = t;
    i = up;
  }
}

size_t tf_search_heap_pop(const struct search *s, struct heap *h) {
  size_t top = h->v[0];
  h->v[0] = h->v[--h->n];
  sift_down(s, h, 0);
  return top;
}

/* --------------------------------------------------------------- points */

/* Adds point node id to the k best, or frees it. */
static void offer(struct search *s, size_t id) {
  if (!can_win(s, node_key(s, id))) {
    free_node(s, id);
    return;
  }
  if (s->nbest == s->k)
    free_node(s, s->best[--s->nbest]);
  size_t i = s->nbest++;
  for (; i > 0 && cmp_key(s, node_key(s, id), node_key(s, s->best[i - 1])) < 0; i--)
    s->best[i] = s->best[i - 1];
  s->best[i] = id;
}

/* A box every point of which fits, to queue whole. */
static void queue_all(struct search *s, size_t combo, const tf_box *b) {
  size_t id = new_node(s, combo, b, 1);
  if (can_win(s, node_key(s, id)))
    tf_search_heap_push(s, &s->open, id);
  else
    free_node(s, id);
}

/* A box every point of which fits: its best point is offered, and (when
 * more than one point is wanted) the rest of the box is queued as at most
 * two boxes per count: the counts before i at the point's values, count i
 * below or above it, the counts after i free. */
static void take(struct search *s, size_t combo, const tf_box *b) {
  tf_box pt;
  int64_t at[TF_MAX_COUNTS];
  tf_box_best_point(s->p, combo, b, at);
  memcpy(pt.lo, at, sizeof at);
  memcpy(pt.hi, at, sizeof at);
  offer(s, new_node(s, combo, &pt, 1));
  for (int i = 0; s->k > 1 && i < s->nc; i++) {
    tf_box r = *b;
    for (int j = 0; j < i; j++)
      r.lo[j] = r.hi[j] = at[j];
    if (at[i] > b->lo[i]) {
      r.hi[i] = at[i] - 1;
      queue_all(s, combo, &r);
    }
    if (at[i] < b->hi[i]) {
      r.lo[i] = at[i] + 1;
      r.hi[i] = b->hi[i];
      queue_all(s, combo, &r);
    }
  }
}

/* ---------------------------------------------------------------- boxes */

void tf_search_check_time(struct search *s) {
  if (s->limit <= 0 || (++s->ticks & 1023))
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (s->p->bind_seconds + (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec) >
      s->limit) /* the limit counts the problem's binding too */
    s->timed_out = 1;
}

/* Bounds a box of a combination and files it: dropped, taken whole, or
 * queued. */
static void consider(struct search *s, size_t combo, tf_box b) {
  tf_search_check_time(s);
  int point = 1;
  for (int i = 0; i < s->nc; i++)
    point &= b.lo[i] == b.hi[i];
  if (!point && !tf_rows_narrow(s->p, combo, &s->rows, &b)) /* a point's bounds are exact already */
    return;
  int kind = tf_box_classify(s->p, combo, &b);
  if (kind == TF_BOX_NONE)
    return;
  size_t id = new_node(s, combo, &b, kind == TF_BOX_ALL);
  if (!can_win(s, node_key(s, id))) {
    free_node(s, id);
  } else if (kind == TF_BOX_ALL) {
    free_node(s, id);
    take(s, combo, &b);
  } else {
    tf_search_heap_push(s, &s->open, id);
  }
}

/* Splits a box in two halves of its widest count range. */
static void split(struct search *s, size_t combo, const tf_box *b) {
  int w = 0;
  for (int i = 1; i < s->nc; i++)
    if ((uint64_t)b->hi[i] - (uint64_t)b->lo[i] > (uint64_t)b->hi[w] - (uint64_t)b->lo[w])
      w = i;
  int64_t mid = b->lo[w] + (int64_t)(((uint64_t)b->hi[w] - (uint64_t)b->lo[w]) / 2);
  tf_box left = *b, right = *b;
  left.hi[w] = mid;
  right.lo[w] = mid + 1;
  consider(s, combo, left);
  consider(s, combo, right);
}

/* Takes the best open box: its best point when it fits everywhere, else
 * its two halves. */
static void open_box(struct search *s) {
  size_t id = tf_search_heap_pop(s, &s->open), combo = s->combo[id];
  tf_box b;
  get_box(s, id, &b);
  int all = s->all[id];
  free_node(s, id);
  s->st.opened++;
  if (all)
    take(s, combo, &b);
  else
    split(s, combo, &b); /* a single point is never mixed, so the box is wider */
}

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

/* Searches the open boxes to the end (they are one combination's), and
 * frees what is left: it cannot win, now or later. */
static void drain(struct search *s) {
  while (s->open.n && !s->timed_out && can_win(s, node_key(s, s->open.v[0])))
    open_box(s);
  while (s->open.n)
    free_node(s, tf_search_heap_pop(s, &s->open));
}

/* Opens combination c when its objective bound over the full box can still
 * win, and searches it to the end.  The bound is the relaxation's
 * (relax.h): where the counts' maxima are out of reach it prunes most
 * combinations here, before any narrowing. */
void tf_search_open_root(struct search *s, size_t c, const tf_box *full, tf_wide *score) {
  tf_box_score_bound(s->p, c, full, score);
  struct key k = {score, tf_problem_rank(s->p, c), s->p->count_lo};
  if (!can_win(s, k))
    return; /* the box's bound is enough: the relaxation is never above it */
  tf_box_score_tighten(s->p, c, &s->rows, full, score);
  if (!can_win(s, k))
    return;
  s->st.opened++;
  consider(s, c, *full);
  drain(s);
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
    snprintf(work, sizeof work, "%llu of %zu combinations bound one by one",
             (unsigned long long)s->p->space.visited, s->p->ncandidates);
  else
    snprintf(work, sizeof work, "%zu boxes bounded", s->st.nodes);
  if (!best_score)
    return tf_error_set(err, TF_ESOLVER, "@time_limit",
                        "time limit of %g s reached before any feasible solution; best bound %s (%s)", s->limit,
                        bound, work);
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
  int rc = s.failed ? -1 : s.timed_out ? timed_out(&s, s.open.n ? s.score + s.open.v[0] * s.nobj : NULL,
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

int tf_search(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n,
              tf_search_stats *stats, tf_error *err) {
  return search(p, k, time_limit_s, 1, found, n, stats, err);
}

int tf_search_boxes(const tf_problem *p, size_t k, double time_limit_s, tf_found *found, size_t *n,
                    tf_search_stats *stats, tf_error *err) {
  return search(p, k, time_limit_s, 0, found, n, stats, err);
}
