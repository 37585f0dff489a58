/* What a workset asks reports to show beside an answer's values:
 *
 *   "show": ["mma_version", "ab_buffers"]   lets evaluated at the answer,
 *                                           printed by solve, check, layout,
 *                                           prune and sweep lines (text and
 *                                           JSON "shown")
 *   "rule": "one line"                      the rule a configuration is
 *                                           checked against and its source,
 *                                           printed by prune
 *
 * so that a workset whose rule differs per target (triton-matmul's MMA
 * path and A/B buffer count) says which rule each answer used. */
#ifndef TF_MODEL_SHOW_H
#define TF_MODEL_SHOW_H

#include "error.h"
#include "workset.h"

struct cJSON;

/* Reads $.show (each a let's name; an unknown one is an error naming the
 * nearest let) and $.rule.  After every let is read (tf_shape_read). */
int tf_show_read(tf_workset *w, const struct cJSON *root, tf_error *err);

#endif
