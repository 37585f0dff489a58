#include "text.h"

#include <stdarg.h>
#include <stdlib.h>

tf_strbuf tf_strbuf_of(char *buf, size_t size) {
  buf[0] = 0;
  return (tf_strbuf){buf, size, 0};
}

static void append(tf_strbuf *b, const char *fmt, va_list ap) {
  size_t room = b->size - b->len; /* >= 1: len <= size - 1 */
  int n = vsnprintf(b->buf + b->len, room, fmt, ap);
  if (n > 0)
    b->len += (size_t)n < room ? (size_t)n : room - 1;
}

void tf_strbuf_printf(tf_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  append(b, fmt, ap);
  va_end(ap);
}

void tf_strbuf_put(tf_strbuf *b, const char *s) {
  for (; *s && b->len + 1 < b->size; s++)
    b->buf[b->len++] = *s;
  b->buf[b->len] = 0;
}

void tf_strbuf_put_int(tf_strbuf *b, int64_t v) {
  char digits[24], *d = digits + sizeof digits;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; /* INT64_MIN has no positive int64 */
  *--d = 0;
  do
    *--d = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--d = '-';
  tf_strbuf_put(b, d);
}

void tf_strbuf_item(tf_strbuf *b, const char *sep, const char *fmt, ...) {
  if (b->len)
    tf_strbuf_printf(b, "%s", sep);
  va_list ap;
  va_start(ap, fmt);
  append(b, fmt, ap);
  va_end(ap);
}

FILE *tf_text_open(tf_text *t) {
  t->buf = NULL;
  t->len = 0;
  t->f = open_memstream(&t->buf, &t->len);
  if (!t->f)
    abort(); /* out of memory, as tf_nalloc */
  return t->f;
}

char *tf_text_close(tf_text *t, size_t *len) {
  if (fclose(t->f))
    abort();
  if (len)
    *len = t->len;
  return t->buf;
}
