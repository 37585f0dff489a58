/* The time models of the worksets that model a kernel library's template
 * (triton-matmul) and of the kernels added to the roofline later
 * (flashinfer-prefill, flashmla-sm90-decode, the CuTe DSL GEMMs): what each
 * ranks first, and which term binds where a configuration is slow. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/json.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* The tutorial's CUDA autotune configs (triton-lang/triton @
 * 7649d87cce6c12361bb9da234b9b227b2880b499 :
 * python/tutorials/03-matrix-multiplication.py, get_cuda_autotune_config:
 * eight FP16 configs, then eight "good for fp8"), as Triton's autotuner
 * tries all of them on an FP16 GEMM. */
#define TUTORIAL "tests/data/prune/triton-tutorial-cuda.jsonl"
#define NCONFIGS 16

struct config {
  int64_t m, n, k, stages, warps;
  int fits;               /* 0: it does not compile for this machine (solve exit 1) */
  int64_t time_ns, bound; /* at the occupancy the SM holds; bound_by */
};

static int64_t member(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  ck_assert_msg(cJSON_IsNumber(v), "%s: no integer %s", TUTORIAL, key);
  return (int64_t)v->valuedouble;
}

static size_t read_tutorial(struct config *c) {
  FILE *f = fopen(TUTORIAL, "r");
  ck_assert_msg(f != NULL, "cannot open %s", TUTORIAL);
  char line[512];
  size_t n = 0;
  while (n < NCONFIGS && fgets(line, sizeof line, f)) {
    cJSON *o = cJSON_Parse(line);
    ck_assert_msg(o != NULL, "%s: line %zu", TUTORIAL, n + 1);
    const cJSON *kw = cJSON_GetObjectItemCaseSensitive(o, "kwargs");
    c[n] = (struct config){member(kw, "BLOCK_SIZE_M"),
                           member(kw, "BLOCK_SIZE_N"),
                           member(kw, "BLOCK_SIZE_K"),
                           member(o, "num_stages"),
                           member(o, "num_warps"),
                           0,
                           0,
                           0};
    cJSON_Delete(o);
    n++;
  }
  fclose(f);
  return n;
}

/* The value `objective NAME = V` of a solve's text output. */
static int64_t objective(const char *out, const char *name) {
  char key[96];
  snprintf(key, sizeof key, "objective    %s = ", name);
  const char *at = strstr(out, key);
  ck_assert_msg(at != NULL, "no '%s' in:\n%s", key, out);
  return strtoll(at + strlen(key), NULL, 10);
}

/* One config's time on `machine` at 4096^3 FP16 (the tutorial's largest
 * benchmark size, the workset's defaults): the SM holds as many programs as
 * fit (max occupancy), then the time there. */
static void time_config(const char *machine, struct config *c) {
  char cmd[512], out[8192], err[2048];
  snprintf(cmd, sizeof cmd,
           "solve -m %s -w triton-matmul -p num_warps=%" PRId64 " --fix BLOCK_M=%" PRId64 " --fix BLOCK_N=%" PRId64
           " --fix BLOCK_K=%" PRId64 " --fix num_stages=%" PRId64
           " --objective 'max occupancy' --objective 'min time_ns' --objective 'min bound_by'",
           machine, c->warps, c->m, c->n, c->k, c->stages);
  int rc = tf_test_run(cmd, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d: %s", cmd, rc, err);
  c->fits = rc == 0;
  if (c->fits)
    c->time_ns = objective(out, "min time_ns"), c->bound = objective(out, "min bound_by");
}

/* Of the tutorial's configs that compile, the fastest is a tile of 128 x 64
 * or more in area, every tile of 128 x 128 or more (128x128, 64x256,
 * 128x256) is within 1 % of it, and the two-warp 64 x 32 and 32 x 64 tiles
 * are bound by the SMEM port or L2 and at least 1.5 times as slow: on an
 * A100 (L2 at 5120 B/clk) and an RTX 4090 (L2 at 1945 B/clk, cp.async
 * measured; FP32 accumulation at half the MMA rate, so the mid and large
 * tiles are MMA-bound alike and the fill orders them). */
START_TEST(test_triton_tutorial_rank) {
  static const char *const machines[] = {"a100", "rtx4090"};
  const char *machine = machines[_i];
  struct config c[NCONFIGS];
  size_t n = read_tutorial(c), best = n, fit = 0;
  ck_assert_uint_eq(n, NCONFIGS);
  for (size_t i = 0; i < n; i++) {
    time_config(machine, &c[i]);
    if (c[i].fits && (best == n || c[i].time_ns < c[best].time_ns))
      best = i;
    fit += (size_t)c[i].fits;
  }
  ck_assert_uint_ge(fit, 8); /* the eight FP16 configs fit both */
  ck_assert_msg(c[best].m * c[best].n >= 128 * 64, "%s: rank 1 is %" PRId64 "x%" PRId64 "x%" PRId64, machine, c[best].m,
                c[best].n, c[best].k);
  for (size_t i = 0; i < n; i++)
    if (c[i].fits && c[i].m * c[i].n >= 128 * 128)
      ck_assert_msg(c[i].time_ns * 100 <= c[best].time_ns * 101,
                    "%s: %" PRId64 "x%" PRId64 " %" PRId64 " ns, rank 1 %" PRId64, machine, c[i].m, c[i].n,
                    c[i].time_ns, c[best].time_ns);
  for (size_t i = 0; i < n; i++) {
    if (c[i].warps != 2)
      continue;
    ck_assert_msg(c[i].fits, "%s: %" PRId64 "x%" PRId64 " does not fit", machine, c[i].m, c[i].n);
    ck_assert_msg(c[i].bound == 3 || c[i].bound == 4, "%s: %" PRId64 "x%" PRId64 " bound_by %" PRId64, machine, c[i].m,
                  c[i].n, c[i].bound);
    ck_assert_msg(c[i].time_ns * 2 >= c[best].time_ns * 3,
                  "%s: %" PRId64 "x%" PRId64 " %" PRId64 " ns, rank 1 %" PRId64, machine, c[i].m, c[i].n, c[i].time_ns,
                  c[best].time_ns);
  }
}
END_TEST

/* 32 x 32 x 32 at the default 4 warps is a 2 x 2 warp layout
 * (warpsPerTileV2: reps [2, 4], then N, then M), so each of A's and B's
 * 2 KiB k-blocks is read by two warps and written once: 12288 B over
 * 128 B/clk, 96 clocks against the MMA's 32 at 2048 ops/clk on the A100.
 * It is bound by SMEM there (by L2 on the RTX 4090) and at least 2.5 times
 * as slow as the best tile of the free search. */
START_TEST(test_triton_small_tile) {
  char out[8192], err[2048];
  const char *fixed = " --fix BLOCK_M=32 --fix BLOCK_N=32 --fix BLOCK_K=32 --objective 'max occupancy'"
                      " --objective 'min time_ns' --objective 'min cycles(mma)' --objective 'min cycles(smem)'"
                      " --objective 'min bound_by'";
  char cmd[512];
  snprintf(cmd, sizeof cmd, "solve -m a100 -w triton-matmul%s", fixed);
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  int64_t slow = objective(out, "min time_ns");
  ck_assert_int_eq(objective(out, "min cycles(mma)"), 128 * 32); /* 128 k-blocks */
  ck_assert_int_eq(objective(out, "min cycles(smem)"), 128 * 96);
  ck_assert_int_eq(objective(out, "min bound_by"), 3); /* smem */
  ck_assert_int_eq(
      tf_test_run("solve -m a100 -w triton-matmul --objective 'min time_ns'", out, sizeof out, err, sizeof err), 0);
  int64_t best = objective(out, "min time_ns");
  ck_assert_msg(slow * 2 >= best * 5, "32x32x32 %" PRId64 " ns, the best %" PRId64, slow, best);
  snprintf(cmd, sizeof cmd, "solve -m rtx4090 -w triton-matmul%s", fixed);
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(objective(out, "min bound_by"), 4); /* l2 */
}
END_TEST

/* The other kernels' per-iteration (GEMMs: per-tile) terms by hand, each
 * the worksets' comments' traffic at one point:
 *  flashinfer-prefill, A100, d = dv = 128, cta_tile_q 128 (4 warps on Q
 *   rows), num_mma_kv 2 (32 keys): mma 2 x 128 x 32 x 256 / 2048 = 1024;
 *   smem Q 32768 once + K,V 16384 by each of 4 warps + 16384 written =
 *   114688 B / 128 = 896.  cta_tile_q 16 (4 warps on KV columns): Q 4096 by
 *   4 warps + K,V 32768 once + written = 81920 B / 128 = 640 against the
 *   MMA's 2 x 16 x 64 x 256 / 2048 = 256, and L2 cdiv(32768 x 108, 5120) = 692
 *   binds (4).
 *  flashmla-sm90-decode, H100, 64 x 64, d 576, dv 512: mma 2 x 64 x 64 x
 *   1088 / 4096 = 2176; smem Q 64 x 512 + K 64 x 1088 + P 2 x 64 x 64, x 2 B
 *   = 221184 / 128 = 1728; 132 SMs / 2 row blocks = 66 CTAs per row block.
 *  cutedsl-sm90-gemm, H100, 128x256x64 (64 k-blocks): mma 2 x 128 x 256 x 64
 *   / 4096 = 1024 a k-block; smem (128 + 2 x 256) x 64 x 2 B = 81920 / 128
 *   = 640.  cutedsl-sm100-gemm, B200, 2-CTA 256x128: mma 2 x 256 x 128 x
 *   64 / 2 / 8192 = 256; smem (128 + 64) x 64 x 2 B = 24576 / 128 = 192.
 *  cutedsl-sm120-gemm, RTX 5090, 128x128x64: mma 2 x 128 x 128 x 64 / 1024
 *   = 2048; smem 2 x 256 x 64 x 2 B = 65536 /
 *   128 = 512 (A and B each read by two of the 2 x 2 MMA warps).
 *  triton-matmul on the AMD machines, 32x32x32 at 4 waves (2 x 2): A and B
 *   2 KiB each read twice by ds_read and written once (gfx942: from VGPRs
 *   by ds_write; gfx950: by the async copy), 12288 B / 128 = 96 a k-block
 *   on the LDS port, against the MI300X's MFMA 65536 / 2048 = 32. */
START_TEST(test_other_kernels) {
  static const struct {
    const char *args, *name;
    int64_t want;
  } cases[] = {
      {"-m a100 -w flashinfer-prefill --fix num_mma_kv=2", "cycles(mma)", 1024},
      {"-m a100 -w flashinfer-prefill --fix num_mma_kv=2", "cycles(smem)", 896},
      {"-m a100 -w flashinfer-prefill --fix num_mma_kv=2", "bound_by", 1},
      {"-m a100 -w flashinfer-prefill -p cta_tile_q=16 --fix num_mma_kv=1", "cycles(mma)", 256},
      {"-m a100 -w flashinfer-prefill -p cta_tile_q=16 --fix num_mma_kv=1", "cycles(smem)", 640},
      {"-m a100 -w flashinfer-prefill -p cta_tile_q=16 --fix num_mma_kv=1", "cycles(l2)", 692},
      {"-m a100 -w flashinfer-prefill -p cta_tile_q=16 --fix num_mma_kv=1", "bound_by", 4},
      {"-m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "cycles(mma)", 2176},
      {"-m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "cycles(smem)", 1728},
      {"-m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "sm_parts", 66},
      {"-m h100-sxm -w flashmla-sm90-decode --fix k_buffers=2", "time_bound_by", 6}, /* hbm: decode */
      {"-m h100-sxm -w cutedsl-sm90-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64", "cycles(mma)", 64 * 1024},
      {"-m h100-sxm -w cutedsl-sm90-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64", "cycles(smem)", 64 * 640},
      {"-m b200 -w cutedsl-sm100-gemm -p cta_group=2 --fix mma_m=256 --fix mma_n=128", "cycles(mma)", 64 * 256},
      {"-m b200 -w cutedsl-sm100-gemm -p cta_group=2 --fix mma_m=256 --fix mma_n=128", "cycles(smem)", 64 * 192},
      {"-m rtx5090 -w cutedsl-sm120-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64", "cycles(mma)", 64 * 4096},
      /* (FP32 accumulation at the RTX 5090's half rate) */
      {"-m rtx5090 -w cutedsl-sm120-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64", "cycles(smem)", 64 * 512},
      {"-m mi300x -w triton-matmul --fix BLOCK_M=32 --fix BLOCK_N=32 --fix BLOCK_K=32 --fix num_stages=2",
       "cycles(smem)", 128 * 96},
      {"-m mi300x -w triton-matmul --fix BLOCK_M=32 --fix BLOCK_N=32 --fix BLOCK_K=32 --fix num_stages=2", "bound_by",
       3},
      {"-m mi355x -w triton-matmul --fix BLOCK_M=32 --fix BLOCK_N=32 --fix BLOCK_K=32 --fix num_stages=2",
       "cycles(smem)", 128 * 96},
  };
  char cmd[512], out[8192], err[2048], name[64];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(cmd, sizeof cmd, "solve %s --objective 'min %s'", cases[i].args, cases[i].name);
    ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s: %s", cmd, err);
    snprintf(name, sizeof name, "min %s", cases[i].name);
    int64_t got = objective(out, name);
    ck_assert_msg(got == cases[i].want, "%s: %" PRId64 ", want %" PRId64, cmd, got, cases[i].want);
  }
}
END_TEST

/* Every workset this file covers answers min time_us on a machine it
 * models, and no answer is faster than the machine's peak (ideal_ns). */
START_TEST(test_answers_time) {
  static const char *const runs[] = {
      "-m a100 -w triton-matmul",      "-m rtx4090 -w triton-matmul",         "-m h100-sxm -w triton-matmul",
      "-m b200 -w triton-matmul",      "-m rtx5090 -w triton-matmul",         "-m mi300x -w triton-matmul",
      "-m a100 -w flashinfer-prefill", "-m h100-sxm -w flashmla-sm90-decode", "-m h100-sxm -w cutedsl-sm90-gemm",
      "-m b200 -w cutedsl-sm100-gemm", "-m rtx5090 -w cutedsl-sm120-gemm",
  };
  char cmd[512], out[8192], err[2048];
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    snprintf(cmd, sizeof cmd, "solve %s --objective 'min time_ns' --objective 'min time_ns - ideal_ns'", runs[i]);
    ck_assert_msg(tf_test_run(cmd, out, sizeof out, err, sizeof err) == 0, "%s: %s", cmd, err);
    int64_t time = objective(out, "min time_ns"), slack = objective(out, "min time_ns - ideal_ns");
    ck_assert_msg(time > 0 && slack >= 0, "%s: %" PRId64 " ns, %" PRId64 " over the peak's", cmd, time, slack);
  }
}
END_TEST

Suite *time_models_suite(void) {
  Suite *s = suite_create("time_models");
  TCase *tc = tcase_create("triton");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_triton_tutorial_rank, 0, 2);
  tcase_add_test(tc, test_triton_small_tile);
  suite_add_tcase(s, tc);
  TCase *other = tcase_create("other");
  tcase_set_timeout(other, 120);
  tcase_add_test(other, test_other_kernels);
  tcase_add_test(other, test_answers_time);
  suite_add_tcase(s, other);
  return s;
}
