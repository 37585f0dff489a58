/* The latency lets (latency.h).  Errors name the JSON path. */
#include "model/input/latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/names.h"
#include "model/core/text.h"
#include "model/input/json_read.h"
#include "model/input/let_table.h"

#define PATH "$.roofline.loads"

enum { ALONE = 1, SHAPE = 2 }; /* without or with a shape (shape.h) */

/* The latency lets (latency.h); {0} the loads' bytes, {1} their count
 * (the stages), {2} the roofline's iterations, {3} the CTAs each SM runs:
 * sm_ctas where they may share it (shape.h), else one per wave. */
static const tf_let_row latency_lets[] = {
    {"load_bytes", "{0}", 0},
    {"compute_cycles", "cdiv(cycles, max(1, {2}))", 0},
    {"load_cycles", "cdiv(hbm_ns * sustained_mhz, 1000 * max(1, {3} * cta_iterations * ({2})))", SHAPE},
    {"load_cycles", "cdiv(load_bytes * sm_count * sustained_mhz, hbm_gbps * 1000)", ALONE},
    {"iteration_cycles", "max(1, compute_cycles, load_cycles)", 0},
    {"stages_needed", "1 + cdiv(latency_hbm_clk, iteration_cycles)", 0},
    {"pipeline_stages", "{1}", 0},
    {"latency_bound", "if(pipeline_stages < stages_needed, 1, 0)", 0},
};

int tf_latency_defines(const char *name) {
  return tf_let_rows_define(latency_lets, sizeof latency_lets / sizeof *latency_lets, name);
}

static int write_lets(tf_workset *w, const char *bytes, const char *stages, const char *iter, tf_error *err) {
  int shape = tf_workset_resolve(w, "hbm_ns") >= 0 && tf_workset_resolve(w, "cta_iterations") >= 0;
  const char *vals[] = {bytes, stages, iter, tf_workset_resolve(w, "sm_ctas") >= 0 ? "sm_ctas" : "waves"};
  return tf_let_rows_add(w, latency_lets, sizeof latency_lets / sizeof *latency_lets, shape ? SHAPE : ALONE, vals,
                         sizeof vals / sizeof *vals, PATH, err);
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
  if (tf_json_keys(l, PATH, keys, req, err) ||
      tf_json_string(tf_json_member(l, "stages"), PATH ".stages", &stages, err))
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
