#include "model/input/include.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/input/let_add.h"

/* The file an include names: relative to the folder of the workset's file,
 * or as given when it is absolute or the workset has no folder.  -1 when
 * the path does not fit (it would name another file, cut). */
static int fragment_file(const tf_workset *w, const char *name, char *out, size_t size) {
  const char *slash = w->file ? strrchr(w->file, '/') : NULL;
  int n = name[0] == '/' || !slash ? snprintf(out, size, "%s", name)
                                   : snprintf(out, size, "%.*s/%s", (int)(slash - w->file), w->file, name);
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* The fragment's text, parsed; a file that cannot be read is the
 * workset's error at `where` (a syntax error is the fragment's, at its
 * line). */
static cJSON *fragment_parse(const tf_workset *w, const char *name, const char *where, tf_error *err) {
  char file[4096];
  if (fragment_file(w, name, file, sizeof file))
    return tf_error_set(err, TF_EINPUT, where, "the fragment's path is longer than %zu bytes", sizeof file - 1), NULL;
  tf_error e;
  tf_error_init(&e);
  size_t len;
  char *text = tf_read_regular_file(file, &len, &e);
  if (!text) {
    const char *why = strncmp(e.msg, "cannot read: ", 13) ? e.msg : e.msg + 13;
    tf_error_set(err, TF_EINPUT, where, "cannot read the fragment '%s' (%s): %s", name, file, why);
    return NULL;
  }
  cJSON *root = tf_json_parse(text, len, file, err);
  free(text);
  return root;
}

/* A fragment's requires, kept as text: parsed after the workset's own
 * (model/input/workset.c, read_requires), when every name is bound. */
static int read_fragment_requires(tf_workset *w, const char *name, const cJSON *arr, tf_error *err) {
  if (!arr)
    return 0;
  char path[600];
  snprintf(path, sizeof path, "%s: $.require", name);
  if (!cJSON_IsArray(arr))
    return tf_error_set(err, TF_EINPUT, path, "expected an array of constraints (strings)");
  size_t n = w->ninclude_require + (size_t)cJSON_GetArraySize(arr);
  w->include_require = tf_nrealloc(w->include_require, n + 1, sizeof *w->include_require);
  int i = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    snprintf(path, sizeof path, "%s: $.require[%d]", name, i++);
    if (!cJSON_IsString(x))
      return tf_error_set(err, TF_EINPUT, path, "expected a string");
    tf_named_expr *r = &w->include_require[w->ninclude_require++];
    r->name = tf_strdup(x->valuestring);
    r->expr = NULL;
    r->path = tf_strdup(path);
  }
  return 0;
}

static int read_fragment(tf_workset *w, const char *name, const char *where, tf_error *err) {
  static const char *const keys[] = {"comment", "let", "require", NULL};
  static const char *const req[] = {"let", NULL};
  cJSON *root = fragment_parse(w, name, where, err);
  if (!root)
    return -1;
  char base[600], top[600];
  snprintf(top, sizeof top, "%s: $", name);
  snprintf(base, sizeof base, "%s: $.let", name);
  int rc = tf_json_keys(root, top, keys, req, err) || tf_workset_read_lets(w, tf_json_member(root, "let"), base, err) ||
           read_fragment_requires(w, name, tf_json_member(root, "require"), err);
  cJSON_Delete(root);
  return rc ? -1 : 0;
}

int tf_include_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *list = tf_json_member(root, "include");
  if (!list)
    return 0;
  if (!cJSON_IsArray(list))
    return tf_error_set(err, TF_EINPUT, "$.include",
                        "expected an array of file names, relative to the workset's folder");
  int i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    char where[64];
    snprintf(where, sizeof where, "$.include[%d]", i++);
    if (!cJSON_IsString(e) || !e->valuestring[0] || !strcmp(e->valuestring, "-")) /* "-" would read stdin */
      return tf_error_set(err, TF_EINPUT, where, "expected a file name, relative to the workset's folder");
    for (const cJSON *x = list->child; x != e; x = x->next) /* its lets would be defined twice */
      if (cJSON_IsString(x) && !strcmp(x->valuestring, e->valuestring))
        return tf_error_set(err, TF_EINPUT, where, "'%.200s' is included twice", e->valuestring);
    if (read_fragment(w, e->valuestring, where, err))
      return -1;
  }
  return 0;
}
