/* The model's measured error on a workset's kernel (measured_error.h). */
#include "model/input/measured_error.h"

#include <stdio.h>
#include <stdlib.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/input/json_read.h"

#define PATH "$.measured_error"

/* One machine's entry {"points": N, "rms_permille": E, "source": "..."}. */
static int read_entry(tf_measured_error *e, const cJSON *v, const char *path, tf_error *err) {
  static const char *const keys[] = {"points", "rms_permille", "source", NULL};
  char sub[160];
  const char *source;
  if (!cJSON_IsObject(v))
    return tf_error_set(err, TF_EINPUT, path, "expected an object {\"points\", \"rms_permille\", \"source\"}");
  if (tf_json_keys(v, path, keys, keys, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "points");
  if (tf_json_int(tf_json_member(v, "points"), sub, 1, 1000000, &e->points, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "rms_permille");
  if (tf_json_int(tf_json_member(v, "rms_permille"), sub, 0, 1000000, &e->rms_permille, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "source");
  return tf_json_string(tf_json_member(v, "source"), sub, &source, err);
}

int tf_measured_error_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *o = tf_json_member(root, "measured_error"), *m;
  if (!o)
    return 0;
  if (!cJSON_IsObject(o))
    return tf_error_set(err, TF_EINPUT, PATH, "expected an object of machine names");
  w->measured_error = tf_nalloc((size_t)cJSON_GetArraySize(o) + 1, sizeof *w->measured_error);
  cJSON_ArrayForEach(m, o) {
    char path[160];
    tf_path_key(path, sizeof path, PATH, m->string);
    tf_measured_error *e = &w->measured_error[w->nmeasured_error];
    if (read_entry(e, m, path, err))
      return -1;
    e->machine = tf_strdup(m->string);
    w->nmeasured_error++;
  }
  return 0;
}
