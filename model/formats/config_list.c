/* A list of configurations (config_list.h): adding one, reading an
 * object's values into it, looking a value up, releasing the list. */

#include "model/formats/config_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"

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

tf_config *tf_configs_add(tf_config_list *l, const char *where) {
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
