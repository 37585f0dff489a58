/* The search of one combination over its boxes of counts (combination.h):
 * the pool of nodes, the k best points, and the boxes bounded, split,
 * taken whole or queued best first. */
#include "solver/search/combination.h"

#include <string.h>

#include "model/core/alloc.h"

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
