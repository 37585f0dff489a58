#include "model/core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/core/text.h"

void tf_error_init(tf_error *err) { memset(err, 0, sizeof *err); }

/* A text cut by its buffer ends with a whole character, never half of one. */
static void utf8_trim(char *s) {
  size_t n = strlen(s), i = n;
  while (i > 0 && n - i < 3 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
    i--;
  if (i > 0 && (unsigned char)s[i - 1] >= 0xc0 && !tf_utf8_char(s + i - 1, n - i + 1))
    s[i - 1] = 0;
}

int tf_error_set(tf_error *err, int code, const char *path, const char *fmt, ...) {
  if (!err || err->code != TF_OK)
    return -1;
  err->code = code;
  snprintf(err->path, sizeof err->path, "%s", path ? path : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  utf8_trim(err->path);
  utf8_trim(err->msg);
  return -1;
}

void tf_error_set_file(tf_error *err, const char *file) {
  if (err && !err->file[0] && file)
    snprintf(err->file, sizeof err->file, "%s", file);
}

void tf_error_set_path(tf_error *err, const char *path) {
  if (err && !err->path[0] && path)
    snprintf(err->path, sizeof err->path, "%s", path);
}

void tf_error_format(const tf_error *err, char *buf, size_t size) {
  size_t n = 0;
  if (!size)
    return;
  buf[0] = 0;
  tf_escape_put(buf, size, &n, err->file);
  tf_escape_put(buf, size, &n, err->file[0] ? ": " : "");
  tf_escape_put(buf, size, &n, err->path);
  tf_escape_put(buf, size, &n, err->path[0] ? ": " : "");
  tf_escape_put(buf, size, &n, err->msg);
}
