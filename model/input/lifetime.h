/* What a workset says about time and order in a memory: each buffer's
 * lifetime (`lifetime`, a phase name: the buffer is live only during that
 * phase; none: live throughout) and the order the layout places buffers in
 * (`layout_order`).  Reading only: what a lifetime does to a memory's use
 * is the memory module's rule (model/bind/memory.h, "lifetimes").
 *
 * Phases are the names the buffers give, in the order the root's optional
 * `lifetimes` list states them (each buffer's lifetime must then be one of
 * them, with a "did you mean" when it is not), else in the order of their
 * first use.  An aliasing buffer shares its host's space, so it must have
 * its host's lifetime.  `layout_order` is a list of buffer names: those
 * buffers come first, in that order, the others after them in workset
 * order. */
#ifndef TF_MODEL_LIFETIME_H
#define TF_MODEL_LIFETIME_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads buffer buf's `lifetime` (a non-empty phase name), kept by name
 * until tf_lifetime_finish.  `path` is the buffer's JSON path. */
int tf_lifetime_read_buffer(tf_buffer *buf, const struct cJSON *b, const char *path, tf_error *err);

/* After every buffer is read and aliases are resolved: the phases (the
 * root's `lifetimes`, or the names in order of first use; at most
 * TF_MAX_LIFETIMES), each buffer's phase index, the alias rule, and
 * `layout_order` into w->layout_order (every buffer, once). */
int tf_lifetime_finish(tf_workset *w, const struct cJSON *root, tf_error *err);

/* A buffer's phase name, or NULL when it is live throughout. */
const char *tf_lifetime_name(const tf_workset *w, size_t b);

void tf_lifetime_release(tf_workset *w);

#endif
