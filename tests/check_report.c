/* The writers (solver/report.h, model/core/text.h): one CSV quoting rule for
 * every command, bounded message buffers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/text.h"
#include "solver/report.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char *csv_of(const char *s) {
  tf_text t;
  tf_csv_field(tf_text_open(&t), s);
  return tf_text_close(&t, NULL);
}

START_TEST(test_csv_field_quoting) {
  static const char *const cases[][2] = {
      {"plain", "plain"},
      {"", ""},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},
      {"cr\r", "\"cr\r\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = csv_of(cases[i][0]);
    ck_assert_str_eq(got, cases[i][1]);
    free(got);
  }
}
END_TEST

START_TEST(test_strbuf_never_passes_its_end) {
  char mem[16];
  memset(mem, 'X', sizeof mem);
  tf_strbuf b = tf_strbuf_of(mem, 8); /* mem[8..15] must stay 'X' */
  for (int i = 0; i < 10; i++)
    tf_strbuf_item(&b, ", ", "v%d", i);
  ck_assert_str_eq(mem, "v0, v1,");
  ck_assert_uint_eq(b.len, 7);
  for (size_t i = 8; i < sizeof mem; i++)
    ck_assert_int_eq(mem[i], 'X');
  tf_strbuf_printf(&b, "%s", "more");
  ck_assert_uint_eq(b.len, 7);
}
END_TEST

/* The workset cell of solve --csv, check --csv and sweep's CSV: one
 * writer, the same quoting. */
START_TEST(test_csv_same_everywhere) {
  static char out[1 << 14], err[1 << 12];
  const char *want = ",\"mini, \"\"quoted\"\"\",";
  const char *runs[] = {
      "solve -m b200 -w tests/data/worksets/fa4-mini-quoted.json --csv",
      ("check -m b200 -w tests/data/worksets/fa4-mini-quoted.json --fix B_r=128 --fix B_c=64 --fix q_stage=1 "
       "--fix stages=10 --csv"),
      "sweep -q --format csv tests/data/sweep/quoted.json",
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    int rc = tf_test_run(runs[i], out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", runs[i], rc, err);
    const char *row = strchr(out, '\n');
    ck_assert_msg(row && strstr(row, want), "%s: no %s in\n%s", runs[i], want, out);
  }
}
END_TEST

/* Every format runs `args` and must contain each of `want`. */
static void all_formats_contain(const char *args, const char *const *want_text, const char *const *want_json,
                                const char *const *want_csv) {
  static char out[1 << 15], err[1 << 12];
  const char *const *wants[] = {want_text, want_json, want_csv};
  const char *flags[] = {"", " --json", " --csv"};
  for (int k = 0; k < 3; k++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s%s", args, flags[k]);
    ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, err, sizeof err), 0);
    for (const char *const *w = wants[k]; *w; w++)
      ck_assert_msg(strstr(out, *w), "'%s' lacks '%s':\n%s", cmd, *w, out);
  }
}

/* A memory a buffer is placed in is shown, though no buffer declares it:
 * the test workset's V pinned to registers puts an rf row in every format
 * (fa2-fwd and fa2-bwd declare their accumulators in rf, so they no longer
 * show this). */
START_TEST(test_placed_memory_is_shown) {
  static const char *const text[] = {"placement    V rf",
                                     "\n  rf                 32        255        223  registers/thread\n", NULL};
  static const char *const json[] = {
      "\"rf\":{\"used\":32,\"capacity\":255,\"slack\":223,\"unit\":\"registers/thread\"}", NULL};
  static const char *const csv[] = {",rf_used,rf_capacity,", ",rf,131072,166912,32,255,", NULL};
  all_formats_contain("solve -m a100 -w tests/data/worksets/placed-rf.json", text, json, csv);
}
END_TEST

/* fa2-fwd's Q placed in registers (-p q_in_regs=1 pins it, --place Q=rf
 * asks for it): the placement and the rf row, Q's 32 registers/thread on
 * top of the accumulators' 132, in every format, the same either way. */
START_TEST(test_placed_rf_every_format) {
  static const char *const text[] = {"placement    Q rf\n",
                                     "\n  rf                164        255         91  registers/thread\n", NULL};
  static const char *const json[] = {
      "\"placement\":{\"Q\":\"rf\"}",
      "\"rf\":{\"used\":164,\"capacity\":255,\"slack\":91,\"unit\":\"registers/thread\"}",
      "{\"name\":\"Q\",\"memory\":\"rf\",\"size\":32,", NULL};
  static const char *const csv[] = {",stages,place_Q,smem_used,smem_capacity,rf_used,rf_capacity,objective1,",
                                    ",64,128,1,rf,81920,232448,164,255,8192,", NULL};
  all_formats_contain("solve -m h100-sxm -w fa2-fwd -p d=128 -p q_in_regs=1", text, json, csv);
  all_formats_contain("solve -m h100-sxm -w fa2-fwd -p d=128 --place Q=rf", text, json, csv);
  static const char *const smem_csv[] = {",64,128,1,smem,81920,232448,132,255,8192,", NULL}; /* Q in smem: 132 */
  all_formats_contain("solve -m h100-sxm -w fa2-fwd -p d=128", (const char *const[]){"placement    Q smem\n", NULL},
                      (const char *const[]){"\"rf\":{\"used\":132,", NULL}, smem_csv);
}
END_TEST

/* solve --csv is a sweep's CSV line of the same problem: the same header
 * after the sweep's index and total, the same row after its index, total
 * and id (solve's id is empty).  Placement, an occupancy the objective
 * asks for, a check, an infeasible problem. */
START_TEST(test_csv_solve_is_a_sweep_line) {
  static const struct {
    const char *solve, *line;
  } cases[] = {
      {"solve -m h100-sxm -w fa2-fwd -p d=128 -p q_in_regs=1",
       "\"machine\":\"h100-sxm\",\"workset\":\"fa2-fwd\",\"params\":{\"d\":128,\"q_in_regs\":1}"},
      {"solve -m h100-sxm -w fa3-fwd -p d=128 --place Q=smem --place P=rf",
       "\"machine\":\"h100-sxm\",\"workset\":\"fa3-fwd\",\"params\":{\"d\":128},\"place\":{\"Q\":\"smem\",\"P\":"
       "\"rf\"}"},
      {"solve -m h100-sxm -w fa2-fwd -p d=256 --objective 'max occupancy' --objective 'max B_r*B_c'",
       "\"machine\":\"h100-sxm\",\"workset\":\"fa2-fwd\",\"params\":{\"d\":256},"
       "\"objective\":[\"max occupancy\",\"max B_r*B_c\"]"},
      {"check -m rtx4090 -w triton-matmul -p buffer_offset=0 --fix BLOCK_M=128 --fix BLOCK_N=128 --fix BLOCK_K=64 "
       "--fix num_stages=4",
       "\"kind\":\"fits\",\"machine\":\"rtx4090\",\"workset\":\"triton-matmul\",\"params\":{\"buffer_offset\":0},"
       "\"fix\":{\"BLOCK_M\":128,\"BLOCK_N\":128,\"BLOCK_K\":64,\"num_stages\":4}"},
      {"solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --require 'stages >= 41'",
       "\"machine\":\"b200\",\"workset\":\"fa4-fwd\",\"params\":{\"d\":128,\"dv\":128},\"require\":[\"stages >= 41\"]"},
  };
  static char solve[1 << 14], sweep[1 << 14], err[1 << 12];
  char dir[256], file[320], cmd[1024];
  tf_test_temp_dir(dir, sizeof dir, "csv-line");
  snprintf(file, sizeof file, "%s/one.jsonl", dir);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char line[1024];
    snprintf(line, sizeof line, "{\"id\":\"p\",%s}\n", cases[i].line);
    tf_test_write_text(file, line);
    snprintf(cmd, sizeof cmd, "%s --csv", cases[i].solve);
    int rc = tf_test_run(cmd, solve, sizeof solve, err, sizeof err);
    ck_assert_msg(rc == 0 || rc == 1, "%s: exit %d: %s", cmd, rc, err);
    snprintf(cmd, sizeof cmd, "sweep -q --format csv %s", file);
    ck_assert_msg(tf_test_run(cmd, sweep, sizeof sweep, err, sizeof err) == 0, "%s: %s", cmd, err);
    char *row = strchr(sweep, '\n');
    ck_assert_ptr_nonnull(row);
    ck_assert_msg(!strncmp(sweep, "index,total,", 12) && !strncmp(row + 1, "0,1,p,", 6), "%s", sweep);
    *row = 0;
    char want[sizeof sweep];
    snprintf(want, sizeof want, "%s\n,%s", sweep + 12, row + 7); /* solve's empty id */
    ck_assert_msg(!strcmp(solve, want), "%s:\n%s\nwant (the sweep's line):\n%s", cases[i].solve, solve, want);
  }
  tf_test_remove_dir(dir);
}
END_TEST

/* Capacity and slack are the ones the engine enforces: under occupancy 2
 * an H100 CTA gets 115712 B (228 KiB per SM halved, less 1 KiB reserved),
 * so fa3-fwd d=128's 114688 B leave 1024 B, not the opt-in 232448's
 * (rf_model=0: with its registers the kernel holds one CTA per SM). */
START_TEST(test_slack_at_the_occupancy) {
  static const char *const text[] = {"\n  smem           114688     115712       1024  B\n", NULL};
  static const char *const json[] = {"\"smem\":{\"used\":114688,\"capacity\":115712,\"slack\":1024,\"unit\":\"B\"}",
                                     NULL};
  static const char *const csv[] = {",114688,115712,", NULL};
  all_formats_contain("solve -m h100-sxm -w fa3-fwd -p d=128 -p rf_model=0 --domain occupancy=2", text, json, csv);
}
END_TEST

/* --explain has the same content in text and JSON: the placement part
 * (each placed buffer's memory, what it pays, why the other memory loses,
 * the roofline either way, the unmetered edges) is in both. */
START_TEST(test_explain_same_in_json) {
  static const char *const text[] = {
      "placement   P in rf\n  rf       P in rf: 44 registers/thread (235 of 255)\n"
      "  smem     P in smem: smem needs 258048 B of 232448, 25600 over\n"
      "  cycles   mma 2816, exp 1408, smem 1664 (P in smem: 2368), alu 744, cycles 3936 either way\n",
      "edges       unmetered on h100-sxm (no term in cycles): l2->smem, rf->mma, smem->smem\n", NULL};
  static const char *const json[] = {
      "{\"buffer\":\"P\",\"memory\":\"rf\",\"how\":\"chosen\",\"charged\":44,\"unit\":\"registers/thread\","
      "\"used\":235,\"capacity\":255,\"alternatives\":[{\"memory\":\"smem\",\"verdict\":\"does_not_fit\","
      "\"reason\":\"smem needs 258048 B of 232448, 25600 over\",\"violated\":{\"kind\":\"memory\",\"memory\":\"smem\","
      "\"unit\":\"B\",\"needs\":258048,\"capacity\":232448,\"over\":25600}}],\"roofline\":{\"memory\":\"smem\","
      "\"terms\":["
      "{\"name\":\"cycles(mma)\",\"value\":2816,\"moved\":2816},{\"name\":\"cycles(exp)\",\"value\":1408,"
      "\"moved\":1408},{\"name\":\"cycles(smem)\",\"value\":1664,\"moved\":2368},{\"name\":\"cycles(alu)\","
      "\"value\":744,\"moved\":744},{\"name\":\"cycles\",\"value\":3936,\"moved\":3936}]}}",
      "\"unmetered\":[\"l2->smem\",\"rf->mma\",\"smem->smem\"]", NULL};
  static const char *const csv[] = {NULL};
  all_formats_contain("solve -m h100-sxm -w fa3-fwd -p d=128 --fix B_r=128 --fix B_c=176 --fix stages=2 --explain",
                      text, json, csv);
}
END_TEST

/* Explain's JSON carries each violation's numbers beside its sentence:
 * the binding count's candidate and the memory it overflows; a capacity an
 * occupancy lowers; a require's two sides; a count at its upper bound. */
START_TEST(test_explain_numbers_in_json) {
  static const char *const gemm[] = {
      "{\"variable\":\"stages\",\"reason\":\"stages = 5: smem needs 279632 B of 232448, 47184 over\","
      "\"candidate\":5,\"violated\":{\"kind\":\"memory\",\"memory\":\"smem\",\"unit\":\"B\",\"needs\":279632,"
      "\"capacity\":232448,\"over\":47184}}",
      NULL};
  static const char *const none[] = {NULL};
  all_formats_contain(
      "solve -m h100-sxm -w cutlass-sm90-gemm -p epilogue_bytes=33792 --fix tile_m=128 --fix tile_n=256 "
      "--fix tile_k=64 --explain",
      none, gemm, none);
  static const char *const occ[] = {"\"violated\":{\"kind\":\"memory\",\"memory\":\"smem\",\"unit\":\"B\","
                                    "\"needs\":135168,\"capacity\":115712,\"over\":19456,\"occupancy\":2}",
                                    NULL};
  all_formats_contain("solve -m h100-sxm -w fa3-fwd -p d=128 -p rf_model=0 --domain occupancy=2 --explain", none, occ,
                      none);
  static const char *const req[] = {"\"candidate\":4,\"violated\":{\"kind\":\"require\",\"require\":\"stages <= 3\","
                                    "\"lhs\":4,\"rhs\":3}",
                                    NULL};
  all_formats_contain(
      "solve -m h100-sxm -w cutlass-sm90-gemm -p epilogue_bytes=33792 --fix tile_m=128 --fix tile_n=256 "
      "--fix tile_k=64 --require \"stages <= 3\" --explain",
      none, req, none);
}
END_TEST

/* A workset's shown lets (model/input/show.h) are in the text and the JSON of
 * an answer (CSV: shown_NAME columns), and of prune's entries, whose text names the rule; the
 * machine constants cc and gfx read the arch. */
START_TEST(test_shown_lets) {
  static const char *const text[] = {"  B            128\nshown        arch_cc 90, arch_gfx 0, twice 256\n", NULL};
  static const char *const json[] = {"\"shown\":{\"arch_cc\":90,\"arch_gfx\":0,\"twice\":256}", NULL};
  static const char *const none[] = {NULL};
  static const char *const csv[] = {",B,shown_arch_cc,shown_arch_gfx,shown_twice,smem_used,", ",128,90,0,256,128,",
                                    NULL};
  all_formats_contain("solve -m h100-sxm -w tests/data/show/arch.json", text, json, csv);
  static const char *const amd[] = {"shown        arch_cc 0, arch_gfx 942, twice 256\n", NULL};
  all_formats_contain("solve -m mi300x -w tests/data/show/arch.json", amd, none, none);
  static const char *const prune_text[] = {"arch-numbers on b300: 1 of 1 configurations fit\n"
                                           "rule: the test's rule: a buffer of B bytes\n",
                                           "arch_cc 103, arch_gfx 0, twice 128  {\"B\": 64}\n", NULL};
  static const char *const prune_json[] = {"\"rule\":\"the test's rule: a buffer of B bytes\"",
                                           "\"shown\":{\"arch_cc\":103,\"arch_gfx\":0,\"twice\":128}", NULL};
  static const char *const prune_csv[] = {",fits,machine,workset,status,rank,objectives,B,shown_arch_cc,",
                                          ",64,103,0,128,64,", NULL};
  all_formats_contain("prune -m b300 -w tests/data/show/arch.json tests/data/show/configs.jsonl", prune_text,
                      prune_json, prune_csv);
}
END_TEST

Suite *report_suite(void) {
  Suite *s = suite_create("report");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_csv_field_quoting);
  tcase_add_test(tc, test_strbuf_never_passes_its_end);
  tcase_add_test(tc, test_csv_same_everywhere);
  tcase_add_test(tc, test_placed_memory_is_shown);
  tcase_add_test(tc, test_placed_rf_every_format);
  tcase_add_test(tc, test_csv_solve_is_a_sweep_line);
  tcase_add_test(tc, test_slack_at_the_occupancy);
  tcase_add_test(tc, test_explain_same_in_json);
  tcase_add_test(tc, test_explain_numbers_in_json);
  tcase_add_test(tc, test_shown_lets);
  suite_add_tcase(s, tc);
  return s;
}
