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

/* A path, or "@KEY": the field or option err->at. */
static void store_path(tf_error *err, const char *path) {
  if (path && path[0] == '@') {
    snprintf(err->at, sizeof err->at, "%s", path + 1);
    err->path[0] = 0;
  } else {
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
  }
}

int tf_error_set(tf_error *err, int code, const char *path, const char *fmt, ...) {
  if (!err || err->code != TF_OK)
    return -1;
  err->code = code;
  store_path(err, path);
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
  if (err && !err->path[0] && !err->at[0] && path)
    store_path(err, path);
}

void tf_error_set_at(tf_error *err, const char *key) {
  if (err && !err->at[0] && key)
    snprintf(err->at, sizeof err->at, "%s", key);
}

/* key's spelling, or the key itself */
static const char *spelled(tf_error_speller spell, const char *key, char *buf, size_t size) {
  const char *s = spell ? spell(key, buf, size) : NULL;
  return s ? s : key;
}

void tf_error_spell(tf_error *err, tf_error_speller spell) {
  char buf[64], out[sizeof err->msg];
  if (!err->path[0] && err->at[0])
    snprintf(err->path, sizeof err->path, "%s", spelled(spell, err->at, buf, sizeof buf));
  tf_strbuf b = tf_strbuf_of(out, sizeof out);
  for (const char *s = err->msg; *s;) {
    const char *open = strstr(s, "@{"), *close = open ? strchr(open, '}') : NULL;
    if (!close || close - open - 2 >= (long)sizeof buf) {
      tf_strbuf_item(&b, "", "%s", s);
      break;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(close - open - 2), open + 2);
    tf_strbuf_item(&b, "", "%.*s%s", (int)(open - s), s, spelled(spell, key, buf, sizeof buf));
    s = close + 1;
  }
  snprintf(err->msg, sizeof err->msg, "%s", out);
  utf8_trim(err->msg);
}

void tf_error_format(const tf_error *in, char *buf, size_t size) {
  size_t n = 0;
  if (!size)
    return;
  buf[0] = 0;
  tf_error spelt = *in; /* named fields no front end spelled: their keys */
  tf_error_spell(&spelt, NULL);
  const tf_error *err = &spelt;
  tf_escape_put(buf, size, &n, err->file);
  tf_escape_put(buf, size, &n, err->file[0] ? ": " : "");
  tf_escape_put(buf, size, &n, err->path);
  tf_escape_put(buf, size, &n, err->path[0] ? ": " : "");
  tf_escape_put(buf, size, &n, err->msg);
}
