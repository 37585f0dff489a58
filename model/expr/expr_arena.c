/* The arena an expression tree lives in (expr_arena.h). */

#include "model/expr/expr_arena.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

void *tf_expr_arena_alloc(struct chunk **arena, size_t size, size_t hint) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!*arena || (*arena)->cap - (*arena)->used < size) {
    size_t cap = size > hint ? size : hint;
    struct chunk *c = tf_nalloc(1, sizeof *c + cap);
    c->cap = cap;
    c->next = *arena;
    *arena = c;
  }
  void *r = (char *)(*arena)->data + (*arena)->used;
  (*arena)->used += size;
  return r;
}

void tf_expr_arena_free(struct chunk *c) {
  while (c) {
    struct chunk *next = c->next;
    free(c);
    c = next;
  }
}

char *tf_expr_arena_strndup(struct chunk **arena, const char *s, size_t n) {
  char *d = tf_expr_arena_alloc(arena, n + 1, 1024);
  memcpy(d, s, n);
  return d;
}
