/* model/core/suggest: the edit distance and the one nearest name. */
#include <check.h>

#include "model/core/suggest.h"
#include "tests/suites.h"

START_TEST(test_distance) {
  static const struct {
    const char *a, *b;
    int d;
  } rows[] = {
      {"solve", "solve", 0},   {"slove", "solve", 1}, /* a swap is one edit */
      {"jsno", "json", 1},     {"fa4fwd", "fa4-fwd", 1}, {"num_stage", "num_stages", 1},
      {"", "ab", 2},           {"abc", "xyz", 3}, /* counted up to 3 */
      {"b200", "h100-sxm", 3}, {"ca", "abc", 3},  /* optimal string alignment, not full Damerau */
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    ck_assert_msg(tf_edit_distance(rows[i].a, rows[i].b) == rows[i].d, "%s %s: %d", rows[i].a, rows[i].b,
                  tf_edit_distance(rows[i].a, rows[i].b));
    ck_assert_int_eq(tf_edit_distance(rows[i].b, rows[i].a), rows[i].d);
  }
}
END_TEST

START_TEST(test_suggest) {
  const char *const commands[] = {"solve", "check", "machines", "worksets", "validate", "sweep", "merge", NULL};
  ck_assert_str_eq(tf_suggest("slove", commands, 8), "solve");
  ck_assert_str_eq(tf_suggest("machnies", commands, 8), "machines");
  ck_assert_ptr_null(tf_suggest("frobnicate", commands, 8));
  ck_assert_ptr_null(tf_suggest("solve", commands, 8)); /* the word itself is no suggestion */
  const char *const params[] = {"d", "dv", "in_bits"};
  ck_assert_ptr_null(tf_suggest("dd", params, 3)); /* d and dv are both one away: no unique best */
  ck_assert_str_eq(tf_suggest("dvv", params, 3), "dv");
  ck_assert_ptr_null(tf_suggest("x", params, 3)); /* one edit is the whole word */
  const char *const dup[] = {"fa4-fwd", "fa4-fwd"};
  ck_assert_str_eq(tf_suggest("fa4fwd", dup, 2), "fa4-fwd"); /* a name listed twice is one name */
}
END_TEST

Suite *suggest_suite(void) {
  Suite *s = suite_create("suggest");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_distance);
  tcase_add_test(tc, test_suggest);
  suite_add_tcase(s, tc);
  return s;
}
