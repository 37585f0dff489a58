/* The latency lets (latency.h).  Errors name the JSON path. */
#include "model/input/latency.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/names.h"
#include "model/core/text.h"
#include "model/input/json_read.h"

#define PATH "$.roofline.loads"

/* A let from a printf format, its path $.roofline.loads. */
__attribute__((format(printf, 3, 4))) static int add(tf_workset *w, tf_error *err, const char *fmt, ...) {
  tf_text t;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(tf_text_open(&t), fmt, ap);
  va_end(ap);
  char *text = tf_text_close(&t, NULL), *eq = strchr(text, '=');
  *eq = 0; /* "NAME=EXPR" */
  int r = tf_workset_add_let(w, text, eq + 1, PATH, err);
  free(text);
  return r;
}

static int write_lets(tf_workset *w, const char *bytes, const char *stages, const char *iter, tf_error *err) {
  int shape = tf_workset_resolve(w, "hbm_ns") >= 0 && tf_workset_resolve(w, "cta_iterations") >= 0;
  /* the CTAs each SM runs: sm_ctas where they may share it (shape.h), else one per wave */
  const char *ctas = tf_workset_resolve(w, "sm_ctas") >= 0 ? "sm_ctas" : "waves";
  if (add(w, err, "load_bytes=%s", bytes) || add(w, err, "compute_cycles=cdiv(cycles, max(1, %s))", iter))
    return -1;
  if (shape ? add(w, err, "load_cycles=cdiv(hbm_ns * clock_mhz, 1000 * max(1, %s * cta_iterations * (%s)))", ctas, iter)
            : add(w, err, "load_cycles=cdiv(load_bytes * sm_count * clock_mhz, hbm_gbps * 1000)"))
    return -1;
  if (add(w, err, "iteration_cycles=max(1, compute_cycles, load_cycles)") ||
      add(w, err, "stages_needed=1 + cdiv(latency_hbm_clk, iteration_cycles)") ||
      add(w, err, "pipeline_stages=%s", stages))
    return -1;
  return add(w, err, "latency_bound=if(pipeline_stages < stages_needed, 1, 0)");
}

int tf_latency_read(tf_workset *w, const cJSON *root, tf_error *err) {
  static const char *const keys[] = {"bytes", "stages", "comment", NULL};
  static const char *const req[] = {"bytes", "stages", NULL};
  const cJSON *r = tf_json_member(root, "roofline"), *l = r ? tf_json_member(r, "loads") : NULL;
  if (!l)
    return 0;
  const char *stages;
  if (!cJSON_IsObject(l))
    return tf_error_set(err, TF_EINPUT, PATH, "expected an object {\"bytes\": EXPR, \"stages\": COUNT}");
  if (tf_json_keys(l, PATH, keys, req, err) || tf_json_string(tf_json_member(l, "stages"), PATH ".stages", &stages, err))
    return -1;
  if (!tf_name_is_plain(stages))
    return tf_error_set(err, TF_EINPUT, PATH ".stages", "expected the name of a count, got '%.40s'", stages);
  char *bytes = NULL, *iter = NULL;
  const cJSON *it = tf_json_member(r, "iterations");
  int rc = tf_read_expr_text(tf_json_member(l, "bytes"), PATH ".bytes", &bytes, err) ||
                   (it && tf_read_expr_text(it, "$.roofline.iterations", &iter, err)) ||
                   write_lets(w, bytes, stages, iter ? iter : "1", err)
               ? -1
               : 0;
  free(bytes);
  free(iter);
  return rc;
}
