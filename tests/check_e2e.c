/* End to end: the built binary (TILEFIT_BIN) on the shipped machines and
 * worksets, checking exit codes, stdout and stderr as a user sees them. */
#include <check.h>
#include <stdio.h>
#include <string.h>

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

#define SM90 "solve -m h100-sxm -w cutlass-sm90-gemm -p a_bits=16 -p b_bits=16 --fix tile_m=128 --fix tile_n=128 --fix tile_k=64 --objective 'max stages' --csv"

START_TEST(test_sm90_stages) {
  static const struct {
    int epilogue, stages;
  } want[] = {{33792, 6}, {67584, 5}, {0, 7}, {17408, 6}};
  char args[512];
  snprintf(args, sizeof args, SM90 " -p epilogue_bytes=%d", want[_i].epilogue);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  char row[64];
  snprintf(row, sizeof row, ",128,128,64,%d,", want[_i].stages);
  ck_assert_msg(strstr(out, row), "epilogue %d: want '%s' in\n%s", want[_i].epilogue, row, out);
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
  int rc = tf_test_run("solve -m b200 -w fa4-fwd -p d=128 --fix B_c=128 --require 'stages >= 40'", out, sizeof out,
                       err, sizeof err);
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

Suite *e2e_suite(void) {
  Suite *s = suite_create("e2e");
  TCase *tc = tcase_create("Binary");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_fa4_d128);
  tcase_add_test(tc, test_fa4_d64);
  tcase_add_loop_test(tc, test_sm90_stages, 0, 4);
  tcase_add_test(tc, test_check_one_over);
  tcase_add_test(tc, test_issue_2591);
  tcase_add_test(tc, test_errors_on_stderr_only);
  tcase_add_test(tc, test_infeasible_exit);
  suite_add_tcase(s, tc);
  TCase *free_tile = tcase_create("Free tiles");
  tcase_set_timeout(free_tile, 120);
  tcase_add_loop_test(free_tile, test_free_tile_equals_oracle, 0, 2);
  suite_add_tcase(s, free_tile);
  return s;
}
