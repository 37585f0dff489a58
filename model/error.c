#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tf_error_init(tf_error *err) { memset(err, 0, sizeof *err); }

int tf_error_set(tf_error *err, int code, const char *path, const char *fmt, ...) {
  if (!err || err->code != TF_OK)
    return -1;
  err->code = code;
  snprintf(err->path, sizeof err->path, "%s", path ? path : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
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

/* Appends s at buf[*n] with control characters escaped ("\n", "\t",
 * "\x07"): a key or name read from input may hold a raw newline, and an
 * error must stay one line.  Stops short rather than split an escape. */
static void put_escaped(char *buf, size_t size, size_t *n, const char *s) {
  for (; *s && *n + 1 < size; s++) {
    unsigned char c = (unsigned char)*s;
    char esc[8] = {(char)c, 0};
    if (c < 0x20 || c == 0x7f)
      snprintf(esc, sizeof esc, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\x%02x", c);
    size_t k = strlen(esc);
    if (*n + k >= size)
      break;
    memcpy(buf + *n, esc, k);
    *n += k;
  }
  buf[*n] = 0;
}

void tf_error_format(const tf_error *err, char *buf, size_t size) {
  size_t n = 0;
  if (!size)
    return;
  buf[0] = 0;
  put_escaped(buf, size, &n, err->file);
  put_escaped(buf, size, &n, err->file[0] ? ": " : "");
  put_escaped(buf, size, &n, err->path);
  put_escaped(buf, size, &n, err->path[0] ? ": " : "");
  put_escaped(buf, size, &n, err->msg);
}
