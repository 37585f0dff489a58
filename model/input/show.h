/* What a workset asks reports to show beside an answer's values:
 *
 *   "show": ["mma_version", "ab_buffers"]   lets evaluated at the answer,
 *                                           printed by solve, check, layout,
 *                                           prune and sweep lines (text and
 *                                           JSON "shown")
 *   "rule": "one line", or                  the rule a configuration is
 *   "rule": {"sm_90": "...", "gfx950+":     checked against and its source,
 *            "...", "*": "..."}             printed by prune: per arch pattern
 *                                           (model/input/machine.h), the first that
 *                                           matches the machine, "*" any
 *
 * so that a workset whose rule differs per target (triton-matmul's MMA
 * path and A/B buffer count) says which rule each answer used. */
#ifndef TF_MODEL_SHOW_H
#define TF_MODEL_SHOW_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.show (each a let's name; an unknown one is an error naming the
 * nearest let) and $.rule.  After every let is read (tf_shape_read). */
int tf_show_read(tf_workset *w, const struct cJSON *root, tf_error *err);

/* The rule line for machine m, or NULL when the workset has none for it. */
struct tf_machine;
const char *tf_workset_rule(const tf_workset *w, const struct tf_machine *m);

#endif
