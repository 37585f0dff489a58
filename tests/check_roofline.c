/* The roofline the program computes (model/input/roofline.c): it reproduces
 * every shipped workset's former hand-written cycle lets at every point of
 * its domain, the FA4 paper's per-tile numbers, and its errors name the
 * JSON path. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/problem.h"
#include "model/bind/value.h"
#include "model/input/machine.h"
#include "model/input/request.h"
#include "model/input/workset.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* The lets the worksets wrote by hand before the roofline was computed
 * (mma_rate and tile_smem_bytes inlined): tile_mma_cycles, tile_exp_cycles
 * ("" where there was none) and tile_smem_cycles.  One correction: fa2-fwd
 * charged Q's SMEM reads with Q in registers too (FA2's Is_Q_in_regs
 * copies Q to registers once, before the main loop), so its row reads
 * placed(Q, smem) as fa3-fwd and fa4-fwd did.  And fa2-fwd's rows are its
 * roofline since the per-warp reads (docs/cost-model.md): every warp loads
 * all of K and V each iteration (threads / 32 times), cp.async writes them
 * once (on the SMEM port of the sm8x machines), and its MMAs run at the
 * machine's mma.sync rate.  fa4-fwd's exponentials on the MUFU are those
 * its polynomial on the FMA units leaves (ex2_emu_permille); the SM120
 * GEMMs accumulate in FP32, at the GeForce parts' FP32-accumulate rate
 * (mma_f32acc_permille).  The GEMMs' K is a multiple of
 * every tile_k at the default K = 4096 (12288 for the sm103 kernel's tile_k
 * 768), where cdiv(K, tile_k) k-blocks of tile_k equal K: with a partial
 * last k-block the program charges the whole block, which the MMA computes. */
static const struct {
  const char *workset, *machine, *mma, *exp, *smem;
} before[] = {
    {"cutlass-sm100-conv", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm100-gemm-blockscaled", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm100-gemm-blockwise", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm100-gemm-mixed", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm100-gemm-sparse", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm100-gemm", "b200",
     "cdiv(2 * tile_m * tile_n * K, (if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(a_bits, "
     "b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, mma_f16_per_clk, "
     "mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm103-gemm-blockscaled-ultra", "b300",
     "cdiv(2 * tile_m * tile_n * K, (if(max(4, 4) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if(max(4, 4) <= 8 && "
     "mma_f8_per_clk > 0, mma_f8_per_clk, if(max(4, 4) <= 16, mma_f16_per_clk, mma_f16_per_clk / 2)))) * cta_group)",
     "", "cdiv((4 * tile_m + 4 * tile_n) * K, 8 * smem_bytes_per_clk * cta_group)"},
    {"cutlass-sm120-gemm-blockscaled", "rtx5090",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm120-gemm-blockwise", "rtx5090",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm120-gemm-sparse", "rtx5090",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm120-gemm", "rtx5090",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm80-gemm", "a100",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "",
     "cdiv(cdiv(K, tile_k) * ((warps_n + 1) * cdiv(a_bits * tile_m * tile_k, 8) + (warps_m + 1) * cdiv(b_bits * tile_n "
     "* tile_k, 8)), smem_bytes_per_clk)"},
    {"cutlass-sm90-conv", "h100-sxm",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm90-gemm-blockwise", "h100-sxm",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm90-gemm-mixed", "h100-sxm",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm90-gemm-sparse", "h100-sxm",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n) * K, 8 * smem_bytes_per_clk * 1)"},
    {"cutlass-sm90-gemm", "h100-sxm",
     "cdiv(2 * tile_m * tile_n * K, cdiv(if(max(a_bits, b_bits) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, "
     "if(max(a_bits, b_bits) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, if(max(a_bits, b_bits) <= 16, "
     "mma_f16_per_clk, mma_f16_per_clk / 2))) * if(acc_bits > 16, mma_f32acc_permille, 1000), 1000) * 1)",
     "", "cdiv((a_bits * tile_m + b_bits * tile_n * cdiv(tile_m, 64)) * K, 8 * smem_bytes_per_clk * 1)"},
    {"fa2-fwd", "a100",
     "cdiv(2 * B_r * B_c * (d_pad + dv_pad), cdiv(if(in_bits <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, "
     "mma_f16_per_clk) * mma_sync_permille, 1000))",
     "cdiv(B_r * B_c, exp_per_clk)",
     "cdiv(in_bits * (placed(Q, smem) * B_r * d_pad + (threads / 32 + 1) * B_c * (d_pad + dv_pad)), 8 * "
     "smem_bytes_per_clk)"},
    {"fa2-fwd", "h100-sxm",
     "cdiv(2 * B_r * B_c * (d_pad + dv_pad), cdiv(if(in_bits <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, "
     "mma_f16_per_clk) * mma_sync_permille, 1000))",
     "cdiv(B_r * B_c, exp_per_clk)",
     "cdiv(in_bits * (placed(Q, smem) * B_r * d_pad + threads / 32 * B_c * (d_pad + dv_pad)), 8 * smem_bytes_per_clk)"},
    {"fa3-fwd", "h100-sxm",
     "cdiv(2 * B_r * B_c * (d_pad + dv_pad), (if(in_bits <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, "
     "mma_f16_per_clk)))",
     "cdiv(B_r * B_c, exp_per_clk)",
     "cdiv((cdiv(in_bits * (placed(Q, smem) * B_r * d_pad + (B_r / 64) * B_c * (d_pad + dv_pad) + placed(P, smem) * 2 "
     "* B_r * B_c), 8)), smem_bytes_per_clk)"},
    {"fa4-fwd", "b200",
     "cdiv(2 * B_r * B_c * (d_pad + dv_pad), (if(in_bits <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, "
     "mma_f16_per_clk)))",
     "cdiv(cdiv(B_r * B_c * (1000 - ex2_emu_permille), 1000), exp_per_clk)",
     "cdiv((cdiv(in_bits * (placed(Q, smem) * B_r * d_pad + cdiv(B_r, 128) * B_c * (d_pad + dv_pad) + placed(P, smem) "
     "* 2 * B_r * B_c), 8)), smem_bytes_per_clk)"},
};
#define NBEFORE (sizeof before / sizeof *before)

static tf_problem *bind_param(const char *workset, const char *machine, tf_machine **m, tf_workset **w,
                              const char *param, long value) {
  char file[256];
  tf_error err;
  tf_error_init(&err);
  snprintf(file, sizeof file, "machines/%s.json", machine);
  *m = tf_machine_load(file, &err);
  ck_assert_msg(*m != NULL, "%s: %s", file, err.msg);
  snprintf(file, sizeof file, "model/worksets/%s.json", workset);
  *w = tf_workset_load(file, &err);
  ck_assert_msg(*w != NULL, "%s: %s %s", file, err.path, err.msg);
  tf_request req;
  tf_request_init(&req);
  if (param)
    tf_request_add_param(&req, param, value, "-p");
  tf_problem *p = tf_problem_new(*m, *w, &req, &err);
  ck_assert_msg(p != NULL, "%s on %s: %s", workset, machine, err.msg);
  tf_request_release(&req);
  return p;
}

static tf_problem *bind(const char *workset, const char *machine, tf_machine **m, tf_workset **w, long K) {
  return bind_param(workset, machine, m, w, K ? "K" : NULL, K);
}

static tf_objective parse(const tf_workset *w, const char *text) {
  char buf[2048];
  tf_objective o;
  tf_error err;
  tf_error_init(&err);
  snprintf(buf, sizeof buf, "max %s", text);
  ck_assert_msg(!tf_workset_parse_objective(w, buf, "test", &o, &err), "%s: %s", text, err.msg);
  return o;
}

static int64_t value(const tf_problem *p, const int64_t *choose, const int64_t *counts, const tf_objective *o) {
  int64_t v = 0;
  tf_error err;
  tf_error_init(&err);
  ck_assert_msg(!tf_problem_value(p, choose, counts, o->expr, &v, &err), "%s: %s", o->text, err.msg);
  return v;
}

/* Every combination of the domains (placements included), counts at their least. */
static size_t compare_all(const tf_problem *p, const tf_objective *old, const tf_objective *now, size_t n,
                          const char *what) {
  size_t idx[TF_MAX_CHOOSE] = {0}, total = 1, points = 0;
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
  for (int k = 0; k < p->ncounts; k++)
    counts[k] = p->count_lo[k];
  for (size_t i = 0; i < p->nchoose; i++)
    total *= p->ndomain[i];
  for (size_t c = 0; c < total; c++, points++) {
    for (size_t i = 0; i < p->nchoose; i++)
      choose[i] = p->domain[i][idx[i]];
    for (size_t t = 0; t < n; t++) {
      int64_t a = value(p, choose, counts, &old[t]), b = value(p, choose, counts, &now[t]);
      ck_assert_msg(a == b, "%s: %s = %lld, %s = %lld at combination %zu", what, old[t].text, (long long)a, now[t].text,
                    (long long)b, c);
    }
    for (size_t i = p->nchoose; i-- > 0;)
      if (++idx[i] < p->ndomain[i])
        break;
      else
        idx[i] = 0;
  }
  return points;
}

START_TEST(test_reproduces_hand_written) {
  size_t points = 0;
  for (size_t r = 0; r < NBEFORE; r++) {
    tf_machine *m;
    tf_workset *w;
    tf_problem *p = bind(before[r].workset, before[r].machine, &m, &w, strstr(before[r].workset, "sm103") ? 12288 : 0);
    tf_objective old[4], now[4];
    size_t n = 0;
    old[n] = parse(w, before[r].mma), now[n++] = parse(w, "cycles(mma)");
    if (*before[r].exp)
      old[n] = parse(w, before[r].exp), now[n++] = parse(w, "cycles(exp)");
    old[n] = parse(w, before[r].smem), now[n++] = parse(w, "cycles(smem)");
    char all[4096];
    /* A schedule with serial terms (fa2-fwd, fa3-fwd) adds them to the
     * overlapped max: its terms compare, its cycles are pinned in
     * test_schedule. */
    if (tf_workset_resolve(w, "serial_cycles") >= 0) {
      points += compare_all(p, old, now, n, before[r].workset);
      for (size_t t = 0; t < n; t++)
        tf_objective_release(&old[t]), tf_objective_release(&now[t]);
      tf_problem_free(p);
      tf_workset_free(w);
      tf_machine_free(m);
      continue;
    }
    /* the L2 term postdates the hand-written lets (pinned in test_sm80_small_tiles) */
    int l2 = tf_workset_resolve(w, "cycles(l2)") >= 0;
    snprintf(all, sizeof all, "max(%s, %s%s%s%s)", before[r].mma, *before[r].exp ? before[r].exp : "",
             *before[r].exp ? ", " : "", before[r].smem, l2 ? ", cycles(l2)" : "");
    old[n] = parse(w, all), now[n++] = parse(w, "cycles");
    char what[128];
    snprintf(what, sizeof what, "%s on %s", before[r].workset, before[r].machine);
    points += compare_all(p, old, now, n, what);
    for (size_t t = 0; t < n; t++)
      tf_objective_release(&old[t]), tf_objective_release(&now[t]);
    tf_problem_free(p);
    tf_workset_free(w);
    tf_machine_free(m);
  }
  ck_assert_uint_gt(points, 1000); /* the comparison ran over real domains */
}
END_TEST

struct named_value {
  const char *name;
  int64_t want;
};

/* fa4-fwd on the B200 at 128 x 128, two Q stages, Q in smem and P in tmem,
 * every exponential on the MUFU (ex2_emu_permille 0, as the FA4 paper's
 * roofline counts them): each name must evaluate to its value. */
static void fa4_values(const struct named_value *want, size_t n) {
  tf_machine *m;
  tf_workset *w;
  tf_problem *p = bind_param("fa4-fwd", "b200", &m, &w, "ex2_emu_permille", 0);
  int64_t choose[TF_MAX_CHOOSE] = {128, 128, 2, TF_MEM_SMEM, TF_MEM_TMEM, TF_MEM_TMEM, TF_MEM_TMEM},
          counts[TF_MAX_COUNTS] = {3};
  for (size_t i = 0; i < n; i++) {
    tf_objective o = parse(w, want[i].name);
    int64_t v = value(p, choose, counts, &o);
    ck_assert_msg(v == want[i].want, "%s = %lld, want %lld", want[i].name, (long long)v, (long long)want[i].want);
    tf_objective_release(&o);
  }
  tf_problem_free(p);
  tf_workset_free(w);
  tf_machine_free(m);
}

/* The FlashAttention-4 paper's per-tile roofline on the B200 (its section
 * 3.1.1): 128 x 128 at d = 128, MMA 1024, exp 1024, SMEM 768 cycles. */
START_TEST(test_fa4_paper) {
  static const struct named_value want[] = {
      {"cycles(mma)", 1024},    {"cycles(exp)", 1024},  {"cycles(smem)", 768}, {"cycles", 1024},
      {"bound_by", 1},          {"bound_by(mma)", 1},   {"bound_by(smem)", 0}, {"cycles(smem->mma)", 768},
      {"cycles(tmem->mma)", 0}, {"cycles(rf->tmem)", 0}};
  fa4_values(want, sizeof want / sizeof *want);
}
END_TEST

static const char mini[] =
    "{\"name\": \"t\", \"choose\": {\"n\": [64, 128]}, %s"
    " \"buffers\": [{\"name\": \"X\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": \"n\", \"rf\": \"1\"}%s}]}";

/* The mini workset with `root` and `buffer` inserted must not load, and
 * its error names `path` and contains `msg`. */
static void expect_load_error(size_t i, const char *root, const char *buffer, const char *path, const char *msg) {
  char json[1024];
  snprintf(json, sizeof json, mini, root, buffer);
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_parse(json, strlen(json), "t.json", &err);
  ck_assert_msg(w == NULL, "case %zu loads", i);
  ck_assert_msg(!strcmp(err.path, path), "case %zu: path %s, want %s", i, err.path, path);
  ck_assert_msg(strstr(err.msg, msg), "case %zu: '%s' lacks '%s'", i, err.msg, msg);
}

/* The mini workset with `root` and `buffer` inserted, bound on
 * machines/MACHINE.json with the default request; *w and *m to free. */
static tf_problem *bind_mini(const char *root, const char *buffer, const char *machine, tf_workset **w,
                             tf_machine **m) {
  char json[1024], file[64];
  snprintf(json, sizeof json, mini, root, buffer);
  tf_error err;
  tf_error_init(&err);
  *w = tf_workset_parse(json, strlen(json), "t.json", &err);
  ck_assert_msg(*w != NULL, "%s %s", err.path, err.msg);
  snprintf(file, sizeof file, "machines/%s.json", machine);
  *m = tf_machine_load(file, &err);
  ck_assert_msg(*m != NULL, "%s: %s", file, err.msg);
  return tf_test_bind(*m, *w);
}

START_TEST(test_errors) {
  static const struct {
    const char *root, *buffer, *path, *msg;
  } bad[] = {
      {"\"roofline\": {\"exp\": \"n\"}, \"let\": {\"cycles\": \"1\"},", "", "$.roofline", "computed from the roofline"},
      {"\"roofline\": {\"flops\": \"n\"},", "", "$.roofline.flops", "flops"},
      {"\"roofline\": {},", "", "$.roofline", "declares no MMA"},
      {"", ", \"traffic\": [{\"to\": \"l1\", \"bytes\": \"n\"}]", "$.buffers[0].traffic[0].to", "unknown endpoint"},
      {"", ", \"traffic\": [{\"from\": \"mma\", \"bytes\": \"n\"}]", "$.buffers[0].traffic[0].from",
       "smem, tmem or rf"},
      {"", ", \"traffic\": [{\"to\": \"mma\", \"from\": \"rf\", \"bytes\": \"n\"}]", "$.buffers[0].traffic[0]",
       "exactly one"},
      {"", ", \"traffic\": [{\"to\": \"mma\", \"bytes\": \"m\"}]", "$.buffers[0].traffic[0].bytes", "'m'"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\"}]},", "", "$.roofline.mma[0]", "bits"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\", \"inst\": \"hmma\"}]},", "",
       "$.roofline.mma[0].inst", "unknown instruction 'hmma' (expected mma.sync, wgmma"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\"}], \"serial\": {\"mma\": 1000}},", "",
       "$.roofline.serial.mma", "the MMA is what they overlap with"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\"}], \"serial\": {\"exp\": 1000}},", "",
       "$.roofline.serial", "term 'exp' is serial but the workset has no such term"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\"}], \"serial\": [\"exp\"]},", "", "$.roofline.serial",
       "expected an object"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\"}], \"alu\": \"m\"},", "", "$.roofline.alu", "'m'"},
      {"\"roofline\": {\"mma\": [{\"ops\": \"n\", \"bits\": \"16\"}], \"overhead\": \"q\"},", "", "$.roofline.overhead",
       "'q'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_load_error(i, bad[i].root, bad[i].buffer, bad[i].path, bad[i].msg);
}
END_TEST

/* A schedule (docs/cost-model.md, schedules): the serial terms add their
 * exposed share to the overlapped max, the overhead its clocks per
 * iteration, an mma.sync entry runs at the machine's mma.sync share, and
 * the ALU term at its FP32 rate; bound_by stays the largest term.  On the
 * H100 (4096 per clk, mma.sync 550 per mille, 16 exp and 128 FP32 per clk),
 * n = 128: MMA 1024 x 128 ops over cdiv(4096 x 550, 1000) = 2253 per clk,
 * exp 4096 / 16, ALU 8192 / 128, 4 iterations of 10 clocks of overhead. */
START_TEST(test_schedule) {
  tf_workset *w;
  tf_machine *m;
  tf_problem *p = bind_mini(
      "\"roofline\": {\"iterations\": \"4\", \"mma\": [{\"ops\": \"256 * n\", \"bits\": \"16\", \"inst\": "
      "\"mma.sync\"}], \"exp\": \"8 * n\", \"alu\": \"16 * n\", \"serial\": {\"exp\": 500, \"alu\": \"1000\"},"
      " \"overhead\": \"10\"},",
      "", "h100-sxm", &w, &m);
  static const struct named_value want[] = {
      {"mma_rate_0", 2253},    {"cycles(mma)", 59}, /* cdiv(4 x 256 x 128, 2253) */
      {"cycles(exp)", 256},    {"cycles(alu)", 64}, {"overlap_cycles", 59},
      {"serial_cycles", 192},                                        /* cdiv(256 x 500, 1000) + cdiv(64 x 1000, 1000) */
      {"overhead_cycles", 40}, {"cycles", 291},     {"bound_by", 2}, /* exp is the largest term */
  };
  int64_t counts[TF_MAX_COUNTS] = {0}, choose[TF_MAX_CHOOSE] = {128, TF_MEM_SMEM};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    tf_objective o = parse(w, want[i].name);
    ck_assert_msg(value(p, choose, counts, &o) == want[i].want, "%s = %lld, want %lld", want[i].name,
                  (long long)value(p, choose, counts, &o), (long long)want[i].want);
    tf_objective_release(&o);
  }
  ck_assert_uint_eq(w->roofline_serial, (1u << 1) | (1u << 4));
  ck_assert_uint_eq(w->roofline_sync, 1u);
  tf_problem_free(p);
  tf_machine_free(m);
  /* a machine without mma_sync and alu sections: the full MMA rate, no ALU term */
  tf_error err;
  tf_error_init(&err);
  m = tf_machine_load("machines/mi300x.json", &err);
  ck_assert_ptr_nonnull(m);
  p = tf_test_bind(m, w);
  tf_objective rate = parse(w, "mma_rate_0"), alu = parse(w, "cycles(alu)");
  ck_assert_int_eq(value(p, choose, counts, &rate), m->throughput.mma_f16_per_clk);
  ck_assert_int_eq(value(p, choose, counts, &alu), 0);
  tf_objective_release(&rate), tf_objective_release(&alu);
  tf_problem_free(p);
  tf_machine_free(m);
  tf_workset_free(w);
}
END_TEST

/* A placed buffer's memory decides which edge carries its traffic: X in
 * smem is read over smem->mma (the SMEM port), in rf over rf->mma
 * (unmetered on every shipped machine). */
START_TEST(test_placement_moves_traffic) {
  tf_workset *w;
  tf_machine *m;
  tf_problem *p = bind_mini("\"roofline\": {\"mma\": [{\"ops\": \"1024 * n\", \"bits\": \"16\"}]},",
                            ", \"traffic\": [{\"to\": \"mma\", \"bytes\": \"256 * n\"}]", "h100-sxm", &w, &m);
  tf_objective smem = parse(w, "cycles(smem)"), mma = parse(w, "cycles(mma)"), by = parse(w, "bound_by");
  int64_t counts[TF_MAX_COUNTS] = {0}, in_smem[TF_MAX_CHOOSE] = {128, TF_MEM_SMEM},
          in_rf[TF_MAX_CHOOSE] = {128, TF_MEM_RF};
  ck_assert_int_eq(value(p, in_smem, counts, &smem), 256); /* 32768 B / 128 B/clk */
  ck_assert_int_eq(value(p, in_smem, counts, &mma), 32);   /* 131072 / 4096 */
  ck_assert_int_eq(value(p, in_smem, counts, &by), 3);     /* smem binds */
  ck_assert_int_eq(value(p, in_rf, counts, &smem), 0);
  ck_assert_int_eq(value(p, in_rf, counts, &by), 1); /* mma binds */
  tf_objective_release(&smem), tf_objective_release(&mma), tf_objective_release(&by);
  tf_problem_free(p);
  tf_workset_free(w);
  tf_machine_free(m);
}
END_TEST

/* The shape lets (model/input/shape.h) on FA4 at its defaults (128 heads,
 * seqlen 8192, d = 128), 128 x 128, two Q stages, P in tmem: 4096 CTAs
 * in 28 waves of 148, 2 x 64 iterations of 1024 cycles each and, per CTA,
 * its Q and O tiles (131072 B) at the SM's share of HBM and two load
 * latencies, at 1856 MHz; K and V read once per head (32 Q tiles in a
 * wave of 148); the B200's fixed 7000 ns a kernel. */
START_TEST(test_shape) {
  static const struct named_value want[] = {
      {"waves", 28},
      {"io_bytes", 131072},      /* 2 x 128 x 128 x 2 B of Q, the same of O */
      {"epilogue_cycles", 5301}, /* cdiv(131072 x 148 x 1856, 8000 x 1000) + 2 x 400 */
      {"cta_cycles", 136373},    /* 1024 x 128 + 5301 */
      {"compute_ns", 2057352},   /* cdiv(136373 x 28 x 1000, 1856) */
      {"hbm_bytes", 1073741824}, /* 128 heads x (2 MiB Q + 4 MiB K and V + 2 MiB O) */
      {"hbm_ns", 134218},        /* cdiv(1073741824, 8000): 1 GB/s is 1 B/ns */
      {"time_ns", 2064352},      /* max(compute_ns, hbm_ns) + 7000 */
      {"time_us", 2065},
      {"ideal_ns", 1954476}, /* cdiv(2 * 128 * 8192^2 * 256 * 1000, 8192 * 148 * 1856) */
      {"time_bound_by", 1},
  };
  fa4_values(want, sizeof want / sizeof *want);
}
END_TEST

/* A shape with a fill (model/input/shape.h): cutlass-sm80-gemm on the A100
 * at its default 4096^3, 128 x 128 x 64, two stages: 1024 CTAs (32 x 32
 * tiles), 10 on each of the 108 SMs, 64 k-blocks of 1024 MMA cycles at
 * the A100's sustained 1332 MHz (its [fitted] clock).  HBM (include/gemm-hbm.json) with the wave at the occupancy,
 * wave_tiles = 108 x occupancy consecutive tiles, 32 of a tile row:
 *   occupancy 1: 10 waves of 4 tile rows x 32 columns,
 *     10 x (4 x 128 + 4096) x 4096 x 2 B + C's 4096^2 x 2 B = 411041792 B
 *   occupancy 2: 5 waves of cdiv(216, 32) = 7 rows,
 *     5 x (7 x 128 + 4096) x 4096 x 2 B + 4096^2 x 2 B = 238026752 B
 * at 2039 GB/s; load_cycles, that time per SM over its 10 x 64 iterations:
 * cdiv(hbm_ns x 1332, 640000).  The fill is latency.hbm_clk (400) +
 * load_cycles: alone every one of the 10 waves waits for it, with a second
 * CTA on the SM only the first. */
START_TEST(test_fill) {
  char *argv[] = {"solve",     "-m",         "a100",     "-w",          "cutlass-sm80-gemm",
                  "--fix",     "tile_m=128", "--fix",    "tile_n=128",  "--fix",
                  "tile_k=64", "--fix",      "stages=2", "--objective", "min time_us"};
  tf_test_bound b;
  tf_test_bind_args(&b, (int)(sizeof argv / sizeof *argv), argv, "fill");
  const tf_problem *p = b.problem;
  ck_assert_int_ge(p->occupancy, 0); /* time_us reads it */
  static const struct {
    const char *name;
    int64_t at1, at2;
  } want[] = {
      {"sm_ctas", 10, 10},         {"waves", 10, 5},               /* cdiv(1024, 108 x occupancy) */
      {"hbm_ns", 201590, 116738},                                  /* cdiv(411041792, 2039), cdiv(238026752, 2039) */
      {"load_cycles", 420, 243},   {"compute_ns", 492013, 492013}, /* cdiv(1024 x 64 x 10 x 1000, 1332) */
      {"fill_ns", 6157, 483},      /* cdiv(820 x 10 x 1000, 1332), cdiv(643 x 1000, 1332) */
      {"time_ns", 498170, 492496}, /* max(compute_ns, hbm_ns) + fill_ns */
  };
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
  for (size_t i = 0; i < p->nchoose; i++)
    choose[i] = p->domain[i][0];
  for (int k = 0; k < p->ncounts; k++)
    counts[k] = p->count_lo[k];
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    tf_objective o = parse(p->workset, want[i].name);
    choose[p->occupancy] = 1;
    ck_assert_msg(value(p, choose, counts, &o) == want[i].at1, "%s at occupancy 1", want[i].name);
    choose[p->occupancy] = 2;
    ck_assert_msg(value(p, choose, counts, &o) == want[i].at2, "%s at occupancy 2", want[i].name);
    tf_objective_release(&o);
  }
  tf_test_bound_release(&b);
}
END_TEST

/* The value of let `name` at tile_m x tile_n x tile_k, occupancy occ and
 * `stages` on cutlass-sm80-gemm as *p binds it. */
static int64_t sm80_at(const tf_problem *p, const char *name, const int64_t *tile, int64_t occ, int64_t stages) {
  static const char *const vars[] = {"tile_m", "tile_n", "tile_k"};
  int64_t choose[TF_MAX_CHOOSE] = {0}, counts[TF_MAX_COUNTS] = {stages};
  for (size_t i = 0; i < p->nchoose; i++)
    for (size_t v = 0; v < 3; v++)
      if (!strcmp(p->choose_names[i], vars[v]))
        choose[i] = tile[v];
  choose[p->occupancy] = occ;
  tf_objective o = parse(p->workset, name);
  int64_t x = value(p, choose, counts, &o);
  tf_objective_release(&o);
  return x;
}

/* The A100's 4096^3 GEMM by time: each warp's ldmatrix reads of its warp
 * tile and cp.async's writes on the SMEM port, and L2 at 5120 B/clk, make
 * small tiles slow.  The answer is at least 128 x 128, no faster than the
 * 312 TFLOP/s peak allows (ideal_ns), below 90 % of it (no published A100
 * measurement at that shape says otherwise; the CUTLASS profiler's
 * 256x128x32 run at 3456 x 4096 x 8192 is 75 %), and 32 x 32 x 32 is bound
 * by SMEM: 12288 B a k-block (A and B each read by two warps, 2 x 2 KiB,
 * and written once) over 128 B/clk is 96 clocks, three times the MMA's 32. */
START_TEST(test_sm80_small_tiles) {
  char out[8192], err[2048];
  int rc = tf_test_run("solve -m a100 -w cutlass-sm80-gemm -p M=4096 -p N=4096 -p K=4096 --objective \"min time_us\"",
                       out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s", err);
  int64_t tile[3] = {0, 0, 0}, occ = 0, stages = 0;
  const char *t = strstr(out, "tile_m");
  ck_assert_msg(
      t && sscanf(t, "tile_m %" SCNd64 " tile_n %" SCNd64 " tile_k %" SCNd64 " occupancy %" SCNd64 " stages %" SCNd64,
                  &tile[0], &tile[1], &tile[2], &occ, &stages) == 5,
      "%s", out);
  ck_assert_msg(tile[0] >= 128 && tile[1] >= 128, "%s", out);
  char *argv[] = {"solve", "-m", "a100", "-w", "cutlass-sm80-gemm", "--objective", "min time_us"};
  tf_test_bound b;
  tf_test_bind_args(&b, (int)(sizeof argv / sizeof *argv), argv, "sm80 time");
  const tf_problem *p = b.problem;
  int64_t best = sm80_at(p, "time_ns", tile, occ, stages), ideal = sm80_at(p, "ideal_ns", tile, occ, stages);
  ck_assert_int_ge(best, ideal);
  ck_assert_msg(ideal * 100 < best * 90, "peak %lld / %lld", (long long)ideal, (long long)best);
  const int64_t small[3] = {32, 32, 32};
  ck_assert_int_eq(sm80_at(p, "cycles(mma)", small, 1, 2), 128 * 32);
  ck_assert_int_eq(sm80_at(p, "cycles(smem)", small, 1, 2), 128 * 96);
  ck_assert_int_eq(sm80_at(p, "cycles(l2)", small, 1, 2), 11060); /* cdiv(128 x 4096 B x 108, 5120) */
  ck_assert_int_eq(sm80_at(p, "bound_by", small, 1, 2), 3);       /* smem */
  int64_t slow = sm80_at(p, "time_ns", small, 3, 6);
  ck_assert_msg(slow * 100 >= best * 280, "32x32x32 %lld ns, the answer %lld ns", (long long)slow, (long long)best);
  tf_test_bound_release(&b);
}
END_TEST

/* A backward's shape (include/attention-bwd-shape.json) and per-iteration
 * terms, by hand.  fa3-bwd on the H100, d = 128, 64 x 128, V and dQaccum in
 * SMEM, rs (the dK and dV MMAs read P and dS from registers):
 *   mma   2 x 64 x 128 x (3 x 128 + 2 x 128) / 4096 per clk = 2560
 *   smem  (2 x 64 x 128 [Q] + 2 x 64 x 128 [dO] + 2 x 128 x 128 [K] + 64 x 128 [dS]
 *          + 64 x 128 [dS written] + 128 x 128 [V]) x 2 B + 4 x 64 x 128 [dQaccum]
 *         = 229376 B / 128 = 1792
 *   128 heads x cdiv(8192, 128) = 8192 CTAs, cdiv(8192, 132) = 63 waves, each CTA
 *   cdiv(8192, 64) = 128 Q blocks; causal: the mean first block
 *   fdiv(63 x 128, 2 x 64) = 63, so 65 (n x 128 / 64 = 2n, exactly that mean)
 *   HBM per head: K, V read and dK, dV written (4 x 2 MiB), Q and dO (4 MiB), LSE
 *   and dPsum (64 KiB), dQaccum (4 MiB) once: 16842752 B x 128 / 3350 B/ns
 * fa2-bwd on the A100, 64 x 128: mma 10485760 / 2048 = 5120; smem (4 x 64 x 128
 * + 2 x 128 x 128 + 5 x 64 x 128 + 128 x 128) x 2 B = 245760 B / 128 = 1920. */
START_TEST(test_bwd_shape) {
  static const struct {
    const char *machine, *workset, *param, *name;
    int64_t want;
  } cases[] = {
      {"h100-sxm", "fa3-bwd", "causal=0", "cycles(mma)", 2560},
      {"h100-sxm", "fa3-bwd", "causal=0", "cycles(smem)", 1792},
      {"h100-sxm", "fa3-bwd", "causal=0", "waves", 63},
      {"h100-sxm", "fa3-bwd", "causal=0", "cta_iterations", 128},
      {"h100-sxm", "fa3-bwd", "causal=1", "cta_iterations", 65},
      {"h100-sxm", "fa3-bwd", "causal=0", "compute_ns", 11280787}, /* cdiv(2560 x 128 x 63 x 1000, 1830) */
      {"h100-sxm", "fa3-bwd", "causal=0", "hbm_ns", 643544},
      {"h100-sxm", "fa3-bwd", "causal=0", "time_ns", 11280787},
      {"a100", "fa2-bwd", "causal=0", "cycles(mma)", 5120},
      {"a100", "fa2-bwd", "causal=0", "cycles(smem)", 1920},
      /* Grouped-query heads, 8 KV heads of 16 query heads: the group's
       * 16 x 64 CTAs span cdiv(1024, 132) = 8 waves on the H100 (FA3: the
       * query heads consecutive), so K and V (4194304 B a KV head) are read 8
       * times; dK and dV go to fp32 accumulators written once a wave,
       * 8 x 8 x 4 x 8192 x 256 B; Q, dO, LSE, dPsum and dQaccum as without
       * grouping, 128 x 8454144 B: 1887436800 B in all, cdiv(., 3350) ns. */
      {"h100-sxm", "fa3-bwd", "kv_heads=8", "kv_reads", 8},
      {"h100-sxm", "fa3-bwd", "kv_heads=8", "hbm_bytes", 1887436800},
      {"h100-sxm", "fa3-bwd", "kv_heads=8", "hbm_ns", 563414},
      /* FA2 on the A100: cdiv(1024, 108) = 10 reads of K and V a KV head;
       * dK and dV written expanded, once per query head at 16 bits:
       * 8 x 10 x 4194304 + 128 x 4194304 + 128 x 8454144 B */
      {"a100", "fa2-bwd", "kv_heads=8", "kv_reads", 10},
      {"a100", "fa2-bwd", "kv_heads=8", "hbm_bytes", 1954545664},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *argv[] = {"solve",
                    "-m",
                    (char *)cases[i].machine,
                    "-w",
                    (char *)cases[i].workset,
                    "-p",
                    (char *)cases[i].param,
                    "--fix",
                    "B_r=64",
                    "--fix",
                    "B_c=128",
                    "--place",
                    "V=smem"};
    tf_test_bound b;
    tf_test_bind_args(&b, (int)(sizeof argv / sizeof *argv), argv, "bwd shape");
    const tf_problem *p = b.problem;
    int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
    for (size_t k = 0; k < p->nchoose; k++)
      choose[k] = p->domain[k][0]; /* dQaccum: its first place, smem */
    for (int k = 0; k < p->ncounts; k++)
      counts[k] = p->count_lo[k];
    tf_objective o = parse(p->workset, cases[i].name);
    ck_assert_msg(value(p, choose, counts, &o) == cases[i].want, "%s %s %s", cases[i].workset, cases[i].param,
                  cases[i].name);
    tf_objective_release(&o);
    tf_test_bound_release(&b);
  }
}
END_TEST

/* The occupancy variable is there when an objective or require reads it,
 * itself or through lets: sm80's time does (its shape has a fill), its
 * stage count does not, and sm90's time assumes one CTA per SM. */
START_TEST(test_occupancy_variable_when_read) {
  static const struct {
    const char *machine, *workset, *objective;
    int variable;
  } cases[] = {
      {"a100", "cutlass-sm80-gemm", "min time_ns", 1},
      {"a100", "cutlass-sm80-gemm", "max stages", 0},
      {"h100-sxm", "cutlass-sm90-gemm", "min time_us", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *argv[] = {"solve",
                    "-m",
                    (char *)cases[i].machine,
                    "-w",
                    (char *)cases[i].workset,
                    "--objective",
                    (char *)cases[i].objective};
    tf_test_bound b;
    tf_test_bind_args(&b, (int)(sizeof argv / sizeof *argv), argv, cases[i].objective);
    ck_assert_msg((b.problem->occupancy >= 0) == cases[i].variable, "%s, %s: occupancy variable %d", cases[i].workset,
                  cases[i].objective, b.problem->occupancy);
    tf_test_bound_release(&b);
  }
}
END_TEST

START_TEST(test_shape_errors) {
  static const struct {
    const char *root, *path, *msg;
  } bad[] = {
      {"\"shape\": {\"ctas\": \"n\", \"hbm_bytes\": \"n\", \"flops\": \"n\"},", "$.shape", "needs a roofline"},
      {"\"roofline\": {\"exp\": \"n\"}, \"shape\": {\"ctas\": \"n\", \"flops\": \"n\"},", "$.shape", "hbm_bytes"},
      {"\"roofline\": {\"exp\": \"n\"}, \"shape\": {\"ctas\": \"n\", \"hbm_bytes\": \"n\", \"flops\": \"n\", "
       "\"tiles\": 1},",
       "$.shape.tiles", "tiles"},
      {"\"roofline\": {\"exp\": \"n\"}, \"shape\": {\"ctas\": \"q\", \"hbm_bytes\": \"n\", \"flops\": \"n\"},",
       "$.shape", "'q'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_load_error(i, bad[i].root, "", bad[i].path, bad[i].msg);
}
END_TEST

/* Latency hiding (model/input/roofline.h) on tests/data/worksets/latency-mini.json
 * and an A100 given a latency of 1000 clocks: 4 iterations of 2048 n MMA
 * operations at 2048 per clock, n^2 / 8 load bytes per iteration at one
 * SM's HBM share, 2039 GB/s over 108 SMs at 1410 MHz.
 *   n = 128: cycles 512, compute 128, loads cdiv(2048 x 152280, 2039000) =
 *            153 bind, stages_needed 1 + cdiv(1000, 153) = 8
 *   n = 64:  cycles 256, compute 64 binds (loads cdiv(512 x 152280,
 *            2039000) = 39), stages_needed 1 + cdiv(1000, 64) = 17
 * Without a latency the machine needs one stage. */
static int64_t let_at(const tf_problem *p, const char *name, int64_t n, int64_t stages) {
  tf_objective o = parse(p->workset, name);
  int64_t choose[TF_MAX_CHOOSE] = {n}, counts[TF_MAX_COUNTS] = {stages};
  int64_t v = value(p, choose, counts, &o);
  tf_objective_release(&o);
  return v;
}

START_TEST(test_stages_needed) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load("tests/data/worksets/latency-mini.json", &err);
  ck_assert_msg(w != NULL, "%s %s", err.path, err.msg);
  tf_machine *m = tf_machine_load("machines/a100.json", &err);
  ck_assert_ptr_nonnull(m);
  m->latency.present = 1, m->latency.hbm_clk = 1000;
  m->sustained.present = 0; /* the arithmetic above runs at clock_mhz */
  tf_problem *p = tf_test_bind(m, w);
  static const struct {
    const char *name;
    int64_t n, stages, want;
  } want[] = {
      {"cycles", 128, 1, 512},       {"compute_cycles", 128, 1, 128},   {"load_bytes", 128, 1, 2048},
      {"load_cycles", 128, 1, 153},  {"iteration_cycles", 128, 1, 153}, {"stages_needed", 128, 1, 8},
      {"latency_bound", 128, 7, 1},  {"latency_bound", 128, 8, 0},      {"pipeline_stages", 128, 8, 8},
      {"compute_cycles", 64, 1, 64}, {"load_cycles", 64, 1, 39},        {"iteration_cycles", 64, 1, 64},
      {"stages_needed", 64, 1, 17},  {"latency_bound", 64, 16, 1},      {"latency_bound", 64, 17, 0},
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    ck_assert_msg(let_at(p, want[i].name, want[i].n, want[i].stages) == want[i].want, "%s at n = %lld: %lld, want %lld",
                  want[i].name, (long long)want[i].n, (long long)let_at(p, want[i].name, want[i].n, want[i].stages),
                  (long long)want[i].want);
  tf_problem_free(p);
  m->latency.present = 0;
  p = tf_test_bind(m, w);
  ck_assert_int_eq(let_at(p, "stages_needed", 128, 1), 1);
  ck_assert_int_eq(let_at(p, "latency_bound", 128, 1), 0);
  tf_problem_free(p);
  tf_workset_free(w);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_loads_errors) {
  static const struct {
    const char *root, *path, *msg;
  } bad[] = {
      {"\"roofline\": {\"exp\": \"n\", \"loads\": \"n\"},", "$.roofline.loads", "expected an object"},
      {"\"roofline\": {\"exp\": \"n\", \"loads\": {\"bytes\": \"n\"}},", "$.roofline.loads", "stages"},
      {"\"roofline\": {\"exp\": \"n\", \"loads\": {\"bytes\": \"n\", \"stages\": \"a b\"}},", "$.roofline.loads.stages",
       "the name of a count"},
      {"\"roofline\": {\"exp\": \"n\", \"loads\": {\"bytes\": \"q\", \"stages\": \"n\"}},", "$.roofline.loads", "'q'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_load_error(i, bad[i].root, "", bad[i].path, bad[i].msg);
}
END_TEST

Suite *roofline_suite(void) {
  Suite *s = suite_create("roofline");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_reproduces_hand_written);
  tcase_add_test(tc, test_fa4_paper);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_placement_moves_traffic);
  tcase_add_test(tc, test_schedule);
  suite_add_tcase(s, tc);
  TCase *shape = tcase_create("shape");
  tcase_set_timeout(shape, 60);
  tcase_add_test(shape, test_shape);
  tcase_add_test(shape, test_shape_errors);
  tcase_add_test(shape, test_fill);
  tcase_add_test(shape, test_bwd_shape);
  tcase_add_test(shape, test_sm80_small_tiles);
  tcase_add_test(shape, test_occupancy_variable_when_read);
  suite_add_tcase(s, shape);
  TCase *latency = tcase_create("latency");
  tcase_set_timeout(latency, 60);
  tcase_add_test(latency, test_stages_needed);
  tcase_add_test(latency, test_loads_errors);
  suite_add_tcase(s, latency);
  return s;
}
