#include "model/core/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void tf_line_reader_init(tf_line_reader *r, FILE *f) {
  memset(r, 0, sizeof *r);
  r->f = f;
}

void tf_line_reader_release(tf_line_reader *r) {
  free(r->buf);
  r->buf = NULL;
  r->cap = 0;
}

static int too_long(size_t lineno, tf_error *err) {
  return tf_error_set(err, TF_EINPUT, NULL, "line %zu: longer than %u bytes (the longest line tilefit reads)", lineno,
                      TF_MAX_LINE_BYTES);
}

/* Room for at least `need` bytes; the buffer never exceeds the limit (+2:
 * the byte that shows a line is too long, and the NUL). */
static int grow(tf_line_reader *r, size_t need, tf_error *err) {
  if (need <= r->cap)
    return 0;
  size_t cap = r->cap ? 2 * r->cap : 4096;
  if (cap < need)
    cap = need;
  if (cap > TF_MAX_LINE_BYTES + 2)
    cap = TF_MAX_LINE_BYTES + 2;
  char *b = realloc(r->buf, cap);
  if (!b)
    return tf_error_set(err, TF_ENOMEM, NULL, "out of memory reading line %zu (%zu bytes)", r->lineno, cap);
  r->buf = b;
  r->cap = cap;
  return 0;
}

int tf_line_read(tf_line_reader *r, const char **line, size_t *len, tf_error *err) {
  size_t n = 0;
  r->lineno++;
  for (;;) {
    if (grow(r, n + 2, err))
      return -1;
    int c = getc_unlocked(r->f); /* one reader per FILE */
    if (c == EOF)
      break;
    r->buf[n++] = (char)c;
    if (c == '\n')
      break;
    if (n > TF_MAX_LINE_BYTES)
      return too_long(r->lineno, err);
  }
  if (ferror(r->f))
    return tf_error_set(err, TF_EINPUT, NULL, "cannot read: %s", strerror(errno ? errno : EIO));
  if (!n)
    return 0;
  r->buf[n] = 0;
  *line = r->buf;
  *len = n;
  return 1;
}

int tf_line_in_text(const char *text, const char *end, size_t lineno, size_t *len, tf_error *err) {
  const char *nl = memchr(text, '\n', (size_t)(end - text));
  *len = nl ? (size_t)(nl - text) + 1 : (size_t)(end - text);
  return *len - (nl != NULL) > TF_MAX_LINE_BYTES ? too_long(lineno, err) : 0;
}
