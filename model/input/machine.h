/* A machine model: what one GPU offers a CTA, with a source for every
 * number.  Loaded from machines/NAME.json; see machines/README.md for the
 * schema. */
#ifndef TF_MODEL_MACHINE_H
#define TF_MODEL_MACHINE_H

#include <stdint.h>

#include "model/core/error.h"
#include "model/input/datapath.h"

#define TF_MAX_CARVEOUTS 16

/* The integer fields of a machine file, one row each, in the loader's
 * order (its key checks, reader, sources check and tf_machine_field):
 *   TOP(key, lo, hi, constant)           a root member, m->key
 *   SUB(section, key, lo, hi, constant)  m->section.key, JSON $.section.key
 *   SUB_ONLY(section, key, lo, hi)       the same, with no machine constant
 * valid in [lo, hi]; `constant` is the name worksets read it by
 * (workset.h's machine constants, 0 on a machine without the section).  A
 * new field is a member of tf_machine below and a row here.  The constants
 * that are not a field (the SMEM port of each edge, the arch's numbers)
 * are workset.h's TF_MACHINE_PORTS and TF_MACHINE_DERIVED. */
#define TF_MACHINE_COUNT_MAX ((int64_t)1 << 24) /* SMs, threads, registers, FLOP/clk */
#define TF_MACHINE_BYTES_MAX ((int64_t)1 << 40) /* any size in bytes; 1 TiB */
/* clang-format off */
#define TF_MACHINE_FIELDS(TOP, SUB, SUB_ONLY)                                             \
  TOP(sm_count, 1, TF_MACHINE_COUNT_MAX, sm_count)                                        \
  TOP(clock_mhz, 1, 1000000, clock_mhz)                                                   \
  TOP(hbm_gbps, 1, TF_MACHINE_BYTES_MAX, hbm_gbps)                                        \
  TOP(l2_bytes, 1, TF_MACHINE_BYTES_MAX, l2_bytes)                                        \
  SUB(smem, capacity, 1, TF_MACHINE_BYTES_MAX, smem_capacity)                             \
  SUB(smem, per_sm, 1, TF_MACHINE_BYTES_MAX, smem_per_sm)                                 \
  SUB(smem, reserved_per_cta, 0, TF_MACHINE_BYTES_MAX, smem_reserved)                     \
  SUB(smem, granule, 1, TF_MACHINE_BYTES_MAX, smem_granule)                               \
  SUB(smem, bytes_per_clk, 1, TF_MACHINE_BYTES_MAX, smem_bytes_per_clk)                   \
  SUB(tmem, columns, 1, TF_MACHINE_COUNT_MAX, tmem_columns)                               \
  SUB(tmem, lanes, 1, TF_MACHINE_COUNT_MAX, tmem_lanes)                                   \
  SUB_ONLY(tmem, min_alloc_columns, 1, TF_MACHINE_COUNT_MAX)                              \
  SUB(rf, per_sm, 1, TF_MACHINE_COUNT_MAX, rf_per_sm)                                     \
  /* 255 on sm_ (machine.c's check_rf_limits), 512 VGPRs on gfx */                      \
  SUB(rf, per_thread, 1, 512, rf_per_thread)                                              \
  SUB(rf, warp_granule, 1, TF_MACHINE_COUNT_MAX, rf_warp_granule)                         \
  SUB(limits, threads_per_sm, 1, TF_MACHINE_COUNT_MAX, threads_per_sm)                    \
  SUB(limits, ctas_per_sm, 1, TF_MACHINE_COUNT_MAX, ctas_per_sm)                          \
  SUB(limits, threads_per_cta, 1, TF_MACHINE_COUNT_MAX, threads_per_cta)                  \
  SUB(throughput, mma_f16_per_clk, 0, TF_MACHINE_COUNT_MAX, mma_f16_per_clk)              \
  SUB(throughput, mma_f8_per_clk, 0, TF_MACHINE_COUNT_MAX, mma_f8_per_clk)                \
  SUB(throughput, mma_f4_per_clk, 0, TF_MACHINE_COUNT_MAX, mma_f4_per_clk)                \
  SUB(throughput, exp_per_clk, 1, TF_MACHINE_COUNT_MAX, exp_per_clk)                      \
  SUB(latency, hbm_clk, 1, 1000000, latency_hbm_clk)                                      \
  SUB(l2, bytes_per_clk, 1, TF_MACHINE_COUNT_MAX, l2_bytes_per_clk)                       \
  SUB_ONLY(sustained, clock_mhz, 1, 1000000)                                              \
  SUB(alu, fp32_per_clk, 1, TF_MACHINE_COUNT_MAX, fp32_per_clk)                           \
  SUB_ONLY(mma_sync, rate_permille, 1, 1000)                                              \
  SUB_ONLY(mma_f32acc, rate_permille, 1, 1000)                                            \
  SUB(kernel, fixed_ns, 0, 1000000000, kernel_fixed_ns)
/* clang-format on */
#define TF_MACHINE_FIELD_ONE(...) +1
enum { TF_MACHINE_NFIELDS = 0 TF_MACHINE_FIELDS(TF_MACHINE_FIELD_ONE, TF_MACHINE_FIELD_ONE, TF_MACHINE_FIELD_ONE) };

typedef struct tf_machine_source {
  char *field; /* "smem.capacity" */
  char *text;  /* "[doc] S1 Table 27, ..." */
} tf_machine_source;

typedef struct tf_machine {
  char *name;        /* "b200" */
  char *description; /* "NVIDIA B200 (HGX/DGX, 180 GB HBM3e)" */
  char *arch;        /* "sm_100" */
  char *file;        /* the file it was loaded from */
  int64_t sm_count;
  int64_t clock_mhz;
  int64_t hbm_gbps; /* GB/s, 10^9 bytes */
  int64_t l2_bytes;

  struct {
    int64_t capacity;         /* opt-in dynamic SMEM per CTA, bytes */
    int64_t per_sm;           /* max SMEM per SM (largest carveout), bytes */
    int64_t reserved_per_cta; /* driver reserve per CTA, bytes */
    int64_t granule;          /* allocation granule, bytes */
    int64_t carveouts_kb[TF_MAX_CARVEOUTS];
    int ncarveouts;
    int64_t bytes_per_clk; /* per SM */
  } smem;

  struct {
    int present;     /* 0: the GPU has no tensor memory */
    int64_t columns; /* 32-bit columns per SM */
    int64_t lanes;
    int64_t min_alloc_columns; /* allocations are powers of two >= this */
  } tmem;

  struct {
    int64_t per_sm;       /* 32-bit registers */
    int64_t per_thread;   /* usable maximum */
    int64_t warp_granule; /* registers per warp allocation unit */
  } rf;

  struct {
    int64_t threads_per_sm;
    int64_t ctas_per_sm;
    int64_t threads_per_cta;
  } limits;

  struct {
    int64_t mma_f16_per_clk; /* dense FLOP per clock per SM; 0 = unsupported */
    int64_t mma_f8_per_clk;
    int64_t mma_f4_per_clk;
    int64_t exp_per_clk; /* MUFU exp2 per clock per SM */
  } throughput;

  struct {
    int present;     /* 0: the file gives no latency */
    int64_t hbm_clk; /* a global-memory load's latency, SM clocks */
  } latency;         /* optional (docs/cost-model.md, latency hiding) */

  struct {
    int present;           /* 0: the file gives no L2 rate */
    int64_t bytes_per_clk; /* the whole chip's L2 read bandwidth, bytes per SM clock */
  } l2;                    /* optional (docs/cost-model.md, the L2 term) */

  struct {
    int present;       /* 0: times run at clock_mhz */
    int64_t clock_mhz; /* the SM clock under sustained tensor load */
  } sustained;         /* optional (docs/cost-model.md, the clock) */

  struct {
    int present;          /* 0: the ALU work is not charged */
    int64_t fp32_per_clk; /* FP32 operations (lanes) per clock per SM */
  } alu;                  /* optional (docs/cost-model.md, the ALU term) */

  struct {
    int present;           /* 0: mma.sync runs at the MMA rate */
    int64_t rate_permille; /* mma.sync's rate, per mille of the MMA rate */
  } mma_sync;              /* optional (docs/cost-model.md, instruction paths) */

  struct {
    int present;           /* 0: accumulating in FP32 runs at the MMA rate */
    int64_t rate_permille; /* the MMA rate with an FP32 accumulator, per mille of the table's */
  } mma_f32acc;            /* optional (docs/cost-model.md, schedules) */

  struct {
    int present;      /* 0: no fixed time */
    int64_t fixed_ns; /* every kernel's fixed time: launch, prologue, drain */
  } kernel;           /* optional (docs/cost-model.md, fixed costs) */

  tf_datapath datapath; /* the mma and edges tables (optional) */

  tf_machine_source *sources; /* where every number comes from, file order */
  size_t nsources;
} tf_machine;

/* The clock times run at: the sustained clock when the machine gives one,
 * else clock_mhz (the machine constant sustained_mhz). */
int64_t tf_machine_time_mhz(const tf_machine *m);

/* Loads a machine from a JSON file.  Returns a machine owned by the caller
 * (tf_machine_free), or NULL with *err naming the file and JSON path. */
tf_machine *tf_machine_load(const char *file, tf_error *err);

/* Loads from JSON text already in memory (fuzzing, tests). */
tf_machine *tf_machine_parse(const char *text, size_t len, const char *file, tf_error *err);

void tf_machine_free(tf_machine *m);

/* The integer fields, in the loader's order, by their source key
 * ("smem.capacity"): field i's name and value; returns 0, 1 when this
 * machine has no such field (tmem without tensor memory), -1 past the
 * last field. */
int tf_machine_field(const tf_machine *m, size_t i, char *name, size_t size, int64_t *value);

/* Every field's value in the table's order, 0 where this machine has no
 * such field (its section is absent): v[TF_MACHINE_NFIELDS]. */
void tf_machine_field_values(const tf_machine *m, int64_t *v);

/* Does the machine's architecture match `pattern`?  A pattern is an arch
 * ("sm_90"), a family ("sm_10x": sm_100 to sm_109), or a lower bound of
 * one vendor ("sm_80+": every sm_ arch from sm_80 on).  Letter suffixes
 * ("sm_90a") are ignored on both sides.  -1: not a pattern. */
int tf_machine_arch_matches(const tf_machine *m, const char *pattern);

/* The number an arch spells after a vendor prefix, read in decimal:
 * "sm_" on sm_90a gives 90 (the compute capability times ten), "gfx" on
 * gfx942 gives 942; 0 when the arch is another vendor's.  Worksets read
 * them as the machine constants cc and gfx. */
int64_t tf_machine_arch_number(const tf_machine *m, const char *prefix);

/* Is `pattern` one tf_machine_arch_matches takes? */
int tf_arch_pattern_valid(const char *pattern);

#endif
