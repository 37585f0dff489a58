/* Internal to solver/search/: the binary heaps the exact search keeps its
 * open boxes in, best first (the boxes of one combination's counts,
 * combination.c; the boxes of combinations, space.c).  Not part of the
 * API. */
#ifndef TF_SEARCH_HEAP_H
#define TF_SEARCH_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "solver/search/bound.h"

/* A key of the total order (search.h): objective scores (larger is
 * better), combination (its rank, tf_problem_rank: its index among the
 * candidates, or among a box's the first), smallest counts. */
struct key {
  const tf_wide *score;
  uint64_t combo;
  const int64_t *lo;
};

struct search;

/* A binary heap of ids, ordered by the keys `key_of` gives them
 * (search_internal.h: cmp_key). */
struct heap {
  size_t *v, n, cap;
  struct key (*key_of)(const struct search *, size_t);
};

void tf_search_heap_push(const struct search *s, struct heap *h, size_t id);

/* Removes and returns the best id; the heap is not empty. */
size_t tf_search_heap_pop(const struct search *s, struct heap *h);

#endif
