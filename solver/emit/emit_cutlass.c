/* emit --for cutlass: the cutlass_library kernel name of an answer, found
 * among the names its params allow and proved by reading it back with the
 * parser `check --cutlass-name` uses (model/formats/cutlass_name.c), and the
 * CollectiveBuilder types of that kernel. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formats/cutlass_epilogue.h"
#include "model/formats/cutlass_name.h"
#include "model/input/machine.h"
#include "solver/emit/fragment.h"

/* cutlass_library's type names and CUTLASS's element types. */
static const struct cl_type {
  const char *name, *cxx;
  int bits;
} types[] = {
    {"f16", "cutlass::half_t", 16},         {"bf16", "cutlass::bfloat16_t", 16},  {"e4m3", "cutlass::float_e4m3_t", 8},
    {"e2m1", "cutlass::float_e2m1_t", 4},   {"e3m2", "cutlass::float_e3m2_t", 6}, {"tf32", "cutlass::tfloat32_t", 32},
    {"f32", "float", 32},                   {"void", "void", 0},                  {"s8", "int8_t", 8},
    {"s32", "int32_t", 32},
};
#define NTYPES (sizeof types / sizeof *types)

/* The first type of a width: the A/B operand names (f16 for 16 bits). */
static const struct cl_type *type_of_bits(int bits) {
  for (size_t i = 0; i < NTYPES; i++)
    if (types[i].bits == bits && strcmp(types[i].name, "f32"))
      return &types[i];
  return NULL;
}

static const struct cl_type *type_named(const char *name) {
  for (size_t i = 0; i < NTYPES; i++)
    if (!strcmp(types[i].name, name))
      return &types[i];
  return NULL;
}

/* The C and D types a name may carry, in the order tried. */
static const char *const outputs[][2] = {
    {"f16", "f16"}, {"void", "f16"},   {"f32", "f32"},   {"void", "f32"},
    {"bf16", "bf16"}, {"void", "bf16"}, {"e4m3", "e4m3"}, {"void", "e4m3"}, {"s8", "s8"},
};
#define NOUTPUTS (sizeof outputs / sizeof *outputs)

/* What one candidate name is made of. */
typedef struct candidate {
  int arch;                 /* 90, 100, 103, 120 */
  int blockscaled, grouped, sf_vec, two_sm;
  const struct cl_type *a, *b, *c, *d;
  int64_t tile[3], stages;
  const char *sched;        /* "_warpspecialized_cooperative", "_1sm", "" */
  const char *epi;          /* "_epi_tma", "_epi_nosmem", "" */
} candidate;

static int64_t param_or(const tf_problem *p, const char *name, int64_t dflt) {
  for (size_t i = 0; i < p->workset->nparams; i++)
    if (!strcmp(p->workset->params[i].name, name))
      return p->param_values[i];
  return dflt;
}

static int64_t value_of(const tf_problem *p, const tf_answer *a, const char *name) {
  int64_t v = 0;
  tf_fragment_value(p, a, name, &v);
  return v;
}

/* The accumulator: s32 for integer operands, else f32. */
static const struct cl_type *acc_of(const candidate *c) { return type_named(strcmp(c->a->name, "s8") ? "f32" : "s32"); }

/* "ue8m0xe2m1" for a block-scaled operand, else the type's own name. */
static void operand_name(const candidate *c, const struct cl_type *t, char *buf, size_t size) {
  if (c->blockscaled)
    snprintf(buf, size, "%sx%s", c->sf_vec == 16 ? "ue4m3" : "ue8m0", t->name);
  else
    snprintf(buf, size, "%s", t->name);
}

static void write_name(const candidate *c, char *buf, size_t size) {
  char a[32], b[32];
  operand_name(c, c->a, a, sizeof a);
  operand_name(c, c->b, b, sizeof b);
  int align = 128 / c->a->bits;
  snprintf(buf, size, "cutlass3x_sm%d_%s_gemm%s_%s_%s_%s_%s_%s_%lldx%lldx%lld_%dx1x1_%lld_tnn_align%d%s%s%s", c->arch,
           c->blockscaled ? "bstensorop" : "tensorop", c->grouped ? "_grouped" : "", a, b, acc_of(c)->name, c->c->name,
           c->d->name,
           (long long)c->tile[0], (long long)c->tile[1], (long long)c->tile[2], c->two_sm ? 2 : 1,
           (long long)c->stages, align, c->sched, c->epi, c->blockscaled && c->sf_vec == 16 ? "_vs16" : "");
}

/* A param the name sets against the problem's: the SM90 schedule 0
 * (automatic: pingpong below tile M 128) is the one it resolves to. */
static int same_param(const tf_problem *p, const tf_answer *a, const tf_assign *set) {
  int64_t mine = param_or(p, set->name, set->value + 1);
  if (!strcmp(set->name, "schedule") && mine == 0)
    mine = value_of(p, a, "tile_m") < 128 ? 2 : 1;
  return mine == set->value;
}

/* Does `name` read back to this problem and answer: the workset, every
 * param the name sets, the tile fixes and the stage count? */
static int reads_back(const tf_problem *p, const tf_answer *a, const char *name, int64_t stages) {
  tf_request r;
  tf_request_init(&r);
  tf_cutlass_kernel k;
  tf_error e;
  tf_error_init(&e);
  int ok = !tf_cutlass_name_request(name, &r, &k, &e) && !strcmp(r.workset, p->workset->name);
  for (size_t i = 0; ok && i < r.nparams; i++)
    ok = same_param(p, a, &r.params[i]);
  for (size_t i = 0; ok && i < r.nfixes; i++)
    ok = value_of(p, a, r.fixes[i].name) == r.fixes[i].value;
  ok = ok && (stages ? k.stages == stages : r.nobjectives == 1);
  tf_request_release(&r);
  return ok;
}

/* The architecture, the operand types and the kind, from the workset, its
 * params and the machine; -1 (why set) when no name can carry them. */
static int base_candidate(const tf_problem *p, const tf_answer *a, candidate *c, char *why, size_t size) {
  memset(c, 0, sizeof *c);
  const char *w = p->workset->name, *arch = p->machine->arch;
  if (!strcmp(w, "cutlass-sm90-gemm"))
    c->arch = 90;
  else if (!strcmp(w, "cutlass-sm100-gemm") || !strcmp(w, "cutlass-sm100-gemm-blockscaled"))
    c->arch = arch && !strcmp(arch, "sm_103") ? 103 : 100;
  else if (!strcmp(w, "cutlass-sm120-gemm") || !strcmp(w, "cutlass-sm120-gemm-blockscaled"))
    c->arch = 120;
  else
    return snprintf(why, size, "workset '%s' has no cutlass_library names (those of cutlass-sm90-gemm, "
                    "cutlass-sm100-gemm[-blockscaled] and cutlass-sm120-gemm[-blockscaled] have)", w), -1;
  c->blockscaled = strstr(w, "blockscaled") != NULL;
  c->sf_vec = (int)param_or(p, "sf_vec", 32);
  c->grouped = param_or(p, "grouped", 0) == 1 || (c->arch == 90 && param_or(p, "kernel_carveout", 0) == 384);
  c->two_sm = param_or(p, "cta_group", 1) == 2;
  int integer = param_or(p, "a_bits", 16) == 8 && param_or(p, "fp8", 1) == 0; /* 8-bit, not FP8: s8 */
  c->a = integer ? type_named("s8") : type_of_bits((int)param_or(p, "a_bits", 16));
  c->b = integer ? type_named("s8") : type_of_bits((int)param_or(p, "b_bits", 16));
  if (!c->a || !c->b)
    return snprintf(why, size, "no cutlass_library type has a_bits %lld or b_bits %lld",
                    (long long)param_or(p, "a_bits", 16), (long long)param_or(p, "b_bits", 16)), -1;
  c->tile[0] = value_of(p, a, "tile_m"), c->tile[1] = value_of(p, a, "tile_n"), c->tile[2] = value_of(p, a, "tile_k");
  return 0;
}

/* The schedule suffix of an architecture's names: cooperative from tile M
 * 128 on on SM90, as the workset's accumulator registers assume. */
static const char *schedule_suffix(const tf_problem *p, const candidate *c) {
  int64_t sched = param_or(p, "schedule", 0), fast = param_or(p, "fp8_fastaccum", 0);
  int coop = sched ? sched == 1 : c->tile[0] >= 128;
  if (c->arch == 90 && fast)
    return coop ? "_warpspecialized_cooperative_fp8_fastaccum" : "_warpspecialized_pingpong_fp8_fastaccum";
  if (c->arch == 90)
    return coop ? "_warpspecialized_cooperative" : "_warpspecialized_pingpong";
  if (c->arch == 120)
    return "";
  return c->two_sm ? "_2sm" : "_1sm";
}

/* The name of a stage count (0: automatic) and its parts in *c. */
static int find_name(const tf_problem *p, const tf_answer *a, int64_t stages, candidate *c, char *name, size_t size,
                     char *why, size_t whysize) {
  const char *epi[2] = {"", "_epi_nosmem"};
  if (base_candidate(p, a, c, why, whysize))
    return 1;
  epi[0] = c->arch == 90 ? "_epi_tma" : "";
  c->sched = schedule_suffix(p, c);
  c->stages = stages;
  int64_t out_bits = param_or(p, "out_bits", 0); /* D of the workset's own width first */
  for (int pass = 0; pass < 2; pass++)
    for (size_t o = 0; o < NOUTPUTS; o++)
      for (int e = 0; e < 2; e++) {
        c->c = type_named(outputs[o][0]);
        c->d = type_named(outputs[o][1]);
        c->epi = epi[e];
        if ((c->d->bits == out_bits) == pass)
          continue;
        write_name(c, name, size);
        if (reads_back(p, a, name, stages))
          return 0;
      }
  snprintf(why, whysize, "no cutlass_library name of %s with C/D in f16, bf16, f32, e4m3 (or void C) and a TMA or "
           "no-smem epilogue carries epilogue_bytes = %lld", p->workset->name,
           (long long)param_or(p, "epilogue_bytes", 0));
  name[0] = 0;
  return 1;
}

int tf_emit_cutlass_name(const tf_problem *p, const tf_answer *a, int64_t stages, char *name, size_t size, char *why,
                         size_t whysize) {
  candidate c;
  return find_name(p, a, stages, &c, name, size, why, whysize);
}

/* ------------------------------------------------- CollectiveBuilder */

static const char *cxx_operand(const candidate *c, const struct cl_type *t, char *buf, size_t size) {
  if (!c->blockscaled)
    return t->cxx;
  const char *wrap = c->sf_vec == 16 ? "nv_float4_t" : t->bits == 4 ? "mx_float4_t" : t->bits == 6 ? "mx_float6_t"
                                                                                                    : "mx_float8_t";
  snprintf(buf, size, "cutlass::%s<%s>", wrap, t->cxx);
  return buf;
}

static const char *arch_tag(int arch) { return arch == 90 ? "Sm90" : arch == 120 ? "Sm120" : "Sm100"; }

static const char *mainloop_schedule(const candidate *c) {
  int coop = c->sched && strstr(c->sched, "cooperative"), fast = c->sched && strstr(c->sched, "fastaccum");
  if (c->arch == 90 && fast)
    return coop ? "cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum"
                : "cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum";
  if (c->arch == 90)
    return coop ? (c->grouped ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative"
                              : "cutlass::gemm::KernelTmaWarpSpecializedCooperative")
                : (c->grouped ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong"
                              : "cutlass::gemm::KernelTmaWarpSpecializedPingpong");
  if (c->arch == 120 || c->blockscaled)
    return "cutlass::gemm::collective::KernelScheduleAuto";
  if (c->grouped)
    return c->two_sm ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecialized2SmSm100"
                     : "cutlass::gemm::KernelPtrArrayTmaWarpSpecialized1SmSm100";
  return c->two_sm ? "cutlass::gemm::KernelTmaWarpSpecialized2SmSm100" : "cutlass::gemm::KernelTmaWarpSpecialized1SmSm100";
}

static const char *epilogue_schedule(const candidate *c) {
  int nosmem = !strcmp(c->epi, "_epi_nosmem");
  if (c->arch == 90 && nosmem)
    return c->grouped ? "cutlass::epilogue::PtrArrayNoSmemWarpSpecialized" : "cutlass::epilogue::NoSmemWarpSpecialized";
  if (c->arch == 90)
    return c->sched && strstr(c->sched, "cooperative") ? (c->grouped ? "cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative"
                                           : "cutlass::epilogue::TmaWarpSpecializedCooperative")
                             : (c->grouped ? "cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong"
                                           : "cutlass::epilogue::TmaWarpSpecialized");
  if (c->arch == 120 || c->blockscaled || c->grouped)
    return "cutlass::epilogue::collective::EpilogueScheduleAuto";
  if (nosmem)
    return c->two_sm ? "cutlass::epilogue::NoSmemWarpSpecialized2Sm" : "cutlass::epilogue::NoSmemWarpSpecialized1Sm";
  return c->two_sm ? "cutlass::epilogue::TmaWarpSpecialized2Sm" : "cutlass::epilogue::TmaWarpSpecialized1Sm";
}

static void write_epilogue(FILE *f, const candidate *c, const char *shape, const char *cluster, int64_t bytes) {
  int align_d = 128 / c->d->bits, align_c = c->c->bits ? 128 / c->c->bits : align_d;
  fprintf(f, "using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<\n"
             "    cutlass::arch::%s, cutlass::arch::OpClassTensorOp,\n    %s, %s,\n"
             "    cutlass::epilogue::collective::EpilogueTileAuto,\n    %s, %s,\n"
             "    %s, cutlass::layout::ColumnMajor, %d,\n    %s, cutlass::layout::ColumnMajor, %d,\n    %s\n"
             "  >::CollectiveOp;  // sizeof(SharedStorage) = %lld B, the workset's epilogue_bytes\n\n",
          arch_tag(c->arch), shape, cluster, acc_of(c)->cxx, acc_of(c)->cxx, c->c->cxx, align_c, c->d->cxx, align_d, epilogue_schedule(c),
          (long long)bytes);
}

static void write_mainloop(FILE *f, const candidate *c, const char *shape, const char *cluster, const char *stages,
                           int64_t n) {
  char a[96], b[96];
  fprintf(f, "using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<\n"
             "    cutlass::arch::%s, cutlass::arch::%s,\n    %s, cutlass::layout::RowMajor, %d,\n"
             "    %s, cutlass::layout::ColumnMajor, %d,\n    %s,\n    %s,\n    %s,\n    %s,  // %lld stages\n"
             "    %s\n  >::CollectiveOp;\n",
          arch_tag(c->arch), c->blockscaled ? "OpClassBlockScaledTensorOp" : "OpClassTensorOp",
          cxx_operand(c, c->a, a, sizeof a), 128 / c->a->bits, cxx_operand(c, c->b, b, sizeof b), 128 / c->b->bits, acc_of(c)->cxx, shape,
          cluster, stages, (long long)n, mainloop_schedule(c));
}

/* Is the answer's stage count the builder's own: one more does not fit? */
static int is_auto_count(const tf_problem *p, const tf_answer *a, int k) {
  int64_t counts[TF_MAX_COUNTS];
  memcpy(counts, a->counts, sizeof counts);
  counts[k]++;
  char why[320];
  /* past the workset's upper bound the builder may go on: no claim */
  return counts[k] <= p->count_hi[k] && tf_problem_why(p, a->choose, counts, why, sizeof why) == 0;
}

static int stage_index(const tf_problem *p) {
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], "stages"))
      return k;
  return -1;
}

/* Split-K is a runtime argument of the stream-K tile scheduler, not part of
 * the collectives or the library name: say how to ask for it. */
static void write_splits(FILE *f, const tf_problem *p, const tf_answer *a, int arch) {
  int64_t splits = value_of(p, a, "splits");
  if (splits > 1)
    fprintf(f,
            "// split-K: splits = %lld is the stream-K scheduler's runtime argument: GemmUniversal with\n"
            "// cutlass::gemm::StreamKScheduler as its tile scheduler and arguments.scheduler.splits = %lld\n"
            "// (include/cutlass/gemm/kernel/sm%d_tile_scheduler_stream_k.hpp, Arguments::splits)\n",
            (long long)splits, (long long)splits, arch == 90 ? 90 : 100);
}

static void write_one(FILE *f, const tf_problem *p, const tf_answer *a, int k) {
  char name[256], autoname[256], why[320], shape[96], cluster[96], stages[256];
  candidate c, c0;
  int found = !find_name(p, a, a->counts[k], &c, name, sizeof name, why, sizeof why);
  int autocount = found && is_auto_count(p, a, k) &&
                  !find_name(p, a, 0, &c0, autoname, sizeof autoname, why, sizeof why);
  if (found)
    fprintf(f, "// cutlass_library name (tilefit check --cutlass-name reads it back to these values):\n//   %s\n", name);
  if (autocount)
    fprintf(f, "// the builder's own count, stage count 0 in the name, is the same %lld stages:\n//   %s\n",
            (long long)a->counts[k], autoname);
  if (!found)
    fprintf(f, "// no kernel name: %s\n", why);
  snprintf(shape, sizeof shape, "cute::Shape<cute::_%lld, cute::_%lld, cute::_%lld>", (long long)c.tile[0],
           (long long)c.tile[1], (long long)c.tile[2]);
  snprintf(cluster, sizeof cluster, "cute::Shape<cute::_%d, cute::_1, cute::_1>", c.two_sm ? 2 : 1);
  if (autocount)
    snprintf(stages, sizeof stages,
             "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(\n"
             "        sizeof(typename CollectiveEpilogue::SharedStorage))>");
  else
    snprintf(stages, sizeof stages, "cutlass::gemm::collective::StageCount<%lld>", (long long)a->counts[k]);
  if (found)
    write_epilogue(f, &c, shape, cluster, param_or(p, "epilogue_bytes", 0));
  write_mainloop(f, &c, shape, cluster, stages, a->counts[k]);
  write_splits(f, p, a, c.arch);
}

int tf_emit_write_cutlass(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err) {
  candidate c;
  char why[320];
  int k = stage_index(p);
  if (base_candidate(p, &a[0], &c, why, sizeof why) || k < 0)
    return tf_error_set(err, TF_EINPUT, "--for cutlass", "%s", k < 0 ? "the workset has no count named stages" : why);
  for (int i = 0; i < n; i++) {
    fputs(i ? "\n" : "", f);
    tf_fragment_provenance(f, "// ", p, &a[i], 1);
    fputs("// layouts: A row-major (K-major), B column-major (K-major), C and D column-major, as the name's tnn\n", f);
    write_one(f, p, &a[i], k);
  }
  return 0;
}
