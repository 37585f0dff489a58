/* The problem's shape and the whole-kernel time (docs/cost-model.md).  A
 * workset with a roofline may declare, in "shape", what its problem
 * dimensions make of it: the CTAs launched, the main-loop iterations each
 * runs, the HBM bytes the whole kernel moves (with the reuse its comment
 * states) and its useful operations.  The loader writes the lets
 *
 *   waves          cdiv(ctas, sm_count): one CTA per SM at a time (the
 *                  shipped kernels fill SMEM; occupancy 1 is the assumption)
 *   cta_iterations the tiles (main loops) each CTA runs, the shape's iterations
 *   compute_ns     cdiv(cycles x iterations x waves x 1000, clock_mhz)
 *   hbm_ns         cdiv(hbm_bytes, hbm_gbps): bytes at the machine's HBM rate
 *                  (1 GB/s moves 1 byte per ns)
 *   time_ns        max(compute_ns, hbm_ns), time_us = cdiv(time_ns, 1000)
 *   ideal_ns       cdiv(flops x 1000, mma_rate_0 x sm_count x clock_mhz): the
 *                  machine's peak on the same operations
 *   time_bound_by  4 (hbm) when hbm_ns > compute_ns, else bound_by
 *
 * in exact integers, each the ceiling of one quotient.  A shape that
 * declares "fill" (the clocks a CTA waits before its main loop starts, of
 * a kernel that is not persistent) lets CTAs share an SM as their SMEM and
 * registers allow, and "occupancy" becomes a variable of the time:
 *
 *   sm_ctas        cdiv(ctas, sm_count): the CTAs each SM runs, whatever
 *                  the occupancy (the latency lets spread its HBM time over
 *                  their iterations, as over the waves' at one CTA per SM)
 *   waves          cdiv(ctas, sm_count x occupancy)
 *   compute_ns     cdiv(cycles x iterations x sm_ctas x 1000, clock_mhz): an
 *                  SM's CTAs share its units, so its work is the same at
 *                  every occupancy
 *   fill_ns        cdiv(fill x (occupancy > 1 ? 1 : waves) x 1000, clock_mhz):
 *                  one CTA's wait is hidden behind another's main loop when
 *                  two share the SM; alone, every wave waits
 *   time_ns        max(compute_ns, hbm_ns) + fill_ns */
#ifndef TF_MODEL_SHAPE_H
#define TF_MODEL_SHAPE_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.shape (needs $.roofline) and appends the lets above; nothing
 * without $.shape.  After tf_roofline_read. */
int tf_shape_read(tf_workset *w, const struct cJSON *root, tf_error *err);

/* 1 when `name` is one of the lets above (with or without a fill). */
int tf_shape_defines(const char *name);

#endif
