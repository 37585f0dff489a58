/* The heaps of the exact search: ids ordered by their keys (heap.h). */
#include "solver/search/heap.h"

#include "model/core/alloc.h"
#include "solver/search/search_internal.h"

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
