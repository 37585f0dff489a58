#include "model/core/json_out.h"

#include <math.h>
#include <string.h>

#include "model/core/text.h"

/* The bytes of a member's start ([,]"key":) and a short value that go out in one fwrite. */
#define TF_JSON_OUT_MEMBER 256

void tf_json_out_init(tf_json_out *w, FILE *f) {
  memset(w, 0, sizeof *w);
  w->f = f;
  w->kind[0] = 't'; /* the top level: one value per record */
}

void tf_json_out_inside(tf_json_out *w, FILE *f, int kind, int before) {
  tf_json_out_init(w, f);
  w->depth = w->floor = 1;
  w->kind[1] = kind == TF_JSON_OUT_ARRAY ? 'a' : 'o';
  w->count[1] = before != 0;
}

/* How many of the len bytes at s need no escape: no quote, backslash or
 * control character, valid UTF-8 (s[len] is where the string ends). */
static size_t plain_run(const char *s, size_t len) {
  size_t n = 0, k;
  while (n < len) {
    unsigned char c = (unsigned char)s[n];
    if (c == '"' || c == '\\' || c < 0x20 || !(k = c < 0x80 ? 1 : tf_utf8_char(s + n, len - n)))
      break;
    n += k;
  }
  return n;
}

const char *tf_json_out_error(const tf_json_out *w) { return w->error; }

static int misuse(tf_json_out *w, const char *what) {
  if (!w->error)
    w->error = what;
  return -1;
}

/* Whether a value may go here, writing the comma before it where one is
 * due: after its key in an object, anywhere in an array, once at the top. */
static int value_starts(tf_json_out *w) {
  if (w->error)
    return -1;
  char k = w->kind[w->depth];
  if (k == 'o') {
    if (!w->key)
      return misuse(w, "a value in an object without its key");
    w->key = 0;
    return 0;
  }
  if (w->count[w->depth] && k == 't')
    return misuse(w, "a second value at the top level of a record");
  if (w->count[w->depth])
    fputs(k == 'l' ? ",\n" : ",", w->f);
  w->count[w->depth] = 1;
  return 0;
}

static void open_value(tf_json_out *w, char kind) {
  if (w->depth >= TF_JSON_OUT_DEPTH && !w->error)
    misuse(w, "JSON nested deeper than TF_JSON_OUT_DEPTH");
  if (value_starts(w))
    return;
  fputs(kind == 'o' ? "{" : kind == 'l' ? "[\n" : "[", w->f);
  w->depth++;
  w->kind[w->depth] = kind;
  w->count[w->depth] = 0;
}

void tf_json_out_object(tf_json_out *w) { open_value(w, 'o'); }

void tf_json_out_array(tf_json_out *w) { open_value(w, 'a'); }

void tf_json_out_array_lines(tf_json_out *w) { open_value(w, 'l'); }

void tf_json_out_end(tf_json_out *w) {
  if (w->error)
    return;
  if (w->depth <= w->floor)
    misuse(w, "closing a value that is not open");
  else if (w->key)
    misuse(w, "closing an object after a key without its value");
  else {
    char k = w->kind[w->depth];
    fputs(k == 'o' ? "}" : k == 'l' && w->count[w->depth] ? "\n]" : "]", w->f);
    w->depth--;
  }
}

static void key_general(tf_json_out *w, const char *key) {
  if (w->error)
    return;
  if (w->kind[w->depth] != 'o')
    misuse(w, "a key outside an object");
  else if (w->key)
    misuse(w, "a key after a key");
  else {
    if (w->count[w->depth])
      fputc(',', w->f);
    w->count[w->depth] = 1;
    tf_json_write_string(w->f, key ? key : "");
    fputc(':', w->f);
    w->key = 1;
  }
}

/* The fast paths of a member ("key":value written with one fwrite) hold
 * where no misuse can be: in an object, no key pending, no error.  Where
 * one could be, or a string needs an escape or is long, the general calls
 * below write it, byte for byte as the fast path would. */
static int member_ok(const tf_json_out *w) { return !w->error && w->kind[w->depth] == 'o' && !w->key; }

/* Appends "s" to buf (at *n, of size bytes) when s needs no escape and
 * fits; 0 (buf unchanged) otherwise. */
static int append_plain(char *buf, size_t size, size_t *n, const char *s) {
  size_t len = strlen(s);
  if (*n + len + 2 > size || plain_run(s, len) != len)
    return 0;
  buf[*n] = '"';
  memcpy(buf + *n + 1, s, len);
  buf[*n + len + 1] = '"';
  *n += len + 2;
  return 1;
}

/* A member's start, [,]"key":, into buf; 0 when the general path must write it. */
static size_t member_head(const tf_json_out *w, char *buf, size_t size, const char *key) {
  size_t n = 0;
  if (w->count[w->depth])
    buf[n++] = ',';
  if (!key || !append_plain(buf, size - 1, &n, key))
    return 0;
  buf[n++] = ':';
  return n;
}

/* v in decimal at buf (24 bytes at least), as "%lld" writes it; its length. */
static size_t format_int(char *buf, int64_t v) {
  char digits[24];
  size_t nd = 0, n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; /* INT64_MIN too */
  do
    digits[nd++] = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    buf[n++] = '-';
  while (nd)
    buf[n++] = digits[--nd];
  return n;
}

void tf_json_out_key(tf_json_out *w, const char *key) {
  char buf[TF_JSON_OUT_MEMBER];
  size_t n = member_ok(w) ? member_head(w, buf, sizeof buf, key) : 0;
  if (n) {
    w->count[w->depth] = 1;
    w->key = 1;
    fwrite(buf, 1, n, w->f);
  } else
    key_general(w, key);
}

void tf_json_out_string(tf_json_out *w, const char *s) {
  if (!s)
    tf_json_out_null(w);
  else if (!value_starts(w))
    tf_json_write_string(w->f, s);
}

void tf_json_out_int(tf_json_out *w, int64_t v) {
  char buf[24];
  if (!value_starts(w))
    fwrite(buf, 1, format_int(buf, v), w->f);
}

void tf_json_out_bool(tf_json_out *w, int v) {
  if (!value_starts(w))
    fputs(v ? "true" : "false", w->f);
}

void tf_json_out_null(tf_json_out *w) {
  if (!value_starts(w))
    fputs("null", w->f);
}

void tf_json_out_double(tf_json_out *w, double v) {
  if (!isfinite(v))
    tf_json_out_null(w);
  else if (!value_starts(w))
    fprintf(w->f, "%.17g", v);
}

void tf_json_out_fixed(tf_json_out *w, double v, int places) {
  if (!isfinite(v))
    tf_json_out_null(w);
  else if (!value_starts(w))
    fprintf(w->f, "%.*f", places, v);
}

void tf_json_out_raw(tf_json_out *w, const char *json, size_t n) {
  if (!value_starts(w))
    fwrite(json, 1, n, w->f);
}

void tf_json_out_key_string(tf_json_out *w, const char *key, const char *s) {
  char buf[TF_JSON_OUT_MEMBER];
  size_t n = member_ok(w) && s ? member_head(w, buf, sizeof buf, key) : 0;
  if (n && append_plain(buf, sizeof buf, &n, s)) {
    w->count[w->depth] = 1;
    fwrite(buf, 1, n, w->f);
    return;
  }
  tf_json_out_key(w, key);
  tf_json_out_string(w, s);
}

void tf_json_out_key_int(tf_json_out *w, const char *key, int64_t v) {
  char buf[TF_JSON_OUT_MEMBER + 24];
  size_t n = member_ok(w) ? member_head(w, buf, TF_JSON_OUT_MEMBER, key) : 0;
  if (n) {
    w->count[w->depth] = 1;
    fwrite(buf, 1, n + format_int(buf + n, v), w->f);
    return;
  }
  tf_json_out_key(w, key);
  tf_json_out_int(w, v);
}

void tf_json_out_key_bool(tf_json_out *w, const char *key, int v) {
  tf_json_out_key(w, key);
  tf_json_out_bool(w, v);
}

void tf_json_out_key_object(tf_json_out *w, const char *key) {
  tf_json_out_key(w, key);
  tf_json_out_object(w);
}

void tf_json_out_key_array(tf_json_out *w, const char *key) {
  tf_json_out_key(w, key);
  tf_json_out_array(w);
}

void tf_json_out_key_array_lines(tf_json_out *w, const char *key) {
  tf_json_out_key(w, key);
  tf_json_out_array_lines(w);
}

void tf_json_out_line(tf_json_out *w) {
  if (w->error)
    return;
  if (w->depth != 0 || !w->count[0])
    misuse(w, "a record ends before its value does");
  else {
    fputc('\n', w->f);
    w->count[0] = 0;
  }
}

/* Runs of characters that need no escape go out in one fwrite (a sweep
 * writes every name of every point); s's length is taken once. */
void tf_json_write_string(FILE *f, const char *s) {
  size_t len = strlen(s);
  fputc('"', f);
  while (len) {
    size_t n = plain_run(s, len);
    fwrite(s, 1, n, f);
    s += n;
    len -= n;
    if (!len)
      break;
    unsigned char c = (unsigned char)*s++;
    len--;
    if (c >= 0x80) /* not UTF-8 (a device name from a driver, say): JSON must be */
      fputs("\\ufffd", f);
    else if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c == '\t')
      fputs("\\t", f);
    else
      fprintf(f, "\\u%04x", c);
  }
  fputc('"', f);
}
