/* One allocation module, as in kissat: sizes are overflow-checked and
 * callers never test for NULL.  An allocation that fails never aborts:
 * in a thread that set a recovery point (tf_call_json does, for its
 * calling thread) it jumps back there, and that call answers "out of
 * memory" with status 3; elsewhere (the command line) it prints one line
 * and exits 3.  Running out of memory is not an input error. */
#ifndef TF_MODEL_ALLOC_H
#define TF_MODEL_ALLOC_H

#include <stddef.h>

#include <setjmp.h>

void *tf_nalloc(size_t n, size_t size); /* zeroed */

/* The calling thread's recovery point for a failed allocation (NULL:
 * none); returns the one it replaces.  What was allocated since is lost. */
jmp_buf *tf_alloc_recovery(jmp_buf *j);

/* What a failed allocation does (above); for memory taken by other means
 * (a stdio stream).  Does not return. */
void tf_out_of_memory(size_t n, size_t size);

/* Runs body(arg) under a recovery point of its own, for code that
 * allocates while it holds something another thread waits for (a lock, a
 * memo entry being computed): when an allocation in it fails, undo(arg)
 * releases that, and the failure goes on to the caller's recovery point
 * (or ends the process, as above).  Returns what body returns. */
void *tf_alloc_guarded(void *(*body)(void *), void (*undo)(void *), void *arg);

/* Runs body(arg) under a recovery point of its own and stops a failed
 * allocation there: 0 with *result, or -1 when one failed (what body had
 * allocated is lost).  For a thread's top level (a sweep worker). */
int tf_alloc_try(void *(*body)(void *), void *arg, void **result);
void *tf_nrealloc(void *p, size_t n, size_t size);
char *tf_strdup(const char *s);
char *tf_strndup(const char *s, size_t n);

#define TF_NALLOC(p, n) ((p) = tf_nalloc((n), sizeof *(p)))
#define TF_NREALLOC(p, n) ((p) = tf_nrealloc((p), (n), sizeof *(p)))

/* A growable array of T: `T *v; size_t n, cap;` fields named by prefix. */
#define TF_PUSH(v, n, cap, x)        \
  do {                               \
    if ((n) == (cap)) {              \
      (cap) = (cap) ? 2 * (cap) : 8; \
      TF_NREALLOC((v), (cap));       \
    }                                \
    (v)[(n)++] = (x);                \
  } while (0)

#endif
