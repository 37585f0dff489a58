/* The output contract, end to end on the built binary: every --json is one
 * JSON document and every object in it says its schema; --explain is in
 * the JSON; an infeasible --csv has its row; -o writes the file whole or
 * not at all; '-' reads standard input; machines side by side,
 * --unconfirmed and the source keys resolving in machines/SOURCES.md.
 * The schema file itself is validated against real outputs by
 * tests/schema/validate.py (make check-schema). */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/core/json.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 20], out2[1 << 20], err[1 << 14];

#define FA4 "solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 "
/* what follows runs in a subshell whose own stdin is a pipe */
#define PIPE(cmd, into) "--version >/dev/null && (" cmd " | $TILEFIT_BIN " into ")"

static cJSON *parse(const char *text) {
  cJSON *j = cJSON_Parse(text);
  ck_assert_msg(j != NULL, "not one JSON document:\n%.2000s", text);
  return j;
}

static int has_schema(const cJSON *o) {
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "schema");
  return cJSON_IsString(s) && !strcmp(s->valuestring, "tilefit/1");
}

START_TEST(test_top_json_is_one_array) {
  ck_assert_int_eq(
      tf_test_run("solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --top 3 --json", out, sizeof out, err, sizeof err), 0);
  cJSON *j = parse(out);
  ck_assert(cJSON_IsArray(j));
  ck_assert_int_eq(cJSON_GetArraySize(j), 3);
  for (int i = 0; i < 3; i++) {
    const cJSON *a = cJSON_GetArrayItem(j, i);
    ck_assert(has_schema(a));
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(a, "rank")->valueint, i + 1);
  }
  cJSON_Delete(j);
  /* --jsonl keeps one object per line */
  ck_assert_int_eq(
      tf_test_run("solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --top 3 --jsonl", out, sizeof out, err, sizeof err), 0);
  int lines = 0;
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
    cJSON *o = parse(line);
    ck_assert(has_schema(o));
    cJSON_Delete(o);
  }
  ck_assert_int_eq(lines, 3);
}
END_TEST

START_TEST(test_explain_in_json) {
  ck_assert_int_eq(tf_test_run(FA4 "--objective 'max stages' --explain --json", out, sizeof out, err, sizeof err), 0);
  cJSON *j = parse(out);
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "explain");
  ck_assert_ptr_nonnull(e);
  const cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "binding"), 0);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(b, "variable")->valuestring, "stages");
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(b, "reason")->valuestring,
                   "stages = 4: smem needs 265216 B of 232448, 32768 over");
  const cJSON *l = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "levels"), 0);
  ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(l, "value")->valueint, 3);
  const cJSON *nb = cJSON_GetObjectItemCaseSensitive(l, "next_better");
  ck_assert_int_eq(
      cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(nb, "changes"), "stages")->valueint, 4);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(nb, "violation")->valuestring,
                   "smem needs 265216 B of 232448, 32768 over");
  cJSON_Delete(j);
  /* the same words as the text --explain prints */
  ck_assert_int_eq(tf_test_run(FA4 "--objective 'max stages' --explain", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "next better is stages = 4 (4): smem needs 265216 B of 232448, 32768 over\n"), "%s", out);
}
END_TEST

START_TEST(test_infeasible_rows) {
  const char *base = "solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --require 'stages >= 400'";
  char args[512];
  snprintf(args, sizeof args, "%s --csv", base);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 1);
  char *row = strchr(out, '\n');
  ck_assert_ptr_nonnull(row);
  ck_assert_msg(!strncmp(row - 7, ",reason\n", 8), "%s", out);
  ck_assert_msg(strstr(row, ",b200,fa4-fwd,infeasible,") && strstr(row, "violates 'stages >= 400'"), "%s", out);
  ck_assert_msg(strstr(err, "tilefit: infeasible: "), "%s", err);
  snprintf(args, sizeof args, "%s --json", base);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 1);
  cJSON *j = parse(out);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "infeasible");
  ck_assert(strstr(cJSON_GetObjectItemCaseSensitive(j, "reason")->valuestring, "violates 'stages >= 400'"));
  cJSON_Delete(j);
  snprintf(args, sizeof args, "%s --top 2 --json", base);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 1);
  j = parse(out);
  ck_assert(cJSON_IsArray(j) && cJSON_GetArraySize(j) == 1);
  cJSON_Delete(j);
}
END_TEST

/* -o: the bytes standard output would get, in a file; nothing on stdout;
 * on bad input no file at all. */
START_TEST(test_output_file_whole) {
  static const char *const cmds[] = {
      FA4 "--json",
      "check -m b200 -w fa4-fwd -p d=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --fix stages=3",
      "validate tests/data/validate/triton.jsonl",
      "machines b200 h100-sxm",
      "worksets fa4-fwd",
      "machines --unconfirmed --json"};
  char path[256], args[1024];
  tf_test_temp_dir(path, sizeof path, "tf-contract");
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    ck_assert_int_eq(tf_test_run(cmds[i], out, sizeof out, err, sizeof err), 0);
    snprintf(args, sizeof args, "%s -o %s/out", cmds[i], path);
    ck_assert_int_eq(tf_test_run(args, out2, sizeof out2, err, sizeof err), 0);
    ck_assert_str_eq(out2, "");
    snprintf(args, sizeof args, "%s/out", path);
    size_t len;
    tf_error e;
    tf_error_init(&e);
    char *file = tf_read_file(args, &len, &e);
    ck_assert_ptr_nonnull(file);
    ck_assert_str_eq(file, out);
    free(file);
    unlink(args);
  }
  snprintf(args, sizeof args, "solve -m b200 -w fa4fwd -o %s/bad", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  snprintf(args, sizeof args, "%s/bad", path);
  ck_assert_int_ne(access(args, F_OK), 0);
  ck_assert_int_eq(rmdir(path), 0); /* empty: no temporary file left behind either */
}
END_TEST

START_TEST(test_stdin) {
  ck_assert_int_eq(tf_test_run(FA4, out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(tf_test_run(PIPE("cat machines/b200.json", FA4 "-m -"), out2, sizeof out2, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "-m: given twice"), "%s", err); /* FA4 already names -m */
  ck_assert_int_eq(tf_test_run(PIPE("cat machines/b200.json",
                                    "solve -m - -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix "
                                    "q_stage=2"),
                               out2, sizeof out2, err, sizeof err),
                   0);
  ck_assert_str_eq(out2, out);
  ck_assert_int_eq(tf_test_run("validate tests/data/validate/triton.jsonl", out, sizeof out, err, sizeof err), 0);
  ck_assert_int_eq(
      tf_test_run(PIPE("cat tests/data/validate/triton.jsonl", "validate -"), out2, sizeof out2, err, sizeof err), 0);
  ck_assert_str_eq(out2, out);
  ck_assert_int_eq(tf_test_run(PIPE("echo '{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"]}'", "sweep - -q"),
                               out, sizeof out, err, sizeof err),
                   0);
  ck_assert_msg(!strncmp(out, "{\"index\":0,\"total\":1,\"id\":\"b200/fa4-fwd\",\"schema\":\"tilefit/1\",", 62), "%s",
                out);
}
END_TEST

START_TEST(test_validate_json_tally) {
  ck_assert_int_eq(tf_test_run("validate tests/data/validate/flashattention.jsonl", out, sizeof out, err, sizeof err),
                   0);
  char *last = out + strlen(out) - 1;
  while (last > out && last[-1] != '\n')
    last--;
  ck_assert_int_eq(
      tf_test_run("validate --json tests/data/validate/flashattention.jsonl", out2, sizeof out2, err, sizeof err), 0);
  cJSON *j = parse(out2);
  char tally[160];
  snprintf(tally, sizeof tally, "%s\n", cJSON_GetObjectItemCaseSensitive(j, "summary")->valuestring);
  ck_assert_str_eq(tally, last);
  const cJSON *cases = cJSON_GetObjectItemCaseSensitive(j, "cases");
  int n = cJSON_GetArraySize(cases);
  ck_assert_int_eq(n, cJSON_GetObjectItemCaseSensitive(j, "passed")->valueint +
                          cJSON_GetObjectItemCaseSensitive(j, "failed")->valueint +
                          cJSON_GetObjectItemCaseSensitive(j, "skipped")->valueint);
  ck_assert_int_gt(n, 10);
  cJSON_Delete(j);
}
END_TEST

START_TEST(test_machines_side_by_side) {
  ck_assert_int_eq(tf_test_run("machines b200 h100-sxm", out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "\n* sm_count  ", " 148 ", " 132\n");
  ck_assert_msg(strstr(out, "\n  smem.capacity  "), "%s", out); /* equal: not marked */
  TF_TEST_CONTAINS(out, "\n* tmem.columns  ", "512                -\n");
  ck_assert_int_eq(tf_test_run("machines --json b200 h100-sxm", out, sizeof out, err, sizeof err), 0);
  cJSON *j = parse(out);
  int fields = 0, differ = 0;
  const cJSON *f;
  cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "fields")) {
    fields++;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "values");
    int d = !cJSON_Compare(cJSON_GetArrayItem(v, 0), cJSON_GetArrayItem(v, 1), 1);
    ck_assert_int_eq(d, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "differs")));
    differ += d;
  }
  ck_assert_int_eq(
      fields,
      31); /* arch, the 29 integer fields (tmem's three, latency.hbm_clk, l2.bytes_per_clk, sustained.clock_mhz, alu.fp32_per_clk, mma_sync.rate_permille, mma_f32acc.rate_permille and kernel.fixed_ns among them), the carveouts */
  ck_assert_int_gt(differ, 5);
  cJSON_Delete(j);
  ck_assert_int_eq(tf_test_run("machines b200 nosuch", out, sizeof out, err, sizeof err), 2);
  ck_assert_str_eq(out, "");
}
END_TEST

/* --unconfirmed lists exactly the sources that say UNCONFIRMED, counted
 * here from the machine files themselves. */
START_TEST(test_unconfirmed) {
  ck_assert_int_eq(tf_test_run("machines --json", out, sizeof out, err, sizeof err), 0);
  cJSON *list = parse(out);
  int want = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(list, "machines")) {
    char path[256];
    snprintf(path, sizeof path, "machines/%s.json", cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring);
    tf_error e;
    tf_error_init(&e);
    cJSON *mj = tf_json_load(path, &e);
    ck_assert_ptr_nonnull(mj);
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(mj, "sources")) want +=
        !!strstr(s->valuestring, "UNCONFIRMED");
    cJSON_Delete(mj);
  }
  cJSON_Delete(list);
  ck_assert_int_gt(want, 0);
  ck_assert_int_eq(tf_test_run("machines --unconfirmed --json", out, sizeof out, err, sizeof err), 0);
  cJSON *j = parse(out);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "unconfirmed")), want);
  cJSON_Delete(j);
  ck_assert_int_eq(tf_test_run("machines --unconfirmed b300", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "b300           clock_mhz ") && strstr(out, "unconfirmed numbers in 1 machine\n"), "%s",
                out);
}
END_TEST

/* Every source key a machine file cites (S1, S19b, ...) has its row in
 * machines/SOURCES.md, and `machines NAME` says where that file is. */
START_TEST(test_sources_resolve) {
  tf_error e;
  tf_error_init(&e);
  size_t len;
  char *sources = tf_read_file("machines/SOURCES.md", &len, &e);
  ck_assert_ptr_nonnull(sources);
  ck_assert_int_eq(tf_test_run("--version >/dev/null && (cat machines/*.json | grep -o '\\bS[0-9][0-9]*' | sort -u)",
                               out, sizeof out, err, sizeof err),
                   0);
  int keys = 0;
  for (char *k = strtok(out, "\n"); k; k = strtok(NULL, "\n"), keys++) {
    char row[32];
    snprintf(row, sizeof row, "\n| %s |", k);
    ck_assert_msg(strstr(sources, row), "machines/SOURCES.md has no row for %s", k);
  }
  ck_assert_msg(keys > 20, "%d keys; stderr %s", keys, err);
  free(sources);
  ck_assert_int_eq(tf_test_run("machines b200", out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "(S1, S9, ...) are listed in ", "/machines/SOURCES.md\n");
}
END_TEST

Suite *contract_suite(void) {
  Suite *s = suite_create("contract");
  TCase *tc = tcase_create("Output");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_top_json_is_one_array);
  tcase_add_test(tc, test_explain_in_json);
  tcase_add_test(tc, test_infeasible_rows);
  tcase_add_test(tc, test_output_file_whole);
  tcase_add_test(tc, test_stdin);
  tcase_add_test(tc, test_validate_json_tally);
  suite_add_tcase(s, tc);
  TCase *m = tcase_create("Machines");
  tcase_set_timeout(m, 60);
  tcase_add_test(m, test_machines_side_by_side);
  tcase_add_test(m, test_unconfirmed);
  tcase_add_test(m, test_sources_resolve);
  suite_add_tcase(s, m);
  return s;
}
