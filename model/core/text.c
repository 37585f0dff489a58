#define _GNU_SOURCE /* fopencookie */
#include "model/core/text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "model/core/alloc.h"

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

/* tf_text is a FILE * over a growing buffer.  Not open_memstream: glibc's
 * clears an 8 KiB buffer for every stream it opens, and a sweep opens
 * several per point (a tenth of a sweep's instructions went to that
 * memset).  A cookie stream's own buffer is allocated without clearing;
 * writes land in the cookie's buf, kept NUL-terminated, as open_memstream
 * keeps it.  The cookie is on the heap, not in the caller's tf_text: a
 * stream left open by a failed allocation (the rest of its call is lost)
 * is flushed at exit into memory that still exists. */
struct tf_text_buf {
  char *buf;
  size_t len, cap;
};

static ssize_t text_write(void *cookie, const char *data, size_t n) {
  struct tf_text_buf *t = cookie;
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + n + 1)
      cap *= 2;
    t->buf = tf_nrealloc(t->buf, cap, 1);
    t->cap = cap;
  }
  memcpy(t->buf + t->len, data, n);
  t->len += n;
  t->buf[t->len] = 0;
  return (ssize_t)n;
}

FILE *tf_text_open(tf_text *t) {
  t->b = tf_nalloc(1, sizeof *t->b);
  t->f = fopencookie(t->b, "w", (cookie_io_functions_t){NULL, text_write, NULL, NULL});
  if (!t->f)
    tf_out_of_memory(1, sizeof *t->f);
  return t->f;
}

char *tf_text_close(tf_text *t, size_t *len) {
  if (fclose(t->f)) /* only a failed write can fail it, and text_write does not fail */
    tf_out_of_memory(t->b->len, 1);
  char *text = t->b->buf ? t->b->buf : tf_nalloc(1, 1); /* nothing written: "", as open_memstream gives */
  if (len)
    *len = t->b->len;
  free(t->b);
  t->b = NULL;
  return text;
}

const char *tf_text_peek(tf_text *t, size_t *len) {
  fflush(t->f); /* text_write does not fail */
  *len = t->b->len;
  return t->b->buf ? t->b->buf : "";
}

size_t tf_utf8_char(const char *s, size_t avail) {
  const unsigned char *u = (const unsigned char *)s;
  if (!avail)
    return 0;
  if (u[0] < 0x80)
    return 1;
  size_t len = u[0] >= 0xc2 && u[0] <= 0xdf   ? 2
               : u[0] >= 0xe0 && u[0] <= 0xef ? 3
               : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4
                                              : 0;
  if (!len || len > avail)
    return 0;
  unsigned char lo = u[0] == 0xe0 ? 0xa0 : u[0] == 0xf0 ? 0x90 : 0x80; /* no overlong forms */
  unsigned char hi = u[0] == 0xed ? 0x9f : u[0] == 0xf4 ? 0x8f : 0xbf; /* no surrogates, nothing past U+10FFFF */
  if (u[1] < lo || u[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (u[i] < 0x80 || u[i] > 0xbf)
      return 0;
  return len;
}

size_t tf_escape_put(char *buf, size_t size, size_t *n, const char *s) {
  size_t left = strlen(s), used = 0;
  while (left && *n + 1 < size) {
    unsigned char c = (unsigned char)s[used];
    size_t k = tf_utf8_char(s + used, left);
    char esc[8];
    const char *out = s + used;
    size_t w = k;
    if (!k || c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof esc, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\x%02x", c);
      out = esc;
      k = 1;
      w = strlen(esc);
    }
    if (*n + w >= size)
      break;
    memcpy(buf + *n, out, w);
    *n += w;
    used += k;
    left -= k;
  }
  if (size)
    buf[*n] = 0;
  return used;
}

const char *tf_escape(char *buf, size_t size, const char *s) {
  size_t n = 0;
  if (size < 4) {
    if (size)
      buf[0] = 0;
    return buf;
  }
  if (tf_escape_put(buf, size - 3, &n, s) < strlen(s))
    memcpy(buf + n, "...", 4);
  return buf;
}

const char *tf_text_unfit(const char *s, size_t max) {
  size_t n = strlen(s);
  if (n > max)
    return "is too long";
  for (size_t i = 0, k; i < n; i += k) {
    if (!(k = tf_utf8_char(s + i, n - i)))
      return "is not valid UTF-8";
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
      return "holds a control character";
  }
  return NULL;
}

void tf_copy_text(char *dst, size_t size, const char *src) {
  if (!size)
    return;
  size_t n = strlen(src);
  if (n >= size) {
    n = size - 1;
    while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80) /* src[n] continues a character: cut before it */
      n--;
  }
  memcpy(dst, src, n);
  dst[n] = 0;
}
