#include "model/core/json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/core/alloc.h"
#include "model/core/lines.h"
#include "model/core/names.h"
#include "model/core/suggest.h"
#include "model/core/text.h"

char *tf_read_file(const char *file, size_t *len, tf_error *err) {
  return tf_read_file_limit(file, TF_MAX_FILE_BYTES, len, err);
}

/* "-" is standard input, wherever a file is read (the command line lets
 * one argument name it); it is not closed. */
static FILE *open_input(const char *file, const char *mode) { return strcmp(file, "-") ? fopen(file, mode) : stdin; }

static void close_input(FILE *f) {
  if (f != stdin)
    fclose(f);
}

static char *read_error(const char *file, int e, tf_error *err) {
  tf_error_set(err, TF_EINPUT, NULL, "cannot read: %s", strerror(e));
  tf_error_set_file(err, file);
  return NULL;
}

/* All of f, at most max bytes (0: no limit); f is closed (unless stdin). */
static char *read_stream(FILE *f, const char *file, size_t max, size_t *len, tf_error *err) {
  size_t cap = 4096, n = 0;
  char *buf = tf_nalloc(cap + 1, 1);
  for (;;) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (max && n > max) {
      close_input(f);
      free(buf);
      tf_error_set(err, TF_EINPUT, NULL, "file larger than %zu bytes", max);
      tf_error_set_file(err, file);
      return NULL;
    }
    if (got == 0)
      break;
    if (n == cap) {
      cap *= 2;
      buf = tf_nrealloc(buf, cap + 1, 1);
    }
  }
  int bad = ferror(f);
  close_input(f);
  if (bad) {
    free(buf);
    return read_error(file, errno ? errno : EIO, err);
  }
  buf[n] = 0;
  if (len)
    *len = n;
  return buf;
}

char *tf_read_file_limit(const char *file, size_t max, size_t *len, tf_error *err) {
  FILE *f = open_input(file, "rb");
  if (!f)
    return read_error(file, errno, err);
  return read_stream(f, file, max, len, err);
}

/* What a file that is not regular is, for the message. */
static const char *file_kind(mode_t mode) {
  return S_ISFIFO(mode)                   ? "a FIFO"
         : S_ISDIR(mode)                  ? "a directory"
         : S_ISSOCK(mode)                 ? "a socket"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                                          : "not a regular file";
}

char *tf_read_regular_file(const char *file, size_t *len, tf_error *err) {
  /* O_NONBLOCK: opening a FIFO without a writer returns at once instead
   * of waiting for one; fstat then says what was opened */
  int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return read_error(file, errno, err);
  struct stat st;
  if (fstat(fd, &st)) {
    int e = errno;
    close(fd);
    return read_error(file, e, err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    tf_error_set(err, TF_EINPUT, NULL, "cannot read: %s, not a regular file", file_kind(st.st_mode));
    tf_error_set_file(err, file);
    return NULL;
  }
  FILE *f = fcntl(fd, F_SETFL, 0) ? NULL : fdopen(fd, "rb");
  if (!f) {
    int e = errno;
    close(fd);
    return read_error(file, e, err);
  }
  return read_stream(f, file, TF_MAX_FILE_BYTES, len, err);
}

int tf_jsonl_each_text(const char *text, size_t len, tf_line_fn fn, void *ctx, tf_error *err) {
  size_t lineno = 0;
  for (const char *s = text, *end = text + len; s < end;) {
    size_t n;
    if (tf_line_in_text(s, end, ++lineno, &n, err))
      return -1;
    char *line = tf_strndup(s, n);
    int rc = line[strspn(line, " \t\r\n")] ? fn(ctx, line, n, lineno, err) : 0;
    free(line);
    if (rc)
      return rc;
    s += n;
  }
  return 0;
}

int tf_jsonl_each(const char *file, tf_line_fn fn, void *ctx, tf_error *err) {
  FILE *f = open_input(file, "r");
  if (!f) {
    tf_error_set(err, TF_EINPUT, NULL, "cannot read: %s", strerror(errno));
    tf_error_set_file(err, file);
    return -1;
  }
  tf_line_reader r;
  tf_line_reader_init(&r, f);
  const char *line;
  size_t len;
  int rc = 0, got;
  errno = 0;
  while (!rc && (got = tf_line_read(&r, &line, &len, err)) > 0)
    if (line[strspn(line, " \t\r\n")])
      rc = fn(ctx, line, len, r.lineno, err);
  if (!rc && got < 0) { /* too long, a directory, a read error, no memory: never an end of file */
    rc = -1;
    tf_error_set_file(err, file);
  }
  tf_line_reader_release(&r);
  close_input(f);
  return rc;
}

static void offset_to_line(const char *text, size_t off, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* Marks, per member of an object, whether its key appears again later.
 * A small object is scanned pair by pair (at most 16 x 16 compares); a
 * larger one through a hash table of the keys seen, linear in its size. */
static unsigned char *later_repeats(const cJSON *node, size_t n, unsigned char small[16]) {
  unsigned char *repeated = n <= 16 ? memset(small, 0, 16) : tf_nalloc(n + 1, 1);
  size_t i = 0;
  if (n <= 16) {
    for (const cJSON *a = node->child; a; a = a->next, i++)
      for (const cJSON *b = a->next; b && !repeated[i]; b = b->next)
        repeated[i] = a->string && b->string && !strcmp(a->string, b->string);
    return repeated;
  }
  tf_names seen = {0};
  for (const cJSON *a = node->child; a; a = a->next, i++) {
    int first = a->string ? tf_names_get(&seen, a->string) : -1;
    if (first >= 0)
      repeated[first] = 1;
    else if (a->string)
      tf_names_put(&seen, a->string, (int)i);
  }
  tf_names_release(&seen);
  return repeated;
}

/* Where a node is, as a chain up to the root ("$"): formatted only when an
 * error names it, never for the nodes that are fine. */
struct where {
  const struct where *up;
  const char *key; /* NULL: an array element */
  size_t index;
};

static void where_text(const struct where *w, char *buf, size_t size) {
  if (!w->up) {
    snprintf(buf, size, "$");
    return;
  }
  char parent[160];
  where_text(w->up, parent, sizeof parent);
  if (w->key)
    tf_path_key(buf, size, parent, w->key);
  else
    tf_path_index(buf, size, parent, w->index);
}

static int duplicate_key(const struct where *w, const char *key, tf_error *err) {
  char path[160];
  where_text(w, path, sizeof path);
  return tf_error_set(err, TF_EINPUT, path, "duplicate key '%s'", key);
}

/* cJSON keeps the last of two equal keys silently; a person who wrote both
 * meant something, so the loader refuses the file.  The first member whose
 * key repeats is named, after what lies before it has been checked. */
static int reject_duplicates(const cJSON *node, const struct where *w, tf_error *err) {
  int object = cJSON_IsObject(node);
  if (!object && !cJSON_IsArray(node))
    return 0;
  size_t n = 0;
  for (const cJSON *a = node->child; a; a = a->next)
    n++;
  unsigned char small[16];
  unsigned char *repeated = object ? later_repeats(node, n, small) : NULL;
  size_t i = 0;
  int rc = 0;
  for (const cJSON *a = node->child; a && !rc; a = a->next, i++) {
    struct where sub = {w, object ? (a->string ? a->string : "?") : NULL, i};
    rc = object && repeated[i] ? duplicate_key(w, a->string, err) : reject_duplicates(a, &sub, err);
  }
  if (repeated != small)
    free(repeated);
  return rc;
}

/* cJSON reports where it gave up, which for input cut short is its last
 * character; a string or bracket still open at the end says more. */
static int ends_early(const char *text, size_t len) {
  int depth = 0, in_string = 0, escaped = 0, content = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = 0;
      else if (c == '\\')
        escaped = 1;
      else if (c == '"')
        in_string = 0;
      continue;
    }
    if (c == '"')
      in_string = 1;
    else if (c == '{' || c == '[')
      depth++;
    else if (c == '}' || c == ']')
      depth--;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      content = 1;
  }
  return in_string || depth > 0 || !content;
}

/* A number token starts here when the character before it cannot be part
 * of a number. */
static int number_starts(const char *text, size_t i) {
  char c = text[i], b = i ? text[i - 1] : ' ';
  return (c == '-' || (c >= '0' && c <= '9')) &&
         !(b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E' || (b >= '0' && b <= '9'));
}

/* What cJSON lets through: a number with a leading zero ("007": -1 and
 * its offset in *at) and \u0000 escapes, which would cut a C string
 * ("stages >= 1\u0000 && ..." read as "stages >= 1"): counted in *nuls and,
 * when `copy` is a copy of the text, replaced there by \uFFFF. */
static int scan_text(const char *text, size_t len, size_t *at, size_t *nuls, char *copy) {
  int in_string = 0;
  *nuls = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (in_string) {
      if (c == '"')
        in_string = 0;
      else if (c == '\\' && i + 1 < len) {
        if (i + 5 < len && text[i + 1] == 'u' && !memcmp(text + i + 2, "0000", 4) && ++*nuls && copy)
          memcpy(copy + i + 2, "FFFF", 4);
        i++;
      }
      continue;
    }
    if (c == '"')
      in_string = 1;
    else if (number_starts(text, i)) {
      size_t d = c == '-' ? i + 1 : i;
      if (d + 1 < len && text[d] == '0' && text[d + 1] >= '0' && text[d + 1] <= '9')
        return *at = i, -1;
    }
  }
  return 0;
}

/* The first string or key holding U+FFFF, where a \u0000 escape was put
 * in its place (same length, so offsets stay) for cJSON to parse. */
static int reject_nul(const cJSON *node, const struct where *w, tf_error *err) {
  int key = node->string && strstr(node->string, "\xEF\xBF\xBF") && w->up; /* named by its object: the key cannot be */
  if (key || (cJSON_IsString(node) && strstr(node->valuestring, "\xEF\xBF\xBF"))) {
    char path[160];
    where_text(key ? w->up : w, path, sizeof path);
    return tf_error_set(err, TF_EINPUT, path, "a %s holds \\u0000 (NUL), which would cut it short",
                        key ? "key" : "string");
  }
  size_t i = 0;
  for (const cJSON *a = node->child; a; a = a->next, i++) {
    struct where sub = {w, cJSON_IsObject(node) ? (a->string ? a->string : "?") : NULL, i};
    if (reject_nul(a, &sub, err))
      return -1;
  }
  return 0;
}

static cJSON *parse_whole(const char *text, size_t len, const char *file, tf_error *err);

/* Deeply nested input would recurse in cJSON and in our walkers; cJSON
 * itself stops at CJSON_NESTING_LIMIT (1000). */
cJSON *tf_json_parse(const char *text, size_t len, const char *file, tf_error *err) {
  if (memchr(text, 0, len)) {
    tf_error_set(err, TF_EINPUT, NULL, "not JSON: contains a NUL byte");
    tf_error_set_file(err, file);
    return NULL;
  }
  size_t at, nuls;
  if (scan_text(text, len, &at, &nuls, NULL)) {
    int line, col;
    offset_to_line(text, at, &line, &col);
    tf_error_set(err, TF_EINPUT, NULL, "line %d, column %d: a number with a leading zero is not JSON", line, col);
    tf_error_set_file(err, file);
    return NULL;
  }
  char *patched = nuls ? tf_strndup(text, len) : NULL;
  if (patched) {
    scan_text(text, len, &at, &nuls, patched);
    text = patched;
  }
  cJSON *root = parse_whole(text, len, file, err);
  struct where top = {NULL, NULL, 0};
  if (root && (reject_duplicates(root, &top, err) || (patched && reject_nul(root, &top, err)))) {
    cJSON_Delete(root);
    tf_error_set_file(err, file);
    root = NULL;
  }
  free(patched);
  return root;
}

cJSON *tf_json_parse_line(const char *text, size_t len, const char *file, size_t line, tf_error *err) {
  tf_error e;
  tf_error_init(&e);
  cJSON *root = tf_json_parse(text, len, file, &e);
  if (root)
    return root;
  /* a syntax error carries no path; its position counts from the start of
   * `text`, which is line `line` of the file */
  int l = 0, col = 0, n = 0;
  if (!e.path[0] && sscanf(e.msg, "line %d, column %d: %n", &l, &col, &n) == 2 && n > 0 && l >= 1)
    tf_error_set(err, e.code, NULL, "line %zu, column %d: %s", line + (size_t)l - 1, col, e.msg + n);
  else
    tf_error_set(err, e.code, NULL, "line %zu: %s%s%s", line, e.path, e.path[0] ? ": " : "", e.msg);
  tf_error_set_file(err, file);
  return NULL;
}

/* cJSON's parse, with nothing but white space after the value. */
static cJSON *parse_whole(const char *text, size_t len, const char *file, tf_error *err) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (root) {
    const char *p = end;
    while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      p++;
    if (p < text + len) {
      int line, col;
      offset_to_line(text, (size_t)(p - text), &line, &col);
      cJSON_Delete(root);
      tf_error_set(err, TF_EINPUT, NULL, "line %d, column %d: trailing characters after the JSON value", line, col);
      tf_error_set_file(err, file);
      return NULL;
    }
  } else {
    int line, col;
    size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    offset_to_line(text, off, &line, &col);
    if (off >= len || ends_early(text, len))
      tf_error_set(err, TF_EINPUT, NULL, "line %d, column %d: malformed JSON (unexpected end of input)", line, col);
    else
      tf_error_set(err, TF_EINPUT, NULL, "line %d, column %d: malformed JSON", line, col);
    tf_error_set_file(err, file);
    return NULL;
  }
  return root;
}

cJSON *tf_json_load(const char *file, tf_error *err) {
  size_t len = 0;
  char *text = tf_read_file(file, &len, err);
  if (!text)
    return NULL;
  cJSON *root = tf_json_parse(text, len, file, err);
  free(text);
  return root;
}

const cJSON *tf_json_member(const cJSON *obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }

static int in_list(const char *s, const char *const *list) {
  for (; list && *list; list++)
    if (!strcmp(s, *list))
      return 1;
  return 0;
}

int tf_json_keys(const cJSON *obj, const char *path, const char *const *allowed, const char *const *required,
                 tf_error *err) {
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, path, "expected an object");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    if (!in_list(m->string, allowed)) {
      char sub[160];
      tf_path_key(sub, sizeof sub, path, m->string);
      size_t n = 0;
      while (allowed && allowed[n])
        n++;
      const char *near = tf_suggest(m->string, allowed, n);
      if (near)
        return tf_error_set(err, TF_EINPUT, sub, "unknown key '%s'; did you mean '%s'?", m->string, near);
      return tf_error_set(err, TF_EINPUT, sub, "unknown key '%s'", m->string);
    }
  }
  for (; required && *required; required++)
    if (!tf_json_member(obj, *required))
      return tf_error_set(err, TF_EINPUT, path, "missing required key '%s'", *required);
  return 0;
}

int tf_json_int(const cJSON *v, const char *path, int64_t lo, int64_t hi, int64_t *out, tf_error *err) {
  if (cJSON_IsBool(v)) /* true is not 1: a boolean where a number belongs is a mistake */
    return tf_error_set(err, TF_EINPUT, path, "expected an integer from %lld to %lld, got %s", (long long)lo,
                        (long long)hi, cJSON_IsTrue(v) ? "true" : "false");
  if (!cJSON_IsNumber(v))
    return tf_error_set(err, TF_EINPUT, path, "expected an integer from %lld to %lld", (long long)lo, (long long)hi);
  double d = v->valuedouble;
  if (!isfinite(d) || d != floor(d))
    return tf_error_set(err, TF_EINPUT, path, "expected an integer, got %.17g", d);
  /* 2^53 + 1 reads as the double 2^53: from 2^53 on, what was written may
   * not be what was read, so the bound is exclusive. */
  if (fabs(d) >= (double)TF_JSON_EXACT)
    return tf_error_set(err, TF_EINPUT, path, "integer %.17g is at or beyond 2^53, where JSON numbers stop being exact",
                        d);
  int64_t x = (int64_t)d;
  if (x < lo || x > hi)
    return tf_error_set(err, TF_EINPUT, path, "expected an integer from %lld to %lld, got %lld", (long long)lo,
                        (long long)hi, (long long)x);
  *out = x;
  return 0;
}

int tf_json_string(const cJSON *v, const char *path, const char **out, tf_error *err) {
  if (!cJSON_IsString(v) || !v->valuestring)
    return tf_error_set(err, TF_EINPUT, path, "expected a string");
  *out = v->valuestring;
  return 0;
}

/* With tf_strbuf_put, not printf: a path is built for every member read. */
void tf_path_key(char *buf, size_t size, const char *parent, const char *key) {
  tf_strbuf b = {buf, size, 0};
  tf_strbuf_put(&b, parent);
  tf_strbuf_put(&b, ".");
  tf_strbuf_put(&b, key);
}

void tf_path_index(char *buf, size_t size, const char *parent, size_t index) {
  tf_strbuf b = {buf, size, 0};
  tf_strbuf_put(&b, parent);
  tf_strbuf_put(&b, "[");
  tf_strbuf_put_int(&b, (int64_t)index);
  tf_strbuf_put(&b, "]");
}
