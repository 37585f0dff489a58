/* emit --for cutlass: the cutlass_library kernel name of an answer, found
 * among the names its params allow (element types, layouts, alignment,
 * cluster and schedules, model/formats/cutlass_types.h) and proved by
 * reading it back with the parser `check --cutlass-name` uses
 * (model/formats/cutlass_name.c), and the complete kernel: the
 * CollectiveBuilder types, GemmKernel and its device adapter.  An answer
 * no name carries is completed with the no-smem epilogue.  The 2.x
 * kernel of cutlass-sm80-gemm is emit_cutlass2x.c's. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formats/cutlass_epilogue.h"
#include "model/formats/cutlass_name.h"
#include "model/formats/cutlass_types.h"
#include "model/input/machine.h"
#include "solver/emit/fragment.h"

/* The C and D types a name may carry, in the order tried. */
static const char *const outputs[][2] = {
    {"f16", "f16"},   {"void", "f16"},  {"f32", "f32"},   {"void", "f32"}, {"bf16", "bf16"},
    {"void", "bf16"}, {"e4m3", "e4m3"}, {"void", "e4m3"}, {"s8", "s8"},
};
#define NOUTPUTS (sizeof outputs / sizeof *outputs)

/* What one candidate name is made of. */
typedef struct candidate {
  int arch; /* 90, 100, 103, 120 */
  int blockscaled, grouped, sf_vec, two_sm;
  const tf_cl_type *a, *b, *c, *d, *acc;
  const tf_cl_type *c_fixed, *d_fixed; /* c_type, d_type when the params give them */
  char layout[4];                      /* "tnn" */
  int64_t align, cluster[2];
  int64_t tile[3], stages;
  const char *sched; /* "_warpspecialized_cooperative", "_1sm", "" */
  const char *epi;   /* "_epi_tma", "_epi_nosmem", "" */
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

static const tf_cl_type *acc_of(const candidate *c) { return c->acc; }

/* "ue8m0xe2m1" for a block-scaled operand, else the type's own name. */
static void operand_name(const candidate *c, const tf_cl_type *t, char *buf, size_t size) {
  if (c->blockscaled)
    snprintf(buf, size, "%sx%s", c->sf_vec == 16 ? "ue4m3" : "ue8m0", t->name);
  else
    snprintf(buf, size, "%s", t->name);
}

static void write_name(const candidate *c, char *buf, size_t size) {
  char a[32], b[32];
  operand_name(c, c->a, a, sizeof a);
  operand_name(c, c->b, b, sizeof b);
  snprintf(buf, size, "cutlass3x_sm%d_%s_gemm%s_%s_%s_%s_%s_%s_%lldx%lldx%lld_%lldx%lldx1_%lld_%s_align%lld%s%s%s",
           c->arch, c->blockscaled ? "bstensorop" : "tensorop", c->grouped ? "_grouped" : "", a, b, acc_of(c)->name,
           c->c->name, c->d->name, (long long)c->tile[0], (long long)c->tile[1], (long long)c->tile[2],
           (long long)c->cluster[0], (long long)c->cluster[1], (long long)c->stages, c->layout, (long long)c->align,
           c->sched, c->epi, c->blockscaled && c->sf_vec == 16 ? "_vs16" : "");
}

/* A param the name sets against the problem's: the SM90 schedule 0
 * (automatic: pingpong below tile M 128) is the one it resolves to. */
static int same_param(const tf_problem *p, const tf_answer *a, const tf_assign *set) {
  int64_t mine = param_or(p, set->name, set->value + 1);
  if (!strcmp(set->name, "schedule") && mine == 0)
    mine = value_of(p, a, "tile_m") < 128 ? 2 : 1;
  /* 0 is "not given": the usual type of the width (the name's widths are
   * compared as a_bits, b_bits and out_bits), any C, either epilogue
   * schedule, and 128 bits of A as the alignment */
  if (mine == 0 && (!strcmp(set->name, "a_type") || !strcmp(set->name, "b_type") || !strcmp(set->name, "c_type") ||
                    !strcmp(set->name, "d_type") || !strcmp(set->name, "epi_schedule")))
    return 1;
  if (!strcmp(set->name, "align") && mine == 0)
    mine = 128 / param_or(p, "a_bits", 16);
  /* -1: the workset derives the default TMA epilogue's bytes (cutlass-sm100-gemm's epilogue_carveout) */
  if (!strcmp(set->name, "epilogue_bytes") && mine == -1)
    mine = value_of(p, a, "epilogue_carveout");
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

/* A type param: its code's type, or with code 0 the usual type of the
 * width (`dflt`); NULL (why set) for a code of no type or of another
 * width. */
static const tf_cl_type *param_type(const tf_problem *p, const char *param, const char *bits, const tf_cl_type *dflt,
                                    char *why, size_t size) {
  int64_t code = param_or(p, param, 0), width = param_or(p, bits, 16);
  const tf_cl_type *t = code ? tf_cl_type_of_code(code) : dflt;
  if (!t)
    snprintf(why, size,
             "%s = %lld is no type tilefit knows (model/formats/cutlass_types.h: f16 1601, bf16 1602, "
             "e4m3 801, tf32 3201, ...; -p %s=bf16 takes the name)",
             param, (long long)code, param);
  else if (code && t->bits != width)
    return snprintf(why, size, "%s = %lld (%s) is not %s = %lld bits", param, (long long)code, t->name, bits,
                    (long long)width),
           NULL;
  return t;
}

/* The element types: A and B, the accumulator (f16 at acc_bits 16, else
 * s32 for integer operands and f32), and C and D when the params fix them. */
static int operand_types(const tf_problem *p, candidate *c, char *why, size_t size) {
  int integer = param_or(p, "a_bits", 16) == 8 && param_or(p, "fp8", 1) == 0; /* 8-bit, not FP8: s8 */
  const tf_cl_type *da = integer ? tf_cl_type_named("s8") : tf_cl_type_of_bits((int)param_or(p, "a_bits", 16));
  const tf_cl_type *db = integer ? tf_cl_type_named("s8") : tf_cl_type_of_bits((int)param_or(p, "b_bits", 16));
  if (!da || !db)
    return snprintf(why, size, "no cutlass_library type has a_bits %lld or b_bits %lld",
                    (long long)param_or(p, "a_bits", 16), (long long)param_or(p, "b_bits", 16)),
           -1;
  if (!(c->a = param_type(p, "a_type", "a_bits", da, why, size)) ||
      !(c->b = param_type(p, "b_type", "b_bits", db, why, size)) ||
      !(c->d_fixed = param_type(p, "d_type", "out_bits", tf_cl_type_named("f16"), why, size)))
    return -1;
  c->d_fixed = param_or(p, "d_type", 0) ? c->d_fixed : NULL;
  c->c_fixed = param_or(p, "c_type", 0) ? tf_cl_type_of_code(param_or(p, "c_type", 0)) : NULL;
  if (param_or(p, "c_type", 0) && !c->c_fixed)
    return snprintf(why, size, "c_type = %lld is no type tilefit knows", (long long)param_or(p, "c_type", 0)), -1;
  c->acc = tf_cl_type_named(param_or(p, "acc_bits", 32) == 16 ? "f16" : c->a->floating ? "f32" : "s32");
  return 0;
}

/* Layouts, alignment and cluster: the params, or the name's usual tnn,
 * 128 bits of A and 1x1 (2x1 for a CTA pair) where the workset has none. */
static void kernel_shape(const tf_problem *p, candidate *c) {
  const char *names[3] = {"a_layout", "b_layout", "c_layout"};
  const int dflt[3] = {1, 0, 0};
  for (int i = 0; i < 3; i++)
    c->layout[i] =
        tf_cl_layout_letter(param_or(p, names[i], dflt[i])) ? tf_cl_layout_letter(param_or(p, names[i], dflt[i])) : '?';
  c->layout[3] = 0;
  c->align = param_or(p, "align", 0) > 0 ? param_or(p, "align", 0) : 128 / c->a->bits;
  c->cluster[0] = param_or(p, "cluster_m", c->two_sm ? 2 : 1);
  c->cluster[1] = param_or(p, "cluster_n", 1);
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
    return snprintf(why, size,
                    "workset '%s' has no cutlass_library names (those of cutlass-sm90-gemm, "
                    "cutlass-sm100-gemm[-blockscaled] and cutlass-sm120-gemm[-blockscaled] have)",
                    w),
           -1;
  c->blockscaled = strstr(w, "blockscaled") != NULL;
  c->sf_vec = (int)param_or(p, "sf_vec", 32);
  c->grouped = param_or(p, "grouped", 0) == 1 || (c->arch == 90 && param_or(p, "kernel_carveout", 0) == 384);
  c->two_sm = param_or(p, "cta_group", 1) == 2;
  if (operand_types(p, c, why, size))
    return -1;
  kernel_shape(p, c);
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
  /* the SM90 tags, which the SM120 builder takes; schedule 0 below tile M 128 is pingpong, as the workset
   * reads it (the builder's Auto is cooperative, which refuses tile M 64: include/sm90-schedule.json) */
  if (c->arch == 120 && !c->blockscaled && (sched || c->tile[0] < 128))
    return sched == 1 ? "_warpspecialized_cooperative" : "_warpspecialized_pingpong";
  if (c->arch == 120)
    return "";
  return c->two_sm ? "_2sm" : "_1sm";
}

/* C and D of output choice o (-1 past the last): the params' types when
 * they give them (a given D with C the same or void), else the list. */
static int output_choice(candidate *c, size_t o) {
  if (!c->d_fixed && !c->c_fixed) {
    if (o >= NOUTPUTS)
      return -1;
    c->c = tf_cl_type_named(outputs[o][0]), c->d = tf_cl_type_named(outputs[o][1]);
    return 0;
  }
  c->d = c->d_fixed ? c->d_fixed : c->c_fixed;
  c->c = c->c_fixed ? c->c_fixed : o == 0 ? c->d : tf_cl_type_named("void");
  return o < (c->c_fixed ? 1u : 2u) ? 0 : -1;
}

/* With the schedule and the epilogue schedule both the builder's (params
 * 0) on SM90 and SM120, the name without either suffix, when it reads
 * back: the kernel the params say.  1 when found. */
static int auto_name(const tf_problem *p, const tf_answer *a, candidate *c, int64_t stages, char *name, size_t size) {
  if ((c->arch != 90 && c->arch != 120) || param_or(p, "schedule", 0) || param_or(p, "epi_schedule", 0) ||
      param_or(p, "fp8_fastaccum", 0) || (c->arch == 120 && !c->blockscaled && c->tile[0] < 128))
    return 0;
  const char *sched = c->sched;
  c->sched = c->epi = "";
  for (size_t o = 0; !output_choice(c, o); o++) {
    write_name(c, name, size);
    if (reads_back(p, a, name, stages))
      return 1;
  }
  c->sched = sched;
  return 0;
}

/* The name of a stage count (0: automatic) and its parts in *c. */
static int find_name(const tf_problem *p, const tf_answer *a, int64_t stages, candidate *c, char *name, size_t size,
                     char *why, size_t whysize) {
  const char *epi[2] = {"", "_epi_nosmem"};
  if (base_candidate(p, a, c, why, whysize))
    return 1;
  int64_t epi_param = param_or(p, "epi_schedule", 0);
  epi[0] = epi_param == 2 ? "_epi_nosmem" : epi_param == 1 || c->arch == 90 ? "_epi_tma" : "";
  c->sched = schedule_suffix(p, c);
  c->stages = stages;
  int64_t out_bits = param_or(p, "out_bits", 0); /* D of the workset's own width first */
  if (auto_name(p, a, c, stages, name, size))
    return 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t o = 0; !output_choice(c, o); o++)
      for (int e = 0; e < (epi_param ? 1 : 2); e++) {
        c->epi = epi[e];
        if ((c->d->bits == out_bits) == pass)
          continue;
        write_name(c, name, size);
        if (reads_back(p, a, name, stages))
          return 0;
      }
  snprintf(why, whysize,
           "no cutlass_library name of %s with C/D in f16, bf16, f32, e4m3 (or void C) and a TMA or "
           "no-smem epilogue carries epilogue_bytes = %lld",
           p->workset->name, (long long)param_or(p, "epilogue_bytes", 0));
  name[0] = 0;
  return 1;
}

int tf_emit_cutlass_name(const tf_problem *p, const tf_answer *a, int64_t stages, char *name, size_t size, char *why,
                         size_t whysize) {
  candidate c;
  return find_name(p, a, stages, &c, name, size, why, whysize);
}

/* ------------------------------------------------- CollectiveBuilder */

static const char *cxx_operand(const candidate *c, const tf_cl_type *t, char *buf, size_t size) {
  if (!c->blockscaled)
    return t->cxx;
  const char *wrap = c->sf_vec == 16 ? "nv_float4_t"
                     : t->bits == 4  ? "mx_float4_t"
                     : t->bits == 6  ? "mx_float6_t"
                                     : "mx_float8_t";
  snprintf(buf, size, "cutlass::%s<%s>", wrap, t->cxx);
  return buf;
}

static const char *arch_tag(int arch) { return arch == 90 ? "Sm90" : arch == 120 ? "Sm120" : "Sm100"; }

static const char *mainloop_schedule(const candidate *c) {
  int coop = c->sched && strstr(c->sched, "cooperative"), fast = c->sched && strstr(c->sched, "fastaccum");
  if (c->arch == 90 && !*c->sched)
    return "cutlass::gemm::collective::KernelScheduleAuto";
  if (c->arch == 90 && fast)
    return coop ? "cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum"
                : "cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum";
  if (c->arch == 90)
    return coop ? (c->grouped ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative"
                              : "cutlass::gemm::KernelTmaWarpSpecializedCooperative")
                : (c->grouped ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong"
                              : "cutlass::gemm::KernelTmaWarpSpecializedPingpong");
  if (c->arch == 120 && *c->sched && !c->blockscaled) /* sm120_mma_builder.inl:72-75 */
    return coop ? "cutlass::gemm::KernelTmaWarpSpecializedCooperative"
                : "cutlass::gemm::KernelTmaWarpSpecializedPingpong";
  if (c->arch == 120 || c->blockscaled)
    return "cutlass::gemm::collective::KernelScheduleAuto";
  if (c->grouped)
    return c->two_sm ? "cutlass::gemm::KernelPtrArrayTmaWarpSpecialized2SmSm100"
                     : "cutlass::gemm::KernelPtrArrayTmaWarpSpecialized1SmSm100";
  return c->two_sm ? "cutlass::gemm::KernelTmaWarpSpecialized2SmSm100"
                   : "cutlass::gemm::KernelTmaWarpSpecialized1SmSm100";
}

static const char *epilogue_schedule(const candidate *c) {
  int nosmem = !strcmp(c->epi, "_epi_nosmem");
  if (c->arch == 90 && !*c->epi)
    return "cutlass::epilogue::collective::EpilogueScheduleAuto";
  if (c->arch == 90 && nosmem)
    return c->grouped ? "cutlass::epilogue::PtrArrayNoSmemWarpSpecialized" : "cutlass::epilogue::NoSmemWarpSpecialized";
  if (c->arch == 90)
    return c->sched && strstr(c->sched, "cooperative")
               ? (c->grouped ? "cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative"
                             : "cutlass::epilogue::TmaWarpSpecializedCooperative")
               : (c->grouped ? "cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong"
                             : "cutlass::epilogue::TmaWarpSpecialized");
  if (c->arch == 120 && nosmem) /* SM90's no-smem builder: SM120 has none (see write_epilogue) */
    return "cutlass::epilogue::NoSmemWarpSpecialized";
  if (nosmem && c->arch != 120 && !c->grouped) /* SM100 dense and block-scaled alike */
    return c->two_sm ? "cutlass::epilogue::NoSmemWarpSpecialized2Sm" : "cutlass::epilogue::NoSmemWarpSpecialized1Sm";
  if (c->arch == 120 || c->blockscaled || c->grouped)
    return "cutlass::epilogue::collective::EpilogueScheduleAuto";
  return c->two_sm ? "cutlass::epilogue::TmaWarpSpecialized2Sm" : "cutlass::epilogue::TmaWarpSpecialized1Sm";
}

static const char *layout_cxx(const candidate *c, int i) {
  int row = c->layout[i] == 't';
  if (c->grouped) /* the ptr-array builders take a pointer to each layout */
    return row ? "cutlass::layout::RowMajor *" : "cutlass::layout::ColumnMajor *";
  return row ? "cutlass::layout::RowMajor" : "cutlass::layout::ColumnMajor";
}

static void write_epilogue(FILE *f, const candidate *c, const char *shape, const char *cluster, const char *note) {
  int align_d = 128 / c->d->bits, align_c = c->c->bits ? 128 / c->c->bits : align_d;
  /* SM120's epilogue builder has only TMA epilogues (epilogue/collective/builders/sm120_builder.inl:485-490);
   * its kernels are SM90's kernel layers, which take SM90's no-smem epilogue (sm90_builder.inl:449-484) */
  int sm90_nosmem = c->arch == 120 && !strcmp(c->epi, "_epi_nosmem");
  fprintf(f,
          "using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<\n"
          "    cutlass::arch::%s, cutlass::arch::OpClassTensorOp,\n    %s, %s,\n"
          "    cutlass::epilogue::collective::EpilogueTileAuto,\n    %s, %s,\n"
          "    %s, %s, %d,\n    %s, %s, %d,\n    %s\n"
          "  >::CollectiveOp;  // %s\n\n",
          arch_tag(sm90_nosmem ? 90 : c->arch), shape, cluster, acc_of(c)->cxx, acc_of(c)->cxx, c->c->cxx,
          layout_cxx(c, 2), align_c, c->d->cxx, layout_cxx(c, 2), align_d, epilogue_schedule(c), note);
}

/* A's alignment is the name's; B's the same elements at the same width,
 * else 128 bits of B (the name gives the larger of the two). */
static int64_t align_b(const candidate *c) { return c->b->bits == c->a->bits ? c->align : 128 / c->b->bits; }

static void write_mainloop(FILE *f, const candidate *c, const char *shape, const char *cluster, const char *stages,
                           int64_t n) {
  char a[96], b[96];
  fprintf(f,
          "using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<\n"
          "    cutlass::arch::%s, cutlass::arch::%s,\n    %s, %s, %lld,\n"
          "    %s, %s, %lld,\n    %s,\n    %s,\n    %s,\n    %s,  // %lld stages\n"
          "    %s\n  >::CollectiveOp;\n",
          arch_tag(c->arch), c->blockscaled ? "OpClassBlockScaledTensorOp" : "OpClassTensorOp",
          cxx_operand(c, c->a, a, sizeof a), layout_cxx(c, 0), (long long)c->align, cxx_operand(c, c->b, b, sizeof b),
          layout_cxx(c, 1), (long long)align_b(c), acc_of(c)->cxx, shape, cluster, stages, (long long)n,
          mainloop_schedule(c));
}

/* The kernel and the device adapter a host instantiates. */
static void write_kernel(FILE *f, const candidate *c) {
  fprintf(f,
          "\nusing GemmKernel = cutlass::gemm::kernel::GemmUniversal<\n    %s,\n"
          "    CollectiveMainloop, CollectiveEpilogue>;\n"
          "using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;\n",
          c->grouped ? "cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>"
                     : "cute::Shape<int, int, int, int>");
}

static const char *layout_word(char l) { return l == 't' ? "row-major (t)" : "column-major (n)"; }

/* The kernel's element types, layouts, alignment and cluster in words. */
static void write_types(FILE *f, const candidate *c) {
  fprintf(f, "// A %s %s, B %s %s, C %s and D %s %s, accumulator %s; alignment %lld; cluster %lldx%lldx1\n", c->a->name,
          layout_word(c->layout[0]), c->b->name, layout_word(c->layout[1]), c->c->name, c->d->name,
          layout_word(c->layout[2]), acc_of(c)->name, (long long)c->align, (long long)c->cluster[0],
          (long long)c->cluster[1]);
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

/* Where no name carries the params (epilogue_bytes 0: StageCountAuto with
 * no epilogue), the kernel is still completed, with the no-smem epilogue
 * (1 B of storage on SM90, 32 on SM100; SM120's automatic one) and C and D
 * of the params' types or out_bits' usual one: 1 (*c set). */
static int nosmem_outputs(const tf_problem *p, candidate *c) {
  const tf_cl_type *d = c->d_fixed ? c->d_fixed : tf_cl_type_of_bits((int)param_or(p, "out_bits", 16));
  c->d = d ? d : tf_cl_type_named("f16");
  c->c = c->c_fixed ? c->c_fixed : c->d;
  c->epi = "_epi_nosmem";
  return 1;
}

static void write_one(FILE *f, const tf_problem *p, const tf_answer *a, int k) {
  char name[256], autoname[256], why[320], shape[96], cluster[96], stages[256];
  candidate c, c0;
  int found = !find_name(p, a, a->counts[k], &c, name, sizeof name, why, sizeof why);
  int autocount =
      found && is_auto_count(p, a, k) && !find_name(p, a, 0, &c0, autoname, sizeof autoname, why, sizeof why);
  if (found)
    fprintf(f, "// cutlass_library name (tilefit check --cutlass-name reads it back to these values):\n//   %s\n",
            name);
  if (autocount)
    fprintf(f, "// the builder's own count, stage count 0 in the name, is the same %lld stages:\n//   %s\n",
            (long long)a->counts[k], autoname);
  if (!found)
    fprintf(f, "// no kernel name: %s\n", why);
  snprintf(shape, sizeof shape, "cute::Shape<cute::_%lld, cute::_%lld, cute::_%lld>", (long long)c.tile[0],
           (long long)c.tile[1], (long long)c.tile[2]);
  snprintf(cluster, sizeof cluster, "cute::Shape<cute::_%lld, cute::_%lld, cute::_1>", (long long)c.cluster[0],
           (long long)c.cluster[1]);
  if (autocount)
    snprintf(stages, sizeof stages,
             "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(\n"
             "        sizeof(typename CollectiveEpilogue::SharedStorage))>");
  else
    snprintf(stages, sizeof stages, "cutlass::gemm::collective::StageCount<%lld>", (long long)a->counts[k]);
  char note[160];
  int64_t bytes = param_or(p, "epilogue_bytes", 0);
  snprintf(note, sizeof note, "sizeof(SharedStorage) = %lld B, the workset's %s",
           (long long)(bytes == -1 ? value_of(p, a, "epilogue_carveout") : bytes),
           bytes == -1 ? "default TMA epilogue (epilogue_bytes -1)" : "epilogue_bytes");
  if (!found && nosmem_outputs(p, &c))
    snprintf(note, sizeof note,
             "no smem: the kernel without a library name, at most its 32 B of storage over "
             "epilogue_bytes %lld",
             (long long)param_or(p, "epilogue_bytes", 0));
  write_types(f, &c);
  write_epilogue(f, &c, shape, cluster, note);
  write_mainloop(f, &c, shape, cluster, stages, a->counts[k]);
  write_kernel(f, &c);
  write_splits(f, p, a, c.arch);
}

int tf_emit_write_cutlass(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err) {
  candidate c;
  char why[320];
  int k = stage_index(p);
  if (!strcmp(p->workset->name, "cutlass-sm80-gemm"))
    return tf_emit_write_cutlass2x(f, p, a, n, err);
  if (base_candidate(p, &a[0], &c, why, sizeof why) || k < 0)
    return tf_error_set(err, TF_EINPUT, "--for cutlass", "%s", k < 0 ? "the workset has no count named stages" : why);
  for (int i = 0; i < n; i++) {
    fputs(i ? "\n" : "", f);
    tf_fragment_provenance(f, "// ", p, &a[i], 1);
    write_one(f, p, &a[i], k);
  }
  return 0;
}
