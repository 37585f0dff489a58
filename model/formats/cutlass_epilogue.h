/* The shared storage of a CUTLASS 3.x collective epilogue, the number the
 * library generator passes as StageCountAutoCarveout, computed with the
 * builders' own rules (NVIDIA/cutlass @ 7107b055,
 * epilogue/collective/sm90_epilogue_tma_warpspecialized.hpp:147-232):
 *   epilogue tile  sm90_builder.inl:112-153, sm100_builder.inl:980-1050,
 *                  sm120_builder.inl:145-199
 *   C/D stages     sm90_builder.inl:64-86, sm100_builder.inl:1107-1150,
 *                  sm120_builder.inl:78-113
 *   storage        sm90_epilogue_tma_warpspecialized.hpp:147-232
 * A no-smem epilogue's storage is 1 byte on SM90 (DefaultEpilogue) and 32
 * on SM100 (NoSmemWarpSpecialized1Sm), as printed by the compiler. */
#ifndef TF_MODEL_CUTLASS_EPILOGUE_H
#define TF_MODEL_CUTLASS_EPILOGUE_H

#include <stdint.h>

#include "model/formats/cutlass_name.h"

typedef struct tf_cutlass_epi_tile {
  int64_t m, n; /* epilogue tile */
  int64_t stages_c, stages_d;
  int reuse;     /* C and D share smem */
  int64_t align; /* swizzle alignment of the smem atom */
} tf_cutlass_epi_tile;

/* The epilogue tile and stages of a TMA epilogue. */
void tf_cutlass_epi_tile_of(const tf_cutlass_kernel *k, tf_cutlass_epi_tile *t);

/* sizeof(CollectiveEpilogue::SharedStorage). */
int64_t tf_cutlass_epilogue_bytes(const tf_cutlass_kernel *k);

#endif
