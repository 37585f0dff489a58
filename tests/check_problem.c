/* Binding a request to a machine and a workset: params, fixes, domains,
 * constraints, the affinity rule, limits, and enumeration. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/problem.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static const char base[] =
    "{\"name\": \"t\", \"params\": {\"d\": 64, \"e\": \"2 * d\", \"bits\": 16},"
    " \"choose\": {\"m\": [64, 128], \"n\": {\"from\": 16, \"to\": 64, \"step\": 16}},"
    " \"count\": {\"stages\": {\"min\": 1, \"max\": 40}},"
    " \"let\": {\"tile\": \"(m + n) * d * bits / 8\"},"
    " \"buffers\": [{\"name\": \"ring\", \"memory\": \"smem\", \"size\": \"stages * tile\", \"align\": 128},"
    "   {\"name\": \"acc\", \"memory\": \"tmem\", \"size\": \"n\"}],"
    " \"require\": [\"n <= m\"], \"objective\": [\"max stages\"]}";

struct bind_case {
  const char *what;
  const char *fix_name; /* NULL: none */
  long fix_value;
  const char *param_name; /* NULL: none */
  long param_value;
  const char *require;   /* NULL: none */
  const char *objective; /* NULL: none */
  const char *want_path; /* NULL: binds */
  const char *want_msg;
};

static const struct bind_case cases[] = {
    {"binds", NULL, 0, NULL, 0, NULL, NULL, NULL, NULL},
    {"unknown param", NULL, 0, "q", 1, NULL, NULL, "-p q", "has no param 'q'"},
    {"unknown variable", "zz", 1, NULL, 0, NULL, NULL, "--fix", "has no variable 'zz'"},
    {"non-affine require", NULL, 0, NULL, 0, "stages * stages <= 4", NULL, "--require",
     "not affine in count variable 'stages'"},
    {"non-affine objective", NULL, 0, NULL, 0, NULL, "max max(stages, 2)", "@objective", "not affine"},
    {"unknown name", NULL, 0, NULL, 0, "foo <= 2", NULL, "--require", "unknown name 'foo'"},
    {"not a comparison", NULL, 0, NULL, 0, "stages + 1", NULL, "--require", "expected a comparison"},
    {"bad objective", NULL, 0, NULL, 0, NULL, "maximize stages", "--objective", "expected 'max EXPR'"},
    {"!= on a count", NULL, 0, NULL, 0, "stages != 3", NULL, "--require", "'!=' cannot constrain"},
    {"remainder", NULL, 0, NULL, 0, "n / 3 <= 100", NULL, "--require", "leaves a remainder"},
    {"fixed count", "stages", 3, NULL, 0, NULL, NULL, NULL, NULL},
    {"fixed choose", "m", 96, NULL, 0, NULL, NULL, NULL, NULL},
};

START_TEST(test_bind) {
  const struct bind_case *c = &cases[_i];
  tf_machine m = tf_test_machine(232448, 512, 255);
  tf_workset *w = tf_test_workset(base);
  tf_request req;
  tf_request_init(&req);
  if (c->fix_name)
    tf_request_add_fix(&req, c->fix_name, c->fix_value, "--fix");
  if (c->param_name) {
    char where[32];
    snprintf(where, sizeof where, "-p %s", c->param_name);
    tf_request_add_param(&req, c->param_name, c->param_value, where);
  }
  if (c->require)
    tf_request_add_require(&req, c->require, "--require");
  if (c->objective)
    tf_request_add_objective(&req, c->objective, "--objective");
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  if (!c->want_path) {
    ck_assert_msg(p != NULL, "%s: %s: %s", c->what, err.path, err.msg);
  } else {
    ck_assert_msg(p == NULL, "%s: bound but should not", c->what);
    ck_assert_int_eq(err.code, TF_EINPUT);
    if (c->want_path[0] == '@') { /* a request field named by its key: the front end spells it */
      ck_assert_str_eq(err.at, c->want_path + 1);
      ck_assert_str_eq(err.path, "");
    } else {
      ck_assert_str_eq(err.path, c->want_path);
    }
    ck_assert_msg(strstr(err.msg, c->want_msg), "%s: message '%s' lacks '%s'", c->what, err.msg, c->want_msg);
  }
  tf_problem_free(p);
  tf_request_release(&req);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_enumeration) {
  tf_machine m = tf_test_machine(232448, 512, 255);
  tf_workset *w = tf_test_workset(base);
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_nonnull(p);
  /* 2 x 4 candidates; the require n <= m keeps all of them (n <= 64) */
  ck_assert_uint_eq(p->ncandidates, 8);
  ck_assert_uint_eq(p->ncombos, 8);
  ck_assert_int_eq(p->param_values[1], 128); /* e = 2 * d */
  /* ring = stages * (m + n) * 64 * 2 at m = 64, n = 16: coefficient 10240 */
  ck_assert_int_eq(tf_problem_buf(p, 0, 0)[0], 0);
  ck_assert_int_eq(tf_problem_buf(p, 0, 0)[1], 10240);
  tf_problem_free(p);
  tf_request_release(&req);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_domain_and_contradiction) {
  tf_machine m = tf_test_machine(232448, 512, 255);
  tf_workset *w = tf_test_workset(base);
  tf_request req;
  tf_request_init(&req);
  int64_t vals[] = {32};
  tf_request_add_domain(&req, "n", vals, 1, "--domain");
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(p->ncandidates, 2);
  tf_problem_free(p);
  tf_request_add_fix(&req, "m", 64, "--fix");
  tf_request_add_fix(&req, "m", 128, "--fix");
  p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(err.path, "--fix");
  ck_assert_ptr_nonnull(strstr(err.msg, "contradictory values for 'm'"));
  tf_request_release(&req);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_combination_limit) {
  tf_machine m = tf_test_machine(232448, 512, 255);
  tf_workset *w = tf_test_workset(
      "{\"name\": \"big\", \"choose\": {\"a\": {\"from\": 1, \"to\": 10000}, \"b\": {\"from\": 1, \"to\": 1000}},"
      " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"a * b\"}]}");
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_null(p);
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_ptr_nonnull(strstr(err.msg, "more than 1000000 combinations"));
  tf_workset_free(w);
}
END_TEST

START_TEST(test_cyclic_params) {
  tf_machine m = tf_test_machine(232448, 512, 255);
  tf_workset *w = tf_test_workset("{\"name\": \"cyc\", \"params\": {\"a\": \"b + 1\", \"b\": \"a\"},"
                                  " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"a\"}]}");
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  ck_assert_ptr_null(tf_problem_new(&m, w, &req, &err));
  ck_assert_str_eq(err.path, "$.params.a");
  ck_assert_ptr_nonnull(strstr(err.msg, "cyclic"));
  /* overriding one of them breaks the cycle */
  tf_error_init(&err);
  tf_request_add_param(&req, "a", 5, "-p a");
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(p->param_values[1], 5);
  tf_problem_free(p);
  tf_request_release(&req);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_point) {
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w = tf_test_workset(base);
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_ptr_nonnull(p);
  tf_point pt;
  tf_point_init(&pt, p);
  int64_t choose[] = {128, 64}, counts[] = {5};
  ck_assert_int_eq(tf_problem_eval_point(p, choose, counts, &pt, &err), 0);
  ck_assert_int_eq(pt.size[0], 5 * 192 * 128);
  ck_assert_int_eq(pt.alloc[0], 5 * 192 * 128);
  char why[256];
  ck_assert_int_eq(tf_point_fits(p, &pt, why, sizeof why), 0);
  ck_assert_str_eq(why, "smem needs 122880 B of 100000, 22880 over");
  tf_point_release(&pt);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* Placement: each placed buffer is a choose variable over its candidates;
 * sizes follow the memory, an alias in the same memory adds only its
 * excess, placed() is 0/1, pins narrow and are checked. */
static const char placed_ws[] =
    "{\"name\": \"pl\", \"let\": {\"land\": \"placed(P, smem) * 7\"}, \"buffers\": ["
    " {\"name\": \"S\", \"memory\": \"tmem\", \"size\": 128},"
    " {\"name\": \"P\", \"place\": [\"tmem\", \"smem\"], \"alias\": \"S\", \"size\": {\"tmem\": 64, \"smem\": 1000}},"
    " {\"name\": \"L\", \"memory\": \"smem\", \"size\": \"land\"}],"
    " \"objective\": [\"min used(smem)\"]}";

START_TEST(test_placement) {
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w = tf_test_workset(placed_ws);
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_msg(p != NULL, "%s", err.msg);
  ck_assert_uint_eq(tf_place_nnumeric(p), 0);
  ck_assert_uint_eq(tf_place_count(p), 1);
  ck_assert_uint_eq(p->nchoose, 1);
  ck_assert_int_eq(tf_place_of_buffer(p, 1), 0);
  ck_assert_int_eq(tf_place_of_buffer(p, 0), -1);
  ck_assert_uint_eq(p->ndomain[0], 2);
  ck_assert_uint_eq(p->nobjective, p->nobjective_shown + 1); /* the placement tie-break */
  tf_point pt;
  tf_point_init(&pt, p);
  int64_t tmem[] = {TF_MEM_TMEM}, smem[] = {TF_MEM_SMEM}, none[1] = {0};
  ck_assert_int_eq(tf_problem_eval_point(p, tmem, none, &pt, &err), 0);
  ck_assert_int_eq(pt.size[1], 0); /* 64 columns inside S's 128 */
  ck_assert_int_eq(pt.used[TF_MEM_TMEM], 128);
  ck_assert_int_eq(pt.size[2], 0);
  ck_assert_int_eq(tf_problem_eval_point(p, smem, none, &pt, &err), 0);
  ck_assert_int_eq(pt.size[1], 1000);
  ck_assert_int_eq(pt.size[2], 7);
  ck_assert_int_eq(pt.used[TF_MEM_SMEM], 1007);
  tf_point_release(&pt);
  tf_problem_free(p);
  int rf[] = {TF_MEM_RF};
  tf_request_add_place(&req, "P", rf, 1, "--place P=rf");
  ck_assert_ptr_null(tf_problem_new(&m, w, &req, &err));
  ck_assert_str_eq(err.path, "--place P=rf");
  ck_assert_ptr_nonnull(strstr(err.msg, "P may be in smem, tmem only"));
  tf_request_release(&req);
  tf_error_init(&err);
  tf_request_add_place(&req, "Z", rf, 1, "--place Z=rf");
  ck_assert_ptr_null(tf_problem_new(&m, w, &req, &err));
  ck_assert_ptr_nonnull(strstr(err.msg, "no buffer 'Z'"));
  tf_request_release(&req);
  tf_workset_free(w);
}
END_TEST

/* The placement accessor (place_bind.h): the numeric choose variables
 * first, then one placement per placed buffer in workset order, each
 * value a memory. */
START_TEST(test_place_accessor) {
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w =
      tf_test_workset("{\"name\": \"acc\", \"choose\": {\"t\": [1, 2], \"u\": [3]}, \"buffers\": ["
                      " {\"name\": \"A\", \"memory\": \"smem\", \"size\": \"t * 64\"},"
                      " {\"name\": \"P\", \"place\": [\"tmem\", \"smem\"], \"size\": {\"tmem\": 64, \"smem\": 1000}},"
                      " {\"name\": \"Q\", \"place\": [\"rf\", \"smem\"], \"size\": {\"rf\": 8, \"smem\": 100}}],"
                      " \"objective\": [\"max t\"]}");
  tf_problem *p = tf_test_bind(&m, w);
  ck_assert_uint_eq(p->nchoose, 4);
  ck_assert_uint_eq(tf_place_nnumeric(p), 2);
  ck_assert_str_eq(p->choose_names[0], "t");
  ck_assert_str_eq(p->choose_names[1], "u");
  ck_assert_uint_eq(tf_place_count(p), 2);
  const char *names[] = {"P", "Q"};
  int first[] = {TF_MEM_TMEM, TF_MEM_RF};
  for (size_t k = 0; k < 2; k++) {
    size_t i = tf_place_var(p, k);
    ck_assert(tf_place_is_var(p, i));
    ck_assert_str_eq(p->choose_names[i], names[k]);
    ck_assert_uint_eq(p->ndomain[i], 2);
    ck_assert_int_eq(tf_place_memory(p, i, p->domain[i][0]), first[k]);
    ck_assert_int_eq(tf_place_memory(p, i, p->domain[i][1]), TF_MEM_SMEM);
  }
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    ck_assert(!tf_place_is_var(p, i));
  ck_assert(!tf_place_is_var(p, p->nchoose));
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* A problem copies what it keeps of the request: the request may change
 * or go before the problem does (its where strings name errors later, e.g.
 * when the ILP is built). */
START_TEST(test_request_outlived) {
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w = tf_test_workset(base);
  tf_request req;
  tf_request_init(&req);
  tf_request_add_require(&req, "used(tmem) <= 64", "line 3: $.require[0]");
  tf_request_add_objective(&req, "max slack(rf)", "line 3: $.objective[0]");
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_msg(p != NULL, "%s", err.msg);
  req.requires[0].where[0] = 'X'; /* what a borrowed pointer would now read */
  req.objectives[0].where[0] = 'X';
  tf_request_release(&req);
  ck_assert_str_eq(p->require_where[p->nrequire - 1], "line 3: $.require[0]");
  ck_assert_str_eq(p->derived_where[TF_MEM_TMEM], "line 3: $.require[0]");
  ck_assert_str_eq(p->derived_where[TF_MEM_RF], "line 3: $.objective[0]");
  ck_assert_str_eq(p->objective[0].text, "max slack(rf)");
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* A let nothing asks for is never evaluated: one that cannot be evaluated
 * (a remainder at every combination) is harmless until a constraint or an
 * objective reaches it, through another let or directly.  A let that is
 * the same at every point is evaluated once, when the problem is bound. */
static const char unused_let[] =
    "{\"name\": \"t\", \"choose\": {\"m\": [64, 128]}, \"count\": {\"stages\": {\"min\": 1, \"max\": 4}},"
    " \"let\": {\"tile\": \"m * 2\", \"odd\": \"m / 3\", \"via\": \"odd + 1\", \"quarter\": \"smem_capacity / 4\"},"
    " \"buffers\": [{\"name\": \"ring\", \"memory\": \"smem\", \"size\": \"stages * tile\"},"
    "   {\"name\": \"pad\", \"memory\": \"smem\", \"size\": \"quarter\"}],"
    " \"objective\": [\"max stages\"]}";

static int bind_with(const char *objective, tf_error *err) {
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w = tf_test_workset(unused_let);
  tf_request req;
  tf_request_init(&req);
  if (objective)
    tf_request_add_objective(&req, objective, "--objective");
  tf_error_init(err);
  tf_problem *p = tf_problem_new(&m, w, &req, err);
  int ok = p != NULL;
  if (p) {
    ck_assert_uint_eq(p->nlet_eval, objective ? 3 : 1); /* quarter: once, at binding */
    ck_assert_int_eq(tf_problem_buf(p, 1, 1)[0], 25000);
    tf_point pt;
    tf_point_init(&pt, p);
    int64_t choose[] = {128}, counts[] = {3};
    ck_assert_int_eq(tf_problem_eval_point(p, choose, counts, &pt, err), 0);
    ck_assert_int_eq(pt.size[0], 3 * 256);
    ck_assert_int_eq(pt.size[1], 25000);
    tf_point_release(&pt);
  }
  tf_problem_free(p);
  tf_request_release(&req);
  tf_workset_free(w);
  return ok;
}

START_TEST(test_lets_on_demand) {
  tf_error err;
  ck_assert_msg(bind_with(NULL, &err), "%s", err.msg);
  ck_assert(!bind_with("max via", &err));
  ck_assert_str_eq(err.path, "$.let.odd");
  ck_assert_msg(strstr(err.msg, "remainder"), "%s", err.msg);
}
END_TEST

/* A chain of 50,000 lets, each using the next, the last a choose
 * variable: ordered without recursion (a recursive walk with its 1 KiB
 * frames ran out of stack), and the first evaluates to m + 49,999 at each
 * combination. */
START_TEST(test_long_let_chain) {
  enum { N = 50000 };
  size_t cap = (size_t)N * 32 + 1024, k = 0;
  char *t = malloc(cap);
  ck_assert_ptr_nonnull(t);
  k += (size_t)snprintf(t + k, cap - k, "{\"name\": \"chain\", \"choose\": {\"m\": [1, 2]}, \"let\": {");
  for (int i = 0; i < N - 1; i++) /* each uses the next one down the file: the walk from l0 is N deep */
    k += (size_t)snprintf(t + k, cap - k, "\"l%d\": \"l%d + 1\", ", i, i + 1);
  snprintf(t + k, cap - k,
           "\"l%d\": \"m\"}, \"buffers\": [{\"name\": \"x\", \"memory\": \"rf\", \"size\": \"l0 - %d\"}]}", N - 1,
           N - 1);
  tf_machine m = tf_test_machine(100000, 512, 255);
  tf_workset *w = tf_test_workset(t);
  free(t);
  tf_problem *p = tf_test_bind(&m, w);
  ck_assert_uint_eq(p->nlet_eval, N); /* every let depends on m */
  ck_assert_uint_eq(p->ncombos, 2);
  ck_assert_int_eq(tf_problem_buf(p, 0, 0)[0], 1);
  ck_assert_int_eq(tf_problem_buf(p, 1, 0)[0], 2);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* Combinations come in odometer order and re-evaluate only the lets whose
 * choose variables changed: every stored size must still be what a point
 * evaluated from scratch gives (a let of a, of b, of both, of neither, of a
 * count, and a chain through them), with point evaluations in between. */
/* A workset bound with the default request on machine m: the problem,
 * and the workset (the caller frees both) in *w. */
static tf_problem *bind_default(const tf_machine *m, const char *ws, tf_workset **w) {
  return tf_test_problem(m, ws, w);
}

START_TEST(test_lets_follow_the_combination) {
  static const char ws[] = "{\"name\": \"t\", \"params\": {\"k\": 3},"
                           " \"choose\": {\"a\": [1, 2, 3], \"b\": [10, 20], \"c\": [100, 200, 300]},"
                           " \"count\": {\"s\": {\"min\": 1, \"max\": 3}},"
                           " \"let\": {\"la\": \"a * k\", \"lb\": \"b + la\", \"lc\": \"c * 2\", \"lk\": \"k * 7\","
                           "   \"ls\": \"s * lc\", \"lab\": \"lb * lc - la\"},"
                           " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"lab + ls\"},"
                           "   {\"name\": \"y\", \"memory\": \"smem\", \"size\": \"lk + la\"}],"
                           " \"objective\": [\"max s\"]}";
  tf_machine m = tf_test_machine(1000000, 512, 255);
  tf_workset *w;
  tf_problem *p = bind_default(&m, ws, &w);
  tf_error err;
  tf_error_init(&err);
  ck_assert_uint_eq(p->ncombos, 18);
  tf_point pt;
  tf_point_init(&pt, p);
  for (size_t c = 0; c < p->ncombos; c++) {
    const int64_t *choose = p->combo + c * p->nchoose;
    int64_t counts[] = {2}, v;
    ck_assert_int_eq(tf_problem_eval_point(p, choose, counts, &pt, &err), 0);
    for (size_t b = 0; b < 2; b++) {
      ck_assert_int_eq(tf_problem_form_at(p, tf_problem_buf(p, c, b), counts, &v), 0);
      ck_assert_msg(v == pt.size[b], "combination %zu buffer %zu: stored %lld, evaluated %lld", c, b, (long long)v,
                    (long long)pt.size[b]);
    }
  }
  tf_point_release(&pt);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* A require that reads only params, machine constants and fixed lets is
 * evaluated once at binding; a point gives its sides and verdict as it
 * gives those of the requires that vary. */
START_TEST(test_fixed_requires) {
  static const char ws[] =
      "{\"name\": \"t\", \"params\": {\"k\": 3},"
      " \"choose\": {\"a\": [1, 2, 3]}, \"count\": {\"s\": {\"min\": 1, \"max\": 4}},"
      " \"let\": {\"lk\": \"k * 7\", \"la\": \"a * lk\"},"
      " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"s * la\"}],"
      " \"require\": [\"lk >= 20\", \"k * 2 < 7\", \"a + s <= 5\", \"la <= 42\"], \"objective\": [\"max s\"]}";
  tf_machine m = tf_test_machine(1000000, 512, 255);
  tf_workset *w;
  tf_problem *p = bind_default(&m, ws, &w);
  tf_error err;
  tf_error_init(&err);
  ck_assert_uint_eq(p->nrequire, 4);
  static const int fixed[] = {1, 1, 0, 0}, lhs[] = {21, 6}, rhs[] = {20, 7}, ok[] = {1, 1};
  for (size_t r = 0; r < 4; r++)
    ck_assert_msg(p->require_fixed[r] == fixed[r], "require %zu fixed %d", r, p->require_fixed[r]);
  /* the fixed ones hold everywhere: no row, only the others are read */
  ck_assert_uint_eq(p->nlive_row, 2);
  ck_assert_uint_eq(p->live_row[0], 2);
  ck_assert_uint_eq(p->live_row[1], 3);
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t r = 0; r < 2; r++) {
      const int64_t *row = tf_problem_row(p, c, r);
      ck_assert_msg(row[0] == 0 && row[1] == 0, "combination %zu require %zu: a row", c, r);
    }
  tf_point pt;
  tf_point_init(&pt, p);
  for (int64_t a = 1; a <= 3; a++)
    for (int64_t sv = 1; sv <= 4; sv++) {
      int64_t choose[] = {a}, counts[] = {sv};
      ck_assert_int_eq(tf_problem_eval_point(p, choose, counts, &pt, &err), 0);
      for (size_t r = 0; r < 2; r++) {
        ck_assert_int_eq(pt.require_lhs[r], lhs[r]);
        ck_assert_int_eq(pt.require_rhs[r], rhs[r]);
        ck_assert_int_eq(pt.require_ok[r], ok[r]);
      }
      ck_assert_int_eq(pt.require_lhs[2], a + sv);
      ck_assert_int_eq(pt.require_ok[2], a + sv <= 5);
      ck_assert_int_eq(pt.require_lhs[3], a * 21);
      ck_assert_int_eq(pt.require_ok[3], a * 21 <= 42);
    }
  tf_point_release(&pt);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* A require that reads no choose variable or count and fails rules out
 * every point before any combination is bound: the problem says which,
 * and the lets it makes meaningless (one divides by k - 3 here, at every
 * combination) are never evaluated.  The first such require in order is
 * named, those reading only params first, then those reading fixed lets. */
START_TEST(test_fixed_require_fails) {
  static const struct {
    const char *require, *hopeless;
  } fails[] = {
      {"[\"a <= 2\", \"k >= 4\", \"k >= 5\"]", "'k >= 4' fails at every point: 3 >= 4 ($.require[1])"},
      {"[\"lk >= 22\", \"k * 2 > 7\"]", "'k * 2 > 7' fails at every point: 6 > 7 ($.require[1])"},
      {"[\"lk >= 22\"]", "'lk >= 22' fails at every point: 21 >= 22 ($.require[0])"},
  };
  char ws[512];
  snprintf(ws, sizeof ws,
           "{\"name\": \"t\", \"params\": {\"k\": 3}, \"choose\": {\"a\": [1, 2, 3]},"
           " \"count\": {\"s\": {\"min\": 1, \"max\": 4}}, \"let\": {\"lk\": \"k * 7\", \"la\": \"a / (k - 3)\"},"
           " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"s * la\"}],"
           " \"require\": %s, \"objective\": [\"max s\"]}",
           fails[_i].require);
  tf_machine m = tf_test_machine(1000000, 512, 255);
  tf_workset *w;
  tf_problem *p = bind_default(&m, ws, &w);
  ck_assert_uint_eq(p->ncandidates, 3);
  ck_assert_uint_eq(p->ncombos, 0);
  ck_assert_str_eq(p->hopeless, fails[_i].hopeless);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

Suite *problem_suite(void) {
  Suite *s = suite_create("problem");
  TCase *tc = tcase_create("Core");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_bind, 0, sizeof cases / sizeof *cases);
  tcase_add_test(tc, test_enumeration);
  tcase_add_test(tc, test_domain_and_contradiction);
  tcase_add_test(tc, test_cyclic_params);
  tcase_add_test(tc, test_point);
  tcase_add_test(tc, test_placement);
  tcase_add_test(tc, test_place_accessor);
  tcase_add_test(tc, test_request_outlived);
  tcase_add_test(tc, test_lets_on_demand);
  tcase_add_test(tc, test_lets_follow_the_combination);
  tcase_add_test(tc, test_fixed_requires);
  tcase_add_loop_test(tc, test_fixed_require_fails, 0, 3);
  suite_add_tcase(s, tc);
  TCase *lim = tcase_create("Limits");
  tcase_add_test(lim, test_combination_limit);
  tcase_add_test(lim, test_long_let_chain);
  tcase_set_timeout(lim, 60);
  suite_add_tcase(s, lim);
  return s;
}
