/* A machine's data paths: which memories each MMA instruction may read its
 * operands from (the `mma` table) and what moving bytes along each edge
 * costs (the `edges` table).  Both are optional parts of machines/NAME.json
 * (schema: machines/README.md); a workset that names an MMA instruction
 * needs the table that has it.  Where the facts come from:
 * docs/sources.md ("Operand sources" and "Transfer rates"). */
#ifndef TF_MODEL_DATAPATH_H
#define TF_MODEL_DATAPATH_H

#include <stdint.h>

#include "model/core/error.h"

#define TF_MAX_MMA 4    /* instructions in one machine's table */
#define TF_MAX_EDGES 16 /* edges in one machine's table */

/* The operands an MMA use names, in the order of the table's keys. */
enum tf_mma_operand { TF_MMA_A, TF_MMA_B, TF_MMA_D, TF_MMA_NOPERANDS };
extern const char *const tf_mma_operand_names[TF_MMA_NOPERANDS];

typedef struct tf_mma_inst {
  char *name;                         /* "wgmma" */
  int64_t m;                          /* rows one instruction computes (M = 64 for wgmma) */
  unsigned sources[TF_MMA_NOPERANDS]; /* per operand: bit m set = memory m may hold it */
  int64_t k_major_only_below_bits;    /* 0: no majorness rule */
} tf_mma_inst;

/* How an edge is charged.  A `port` edge shares smem.bytes_per_clk with
 * every other edge on that port; `derived` is the HBM rate per SM the
 * machine's hbm_gbps, sm_count and clock_mhz give; `unmetered` has no
 * trustworthy number and adds no term (its source says why). */
enum tf_edge_kind { TF_EDGE_RATE, TF_EDGE_PORT, TF_EDGE_DERIVED, TF_EDGE_UNMETERED };

typedef struct tf_edge {
  char *name;            /* "smem->mma" */
  int kind;              /* enum tf_edge_kind */
  int64_t bytes_per_clk; /* TF_EDGE_RATE only */
} tf_edge;

typedef struct tf_datapath {
  tf_mma_inst mma[TF_MAX_MMA];
  int nmma;
  tf_edge edges[TF_MAX_EDGES];
  int nedges;
} tf_datapath;

/* Does "mma.wgmma" or "edges.hbm->smem" name an entry of *dp?  What the
 * sources check asks of a dotted key it does not otherwise know. */
int tf_datapath_names_source(const tf_datapath *dp, const char *dotted);

/* Every entry needs a source: the first without one, as "mma.NAME" or
 * "edges.NAME" in buf, or 0 when all have one.  `has` asks the sources. */
int tf_datapath_unsourced(const tf_datapath *dp, int (*has)(const void *ctx, const char *dotted), const void *ctx,
                          char *buf, size_t size);

/* The instruction named `name`, or NULL. */
const tf_mma_inst *tf_datapath_mma(const tf_datapath *dp, const char *name);

/* The edge named `name` ("rf->mma"), or NULL. */
const tf_edge *tf_datapath_edge(const tf_datapath *dp, const char *name);

void tf_datapath_release(tf_datapath *dp);

#endif
