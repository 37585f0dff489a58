/* solver/run: loading and binding a request (errors where the front end
 * says, the architecture check without the command line's hint) and its
 * answers, one or the K best ranked, or none that fits. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/input/request.h"
#include "solver/run.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static void request(tf_request *r, const char *machine, const char *workset) {
  tf_request_init(r);
  r->machine = strdup(machine);
  r->workset = strdup(workset);
}

START_TEST(test_bind_errors_name_the_front_end) {
  tf_request r;
  tf_run run;
  tf_error err;
  request(&r, "b2000", "fa4-fwd");
  tf_error_init(&err);
  ck_assert_int_eq(tf_run_bind(&r, "$.machine", "$.workset", NULL, 0, &run, &err), -1);
  ck_assert_str_eq(err.path, "$.machine");
  ck_assert_ptr_null(run.problem);
  tf_run_release(&run);
  tf_request_release(&r);
  /* a workset for another architecture: an error at arch_where, about
   * any_arch, which each front end spells (no command-line hint) */
  request(&r, "a100", "fa4-fwd");
  tf_error_init(&err);
  ck_assert_int_eq(tf_run_bind(&r, "-m", "-w", "$.any_arch", 0, &run, &err), -1);
  ck_assert_str_eq(err.path, "$.any_arch");
  ck_assert_str_eq(err.at, "any_arch");
  ck_assert_ptr_null(strstr(err.msg, "--any-arch"));
  tf_run_release(&run);
  /* without arch_where, binding itself refuses it at the workset's $.arch */
  tf_error_init(&err);
  ck_assert_int_eq(tf_run_bind(&r, "-m", "-w", NULL, 0, &run, &err), -1);
  ck_assert_str_eq(err.path, "$.arch");
  ck_assert_str_eq(err.at, "any_arch");
  ck_assert_ptr_null(strstr(err.msg, "--any-arch"));
  tf_run_release(&run);
  tf_request_release(&r);
}
END_TEST

START_TEST(test_solve_one_and_top) {
  tf_request r;
  tf_run run;
  tf_error err;
  tf_solve_opts o;
  tf_ranked a;
  request(&r, "b200", "fa4-fwd");
  tf_request_add_param(&r, "d", 128, "-p");
  tf_error_init(&err);
  tf_solve_opts_init(&o);
  ck_assert_int_eq(tf_run_bind(&r, "-m", "-w", NULL, 0, &run, &err), 0);
  ck_assert_int_eq(tf_run_solve(run.problem, &o, NULL, 0, 0, &a, &err), 0);
  ck_assert_int_eq(a.n, 1);
  ck_assert_int_eq(a.a[0].status, TF_ANSWER_OPTIMAL);
  tf_ranked_release(&a);
  ck_assert_int_eq(tf_run_solve(run.problem, &o, NULL, 3, 0, &a, &err), 0);
  ck_assert_int_eq(a.n, 3);
  for (int i = 0; i < a.n; i++)
    ck_assert_int_eq(a.a[i].rank, i + 1);
  tf_ranked_release(&a);
  tf_run_release(&run);
  /* nothing fits: no ranked answer, a[0] says why */
  tf_request_add_require(&r, "stages >= 1000", "--require");
  ck_assert_int_eq(tf_run_bind(&r, "-m", "-w", NULL, 0, &run, &err), 0);
  ck_assert_int_eq(tf_run_solve(run.problem, &o, NULL, 4, 0, &a, &err), 0);
  ck_assert_int_eq(a.n, 0);
  ck_assert_int_eq(a.a[0].status, TF_ANSWER_INFEASIBLE);
  ck_assert_int_eq(a.a[0].rank, 0);
  tf_ranked_release(&a);
  tf_run_release(&run);
  tf_request_release(&r);
}
END_TEST

Suite *run_suite(void) {
  Suite *s = suite_create("run");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, test_bind_errors_name_the_front_end);
  tcase_add_test(tc, test_solve_one_and_top);
  suite_add_tcase(s, tc);
  return s;
}
