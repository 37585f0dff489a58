/* Binding's reuse of values (model/bind/reuse.h): what each value reads,
 * and a bound problem's stored forms equal to evaluating every buffer,
 * require and objective again at each kept combination. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/problem.h"
#include "model/bind/problem_internal.h"
#include "model/bind/reuse.h"
#include "model/input/lets.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static const char *const reads_ws = "{\"name\": \"reads\", \"choose\": {\"x\": [1, 2, 3], \"y\": [1, 2, 3, 4]},"
                                    " \"count\": {\"s\": {\"min\": 1, \"max\": 4}}, \"let\": {\"L\": \"2 * x\"},"
                                    " \"buffers\": [{\"name\": \"A\", \"memory\": \"smem\", \"size\": \"L * s * 64\"},"
                                    "  {\"name\": \"B\", \"memory\": \"smem\", \"size\": \"y * 128\"},"
                                    "  {\"name\": \"C\", \"memory\": \"smem\", \"size\": \"4096\"}],"
                                    " \"require\": [\"s * 64 <= L * 1000 + y\", \"used(smem) <= 100000\"],"
                                    " \"objective\": [\"max x * y\", \"max s\"]}";

START_TEST(test_reads) {
  tf_machine m = tf_test_machine(228 * 1024, 0, 65536);
  tf_workset *w;
  tf_problem *p = tf_test_problem(&m, reads_ws, &w);
  tf_reuse r;
  tf_reuse_init(&r, p);
  const uint64_t x = 1, y = 2, every = ~(uint64_t)0;
  ck_assert_uint_eq(r.n, 3 + 2 * p->nrequire + 2);
  ck_assert_uint_eq(r.reads[tf_reuse_buffer(0)], x); /* through the let */
  ck_assert_uint_eq(r.reads[tf_reuse_buffer(1)], y);
  ck_assert_uint_eq(r.reads[tf_reuse_buffer(2)], 0);
  ck_assert_uint_eq(r.reads[tf_reuse_side(p, 0, 0)], 0);
  ck_assert_uint_eq(r.reads[tf_reuse_side(p, 0, 1)], x | y);
  ck_assert_uint_eq(r.reads[tf_reuse_side(p, 1, 0)], every); /* used() is set per combination */
  ck_assert_uint_eq(r.reads[tf_reuse_objective(p, 0)], x | y);
  ck_assert_uint_eq(r.reads[tf_reuse_objective(p, 1)], 0);
  /* every value is stale until evaluated; then only what changed */
  const int64_t at[2] = {1, 1}, next[2] = {1, 2};
  tf_reuse_next(&r, p, at);
  for (size_t i = 0; i < r.n; i++)
    ck_assert_uint_eq(r.stale[i], every);
  for (size_t i = 0; i < r.n; i++)
    r.stale[i] = 0;
  tf_reuse_next(&r, p, next);
  ck_assert_uint_eq(r.stale[tf_reuse_buffer(0)] & (x | y), y);
  ck_assert(r.reads[tf_reuse_objective(p, 0)] & r.stale[tf_reuse_objective(p, 0)]);
  tf_reuse_release(&r);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* ------------------------------------------ every form, evaluated again */

static void same_form(const int64_t *stored, const tf_affine *v, int ncounts, const char *what, size_t c) {
  ck_assert_msg(stored[0] == v->c, "%s at combination %zu: stored constant %lld, evaluated %lld", what, c,
                (long long)stored[0], (long long)v->c);
  for (int k = 0; k < ncounts; k++)
    ck_assert_msg(stored[1 + k] == v->k[k], "%s at combination %zu: coefficient %d", what, c, k);
}

/* A buffer that aliases or is aliased stores its folded size. */
static int in_an_alias(const tf_workset *w, size_t b) {
  for (size_t i = 0; i < w->nbuffers; i++)
    if (w->buffers[i].alias == (int)b)
      return 1;
  return w->buffers[b].alias >= 0;
}

/* Require r's row as binding normalises it: lhs - rhs, one more for <,
 * one less for >, empty when it does not depend on a count. */
static tf_affine row_of(tf_problem *p, size_t r, const tf_eval_env *env) {
  const tf_expr *l, *rr;
  enum tf_rel rel = tf_expr_relation(p->require[r], &l, &rr);
  tf_affine a, b, d;
  tf_error e;
  tf_error_init(&e);
  ck_assert(!tf_expr_eval(l, env, &a, &e) && !tf_expr_eval(rr, env, &b, &e));
  ck_assert(!tf_affine_add(&d, &a, &b, -1));
  if (tf_affine_is_const(&d, p->ncounts))
    return tf_affine_constant(0);
  d.c += rel == TF_REL_LT ? 1 : rel == TF_REL_GT ? -1 : 0;
  return d;
}

/* At kept combination c; `reads` tells the requires that read used() or
 * slack() (binding sets those per combination; this does not), skipped. */
static void check_combination(tf_problem *p, const tf_reuse *reads, size_t c) {
  const int64_t *choose = p->combo + c * p->nchoose;
  tf_error e;
  tf_error_init(&e);
  p->lets_valid = 0; /* every let again */
  tf_problem_set_choose(p, choose);
  ck_assert_msg(!tf_problem_eval_lets(p, &e), "%s", e.msg);
  tf_eval_env env = tf_problem_env(p);
  tf_affine v;
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (in_an_alias(p->workset, b))
      continue;
    ck_assert_msg(!tf_expr_eval(tf_memory_size_expr(p, b, choose), &env, &v, &e), "%s", e.msg);
    same_form(tf_problem_buf(p, c, b), &v, p->ncounts, p->workset->buffers[b].name, c);
  }
  for (size_t r = 0; r < p->nrequire; r++) {
    if (reads->reads[tf_reuse_side(p, r, 0)] == ~(uint64_t)0 || reads->reads[tf_reuse_side(p, r, 1)] == ~(uint64_t)0)
      continue;
    v = row_of(p, r, &env);
    same_form(tf_problem_row(p, c, r), &v, p->ncounts, tf_expr_text(p->require[r]), c);
  }
  for (size_t o = 0; o < p->nobjective; o++) {
    ck_assert_msg(!tf_expr_eval(p->objective[o].expr, &env, &v, &e), "%s", e.msg);
    same_form(tf_problem_obj(p, c, o), &v, p->ncounts, p->objective[o].text, c);
  }
}

static void check_every_combination(tf_problem *p) {
  tf_reuse reads;
  tf_reuse_init(&reads, p);
  for (size_t c = 0; c < p->ncombos; c++)
    check_combination(p, &reads, c);
  tf_reuse_release(&reads);
}

/* Shipped worksets whose buffers read different variables (placements,
 * lets, shapes), one with the occupancy variable (only it changes between
 * some combinations), and the workset above. */
static const char *const shipped[][10] = {
    {"-m", "a100", "-w", "fa2-fwd"},
    {"-m", "h100-sxm", "-w", "cutlass-sm90-gemm"},
    {"-m", "h100-sxm", "-w", "fa3-fwd"},
    {"-m", "b200", "-w", "fa4-fwd"},
    {"-m", "a100", "-w", "cutlass-sm80-gemm"},
    {"-m", "h100-sxm", "-w", "flashmla-sm90-decode"},
    {"-m", "b200", "-w", "cutlass-sm100-gemm"},
    {"-m", "h100-sxm", "-w", "fa2-fwd", "-p", "d=256", "--objective", "max occupancy", "--objective", "max B_r*B_c"},
};
#define NSHIPPED ((int)(sizeof shipped / sizeof shipped[0]))

START_TEST(test_same_as_evaluating_each) {
  char *argv[12] = {"solve"};
  int argc = 1;
  while (argc <= 10 && shipped[_i][argc - 1])
    argv[argc] = (char *)shipped[_i][argc - 1], argc++;
  tf_test_bound b;
  tf_test_bind_args(&b, argc, argv, shipped[_i][3]);
  ck_assert_uint_gt(b.problem->ncombos, 0);
  check_every_combination(b.problem);
  tf_test_bound_release(&b);
}
END_TEST

START_TEST(test_generated_same_as_evaluating_each) {
  tf_machine m = tf_test_machine(228 * 1024, 0, 65536);
  tf_workset *w;
  tf_problem *p = tf_test_problem(&m, reads_ws, &w);
  ck_assert_uint_eq(p->ncombos, 12);
  check_every_combination(p);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

Suite *reuse_suite(void) {
  Suite *s = suite_create("reuse");
  TCase *t = tcase_create("Reuse");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_reads);
  tcase_add_test(t, test_generated_same_as_evaluating_each);
  tcase_add_loop_test(t, test_same_as_evaluating_each, 0, NSHIPPED);
  suite_add_tcase(s, t);
  return s;
}
