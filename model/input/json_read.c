/* Reading JSON values into the model's (json_read.h): an expression, its
 * text, a choose domain. */
#include "model/input/json_read.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/expr/expr.h"
#include "model/input/workset.h"

/* An expression in JSON: a string, or an integer written as a number. */
tf_expr *tf_read_expr(const cJSON *v, const char *path, tf_error *err) {
  char buf[32];
  const char *text;
  if (cJSON_IsNumber(v)) {
    int64_t x;
    if (tf_json_int(v, path, -TF_JSON_EXACT, TF_JSON_EXACT, &x, err))
      return NULL;
    snprintf(buf, sizeof buf, "%lld", (long long)x);
    text = buf;
  } else if (cJSON_IsString(v)) {
    text = v->valuestring;
  } else {
    tf_error_set(err, TF_EINPUT, path, "expected an integer or an expression string");
    return NULL;
  }
  tf_expr *e = tf_expr_parse(text, err);
  if (!e)
    tf_error_set_path(err, path);
  return e;
}

int tf_read_expr_text(const cJSON *v, const char *path, char **out, tf_error *err) {
  tf_expr *e = tf_read_expr(v, path, err);
  if (!e)
    return -1;
  *out = tf_strdup(tf_expr_text(e));
  tf_expr_free(e);
  return 0;
}

static int read_range(tf_choose *c, const cJSON *v, const char *path, tf_error *err) {
  static const char *const keys[] = {"from", "to", "step", NULL};
  static const char *const req[] = {"from", "to", NULL};
  if (tf_json_keys(v, path, keys, req, err))
    return -1;
  int64_t from, to, step = 1;
  char sub[160];
  tf_path_key(sub, sizeof sub, path, "from");
  if (tf_json_int(tf_json_member(v, "from"), sub, -TF_JSON_EXACT, TF_JSON_EXACT, &from, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "to");
  if (tf_json_int(tf_json_member(v, "to"), sub, from, TF_JSON_EXACT, &to, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "step");
  if (tf_json_member(v, "step") && tf_json_int(tf_json_member(v, "step"), sub, 1, TF_JSON_EXACT, &step, err))
    return -1;
  if ((to - from) / step + 1 > TF_MAX_DOMAIN)
    return tf_error_set(err, TF_EINPUT, path, "domain has more than %d values", TF_MAX_DOMAIN);
  c->nvalues = (size_t)((to - from) / step + 1);
  c->values = tf_nalloc(c->nvalues, sizeof *c->values);
  for (size_t i = 0; i < c->nvalues; i++)
    c->values[i] = from + (int64_t)i * step;
  return 0;
}

/* Values in list order, for finding the first repeated one by sorting. */
struct indexed {
  int64_t value;
  size_t index;
};

static int by_value(const void *a, const void *b) {
  const struct indexed *x = a, *y = b;
  if (x->value != y->value)
    return x->value < y->value ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The index of the first value that repeats an earlier one, or n: sorted
 * by (value, index), the second of each run is where it repeats. */
static size_t first_repeat(const int64_t *v, size_t n) {
  struct indexed *s = tf_nalloc(n + 1, sizeof *s);
  for (size_t i = 0; i < n; i++)
    s[i] = (struct indexed){v[i], i};
  qsort(s, n, sizeof *s, by_value);
  size_t first = n;
  for (size_t i = 1; i < n; i++)
    if (s[i].value == s[i - 1].value && (i < 2 || s[i - 2].value != s[i].value) && s[i].index < first)
      first = s[i].index;
  free(s);
  return first;
}

/* A list of distinct integers, or {"from", "to", "step"}.  Errors name the
 * first bad element: a repeat before a non-integer is reported first. */
int tf_read_domain(tf_choose *c, const cJSON *v, const char *path, tf_error *err) {
  if (cJSON_IsObject(v))
    return read_range(c, v, path, err);
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty list of integers or {\"from\", \"to\", \"step\"}");
  int n = cJSON_GetArraySize(v);
  if (n > TF_MAX_DOMAIN)
    return tf_error_set(err, TF_EINPUT, path, "domain has more than %d values", TF_MAX_DOMAIN);
  c->values = tf_nalloc((size_t)n, sizeof *c->values);
  tf_error bad;
  tf_error_init(&bad);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, c->nvalues);
    if (tf_json_int(x, sub, -TF_JSON_EXACT, TF_JSON_EXACT, &c->values[c->nvalues], &bad))
      break;
    c->nvalues++;
  }
  size_t k = first_repeat(c->values, c->nvalues);
  if (k < c->nvalues) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, k);
    return tf_error_set(err, TF_EINPUT, sub, "value %lld appears twice", (long long)c->values[k]);
  }
  if (bad.code) {
    if (err && err->code == TF_OK)
      *err = bad;
    return -1;
  }
  return 0;
}
