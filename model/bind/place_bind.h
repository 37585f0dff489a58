/* Placement in a bound problem (docs/placement.md):
 * every placed buffer becomes a generated choose variable over its
 * candidate memories, so that each combination fixes every placement and
 * everything downstream (sizes, rounding, aliasing, placed(), pruning,
 * the ILP, verification) works per combination unchanged.
 *
 * A buffer's candidates are its place list (or for a buffer with neither
 * `memory` nor `place`, the memories its sizes name), less what an MMA
 * that reads it cannot read it from (the machine's mma table), narrowed by
 * the request's pins (--place, "place").  Internal to model/. */
#ifndef TF_MODEL_PLACE_BIND_H
#define TF_MODEL_PLACE_BIND_H

#include "model/bind/problem.h"
#include "model/core/error.h"

/* Adds the placement variables after the others, and, when some buffer
 * has more than one candidate, the last objective "min placement_order"
 * that breaks ties by place-list order.  Errors: a pin that names no
 * buffer or a memory outside the candidates (TF_EINPUT naming the pin),
 * a buffer that no memory is legal for (naming the MMA and operand). */
int tf_place_bind(tf_problem *p, const tf_request *req, tf_error *err);

/* Sets placed(B, MEM) and placement_order for the choose values. */
void tf_place_set_symbols(tf_problem *p, const int64_t *choose);

/* "P rf, Q smem": the placement at the choose values ("" when none). */
void tf_place_text(const tf_problem *p, const int64_t *choose, char *buf, size_t size);

#endif
