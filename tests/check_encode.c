/* The encoder and the GLPK backend: model shape, exact rounding, the
 * closed form and its reasons, and the failure paths (a GLPK error caught
 * by the hook, an answer that fails verification). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "encode/build.h"
#include "encode/oracle.h"
#include "encode/verify.h"
#include "solver/solve.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* FlashAttention-4's layout at d = dv = 128 on a B200-sized machine. */
static const char fa4[] =
    "{\"name\": \"fa4\", \"params\": {\"d\": 128},"
    " \"choose\": {\"q_stage\": [1, 2]}, \"count\": {\"stages\": {\"min\": 1, \"max\": 64}},"
    " \"buffers\": [{\"name\": \"QO\", \"memory\": \"smem\", \"size\": \"2 * q_stage * 128 * d * 2\", \"align\": 1024},"
    "   {\"name\": \"KV\", \"memory\": \"smem\", \"size\": \"stages * 128 * d * 2\", \"align\": 1024},"
    "   {\"name\": \"header\", \"memory\": \"smem\", \"size\": \"2284 + 16 * stages\", \"align\": 1024},"
    "   {\"name\": \"tm\", \"memory\": \"tmem\", \"size\": \"256 + q_stage * d\"}],"
    " \"objective\": [\"max q_stage\", \"max stages\"]}";

struct fixture {
  tf_machine m;
  tf_workset *w;
  tf_request req;
  tf_problem *p;
  tf_error err;
};

static void open_fixture(struct fixture *f, const char *json, long smem) {
  f->m = tf_test_machine(smem, 512, 255);
  f->w = tf_test_workset(json);
  tf_request_init(&f->req);
  tf_error_init(&f->err);
  f->p = tf_problem_new(&f->m, f->w, &f->req, &f->err);
  ck_assert_msg(f->p != NULL, "%s", f->err.msg);
}

static void close_fixture(struct fixture *f) {
  tf_problem_free(f->p);
  tf_request_release(&f->req);
  tf_workset_free(f->w);
}

START_TEST(test_model_shape) {
  struct fixture f;
  open_fixture(&f, fa4, 232448);
  tf_model m;
  ck_assert_int_eq(tf_model_build(&m, f.p, &f.err), 0);
  /* 2 picks + 2 counts + units for the count-dependent aligned KV and header */
  ck_assert_uint_eq(m.ilp.ncols, 6);
  ck_assert_str_eq(m.ilp.cols[m.pick[1]].name, "pick(q_stage_2)");
  ck_assert_str_eq(m.ilp.cols[m.count_col[1]].name, "stages(q_stage_2)");
  ck_assert_uint_ne(m.units_col[1 * TF_NMEM + TF_MEM_SMEM], TF_NO_COL);
  ck_assert_uint_eq(m.units_col[0 * TF_NMEM + TF_MEM_SMEM], TF_NO_COL);
  ck_assert_uint_eq(m.units_col[1 * TF_NMEM + TF_MEM_RF], TF_NO_COL);
  ck_assert_uint_eq(m.ilp.nobjs, 2);
  tf_model_release(&m);
  close_fixture(&f);
}
END_TEST

START_TEST(test_fa4_exact) {
  struct fixture f;
  open_fixture(&f, fa4, 232448);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a;
  tf_answer_init(&a, f.p);
  ck_assert_int_eq(tf_solve(f.p, &o, NULL, &a, &f.err), 0);
  ck_assert_int_eq(a.status, TF_ANSWER_OPTIMAL);
  ck_assert_int_eq(a.choose[0], 2);
  ck_assert_int_eq(a.counts[0], 3);
  ck_assert_int_eq(a.point.used[0], 232448);
  ck_assert_int_eq(a.point.alloc[2], 3072); /* 2284 + 48 rounded to 1024 */
  ck_assert(a.closed[0].applies && a.closed[0].agrees);
  tf_oracle_result r;
  ck_assert_int_eq(tf_oracle_solve(f.p, 1000000, &r, &f.err), 0);
  ck_assert_int_eq(r.objective[1], 3);
  tf_answer_release(&a);
  close_fixture(&f);
}
END_TEST

/* The header's rounding depends on stages: with capacity just below a
 * 1024 step, the closed form (which ignores rounding) says one more. */
START_TEST(test_closed_form_reason) {
  struct fixture f;
  /* q_stage 2: 131072 resident; 4 stages = 131072 + 2348 -> header 3072 */
  open_fixture(&f, fa4, 131072 + 131072 + 2900);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a;
  tf_answer_init(&a, f.p);
  ck_assert_int_eq(tf_solve(f.p, &o, NULL, &a, &f.err), 0);
  ck_assert_int_eq(a.counts[0], 3);
  ck_assert_int_eq(a.closed[0].value, 4);
  ck_assert(!a.closed[0].agrees);
  ck_assert_msg(strstr(a.closed[0].reason, "stages = 4 smem needs"), "%s", a.closed[0].reason);
  tf_answer_release(&a);
  close_fixture(&f);
}
END_TEST

START_TEST(test_infeasible) {
  struct fixture f;
  open_fixture(&f, fa4, 60000);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a;
  tf_answer_init(&a, f.p);
  ck_assert_int_eq(tf_solve(f.p, &o, NULL, &a, &f.err), 0);
  ck_assert_int_eq(a.status, TF_ANSWER_INFEASIBLE);
  ck_assert_msg(strstr(a.why, "q_stage=1 needs 101376 B of smem at the smallest counts, 41376 over 60000"), "%s",
                a.why);
  tf_answer_release(&a);
  close_fixture(&f);
}
END_TEST

START_TEST(test_glpk_error_is_caught) {
  struct fixture f;
  open_fixture(&f, fa4, 232448);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  o.backend = &tf_backend_glpk;
  o.fault = 1;
  tf_model m;
  ck_assert_int_eq(tf_model_build(&m, f.p, &f.err), 0);
  tf_solution s;
  ck_assert_int_eq(tf_backend_solve(&m.ilp, &o, &s, &f.err), -1);
  tf_solution_release(&s);
  ck_assert_int_eq(f.err.code, TF_ESOLVER);
  ck_assert_msg(strstr(f.err.msg, "GLPK error"), "%s", f.err.msg);
  /* GLPK keeps working after its environment was freed by the hook */
  tf_error_init(&f.err);
  o.fault = 0;
  ck_assert_int_eq(tf_backend_solve(&m.ilp, &o, &s, &f.err), 0);
  tf_solution_release(&s);
  tf_model_release(&m);
  tf_answer a;
  tf_answer_init(&a, f.p);
  ck_assert_int_eq(tf_solve(f.p, &o, NULL, &a, &f.err), 0);
  ck_assert_int_eq(a.counts[0], 3);
  tf_answer_release(&a);
  close_fixture(&f);
}
END_TEST

START_TEST(test_verification_failure) {
  struct fixture f;
  open_fixture(&f, fa4, 232448);
  tf_answer a;
  tf_answer_init(&a, f.p);
  a.combo = 1;
  a.choose[0] = 2;
  a.counts[0] = 4; /* one stage too many: as if the solver were wrong */
  ck_assert_int_eq(tf_verify(f.p, &a, NULL, &f.err), -1);
  ck_assert_int_eq(f.err.code, TF_EINTERNAL);
  ck_assert_msg(strstr(f.err.msg, "failed exact verification: smem needs 265216 B"), "%s", f.err.msg);
  /* and a wrong objective value is caught as well */
  tf_error_init(&f.err);
  a.counts[0] = 3;
  double objval[] = {2, 4};
  ck_assert_int_eq(tf_verify(f.p, &a, objval, &f.err), -1);
  ck_assert_msg(strstr(f.err.msg, "'max stages' is 3, the solver reported 4"), "%s", f.err.msg);
  tf_answer_release(&a);
  close_fixture(&f);
}
END_TEST

/* Names past 255 bytes and repeated names become unique names of at most
 * 255 bytes that keep their start; a name the renaming would give that is
 * already taken gets one more suffix; rows and columns are apart. */
START_TEST(test_fit_names) {
  tf_ilp ilp;
  tf_ilp_init(&ilp);
  char longer[400];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  char cut[300];
  snprintf(cut, sizeof cut, "%.253s~3", longer); /* what column 3 would become */
  tf_ilp_add_col(&ilp, "a", TF_COL_INT, 0, 1);
  tf_ilp_add_col(&ilp, cut, TF_COL_INT, 0, 1);
  tf_ilp_add_col(&ilp, longer, TF_COL_INT, 0, 1);
  tf_ilp_add_col(&ilp, longer, TF_COL_INT, 0, 1);
  tf_ilp_add_col(&ilp, "a", TF_COL_INT, 0, 1);
  tf_ilp_add_row(&ilp, "a", TF_SENSE_LE, 0);
  tf_ilp_fit_names(&ilp);
  ck_assert_str_eq(ilp.cols[0].name, "a");
  ck_assert_str_eq(ilp.cols[1].name, cut);
  ck_assert_int_eq(strlen(ilp.cols[2].name), TF_ILP_NAME_MAX);
  ck_assert(!strncmp(ilp.cols[2].name, longer, 240) && strstr(ilp.cols[2].name, "~3~1"));
  ck_assert(!strncmp(ilp.cols[3].name, longer, 240) && strstr(ilp.cols[3].name, "~4"));
  ck_assert_str_eq(ilp.cols[4].name, "a~5");
  ck_assert_str_eq(ilp.rows[0].name, "a");
  for (size_t i = 0; i < ilp.ncols; i++)
    for (size_t j = 0; j < i; j++)
      ck_assert_str_ne(ilp.cols[i].name, ilp.cols[j].name);
  tf_ilp_release(&ilp);
}
END_TEST

START_TEST(test_lin_compact) {
  tf_lin l;
  memset(&l, 0, sizeof l);
  tf_lin_add(&l, 3, 2);
  tf_lin_add(&l, 1, 5);
  tf_lin_add(&l, 3, -2);
  tf_lin_add(&l, 1, 1);
  tf_lin_add(&l, 0, 4);
  tf_lin_compact(&l);
  ck_assert_uint_eq(l.n, 2);
  ck_assert_uint_eq(l.ind[0], 0);
  ck_assert_uint_eq(l.ind[1], 1);
  ck_assert(l.val[1] == 6);
  free(l.ind);
  free(l.val);
}
END_TEST

Suite *encode_suite(void) {
  Suite *s = suite_create("encode");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_model_shape);
  tcase_add_test(tc, test_lin_compact);
  tcase_add_test(tc, test_fit_names);
  tcase_add_test(tc, test_fa4_exact);
  tcase_add_test(tc, test_closed_form_reason);
  tcase_add_test(tc, test_infeasible);
  suite_add_tcase(s, tc);
  TCase *err = tcase_create("Errors");
  tcase_set_timeout(err, 60);
  tcase_add_test(err, test_glpk_error_is_caught);
  tcase_add_test(err, test_verification_failure);
  suite_add_tcase(s, err);
  return s;
}
