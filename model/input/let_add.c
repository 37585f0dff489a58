/* Adding lets to a workset (let_add.h). */
#include "model/input/let_add.h"

#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/input/json_read.h"

int tf_workset_read_lets(tf_workset *w, const struct cJSON *obj, const char *base, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, base, "expected an object of NAME: expression");
  size_t first = w->nlets, n = (size_t)cJSON_GetArraySize(obj);
  TF_NREALLOC(w->lets, first + n + 1);
  memset(w->lets + first, 0, (n + 1) * sizeof *w->lets); /* released whole if a later one fails */
  /* Names first, so that a let may use one defined further down. */
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char path[600];
    tf_path_key(path, sizeof path, base, m->string);
    if (tf_workset_check_name(w, m->string, path, err))
      return -1;
    w->lets[w->nlets].name = tf_strdup(m->string);
    w->lets[w->nlets].path = tf_strdup(path);
    tf_workset_add_name(w, w->lets[w->nlets].name, TF_SYM_LET, w->nlets);
    w->nlets++;
  }
  size_t i = first;
  cJSON_ArrayForEach(m, obj) {
    if (!(w->lets[i].expr = tf_read_expr(m, w->lets[i].path, err)))
      return -1;
    i++;
  }
  return 0;
}

int tf_workset_add_let(tf_workset *w, const char *name, const char *text, const char *path, tf_error *err) {
  if (tf_workset_resolve(w, name) >= 0)
    return tf_error_set(err, TF_EINPUT, path, "'%s' is computed from the roofline declaration; remove the let", name);
  tf_expr *e = tf_expr_parse(text, err);
  if (!e)
    return tf_error_set_path(err, path), -1;
  TF_NREALLOC(w->lets, w->nlets + 1);
  tf_named_expr *l = &w->lets[w->nlets];
  l->name = tf_strdup(name);
  l->path = tf_strdup(path);
  l->expr = e;
  tf_workset_add_name(w, l->name, TF_SYM_LET, w->nlets);
  w->nlets++;
  return 0;
}
