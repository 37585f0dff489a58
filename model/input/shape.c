/* The shape lets (shape.h).  Errors name the JSON path. */
#include "model/input/shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/input/json_read.h"
#include "model/input/let_table.h"
#include "model/input/roofline.h"

static const char *const shape_keys[] = {"ctas", "iterations", "hbm_bytes", "flops",
                                         "fill", "io_bytes",   "comment",   NULL};
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

enum { ALONE = 1, FILL = 2, MMA_RATE = 4, EPILOGUE = 8, NO_EPILOGUE = 16 }; /* which rows a shape writes */

/* The shape lets (shape.h); {0} ctas, {1} iterations, {2} hbm_bytes,
 * {3} flops, {4} fill, {5} the hbm term's code, {6} io_bytes. */
static const tf_let_row shape_lets[] = {
    {"sm_ctas", "cdiv({0}, sm_count)", FILL},
    {"waves", "cdiv({0}, sm_count * occupancy)", FILL},
    {"waves", "cdiv({0}, sm_count)", ALONE},
    {"cta_iterations", "{1}", 0},
    {"io_bytes", "{6}", EPILOGUE},
    {"epilogue_cycles", "cdiv(io_bytes * sm_count * sustained_mhz, hbm_gbps * 1000) + 2 * latency_hbm_clk", EPILOGUE},
    {"cta_cycles", "cycles * ({1}) + epilogue_cycles", EPILOGUE},
    {"cta_cycles", "cycles * ({1})", NO_EPILOGUE},
    {"compute_ns", "cdiv(cta_cycles * sm_ctas * 1000, sustained_mhz)", FILL},
    {"compute_ns", "cdiv(cta_cycles * waves * 1000, sustained_mhz)", ALONE},
    {"hbm_ns", "cdiv({2}, hbm_gbps)", 0},
    {"fill_ns", "cdiv(({4}) * if(occupancy > 1, 1, waves) * 1000, sustained_mhz)", FILL},
    {"time_ns", "max(compute_ns, hbm_ns) + fill_ns + kernel_fixed_ns", FILL},
    {"time_ns", "max(compute_ns, hbm_ns) + kernel_fixed_ns", ALONE},
    {"time_us", "cdiv(time_ns, 1000)", 0},
    {"time_bound_by", "if(hbm_ns > compute_ns, {5}, bound_by)", 0},
    {"ideal_ns", "cdiv(({3}) * 1000, mma_rate_0 * sm_count * clock_mhz)", MMA_RATE},
};

int tf_shape_defines(const char *name) {
  return tf_let_rows_define(shape_lets, sizeof shape_lets / sizeof *shape_lets, name);
}

/* v: ctas, iterations, hbm_bytes, flops, fill, io_bytes (NULL: none declared) */
static int write_lets(tf_workset *w, char *const *v, tf_error *err) {
  char hbm[16];
  snprintf(hbm, sizeof hbm, "%d", TF_TERM_HBM);
  const char *vals[] = {v[0], v[1], v[2], v[3], v[4] ? v[4] : "0", hbm, v[5] ? v[5] : "0"};
  unsigned have = (v[4] ? FILL : ALONE) | (v[5] ? EPILOGUE : NO_EPILOGUE) |
                  (tf_workset_resolve(w, "mma_rate_0") >= 0 ? MMA_RATE : 0);
  return tf_let_rows_add(w, shape_lets, sizeof shape_lets / sizeof *shape_lets, have, vals, sizeof vals / sizeof *vals,
                         "$.shape", err);
}

int tf_shape_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *s = tf_json_member(root, "shape");
  if (!s)
    return 0;
  if (!cJSON_IsObject(s))
    return tf_error_set(
        err, TF_EINPUT, "$.shape",
        "expected an object {\"ctas\", \"iterations\", \"hbm_bytes\", \"flops\", \"fill\", \"io_bytes\"}");
  if (tf_json_keys(s, "$.shape", shape_keys, shape_required, err))
    return -1;
  if (!w->roofline)
    return tf_error_set(err, TF_EINPUT, "$.shape",
                        "needs a roofline (\"roofline\" or a buffer's \"traffic\") for its cycles");
  char *v[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  int rc = text_of(s, "ctas", &v[0], err) || text_of(s, "iterations", &v[1], err) ||
                   text_of(s, "hbm_bytes", &v[2], err) || text_of(s, "flops", &v[3], err) ||
                   (tf_json_member(s, "fill") && text_of(s, "fill", &v[4], err)) ||
                   (tf_json_member(s, "io_bytes") && text_of(s, "io_bytes", &v[5], err)) || write_lets(w, v, err)
               ? -1
               : 0;
  for (int i = 0; i < 6; i++)
    free(v[i]);
  return rc;
}
