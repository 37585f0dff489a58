/* A workset: what one CTA of a kernel holds, as data.  Loaded from
 * model/worksets/NAME.json; the schema is in model/worksets/README.md.
 *
 * Every expression is parsed and bound at load time, so a misspelt name is
 * an error that names the file and JSON path before anything is solved.
 * Its symbols, the names expressions use and their ids, are
 * model/input/symbols.h's. */
#ifndef TF_MODEL_WORKSET_H
#define TF_MODEL_WORKSET_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"
#include "model/core/names.h"
#include "model/expr/expr.h"
#include "model/input/lets.h"
#include "model/input/machine.h"     /* TF_MACHINE_FIELDS */
#include "model/input/memory_kind.h" /* enum tf_memory */
#include "model/input/symbols.h"

/* Phases (lifetimes) a workset's buffers may name (model/input/lifetime.h). */
#define TF_MAX_LIFETIMES 16

/* Constants every expression may use, taken from the machine model: one
 * per field of machine.h's TF_MACHINE_FIELDS that names one (0 when the
 * machine lacks the field's section), then one per row of these two
 * tables, in this order (model/bind/problem.c gives each its value).
 *
 * TF_MACHINE_PORTS(X): X(name, from, to), the constant smem_port_name: 1
 * when the machine's `edges` table charges edge from->to (memories,
 * TF_END_MMA or TF_END_L2) to the SMEM port (an X->mma edge the table
 * lacks goes through registers, X->rf, as mma.sync's operands do), else 0
 * (unmetered or absent).  smem_port_l2_smem: 1 when the edge l2->smem
 * (cp.async writing the SMEM banks) is on the SMEM port.
 *
 * TF_MACHINE_DERIVED(X): X(name), computed from the machine by problem.c's
 * function mc_name.  cc: the compute capability times ten on an sm_ arch
 * (90 on sm_90a), else 0; gfx: the number of a gfx arch (942 on gfx942),
 * else 0; sustained_mhz: the clock times run at (the machine's `sustained`
 * clock, else clock_mhz); mma_sync_permille and mma_f32acc_permille: the
 * mma.sync path's and an FP32 accumulator's MMA rate per mille (1000 when
 * the machine gives none).  fp32_per_clk and kernel_fixed_ns, fields, are 0
 * when the machine lacks their section (docs/cost-model.md). */
#define TF_END_MMA TF_NMEM      /* the MMA unit as an endpoint */
#define TF_END_L2 (TF_NMEM + 1) /* the L2 cache, a source only (cp.async, TMA) */
/* clang-format off */
#define TF_MACHINE_PORTS(X) \
  X(smem_tmem, TF_MEM_SMEM, TF_MEM_TMEM) X(smem_rf, TF_MEM_SMEM, TF_MEM_RF) \
  X(smem_mma, TF_MEM_SMEM, TF_END_MMA) X(tmem_smem, TF_MEM_TMEM, TF_MEM_SMEM) \
  X(tmem_rf, TF_MEM_TMEM, TF_MEM_RF) X(tmem_mma, TF_MEM_TMEM, TF_END_MMA) \
  X(rf_smem, TF_MEM_RF, TF_MEM_SMEM) X(rf_tmem, TF_MEM_RF, TF_MEM_TMEM) \
  X(rf_mma, TF_MEM_RF, TF_END_MMA) X(l2_smem, TF_END_L2, TF_MEM_SMEM)
/* clang-format on */
#define TF_MACHINE_DERIVED(X) X(cc) X(gfx) X(sustained_mhz) X(mma_sync_permille) X(mma_f32acc_permille)

#define TF_MC_FIELD(k, lo, hi, c) TF_MC_##c,
#define TF_MC_SUB(s, k, lo, hi, c) TF_MC_##c,
#define TF_MC_NONE(s, k, lo, hi)
#define TF_MC_PORT(n, from, to) TF_MC_smem_port_##n,
#define TF_MC_DERIVED(n) TF_MC_##n,
enum tf_machine_constant {
  TF_MACHINE_FIELDS(TF_MC_FIELD, TF_MC_SUB, TF_MC_NONE) TF_MACHINE_PORTS(TF_MC_PORT) TF_MACHINE_DERIVED(TF_MC_DERIVED)
      TF_NMC
};
extern const char *const tf_machine_constant_names[TF_NMC]; /* model/input/symbols.c */

#define TF_MAX_DOMAIN 100000 /* values in one choose domain */
#define TF_MAX_NAME_BYTES 64 /* a workset's, a buffer's or a variable's name */
#define TF_MAX_CHOOSE 32     /* choose variables per workset, occupancy and placements included */

typedef struct tf_named_expr {
  char *name;
  tf_expr *expr;
  char *path; /* JSON path of the expression, for errors */
} tf_named_expr;

typedef struct tf_choose {
  char *name;
  int64_t *values;
  size_t nvalues;
} tf_choose;

typedef struct tf_count {
  char *name;
  tf_expr *min, *max; /* constant expressions over params and machine constants */
} tf_count;

typedef struct tf_buffer {
  char *name;
  int memory;     /* enum tf_memory, as declared (a placed buffer's first candidate): ask tf_memory_of */
  tf_expr *size;  /* bytes, columns or registers per thread, in `memory` */
  tf_expr *align; /* NULL: 1; constant over params and machine constants */
  char *path;
  /* Placement (model/input/place.h).  nplace 0: `memory` is fixed.  Otherwise
   * the candidates in order of preference (`place`, or for a buffer with
   * neither `memory` nor `place` the memories its sizes name, narrowed by
   * the machine's MMA table), the size in each (sizes[memory] is `size`),
   * and the buffer it may share space with. */
  int nplace;
  int place[TF_NMEM];
  int from_table; /* neither memory nor place: the MMA table decides */
  tf_expr *sizes[TF_NMEM];
  char *alias_name;
  int alias; /* buffer index, or -1 */
  /* `pin`: an expression over params; -1 leaves the placement free, 1
   * pins the buffer to rf, 0 to its other candidates.  A --place pin of
   * the buffer replaces it.  NULL: none. */
  tf_expr *pin;
  /* `lifetime` (model/input/lifetime.h): the phase it is live in, an index into
   * the workset's lifetimes, or -1: live throughout. */
  char *lifetime_name;
  int lifetime;
} tf_buffer;

/* One MMA of the kernel: which machine instruction, and which buffer is
 * each operand (-1: not a buffer of this workset's). */
#define TF_MMA_OPERANDS 3 /* A, B, D: datapath.h's TF_MMA_NOPERANDS */
typedef struct tf_mma_use {
  char *name; /* "pv" */
  char *inst; /* "wgmma" */
  int operand[TF_MMA_OPERANDS];
  char *path; /* $.mma.pv */
} tf_mma_use;

/* One transfer a buffer makes per main-loop iteration (model/input/roofline.h):
 * its bytes from the buffer's memory to `end` (toward 1) or from `end`
 * into the buffer's memory (toward 0).  Which edge carries it depends on
 * the buffer's memory at a combination. */
typedef struct tf_flow {
  int buffer;
  int toward;
  int end;    /* enum tf_memory, TF_END_MMA or TF_END_L2 */
  size_t let; /* the let holding its bytes per tile (iterations included) */
} tf_flow;

typedef struct tf_objective {
  int maximize; /* 1: max, 0: min */
  tf_expr *expr;
  char *text; /* "max B_r*B_c" */
} tf_objective;

/* The model's measured error on this kernel on one machine
 * (model/input/measured_error.h). */
typedef struct tf_measured_error {
  char *machine;
  int64_t points, rms_permille;
} tf_measured_error;

/* The roles a workset may give a name (model/input/roles.h). */
enum tf_role { TF_ROLE_THREADS, TF_ROLE_CTA_REGISTERS, TF_NROLES };

typedef struct tf_workset {
  char *name, *comment, *file;
  tf_named_expr *params;
  size_t nparams; /* defaults */
  tf_choose *choose;
  size_t nchoose;
  tf_count *counts;
  size_t ncounts;
  tf_named_expr *lets;
  size_t nlets;
  tf_buffer *buffers;
  size_t nbuffers;
  tf_named_expr *require;
  size_t nrequire; /* name unused */
  /* The includes' requires, read with their lets and parsed after the
   * workset's own (read_requires): name the text until then. */
  tf_named_expr *include_require;
  size_t ninclude_require;
  tf_objective *objective;
  size_t nobjective;
  /* Levels after the objectives, whichever a request uses: how the kernel
   * breaks a tie among equally good points (docs/objectives.md). */
  tf_objective *tie_break;
  size_t ntie_break;
  tf_let_graph let_graph; /* the lets' order, uses, affinity (model/input/lets.h) */
  tf_names symbols;       /* param, choose, count and let names (model/input/symbols.h) */
  tf_names buffer_names;
  tf_mma_use *mma;
  size_t nmma;
  char **arch;
  size_t narch; /* patterns (tf_machine_arch_matches); none: any */
  tf_flow *flows;
  size_t nflows;            /* model/input/roofline.h */
  int roofline;             /* 1: cycles, cycles(TERM), bound_by are computed (model/input/roofline.h) */
  unsigned roofline_serial; /* bit t: term t is serial in the kernel's schedule (roofline.h) */
  unsigned roofline_sync;   /* bit i: MMA entry i is mma.sync, at the machine's mma.sync rate */
  tf_measured_error *measured_error;
  size_t nmeasured_error; /* model/input/measured_error.h */
  char *roles[TF_NROLES]; /* the names given the engine's roles, NULL: none (model/input/roles.h) */
  size_t *show;
  size_t nshow; /* lets reports show (model/input/show.h) */
  char **rules, **rule_archs;
  size_t nrules; /* one line per arch pattern (model/input/show.h) */
  char **lifetimes;
  size_t nlifetimes;    /* phase names (model/input/lifetime.h) */
  size_t *layout_order; /* every buffer once, in the order layouts place them */
} tf_workset;

tf_workset *tf_workset_load(const char *file, tf_error *err);
tf_workset *tf_workset_parse(const char *text, size_t len, const char *file, tf_error *err);
void tf_workset_free(tf_workset *w);

/* Parses and binds a constraint ("EXPR <= EXPR") or objective ("max EXPR")
 * given on the command line or in a problem; `where` names it in errors. */
tf_expr *tf_workset_parse_require(const tf_workset *w, const char *text, const char *where, tf_error *err);
int tf_workset_parse_objective(const tf_workset *w, const char *text, const char *where, tf_objective *out,
                               tf_error *err);
void tf_objective_release(tf_objective *o);

#endif
