#include "sweep_lists.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/json.h"

/* The spec key each kind of option fills, and where its items go. */
static const char *const spec_keys[] = {
    [TF_LIST_MACHINES] = "machines",    [TF_LIST_WORKSETS] = "worksets",
    [TF_LIST_PARAM] = "params",         [TF_LIST_FIX] = "fix",
    [TF_LIST_DOMAIN] = "domain",        [TF_LIST_REQUIRE] = "require",
    [TF_LIST_OBJECTIVE] = "objectives", [TF_LIST_ANY_ARCH] = "any_arch",
};

/* "a100,h100-sxm" -> ["a100", "h100-sxm"]; "*" stays the spec's "*". */
static cJSON *names(const char *v) {
  if (!strcmp(v, "*"))
    return cJSON_CreateString("*");
  cJSON *arr = cJSON_CreateArray();
  for (const char *s = v;; s++) {
    size_t len = strcspn(s, ",");
    char *name = malloc(len + 1);
    if (name) {
      memcpy(name, s, len);
      name[len] = 0;
      cJSON_AddItemToArray(arr, cJSON_CreateString(name));
      free(name);
    }
    s += len;
    if (!*s)
      return arr;
  }
}

/* "-p d=64,128" -> "params": {"d": [64, 128]}. */
static int add_values(cJSON *section, const tf_list_item *it, tf_error *err) {
  char name[128];
  int64_t *values;
  size_t n;
  if (tf_parse_list(it->value, it->where, name, sizeof name, &values, &n, err))
    return -1;
  if (cJSON_GetObjectItemCaseSensitive(section, name)) { /* the spec reader would say "$.params: duplicate key" */
    free(values);
    return tf_error_set(err, TF_EINPUT, it->where, "'%s' is given twice; give its values in one list (%s %s=V1,V2,...)",
                        name, it->where, name);
  }
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++)
    cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)values[i])); /* |v| < 2^53: the spec reader checks */
  free(values);
  cJSON_AddItemToObject(section, name, arr);
  return 0;
}

static cJSON *section(cJSON *spec, int kind) {
  cJSON *s = cJSON_GetObjectItemCaseSensitive(spec, spec_keys[kind]);
  if (s)
    return s;
  int is_object = kind == TF_LIST_PARAM || kind == TF_LIST_FIX || kind == TF_LIST_DOMAIN;
  s = is_object ? cJSON_CreateObject() : cJSON_CreateArray();
  cJSON_AddItemToObject(spec, spec_keys[kind], s);
  if (kind == TF_LIST_OBJECTIVE) { /* one lexicographic list: [["max a", "max b"]] */
    cJSON *list = cJSON_CreateArray();
    cJSON_AddItemToArray(s, list);
  }
  return s;
}

static int add_item(cJSON *spec, const tf_list_item *it, tf_error *err) {
  switch ((enum tf_list_kind)it->kind) {
  case TF_LIST_MACHINES:
  case TF_LIST_WORKSETS: cJSON_AddItemToObject(spec, spec_keys[it->kind], names(it->value)); return 0;
  case TF_LIST_PARAM:
  case TF_LIST_FIX:
  case TF_LIST_DOMAIN: return add_values(section(spec, it->kind), it, err);
  case TF_LIST_REQUIRE: cJSON_AddItemToArray(section(spec, it->kind), cJSON_CreateString(it->value)); return 0;
  case TF_LIST_OBJECTIVE:
    cJSON_AddItemToArray(cJSON_GetArrayItem(section(spec, it->kind), 0), cJSON_CreateString(it->value));
    return 0;
  case TF_LIST_ANY_ARCH: cJSON_AddItemToObject(spec, spec_keys[it->kind], cJSON_CreateTrue()); return 0;
  }
  return 0;
}

/* An error the spec reader found at "$.params.d[1]" names the option that
 * made that member ("-p d=64,x"), not a file the user never wrote. */
static void name_option(const tf_args *a, tf_error *err) {
  for (int i = 0; i < a->nlists; i++) {
    const tf_list_item *it = &a->lists[i];
    char prefix[192];
    size_t name_len = it->value ? strcspn(it->value, "=") : 0;
    if (it->kind == TF_LIST_PARAM || it->kind == TF_LIST_FIX || it->kind == TF_LIST_DOMAIN)
      snprintf(prefix, sizeof prefix, "$.%s.%.*s", spec_keys[it->kind], (int)name_len, it->value);
    else
      snprintf(prefix, sizeof prefix, "$.%s", spec_keys[it->kind]);
    size_t n = strlen(prefix);
    if (!strncmp(err->path, prefix, n) && strchr("[.", err->path[n] ? err->path[n] : '.')) {
      snprintf(err->path, sizeof err->path, "%s%s%s", it->where, it->value ? " " : "", it->value ? it->value : "");
      err->file[0] = 0;
      return;
    }
  }
}

static int has(const tf_args *a, int kind) {
  for (int i = 0; i < a->nlists; i++)
    if (a->lists[i].kind == kind)
      return 1;
  return 0;
}

tf_sweep *tf_sweep_from_lists(const tf_args *a, tf_error *err) {
  if (!has(a, TF_LIST_MACHINES) || !has(a, TF_LIST_WORKSETS)) {
    tf_error_set(err, TF_EINPUT, has(a, TF_LIST_MACHINES) ? "-w" : "-m",
                 "a sweep without a spec file needs both -m and -w (comma-separated lists, or *)");
    return NULL;
  }
  cJSON *spec = cJSON_CreateObject();
  for (int i = 0; i < a->nlists; i++)
    if (add_item(spec, &a->lists[i], err)) {
      cJSON_Delete(spec);
      return NULL;
    }
  tf_sweep *s = tf_sweep_read_spec(spec, "the command line", err);
  cJSON_Delete(spec);
  if (!s)
    name_option(a, err);
  return s;
}
