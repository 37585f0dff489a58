/* The shape lets (shape.h).  Errors name the JSON path. */
#include "model/input/shape.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/input/json_read.h"
#include "model/input/roofline.h"

static const char *const shape_keys[] = {"ctas", "iterations", "hbm_bytes", "flops", "fill", "comment", NULL};
static const char *const shape_required[] = {"ctas", "hbm_bytes", "flops", NULL};

/* The source text of $.shape.KEY ("1" when absent). */
static int text_of(const cJSON *s, const char *key, char **out, tf_error *err) {
  char path[64];
  snprintf(path, sizeof path, "$.shape.%s", key);
  const cJSON *v = tf_json_member(s, key);
  if (!v)
    return *out = tf_strdup("1"), 0;
  return tf_read_expr_text(v, path, out, err);
}

/* A let from a printf format (model/core/text.h grows the text). */
__attribute__((format(printf, 4, 5))) static int add(tf_workset *w, const char *name, tf_error *err, const char *fmt,
                                                     ...) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  char *text = tf_text_close(&t, NULL);
  int r = tf_workset_add_let(w, name, text, "$.shape", err);
  free(text);
  return r;
}

/* The time of a kernel whose CTAs share an SM as they fit (shape.h);
 * v: ctas, iterations, hbm_bytes, flops, fill. */
static int write_shared_lets(tf_workset *w, char *const *v, tf_error *err) {
  return add(w, "sm_ctas", err, "cdiv(%s, sm_count)", v[0]) ||
                 add(w, "waves", err, "cdiv(%s, sm_count * occupancy)", v[0]) || add(w, "cta_iterations", err, "%s", v[1]) ||
                 add(w, "compute_ns", err, "cdiv(cycles * (%s) * sm_ctas * 1000, clock_mhz)", v[1]) ||
                 add(w, "hbm_ns", err, "cdiv(%s, hbm_gbps)", v[2]) ||
                 add(w, "fill_ns", err, "cdiv((%s) * if(occupancy > 1, 1, waves) * 1000, clock_mhz)", v[4]) ||
                 add(w, "time_ns", err, "max(compute_ns, hbm_ns) + fill_ns")
             ? -1
             : 0;
}

/* One CTA per SM at a time. */
static int write_alone_lets(tf_workset *w, char *const *v, tf_error *err) {
  return add(w, "waves", err, "cdiv(%s, sm_count)", v[0]) || add(w, "cta_iterations", err, "%s", v[1]) ||
                 add(w, "compute_ns", err, "cdiv(cycles * (%s) * waves * 1000, clock_mhz)", v[1]) ||
                 add(w, "hbm_ns", err, "cdiv(%s, hbm_gbps)", v[2]) || add(w, "time_ns", err, "max(compute_ns, hbm_ns)")
             ? -1
             : 0;
}

/* v: ctas, iterations, hbm_bytes, flops, fill (NULL: none declared) */
static int write_lets(tf_workset *w, char *const *v, tf_error *err) {
  if ((v[4] ? write_shared_lets(w, v, err) : write_alone_lets(w, v, err)) || add(w, "time_us", err, "cdiv(time_ns, 1000)") ||
      add(w, "time_bound_by", err, "if(hbm_ns > compute_ns, %d, bound_by)", TF_TERM_HBM))
    return -1;
  if (tf_workset_resolve(w, "mma_rate_0") < 0)
    return 0;
  return add(w, "ideal_ns", err, "cdiv((%s) * 1000, mma_rate_0 * sm_count * clock_mhz)", v[3]);
}

int tf_shape_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *s = tf_json_member(root, "shape");
  if (!s)
    return 0;
  if (!cJSON_IsObject(s))
    return tf_error_set(err, TF_EINPUT, "$.shape",
                        "expected an object {\"ctas\", \"iterations\", \"hbm_bytes\", \"flops\", \"fill\"}");
  if (tf_json_keys(s, "$.shape", shape_keys, shape_required, err))
    return -1;
  if (!w->roofline)
    return tf_error_set(err, TF_EINPUT, "$.shape", "needs a roofline (\"roofline\" or a buffer's \"traffic\") for its cycles");
  char *v[5] = {NULL, NULL, NULL, NULL, NULL};
  int rc = text_of(s, "ctas", &v[0], err) || text_of(s, "iterations", &v[1], err) ||
                   text_of(s, "hbm_bytes", &v[2], err) || text_of(s, "flops", &v[3], err) ||
                   (tf_json_member(s, "fill") && text_of(s, "fill", &v[4], err)) || write_lets(w, v, err)
               ? -1
               : 0;
  for (int i = 0; i < 5; i++)
    free(v[i]);
  return rc;
}
