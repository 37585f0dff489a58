/* Internal to model/expr/: the arena an expression tree lives in.  Its
 * nodes, argument lists, names and text come from one arena that its root
 * owns: a parse makes a handful of allocations instead of three per node,
 * and freeing the tree frees the chunks.  Memory from a chunk is zeroed
 * and never handed out twice.  expr.c (the parser, copies) and
 * expr_compile.c (the postfix programs) allocate from it. */
#ifndef TF_MODEL_EXPR_ARENA_H
#define TF_MODEL_EXPR_ARENA_H

#include <stddef.h>

struct chunk {
  struct chunk *next;
  size_t used, cap;
  max_align_t data[];
};

/* `size` bytes, zeroed, from the arena's newest chunk, or from a new one
 * of at least `hint` bytes when that one lacks the room. */
void *tf_expr_arena_alloc(struct chunk **arena, size_t size, size_t hint);
/* A copy of s[0..n), terminated, from the arena. */
char *tf_expr_arena_strndup(struct chunk **arena, const char *s, size_t n);
/* Frees every chunk of an arena. */
void tf_expr_arena_free(struct chunk *c);

#endif
