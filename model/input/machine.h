/* A machine model: what one GPU offers a CTA, with a source for every
 * number.  Loaded from machines/NAME.json; see machines/README.md for the
 * schema. */
#ifndef TF_MODEL_MACHINE_H
#define TF_MODEL_MACHINE_H

#include <stdint.h>

#include "model/core/error.h"
#include "model/input/datapath.h"

#define TF_MAX_CARVEOUTS 16

typedef struct tf_machine_source {
  char *field;  /* "smem.capacity" */
  char *text;   /* "[doc] S1 Table 27, ..." */
} tf_machine_source;

typedef struct tf_machine {
  char *name;         /* "b200" */
  char *description;  /* "NVIDIA B200 (HGX/DGX, 180 GB HBM3e)" */
  char *arch;         /* "sm_100" */
  char *file;         /* the file it was loaded from */
  int64_t sm_count;
  int64_t clock_mhz;
  int64_t hbm_gbps;   /* GB/s, 10^9 bytes */
  int64_t l2_bytes;

  struct {
    int64_t capacity;          /* opt-in dynamic SMEM per CTA, bytes */
    int64_t per_sm;            /* max SMEM per SM (largest carveout), bytes */
    int64_t reserved_per_cta;  /* driver reserve per CTA, bytes */
    int64_t granule;           /* allocation granule, bytes */
    int64_t carveouts_kb[TF_MAX_CARVEOUTS];
    int ncarveouts;
    int64_t bytes_per_clk;     /* per SM */
  } smem;

  struct {
    int present;               /* 0: the GPU has no tensor memory */
    int64_t columns;           /* 32-bit columns per SM */
    int64_t lanes;
    int64_t min_alloc_columns; /* allocations are powers of two >= this */
  } tmem;

  struct {
    int64_t per_sm;            /* 32-bit registers */
    int64_t per_thread;        /* usable maximum */
    int64_t warp_granule;      /* registers per warp allocation unit */
  } rf;

  struct {
    int64_t threads_per_sm;
    int64_t ctas_per_sm;
    int64_t threads_per_cta;
  } limits;

  struct {
    int64_t mma_f16_per_clk;   /* dense FLOP per clock per SM; 0 = unsupported */
    int64_t mma_f8_per_clk;
    int64_t mma_f4_per_clk;
    int64_t exp_per_clk;       /* MUFU exp2 per clock per SM */
  } throughput;

  struct {
    int present;               /* 0: the file gives no latency */
    int64_t hbm_clk;           /* a global-memory load's latency, SM clocks */
  } latency;                   /* optional (docs/cost-model.md, latency hiding) */

  struct {
    int present;               /* 0: the file gives no L2 rate */
    int64_t bytes_per_clk;     /* the whole chip's L2 read bandwidth, bytes per SM clock */
  } l2;                        /* optional (docs/cost-model.md, the L2 term) */

  struct {
    int present;               /* 0: times run at clock_mhz */
    int64_t clock_mhz;         /* the SM clock under sustained tensor load */
  } sustained;                 /* optional (docs/cost-model.md, the clock) */

  struct {
    int present;               /* 0: the ALU work is not charged */
    int64_t fp32_per_clk;      /* FP32 operations (lanes) per clock per SM */
  } alu;                       /* optional (docs/cost-model.md, the ALU term) */

  struct {
    int present;               /* 0: mma.sync runs at the MMA rate */
    int64_t rate_permille;     /* mma.sync's rate, per mille of the MMA rate */
  } mma_sync;                  /* optional (docs/cost-model.md, instruction paths) */

  struct {
    int present;               /* 0: accumulating in FP32 runs at the MMA rate */
    int64_t rate_permille;     /* the MMA rate with an FP32 accumulator, per mille of the table's */
  } mma_f32acc;                /* optional (docs/cost-model.md, schedules) */

  struct {
    int present;               /* 0: no fixed time */
    int64_t fixed_ns;          /* every kernel's fixed time: launch, prologue, drain */
  } kernel;                    /* optional (docs/cost-model.md, fixed costs) */

  tf_datapath datapath;        /* the mma and edges tables (optional) */

  tf_machine_source *sources;  /* where every number comes from, file order */
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
