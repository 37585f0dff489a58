#include "model/formats/configs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/formats/configs_py.h"

void tf_configs_init(tf_config_list *l) { memset(l, 0, sizeof *l); }

void tf_configs_release(tf_config_list *l) {
  for (size_t i = 0; i < l->n; i++) {
    tf_config *c = &l->items[i];
    for (size_t j = 0; j < c->nvalues; j++)
      free(c->values[j].name), free(c->values[j].where);
    free(c->values);
    free(c->text);
    free(c->error);
    free(c->source);
  }
  free(l->items);
  tf_configs_init(l);
}

const tf_assign *tf_config_value(const tf_config *c, const char *key) {
  for (size_t i = 0; i < c->nvalues; i++)
    if (!strcmp(c->values[i].name, key))
      return &c->values[i];
  return NULL;
}

static tf_config *add_config(tf_config_list *l, const char *where) {
  tf_config c;
  memset(&c, 0, sizeof c);
  snprintf(c.where, sizeof c.where, "%s", where);
  TF_PUSH(l->items, l->n, l->cap, c);
  return &l->items[l->n - 1];
}

static int add_value(tf_config *c, const char *key, const cJSON *v, const char *path, tf_error *err) {
  int64_t x;
  if (tf_json_int(v, path, -TF_JSON_EXACT, TF_JSON_EXACT, &x, err))
    return -1;
  if (tf_config_value(c, key))
    return tf_error_set(err, TF_EINPUT, path, "'%s' is given twice (once inside kwargs)", key);
  tf_assign a = {tf_strdup(key), x, tf_strdup(path)};
  TF_PUSH(c->values, c->nvalues, c->capvalues, a);
  return 0;
}

tf_config *tf_configs_add(tf_config_list *l, const char *where) { return add_config(l, where); }

static int read_object(tf_config *c, const cJSON *obj, const char *path, int nested, tf_error *err);

int tf_configs_read_object(tf_config *c, const cJSON *obj, const char *path, tf_error *err) {
  return read_object(c, obj, path, 0, err);
}

static int read_object(tf_config *c, const cJSON *obj, const char *path, int nested, tf_error *err) {
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, path, "expected a configuration object of NAME: integer");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    tf_path_key(mp, sizeof mp, path, m->string);
    if (cJSON_IsNull(m)) {
      tf_strbuf b = {c->nulls, sizeof c->nulls, strlen(c->nulls)};
      tf_strbuf_item(&b, ", ", "%s", m->string);
    } else if (!nested && !strcmp(m->string, "kwargs") && cJSON_IsObject(m)) {
      if (read_object(c, m, mp, 1, err))
        return -1;
    } else if (add_value(c, m->string, m, mp, err))
      return -1;
  }
  if (!nested && !c->text) { /* the whole object, not its kwargs */
    c->text = cJSON_PrintUnformatted(obj);
    if (!c->text)
      return tf_error_set(err, TF_EINTERNAL, path, "cannot print the configuration");
  }
  return 0;
}

/* A configuration that did not read keeps its text (the element printed
 * when it has none) and the reason; its values are dropped. */
static void item_error(tf_config *c, const cJSON *element, const tf_error *e) {
  char msg[512];
  tf_error_format(e, msg, sizeof msg);
  free(c->error);
  c->error = tf_strdup(msg);
  for (size_t j = 0; j < c->nvalues; j++)
    free(c->values[j].name), free(c->values[j].where);
  c->nvalues = 0;
  if (!c->text && element)
    c->text = cJSON_PrintUnformatted(element);
  if (!c->text)
    c->text = tf_strdup("");
}

int tf_configs_read_array(const cJSON *root, const char *where, tf_config_list *l, tf_error *err) {
  if (!cJSON_IsArray(root))
    return tf_error_set(err, TF_EINPUT, where, "expected a JSON array of configuration objects");
  for (int i = 0; i < cJSON_GetArraySize(root); i++) {
    char path[48];
    tf_path_index(path, sizeof path, where, (size_t)i);
    tf_config *c = add_config(l, path);
    tf_error e;
    tf_error_init(&e);
    if (read_object(c, cJSON_GetArrayItem(root, i), path, 0, &e))
      item_error(c, cJSON_GetArrayItem(root, i), &e);
  }
  l->form = TF_CONFIGS_ARRAY;
  return 0;
}

static int parse_array(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err) {
  cJSON *root = tf_json_parse(text, len, file, err);
  if (!root)
    return -1;
  int rc = tf_configs_read_array(root, "$", l, err);
  cJSON_Delete(root);
  return rc;
}

/* One line of JSON Lines: its text is kept as written. */
static int parse_line(tf_config_list *l, const char *line, size_t len, size_t lineno, const char *file,
                      tf_error *err) {
  char where[48];
  snprintf(where, sizeof where, "line %zu", lineno);
  (void)err;
  tf_error e;
  tf_error_init(&e);
  tf_config *c = add_config(l, where);
  c->text = tf_strndup(line, len);
  cJSON *obj = tf_json_parse_line(line, len, file, lineno, &e);
  char path[64];
  snprintf(path, sizeof path, "line %zu: $", lineno);
  if (!obj || read_object(c, obj, path, 0, &e))
    item_error(c, NULL, &e);
  cJSON_Delete(obj);
  return 0;
}

static int parse_name(tf_config_list *l, const char *line, size_t len, size_t lineno, tf_error *err) {
  char where[48];
  snprintf(where, sizeof where, "line %zu", lineno);
  (void)err;
  tf_config *c = add_config(l, where);
  c->text = tf_strndup(line, len);
  for (size_t i = 0; i < len && !c->error; i++)
    if (isspace((unsigned char)line[i])) {
      tf_error e;
      tf_error_init(&e);
      tf_error_set(&e, TF_EINPUT, where, "expected one CUTLASS kernel name per line");
      item_error(c, NULL, &e);
    }
  return 0;
}

/* Splits at newlines; blank lines (and '#' comments in a name list) are
 * skipped. */
static int parse_lines(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err) {
  size_t lineno = 0;
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - text) : len, b = at, e = end;
    lineno++;
    while (b < e && isspace((unsigned char)text[b]))
      b++;
    while (e > b && isspace((unsigned char)text[e - 1]))
      e--;
    int rc = 0;
    if (b < e && l->form == TF_CONFIGS_LINES)
      rc = parse_line(l, text + b, e - b, lineno, file, err);
    else if (b < e && text[b] != '#')
      rc = parse_name(l, text + b, e - b, lineno, err);
    if (rc)
      return tf_error_set_file(err, file), -1;
    at = end + 1;
  }
  return 0;
}

int tf_configs_parse(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err) {
  size_t i = 0;
  while (i < len && isspace((unsigned char)text[i]))
    i++;
  if (i < len && text[i] == '[')
    return parse_array(text, len, file, l, err);
  if (i < len && text[i] != '{' && tf_configs_is_python(text, len)) {
    if (tf_configs_parse_python(text, len, file, l, err))
      return -1;
    return l->n ? 0 : tf_error_set(err, TF_EINPUT, NULL, "%s: no configurations", file);
  }
  l->form = i < len && text[i] == '{' ? TF_CONFIGS_LINES : TF_CONFIGS_NAMES;
  if (parse_lines(text, len, file, l, err))
    return -1;
  if (!l->n)
    return tf_error_set(err, TF_EINPUT, NULL, "%s: no configurations (expected JSON Lines, a JSON array or kernel names)",
                        file);
  return 0;
}
