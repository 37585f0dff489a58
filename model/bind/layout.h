/* Where each buffer of an evaluated point sits in its memory: the offsets
 * that make the charges the capacity rows sum (model/bind/memory.h) a place.
 *
 * Per memory, buffers are laid out in the workset's layout order
 * (`layout_order`, else workset order; model/input/lifetime.h) from offset 0, each
 * taking what tf_memory_add charged it (its size rounded up to its
 * alignment).  The always-live buffers come first; after them every phase
 * (lifetime) starts at the same offset, `phase_base`, its buffers one
 * after another: a union of the phases, as large as the largest, so the
 * end of the layout is the memory's `used` (the lifetime rule of
 * model/bind/memory.h).  The
 * rounding is the charge's: a size is rounded, an offset is not, so an
 * offset need not be a multiple of the buffer's alignment (`aligned` says
 * when it is).  A buffer that aliases a host in the same memory
 * (tf_memory_alias_host) starts at the host's offset and shares its space
 * (a union); what it adds beyond the host's own size -- the part the
 * capacity rows charge it -- is laid out at the next free offset, as
 * `extra_offset`.  Units are the memory's: bytes, 32-bit columns,
 * registers per thread. */
#ifndef TF_MODEL_LAYOUT_H
#define TF_MODEL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"
#include "model/input/memory_kind.h"

typedef struct tf_layout_slot {
  size_t buffer;        /* index into the workset's buffers */
  int memory;           /* enum tf_memory, at the point's placement */
  int64_t offset;       /* where it starts */
  int64_t size;         /* its own size (an aliased buffer's whole size) */
  int64_t allocated;    /* what the capacity rows charge it */
  int64_t align;        /* its rounding */
  int aligned;          /* offset is a multiple of align */
  int host;             /* the buffer it shares space with, or -1 */
  int64_t extra_offset; /* host >= 0 and allocated > 0: where the excess lies */
  int lifetime;         /* the workset's phase index, or -1: live throughout */
} tf_layout_slot;

typedef struct tf_layout {
  size_t nslots; /* one per buffer, grouped by memory, in layout order:
                              the always-live ones, then each phase's */
  tf_layout_slot *slots;
  int64_t end[TF_NMEM];                          /* the end of the last buffer: the memory's used */
  int64_t capacity[TF_NMEM];                     /* enforced at the point (SMEM less with an occupancy) */
  int shown[TF_NMEM];                            /* a report shows the memory (tf_memory_report) */
  int phased[TF_NMEM];                           /* a buffer of some phase is in the memory */
  int64_t phase_base[TF_NMEM];                   /* where every phase starts: the always-live end */
  int64_t phase_size[TF_NMEM][TF_MAX_LIFETIMES]; /* each phase's charges, summed */
} tf_layout;

/* Lays out the buffers of point pt (evaluated by tf_problem_eval_point)
 * at its placement.  -1 on overflow (with *err); end[m] equals
 * pt->used[m] for every memory. */
int tf_layout_of(const tf_problem *p, const tf_point *pt, tf_layout *out, tf_error *err);
void tf_layout_release(tf_layout *l);

#endif
