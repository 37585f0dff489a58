#include "model/core/json_out.h"

#include <math.h>
#include <string.h>

#include "model/core/text.h"

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

void tf_json_out_key(tf_json_out *w, const char *key) {
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

void tf_json_out_string(tf_json_out *w, const char *s) {
  if (!s)
    tf_json_out_null(w);
  else if (!value_starts(w))
    tf_json_write_string(w->f, s);
}

void tf_json_out_int(tf_json_out *w, int64_t v) {
  if (!value_starts(w))
    fprintf(w->f, "%lld", (long long)v);
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
  tf_json_out_key(w, key);
  tf_json_out_string(w, s);
}

void tf_json_out_key_int(tf_json_out *w, const char *key, int64_t v) {
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
 * writes every name of every point). */
void tf_json_write_string(FILE *f, const char *s) {
  fputc('"', f);
  while (*s) {
    size_t n = 0;
    size_t k;
    while (s[n] && s[n] != '"' && s[n] != '\\' && (unsigned char)s[n] >= 0x20 &&
           (k = tf_utf8_char(s + n, strlen(s + n))))
      n += k;
    fwrite(s, 1, n, f);
    s += n;
    if (!*s)
      break;
    unsigned char c = (unsigned char)*s++;
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
