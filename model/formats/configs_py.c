#include "model/formats/configs_py.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"

/* A cursor over the text, skipping blanks and '#' comments. */
typedef struct cursor {
  const char *s, *end, *begin;
  size_t line;
} cursor;

static void blank(cursor *c) {
  while (c->s < c->end && (isspace((unsigned char)*c->s) || *c->s == '#')) {
    if (*c->s == '#')
      while (c->s < c->end && *c->s != '\n')
        c->s++;
    else if (*c->s++ == '\n')
      c->line++;
  }
}

static int eat(cursor *c, char ch) {
  blank(c);
  if (c->s < c->end && *c->s == ch)
    return c->s++, 1;
  return 0;
}

/* The next Config( call outside comments; NULL when none. */
static const char *next_call(cursor *c) {
  while (c->s < c->end) {
    if (*c->s == '#' || isspace((unsigned char)*c->s)) {
      blank(c);
      continue;
    }
    char before = c->s > c->begin ? c->s[-1] : ' ';
    if ((size_t)(c->end - c->s) >= 7 && !memcmp(c->s, "Config(", 7) && !isalnum((unsigned char)before) && before != '_')
      return c->s;
    c->s++;
  }
  return NULL;
}

int tf_configs_is_python(const char *text, size_t len) {
  cursor c = {text, text + len, text, 1};
  return next_call(&c) != NULL;
}

/* An integer, True or False into *v; 0 when the value is another thing,
 * which is skipped to the next ',' or ')' at this depth. */
static int value(cursor *c, int64_t *v) {
  blank(c);
  char *e;
  if (c->end - c->s >= 4 && !memcmp(c->s, "True", 4))
    return c->s += 4, *v = 1, 1;
  if (c->end - c->s >= 5 && !memcmp(c->s, "False", 5))
    return c->s += 5, *v = 0, 1;
  long long x = strtoll(c->s, &e, 10);
  if (e > c->s && e <= c->end && (e == c->end || strchr(" \t\r\n,)}#", *e)))
    return c->s = e, *v = x, 1;
  for (int depth = 0; c->s < c->end && (depth || (*c->s != ',' && *c->s != ')')); c->s++)
    depth += *c->s == '(' || *c->s == '[' || *c->s == '{' ? 1 : *c->s == ')' || *c->s == ']' || *c->s == '}' ? -1 : 0;
  return 0;
}

static int syntax(cursor *c, const char *file, const char *what, tf_error *err) {
  char where[48];
  snprintf(where, sizeof where, "line %zu", c->line);
  tf_error_set(err, TF_EINPUT, where, "expected %s in triton.Config(...)", what);
  return tf_error_set_file(err, file), -1;
}

/* {'KEY': VALUE, ...} into obj. */
static int read_dict(cursor *c, cJSON *obj, const char *file, tf_error *err) {
  if (!eat(c, '{'))
    return syntax(c, file, "a dict of meta-parameters first", err);
  while (!eat(c, '}')) {
    blank(c);
    char q = c->s < c->end ? *c->s : 0, key[128];
    const char *close = (q == '\'' || q == '"') ? memchr(c->s + 1, q, (size_t)(c->end - c->s - 1)) : NULL;
    if (!close || close - c->s - 1 >= (long)sizeof key)
      return syntax(c, file, "a quoted key", err);
    snprintf(key, sizeof key, "%.*s", (int)(close - c->s - 1), c->s + 1);
    c->s = close + 1;
    int64_t v;
    if (!eat(c, ':') || !value(c, &v))
      return syntax(c, file, "key: integer", err);
    cJSON_AddNumberToObject(obj, key, (double)v);
    if (!eat(c, ',') && !(blank(c), c->s < c->end && *c->s == '}'))
      return syntax(c, file, "',' or '}' in the dict", err);
  }
  return 0;
}

/* , name=VALUE ... ) into obj; non-integer keywords are left out. */
static int read_keywords(cursor *c, cJSON *obj, const char *file, tf_error *err) {
  while (!eat(c, ')')) {
    if (!eat(c, ','))
      return syntax(c, file, "',' or ')'", err);
    if (eat(c, ')'))
      return 0;
    const char *name = c->s;
    while (c->s < c->end && (isalnum((unsigned char)*c->s) || *c->s == '_'))
      c->s++;
    size_t n = (size_t)(c->s - name);
    int64_t v;
    if (!n || n >= 64 || !eat(c, '='))
      return syntax(c, file, "name=value keywords after the dict", err);
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)n, name);
    if (value(c, &v))
      cJSON_AddNumberToObject(obj, key, (double)v);
  }
  return 0;
}

static int one_call(cursor *c, const char *start, const char *file, tf_config_list *l, tf_error *err) {
  char where[48], path[64];
  snprintf(where, sizeof where, "line %zu", c->line);
  snprintf(path, sizeof path, "line %zu: $", c->line);
  cJSON *obj = cJSON_CreateObject(), *kw = cJSON_AddObjectToObject(obj, "kwargs");
  c->s += 7; /* "Config(" */
  int rc = read_dict(c, kw, file, err) || read_keywords(c, obj, file, err) ? -1 : 0;
  if (!rc) {
    const char *from = start - (start - c->begin >= 7 && !memcmp(start - 7, "triton.", 7) ? 7 : 0);
    tf_config *cf = tf_configs_add(l, where);
    cf->source = tf_strndup(from, (size_t)(c->s - from));
    rc = tf_configs_read_object(cf, obj, path, err);
  }
  cJSON_Delete(obj);
  return rc;
}

int tf_configs_parse_python(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err) {
  cursor c = {text, text + len, text, 1};
  for (const char *at; (at = next_call(&c));)
    if (one_call(&c, at, file, l, err))
      return -1;
  l->form = TF_CONFIGS_PYTHON;
  return 0;
}
