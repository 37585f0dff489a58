#include "model/formats/configs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/formats/config_list.h"
#include "model/formats/configs_py.h"

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
    tf_config *c = tf_configs_add(l, path);
    tf_error e;
    tf_error_init(&e);
    if (tf_configs_read_object(c, cJSON_GetArrayItem(root, i), path, &e))
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
static int parse_line(tf_config_list *l, const char *line, size_t len, size_t lineno, const char *file, tf_error *err) {
  char where[48];
  snprintf(where, sizeof where, "line %zu", lineno);
  (void)err;
  tf_error e;
  tf_error_init(&e);
  tf_config *c = tf_configs_add(l, where);
  c->text = tf_strndup(line, len);
  cJSON *obj = tf_json_parse_line(line, len, file, lineno, &e);
  char path[64];
  snprintf(path, sizeof path, "line %zu: $", lineno);
  if (!obj || tf_configs_read_object(c, obj, path, &e))
    item_error(c, NULL, &e);
  cJSON_Delete(obj);
  return 0;
}

static int parse_name(tf_config_list *l, const char *line, size_t len, size_t lineno, tf_error *err) {
  char where[48];
  snprintf(where, sizeof where, "line %zu", lineno);
  (void)err;
  tf_config *c = tf_configs_add(l, where);
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
    return tf_error_set(err, TF_EINPUT, NULL,
                        "%s: no configurations (expected JSON Lines, a JSON array or kernel names)", file);
  return 0;
}
