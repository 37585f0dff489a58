/* One allocation module, as in kissat: sizes are overflow-checked and an
 * allocation that fails stops the process with a message, so callers never
 * test for NULL.  tilefit's allocations are small (models of at most
 * TF_MAX_COMBINATIONS columns); running out of memory is not an input error. */
#ifndef TF_MODEL_ALLOC_H
#define TF_MODEL_ALLOC_H

#include <stddef.h>

void *tf_nalloc(size_t n, size_t size);               /* zeroed */
void *tf_nrealloc(void *p, size_t n, size_t size);
char *tf_strdup(const char *s);
char *tf_strndup(const char *s, size_t n);

#define TF_NALLOC(p, n) ((p) = tf_nalloc((n), sizeof *(p)))
#define TF_NREALLOC(p, n) ((p) = tf_nrealloc((p), (n), sizeof *(p)))

/* A growable array of T: `T *v; size_t n, cap;` fields named by prefix. */
#define TF_PUSH(v, n, cap, x)                                                  \
  do {                                                                         \
    if ((n) == (cap)) {                                                        \
      (cap) = (cap) ? 2 * (cap) : 8;                                           \
      TF_NREALLOC((v), (cap));                                                 \
    }                                                                          \
    (v)[(n)++] = (x);                                                          \
  } while (0)

#endif
