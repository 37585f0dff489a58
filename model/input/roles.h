/* The names a workset gives a role the engine reads (docs/models.md):
 *
 *   "roles": {"threads": "NAME", "cta_registers": "NAME"}
 *
 *   threads        the CTA's threads (a param, or a let when the CTA size
 *                  depends on the tile): occupancy's thread and register
 *                  limits read it
 *   cta_registers  the registers a CTA holds while it runs, when its
 *                  warpgroups hold different counts (a setmaxnreg split):
 *                  occupancy charges it instead of threads times the
 *                  per-thread use (a let)
 *
 * A name the workset does not give a role means nothing to the engine, so
 * no name is reserved silently. */
#ifndef TF_MODEL_ROLES_H
#define TF_MODEL_ROLES_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.roles (absent: none) after the params and lets are read. */
int tf_roles_read(tf_workset *w, const struct cJSON *root, tf_error *err);

#endif
