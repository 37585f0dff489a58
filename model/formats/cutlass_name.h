/* CUTLASS library kernel names as input.  cutlass_library names every 3.x
 * kernel it generates (python/cutlass_library/gemm_operation.py,
 * GemmOperation.procedural_name):
 *
 *   cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma
 *   cutlass3x_sm{arch}_{opclass}_{kind}_{A}_{B}_{acc}_{C}_{D}_{tile}_{cluster}_{stages}_{layout}_align{N}{schedule}{epilogue}
 *
 * where stages 0 means the CollectiveBuilder's automatic count.  This module
 * reads such a name into its parts and maps it onto a shipped workset, a
 * machine of that architecture, params (element types and bit widths,
 * layouts, alignment, cluster, schedules, the epilogue carveout the
 * generator passes as StageCountAutoCarveout, 2SM, grouped) and fixed tile
 * sizes; the epilogue's shared storage comes from cutlass_epilogue.h.
 * A part it does not understand is an input error naming that part. */
#ifndef TF_MODEL_CUTLASS_NAME_H
#define TF_MODEL_CUTLASS_NAME_H

#include <stdint.h>

#include "model/core/error.h"
#include "model/input/request.h"

enum tf_cutlass_opclass { TF_CL_TENSOROP, TF_CL_BLOCKSCALED, TF_CL_SPARSE };
enum tf_cutlass_sched { TF_CL_SCHED_AUTO, TF_CL_SCHED_COOP, TF_CL_SCHED_PINGPONG, TF_CL_SCHED_WS };
enum tf_cutlass_epi { TF_CL_EPI_AUTO, TF_CL_EPI_TMA, TF_CL_EPI_NOSMEM };

typedef struct tf_cutlass_kernel {
  int arch;    /* 90, 100, 103, 120 */
  int opclass; /* enum tf_cutlass_opclass */
  int grouped; /* kind gemm_grouped (ptr-array) */
  int a_bits, b_bits, acc_bits;
  int c_bits, d_bits; /* c_bits 0: void C (no source) */
  int sf_vec;         /* block-scaled: scale-factor vector size, else 0 */
  int64_t tile_m, tile_n, tile_k;
  int64_t cluster_m, cluster_n, cluster_k;
  int64_t stages; /* 0: automatic */
  int cta_group;  /* 1 or 2 (SM100 2SM) */
  int sched;      /* enum tf_cutlass_sched */
  int epi;        /* enum tf_cutlass_epi */
  int fastaccum;  /* an *FP8FastAccum schedule ("fp8_fastaccum"): one accumulator, not two */
  int fp8;        /* A and B are e4m3 or e5m2 (FP8 GMMA), not int8 */
  int a_type, b_type, acc_type, c_type, d_type; /* type codes (cutlass_types.h); void C is 1 */
  char layout[4];                               /* the A, B, C layouts as the name writes them: "tnn" */
  int align;                                    /* alignN */
  int sched_named, epi_named;                   /* the name gives a kernel / an epilogue schedule */
  char uncarried[160]; /* the first thing the name says that no param carries ("" when none): emit refuses */
} tf_cutlass_kernel;

/* Reads a name.  Errors (TF_EINPUT, path "--cutlass-name") quote the part
 * that was not understood and say what was expected there. */
int tf_cutlass_name_parse(const char *name, tf_cutlass_kernel *k, tf_error *err);

/* Fills a request from a name: machine (unless the request names one),
 * workset, params, tile fixes, and `stages` fixed when the name gives a
 * stage count; with stages 0 the objective "max stages" (the builder's
 * automatic count).  `where` names the origin in later errors. */
int tf_cutlass_name_request(const char *name, tf_request *req, tf_cutlass_kernel *k, tf_error *err);

/* The shipped workset and machine a parsed kernel maps to, or NULL with
 * *err when tilefit has no workset for it. */
const char *tf_cutlass_workset(const tf_cutlass_kernel *k, tf_error *err);
const char *tf_cutlass_machine(const tf_cutlass_kernel *k);

#endif
