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

void tf_error_format(const tf_error *err, char *buf, size_t size) {
  snprintf(buf, size, "%s%s%s%s%s", err->file, err->file[0] ? ": " : "", err->path,
           err->path[0] ? ": " : "", err->msg);
}
