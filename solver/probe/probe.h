/* `tilefit probe`: a machine model of the local GPU.  What the CUDA driver
 * reports (SMEM per CTA and per SM, the reserve, registers, SM count,
 * clocks, memory bus, L2, compute capability) comes from
 * cuDeviceGetAttribute; what it cannot tell (TMEM, tensor and exp
 * throughput, granules, carveouts, registers per thread) from the shipped
 * model of the same architecture.  Every number's source says which. */
#ifndef TF_SOLVER_PROBE_PROBE_H
#define TF_SOLVER_PROBE_PROBE_H

#include "model/core/error.h"

/* Probes CUDA device 0 through `lib` (NULL: $TILEFIT_CUDA_LIB or
 * libcuda.so.1) and returns the machine JSON (malloc'd, loadable by
 * tf_machine_load) named `name` (NULL: from the device name, "nvidia-h200").
 * No driver, a failing cuInit or no device: NULL with TF_EINPUT "no GPU: ...". */
char *tf_probe_machine(const char *lib, const char *name, tf_error *err);

#endif
