/* What a workset says about placement (docs/placement.md): a buffer's
 * candidate memories (`place`, or the machine's MMA table when it has
 * neither `memory` nor `place`), its size per memory, `alias`, the MMA
 * uses that name buffers as operands, and the architectures the workset
 * models.  Reading only: which memory a buffer is in at a combination is
 * the memory module's question. */
#ifndef TF_MODEL_PLACE_H
#define TF_MODEL_PLACE_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads a buffer's `memory` or `place`, its `size` (one expression, or one
 * per candidate memory) and the name in `alias` (resolved by
 * tf_place_finish).  `path` is the buffer's JSON path. */
int tf_place_read_buffer(tf_buffer *buf, const struct cJSON *b, const char *path, tf_error *err);

/* After every buffer is read: resolves aliases (unknown, self and cycles
 * are errors), reads the root's `mma` uses and `arch` list. */
int tf_place_finish(tf_workset *w, const struct cJSON *root, tf_error *err);

/* Every size expression of buffer b (one per candidate; `size` first),
 * into out[] (room for TF_NMEM); returns how many. */
int tf_buffer_sizes(const tf_buffer *b, tf_expr **out);

/* Is memory `mem` among buffer b's candidates (or its fixed memory)? */
int tf_buffer_may_live_in(const tf_buffer *b, int mem);

/* Before binding: the machine is one the workset declares it models (its
 * `arch` list; unless `any_arch`), and has every MMA instruction the
 * workset names (with `any_arch`, an instruction the machine lacks only
 * stops narrowing its operands).  TF_EINPUT naming both otherwise. */
struct tf_machine;
int tf_place_check_machine(const struct tf_machine *m, const tf_workset *w, int any_arch, tf_error *err);

/* When the workset keeps buffers only in a memory the machine lacks:
 * "h100-sxm has no tensor memory; fa4-fwd keeps S and O_acc in it" in
 * why, and 1; else 0. */
int tf_place_missing_memory(const struct tf_machine *m, const tf_workset *w, char *why, size_t size);

void tf_place_release_buffer(tf_buffer *buf);
void tf_place_release(tf_workset *w);

#endif
