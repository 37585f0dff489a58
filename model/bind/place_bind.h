/* Placement in a bound problem (docs/placement.md):
 * every placed buffer becomes a generated choose variable over its
 * candidate memories, so that each combination fixes every placement and
 * everything downstream (sizes, rounding, aliasing, placed(), pruning,
 * the ILP, verification) works per combination unchanged.
 *
 * A buffer's candidates are its place list (or for a buffer with neither
 * `memory` nor `place`, the memories its sizes name), less what an MMA
 * that reads it cannot read it from (the machine's mma table), narrowed by
 * the request's pins (--place, "place").  Binding is internal to model/;
 * the reading functions at the end are how every other file reads a
 * placement, so that only place_bind.c knows how one is stored. */
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

/* ------------------------------------------------------ reading placements
 * A bound problem's choose variables 0 .. tf_place_nnumeric(p) - 1 hold
 * integers (the workset's own, then occupancy): a caller may rely on that
 * prefix (a tile's values compared at once, a list of their names).  Each
 * of the others is one placed buffer's placement; k counts placements
 * (0 .. tf_place_count(p) - 1, buffers in workset order), i choose
 * variables.  choose_names[i] of a placement is its buffer's name. */
size_t tf_place_nnumeric(const tf_problem *p);
size_t tf_place_count(const tf_problem *p);

/* Placement k's choose variable. */
size_t tf_place_var(const tf_problem *p, size_t k);

/* Is choose variable i a placement? */
int tf_place_is_var(const tf_problem *p, size_t i);

/* Frees what tf_place_bind allocated in p (tf_problem_free calls it). */
void tf_place_bind_release(tf_problem *p);

/* Buffer b's placement variable, or -1 where its memory is fixed (or the
 * problem places nothing).  Inline: the charge rule reads it per buffer
 * at every combination (model/bind/memory.c). */
static inline int tf_place_of_buffer(const tf_problem *p, size_t b) { return p->place_var ? p->place_var[b] : -1; }

/* The memory (enum tf_memory) that value v of placement variable i stands
 * for: an answer's choose[i], or a value of its domain. */
int tf_place_memory(const tf_problem *p, size_t i, int64_t v);

#endif
