/* tilefit emit (solver/emit/emit.h) end to end: CUTLASS names that read
 * back through --cutlass-name to the same workset, params, tile and stages
 * for every name form the parser accepts; the sm90 GEMM's CollectiveBuilder
 * type; Triton --top K distinct configs that parse with Python's ast, carry
 * the answers' values and that prune keeps; CuTe DSL and FlashAttention
 * fragments with the answer's values; what a wrong workset or target says. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 18], out2[1 << 18], err[1 << 14];

/* Every form the name parser takes: SM90 cooperative and pingpong, void
 * and wide C, 8-bit, no-smem epilogues, no schedule suffix, a stage count,
 * grouped; SM100 1SM and 2SM, automatic 2SM, block-scaled MX and NVF4;
 * SM103; SM120 dense and block-scaled. */
static const char *const names[] = {
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
    "tma",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_void_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
    "tma",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f32_f32_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
    "tma",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_64x128x64_1x1x1_0_tnn_align8_warpspecialized_pingpong_epi_tma",
    "cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_e4m3_e4m3_128x128x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_"
    "epi_tma",
    "cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_void_e4m3_64x128x128_1x1x1_0_tnn_align16_warpspecialized_pingpong_epi_"
    "tma",
    "cutlass3x_sm90_tensorop_gemm_s8_s8_s32_s8_s8_128x256x128_1x1x1_0_tnn_align16_warpspecialized_cooperative_epi_tma",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_"
    "nosmem",
    "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_64x128x64_1x1x1_0_tnn_align8",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_3_tnn_align8_warpspecialized_cooperative_epi_"
    "tma",
    "cutlass3x_sm90_tensorop_gemm_grouped_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_"
    "cooperative_epi_tma",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnn_align8_2sm_epi_tma",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnn_align8",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f32_f32_128x128x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm_epi_nosmem",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_4_tnn_align8_1sm",
    "cutlass3x_sm100_tensorop_gemm_grouped_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm100_bstensorop_gemm_ue4m3xe2m1_ue4m3xe2m1_f32_f16_f16_128x128x256_1x1x1_0_tnn_align32_o_vs16_1sm",
    "cutlass3x_sm100_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_bf16_bf16_128x256x256_1x1x1_0_tnn_align32_o_vs32_1sm",
    "cutlass3x_sm103_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnn_align16",
    "cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_void_bf16_128x128x128_1x1x1_0_tnn_align16",
    "cutlass3x_sm120_bstensorop_gemm_ue8m0xe2m1_ue8m0xe2m1_f32_f16_f16_128x128x128_1x1x1_0_tnn_align32",
};

/* `check --cutlass-name NAME --json`: the workset, params and values. */
static cJSON *configuration(const char *name) {
  char args[512];
  snprintf(args, sizeof args, "check --cutlass-name %s --json", name);
  ck_assert_msg(tf_test_run(args, out2, sizeof out2, err, sizeof err) == 0, "%s: %s", name, err);
  cJSON *j = cJSON_Parse(out2), *c = cJSON_CreateObject();
  ck_assert_ptr_nonnull(j);
  static const char *const keys[] = {"workset", "params", "values"};
  for (size_t i = 0; i < 3; i++)
    cJSON_AddItemToObject(c, keys[i], cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(j, keys[i]), 1));
  cJSON_Delete(j);
  return c;
}

/* The name on the line after `label` in an emitted fragment. */
static int name_after(const char *text, const char *label, char *name, size_t size) {
  const char *at = strstr(text, label);
  if (!at || !(at = strstr(at, "\n//   ")))
    return -1;
  at += 6;
  size_t n = strcspn(at, "\n");
  snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), at);
  return 0;
}

static void same_configuration(const char *name, const char *emitted) {
  cJSON *a = configuration(name), *b = configuration(emitted);
  ck_assert_msg(cJSON_Compare(a, b, 1), "%s reads back differently from %s", emitted, name);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

START_TEST(test_cutlass_round_trip) {
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char args[512], emitted[256], autoname[256];
    snprintf(args, sizeof args, "emit --for cutlass --cutlass-name %s", names[i]);
    ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s: %s", names[i], err);
    ck_assert_msg(name_after(out, "// cutlass_library name", emitted, sizeof emitted) == 0, "%s: no name in\n%s",
                  names[i], out);
    same_configuration(names[i], emitted);
    /* a name with stage count 0 is the builder's count: emit says so, and that form reads back too */
    if (strstr(names[i], "x1_0_")) {
      ck_assert_msg(name_after(out, "the builder's own count", autoname, sizeof autoname) == 0, "%s:\n%s", names[i],
                    out);
      ck_assert_msg(strstr(autoname, "x1_0_") != NULL, "%s", autoname);
      same_configuration(names[i], autoname);
    }
  }
}
END_TEST

/* The C++ element type of a cutlass_library type name, written here
 * apart from the library's table. */
static const char *cxx_of(const char *t) {
  static const char *const map[][2] = {{"f16", "cutlass::half_t"},
                                       {"bf16", "cutlass::bfloat16_t"},
                                       {"e4m3", "cutlass::float_e4m3_t"},
                                       {"tf32", "cutlass::tfloat32_t"},
                                       {"f32", "float"},
                                       {"void", "void"}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (!strcmp(map[i][0], t))
      return map[i][1];
  ck_abort_msg("no C++ type for %s", t);
  return NULL;
}

static const char *major(char l) { return l == 't' ? "cutlass::layout::RowMajor" : "cutlass::layout::ColumnMajor"; }

/* What the name says, read by hand: the operand, C and D lines of the
 * builders, the cluster and the kernel schedule must be in the code. */
static void code_says_name(const char *name, const char *code) {
  char buf[256], *p[32], want[160];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", name);
  for (char *t = strtok(buf, "_"); t && n < 32; t = strtok(NULL, "_"))
    p[n++] = t;
  /* cutlass3x sm90 tensorop gemm A B acc C D tile cluster stages layout alignN suffix... */
  const char *lay = p[12], *align = p[13] + 5;
  int cm = 0, cn = 0;
  ck_assert_int_eq(sscanf(p[10], "%dx%d", &cm, &cn), 2);
  const char *const lines[][3] = {{p[4], lay, align}, {p[5], lay + 1, align}, {p[8], lay + 2, NULL}};
  for (int i = 0; i < 3; i++) {
    snprintf(want, sizeof want, "    %s, %s, %s", cxx_of(lines[i][0]), major(lines[i][1][0]),
             lines[i][2] ? lines[i][2] : "");
    ck_assert_msg(strstr(code, want), "%s: no '%s' in\n%s", name, want, code);
  }
  snprintf(want, sizeof want, "cute::Shape<cute::_%d, cute::_%d, cute::_1>", cm, cn);
  ck_assert_msg(strstr(code, want), "%s: no cluster %s", name, want);
  const char *sched = strstr(name, "cooperative") ? "KernelTmaWarpSpecializedCooperative\n"
                      : strstr(name, "pingpong")  ? "KernelTmaWarpSpecializedPingpong\n"
                      : strstr(name, "_1sm")      ? "KernelTmaWarpSpecialized1SmSm100\n"
                      : strstr(name, "_2sm")      ? "KernelTmaWarpSpecialized2SmSm100\n"
                                                  : "KernelScheduleAuto\n";
  ck_assert_msg(strstr(code, sched), "%s: no %s", name, sched);
  ck_assert_msg(strstr(code, "using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;"), "%s", name);
}

/* Thirty-two names: the code has each name's types, layouts, cluster and
 * schedule, and the name emit reads back is the name itself (the builder's
 * count form for stage count 0), as check --cutlass-name binds it. */
START_TEST(test_cutlass_names_exact) {
  FILE *f = fopen("tests/data/cutlass/emit-names.txt", "r");
  ck_assert_ptr_nonnull(f);
  char line[512], args[600], emitted[256];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!*line || *line == '#')
      continue;
    snprintf(args, sizeof args, "emit --for cutlass --cutlass-name %s", line);
    ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s: %s", line, err);
    code_says_name(line, out);
    int automatic = strstr(line, "x1_0_") != NULL;
    ck_assert_msg(name_after(out, automatic ? "the builder's own count" : "// cutlass_library name", emitted,
                             sizeof emitted) == 0,
                  "%s:\n%s", line, out);
    ck_assert_str_eq(emitted, line);
    n++;
  }
  fclose(f);
  ck_assert_int_eq(n, 32);
}
END_TEST

/* A name part no param carries is refused by emit, with the part. */
START_TEST(test_cutlass_name_refused) {
  ck_assert_int_eq(tf_test_run("emit --for cutlass --cutlass-name cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_"
                               "128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma_stream_k",
                               out, sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "cannot write this kernel: the name's 'stream'") && !*out, "%s", err);
  ck_assert_int_eq(tf_test_run("emit --for cutlass --cutlass-name cutlass3x_sm100_tensorop_gemm_f16_f16_f16_f16_f16_"
                               "128x128x64_1x1x1_0_tnn_align8_1sm",
                               out, sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "the accumulator f16"), "%s", err);
  /* a type param contradicting its width, and a type by name */
  ck_assert_int_eq(tf_test_run("solve -m h100-sxm -w cutlass-sm90-gemm -p a_type=e4m3 -p a_bits=16", out, sizeof out,
                               err, sizeof err),
                   1);
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m h100-sxm -w cutlass-sm90-gemm -p a_type=bf16 -p b_type=bf16 "
                               "-p epilogue_bytes=34816 --fix tile_m=128 --fix tile_n=256 --fix tile_k=64",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "_bf16_bf16_f32_", "    cutlass::bfloat16_t, cutlass::layout::RowMajor, 8,");
  /* cutlass-sm100-gemm's epilogue_bytes -1 is its default TMA epilogue: the name that carries it */
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m b200 -w cutlass-sm100-gemm --fix tile_m=128 --fix tile_n=128 "
                               "--fix tile_k=32 --fix splits=1 --fix stages=2",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "//   cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x128x32_1x1x1_2_tnn_align8_1sm\n",
                   "cutlass::epilogue::TmaWarpSpecialized1Sm\n",
                   "sizeof(SharedStorage) = 34816 B, the workset's default TMA epilogue");
  /* a sweep list takes the names too; a name of neither is refused with the list */
  ck_assert_int_eq(tf_test_run("sweep -m h100-sxm -w cutlass-sm90-gemm -p a_type=f16,bf16 -p b_layout=t -q", out,
                               sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "a_type=1601", "a_type=1602", "\"b_layout\":1");
  ck_assert_int_eq(
      tf_test_run("solve -m h100-sxm -w cutlass-sm90-gemm -p a_layout=k", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "expected an integer or one of t (row-major) or n (column-major) after 'a_layout='"), "%s",
                err);
}
END_TEST

/* cutlass-sm80-gemm: the 2.x GemmUniversal of the answer, its warp tile
 * the workset's split (128 x 128: 2 x 2 warps of 64 x 64), the mma.sync
 * instruction of 256 bits of K, the params' types and layouts; an integer
 * kernel is refused. */
START_TEST(test_cutlass_sm80) {
  ck_assert_int_eq(
      tf_test_run("emit --for cutlass -m a100 -w cutlass-sm80-gemm --fix tile_m=128 --fix tile_n=128 "
                  "--fix tile_k=32 --fix stages=5 -p a_type=bf16 -p b_type=bf16 -p d_type=bf16 -p a_layout=n",
                  out, sizeof out, err, sizeof err),
      0);
  TF_TEST_CONTAINS(
      out,
      "    cutlass::bfloat16_t, cutlass::layout::ColumnMajor,\n    cutlass::bfloat16_t, cutlass::layout::ColumnMajor,\n",
      "    cutlass::gemm::GemmShape<128, 128, 32>,\n    cutlass::gemm::GemmShape<64, 64, 32>,\n",
      "    cutlass::gemm::GemmShape<16, 8, 16>,\n", "LinearCombination<cutlass::bfloat16_t, 8, float, float>",
      "    5,  // stages\n", "using GemmKernel = Gemm::GemmKernel;\n");
  ck_assert_int_eq(
      tf_test_run("emit --for cutlass -m a100 -w cutlass-sm80-gemm -p a_bits=32 -p b_bits=32 --fix tile_k=32", out,
                  sizeof out, err, sizeof err),
      0);
  TF_TEST_CONTAINS(out, "cutlass::tfloat32_t", "GemmShape<16, 8, 8>");
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m a100 -w cutlass-sm80-gemm -p a_type=s8 -p b_type=s8", out,
                               sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "must be floating-point types"), "%s", err);
}
END_TEST

/* An answer no library name carries (epilogue_bytes 0) is completed with
 * the no-smem epilogue, the kernel it builds as (make check-cutlass): SM90's
 * builder for SM120, whose builder has none, and a 64-row SM120 tile is
 * pingpong (the builder's Auto, cooperative, refuses it); SM100's 1SM one
 * for the block-scaled kernels. */
START_TEST(test_cutlass_unnamed) {
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m rtx5090 -w cutlass-sm120-gemm --fix tile_m=64 --fix tile_n=32 "
                               "--fix tile_k=64",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "// no kernel name: ", "    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,\n",
                   "    cutlass::epilogue::NoSmemWarpSpecialized\n",
                   "    cutlass::gemm::KernelTmaWarpSpecializedPingpong\n");
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m b200 -w cutlass-sm100-gemm-blockscaled --fix tile_m=128 "
                               "--fix tile_n=64 --fix tile_k=64",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "    cutlass::epilogue::NoSmemWarpSpecialized1Sm\n",
                   "using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;");
}
END_TEST

/* 34816: the f16 TMA epilogue of this tile with column-major C and D */
#define GEMM \
  "-m h100-sxm -w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=256 --fix tile_k=64 -p epilogue_bytes=34816"

START_TEST(test_cutlass_gemm) {
  ck_assert_int_eq(tf_test_run("emit --for cutlass " GEMM, out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(
      out, "// tilefit 0.1.0: workset cutlass-sm90-gemm on machine h100-sxm, optimal\n", "epilogue_bytes=34816",
      "// proved to fit: smem 231488 of 232448 B, rf 151 of 255 registers/thread\n",
      "//   "
      "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_4_tnn_align8_warpspecialized_cooperative_epi_"
      "tma\n",
      "    cute::Shape<cute::_128, cute::_256, cute::_64>,\n",
      "sizeof(typename CollectiveEpilogue::SharedStorage))>,  // 4 stages\n",
      "    cutlass::gemm::KernelTmaWarpSpecializedCooperative\n");
  ck_assert_int_eq(tf_test_run("check --cutlass-name cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_"
                               "4_tnn_align8_warpspecialized_cooperative_epi_tma",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "  stages       4\n", "epilogue_bytes 34816");
  /* StageCountAuto (epilogue_bytes 0) has no library name: StageCount<N> and the reason */
  ck_assert_int_eq(tf_test_run("emit --for cutlass -m h100-sxm -w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=128 "
                               "--fix tile_k=64",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "// no kernel name: ", "cutlass::gemm::collective::StageCount<7>,  // 7 stages");
}
END_TEST

/* Runs tests/emit_ast.py on a fragment: the values it binds, as JSON. */
static cJSON *python_values(const char *path) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "--version >/dev/null && python3 tests/emit_ast.py %s", path);
  ck_assert_msg(tf_test_run(cmd, out2, sizeof out2, err, sizeof err) == 0, "%s: %s", path, err);
  cJSON *j = cJSON_Parse(out2);
  ck_assert_ptr_nonnull(j);
  return j;
}

static long json_int(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  ck_assert_msg(cJSON_IsNumber(v), "no %s", key);
  return (long)v->valuedouble;
}

static char dir[256];

static void make_dir(void) { tf_test_temp_dir(dir, sizeof dir, "tilefit-emit"); }

static void remove_dir(void) { tf_test_remove_dir(dir); }

/* Eight distinct tiles, each config the answer's values keyed as the
 * tutorial's matmul_kernel (BLOCK_SIZE_M, ..., GROUP_SIZE_M 8), none with
 * more stages than the K loop's cdiv(K, BLOCK_K) iterations (K 4096) or
 * over early_config_prune's estimate, and prune keeps all eight. */
START_TEST(test_triton_top8) {
  char args[1024], path[300];
  make_dir();
  snprintf(path, sizeof path, "%s/configs.py", dir);
  snprintf(args, sizeof args, "emit --for triton -m h100-sxm -w triton-matmul --top 8 -o %s", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(
      tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --top 8 --json", out, sizeof out, err, sizeof err),
      0);
  cJSON *doc = cJSON_Parse(out), *py = python_values(path);
  const cJSON *answers = cJSON_GetObjectItemCaseSensitive(doc, "answers");
  const cJSON *configs = cJSON_GetObjectItemCaseSensitive(py, "configs");
  ck_assert_int_eq(cJSON_GetArraySize(answers), 8);
  ck_assert_int_eq(cJSON_GetArraySize(configs), 8);
  for (int i = 0; i < 8; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(answers, i), "values");
    const cJSON *c = cJSON_GetArrayItem(configs, i), *meta = cJSON_GetArrayItem(c, 0), *kw = cJSON_GetArrayItem(c, 1);
    static const char *const keys[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K"};
    static const char *const tutorial[] = {"BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K"};
    for (int k = 0; k < 3; k++)
      ck_assert_int_eq(json_int(meta, tutorial[k]), json_int(v, keys[k]));
    ck_assert_int_eq(json_int(meta, "GROUP_SIZE_M"), 8);
    ck_assert_int_eq(cJSON_GetArraySize(meta), 4);
    long stages = json_int(kw, "num_stages"), bk = json_int(v, "BLOCK_K");
    ck_assert_int_eq(stages, json_int(v, "num_stages"));
    ck_assert_msg(stages <= (4096 + bk - 1) / bk, "%ld stages, BLOCK_K %ld", stages, bk);
    ck_assert_int_le(stages * (json_int(v, "BLOCK_M") + json_int(v, "BLOCK_N")) * bk * 2, 232448);
    for (int j = 0; j < i; j++) /* distinct tiles */
      ck_assert(!cJSON_Compare(meta, cJSON_GetArrayItem(cJSON_GetArrayItem(configs, j), 0), 1));
  }
  cJSON_Delete(doc);
  cJSON_Delete(py);
  snprintf(args, sizeof args, "prune -m h100-sxm -w triton-matmul %s", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "triton-matmul on h100-sxm: 8 of 8 configurations fit\n") == out, "%s", out);
  remove_dir();
}
END_TEST

/* The kernel's own keys: --key VAR=KEY renames a variable, NEWKEY=INTEGER
 * adds a constant, and the fragment says how prune reads them back; a
 * small K caps the stages at its iterations (K 64, BLOCK_K 16: 4); keys
 * that would not make a config are refused. */
START_TEST(test_triton_keys) {
  ck_assert_int_eq(tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --top 2 -p K=64 --key BLOCK_M=BM "
                               "--key BLOCK_N=BN,GROUP=4",
                               out, sizeof out, err, sizeof err),
                   0);
  TF_TEST_CONTAINS(out, "# read back: tilefit prune --map BM=BLOCK_M,BN=BLOCK_N\n",
                   "triton.Config({'BM': 16, 'BN': 16, 'BLOCK_K': 16, 'GROUP': 4}, num_stages=4, ");
  ck_assert_ptr_null(strstr(out, "'GROUP_SIZE_M'")); /* the key GROUP replaces it (the params line names the param) */
  ck_assert_int_eq(tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --key BLOCK_M=num_warps", out,
                               sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "'num_warps' is triton.Config's own keyword"), "%s", err);
  ck_assert_int_eq(
      tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --key BLOCK_MM=BM", out, sizeof out, err, sizeof err),
      2);
  ck_assert_msg(strstr(err, "--key: BLOCK_MM=BM: 'BLOCK_MM' is not a choose variable of triton-matmul; did you mean "
                            "'BLOCK_M'?"),
                "%s", err);
  ck_assert_int_eq(tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --key BLOCK_M=BLOCK_N", out, sizeof out,
                               err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "key 'BLOCK_N' written twice"), "%s", err);
  ck_assert_int_eq(tf_test_run("emit --for fa -m a100 -w fa2-fwd --key B_r=kBlockM", out, sizeof out, err, sizeof err),
                   2);
  ck_assert_msg(strstr(err, "--key: config keys are Triton's: only --for triton takes them"), "%s", err);
  /* GROUP_SIZE_M is a param of triton-matmul: its value is the key's, and a constant key may still set it */
  ck_assert_int_eq(tf_test_run("emit --for triton -m a100 -w triton-matmul -p GROUP_SIZE_M=4 --top 1", out, sizeof out,
                               err, sizeof err),
                   0);
  ck_assert_msg(strstr(out, "'BLOCK_SIZE_K': 16, 'GROUP_SIZE_M': 4}"), "%s", out);
  ck_assert_int_eq(tf_test_run("emit --for triton -m a100 -w triton-matmul --top 1 --key BLOCK_M=BM,GROUP_SIZE_M=2",
                               out, sizeof out, err, sizeof err),
                   0);
  ck_assert_msg(strstr(out, "'BLOCK_K': 16, 'GROUP_SIZE_M': 2}"), "%s", out);
}
END_TEST

/* A same-tile point with a worse stage count is not a second config: a
 * problem whose only tile is fixed has one. */
START_TEST(test_triton_dedupe) {
  ck_assert_int_eq(tf_test_run("emit --for triton -m h100-sxm -w triton-matmul --fix BLOCK_M=128 --fix BLOCK_N=128 "
                               "--fix BLOCK_K=64 --objective 'max num_stages' --top 3 --json",
                               out, sizeof out, err, sizeof err),
                   0);
  cJSON *doc = cJSON_Parse(out);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "answers")), 1);
  cJSON_Delete(doc);
}
END_TEST

/* Each CuTe DSL and FA4 fragment parses, and its tile and stage values are
 * the answer's. */
START_TEST(test_python_fragments) {
  static const struct {
    const char *args, *kwarg, *var, *stage_key, *stage_var;
    int index;
  } rows[] = {
      {"--for cute-dsl -m h100-sxm -w cutedsl-sm90-gemm", "tile_shape_mn", "tile_m", "ab_stage", "ab_stage", 0},
      {"--for cute-dsl -m b200 -w cutedsl-sm100-gemm -p cta_group=2", "mma_tiler_mn", "mma_n", "num_c_stage", "c_stage",
       1},
      {"--for cute-dsl -m rtx5090 -w cutedsl-sm120-gemm", "tile_shape_mnk", "tile_k", "ab_stage", "ab_stage", 2},
      {"--for fa -m b200 -w fa4-fwd -p d=64", "q_stage", "q_stage", NULL, "stages", -1},
  };
  make_dir();
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char args[1024], path[300];
    snprintf(path, sizeof path, "%s/f%zu.py", dir, i);
    snprintf(args, sizeof args, "emit %s -o %s", rows[i].args, path);
    ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
    snprintf(args, sizeof args, "emit %s --json", rows[i].args);
    ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
    cJSON *doc = cJSON_Parse(out), *py = python_values(path);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "answers"), 0), "values");
    const cJSON *kw = cJSON_GetObjectItemCaseSensitive(py, "kwargs"),
                *x = cJSON_GetObjectItemCaseSensitive(kw, rows[i].kwarg);
    ck_assert_int_eq(rows[i].index < 0 ? (long)x->valuedouble : (long)cJSON_GetArrayItem(x, rows[i].index)->valuedouble,
                     json_int(v, rows[i].var));
    long stages = rows[i].stage_key ? json_int(cJSON_GetObjectItemCaseSensitive(py, "stages"), rows[i].stage_key)
                                    : json_int(py, "kv_stage");
    ck_assert_int_eq(stages, json_int(v, rows[i].stage_var));
    cJSON_Delete(doc);
    cJSON_Delete(py);
  }
  remove_dir();
}
END_TEST

START_TEST(test_fa_traits) {
  ck_assert_int_eq(tf_test_run("emit --for fa -m a100 -w fa2-fwd", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(
      strstr(out, "using Kernel_traits = Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::half_t>;"),
      "%s", out);
  ck_assert_int_eq(tf_test_run("emit --for fa -m a100 -w fa2-fwd -p d=80", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "Flash_fwd_kernel_traits<96, "), "the padded head dim: %s", out);
  ck_assert_int_eq(tf_test_run("emit --for fa -m h100-sxm -w fa3-fwd", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "return {128, 192, true, true};\n"), "%s", out);
}
END_TEST

START_TEST(test_bad_input) {
  ck_assert_int_eq(tf_test_run("emit --for triton -m b200 -w fa4-fwd", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(
      strstr(err, "tilefit: error: --for: triton writes for the worksets triton-matmul; 'fa4-fwd' is not one"), "%s",
      err);
  ck_assert_str_eq(out, "");
  ck_assert_int_eq(tf_test_run("emit --for cutlas -m b200 -w fa4-fwd", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "did you mean 'cutlass'?"), "%s", err);
  ck_assert_int_eq(tf_test_run("emit -m b200 -w fa4-fwd", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "--for: emit needs --for"), "%s", err);
  ck_assert_int_eq(
      tf_test_run("emit --for fa -m b200 -w fa4-fwd --require 'stages >= 2000'", out, sizeof out, err, sizeof err), 1);
  ck_assert_str_eq(out, "");
}
END_TEST

Suite *emit_suite(void) {
  Suite *s = suite_create("emit");
  TCase *t = tcase_create("emit");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_cutlass_round_trip);
  tcase_add_test(t, test_cutlass_gemm);
  tcase_add_test(t, test_cutlass_names_exact);
  tcase_add_test(t, test_cutlass_name_refused);
  tcase_add_test(t, test_cutlass_sm80);
  tcase_add_test(t, test_cutlass_unnamed);
  tcase_add_test(t, test_triton_top8);
  tcase_add_test(t, test_triton_keys);
  tcase_add_test(t, test_triton_dedupe);
  tcase_add_test(t, test_python_fragments);
  tcase_add_test(t, test_fa_traits);
  tcase_add_test(t, test_bad_input);
  suite_add_tcase(s, t);
  return s;
}
