/* The transfer cost graph as a roofline the program computes
 * (docs/cost-model.md).  A workset declares, per buffer, the bytes it moves
 * per main-loop iteration ("traffic": to the MMA or another memory, or from
 * one), and in "roofline" the compute per iteration (MMA operations by
 * operand width, exponentials) and how many iterations one tile takes.
 * The machine's `edges` table says which edge is charged to the SMEM port
 * (machine constants smem_port_X_Y) and its throughput table gives the
 * rates.  From these the loader writes lets, so that every later stage
 * (binding, placement, the search, --explain, plots) reads them as it reads
 * any let:
 *
 *   flow_bytes_K      bytes of the K-th declared transfer per tile
 *                     (iterations x bytes per iteration)
 *   edge_bytes_X_Y    the bytes on edge X->Y: each transfer whose buffer is
 *                     (placed) in the memory that makes it cross X->Y
 *   cycles(X->Y)      cdiv(edge_bytes_X_Y, smem_bytes_per_clk) when the edge
 *                     is on the SMEM port, else 0 (unmetered or absent)
 *   cycles(smem)      cdiv(the bytes of every SMEM-port edge, smem_bytes_per_clk)
 *   cycles(mma)       sum over MMA entries of cdiv(iterations x ops, rate),
 *                     rate the machine's mma_f4/f8/f16_per_clk by width
 *   cycles(exp)       cdiv(iterations x exponentials, exp_per_clk)
 *   cycles(alu)       cdiv(iterations x FP32 operations, fp32_per_clk): the
 *                     ALU work beside the MMA and the exponentials (the
 *                     softmax's max, scale, sum and conversion, a rescale);
 *                     0 on a machine that gives no fp32_per_clk
 *   cycles(l2)        cdiv(the bytes of every flow from L2 x sm_count,
 *                     l2_bytes_per_clk): every SM's share of the chip's L2
 *                     rate; 0 on a machine without one (only when a flow
 *                     comes from L2)
 *   cycles            the largest term (the per-tile roofline)
 *   bound_by          the binding term's code (tf_roofline_term_name), the
 *                     first in the order mma, exp, smem on a tie
 *   bound_by(TERM)    1 when TERM binds
 *
 * "loads" (the main loop's global loads) is model/input/latency.h's.
 *
 * Rounding: each term is the exact ceiling of its integer quotient; the
 * ports sum bytes before dividing (one rounding per term), MMA entries of
 * different widths are rounded each. */
#ifndef TF_MODEL_ROOFLINE_H
#define TF_MODEL_ROOFLINE_H

#include <stdint.h>

#include "model/core/error.h"
#include "model/input/workset.h"

struct cJSON;

/* Reads $.roofline and every buffer's `traffic`, and appends the lets
 * above; nothing when the workset declares neither.  After the buffers and
 * placement are read, before binding. */
int tf_roofline_read(tf_workset *w, const struct cJSON *root, tf_error *err);

/* The terms, in tie-break order; bound_by's value is the index + 1. */
#define TF_ROOFLINE_NTERMS 5
extern const char *const tf_roofline_terms[TF_ROOFLINE_NTERMS];
#define TF_TERM_HBM (TF_ROOFLINE_NTERMS + 1) /* time_bound_by (model/input/shape.h): HBM binds */
/* 1 when `name` is cycles, bound_by or either of a term, as a roofline
 * writes them. */
int tf_roofline_defines(const char *name);

/* The name of a bound_by or time_bound_by value ("mma", "hbm"), or NULL. */
const char *tf_roofline_term_name(int64_t code);

/* The edge a flow takes when its buffer is in memory `mem`: "smem->mma"
 * into buf; 0 when it crosses none (a buffer in rf written from rf). */
int tf_flow_edge(const tf_flow *f, int mem, char *buf, size_t size);

/* 1 when edge from->to (memories, or TF_END_MMA) is charged to the SMEM
 * port on a machine with these data paths: the machine constant
 * smem_port_FROM_TO. */
struct tf_datapath;
int tf_roofline_smem_port(const struct tf_datapath *dp, int from, int to);

#endif
