/* Measured validation cases (solver/measured.h): the reader's errors, and
 * a fixture whose numbers were worked out by hand
 * (tests/data/measured-fixture/toy.jsonl on tests/data/worksets/measured-toy.json,
 * time_ns = 100 |x - 2| + 100):
 *   group A, measured x1 400 ns < x3 404 < x2 480 < x4 1200; predicted
 *     200, 200, 100, 300.  Pairs 5 % apart: x1-x2 wrong, x1-x4 right,
 *     x3-x2 wrong, x3-x4 right, x2-x4 right (x1-x3 is 1 % apart: not
 *     counted; a model tie).  The best, x1 at 200, has x2 faster and x3
 *     tied in the whole space: rank 3.
 *   group B, relative times 1.0 and 1.0 (a measured tie) at x2, x4; the
 *     best (x2, the first of the tie) is the model's fastest: rank 1.
 *   group C, x5 (outside the domain: fixed all the same, 400 ns against
 *     1 us: ratio 0.4), x6 (fails the require: does not fit), and a point
 *     with a param the workset does not take (not representable); the
 *     best, x5, is outside the space.
 *   Pooled over the 7 pairs: 3 concordant, 2 discordant, 1 tied in
 *   measured time, 1 in the model: tau-b = 1 / sqrt(6 x 6) = 0.167.
 *   Ratios 0.5, 0.208, 0.495, 0.25, 0.4: median 0.4. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 16], err[4096];
#define TOY "tests/data/measured-fixture/toy.jsonl"

START_TEST(test_fixture_text) {
  int rc = tf_test_run("validate " TOY, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  static const char *const want[] = {
      "pairs at least 5% apart in measured time: 3 right, 2 wrong, 0 tied by the model\n",
      "Kendall tau-b pooled over groups: +0.167 (7 pairs; 1 tied in measured time, 1 in the model)\n",
      ("measured best strictly in the model's top 3: 2 of 2 groups of several configurations (top 1: 1); 2 of 3 "
       "groups (top 1: 1)\n"), /* one string: the parentheses tell clang so */
      "measured: 9 points in 3 groups; 1 not representable, 1 do not fit\n",
      "  measured best: rank 3 of the model's whole space (1 faster, 1 tied; x free)\n",
      "  measured best: rank 1 of the model's whole space (0 faster, 0 tied; x free)\n",
      "  measured best: outside the model's space (x free",
      "      5   0.400   0.208   0.500\n",
      "x = 5 is outside measured-toy's domain (fixed all the same)",
      "measured-toy takes no param 'nosuch'",
      "0 passed, 0 failed, 0 skipped, 9 measured\n",
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    ck_assert_msg(strstr(out, want[i]), "missing '%s' in:\n%s", want[i], out);
  /* group A in measured order: x1, x3, x2, x4 */
  const char *a1 = strstr(out, "   1  a-x1"), *a2 = strstr(out, "   2  a-x3"), *a3 = strstr(out, "   3  a-x2"),
             *a4 = strstr(out, "   4  a-x4");
  ck_assert_msg(a1 && a2 && a3 && a4 && a1 < a2 && a2 < a3 && a3 < a4, "%s", out);
}
END_TEST

static const cJSON *at(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  ck_assert_msg(v != NULL, "no '%s'", key);
  return v;
}

static void group_rank(const cJSON *g, const char *name, int rank, int faster, int tied) {
  ck_assert_str_eq(at(g, "group")->valuestring, name);
  if (rank < 0) {
    ck_assert(cJSON_IsNull(at(g, "rank")));
    ck_assert(cJSON_IsFalse(at(g, "in_space")));
    return;
  }
  ck_assert_int_eq(at(g, "rank")->valueint, rank);
  ck_assert_int_eq(at(g, "faster")->valueint, faster);
  ck_assert_int_eq(at(g, "tied")->valueint, tied);
}

START_TEST(test_fixture_json) {
  int rc = tf_test_run("validate --json " TOY, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  cJSON *doc = cJSON_Parse(out);
  ck_assert_ptr_nonnull(doc);
  const cJSON *m = at(doc, "measured"), *t = at(m, "totals"), *g = at(m, "groups");
  static const char *const keys[] = {"points", "groups", "unrepresentable", "no_fit",     "right",   "wrong",
                                     "tied",   "pairs",  "ties_measured",   "ties_model", "several", "top1",
                                     "top3",   "ranked"};
  static const int want[] = {9, 3, 1, 1, 3, 2, 0, 7, 1, 1, 2, 1, 2, 3};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    ck_assert_msg(at(t, keys[i])->valueint == want[i], "%s = %d", keys[i], at(t, keys[i])->valueint);
  ck_assert_double_eq_tol(at(t, "tau_b")->valuedouble, 0.167, 1e-9);
  group_rank(cJSON_GetArrayItem(g, 0), "A", 3, 1, 1);
  group_rank(cJSON_GetArrayItem(g, 1), "B", 1, 0, 0);
  group_rank(cJSON_GetArrayItem(g, 2), "C", -1, 0, 0);
  const cJSON *pts = at(cJSON_GetArrayItem(g, 0), "points");
  static const char *const order[] = {"a-x1", "a-x3", "a-x2", "a-x4"};
  static const int predicted[] = {200, 200, 100, 300};
  for (int i = 0; i < 4; i++) {
    ck_assert_str_eq(at(cJSON_GetArrayItem(pts, i), "id")->valuestring, order[i]);
    ck_assert_int_eq(at(cJSON_GetArrayItem(pts, i), "predicted_ns")->valueint, predicted[i]);
  }
  const cJSON *f = cJSON_GetArrayItem(at(m, "families"), 0);
  ck_assert_int_eq(at(f, "points")->valueint, 5);
  ck_assert_double_eq_tol(at(f, "median")->valuedouble, 0.4, 1e-9);
  ck_assert_double_eq_tol(at(f, "min")->valuedouble, 0.208, 1e-9);
  ck_assert_int_eq(at(doc, "measured_cases")->valueint, 9);
  cJSON_Delete(doc);
}
END_TEST

/* Bad measured lines: exit 2, one line naming the file, line and path,
 * nothing on stdout. */
static const struct {
  const char *file, *want;
} bad[] = {
    {"measured-bad-field", "measured-bad-field.jsonl: line 1: $.measured.tflop: expected tflops, time_ms or "
                           "relative_time; did you mean 'tflops'?"},
    {"measured-bad-provenance", "line 1: $.provenance: expected text, code-comment, figure-transcription or "
                                "secondary; did you mean 'text'?"},
    {"measured-no-group", "line 1: $: missing required key 'group'"},
    {"measured-group-mixed",
     "measured-group-mixed.jsonl: line 2: $.group: group 'g' is a100 "
     "tests/data/worksets/measured-toy.json (tests/data/validate-fail/measured-group-mixed.jsonl "
     "line 1), this point a100 fa2-fwd"},
    {"measured-relative-alone", "line 2: $.measured.relative_time: group 'h' has no other point to compare a "
                                "relative time with"},
    {"measured-expect", "line 1: $: a measured line has no 'expect'"},
};

START_TEST(test_reader_errors) {
  char args[200];
  snprintf(args, sizeof args, "validate tests/data/validate-fail/%s.jsonl", bad[_i].file);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 2, "%s: exit %d", bad[_i].file, rc);
  ck_assert_msg(strstr(err, bad[_i].want), "%s: %s", bad[_i].file, err);
  ck_assert_msg(!strchr(err, '\n') || strchr(err, '\n') == err + strlen(err) - 1, "one line: %s", err);
  ck_assert_str_eq(out, "");
}
END_TEST

/* Every shipped measurement is read and reported: one row each, counted
 * as measured, none failed. */
START_TEST(test_shipped) {
  static char big[1 << 20];
  int rc = tf_test_run("validate tests/data/measured/*.jsonl", big, sizeof big, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  FILE *f = popen("cat tests/data/measured/*.jsonl | grep -c .", "r");
  int lines = 0;
  ck_assert(f && fscanf(f, "%d", &lines) == 1);
  pclose(f);
  char want[64];
  snprintf(want, sizeof want, "0 passed, 0 failed, 0 skipped, %d measured\n", lines);
  ck_assert_msg(strstr(big, want), "no '%s'", want);
  int rows = 0; /* a row per point: "measured ID ..." (not the totals' "measured best ...") */
  for (const char *p = big; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    rows += !strncmp(p, "measured ", 9) && strncmp(p, "measured best ", 14);
  ck_assert_int_eq(rows, lines);
}
END_TEST

Suite *measured_suite(void) {
  Suite *s = suite_create("measured");
  TCase *tc = tcase_create("Measured");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_fixture_text);
  tcase_add_test(tc, test_fixture_json);
  tcase_add_loop_test(tc, test_reader_errors, 0, sizeof bad / sizeof *bad);
  tcase_add_test(tc, test_shipped);
  suite_add_tcase(s, tc);
  return s;
}
