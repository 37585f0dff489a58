/* The memories a buffer may live in, and the one place that knows their
 * rules: a memory's unit, its capacity at a combination (occupancy
 * included), how a buffer's size is charged to it (rounding), which
 * buffers it holds at a combination, and the sum of those charges.
 * Everything that compares a memory's use with its capacity asks here.
 *
 * A buffer's memory is asked of this module (tf_memory_of), never read
 * from the workset: placement may make it a decision per combination.
 * A fixed buffer's is the memory the workset declares; a placed buffer's
 * is its placement variable's value at the combination.
 *
 * Per CTA (what a buffer is charged, what capacity is compared with):
 *   smem  bytes;               a buffer is charged its size rounded up to its
 *                              alignment; capacity is the opt-in maximum, or
 *                              less when an occupancy is asked for
 *   tmem  32-bit columns;      charged its size rounded up to its alignment
 *   rf    registers / thread;  charged its size rounded up to its alignment
 * Per SM (what occupancy compares: CTAs x one CTA's footprint <= per SM):
 *   smem  align(use + reserved, granule)        (tf_memory_smem_for_occupancy)
 *   tmem  the next power of two >= use, at least the minimum allocation
 *   rf    warps x align(use x 32, warp granule)
 *
 * Lifetimes (model/input/lifetime.h): a buffer may be live only during one phase
 * of the kernel (its `lifetime`); buffers of different phases never live at
 * once, so they may share space.  A memory's use is
 *     (its always-live buffers' charges) + max over phases (that phase's)
 * which is the largest of its rows: row 0 charges the always-live buffers,
 * row q + 1 those and phase q's.  This is the one rule: every use, bound,
 * line, used() form and capacity row below is computed from it, and the
 * ILP's capacity rows are exactly these rows (a max is linear as one row
 * per phase).
 *
 * Sizes and charges are int64 and checked: a function that can overflow
 * returns -1 and leaves the caller to report it. */
#ifndef TF_MODEL_MEMORY_H
#define TF_MODEL_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"
#include "model/expr/expr.h"
#include "model/input/memory_kind.h"
#include "model/input/workset.h" /* TF_MAX_LIFETIMES */

struct tf_problem;

/* ------------------------------------------------- at a combination */

/* Combinations are named either by index c into p->combo (kept
 * combinations) or by their choose values (any point, kept or not); the
 * _at forms take the values, the others the index. */

/* The memory buffer b is charged to at a combination. */
int tf_memory_of_at(const struct tf_problem *p, size_t b, const int64_t *choose);
int tf_memory_of(const struct tf_problem *p, size_t b, size_t c);

/* Buffer b's size expression at a combination: its size in the memory it
 * is placed in. */
const tf_expr *tf_memory_size_expr(const struct tf_problem *p, size_t b, const int64_t *choose);

/* Aliasing: when buffer b names another (`alias`) and both sit in one
 * memory at the combination, b lies inside that host's space and adds
 * only max(0, size - host's size); returns the host, else -1.  Both
 * sizes must then be count-free (tf_memory_fold_aliases says so). */
int tf_memory_alias_host(const struct tf_problem *p, size_t b, const int64_t *choose);

/* Applies the alias rule to every buffer's size at a combination:
 * sizes[b * stride] (then stride - 1 count coefficients) holds each raw
 * size and gets what the buffer adds.  TF_EINPUT when an aliased pair's
 * sizes depend on a count. */
int tf_memory_fold_aliases(const struct tf_problem *p, const int64_t *choose, int64_t *sizes, size_t stride,
                           tf_error *err);

/* Capacity of memory `mem` at a combination, in its unit: the machine's,
 * or for SMEM less when the combination's occupancy asks for it. */
int64_t tf_memory_capacity_at(const struct tf_problem *p, int mem, const int64_t *choose);
int64_t tf_memory_capacity(const struct tf_problem *p, int mem, size_t c);

/* Does memory `mem`'s capacity depend on the combination?  (Today: SMEM
 * when an occupancy is asked for.)  When not, it is
 * tf_memory_capacity_max. */
int tf_memory_capacity_varies(const struct tf_problem *p, int mem);

/* The most memory `mem` offers at any combination: the machine's, before
 * occupancy.  What a bound that holds at every combination uses. */
int64_t tf_memory_capacity_max(const struct tf_problem *p, int mem);
/* Sets the problem's per-memory capacities from its machine (binding). */
void tf_memory_bind_capacities(struct tf_problem *p);

/* Can a buffer of the problem be charged to `mem` at some combination: a
 * fixed buffer's declared memory, or one of a placed buffer's candidates
 * (its place list narrowed by the machine and the request's pins)? */
int tf_memory_in_use(const struct tf_problem *p, int mem);

/* What every report shows of memory `mem` at a point: whether the row is
 * shown (tf_memory_in_use), the point's use, the capacity the engine
 * enforces at the point's combination (occupancy included) and the slack,
 * capacity - used (negative: over).  `choose` NULL (no point): used 0 and
 * the capacity before occupancy.  The one query behind the text, JSON and
 * CSV memory rows and prune's verdicts. */
typedef struct tf_memory_row {
  int shown;
  int64_t used, capacity, slack;
} tf_memory_row;
tf_memory_row tf_memory_report(const struct tf_problem *p, int mem, const int64_t *choose, const int64_t used[TF_NMEM]);

/* The first memory whose use exceeds its capacity at the point, or -1. */
int tf_memory_over(const struct tf_problem *p, const int64_t *choose, const int64_t used[TF_NMEM]);

/* The buffers charged to `mem` at combination c, in workset order, into
 * out[] (room for p->nbuffers); returns how many. */
size_t tf_memory_buffers(const struct tf_problem *p, int mem, size_t c, size_t *out);

/* ------------------------------------------------------- lifetimes */

/* A problem's rows per memory: 1 + the workset's phases. */
int tf_memory_nrows(const struct tf_problem *p);

/* Does row r of a memory charge buffer b (when b is in that memory)? */
int tf_memory_in_row(const struct tf_problem *p, size_t b, int r);

/* Is row r of memory `mem` one a capacity test needs at some kept
 * combination: a phase's row where a buffer of the phase is charged to
 * mem, or row 0 where no phase's buffer is (row 0 is inside every other)? */
int tf_memory_row_needed(const struct tf_problem *p, int mem, int r);

/* The phase of row r >= 1 ("mainloop"), NULL for row 0. */
const char *tf_memory_row_name(const struct tf_problem *p, int r);

/* Per-phase sums: slots[TF_MEMORY_SLOT(mem, 0)] the always-live buffers'
 * charges in mem, slots[TF_MEMORY_SLOT(mem, q + 1)] phase q's. */
#define TF_MEMORY_ROWS_MAX (1 + TF_MAX_LIFETIMES)
#define TF_MEMORY_SLOTS (TF_NMEM * TF_MEMORY_ROWS_MAX)
#define TF_MEMORY_SLOT(mem, r) ((size_t)(mem)*TF_MEMORY_ROWS_MAX + (size_t)(r))
/* The slot buffer b's charge is added to when it is in memory `mem`. */
size_t tf_memory_slot(const struct tf_problem *p, size_t b, int mem);

/* The rule: used[m] = slots(m, 0) + max(0, max over phases slots(m, q)).
 * Slots are >= 0.  `saturate`: a sum past INT64_MAX is INT64_MAX (past
 * every capacity); else -1 on overflow.  0 ok. */
int tf_memory_total(const struct tf_problem *p, const int64_t slots[TF_MEMORY_SLOTS], int saturate,
                    int64_t used[TF_NMEM]);

/* ------------------------------------------------- charging a buffer */

/* Buffer b's rounding: a charge is a multiple of it (>= 1). */
int64_t tf_memory_align(const struct tf_problem *p, size_t b);

/* What a buffer of `size` units is charged: size rounded up to the
 * buffer's alignment.  0 ok, -1 on overflow.  (A negative size fits
 * nowhere; callers decide what that means.) */
int tf_memory_charge(const struct tf_problem *p, size_t b, int64_t size, int64_t *charged);

/* Every memory's use at combination c and counts: sum of the charges of
 * its buffers, from the problem's affine sizes.  1 ok, 0 a buffer's size
 * is negative there, -1 on overflow. */
int tf_memory_use(const struct tf_problem *p, size_t c, const int64_t *counts, int64_t used[TF_NMEM]);

/* Bounds on memory `mem`'s use at combination c over the box of counts
 * lo[k] <= count k <= hi[k]: every point of the box whose sizes are all
 * non-negative uses at least *min and at most *max (a negative size counts
 * as 0 in *min).  0 ok, -1 when *min overflows int64; *max saturates at
 * INT64_MAX.  `max` may be NULL when only the least use is wanted. */
int tf_memory_use_range(const struct tf_problem *p, size_t c, int mem, const int64_t *lo, const int64_t *hi,
                        int64_t *min, int64_t *max);

/* tf_memory_use_range's least use of every memory at once, in one pass
 * over the buffers.  0 ok, -1 when one overflows int64. */
int tf_memory_least_use(const struct tf_problem *p, size_t c, const int64_t *lo, const int64_t *hi,
                        int64_t least[TF_NMEM]);

/* Row r of memory `mem` at combination c as a line in count k, the other
 * counts at counts[]: use(k) >= row(k) >= resident + per_unit * k, where
 * resident charges (rounds) the row's buffers that do not depend on k and
 * adds the others' unrounded rest, and per_unit sums their k coefficients;
 * the row is equal to it when every k-dependent buffer has alignment 1,
 * and the use is the largest row.  0 ok, -1 on overflow. */
int tf_memory_line(const struct tf_problem *p, size_t c, int mem, int r, const int64_t *counts, int k,
                   int64_t *resident, int64_t *per_unit);

/* ------------------------------------------ used(MEM), a point's use */

/* used(mem) at a combination as an affine form in the counts, from the
 * buffers' affine sizes (one per buffer): the charges of the count-free
 * buffers plus the count-dependent ones, which must then be unrounded
 * (TF_EINPUT otherwise: used() would not be affine).  With buffers of more
 * than one phase in mem, the max over phases is affine only when every
 * phase's sum is count-free (TF_EINPUT otherwise). */
int tf_memory_used_form(const struct tf_problem *p, int mem, const int64_t *choose, const tf_affine *sizes,
                        tf_affine *out, tf_error *err);

/* Charges buffer b, of `size` units at a combination, to its memory:
 * *alloc gets the charge and its slot (tf_memory_slot) grows by it.  The
 * step of a concrete point's evaluation, which ends with tf_memory_total.
 * Errors (TF_EINPUT, naming the buffer): a negative size, an overflow. */
int tf_memory_add(const struct tf_problem *p, size_t b, const int64_t *choose, int64_t size, int64_t *alloc,
                  int64_t slots[TF_MEMORY_SLOTS], tf_error *err);

/* tf_memory_use_range over explicit affine sizes (stride 1 + ncounts, one
 * per buffer) at a combination given by its choose values: what occupancy
 * checks for a point that is not a kept combination. */
int tf_memory_use_range_forms(const struct tf_problem *p, int mem, const int64_t *choose, const int64_t *sizes,
                              const int64_t *lo, const int64_t *hi, int64_t *min, int64_t *max);

#endif
