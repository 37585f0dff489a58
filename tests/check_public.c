/* The installed header's opaque interface (solver/api.h, solver/api.c):
 * its reports are the command line's, infeasible and no-fit are results,
 * every failure is an error value (NULL arguments, unknown names, a short
 * buffer, an unwritable stream, memory that runs out). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "solver/api.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* b200 / fa4-fwd with d = dv = 128 and the tile fixed, as `solve` gets
 * them from -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2. */
#define FA4_ARGS "-m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2"

typedef struct opened {
  tf_machine *m;
  tf_workset *w;
  tf_request *r;
  tf_problem *p;
} opened;

static void open_fa4(opened *o, tf_error **err) {
  o->m = tf_machine_open("b200", err);
  o->w = tf_workset_open("fa4-fwd", err);
  o->r = tf_request_new(err);
  tf_request_param(o->r, "d", 128, err);
  tf_request_param(o->r, "dv", 128, err);
  tf_request_fix(o->r, "B_r", 128, err);
  tf_request_fix(o->r, "B_c", 128, err);
  tf_request_fix(o->r, "q_stage", 2, err);
}

static void close_all(opened *o) {
  tf_problem_free(o->p);
  tf_request_free(o->r);
  tf_workset_free(o->w);
  tf_machine_free(o->m);
}

static void report(const tf_result *a, int format, char *buf, size_t size) {
  tf_error *err = NULL;
  size_t len = 0;
  ck_assert_int_eq(tf_report_string(a, format, buf, size, &len, &err), 0);
  ck_assert_ptr_null(err);
  ck_assert_uint_lt(len, size);
  ck_assert_uint_eq(strlen(buf), len);
}

static void same_as_cli(const tf_result *a, int format, const char *args) {
  static char got[16384], want[16384], errbuf[4096];
  report(a, format, got, sizeof got);
  ck_assert_int_eq(tf_test_run(args, want, sizeof want, errbuf, sizeof errbuf),
                   strcmp(tf_result_status(a), "optimal") && strcmp(tf_result_status(a), "fits"));
  ck_assert_str_eq(got, want);
}

START_TEST(solve_reports_as_the_command_line) {
  tf_error *err = NULL;
  opened o;
  open_fa4(&o, &err);
  tf_request_objective(o.r, "max stages", &err);
  o.p = tf_problem_bind(o.m, o.w, o.r, &err);
  tf_result *a = tf_problem_solve(o.p, &err);
  ck_assert_ptr_null(err);
  ck_assert_str_eq(tf_machine_name(o.m), "b200");
  ck_assert_str_eq(tf_workset_name(o.w), "fa4-fwd");
  ck_assert_str_eq(tf_result_status(a), "optimal");
  ck_assert_str_eq(tf_result_reason(a), "");
  int64_t v = 0;
  ck_assert_int_eq(tf_result_value(a, "stages", &v), 0);
  ck_assert_int_eq(v, 3);
  ck_assert_int_eq(tf_result_value(a, "B_c", &v), 0);
  ck_assert_int_eq(v, 128);
  ck_assert_int_eq(tf_result_value(a, "nosuch", &v), -1);
  same_as_cli(a, TF_REPORT_TEXT, "solve " FA4_ARGS " --objective 'max stages'");
  same_as_cli(a, TF_REPORT_JSON, "solve " FA4_ARGS " --objective 'max stages' --json");
  tf_result_free(a);
  close_all(&o);
  ck_assert_str_eq(tf_version(), TF_LIBRARY_VERSION);
}
END_TEST

/* A point that does not fit and a problem with no solution are results
 * with their reasons, as check and solve print them; check with a free
 * variable is bad input. */
START_TEST(no_fit_and_infeasible_are_results) {
  tf_error *err = NULL;
  opened o;
  open_fa4(&o, &err);
  tf_request_fix(o.r, "stages", 52, &err);
  o.p = tf_problem_bind(o.m, o.w, o.r, &err);
  tf_result *a = tf_problem_check(o.p, &err);
  ck_assert_ptr_null(err);
  ck_assert_str_eq(tf_result_status(a), "does_not_fit");
  ck_assert_ptr_nonnull(strstr(tf_result_reason(a), "smem needs"));
  same_as_cli(a, TF_REPORT_TEXT, "check " FA4_ARGS " --fix stages=52");
  same_as_cli(a, TF_REPORT_JSON, "check " FA4_ARGS " --fix stages=52 --json");
  tf_result_free(a);
  close_all(&o);

  open_fa4(&o, &err);
  tf_request_require(o.r, "stages >= 400", &err);
  o.p = tf_problem_bind(o.m, o.w, o.r, &err);
  a = tf_problem_solve(o.p, &err);
  ck_assert_ptr_null(err);
  ck_assert_str_eq(tf_result_status(a), "infeasible");
  ck_assert_str_ne(tf_result_reason(a), "");
  int64_t v;
  ck_assert_int_eq(tf_result_value(a, "stages", &v), -1);
  same_as_cli(a, TF_REPORT_JSON, "solve " FA4_ARGS " --require 'stages >= 400' --json");
  tf_result_free(a);
  ck_assert_ptr_null(tf_problem_check(o.p, &err)); /* stages is free */
  ck_assert_int_eq(tf_error_status(err), 2);
  ck_assert_ptr_nonnull(strstr(tf_error_message(err), "stages"));
  tf_error_free(err);
  close_all(&o);
}
END_TEST

/* The first failure of a chain is the one kept; NULLs fail through. */
START_TEST(errors_are_values) {
  tf_error *err = NULL;
  tf_machine *m = tf_machine_open("nosuch-gpu", &err);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(err);
  tf_workset *w = tf_workset_open("fa4-fwd", &err);
  tf_problem *p = tf_problem_bind(m, w, NULL, &err);
  tf_result *a = tf_problem_solve(p, &err);
  ck_assert_ptr_null(p);
  ck_assert_ptr_null(a);
  ck_assert_int_eq(tf_report_file(a, TF_REPORT_TEXT, stdout, &err), -1);
  ck_assert_int_eq(tf_request_param(NULL, "d", 1, &err), -1);
  ck_assert_int_eq(tf_error_status(err), 2);
  ck_assert_ptr_nonnull(strstr(tf_error_message(err), "unknown machine 'nosuch-gpu'"));
  char line[512];
  tf_error_format(err, line, sizeof line);
  ck_assert_msg(!strncmp(line, "machine: unknown machine 'nosuch-gpu'", 37), "%s", line);
  tf_error_free(err);
  ck_assert_int_eq(tf_request_param(NULL, "d", 1, NULL), -1); /* err may be NULL */
  ck_assert_str_eq(tf_result_status(NULL), "");
  ck_assert_int_eq(tf_error_status(NULL), 0);

  err = NULL;
  tf_request *r = tf_request_new(&err);
  tf_request_param(r, "dd", 1, &err);
  ck_assert_ptr_null(err); /* checked when bound */
  m = tf_machine_open("b200", &err);
  ck_assert_ptr_null(tf_problem_bind(m, w, r, &err));
  ck_assert_int_eq(tf_error_status(err), 2);
  ck_assert_ptr_nonnull(strstr(tf_error_message(err), "has no param 'dd'"));
  tf_error_free(err);
  tf_request_free(r);
  tf_workset_free(w);
  tf_machine_free(m);
}
END_TEST

/* tf_report_string as snprintf: cut to the buffer, the whole length told;
 * an unknown format and an unwritable stream are errors. */
START_TEST(reports_into_short_buffers_and_bad_streams) {
  tf_error *err = NULL;
  opened o;
  open_fa4(&o, &err);
  o.p = tf_problem_bind(o.m, o.w, o.r, &err);
  tf_result *a = tf_problem_solve(o.p, &err);
  char whole[8192], cut[10];
  report(a, TF_REPORT_JSON, whole, sizeof whole);
  size_t len = 0;
  ck_assert_int_eq(tf_report_string(a, TF_REPORT_JSON, cut, sizeof cut, &len, &err), 0);
  ck_assert_uint_eq(len, strlen(whole));
  ck_assert_str_eq(cut, "{\"schema\"");
  ck_assert_int_eq(tf_report_string(a, TF_REPORT_JSON, NULL, 0, &len, &err), 0);
  ck_assert_uint_eq(len, strlen(whole));
  ck_assert_ptr_null(err);
  ck_assert_int_eq(tf_report_string(a, 7, cut, sizeof cut, &len, &err), -1);
  ck_assert_int_eq(tf_error_status(err), 2);
  tf_error_free(err);
  err = NULL;
  FILE *full = fopen("/dev/full", "w");
  if (full) {
    ck_assert_int_eq(tf_report_file(a, TF_REPORT_TEXT, full, &err), -1);
    ck_assert_int_eq(tf_error_status(err), 3);
    tf_error_free(err);
    fclose(full);
  }
  tf_result_free(a);
  close_all(&o);
}
END_TEST

/* Binding a problem whose combinations need more memory than there is:
 * NULL with status 3, and the process goes on to solve the next one. */
START_TEST(out_of_memory_is_an_error) {
#ifdef TF_TEST_ASAN
  return;
#endif
  char dir[256], path[300];
  tf_test_big_workset(dir, sizeof dir, path, sizeof path, "tf-public-oom");
  tf_error *err = NULL;
  tf_machine *m = tf_machine_open("b200", &err);
  tf_workset *w = tf_workset_open(path, &err);
  tf_request *r = tf_request_new(&err);
  ck_assert_ptr_null(err);
  struct rlimit old, low;
  ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
  low = old;
  low.rlim_cur = tf_test_vm_bytes() + (24u << 20); /* the combinations alone need more */
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &low), 0);
  tf_problem *p = tf_problem_bind(m, w, r, &err);
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
  ck_assert_ptr_null(p);
  ck_assert_int_eq(tf_error_status(err), 3);
  ck_assert_str_eq(tf_error_message(err), "out of memory");
  tf_error_free(err);
  err = NULL;
  tf_workset_free(w);
  opened o;
  open_fa4(&o, &err);
  o.p = tf_problem_bind(o.m, o.w, o.r, &err);
  tf_result *a = tf_problem_solve(o.p, &err);
  ck_assert_str_eq(tf_result_status(a), "optimal");
  tf_result_free(a);
  close_all(&o);
  tf_request_free(r);
  tf_machine_free(m);
  tf_test_remove_dir(dir);
}
END_TEST

Suite *public_suite(void) {
  Suite *s = suite_create("public");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, solve_reports_as_the_command_line);
  tcase_add_test(tc, no_fit_and_infeasible_are_results);
  tcase_add_test(tc, errors_are_values);
  tcase_add_test(tc, reports_into_short_buffers_and_bad_streams);
  tcase_add_test(tc, out_of_memory_is_an_error);
  suite_add_tcase(s, tc);
  return s;
}
