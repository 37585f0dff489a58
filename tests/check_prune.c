/* tilefit prune end to end: a Triton config list on an RTX 4090 (the
 * numbers Triton's "out of resource: shared memory" would print), --keep
 * read back, JSON, CSV, kwargs and --map, CUTLASS kernel names, and what a
 * bad list or option says. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/suites.h"
#include "tests/testutil.h"

static char out[65536], err[8192];

/* The autotune prune's estimate (buffer_offset 0: num_stages A/B buffers,
 * as early_config_prune and the Triton 2.x pipeliner size them), which a
 * public Triton issue's out-of-resources message matches byte for byte. */
#define TRITON "prune -m rtx4090 -w triton-matmul -p buffer_offset=0 tests/data/prune/triton-configs.jsonl"

START_TEST(test_triton_list) {
  ck_assert_int_eq(tf_test_run(TRITON, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "triton-matmul on rtx4090: 14 of 20 configurations fit\n") == out, "%s", out);
  /* (128 + 128) x 64 x 4 stages x 2 bytes: Triton's "Required: 131072, Hardware limit: 101376" */
  ck_assert_msg(strstr(out, "line 5    no fit  smem  131072 of 101376 B, 29696 over") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "line 20   fits    smem   98304 of 101376 B") != NULL, "%s", out);
  ck_assert_ptr_null(strstr(err, "ignored keys")); /* num_warps is a param: it decides the MMA path */
}
END_TEST

/* The default: the shared memory the config compiles to on its target
 * (triton-matmul's comment cites the Triton source lines).  sm_89 and
 * sm_80 lower the dot to mma.sync and hold num_stages - 1 A/B buffers;
 * sm_90 with wgmma (BLOCK_M a multiple of 64, num_warps a multiple of 4)
 * num_stages, and the BLOCK_M = 32 fallback num_stages - 1; gfx950 num_stages,
 * gfx942 num_stages - 1; num_stages = 1 still stages one A and one B tile;
 * the epilogue's scratch reuses the ring's space; fp8 needs sm_89. */
START_TEST(test_triton_per_target) {
  static const struct {
    const char *machine, *config, *want;
  } rows[] = {
      {"rtx4090", "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 4}",
       "fits    smem   98304 of 101376 B              mma_version 2, ab_buffers 3"},
      {"h100-sxm", "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 4}",
       "fits    smem  131072 of 232448 B              mma_version 3, ab_buffers 4"},
      {"h100-sxm", "{\"BLOCK_M\": 32, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 4}",
       "fits    smem   61440 of 232448 B              mma_version 2, ab_buffers 3"},
      {"h100-sxm", "{\"BLOCK_M\": 128, \"BLOCK_N\": 64, \"BLOCK_K\": 64, \"num_stages\": 4, \"num_warps\": 2}",
       "fits    smem   73728 of 232448 B              mma_version 2, ab_buffers 3"},
      {"mi355x", "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 4}",
       "fits    smem  131072 of 163840 B              mma_version 0, ab_buffers 4"},
      {"mi300x", "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 2}",
       "fits    smem   32768 of 65536 B              mma_version 0, ab_buffers 1"},
      {"a100", "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 1}",
       "fits    smem   32768 of 166912 B              mma_version 2, ab_buffers 0"},
      {"a100", "{\"BLOCK_M\": 256, \"BLOCK_N\": 256, \"BLOCK_K\": 16, \"num_stages\": 2, \"num_warps\": 16}",
       "fits    smem  131072 of 166912 B              mma_version 2, ab_buffers 1"},
  };
  char dir[256], file[300];
  tf_test_temp_dir(dir, sizeof dir, "prune-targets");
  snprintf(file, sizeof file, "%s/config.jsonl", dir);
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char line[512];
    snprintf(line, sizeof line, "%s\n", rows[i].config);
    tf_test_write_text(file, line);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "prune -m %s -w triton-matmul %s", rows[i].machine, file);
    ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, rows[i].want) != NULL, "%s on %s: want '%s':\n%s", rows[i].config, rows[i].machine,
                  rows[i].want, out);
    static const struct {
      const char *machine, *rule;
    } rules[] = {{"rtx4090", "rule: Triton on sm_8x/sm_12x (triton-lang/triton @ 020b1b05"},
                 {"a100", "rule: Triton on sm_8x/sm_12x (triton-lang/triton @ 020b1b05"},
                 {"h100-sxm", "rule: Triton on sm_90 (triton-lang/triton @ 020b1b05"},
                 {"mi355x", "rule: Triton on gfx950 (AMD stream pipeliner"},
                 {"mi300x", "rule: Triton on gfx942 (AMD stream pipeliner"}};
    for (size_t k = 0; k < sizeof rules / sizeof *rules; k++)
      if (!strcmp(rules[k].machine, rows[i].machine))
        ck_assert_msg(strstr(out, rules[k].rule) != NULL, "%s: want '%s':\n%s", rows[i].machine, rules[k].rule, out);
  }
  /* fp8 below sm_89 does not compile; int8 (fp8 = 0) does; the fp32 accumulator in registers:
   * 128 x 256 over 4 warps is 256 a thread, over ptxas's 255; 8 warps, 128 */
  static const struct {
    const char *args;
    int rc;
    const char *want; /* NULL: the exit status alone */
  } checks[] = {
      {"-m a100 -p dt_bits=8 --fix BLOCK_M=64 --fix BLOCK_N=64 --fix BLOCK_K=64", 1,
       "violates 'compiled == 0 || fp8 == 0 || cc == 0 || cc >= 89'"},
      {"-m a100 -p dt_bits=8 -p fp8=0 --fix BLOCK_M=64 --fix BLOCK_N=64 --fix BLOCK_K=64", 0, NULL},
      {"-m h100-sxm --fix BLOCK_M=128 --fix BLOCK_N=256 --fix BLOCK_K=64", 1,
       "does not fit: rf needs 256 registers/thread of 255, 1 over"},
      {"-m h100-sxm -p num_warps=8 --fix BLOCK_M=128 --fix BLOCK_N=256 --fix BLOCK_K=64", 0,
       "  rf                128        255        127  registers/thread"},
      {"-m h100-sxm -p rf_model=0 --fix BLOCK_M=128 --fix BLOCK_N=256 --fix BLOCK_K=64", 0, NULL},
      {"-m rtx4090 -p dt_bits=8 --fix BLOCK_M=64 --fix BLOCK_N=64 --fix BLOCK_K=64", 0, NULL},
  };
  for (size_t i = 0; i < sizeof checks / sizeof *checks; i++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "check -w triton-matmul %s --fix num_stages=3", checks[i].args);
    int rc = tf_test_run(cmd, out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == checks[i].rc, "%s: exit %d: %s", cmd, rc, err);
    ck_assert_msg(!checks[i].want || strstr(out, checks[i].want), "%s: want '%s':\n%s", cmd, checks[i].want, out);
  }
  unlink(file);
  rmdir(dir);
}
END_TEST

START_TEST(test_keep_reads_back) {
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           TRITON " --keep > build/prune-kept.jsonl && $TILEFIT_BIN prune -m rtx4090 -w triton-matmul "
                  "build/prune-kept.jsonl");
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "14 of 14 configurations fit") != NULL, "%s", out);
  /* The kept lines are the input's own lines. */
  ck_assert_int_eq(tf_test_run(TRITON " --keep", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(
      strstr(out, "{\"BLOCK_M\": 64, \"BLOCK_N\": 64, \"BLOCK_K\": 64, \"num_stages\": 6, \"num_warps\": 4}\n"), "%s",
      out);
  ck_assert_ptr_null(strstr(out, "\"BLOCK_N\": 256, \"BLOCK_K\": 64"));
}
END_TEST

START_TEST(test_json_and_csv) {
  ck_assert_int_eq(tf_test_run(TRITON " --json", out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(out[0], '[');
  int n = 0;
  for (const char *s = out; (s = strstr(s, "{\"schema\":\"tilefit/1\",\"where\":")); s++)
    n++;
  ck_assert_int_eq(n, 20);
  ck_assert_msg(strstr(out, "\"fits\":false,\"rule\":\"Triton on sm_8x/sm_12x") != NULL, "%.600s", out);
  ck_assert_msg(strstr(out, "\"machine\":\"rtx4090\"") != NULL, "%.600s", out);
  ck_assert_msg(strstr(out, "\"shown\":{\"mma_version\":2,\"ab_buffers\":3}") != NULL, "%.600s", out);
  ck_assert_int_eq(tf_test_run(TRITON " --csv", out, sizeof out, err, sizeof err), 0);
  /* the configuration's own columns, then the answer's as solve --csv has them after its id */
  ck_assert_msg(strstr(out,
                       "where,config,config_BLOCK_M,config_BLOCK_N,config_BLOCK_K,config_num_stages,config_num_warps,"
                       "fits,machine,workset,status,rank,objectives,param_dt_bits,") == out,
                "%.300s", out);
  ck_assert_msg(strstr(out, ",param_M,param_N,param_K,param_GROUP_SIZE_M,BLOCK_M,BLOCK_N,BLOCK_K,num_stages,"
                            "shown_mma_version,shown_ab_buffers,smem_used,smem_capacity,rf_used,rf_capacity,objective1,"
                            "closed_num_stages,closed_num_stages_agrees,"
                            "reason\n"),
                "%.600s", out);
  ck_assert_msg(strstr(out, "\nline 5,\"{\"\"BLOCK_M\"\": 128,") != NULL, "%.300s", out);
  ck_assert_msg(
      strstr(out,
             ",128,128,64,4,4,no,rtx4090,triton-matmul,does_not_fit,,,16,16,4,0,0,1,4096,4096,4096,8,128,128,64,4,2,4,"
             "131072,101376,") != NULL,
      "%.3000s", out);
  ck_assert_msg(strstr(out, ",\"smem needs 131072 B of 101376, 29696 over\"\n") != NULL, "%.3000s", out);
  char solve[1 << 12]; /* line 5 as check --csv writes it: the same cells after the id */
  ck_assert_int_eq(tf_test_run("check -m rtx4090 -w triton-matmul -p buffer_offset=0 -p num_warps=4 --fix BLOCK_M=128 "
                               "--fix BLOCK_N=128 --fix BLOCK_K=64 --fix num_stages=4 --csv",
                               solve, sizeof solve, err, sizeof err),
                   1);
  char *row = strchr(solve, '\n') + 1;
  ck_assert_int_eq(row[0], ',');
  ck_assert_msg(strstr(out, row + 1) != NULL, "%s\nnot in\n%.3000s", row + 1, out);
}
END_TEST

START_TEST(test_kwargs_map_and_array_keep) {
  const char *arr = "prune -m rtx4090 -w triton-matmul -p buffer_offset=0 --map BM=BLOCK_M,BN=BLOCK_N --map BK=BLOCK_K "
                    "tests/data/prune/triton-kwargs.json";
  char cmd[512];
  ck_assert_int_eq(tf_test_run(arr, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "1 of 2 configurations fit") != NULL, "%s", out);
  snprintf(cmd, sizeof cmd, "%s --keep", arr);
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
  ck_assert_str_eq(out, "[{\"kwargs\":{\"BM\":64,\"BN\":64,\"BK\":32},\"num_stages\":3,\"num_warps\":4}]\n");
}
END_TEST

START_TEST(test_cutlass_names) {
  ck_assert_int_eq(tf_test_run("prune tests/data/prune/cutlass-names.txt", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "CUTLASS kernels: 3 of 3 fit\n") == out, "%s", out);
  ck_assert_msg(strstr(out, "stages 6   cutlass-sm90-gemm/h100-sxm") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "stages 6   cutlass-sm100-gemm/b200") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "stages 2   cutlass-sm120-gemm/rtx5090") != NULL, "%s", out);
}
END_TEST

/* One bad name is an error line with its line number; a name for another
 * architecture than -m's is skipped and counted; the older form (the
 * instruction shape in the kind) and the mangled device_kernel<NAME> read
 * as the name they carry. */
START_TEST(test_cutlass_names_per_line) {
  ck_assert_int_eq(
      tf_test_run("prune -m h100-sxm tests/data/prune/cutlass-mixed.txt", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "CUTLASS kernels: 2 of 5 fit (1 error, 1 skipped: architecture)\n") == out, "%s", out);
  ck_assert_msg(strstr(out, "  line 2    error   cutlass3x_sm90_") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "'bogus' where the name should have a kernel or epilogue schedule part") != NULL, "%s",
                out);
  ck_assert_msg(strstr(out, "  line 3    skipped cutlass3x_sm100_") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "an sm100 kernel; h100-sxm is sm_90") != NULL, "%s", out);
  /* the older form of a 128x256 Pingpong: read, and its 256 accumulator registers do not fit */
  ck_assert_msg(strstr(out, "  line 4    no fit  rf     271 of 255 registers/thread, 16 over     stages 4") != NULL,
                "%s", out);
  ck_assert_msg(strstr(out, "  line 5    fits    smem  231520 of 232448 B              stages 6") != NULL, "%s", out);
  ck_assert_int_eq(
      tf_test_run("prune -m h100-sxm tests/data/prune/cutlass-mixed.txt --json", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "\"where\":\"line 2\",\"config\":") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "\"fits\":false,\"skipped\":\"an sm100 kernel; h100-sxm is sm_90\"}") != NULL, "%s", out);
  ck_assert_msg(strstr(out, "\"fits\":false,\"error\":") != NULL, "%s", out);
}
END_TEST

static void fails(const char *args, const char *msg) {
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, msg) != NULL, "'%s' not in: %s", msg, err);
}

START_TEST(test_errors) {
  fails("prune tests/data/prune/triton-configs.jsonl", "-m: is needed");
  fails("prune -m rtx4090 tests/data/prune/triton-configs.jsonl", "-w: is needed");
  fails("prune -w cutlass-sm90-gemm tests/data/prune/cutlass-names.txt", "-w: cannot be combined with kernel names");
  fails("prune -m rtx4090 -w triton-matmul --map BM tests/data/prune/triton-kwargs.json",
        "--map: expected KEY=VARIABLE");
  fails("prune -m rtx4090 -w triton-matmul", "CONFIGS");
  fails("prune -m rtx4090 -w triton-matmul tests/data/prune/nosuch.jsonl", "nosuch.jsonl");
  fails("solve -m b200 -w fa4-fwd --keep", "--keep: unknown option for 'solve'; it is an option of 'prune'");
}
END_TEST

/* A config without num_stages or num_warps is what Triton compiles: left
 * out, triton.Config's num_stages=3, num_warps=4; None, the backend's
 * option default (CUDA 3 stages, HIP 2).  On the MI300X (num_stages - 1 LDS
 * buffers of (128 + 128) x 64 x 2 B) 3 stages take 65536 B, 2 take 32768;
 * and a --map onto a name the workset does not have is refused. */
START_TEST(test_triton_defaults) {
  char dir[256], path[300], args[512];
  tf_test_temp_dir(dir, sizeof dir, "prune-defaults");
  snprintf(path, sizeof path, "%s/defaults.jsonl", dir);
  tf_test_write_text(
      path, "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64}\n"
            "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": null, \"num_warps\": null}\n"
            "{\"BLOCK_M\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 3, \"num_warps\": 4}\n");
  snprintf(args, sizeof args, "prune -m mi300x -w triton-matmul %s", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "  line 1    fits    smem   65536 of 65536 B              mma_version 0, ab_buffers 2",
                   "  line 2    fits    smem   32768 of 65536 B              mma_version 0, ab_buffers 1",
                   "  line 3    fits    smem   65536 of 65536 B              mma_version 0, ab_buffers 2");
  snprintf(args, sizeof args, "prune -m h100-sxm -w triton-matmul %s --json", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  int n = 0;
  for (const char *s = out; (s = strstr(s, "\"BLOCK_K\":64,\"num_stages\":3}")); s++)
    n++;
  ck_assert_msg(n == 3, "%s", out); /* each at 3 stages, as Triton compiles it on CUDA */
  snprintf(args, sizeof args, "prune -m h100-sxm -w triton-matmul --map BM=BLOCK_MM %s", path);
  fails(args,
        "--map: BM=BLOCK_MM: workset 'triton-matmul' has no variable or param 'BLOCK_MM'; did you mean 'BLOCK_M'?");
  tf_test_remove_dir(dir);
}
END_TEST

/* Configurations as Triton users write them: the tutorial's BLOCK_SIZE_*
 * spellings without --map, null values (triton.Config's maxnreg: None,
 * pre_hook: None) left out, a line that does not read is an error line and
 * the list goes on (exit 2 only when no line reads), --csv has a column
 * per key. */
START_TEST(test_triton_as_written) {
  ck_assert_int_eq(tf_test_run("prune -m rtx4090 -w triton-matmul tests/data/prune/bad-config.jsonl", out, sizeof out,
                               err, sizeof err),
                   0);
  ck_assert_msg(strstr(out, "triton-matmul on rtx4090: 1 of 2 configurations fit (1 error)\n") == out, "%s", out);
  TF_TEST_CONTAINS(out, "  line 2    error   ", "line 2: $.BLOCK_N: expected an integer, got 6.5");
  ck_assert_int_eq(tf_test_run("prune -m h100-sxm -w triton-matmul tests/data/prune/triton-tutorial.jsonl", out,
                               sizeof out, err, sizeof err),
                   0);
  ck_assert_msg(strstr(out, "triton-matmul on h100-sxm: 4 of 4 configurations fit\n") == out, "%s", out);
  ck_assert_msg(strstr(out, "  line 1    fits    smem  147456 of 232448 B") != NULL, "%s", out);
  /* line 3's num_stages: None compiles at CUDAOptions' 3: wgmma's 3 buffers of 12288 B */
  ck_assert_msg(strstr(out, "  line 3    fits    smem   49152 of 232448 B              mma_version 3, ab_buffers 3") !=
                    NULL,
                "%s", out);
  ck_assert_msg(strstr(err, "ignored keys that name no variable or param of triton-matmul: num_ctas\n") != NULL, "%s",
                err);
  ck_assert_ptr_null(strstr(err, "maxnreg"));
  ck_assert_ptr_null(strstr(err, "BLOCK_SIZE"));
  ck_assert_int_eq(tf_test_run("prune -m h100-sxm -w triton-matmul tests/data/prune/triton-tutorial.jsonl --csv", out,
                               sizeof out, err, sizeof err),
                   0);
  ck_assert_msg(strstr(out,
                       "where,config,config_BLOCK_SIZE_M,config_BLOCK_SIZE_N,config_BLOCK_SIZE_K,config_GROUP_SIZE_M,"
                       "config_num_stages,config_num_warps,config_num_ctas,fits,") == out,
                "%.300s", out);
  ck_assert_msg(strstr(out, ",128,256,64,8,3,8,1,yes,h100-sxm,") != NULL, "%.3000s", out);
  ck_assert_msg(strstr(out, ",128,128,32,8,,4,1,yes,h100-sxm,triton-matmul,fits,") != NULL, "%.3000s",
                out); /* line 3 */
  fails("prune -m rtx4090 -w triton-matmul tests/data/prune/all-bad.jsonl", "line 1: $.BLOCK_N");
  /* a torn last line: its position in the file, once (not "line 2: line 1, column 26") */
  ck_assert_int_eq(
      tf_test_run("prune -m rtx4090 -w triton-matmul tests/data/prune/torn.jsonl", out, sizeof out, err, sizeof err),
      0);
  ck_assert_msg(
      strstr(out, "tests/data/prune/torn.jsonl: line 2, column 26: malformed JSON (unexpected end of input)\n"), "%s",
      out);
  ck_assert_ptr_null(strstr(out, "line 1, column"));
}
END_TEST

Suite *prune_suite(void) {
  Suite *s = suite_create("prune");
  TCase *tc = tcase_create("prune");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_triton_list);
  tcase_add_test(tc, test_triton_per_target);
  tcase_add_test(tc, test_keep_reads_back);
  tcase_add_test(tc, test_json_and_csv);
  tcase_add_test(tc, test_kwargs_map_and_array_keep);
  tcase_add_test(tc, test_cutlass_names);
  tcase_add_test(tc, test_cutlass_names_per_line);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_triton_as_written);
  tcase_add_test(tc, test_triton_defaults);
  suite_add_tcase(s, tc);
  return s;
}
