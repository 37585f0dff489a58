#include "model/core/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local jmp_buf *recovery; /* per thread, set and restored by tf_alloc_recovery */

jmp_buf *tf_alloc_recovery(jmp_buf *j) {
  jmp_buf *old = recovery;
  recovery = j;
  return old;
}

void tf_out_of_memory(size_t n, size_t size) {
  if (recovery)
    longjmp(*recovery, 1);
  if (n || size)
    fprintf(stderr, "tilefit: error: out of memory allocating %zu x %zu bytes\n", n, size);
  else /* passed on by tf_alloc_guarded: the size was the inner failure's */
    fputs("tilefit: error: out of memory\n", stderr);
  exit(3); /* TF_EXIT_INTERNAL: a failure, not a crash */
}

int tf_alloc_try(void *(*body)(void *), void *arg, void **result) {
  jmp_buf here;
  jmp_buf *outer = tf_alloc_recovery(&here);
  if (setjmp(here)) { /* only `outer`, unchanged since setjmp, is read here */
    tf_alloc_recovery(outer);
    return -1;
  }
  *result = body(arg);
  tf_alloc_recovery(outer);
  return 0;
}

void *tf_alloc_guarded(void *(*body)(void *), void (*undo)(void *), void *arg) {
  void *result = NULL;
  if (tf_alloc_try(body, arg, &result)) {
    undo(arg);
    tf_out_of_memory(0, 0); /* on to the caller's recovery point */
  }
  return result;
}

void *tf_nalloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    tf_out_of_memory(n, size);
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    tf_out_of_memory(n, size);
  return p;
}

void *tf_nrealloc(void *p, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    tf_out_of_memory(n, size);
  void *q = realloc(p, (n ? n : 1) * (size ? size : 1));
  if (!q)
    tf_out_of_memory(n, size);
  return q;
}

char *tf_strndup(const char *s, size_t n) {
  char *d = tf_nalloc(n + 1, 1);
  memcpy(d, s, n);
  return d;
}

char *tf_strdup(const char *s) { return tf_strndup(s, strlen(s)); }
