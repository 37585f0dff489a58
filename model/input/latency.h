/* Latency hiding by Little's law (docs/cost-model.md).  A workset with a
 * roofline may declare, in "roofline": "loads": {"bytes": EXPR, "stages":
 * COUNT}, the bytes its main loop loads from global memory into SMEM per
 * iteration and the count that is the depth of their ring.  The loader
 * writes the lets
 *
 *   load_bytes        the loads' bytes per iteration
 *   compute_cycles    cdiv(cycles, iterations): one iteration's roofline
 *   load_cycles       how long one iteration's loads take from HBM: with a
 *                     shape, cdiv(hbm_ns x clock_mhz, 1000 x waves x
 *                     cta_iterations x iterations), the kernel's HBM time per
 *                     SM over its iterations (the shape's reuse); without
 *                     one, cdiv(load_bytes x sm_count x clock_mhz, hbm_gbps x
 *                     1000), every byte at one SM's share of HBM
 *   iteration_cycles  max(1, compute_cycles, load_cycles)
 *   stages_needed     1 + cdiv(latency_hbm_clk, iteration_cycles): while one
 *                     stage is consumed the others are in flight, and they
 *                     must cover a load's latency
 *   pipeline_stages   the COUNT
 *   latency_bound     1 when pipeline_stages < stages_needed
 *
 * in exact integers.  A machine without a latency (latency_hbm_clk 0)
 * needs one stage. */
#ifndef TF_MODEL_LATENCY_H
#define TF_MODEL_LATENCY_H

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.roofline.loads and appends the lets above; nothing without it.
 * After tf_shape_read. */
int tf_latency_read(tf_workset *w, const struct cJSON *root, tf_error *err);

/* 1 when `name` is one of the latency lets above. */
int tf_latency_defines(const char *name);

#endif
