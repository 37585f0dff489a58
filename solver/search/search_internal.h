/* Internal to solver/search/: the state of the exact search (search.c),
 * the order of its keys and the clock it looks at, which the search of one
 * combination (combination.c) and the search over boxes of combinations
 * (space.c, for a problem bound on demand) share.  Not part of the API. */
#ifndef TF_SEARCH_INTERNAL_H
#define TF_SEARCH_INTERNAL_H

#include <time.h>

#include "model/core/error.h"
#include "solver/search/bound.h"
#include "solver/search/heap.h"
#include "solver/search/relax.h"
#include "solver/search/search.h"

struct space;

struct search {
  const tf_problem *p;
  size_t nobj, k;
  int nc; /* counts */
  /* boxes: a pool; freed slots are reused */
  size_t *combo;      /* per node */
  unsigned char *all; /* per node: every point of its box fits */
  int64_t *box;       /* 2 * nc per node: lo, then hi */
  tf_wide *score;     /* nobj per node: its bound, exact for a point */
  size_t nnode, capnode;
  size_t *freed, nfreed, capfreed;
  struct heap open;    /* bounded boxes, best first */
  size_t *best, nbest; /* the k best points found, best first */
  struct timespec start;
  double limit;
  size_t ticks; /* boxes considered, for looking at the clock now and then */
  int timed_out;
  tf_rows rows; /* the relaxation's rows of the combination last bounded */
  tf_search_stats st;
  int one_point;        /* the full box is one point (a scan: scan_box 1) */
  tf_error *err;        /* where binding on demand says why it failed */
  int failed;           /* it did: the search stops */
  struct space *space;  /* the open boxes of combinations (space.c), while it runs */
  tf_wide *space_bound; /* past the time limit, the best open box of combinations' bound (owned); NULL: none
                         * open, or one that could not be bounded (space_unbounded) */
  int space_unbounded;
};

/* ------------------------------------------------------------ the order */

/* By pointer: keys passed by value were copied through the stack in
 * halves and read back whole, a store-forwarding stall at every compare
 * (a third of a small problem's search). */
static inline int cmp_key_at(const struct search *s, const struct key *a, const struct key *b) {
  for (size_t o = 0; o < s->nobj; o++)
    if (a->score[o] != b->score[o])
      return a->score[o] > b->score[o] ? -1 : 1;
  if (a->combo != b->combo)
    return a->combo < b->combo ? -1 : 1;
  for (int i = 0; i < s->nc; i++)
    if (a->lo[i] != b->lo[i])
      return a->lo[i] < b->lo[i] ? -1 : 1;
  return 0;
}

static inline int cmp_key(const struct search *s, struct key a, struct key b) { return cmp_key_at(s, &a, &b); }

static inline struct key node_key(const struct search *s, size_t id) {
  struct key k = {s->score + id * s->nobj, tf_problem_rank(s->p, s->combo[id]), s->box + id * 2 * (size_t)s->nc};
  return k;
}

/* Can a point under key a still be among the k best? */
static inline int can_win(const struct search *s, struct key a) {
  return s->nbest < s->k || cmp_key(s, a, node_key(s, s->best[s->nbest - 1])) < 0;
}

/* Looks at the clock now and then: s->timed_out past the limit.  Inline:
 * the scan (search.c) calls it at every point it scores. */
static inline void tf_search_check_time(struct search *s) {
  if (s->limit <= 0 || (++s->ticks & 1023))
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (s->p->bind_seconds + (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec) >
      s->limit) /* the limit counts the problem's binding too */
    s->timed_out = 1;
}

/* The search over boxes of combinations of a problem bound on demand
 * (space.c): the k best points into s->best; s->failed with *s->err when
 * binding a combination fails. */
void tf_space_run(struct search *s);

#endif
