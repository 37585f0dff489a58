/* End to end: the built binary (TILEFIT_BIN) on the shipped machines and
 * worksets, checking exit codes, stdout and stderr as a user sees them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode/oracle.h"
#include "solver/solve.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 16], err[1 << 14];

#define FA4 "solve -m b200 -w fa4-fwd --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective 'max stages' --json"

START_TEST(test_fa4_d128) {
  int rc = tf_test_run(FA4 " -p d=128 -p dv=128", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(out, "\"stages\":3}"), "%s", out);
  ck_assert_msg(strstr(out, "\"smem\":{\"used\":232448,\"capacity\":232448,\"slack\":0"), "%s", out);
  ck_assert_msg(strstr(out, "\"tmem\":{\"used\":512,\"capacity\":512,\"slack\":0"), "%s", out);
  ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_fa4_d64) {
  int rc = tf_test_run(FA4 " -p d=64 -p dv=64", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(out, "\"stages\":10}"), "%s", out);
}
END_TEST

/* fa4-bwd reproduces upstream's own byte counts (the flash_bwd_sm100.py
 * comment: 232448 B at 1 CTA, 231424 B at 2 CTAs, head dim 128) and says why
 * one more Q stage does not fit. */
START_TEST(test_fa4_bwd_upstream_bytes) {
  static const struct { int cta_group, q_stage, smem, next; } want[] = {{1, 2, 232448, 3}, {2, 1, 231424, 2}};
  char args[256], line[128];
  snprintf(args, sizeof args, "solve -m b200 -w fa4-bwd -p d=128 -p cta_group=%d --fix dO_stage=1 --explain",
           want[_i].cta_group);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  snprintf(line, sizeof line, "  Q_stage      %d\n", want[_i].q_stage);
  ck_assert_msg(strstr(out, line), "%s", out);
  snprintf(line, sizeof line, "  smem           %d     232448", want[_i].smem);
  ck_assert_msg(strstr(out, line), "%s", out);
  snprintf(line, sizeof line, "binding      Q_stage = %d: smem needs 265216 B of 232448, 32768 over", want[_i].next);
  ck_assert_msg(strstr(out, line), "%s", out);
}
END_TEST

/* Triton on AMD: num_stages - 1 LDS buffers (buffer_offset -1) in the
 * 64 KB LDS of an MI300X; the closed form prints the negative resident as a
 * sum. */
START_TEST(test_triton_mi300x) {
  int rc = tf_test_run("solve -m mi300x -w triton-matmul -p buffer_offset=-1 --fix BLOCK_M=128 --fix BLOCK_N=128"
                       " --fix BLOCK_K=64 --explain",
                       out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(out, "closed form  num_stages = floor((65536 + 32768) / 32768) = 3 in smem: agrees"), "%s", out);
  ck_assert_msg(strstr(out, "binding      num_stages = 4: smem needs 98304 B of 65536, 32768 over"), "%s", out);
}
END_TEST

#define SM90                                                                                                  \
  "solve -m h100-sxm -w cutlass-sm90-gemm -p a_bits=16 -p b_bits=16 --fix tile_m=128 --fix tile_n=128 --fix " \
  "tile_k=64 --objective 'max stages' --csv"

START_TEST(test_sm90_stages) {
  static const struct { int epilogue, stages; } want[] = {{33792, 6}, {67584, 5}, {0, 7}, {17408, 6}};
  char args[512];
  snprintf(args, sizeof args, SM90 " -p epilogue_bytes=%d", want[_i].epilogue);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  char row[64];
  snprintf(row, sizeof row, ",128,128,64,1,%d,", want[_i].stages); /* tile, splits, stages */
  ck_assert_msg(strstr(out, row), "epilogue %d: want '%s' in\n%s", want[_i].epilogue, row, out);
}
END_TEST

/* Narrow operands and a tile_k that holds no whole MMA instruction (256
 * bits of K: 16 at 16 bits, 32 at 8, 64 at 4): the combination is ruled out
 * by a require, not an evaluation error of the whole solve (test_messages:
 * the require named). */
START_TEST(test_gemm_narrow_operands) {
  static const char *const args[] = {
      "solve -m a100 -w cutlass-sm80-gemm -p a_bits=8 -p b_bits=8 --json",
      "solve -m a100 -w cutlass-sm80-gemm -p a_bits=4 -p b_bits=4 --json",
      "solve -m h100-sxm -w cutlass-sm90-gemm -p a_bits=8 -p b_bits=8 --json",
  };
  int rc = tf_test_run(args[_i], out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s: exit %d: %s", args[_i], rc, err);
  ck_assert_msg(strstr(out, "\"status\":\"optimal\""), "%s", out);
}
END_TEST

/* Messages that say what is wrong, each with its exit code: a tile_k
 * holding no whole MMA instruction, 4-bit A and B on sm90 (WGMMA has no
 * 4-bit type).  Params
 * outside what a kernel takes report the require they violate (exit 1),
 * one that reads no tile before any let is evaluated, rather than failing
 * on a let or size they make meaningless: flashmla-sm90-decode below its
 * dv (512 by default), where the Q tail's size went negative; more KV
 * heads than heads, where the group was 0; cta_group 0 and a head dim of
 * 0, which a let divides by; an empty GEMM, through its include's
 * require.  A roofline, loads or shape name read by a
 * workset without that section says which section would define it (exit
 * 2); a misspelling still gets "did you mean", and a roofline term the
 * workset does not declare is a misspelling. */
static const struct {
  const char *args;
  int rc;
  const char *want;
} message_cases[] = {
    {"solve -m a100 -w cutlass-sm80-gemm -p a_bits=8 -p b_bits=8 --fix tile_k=16", 1,
     "violates 'tile_k * max(a_bits, b_bits) % 256 == 0'"},
    {"solve -m h100-sxm -w cutlass-sm90-gemm -p a_bits=4 -p b_bits=4", 1,
     "'max(a_bits, b_bits) >= 8' fails at every point: 4 >= 8 ($.require["},
    {"solve -m h100-sxm -w flashmla-sm90-decode -p d=128", 1, "'dv <= d' fails at every point: 512 <= 128"},
    {"solve -m h100-sxm -w fa3-fwd -p kv_heads=256 --objective 'min time_us'", 1,
     "'heads % max(kv_heads, 1) == 0' fails at every point: 128 == 0"},
    {"solve -m h100-sxm -w fa3-bwd -p kv_heads=256 --objective 'min time_us'", 1,
     "'heads % max(kv_heads, 1) == 0' fails at every point: 128 == 0"},
    {"solve -m b200 -w cutlass-sm100-gemm -p cta_group=0", 1, "'cta_group >= 1' fails at every point: 0 >= 1"},
    {"solve -m b200 -w fa4-fwd -p d=0", 1, "'d >= 1' fails at every point: 0 >= 1"},
    {"solve -m h100-sxm -w cutlass-sm90-gemm -p M=0", 1,
     "'M >= 1' fails at every point: 0 >= 1 (include/gemm-waves.json: $.require[0])"},
    {"solve -m a100 -w tests/data/worksets/lifetimes.json --objective 'min time_us'", 2,
     "unknown name 'time_us': a workset's \"shape\" defines it (docs/cost-model.md, problem shapes), and "
     "lifetimes declares none"},
    {"solve -m a100 -w tests/data/worksets/lifetimes.json --objective 'max bound_by(mma)'", 2,
     "unknown name 'bound_by(mma)': a workset's \"roofline\" (or a buffer's \"traffic\") defines it"},
    {"solve -m a100 -w fa2-fwd --require 'stages_needed <= 2'", 2,
     "unknown name 'stages_needed': a workset's \"roofline\".\"loads\" defines it"},
    {"solve -m a100 -w fa2-fwd --objective 'max cycles(tmem)'", 2, "unknown name 'cycles(tmem)'; did you mean"},
    {"solve -m a100 -w fa2-fwd --objective 'max time_uss'", 2, "unknown name 'time_uss'; did you mean 'time_us'?"},
    /* validate refuses --no-presolve without GLPK as solve does (it took it) */
    {"validate tests/data/validate/triton.jsonl --no-presolve", 2,
     "--no-presolve: turns GLPK's presolver off; it applies with --solver glpk"},
    /* a sweep's unknown name gets the did-you-mean solve gives */
    {"sweep -m a100 -w fa2-fwd,cutlass-sm80-gemm -p dvv=64", 2,
     "-p dvv=64: no workset of the sweep has a param 'dvv'; did you mean 'dv'?"},
    {"sweep -m a100 -w fa2-fwd --fix B_rr=64", 2, "no workset of the sweep has a variable 'B_rr'; did you mean 'B_r'?"},
    /* two names in one option: the options it stands for (a comma lists a sweep's values) */
    {"solve -m a100 -w fa2-fwd --fix B_r=64,B_c=64", 2,
     "--fix: 'B_r=64,B_c=64' sets more than one name; give each its own option: --fix B_r=64 --fix B_c=64"},
    {"sweep -m a100 -w fa2-fwd --fix B_r=64,128,B_c=64", 2, "give each its own option: --fix B_r=64,128 --fix B_c=64"},
    {"solve -m a100 -w fa2-fwd -p d=64,dv=64", 2, "give each its own option: -p d=64 -p dv=64"},
};

START_TEST(test_messages) {
  int rc = tf_test_run(message_cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == message_cases[_i].rc, "%s: exit %d: %s", message_cases[_i].args, rc, err);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, message_cases[_i].want), "%s:\n%s", message_cases[_i].args, err);
}
END_TEST

START_TEST(test_check_one_over) {
  int rc = tf_test_run("check -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 "
                       "--fix stages=4",
                       out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_msg(strstr(out, "does not fit: smem needs 265216 B of 232448, 32768 over"), "%s", out);
}
END_TEST

START_TEST(test_issue_2591) {
  int rc = tf_test_run("check -m b200 -w fa4-fwd -p d=16 -p dv=16 --fix B_r=128 --fix B_c=128 --fix q_stage=2 "
                       "--fix stages=52 --json",
                       out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_msg(strstr(out, "\"status\":\"does_not_fit\""), "%s", out);
  ck_assert_msg(strstr(out, "smem needs 233472 B of 232448, 1024 over"), "%s", out);
}
END_TEST

START_TEST(test_errors_on_stderr_only) {
  int rc = tf_test_run("solve -m b200 -w fa4-fwd -p d=abc", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "tilefit: error: -p: expected an integer after 'd=', got 'abc'\n");
  rc = tf_test_run("solve -m b200 -w fa4-fwd --require 'stages * stages <= 9'", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, "--require: in expression 'stages * stages <= 9': not affine in count variable 'stages'"),
                "%s", err);
}
END_TEST

START_TEST(test_infeasible_exit) {
  int rc = tf_test_run("solve -m b200 -w fa4-fwd -p d=128 --fix B_c=128 --require 'stages >= 40'", out, sizeof out, err,
                       sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, "tilefit: infeasible:"), "%s", err);
}
END_TEST

/* A free-tile solve through the shipped workset equals the oracle. */
START_TEST(test_free_tile_equals_oracle) {
  static const char *const ws[] = {"cutlass-sm90-gemm", "fa4-fwd"};
  static const char *const ms[] = {"h100-sxm", "b200"};
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(ms[_i]);
  req.workset = strdup(ws[_i]);
  if (_i == 0) {
    tf_request_add_objective(&req, "max tile_m*tile_n", "--objective");
    tf_request_add_param(&req, "epilogue_bytes", 33792, "-p");
  } else {
    tf_request_add_objective(&req, "max B_r*B_c", "--objective");
  }
  tf_request_add_objective(&req, "max stages", "--objective");
  tf_error e;
  tf_error_init(&e);
  tf_loaded l;
  ck_assert_msg(tf_load(&req, "-m", "-w", &l, &e) == 0, "%s: %s", e.file, e.msg);
  tf_problem *p = tf_problem_new(l.machine, l.workset, &req, &e);
  ck_assert_msg(p != NULL, "%s", e.msg);
  ck_assert_uint_gt(p->ncombos, 1);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a;
  tf_answer_init(&a, p);
  ck_assert_msg(tf_solve(p, &o, NULL, &a, &e) == 0, "%s", e.msg);
  tf_oracle_result r;
  ck_assert_msg(tf_oracle_solve(p, 100000000, &r, &e) == 0, "%s", e.msg);
  ck_assert(r.feasible && a.status == TF_ANSWER_OPTIMAL);
  ck_assert_int_eq(r.objective[0], a.point.objective[0]);
  ck_assert_int_eq(r.objective[1], a.point.objective[1]);
  tf_answer_release(&a);
  tf_problem_free(p);
  tf_loaded_release(&l);
  tf_request_release(&req);
}
END_TEST

/* FlashAttention-2's own hdim-256 rule, from occupancy then tile area,
 * with the workset's defaults: Q in smem and no Q/K sharing, as every
 * live FA2 forward dispatch instantiates its kernel traits. */
START_TEST(test_fa2_occupancy_rule) {
  static const struct {
    const char *machine;
    int b_r, occupancy;
  } want[] = {{"a100", 128, 1}, {"h100-sxm", 64, 2}, {"a10", 64, 1}, {"rtx4090", 64, 1}, {"b200", 64, 2}};
  char args[512], row[64];
  snprintf(args, sizeof args,
           "solve -m %s -w fa2-fwd -p d=256 --domain B_r=64,128 --fix B_c=64 --objective 'max occupancy' "
           "--objective 'max B_r*B_c' --csv",
           want[_i].machine);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  snprintf(row, sizeof row, ",%d,64,%d,1,", want[_i].b_r, want[_i].occupancy);
  ck_assert_msg(strstr(out, row), "%s: want '%s' in\n%s", want[_i].machine, row, out);
}
END_TEST

/* FA2's kernel traits flags: Q in smem by default (an A10 cannot hold
 * the hdim-256 128x64 tile, as upstream's launch fails), Q in registers
 * only when asked (--place or the param; --place wins over the param's
 * pin), and Share_Q_K_smem folding K and V into Q's tile. */
START_TEST(test_fa2_kernel_traits) {
  static const struct {
    const char *args, *want;
    int rc;
  } cases[] = {
      {"check -m a10 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64 --fix stages=1", "smem needs 131072 B of 101376",
       1},
      {"solve -m a100 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64", "placement    Q smem", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64 -p q_in_regs=1", "placement    Q rf", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64 --place Q=rf", "placement    Q rf", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64 --place Q=rf", "smem           131072", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 --fix B_r=128 --fix B_c=64 -p share_q_k_smem=1", "smem            65536", 0},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == cases[_i].rc, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].args, cases[_i].want, out);
}
END_TEST

/* Registers: every buffer FA2's forward keeps in registers (O, S/P, the
 * softmax statistics, Q when asked) per thread over the dispatch's warps,
 * against the 255 a thread may have; the register file limits occupancy;
 * FA3's fp8 hdim-64 192x160 tile fits its warpgroups' setmaxnreg budget. */
#define T128x128x64 "--fix tile_m=128 --fix tile_n=128 --fix tile_k=64 --fix stages=2"
#define T128x256x64 "--fix tile_m=128 --fix tile_n=256 --fix tile_k=64 --fix stages=2"
#define T128x128x128 "--fix tile_m=128 --fix tile_n=128 --fix tile_k=128 --fix stages=2"
#define T128x256x128 "--fix tile_m=128 --fix tile_n=256 --fix tile_k=128 --fix stages=2"
#define T256x256x64 "--fix tile_m=256 --fix tile_n=256 --fix tile_k=64 --fix stages=2"
START_TEST(test_register_footprints) {
  static const struct {
    const char *args, *want;
    int rc;
  } cases[] = {
      {"solve -m a100 -w fa2-fwd -p d=256 -p q_in_regs=1 --explain", "  rf                228        255         27",
       0},
      {"solve -m a100 -w fa2-fwd -p d=256 -p q_in_regs=1 --explain", "  O_acc              rf            128", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 -p q_in_regs=1 --explain", "  S_P                rf             32", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 -p q_in_regs=1 --explain", "  softmax_stats      rf              4", 0},
      {"solve -m a100 -w fa2-fwd -p d=256 -p q_in_regs=1 --explain", "  Q                  rf             64", 0},
      {"check -m a100 -w fa2-fwd -p d=128 --fix B_r=128 --fix B_c=128 --fix stages=1", "rf needs 264 registers/thread",
       1},
      {"solve -m a100 -w fa2-fwd -p d=64 --fix B_r=128 --fix B_c=128 --objective 'max occupancy' --explain",
       "occupancy 3 needs 76800 registers per SM, above 65536", 0},
      {"check -m h100-sxm -w fa3-fwd -p d=64 -p in_bits=8 --fix B_r=192 --fix B_c=160 --fix stages=2",
       "fa3-fwd on h100-sxm: fits", 0},
      /* CUTLASS 2.x on sm80: 256x256 on 16 warps cannot launch, on 8 it needs 352 registers; a shipped
       * tile (256x128, 8 warps) fits; rf_model 0 is the shared-memory-only model */
      {"check -m a100 -w cutlass-sm80-gemm --fix tile_m=256 --fix tile_n=256 --fix tile_k=32 --fix stages=3",
       "does not fit: violates 'cta_registers <= rf_per_sm' (98304 vs 65536)", 1},
      {"check -m a100 -w cutlass-sm80-gemm -p warps=8 --fix tile_m=256 --fix tile_n=256 --fix tile_k=32 --fix stages=3",
       "does not fit: rf needs 352 registers/thread of 255, 97 over", 1},
      {"check -m a100 -w cutlass-sm80-gemm -p warps=64 --fix tile_m=256 --fix tile_n=256 --fix tile_k=32 --fix "
       "stages=3",
       "does not fit: violates 'threads <= threads_per_cta' (2048 vs 1024)", 1},
      {"check -m a100 -w cutlass-sm80-gemm --fix tile_m=256 --fix tile_n=128 --fix tile_k=32 --fix stages=3",
       "  rf                192        255         63  registers/thread", 0},
      /* latency hiding: the explain's roofline block shows Little's law (docs/cost-model.md) */
      {"solve -m a100 -w tests/data/worksets/latency-mini.json --fix n=128 --require 'stages >= stages_needed' "
       "--explain",
       "  iteration  145 clk = max(compute 128 (cycles 512 over the iterations), loads 145 (2048 B x 108 SMs x 1332 "
       "MHz",
       0},
      {"solve -m a100 -w tests/data/worksets/latency-mini.json --fix n=128 --fix stages=1 --explain",
       "clk per iteration); 1 stages: latency-bound", 0},
      {"solve -m a100 -w cutlass-sm80-gemm --objective 'max tile_m*tile_n' --objective 'max stages'",
       "objective    max tile_m*tile_n = 32768", 0},
      {"solve -m a100 -w cutlass-sm80-gemm -p rf_model=0 --objective 'max tile_m*tile_n' --objective 'max stages'",
       "objective    max tile_m*tile_n = 65536", 0},
      {"check -m a100 -w cutlass-sm80-gemm -p rf_model=0 --fix tile_m=256 --fix tile_n=256 --fix tile_k=32 --fix "
       "stages=3",
       "cutlass-sm80-gemm on a100: fits", 0},
      /* SM120: the accumulators per MMA thread against the SM90 kernels' setmaxnreg budget */
      {"check -m rtx5090 -w cutlass-sm120-gemm --fix tile_m=256 --fix tile_n=256 --fix tile_k=64 --fix stages=2",
       "does not fit: rf needs 271 registers/thread of 255, 16 over", 1},
      {"check -m rtx5090 -w cutlass-sm120-gemm -p schedule=2 --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 --fix "
       "stages=2",
       "does not fit: rf needs 271 registers/thread of 255, 16 over", 1},
      {"check -m rtx5090 -w cutlass-sm120-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 --fix stages=2",
       "  rf                151        255        104  registers/thread", 0},
      {"check -m rtx5090 -w cutlass-sm120-gemm -p schedule=1 --fix tile_m=64 --fix tile_n=128 --fix tile_k=128 --fix "
       "stages=2",
       "does not fit: violates 'pingpong == 1 || tile_m >= 128' (0 vs 1)", 1},
      {"check --cutlass-name cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align16"
       "_warpspecialized_pingpong",
       "does not fit: rf needs 271 registers/thread of 255, 16 over", 1},
      {"check --cutlass-name cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_align16",
       "cutlass-sm120-gemm on rtx5090: fits", 0},
      /* CuTe DSL Hopper: the accumulator per MMA thread (two warpgroups when cooperative), against 255
       * non-persistent and the persistent kernel's 232; rf_model 0 is the shared-memory-only model */
      {"check -m h100-sxm -w cutedsl-sm90-gemm -p persistent=1 --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 "
       "--fix ab_stage=3",
       "  rf                151        255        104  registers/thread", 0},
      {"check -m h100-sxm -w cutedsl-sm90-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64 --fix ab_stage=7",
       "  acc                rf            128        128      1", 0},
      {"check -m h100-sxm -w cutedsl-sm90-gemm --fix tile_m=128 --fix tile_n=512 --fix tile_k=64 --fix ab_stage=1",
       "does not fit: rf needs 256 registers/thread of 255, 1 over", 1},
      {"check -m h100-sxm -w cutedsl-sm90-gemm -p persistent=1 --fix tile_m=64 --fix tile_n=512 --fix tile_k=64 "
       "--fix ab_stage=1",
       "does not fit: rf needs 279 registers/thread of 255, 24 over", 1},
      {"check -m h100-sxm -w cutedsl-sm90-gemm -p rf_model=0 --fix tile_m=128 --fix tile_n=512 --fix tile_k=64 "
       "--fix ab_stage=1",
       "cutedsl-sm90-gemm on h100-sxm: fits", 0},
      /* CuTe DSL SM120: opt-in registers (the accumulator and two k-blocks of A/B fragments against 232);
       * off by default, the example's own 128x256x64 spills */
      {"check -m rtx5090 -w cutedsl-sm120-gemm -p rf_model=1 --fix tile_m=128 --fix tile_n=128 --fix tile_k=64 "
       "--fix ab_stage=2",
       "  rf                215        255         40  registers/thread", 0},
      {"check -m rtx5090 -w cutedsl-sm120-gemm -p rf_model=1 --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 "
       "--fix ab_stage=1",
       "does not fit: rf needs 375 registers/thread of 255, 120 over", 1},
      {"check -m rtx5090 -w cutedsl-sm120-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 --fix ab_stage=1",
       "cutedsl-sm120-gemm on rtx5090: fits", 0},
      {"check -m rtx5090 -w cutedsl-sm120-gemm -p rf_model=1 -p rf_budget=255 --fix tile_m=64 --fix tile_n=256 "
       "--fix tile_k=64 --fix ab_stage=1",
       "  rf                208        255         47  registers/thread", 0},
      /* SM90 conv: one MMA warpgroup without setmaxnreg holds the whole accumulator against 255 */
      {"check -m h100-sxm -w cutlass-sm90-conv " T128x128x64,
       "  rf                128        255        127  registers/thread", 0},
      {"check -m h100-sxm -w cutlass-sm90-conv " T128x256x64,
       "does not fit: rf needs 256 registers/thread of 255, 1 over", 1},
      {"check -m h100-sxm -w cutlass-sm90-conv -p rf_model=0 " T128x256x64, "cutlass-sm90-conv on h100-sxm: fits", 0},
      /* SM90 blockwise: two accumulator copies (the promotion one), cooperative or pingpong */
      {"check -m h100-sxm -w cutlass-sm90-gemm-blockwise " T128x128x128,
       "  rf                151        255        104  registers/thread", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-blockwise " T128x256x128,
       "does not fit: rf needs 279 registers/thread of 255, 24 over", 1},
      {"check -m h100-sxm -w cutlass-sm90-gemm-blockwise -p schedule=2 " T128x128x128,
       "does not fit: rf needs 279 registers/thread", 1},
      {"check -m h100-sxm -w cutlass-sm90-gemm-blockwise -p rf_model=0 " T128x256x128,
       "cutlass-sm90-gemm-blockwise on h100-sxm: fits", 0},
      /* SM90 mixed input: the accumulator and the A fragment as loaded and converted */
      {"check -m h100-sxm -w cutlass-sm90-gemm-mixed " T128x256x128, "  A_converted        rf             32", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-mixed " T128x256x128, "  A_load             rf              8", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-mixed " T128x256x128,
       "  rf                191        255         64  registers/thread", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-mixed " T256x256x64,
       "does not fit: rf needs 311 registers/thread of 255, 56 over", 1},
      {"check -m h100-sxm -w cutlass-sm90-gemm-mixed -p rf_model=0 " T256x256x64,
       "cutlass-sm90-gemm-mixed on h100-sxm: fits", 0},
      /* SM90 sparse: the metadata fragment, and FP8's second accumulator unless fast-accumulating */
      {"check -m h100-sxm -w cutlass-sm90-gemm-sparse " T128x256x128, "  E_frag             rf              2", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-sparse " T128x256x128,
       "  rf                153        255        102  registers/thread", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-sparse -p a_bits=8 -p b_bits=8 " T128x256x128,
       "does not fit: rf needs 281 registers/thread of 255, 26 over", 1},
      {"check -m h100-sxm -w cutlass-sm90-gemm-sparse -p a_bits=8 -p b_bits=8 -p fp8_fastaccum=1 " T128x256x128,
       "cutlass-sm90-gemm-sparse on h100-sxm: fits", 0},
      {"check -m h100-sxm -w cutlass-sm90-gemm-sparse -p a_bits=8 -p b_bits=8 -p rf_model=0 " T128x256x128,
       "cutlass-sm90-gemm-sparse on h100-sxm: fits", 0},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == cases[_i].rc, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].args, cases[_i].want, out);
}
END_TEST

/* Registers of the attention worksets beside FlashAttention's: FlashInfer's
 * prefill (o_frag, s_frag, m/d, rope_freq per thread of its 128) and
 * FlashMLA's sm90 decode (rO's half, rP, rPb, rQ8, rL per thread of each of
 * its two warpgroups), both against the 255 a thread may have; a shipped
 * configuration fits with its rf row, an oversized one is refused for
 * registers, and rf_model=0 drops them. */
START_TEST(test_attn_register_footprints) {
  static const struct {
    const char *args, *want;
    int rc;
  } cases[] = {
      {"solve -m a100 -w flashinfer-prefill -p d=128 -p cta_tile_q=128",
       "  rf                200        255         55", 0},
      {"solve -m a100 -w flashinfer-prefill -p d=128 -p cta_tile_q=128 --explain",
       "  O_acc              rf            128", 0},
      {"solve -m h100-sxm -w flashinfer-prefill -p d=256 -p cta_tile_q=64 -p rope_llama=1 --explain",
       "  rope_freq          rf             32", 0},
      {"check -m h100-sxm -w flashinfer-prefill -p d=256 -p cta_tile_q=128 --fix num_mma_kv=1",
       "does not fit: rf needs 280 registers/thread of 255, 25 over", 1},
      {"check -m h100-sxm -w flashinfer-prefill -p d=256 -p cta_tile_q=128 --fix num_mma_kv=1 -p rf_model=0",
       "flashinfer-prefill on h100-sxm: fits", 0},
      {"check -m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "  rf                194        255         61",
       0},
      {"check -m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "  Q_tail             rf             16", 0},
      {"check -m h100-sxm -w flashmla-sm90-decode -p in_bits=8 --domain B_r=128 --fix k_buffers=2",
       "does not fit: rf needs 356 registers/thread of 255, 101 over", 1},
      {"check -m h100-sxm -w flashmla-sm90-decode -p in_bits=8 --domain B_r=128 --fix k_buffers=2 -p rf_model=0",
       "flashmla-sm90-decode on h100-sxm: fits", 0},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == cases[_i].rc, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].args, cases[_i].want, out);
}
END_TEST

/* FlashInfer's free answers, their O and S accumulators counted here from
 * num_mma_kv (NUM_MMA_Q x (8 x dv/16 + 8 x NUM_MMA_KV), fp32): within 255
 * per thread for every answer --top gives; with rf_model=0 the d=256,
 * cta_tile_q=128 answer needs more (the check can fail), with it none fits. */
START_TEST(test_flashinfer_top_within_budget) {
  static const struct {
    const char *args;
    long d, nmq;
    int rc, over;
  } cases[] = {
      {"-m h100-sxm -p d=64 -p cta_tile_q=128", 64, 2, 0, 0},
      {"-m h100-sxm -p d=128 -p cta_tile_q=128", 128, 2, 0, 0},
      {"-m h100-sxm -p d=128 -p cta_tile_q=128 -p rope_llama=1", 128, 2, 0, 0},
      {"-m h100-sxm -p d=256 -p cta_tile_q=64 -p rope_llama=1", 256, 1, 0, 0},
      {"-m a100 -p d=256 -p cta_tile_q=16", 256, 1, 0, 0},
      {"-m h100-sxm -p d=256 -p cta_tile_q=128 -p rf_model=0", 256, 2, 0, 1},
      {"-m h100-sxm -p d=256 -p cta_tile_q=128", 256, 2, 1, 0},
  };
  char args[512];
  snprintf(args, sizeof args, "solve -w flashinfer-prefill %s --top 4 --jsonl", cases[_i].args);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), cases[_i].rc);
  int n = 0, over = 0;
  for (const char *v = strstr(out, "\"values\":{\"num_mma_kv\":"); v;
       v = strstr(v + 1, "\"values\":{\"num_mma_kv\":")) {
    long kv = 0;
    ck_assert_int_eq(sscanf(v, "\"values\":{\"num_mma_kv\":%ld", &kv), 1);
    long acc = cases[_i].nmq * (8 * (cases[_i].d / 16) + 8 * kv);
    over |= acc > 255;
    ck_assert_msg(cases[_i].over || acc <= 255, "%s: %ld accumulator registers of 255", args, acc);
    n++;
  }
  ck_assert_int_eq(over, cases[_i].over);
  ck_assert_int_eq(n > 0, cases[_i].rc == 0);
}
END_TEST

/* The ten largest tiles of the CUTLASS worksets that count registers: each
 * answer's registers per thread are counted (more than 0) and within the
 * budget, and no tile the register file refuses (sm80 256x256, sm120
 * 256x256's 256 accumulators per cooperative thread, the SM90 conv,
 * blockwise, mixed-input and sparse tiles over their warpgroups' budget)
 * is among them. */
START_TEST(test_register_budget_top10) {
  static const char *const args[] = {
      "solve -m a100 -w cutlass-sm80-gemm --objective 'max tile_m*tile_n' --top 10 --jsonl",
      "solve -m rtx5090 -w cutlass-sm120-gemm --objective 'max tile_m*tile_n' --top 10 --jsonl",
      "solve -m h100-sxm -w cutlass-sm90-conv --objective 'max tile_m*tile_n' --top 10 --jsonl",
      "solve -m h100-sxm -w cutlass-sm90-gemm-blockwise -p scale_gran_n=64 --objective 'max tile_m*tile_n' --top 10 --jsonl",
      "solve -m h100-sxm -w cutlass-sm90-gemm-mixed --objective 'max tile_m*tile_n' --top 10 --jsonl",
      "solve -m h100-sxm -w cutlass-sm90-gemm-sparse --objective 'max tile_m*tile_n' --top 10 --jsonl",
  };
  int rc = tf_test_run(args[_i], out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s: exit %d: %s", args[_i], rc, err);
  ck_assert_msg(!strstr(out, "\"tile_m\":256,\"tile_n\":256,"), "%s", out);
  int lines = 0;
  for (const char *rf = strstr(out, "\"rf\":{\"used\":"); rf; rf = strstr(rf + 1, "\"rf\":{\"used\":")) {
    long used = 0, cap = 0;
    ck_assert_int_eq(sscanf(rf, "\"rf\":{\"used\":%ld,\"capacity\":%ld", &used, &cap), 2);
    ck_assert_msg(used > 0 && used <= cap, "%s: rf %ld of %ld", args[_i], used, cap);
    lines++;
  }
  ck_assert_int_eq(lines, 10);
}
END_TEST

/* Occupancy compares a CTA's per-SM footprint of registers and TMEM, so
 * their use must not depend on a count: the refusal names the memory. */
START_TEST(test_occupancy_count_dependent_use) {
  int rc = tf_test_run("solve -m a100 -w tests/data/worksets/occupancy-count-rf.json --domain occupancy=1,2", out,
                       sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_msg(strstr(err, "occupancy: occupancy checks rf per SM, so its use must not depend on a count variable"),
                "%s", err);
  ck_assert_str_eq(out, "");
}
END_TEST

/* A CTA's registers at launch (a workset's cta_registers let) limit
 * occupancy: FA3 forward's setmaxnreg split holds 39936, 64512 or 65536
 * registers for 1, 2 or 3 MMA warpgroups, so two CTAs never share an
 * H100 SM (nor does fa3-bwd's, 64512); rf_model=0 drops it and SMEM alone
 * decides. */
START_TEST(test_launch_registers_occupancy) {
  int rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --domain occupancy=2", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_msg(strstr(err, "occupancy 2 needs 79872 registers per SM, above 65536 (cta_registers 39936 per CTA)"),
                "%s", err);
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --domain occupancy=1,2 --objective 'max occupancy'", out,
                   sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 0);
  ck_assert_msg(strstr(out, "  occupancy    1\n"), "%s", out);
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 -p rf_model=0 --domain occupancy=2", out, sizeof out, err,
                   sizeof err);
  ck_assert_int_eq(rc, 0);
  ck_assert_msg(strstr(out, "  occupancy    2\n"), "%s", out);
  rc = tf_test_run("solve -m h100-sxm -w fa3-bwd -p d=128 --domain occupancy=2", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_msg(strstr(err, "occupancy 2 needs 129024 registers per SM, above 65536 (cta_registers 64512 per CTA)"),
                "%s", err);
}
END_TEST

/* Backward registers: FA2's dK/dV accumulators across the loop plus the
 * peak of S+dP and dQ (and V's fragment when in registers) against the 255
 * a thread may have; FA3's per consumer thread against the setmaxnreg
 * budget of its warpgroup count.  rf_model=0 drops them. */
#define FA3_D256 "-w fa3-bwd -p d=256 -p dO_stage=1 -p dS_stage=1 -p sdp_swapab=0 -p dkv_swapab=1 -p atom_n_dkv=1 "
START_TEST(test_bwd_register_footprints) {
  static const struct {
    const char *args, *want;
    int rc;
  } cases[] = {
      {"check -m a100 -w fa2-bwd -p d=128 -p v_in_regs=0 --fix B_r=64 --fix B_c=128",
       "  rf                200        255         55", 0},
      {"check -m a100 -w fa2-bwd -p d=192 -p v_in_regs=1 -p no_double_buffer=1 --fix B_r=64 --fix B_c=64",
       "  rf                244        255         11", 0},
      {"check -m h100-sxm -w fa2-bwd -p d=128 -p v_in_regs=0 --fix B_r=128 --fix B_c=128",
       "does not fit: rf needs 264 registers/thread of 255, 9 over", 1},
      {"check -m h100-sxm -w fa2-bwd -p d=128 -p v_in_regs=0 --fix B_r=128 --fix B_c=128 -p rf_model=0",
       "fa2-bwd on h100-sxm: fits", 0},
      {"check -m a100 -w fa2-bwd -p d=64 -p v_in_regs=1 --fix B_r=128 --fix B_c=128", "rf needs 264 registers/thread",
       1},
      {"check -m h100-sxm -w fa3-bwd -p d=128 -p v_in_regs=0 --fix B_r=80 --fix B_c=128",
       "  dKV_acc            rf            128", 0},
      {"check -m h100-sxm " FA3_D256 "-p v_in_regs=0 --fix B_r=64 --fix B_c=80",
       "  rf                239        255         16", 0},
      {"check -m h100-sxm " FA3_D256 "-p v_in_regs=0 --fix B_r=64 --fix B_c=96", "rf needs 271 registers/thread of 255",
       1},
      {"check -m h100-sxm " FA3_D256 "-p v_in_regs=0 --fix B_r=64 --fix B_c=96 -p rf_model=0",
       "fa3-bwd on h100-sxm: fits", 0},
      {"solve -m h100-sxm " FA3_D256 "-p v_in_regs=0", "  B_c          80\n", 0},
      {"solve -m a100 -w fa2-bwd -p d=64 --objective 'max occupancy' --objective 'max B_r*B_c' --explain",
       "occupancy 4 needs 73728 registers per SM, above 65536", 0},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == cases[_i].rc, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].args, cases[_i].want, out);
}
END_TEST

/* The accumulators of one answer, counted here from its tile (not read
 * from the workset): dK/dV + max(S + dP, dQ) fp32 per thread. */
static long bwd_accumulators(const char *line, long d, long threads) {
  const char *v = strstr(line, "\"values\":{\"B_r\":");
  long br = 0, bc = 0;
  ck_assert_ptr_nonnull(v);
  ck_assert_int_eq(sscanf(v, "\"values\":{\"B_r\":%ld,\"B_c\":%ld", &br, &bc), 2);
  long sdp = 2 * br * bc / threads, dq = br * d / threads;
  return 2 * bc * d / threads + (sdp > dq ? sdp : dq);
}

/* No free answer in solve --top 5 at the shipped head dims needs more
 * accumulator registers per thread than its warpgroup gets (with the
 * register model dropped, fa3-bwd d=64's first answer, 96x240, needs 300). */
START_TEST(test_bwd_top5_within_budget) {
  static const struct {
    const char *args;
    long d, threads, budget;
  } cases[] = {
      {"-m a100 -w fa2-bwd -p d=64", 64, 256, 255},
      {"-m a100 -w fa2-bwd -p d=128", 128, 256, 255},
      {"-m h100-sxm -w fa2-bwd -p d=128", 128, 256, 255},
      {"-m h100-sxm -w fa2-bwd -p d=256", 256, 256, 255},
      {"-m a10 -w fa2-bwd -p d=96", 96, 256, 255},
      {"-m h100-sxm -w fa3-bwd -p d=64", 64, 256, 240},
      {"-m h100-sxm -w fa3-bwd -p d=128 -p v_in_regs=0", 128, 256, 240},
      {"-m h100-sxm -w fa3-bwd -p d=192 -p dO_stage=1 -p dS_stage=1 -p sdp_swapab=0 -p dkv_swapab=1 -p num_wg=3 "
       "-p atom_n_dkv=1 -p v_in_regs=0",
       192, 384, 160},
      {"-m h100-sxm " FA3_D256, 256, 256, 240},
  };
  char args[512];
  snprintf(args, sizeof args, "solve %s --top 5 --jsonl", cases[_i].args);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  int n = 0;
  for (char *line = out; *line; n++) {
    char *nl = strchr(line, '\n');
    ck_assert_ptr_nonnull(nl);
    *nl = 0;
    long acc = bwd_accumulators(line, cases[_i].d, cases[_i].threads);
    ck_assert_msg(acc <= cases[_i].budget, "%s: %ld accumulator registers of %ld: %s", args, acc, cases[_i].budget,
                  line);
    line = nl + 1;
  }
  ck_assert_int_ge(n, 2); /* at most five; fewer where fewer tiles fit */
}
END_TEST

START_TEST(test_top_five) {
  const char *base = "solve -m h100-sxm -w cutlass-sm90-gemm -p epilogue_bytes=33792 --domain tile_k=64 "
                     "--objective 'max tile_m*tile_n' --objective 'max stages' --jsonl";
  char args[512], first[4096];
  int rc = tf_test_run(base, out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 0);
  const char *v = strstr(out, "\"values\":");
  ck_assert_ptr_nonnull(v);
  snprintf(first, sizeof first, "%.60s", v);
  snprintf(args, sizeof args, "%s --top 5", base);
  rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 0);
  /* five lines, ranked, the first the same as solve's, objectives non-increasing, all distinct */
  char *line = out, seen[5][128];
  long prev0 = -1, prev1 = -1;
  for (int r = 0; r < 5; r++) {
    char *nl = strchr(line, '\n');
    ck_assert_ptr_nonnull(nl);
    *nl = 0;
    char rank[32];
    snprintf(rank, sizeof rank, "\"rank\":%d,", r + 1);
    ck_assert_msg(strstr(line, rank), "%s", line);
    const char *vals = strstr(line, "\"values\":");
    if (r == 0)
      ck_assert_msg(!strncmp(vals, first, strlen(first)), "%s vs %s", vals, first);
    snprintf(seen[r], sizeof seen[r], "%.100s", vals);
    for (int q = 0; q < r; q++)
      ck_assert_str_ne(seen[q], seen[r]);
    long o0, o1;
    const char *obj = strstr(line, "\"objectives\":");
    ck_assert_int_eq(sscanf(obj,
                            "\"objectives\":[{\"objective\":\"max tile_m*tile_n\",\"value\":%ld},"
                            "{\"objective\":\"max stages\",\"value\":%ld}",
                            &o0, &o1),
                     2);
    ck_assert(prev0 < 0 || o0 < prev0 || (o0 == prev0 && o1 <= prev1));
    prev0 = o0, prev1 = o1;
    line = nl + 1;
  }
  ck_assert_str_eq(line, "");
}
END_TEST

/* The exported model reads back into glpsol with the same optimum, level
 * by level: m.lp holds level 1 (the tile area), m.level2.lp max stages
 * with level 1 pinned (solver/export.h). */
/* glpsol reads DIR/FILE (an .lp, or a free .mps maximized) and its first
 * line on the objective, or an error, contains `want`. */
static void glpsol_says(const char *dir, const char *file, const char *want) {
  char cmd[1024], line[512] = "";
  int mps = strstr(file, ".mps") != NULL;
  snprintf(cmd, sizeof cmd, "glpsol %s %s/%s%s -o /dev/stdout 2>&1 | grep '^Objective:.*imum\\|rror'",
           mps ? "--freemps" : "--lp", dir, file, mps ? " --max" : "");
  FILE *g = popen(cmd, "r");
  ck_assert_ptr_nonnull(g);
  ck_assert_ptr_nonnull(fgets(line, sizeof line, g));
  pclose(g);
  ck_assert_msg(strstr(line, want), "%s: %s", cmd, line);
}

START_TEST(test_lp_mps_round_trip) {
  char dir[256], cmd[1024], file[300];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-e2e");
  snprintf(cmd, sizeof cmd,
           "solve -m b200 -w fa4-fwd -p d=64 --domain B_c=64,128 --place P=tmem --place Q=smem "
           "--lp %s/m.lp --mps %s/m.mps --csv",
           dir, dir);
  int rc = tf_test_run(cmd, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s", err);
  ck_assert_msg(strstr(out, ",10,"), "%s", out); /* 10 stages at d = 64 */
  glpsol_says(dir, "m.lp", "= 32768 (MAXimum)");
  glpsol_says(dir, "m.level2.lp", "= 10 (MAXimum)");
  glpsol_says(dir, "m.level2.mps", "= 10 (MAXimum)");
  /* readable names, the earlier level pinned */
  snprintf(file, sizeof file, "%s/m.level2.lp", dir);
  static char text[1 << 21];
  FILE *g = fopen(file, "r");
  size_t n = fread(text, 1, sizeof text - 1, g);
  text[n] = 0;
  fclose(g);
  ck_assert_ptr_nonnull(strstr(text, "pick(B_r_128,B_c_128,q_stage_2,Q_smem,S_tmem,O_acc_tmem,P_tmem)"));
  ck_assert_ptr_nonnull(strstr(text, "capacity(smem)"));
  ck_assert_ptr_nonnull(strstr(text, "units(header)"));
  ck_assert_ptr_nonnull(strstr(text, "\n level1:"));
  static const char *const files[] = {"m.lp", "m.level2.lp", "m.mps", "m.level2.mps"};
  for (int i = 0; i < 4; i++) {
    snprintf(file, sizeof file, "%s/%s", dir, files[i]);
    ck_assert_int_eq(remove(file), 0);
  }
  ck_assert_int_eq(rmdir(dir), 0); /* nothing else written: the pinned placements leave two levels */
}
END_TEST

/* Four 64-byte choose names make combination names past GLPK's 255
 * bytes: every column and row name stays unique when cut (the cut had
 * made them repeat, and glpsol refused both files), and glpsol reads the
 * model back with the same optimum. */
START_TEST(test_lp_mps_long_names) {
  char dir[256], cmd[2048], file[300], json[1024], name[4][65];
  tf_test_temp_dir(dir, sizeof dir, "tilefit-e2e");
  for (int i = 0; i < 4; i++)
    snprintf(name[i], sizeof name[i], "%.63s%d", "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", i);
  snprintf(json, sizeof json,
           "{\"name\": \"long\", \"choose\": {\"%s\": [1, 2], \"%s\": [1, 2], \"%s\": [1, 2], \"%s\": [1, 2]},"
           " \"count\": {\"s\": {\"min\": 1, \"max\": 4}}, \"buffers\": [{\"name\": \"b\", \"memory\": \"smem\","
           " \"size\": \"s * 100 * %s + %s + %s + %s\", \"align\": 64}], \"objective\": [\"max s\", \"max %s\"]}\n",
           name[0], name[1], name[2], name[3], name[0], name[1], name[2], name[3], name[1]);
  snprintf(file, sizeof file, "%s/w.json", dir);
  tf_test_write_text(file, json);
  snprintf(cmd, sizeof cmd, "solve -m h100-sxm -w %s/w.json --any-arch --lp %s/m.lp --mps %s/m.mps --csv", dir, dir,
           dir);
  int rc = tf_test_run(cmd, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s", err);
  glpsol_says(dir, "m.lp", "= 4 (MAXimum)");
  glpsol_says(dir, "m.mps", "= 4 (MAXimum)");
  glpsol_says(dir, "m.level2.lp", "= 2 (MAXimum)");
  glpsol_says(dir, "m.level2.mps", "= 2 (MAXimum)");
  tf_test_remove_dir(dir);
}
END_TEST

START_TEST(test_explain_next_better) {
  int rc =
      tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=256 --fix B_r=128 --explain", out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 0);
  ck_assert_msg(strstr(out, "next better is B_c = 96 (12288): smem needs 262144 B of 232448, 29696 over"), "%s", out);
}
END_TEST

/* Every shipped validation file agrees, case by case: nothing fails and
 * every line is counted (passed or, for tuned cases, skipped). */
static const char *const validation_files[] = {
    "cutlass",    "cutlass-variants", "flashattention", "attention-bwd", "cutedsl",
    "flashinfer", "triton",           "flashmla",       "placement",
};

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int n = 0, c, last = '\n';
  while ((c = getc(f)) != EOF)
    n += (last = c) == '\n';
  fclose(f);
  return n + (last != '\n');
}

START_TEST(test_validate_shipped_cases) {
  static char big[1 << 20];
  char path[256], args[300];
  snprintf(path, sizeof path, "tests/data/validate/%s.jsonl", validation_files[_i]);
  snprintf(args, sizeof args, "validate %s", path);
  int rc = tf_test_run(args, big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "%s: exit %d\n%s", path, rc, err);
  ck_assert_ptr_null(strstr(big, "\ndiffer "));
  const char *summary = strstr(big, " passed, ");
  while (summary && summary > big && summary[-1] != '\n')
    summary--;
  int passed = -1, failed = -1, skipped = -1;
  ck_assert_msg(summary && sscanf(summary, "%d passed, %d failed, %d skipped", &passed, &failed, &skipped) == 3,
                "%s: no closing line", path);
  ck_assert_int_eq(failed, 0);
  ck_assert_int_eq(passed + skipped, count_lines(path));
}
END_TEST

/* A tuned case says upstream picked at or below the limit; a pick the
 * model rejects (or a problem where nothing fits) is a failure, not a
 * skip. */
START_TEST(test_validate_tuned_nofit) {
  int rc = tf_test_run("validate tests/data/validate-fail/tuned-nofit.jsonl", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(out, "differ  tuned-pick-does-not-fit"), "%s", out);
  ck_assert_msg(strstr(out, "the kernel's pick does not fit: smem needs 131072 B of 101376"), "%s", out);
  ck_assert_msg(strstr(out, "differ  tuned-nothing-fits"), "%s", out);
  ck_assert_msg(strstr(out, "tuned   tuned-pick-fits"), "%s", out);
  ck_assert_msg(strstr(out, "0 passed, 2 failed, 1 skipped"), "%s", out);
}
END_TEST

/* A case whose expectation names no variable or let of its workset is bad
 * input: exit 2, and the error names the cases file, its line and the
 * JSON path (not the workset's file). */
START_TEST(test_validate_bad_expect) {
  int rc = tf_test_run("validate tests/data/validate-fail/bad-expect.jsonl", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(err,
                       "tests/data/validate-fail/bad-expect.jsonl: line 1: $.expect.no_such_let: workset 'fa2-fwd' "
                       "has no variable 'no_such_let'"),
                "%s", err);
  ck_assert_str_eq(out, "");
}
END_TEST

/* An explanation describes only points the model allows: check shows a
 * legal placement when none fits (fa3-bwd d=256 keeps dQaccum out of smem:
 * 235008 B, not the 300288 of the forbidden layout), and an infeasible
 * solve's smallest overflow is one whose requires hold (dv=512 needs P in
 * smem). */
START_TEST(test_explain_legal_points) {
  static const struct {
    const char *args, *want;
  } cases[] = {
      {"check -m h100-sxm -w fa3-bwd -p d=256 -p dO_stage=2 -p dS_stage=1 -p sdp_swapab=0 -p dkv_swapab=1 -p num_wg=2 "
       "-p atom_n_dkv=1 -p v_in_regs=0 --fix B_r=64 --fix B_c=80",
       "does not fit: smem needs 235008 B of 232448, 2560 over"},
      {"solve -m h100-sxm -w fa3-fwd -p d=64 -p dv=512 --fix B_r=64 --fix B_c=256 --fix stages=2",
       "P=smem needs 631296 B of smem at the smallest counts, 398848 over 232448"},
      /* never a negative size: the builder's negative Transform2Mma count is a violated require */
      {"solve -m b200 -w cutlass-sm100-gemm-mixed -p epilogue_bytes=240000", "violates 't2m_stages >= 2'"},
      {"solve -m a10 -w cutlass-sm100-gemm-mixed --any-arch", "a10 has no tensor memory"},
      /* SM80: one warp-level GEMM per k-tile (tile_k 16 at 16 bits) does not build */
      {"solve -m a100 -w cutlass-sm80-gemm --fix tile_k=16", "violates 'warp_k_iterations >= 2'"},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want) || strstr(err, cases[_i].want), "%s: want '%s' in\n%s%s", cases[_i].args,
                cases[_i].want, out, err);
}
END_TEST

/* --top ranks distinct configurations with their estimate; --top-points
 * every point.  The square GEMM and the skinny one rank differently. */
#define SM90_TIME "solve -m h100-sxm -w cutlass-sm90-gemm -p N=8192 -p K=8192 --objective 'min time_us' "

static int top_rows(const char *text, long tiles[][3], int max) {
  int n = 0;
  for (const char *l = strchr(text, '\n'); l && n < max; l = strchr(l + 1, '\n')) {
    int rank;
    if (sscanf(l + 1, "%d %ld %ld %ld", &rank, &tiles[n][0], &tiles[n][1], &tiles[n][2]) == 4 && rank == n + 1) {
      ck_assert_msg(strstr(l, "%") && (strstr(l, " mma ") || strstr(l, " hbm ") || strstr(l, " smem ")), "%s", l);
      n++;
    }
  }
  return n;
}

START_TEST(test_top_configurations) {
  long big[8][3], skinny[8][3], points[8][3];
  int rc = tf_test_run(SM90_TIME "-p M=8192 --top 5", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(out, "time_us  bound   waves    peak"));
  ck_assert_int_eq(top_rows(out, big, 8), 5);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < i; j++)
      ck_assert_msg(memcmp(big[i], big[j], sizeof big[i]), "ranks %d and %d are one tile:\n%s", j + 1, i + 1, out);
  rc = tf_test_run(SM90_TIME "-p M=8192 --top 3 --top-points", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq(top_rows(out, points, 8), 3);
  ck_assert_msg(!memcmp(points[0], points[1], sizeof points[0]), "%s", out); /* stages or placement only */
  rc = tf_test_run(SM90_TIME "-p M=128 --top 5", out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_int_eq(top_rows(out, skinny, 8), 5);
  ck_assert_msg(memcmp(big[0], skinny[0], sizeof big[0]), "%s", out);
  ck_assert_ptr_nonnull(strstr(out, " hbm "));
}
END_TEST

/* A placement that decides nothing folds into the best point's
 * configuration also at a worse count (docs/cost-model.md, "Ranked
 * configurations"): one rank, whatever K, in text and JSON lines; one that
 * changes an objective stays a rank of its own; --top-points lists all. */
#define IDLE "solve -m a100 -w tests/data/worksets/top-idle-place.json "

static int count_in(const char *text, const char *with) {
  int n = 0;
  for (const char *l = text; (l = strstr(l, with)); l++)
    n++;
  return n;
}

START_TEST(test_top_idle_placement) {
  ck_assert_int_eq(tf_test_run(IDLE "--top 3", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "the 1 best assignment\n") && strstr(out, "   1         16       smem          3") &&
                    !strstr(out, "\n   2 "),
                "%s", out);
  ck_assert_int_eq(tf_test_run(IDLE "--top 5 --jsonl --objective 'max a_stages' --objective 'max tile'", out,
                               sizeof out, err, sizeof err),
                   0);
  ck_assert_msg(count_in(out, "\"rank\":") == 1 && strstr(out, "\"values\":{\"tile\":16,\"a_stages\":3}") &&
                    strstr(out, "\"placement\":{\"b1\":\"smem\"}"),
                "%s", out);
  ck_assert_int_eq(
      tf_test_run(IDLE "--top 5 --objective 'max a_stages + 10 * placed(b1, smem)'", out, sizeof out, err, sizeof err),
      0);
  ck_assert_msg(strstr(out, "   1         16       smem          3") &&
                    strstr(out, "   2         16         rf          3") && !strstr(out, "\n   3 "),
                "%s", out);
  ck_assert_int_eq(tf_test_run(IDLE "--top 8 --top-points --jsonl", out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(count_in(out, "\"rank\":"), 6);
}
END_TEST

/* Grouped-query heads: K and V are read once per KV head (docs/cost-model.md).
 * kv_heads = heads is the default; fewer KV heads cut the HBM bytes and, where
 * HBM binds (decode, PackGQA), the time. */
static long objective_value(const char *text, const char *name) {
  const char *at = strstr(text, name);
  long v = -1;
  ck_assert_msg(at && sscanf(at + strlen(name), " = %ld", &v) == 1, "no '%s' in\n%s", name, text);
  return v;
}

START_TEST(test_gqa_kv_heads) {
  static const struct {
    const char *args;
    int heads, kv_heads;
    long hbm_mha, hbm_gqa, time_mha, time_gqa;
  } cases[] = {
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128", 32, 8, 268435456, 201326592, 1661, 1661},
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p seqlen_q=1 -p seqlen_k=65536 -p batch=8", 32, 8,
       8590065664, 2147614720, 2565, 810},
      {"-m a100 -w fa2-fwd --fix B_r=128 --fix B_c=64 -p seqlen_q=1 -p seqlen_k=16384 -p batch=16", 32, 8, 4295229440,
       1074003968, 2808, 1123}, /* GQA: compute-bound at the A100's sustained 1332 MHz */
      {"-m b200 -w fa4-fwd --fix B_c=128 --fix q_stage=2", 32, 8, 268435456, 167772160, 522, 522},
      {"-m b200 -w fa4-fwd --fix B_c=128 --fix q_stage=1 -p seqlen_q=1 -p seqlen_k=16384 -p batch=16", 32, 8,
       4295229440, 1074003968, 544, 142},
  };
  long hbm[2], time[2];
  for (int g = 0; g < 2; g++) {
    char args[512];
    snprintf(args, sizeof args,
             "solve %s -p heads=%d -p kv_heads=%d --objective 'min hbm_bytes' --objective "
             "'min time_us'",
             cases[_i].args, cases[_i].heads, g ? cases[_i].kv_heads : cases[_i].heads);
    int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", args, rc, err);
    hbm[g] = objective_value(out, "min hbm_bytes");
    time[g] = objective_value(out, "min time_us");
  }
  ck_assert_msg(hbm[1] < hbm[0] && time[1] <= time[0], "%s: hbm %ld -> %ld, time %ld -> %ld", cases[_i].args, hbm[0],
                hbm[1], time[0], time[1]);
  ck_assert_int_eq(hbm[0], cases[_i].hbm_mha);
  ck_assert_int_eq(hbm[1], cases[_i].hbm_gqa);
  ck_assert_int_eq(time[0], cases[_i].time_mha);
  ck_assert_int_eq(time[1], cases[_i].time_gqa);
}
END_TEST

/* Causal K/V blocks per CTA, bottom-right aligned (the workset comments):
 * the average Q tile's reach, worked by hand here.  Equal lengths 8192 with
 * 128-row tiles reach 128..8192, mean 4160: 33 blocks of 128, 65 of 64;
 * decode (seqlen_q = 1) reaches all 8192 columns whether causal or not;
 * seqlen_q = 1024 reaches 7296..8192, mean 7744: 61; FA4's two-tile CTAs
 * span 256 rows: 2 x 33; seqlen_q 2048 over seqlen_k 1024 in 256-row CTAs:
 * 4 of 8 see no key, the rest reach 256..1024, mean 320 over all 8: 2 x 3.
 * The pairs the mask keeps: n(n + 1) / 2 for equal lengths, 1024 x 7168 +
 * 1024 x 1025 / 2 below, 1024 x 1025 / 2 above. */
START_TEST(test_causal_blocks) {
  static const struct {
    const char *args;
    long iterations, attended;
  } cases[] = {
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p causal=1", 33, 33558528},
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p causal=1 -p seqlen_q=1", 64, 8192},
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p causal=0 -p seqlen_q=1", 64, 8192},
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p causal=1 -p seqlen_q=1 -p heads=32 -p kv_heads=8", 64,
       8192},
      {"-m h100-sxm -w fa3-fwd --fix B_r=128 --fix B_c=128 -p causal=1 -p seqlen_q=1024", 61, 7864832},
      {"-m a100 -w fa2-fwd --fix B_r=128 --fix B_c=64 -p causal=1", 65, 33558528},
      {"-m b200 -w fa4-fwd --fix B_c=128 --fix q_stage=2 -p causal=1", 66, 33558528},
      {"-m b200 -w fa4-fwd --fix B_c=128 --fix q_stage=2 -p causal=1 -p seqlen_q=2048 -p seqlen_k=1024", 6, 524800},
  };
  char args[512];
  snprintf(args, sizeof args, "solve %s --objective 'min cta_iterations' --objective 'min attended'", cases[_i].args);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "%s: exit %d: %s", args, rc, err);
  ck_assert_int_eq(objective_value(out, "min cta_iterations"), cases[_i].iterations);
  ck_assert_int_eq(objective_value(out, "min attended"), cases[_i].attended);
}
END_TEST

/* kv_heads must divide heads; FA2's packing is its seqlen_q == 1 reshape. */
START_TEST(test_gqa_errors) {
  static const struct {
    const char *args, *want;
  } cases[] = {
      {"solve -m h100-sxm -w fa3-fwd -p heads=32 -p kv_heads=5",
       "'heads % max(kv_heads, 1) == 0' fails at every point"},
      {"solve -m b200 -w fa4-fwd -p kv_heads=0", "'kv_heads >= 1' fails at every point"},
      {"solve -m a100 -w fa2-fwd -p heads=32 -p kv_heads=8 -p pack_gqa=1",
       "'packed == 0 || seqlen_q == 1' fails at every point"},
      {"solve -m h100-sxm -w fa3-fwd -p pack_gqa=2", "'pack_gqa >= -1 && pack_gqa <= 1' fails at every point"},
  };
  int rc = tf_test_run(cases[_i].args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "%s: exit %d: %s", cases[_i].args, rc, err);
  ck_assert_msg(strstr(err, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].args, cases[_i].want, err);
}
END_TEST

/* The levels after the asked objectives (docs/cost-model.md, ties): an
 * objective on time_us is refined by time_ns, then the workset's
 * tie-breaks, less one that repeats an asked objective. */
START_TEST(test_tie_break_levels) {
  static char big[1 << 15];
  int rc = tf_test_run("solve -m h100-sxm -w cutlass-sm90-gemm -p M=8192 -p N=8192 -p K=8192 --objective 'min time_us'",
                       big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  const char *us = strstr(big, "objective    min time_us = 1178\n"),
             *ns = strstr(big, "tie-break    min time_ns = 1177940\n"),
             *st = strstr(big, "tie-break    max stages = 11\n");
  ck_assert_msg(us && ns && st && us < ns && ns < st, "%s", big);
  /* the default objectives end in max stages: the same tie-break adds nothing and is not printed */
  rc = tf_test_run("solve -m h100-sxm -w cutlass-sm90-gemm", big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "objective    max stages") && !strstr(big, "tie-break"), "%s", big);
  /* --json marks the levels after the asked ones */
  rc = tf_test_run("solve -m h100-sxm -w cutlass-sm90-gemm --objective 'max time_us' --json", big, sizeof big, err,
                   sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "{\"objective\":\"max time_ns\",\"value\":"), "%s", big);
}
END_TEST

/* --top --explain: each rank after the first says what separates it from
 * the one before, in the parts of the time, and whether the gap is inside
 * the model's measured error on that kernel (the workset's measured_error). */
START_TEST(test_top_gap) {
  static char big[1 << 16];
  int rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --objective 'min time_us' --top 3 --explain", big,
                       sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "rank 2       +6369 ns (+0.09%) after rank 1: serial share -11624 ns, CTA I/O +9180 ns"),
                "%s", big);
  ck_assert_msg(strstr(big, "; inside the model's error on fa3-fwd on h100-sxm ("), "%s", big);
  rc = tf_test_run(
      "solve -m h100-sxm -w cutlass-sm90-gemm -p M=8192 -p N=8192 -p K=8192 --objective 'min time_us' --top 2 "
      "--explain",
      big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(
      strstr(big, "rank 2       takes rank 1's time; a later objective level decides, the same in every part"), "%s",
      big);
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --objective 'min time_us' --top 2 --explain --json", big,
                   sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(
      strstr(big, "\"gap\":{\"after_rank\":1,\"tie\":false,\"gap_ns\":6369,\"parts\":[{\"name\":\"serial share\""),
      "%s", big);
  /* without --explain, no gap */
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --objective 'min time_us' --top 2", big, sizeof big, err,
                   sizeof err);
  ck_assert_msg(rc == 0 && !strstr(big, "after rank"), "%s", big);
}
END_TEST

/* Split-K on the sm90 and sm100 GEMMs (docs/cost-model.md): the domain is [1] unless
 * widened.  The fastest with the fewest splits: a skinny large-K GEMM takes
 * splits, a big square one gains nothing, and a fixed tile that fills the
 * machine pays the partial sums' HBM traffic. */
#define SPLITK "solve --objective 'min time_us' --objective 'min splits' --objective 'min hbm_bytes' "
#define SM90_SPLITK SPLITK "-m h100-sxm -w cutlass-sm90-gemm "

START_TEST(test_split_k) {
  static const struct {
    const char *args, *domain;
    long splits, time_one, time_split, hbm_one, hbm_split;
  } cases[] = {
      {"-m h100-sxm -w cutlass-sm90-gemm -p M=256 -p N=256 -p K=65536", "1,2,4,8,16,32", 8, 55, 22, 67239936, 70909952},
      {"-m h100-sxm -w cutlass-sm90-gemm -p M=8192 -p N=8192 -p K=8192", "1,2,4,8,16,32", 1, 1178, 1178, 3128950784,
       3128950784},
      {"-m h100-sxm -w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64", "4", 4, 158, 223,
       343932928, 746586112},
      {"-m b200 -w cutlass-sm100-gemm -p M=256 -p N=256 -p K=65536", "1,2,4,8,16,32", 8, 61, 17, 67239936, 70909952},
  };
  long time[2], hbm[2], splits = -1;
  for (int g = 0; g < 2; g++) {
    char args[512];
    snprintf(args, sizeof args, SPLITK "%s%s%s", cases[_i].args, g ? " --domain splits=" : "",
             g ? cases[_i].domain : "");
    int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", args, rc, err);
    time[g] = objective_value(out, "min time_us");
    hbm[g] = objective_value(out, "min hbm_bytes");
    const char *at = strstr(out, "\n  splits ");
    ck_assert_msg(at && sscanf(at, " splits %ld", &splits) == 1, "%s", out);
    ck_assert_msg(g || splits == 1, "%s", out); /* without --domain: [1] */
  }
  ck_assert_int_eq(splits, cases[_i].splits);
  ck_assert_int_eq(time[0], cases[_i].time_one);
  ck_assert_int_eq(time[1], cases[_i].time_split);
  ck_assert_int_eq(hbm[0], cases[_i].hbm_one);
  ck_assert_int_eq(hbm[1], cases[_i].hbm_split);
  if (splits > 1 && strstr(cases[_i].domain, ","))
    ck_assert_msg(time[1] < time[0], "splits %ld chosen but not faster", splits);
  else if (splits > 1) /* a fixed split of a tile that filled the machine: more HBM bytes, no faster */
    ck_assert_msg(hbm[1] > hbm[0] && time[1] >= time[0], "hbm %ld -> %ld", hbm[0], hbm[1]);
}
END_TEST

START_TEST(test_split_k_errors) {
  static const char *const cases[][2] = {
      {SM90_SPLITK "--fix tile_m=64 --domain splits=2", "violates 'splits == 1 || pingpong == 0'"},
      {SM90_SPLITK "--domain splits=0", "violates 'splits >= 1'"},
      {SM90_SPLITK "-p K=64 --fix tile_k=64 --domain splits=2", "violates 'splits <= k_tiles'"},
      {SPLITK "-m b200 -w cutlass-sm100-gemm --fix tile_n=192 --domain splits=2",
       "violates 'splits == 1 || tile_n != 192'"},
  };
  int rc = tf_test_run(cases[_i][0], out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 1, "%s: exit %d: %s", cases[_i][0], rc, err);
  ck_assert_msg(strstr(err, cases[_i][1]), "%s: want '%s' in\n%s", cases[_i][0], cases[_i][1], err);
}
END_TEST

/* Placement end to end: the decision in JSON, text and CSV, pins, the
 * register limit of the sm90 GEMM, and the architecture check. */
START_TEST(test_placement) {
  static char big[1 << 16];
  int rc = tf_test_run(
      "solve -m h100-sxm -w fa3-fwd -p d=128 --fix B_r=128 --fix B_c=176 --fix stages=2 --place Q=smem --json", big,
      sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(big, "\"placement\":{\"Q\":\"smem\",\"P\":\"rf\"}"));
  /* --explain: what the chosen memory pays, and why the other loses (docs/placement.md, case PL-V01) */
  rc = tf_test_run(
      "solve -m h100-sxm -w fa3-fwd -p d=128 --fix B_r=128 --fix B_c=176 --fix stages=2 --place Q=smem --explain", big,
      sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "placement   P in rf\n  rf       P in rf: 44 registers/thread (235 of 255)\n"
                            "  smem     P in smem: smem needs 258048 B of 232448, 25600 over\n"
                            "  cycles   mma 2816, exp 1408, smem 1664 (P in smem: 2368), alu 744, cycles 3936 "
                            "either way\n") != NULL,
                "%s", big);
  rc = tf_test_run(
      "solve -m b200 -w fa4-fwd -p d=64 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective \"max stages\" "
      "--explain",
      big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "  tmem     P in tmem: +0 columns, inside S (384 of 512)\n"
                            "  level 1  max stages = 10; P in smem: 6") != NULL,
                "%s", big);
  /* FA4 d = 128 on a B200: the paper's 1024 / 768 for the MMA and SMEM, its 1024 exponentials less the share
   * FA4 computes on the FMA units, and P in smem would make SMEM bind */
  rc =
      tf_test_run("solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective "
                  "\"max stages\" --explain",
                  big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_msg(strstr(big, "  cycles   mma 1024, exp 943, smem 768 (P in smem: 1280), max 1024 "
                            "(P in smem: 1280)\n") != NULL,
                "%s", big);
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --fix B_r=128 --fix B_c=176 --fix stages=2 --place P=smem",
                   big, sizeof big, err, sizeof err);
  ck_assert_int_eq(rc, 1); /* P in smem needs 258048 B */
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 -p pv_rs=0 --fix B_r=128 --fix B_c=128 --fix stages=2 --csv",
                   big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(big, "stages,place_Q,place_P,"));
  ck_assert_ptr_nonnull(strstr(big, ",2,smem,smem,"));
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd --place P=tmem", big, sizeof big, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_ptr_nonnull(strstr(err, "--place P=tmem: P may be in smem, rf only"));
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd --place X=smem", big, sizeof big, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_ptr_nonnull(strstr(err, "no buffer 'X'"));
  rc = tf_test_run(
      "solve -m h100-sxm -w cutlass-sm90-gemm --objective \"max tile_m*tile_n\" --objective \"max stages\" --explain",
      big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(big, "tile_n       192"));
  ck_assert_ptr_nonnull(strstr(big, "next better is tile_n = 256, stages = 2 (65536): rf needs"));
  /* the sm90 SMEM term reads K and V once per 64-row warpgroup; docs/placement.md */
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=64 --fix B_r=192 --fix B_c=128 --fix stages=2 --place Q=smem "
                   "--objective \"min cycles\" --objective \"min used(smem)\" --explain",
                   big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_ptr_nonnull(strstr(big, "placement    Q smem, P rf"));
  ck_assert_ptr_nonnull(strstr(big, "level 1  min cycles = 2735; P in smem: 2927"));
  rc = tf_test_run("solve -m h100-sxm -w fa3-fwd -p d=128 --fix B_r=128 --fix B_c=176 --fix stages=2 --place Q=smem "
                   "--objective \"max cycles(smem)\"",
                   big, sizeof big, err, sizeof err);
  ck_assert_ptr_nonnull(strstr(big, "max cycles(smem) = 1664"));
  rc = tf_test_run("solve -m b200 -w fa4-fwd -p d=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --place P=tmem "
                   "--place Q=smem --objective \"max cycles(smem)\" --objective \"max cycles(exp)\"",
                   big, sizeof big, err, sizeof err);
  ck_assert_ptr_nonnull(strstr(big, "max cycles(smem) = 768"));
  ck_assert_ptr_nonnull(strstr(big, "max cycles(exp) = 943"));
  rc = tf_test_run(
      "solve -m b200 -w fa4-fwd -p d=64 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective \"max stages\" "
      "--explain",
      big, sizeof big, err, sizeof err);
  ck_assert_ptr_nonnull(strstr(big, "level 1  max stages = 10; P in smem: 6"));
  rc = tf_test_run("solve -m h100-sxm -w fa4-fwd", big, sizeof big, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_ptr_nonnull(strstr(err, "fa4-fwd models sm_10x; h100-sxm is sm_90"));
  rc = tf_test_run("solve -m h100-sxm -w fa4-fwd --any-arch", big, sizeof big, err, sizeof err);
  ck_assert_int_eq(rc, 1);
  ck_assert_ptr_nonnull(strstr(err, "h100-sxm has no tensor memory; fa4-fwd keeps S and O_acc in it"));
}
END_TEST

Suite *e2e_suite(void) {
  Suite *s = suite_create("e2e");
  TCase *tc = tcase_create("Binary");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_fa4_d128);
  tcase_add_test(tc, test_fa4_d64);
  tcase_add_loop_test(tc, test_fa4_bwd_upstream_bytes, 0, 2);
  tcase_add_test(tc, test_triton_mi300x);
  tcase_add_loop_test(tc, test_sm90_stages, 0, 4);
  tcase_add_loop_test(tc, test_gemm_narrow_operands, 0, 3);
  tcase_add_loop_test(tc, test_messages, 0, (int)(sizeof message_cases / sizeof *message_cases));
  tcase_add_test(tc, test_check_one_over);
  tcase_add_test(tc, test_issue_2591);
  tcase_add_test(tc, test_errors_on_stderr_only);
  tcase_add_test(tc, test_infeasible_exit);
  tcase_add_loop_test(tc, test_fa2_occupancy_rule, 0, 5);
  tcase_add_loop_test(tc, test_fa2_kernel_traits, 0, 6);
  tcase_add_loop_test(tc, test_register_footprints, 0, 49);
  tcase_add_loop_test(tc, test_attn_register_footprints, 0, 9);
  tcase_add_loop_test(tc, test_flashinfer_top_within_budget, 0, 7);
  tcase_add_loop_test(tc, test_register_budget_top10, 0, 6);
  tcase_add_loop_test(tc, test_bwd_register_footprints, 0, 11);
  tcase_add_test(tc, test_launch_registers_occupancy);
  tcase_add_test(tc, test_occupancy_count_dependent_use);
  tcase_add_loop_test(tc, test_bwd_top5_within_budget, 0, 9);
  tcase_add_test(tc, test_top_five);
  tcase_add_test(tc, test_lp_mps_round_trip);
  tcase_add_test(tc, test_lp_mps_long_names);
  tcase_add_test(tc, test_explain_next_better);
  tcase_add_test(tc, test_placement);
  tcase_add_test(tc, test_validate_tuned_nofit);
  tcase_add_test(tc, test_validate_bad_expect);
  tcase_add_loop_test(tc, test_explain_legal_points, 0, 5);
  tcase_add_test(tc, test_top_configurations);
  tcase_add_test(tc, test_top_idle_placement);
  tcase_add_loop_test(tc, test_gqa_kv_heads, 0, 5);
  tcase_add_loop_test(tc, test_causal_blocks, 0, 8);
  tcase_add_loop_test(tc, test_gqa_errors, 0, 4);
  tcase_add_loop_test(tc, test_split_k, 0, 4);
  tcase_add_test(tc, test_tie_break_levels);
  tcase_add_test(tc, test_top_gap);
  tcase_add_loop_test(tc, test_split_k_errors, 0, 4);
  tcase_add_loop_test(tc, test_validate_shipped_cases, 0, (int)(sizeof validation_files / sizeof validation_files[0]));
  suite_add_tcase(s, tc);
  TCase *free_tile = tcase_create("Free tiles");
  tcase_set_timeout(free_tile, 120);
  tcase_add_loop_test(free_tile, test_free_tile_equals_oracle, 0, 2);
  suite_add_tcase(s, free_tile);
  return s;
}
