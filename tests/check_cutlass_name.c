/* CUTLASS library kernel names: parsing, the mapping onto worksets, and
 * the epilogue shared storage, checked against the sizes the compiler
 * printed for sizeof(CollectiveEpilogue::SharedStorage) (nvcc 13.0 on the
 * unmodified CUTLASS @ 7107b055 builders; docs/sources.md). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formats/cutlass_epilogue.h"
#include "model/formats/cutlass_name.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static tf_cutlass_kernel parse_ok(const char *name) {
  tf_cutlass_kernel k;
  tf_error err;
  tf_error_init(&err);
  ck_assert_msg(tf_cutlass_name_parse(name, &k, &err) == 0, "%s: %s", name, err.msg);
  return k;
}

static void parse_fails(const char *name, const char *part) {
  tf_cutlass_kernel k;
  tf_error err;
  tf_error_init(&err);
  ck_assert_int_eq(tf_cutlass_name_parse(name, &k, &err), -1);
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_str_eq(err.at, "cutlass_name");
  ck_assert_msg(strstr(err.msg, part) != NULL, "'%s' not in: %s", part, err.msg);
}

START_TEST(test_parse_sm90) {
  tf_cutlass_kernel k =
      parse_ok("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_"
               "cooperative_epi_tma");
  ck_assert_int_eq(k.arch, 90);
  ck_assert_int_eq(k.a_bits, 16);
  ck_assert_int_eq(k.acc_bits, 32);
  ck_assert_int_eq(k.tile_m, 128);
  ck_assert_int_eq(k.tile_k, 64);
  ck_assert_int_eq(k.stages, 0);
  ck_assert_int_eq(k.sched, TF_CL_SCHED_COOP);
  ck_assert_int_eq(k.epi, TF_CL_EPI_TMA);
  ck_assert_int_eq(k.cta_group, 1);
}
END_TEST

START_TEST(test_parse_defaults) {
  /* SM90 auto: pingpong at M = 64, and the NoSmem epilogue. */
  tf_cutlass_kernel k = parse_ok("cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_64x128x64_1x1x1_0_tnn_align8");
  ck_assert_int_eq(k.sched, TF_CL_SCHED_PINGPONG);
  ck_assert_int_eq(k.epi, TF_CL_EPI_NOSMEM);
  /* SM100 auto: 2SM when cluster M is even, TMA epilogue. */
  k = parse_ok("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnn_align8");
  ck_assert_int_eq(k.cta_group, 2);
  ck_assert_int_eq(k.epi, TF_CL_EPI_TMA);
  k = parse_ok("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm");
  ck_assert_int_eq(k.cta_group, 1);
  k = parse_ok("cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_f16_f16_128x128x256_1x1x1_0_tnn_align32_o_"
               "vs16_1sm");
  ck_assert_int_eq(k.opclass, TF_CL_BLOCKSCALED);
  ck_assert_int_eq(k.a_bits, 4);
  ck_assert_int_eq(k.sf_vec, 16);
  k = parse_ok("cutlass3x_sm90_tensorop_gemm_grouped_f16_f16_f32_f16_f16_128x128x64_1x1x1_5_tnn_align8_"
               "warpspecialized_pingpong_epi_tma");
  ck_assert_int_eq(k.grouped, 1);
  ck_assert_int_eq(k.stages, 5);
}
END_TEST

START_TEST(test_parse_errors) {
  parse_fails("cutlass_tensorop_h16816gemm_128x256_32x3_tn_align8", "2.x");
  parse_fails("cutlass3x_sm89_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8", "'sm89'");
  parse_fails("cutlass3x_sm90_simt_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8", "'simt'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f17_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8", "'f17'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128_1x1x1_0_tnn_align8", "'128x128'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_x_tnn_align8", "stage count");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnx_align8", "'tnx'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_turbo",
              "'turbo'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_epi_smem", "'smem'");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_2sm", "CTA pair");
  parse_fails("cutlass3x_sm90_tensorop_gemm_f16_f16_f32", "(end of name)");
  parse_fails("", "'cutlass3x'");
  /* Tile M below the CTA pair, with a C and with a void C: a division by zero before. */
  parse_fails("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_1x128x64_1x1x1_0_tnn_align8_2sm", "CTA pair of 2");
  parse_fails("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_void_f16_1x128x64_1x1x1_0_tnn_align8_2sm", "CTA pair of 2");
  parse_fails("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_3x128x64_1x1x1_0_tnn_align8_2sm", "multiple of 2");
  parse_fails("cutlass3x_sm120_tensorop_gemm_f16_f16_f32_f16_f16_32x8x64_1x1x1_0_tnn_align8", "does not divide");
}
END_TEST

static void epi_is(const char *name, long bytes) {
  tf_cutlass_kernel k = parse_ok(name);
  ck_assert_msg(tf_cutlass_epilogue_bytes(&k) == bytes, "%s: %lld, printed %ld", name,
                (long long)tf_cutlass_epilogue_bytes(&k), bytes);
}

/* Every compiler-printed sizeof(CollectiveEpilogue::SharedStorage): printed
 * with row-major C and D (the names' "tnt"), then compiled here at
 * NVIDIA/cutlass 7107b055 with column-major ones ("tnn", cutlass_library's
 * usual), whose swizzle spans M, not N. */
START_TEST(test_epilogue_printed) {
  const char *co = "_tnt_align8_warpspecialized_cooperative_epi_tma";
  const char *pp = "_tnt_align8_warpspecialized_pingpong_epi_tma";
  char n[256];
#define EPI(types, tile, sched, bytes)                                                       \
  snprintf(n, sizeof n, "cutlass3x_sm90_tensorop_gemm_%s_%s_1x1x1_0%s", types, tile, sched); \
  epi_is(n, bytes)
  EPI("f16_f16_f32_f16_f16", "128x128x64", co, 33792);      /* A1 */
  EPI("f16_f16_f32_void_f16", "128x128x64", co, 17408);     /* A5 */
  EPI("f16_f16_f32_f32_f32", "128x128x64", co, 67584);      /* A6 */
  EPI("f16_f16_f32_f16_f16", "64x128x64", pp, 17408);       /* A9 */
  EPI("e4m3_e4m3_f32_e4m3_e4m3", "128x128x128", co, 25088); /* A16 */
  EPI("e4m3_e4m3_f32_void_e4m3", "64x128x128", pp, 9216);   /* A17 */
  EPI("s8_s8_s32_s8_s8", "128x256x128", co, 25088);         /* A22 */
#undef EPI
  epi_is("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnt_align8_warpspecialized_"
         "cooperative_epi_nosmem",
         1);                                                                                            /* A4 */
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnt_align8_1sm", 33792); /* A23 */
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_0_tnt_align8_1sm", 67584); /* A28 */
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnt_align8_2sm_epi_tma",
         33792);                                                                                        /* A32 */
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f32_f32_128x128x64_1x1x1_0_tnt_align8_1sm", 33792); /* 128x16 */
  epi_is("cutlass3x_sm100_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_bf16_bf16_128x256x256_1x1x1_0_tnt_align32_o_vs32_"
         "1sm",
         100352); /* block-scaled N = 256: 128x128 C3 */
  epi_is("cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnt_align16", 13312);
  epi_is("cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_void_bf16_128x128x128_1x1x1_0_tnt_align16", 9216);
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnt_align8_1sm_epi_nosmem", 32);
  /* column-major C and D: nvcc 13.0, sizeof(CollectiveEpilogue::SharedStorage) */
  epi_is(
      "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
      "tma",
      34816);
  epi_is("cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_void_bf16_64x128x128_2x2x1_0_tnn_align16_warpspecialized_pingpong_"
         "epi_tma",
         10240);
  epi_is("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm", 34816);
  epi_is("cutlass3x_sm100_tensorop_gemm_tf32_tf32_f32_f32_f32_128x128x32_2x2x1_0_tnn_align4_1sm",
         33792); /* SW128_32B */
  epi_is("cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnn_align16_warpspecialized_"
         "cooperative",
         14336);
}
END_TEST

static int has_param(const tf_request *r, const char *name, long value) {
  for (size_t i = 0; i < r->nparams; i++)
    if (!strcmp(r->params[i].name, name))
      return r->params[i].value == value;
  return 0;
}

START_TEST(test_request_mapping) {
  tf_request r;
  tf_cutlass_kernel k;
  tf_error err;
  tf_request_init(&r);
  tf_error_init(&err);
  ck_assert_int_eq(tf_cutlass_name_request("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnn_"
                                           "align8_2sm",
                                           &r, &k, &err),
                   0);
  ck_assert_str_eq(r.workset, "cutlass-sm100-gemm");
  ck_assert_str_eq(r.machine, "b200");
  ck_assert(has_param(&r, "cta_group", 2));
  ck_assert(has_param(&r, "epilogue_bytes", 34816)); /* column-major C and D */
  ck_assert_uint_eq(r.nfixes, 3);
  ck_assert_uint_eq(r.nobjectives, 1);
  ck_assert_str_eq(r.objectives[0].text, "max stages");
  tf_request_release(&r);

  /* A named stage count is fixed, a machine already chosen stays. */
  tf_request_init(&r);
  r.machine = strdup("gb200");
  ck_assert_int_eq(tf_cutlass_name_request("cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_4_tnn_"
                                           "align8_1sm",
                                           &r, &k, &err),
                   0);
  ck_assert_str_eq(r.machine, "gb200");
  ck_assert_uint_eq(r.nfixes, 4);
  ck_assert_uint_eq(r.nobjectives, 0);
  tf_request_release(&r);

  tf_request_init(&r);
  ck_assert_int_eq(tf_cutlass_name_request("cutlass3x_sm90_sptensorop_spgemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_"
                                           "tnn_align8",
                                           &r, &k, &err),
                   -1);
  ck_assert(strstr(err.msg, "sparse") != NULL);
  tf_request_release(&r);
}
END_TEST

/* End to end: `tilefit check --cutlass-name` on every name of
 * tests/data/cutlass/names.txt gives the stage count CUTLASS's builder
 * derives (compiler-printed, or the formula noted). */
START_TEST(test_check_names) {
  FILE *f = fopen("tests/data/cutlass/names.txt", "r");
  ck_assert_ptr_nonnull(f);
  char line[512], out[16384], err[4096], args[640];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    long want;
    char name[400];
    if (line[0] == '#' || sscanf(line, "%ld %399s", &want, name) != 2)
      continue;
    snprintf(args, sizeof args, "check --cutlass-name %s --json", name);
    ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s: %s", name, err);
    const char *at = strstr(out, "\"values\"");
    at = at ? strstr(at, "\"stages\":") : NULL;
    ck_assert_msg(at && strtol(at + 9, NULL, 10) == want, "%s: want stages %ld in %s", name, want, out);
    n++;
  }
  fclose(f);
  ck_assert_int_ge(n, 10);
}
END_TEST

/* The older form (cutlass3x_sm90_tensorop_s64x128x16gemm_...: the
 * instruction shape in the kind), the mangled name nsys and ptxas print
 * (_ZN7cutlass13device_kernelI<length><NAME>EEvNT_6ParamsE) and its
 * demangled form (void cutlass::device_kernel<NAME>(T1::Params)) give the
 * new form's answer. */
START_TEST(test_old_and_mangled_names) {
  static const char *const tail =
      "_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma";
  char name[256], old[256], mangled[400], demangled[400], scoped[400], args[600], want[16384], got[16384], err[4096];
  snprintf(name, sizeof name, "cutlass3x_sm90_tensorop_gemm%s", tail);
  snprintf(old, sizeof old, "cutlass3x_sm90_tensorop_s64x128x16gemm%s", tail);
  snprintf(mangled, sizeof mangled, "_ZN7cutlass13device_kernelI%zu%sEEvNT_6ParamsE", strlen(name), name);
  /* as nsys and ncu print it demangled, with and without a namespace */
  snprintf(demangled, sizeof demangled, "'void cutlass::device_kernel<%s>(T1::Params)'", name);
  snprintf(scoped, sizeof scoped, "'cutlass::device_kernel<(anonymous namespace)::%s>'", name);
  snprintf(args, sizeof args, "check --cutlass-name %s --json", name);
  ck_assert_int_eq(tf_test_run(args, want, sizeof want, err, sizeof err), 0);
  const char *forms[] = {old, mangled, demangled, scoped};
  for (int i = 0; i < 4; i++) {
    snprintf(args, sizeof args, "check --cutlass-name %s --json", forms[i]);
    ck_assert_msg(tf_test_run(args, got, sizeof got, err, sizeof err) == 0, "%s: %s", forms[i], err);
    ck_assert_msg(strstr(got, "\"status\":\"fits\"") && strstr(got, "\"stages\":6"), "%s: %s", forms[i], got);
    const char *w = strstr(want, "\"values\""), *g = strstr(got, "\"values\"");
    ck_assert_msg(w && g && !strcmp(w, g), "%s: %s\nwant %s", forms[i], g, w);
  }
  tf_cutlass_kernel k;
  tf_error e;
  tf_error_init(&e);
  ck_assert_int_eq(tf_cutlass_name_parse("_ZN7cutlass13device_kernelI999cutlass3xEE", &k, &e), -1);
  ck_assert_ptr_nonnull(strstr(e.msg, "runs past its end"));
  tf_error_init(&e);
  ck_assert_int_eq(tf_cutlass_name_parse("_ZN4cute6kernelEv", &k, &e), -1);
  ck_assert_ptr_nonnull(strstr(e.msg, "a mangled name of cutlass::device_kernel<NAME>"));
}
END_TEST

/* What CUTLASS builds: an explicit Pingpong holds a whole tile's
 * accumulator per consumer warpgroup (128x256 f16: 256 registers, over the
 * 240 it gets), the default FP8 schedule keeps a second accumulator
 * (256x192x128 e4m3: 384), fp8_fastaccum keeps one. */
START_TEST(test_schedule_registers) {
  static const struct {
    const char *name, *want;
    int rc;
  } cases[] = {
      {"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_pingpong_epi_"
       "tma",
       "does not fit: rf needs 271 registers/thread of 255, 16 over", 1},
      {"cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
       "tma",
       "cutlass-sm90-gemm on h100-sxm: fits", 0},
      {"cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_f16_f16_256x192x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_"
       "epi_tma",
       "does not fit: rf needs 407 registers/thread of 255, 152 over", 1},
      {"cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_f16_f16_256x192x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_"
       "fp8_fastaccum_epi_tma",
       "cutlass-sm90-gemm on h100-sxm: fits", 0},
      {"cutlass3x_sm90_tensorop_gemm_s8_s8_s32_s8_s8_128x256x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_epi_"
       "tma",
       "cutlass-sm90-gemm on h100-sxm: fits", 0},
  };
  char args[512], out[16384], err[4096];
  snprintf(args, sizeof args, "check --cutlass-name %s", cases[_i].name);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == cases[_i].rc, "%s: exit %d: %s", cases[_i].name, rc, err);
  ck_assert_msg(strstr(out, cases[_i].want), "%s: want '%s' in\n%s", cases[_i].name, cases[_i].want, out);
}
END_TEST

/* No free answer among the ten best puts an operand in registers where
 * the RS mainloop cannot be built: more than two MMA k-blocks (tile_k x
 * the wider width > 512 bits), none for 16-bit A and B of one width. */
START_TEST(test_free_rs_buildable) {
  static const char *const params[] = {"", "-p a_bits=8 -p b_bits=8", "-p a_bits=32 -p b_bits=32",
                                       "-p a_bits=4 -p b_bits=16", "-p a_bits=16 -p b_bits=8"};
  static const int wide[] = {16, 8, 32, 16, 16}, same16[] = {1, 0, 0, 0, 0};
  char args[512], out[16384], err[4096];
  snprintf(
      args, sizeof args,
      "solve -m h100-sxm -w cutlass-sm90-gemm %s --objective 'max tile_m*tile_n' --objective 'max stages' --top 10 "
      "--csv",
      params[_i]);
  ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s: %s", args, err);
  char *save = NULL, *line = strtok_r(out, "\n", &save);
  int col_k = -1, col_a = -1, col_b = -1, c = 0, rows = 0;
  for (char *f = line; f; f = strchr(f, ','), f = f ? f + 1 : NULL, c++) {
    col_k = !strncmp(f, "tile_k,", 7) ? c : col_k;
    col_a = !strncmp(f, "place_A,", 8) ? c : col_a;
    col_b = !strncmp(f, "place_B,", 8) ? c : col_b;
  }
  ck_assert(col_k >= 0 && col_a >= 0 && col_b >= 0);
  while ((line = strtok_r(NULL, "\n", &save))) {
    long tile_k = 0;
    int rf = 0;
    c = 0;
    for (char *f = line; f; f = strchr(f, ','), f = f ? f + 1 : NULL, c++) {
      if (c == col_k)
        tile_k = strtol(f, NULL, 10);
      if ((c == col_a || c == col_b) && !strncmp(f, "rf", 2))
        rf = 1;
    }
    ck_assert_msg(!rf || (tile_k * wide[_i] > 512 && !same16[_i]), "%s: %s", args, line);
    rows++;
  }
  ck_assert_int_eq(rows, 10);
}
END_TEST

/* cutlass-sm100-gemm's default epilogue (epilogue_bytes -1) is CUTLASS's
 * default TMA epilogue, the one a --cutlass-name of the same kernel binds:
 * the same carveout and stage count, tile by tile, for f16, f32 and 8-bit
 * C and D, 1SM and 2SM. */
START_TEST(test_sm100_default_epilogue) {
  static const int tiles[][4] = {{1, 64, 64, 64},   {1, 128, 128, 64}, {1, 128, 256, 64}, {1, 64, 192, 128},
                                 {2, 256, 128, 64}, {2, 128, 64, 128}, {2, 256, 256, 64}, {1, 128, 32, 128}};
  static const struct {
    const char *type;
    int bits;
  } outs[] = {{"f16", 16}, {"f32", 32}, {"e4m3", 8}};
  char args[512], a[16384], b[16384], err[4096];
  for (size_t o = 0; o < 3; o++) {
    const int *t = tiles[_i];
    snprintf(
        args, sizeof args,
        "check --cutlass-name cutlass3x_sm100_tensorop_gemm_f16_f16_f32_%s_%s_%dx%dx%d_%s_0_tnn_align8_%dsm_epi_tma "
        "--json",
        outs[o].type, outs[o].type, t[1], t[2], t[3], t[0] == 2 ? "2x1x1" : "1x1x1", t[0]);
    ck_assert_msg(tf_test_run(args, a, sizeof a, err, sizeof err) <= 1, "%s: %s", args, err);
    snprintf(args, sizeof args,
             "solve -m b200 -w cutlass-sm100-gemm -p out_bits=%d -p cta_group=%d --fix tile_m=%d --fix tile_n=%d "
             "--fix tile_k=%d --json",
             outs[o].bits, t[0], t[1], t[2], t[3]);
    ck_assert_msg(tf_test_run(args, b, sizeof b, err, sizeof err) == 0, "%s: %s", args, err);
    const char *ea = strstr(a, "{\"name\":\"epilogue\""), *eb = strstr(b, "{\"name\":\"epilogue\"");
    const char *sa = strstr(a, "\"stages\":"), *sb = strstr(b, "\"stages\":");
    ck_assert_msg(ea && eb && sa && sb, "%s", args);
    ck_assert_msg(!strncmp(ea, eb, strcspn(ea, "}")), "%s: %.80s vs %.80s", args, ea, eb);
    ck_assert_msg(atoi(sa + 9) == atoi(sb + 9), "%s: stages %d vs %d", args, atoi(sa + 9), atoi(sb + 9));
  }
}
END_TEST

START_TEST(test_check_name_errors) {
  char out[4096], err[4096];
  ck_assert_int_eq(tf_test_run("check --cutlass-name cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_"
                               "0_tnn_align8_warpspecialized_turbo",
                               out, sizeof out, err, sizeof err),
                   2);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, "--cutlass-name: 'turbo' where the name should have") != NULL, "%s", err);
  ck_assert_int_eq(tf_test_run("check -w cutlass-sm90-gemm --cutlass-name cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_"
                               "f16_128x128x64_1x1x1_0_tnn_align8",
                               out, sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "-w: cannot be combined with --cutlass-name") != NULL, "%s", err);
  /* A named stage count is checked as given: 8 stages of 32784 B do not fit. */
  ck_assert_int_eq(tf_test_run("check --cutlass-name cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_"
                               "8_tnn_align8_warpspecialized_cooperative_epi_tma",
                               out, sizeof out, err, sizeof err),
                   1);
  ck_assert_msg(strstr(out, "does not fit") != NULL, "%s", out);
}
END_TEST

Suite *cutlass_name_suite(void) {
  Suite *s = suite_create("cutlass_name");
  TCase *tc = tcase_create("names");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_parse_sm90);
  tcase_add_test(tc, test_parse_defaults);
  tcase_add_test(tc, test_parse_errors);
  tcase_add_test(tc, test_epilogue_printed);
  tcase_add_test(tc, test_request_mapping);
  tcase_add_test(tc, test_check_names);
  tcase_add_test(tc, test_check_name_errors);
  tcase_add_loop_test(tc, test_sm100_default_epilogue, 0, 8);
  tcase_add_loop_test(tc, test_schedule_registers, 0, 5);
  tcase_add_loop_test(tc, test_free_rs_buildable, 0, 5);
  tcase_add_test(tc, test_old_and_mangled_names);
  suite_add_tcase(s, tc);
  return s;
}
