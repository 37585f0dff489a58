/* The exact search (solver/search/search.h): every engine case (tests/data/engine-cases) run
 * through the binary with the exhaustive answer and the exit status it
 * must give, and the search's --top rankings held to the exhaustive
 * oracle's (encode/oracle.c), which shares no code with solver/search/bound.c. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/oracle.h"
#include "solver/search/bound.h"
#include "solver/search/relax.h"
#include "solver/search/search.h"
#include "solver/solve.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 17], err[1 << 14];

#define D "tests/data/engine-cases/"
#define MW(name) "-m " D name "/m.json -w " D name "/w.json"

/* One case: the command after "tilefit ", its exit status, and strings
 * stdout must contain, in this order (NULL ends the list). */
static const struct engine_case {
  const char *args;
  int exit;
  const char *want[6];
} cases[] = {
    {"check " MW("check_crash") " --domain occupancy=0 --json",
     1,
     {"\"status\":\"does_not_fit\"", "occupancy 0: at least one CTA must fit on an SM"}},
    {"solve " MW("crash") " --domain occupancy=0 --json",
     1,
     {"\"status\":\"infeasible\"", "occupancy 0: at least one CTA must fit on an SM"}},
    {"solve " MW("top_crash") " --domain occupancy=0 --top-points --top 4 --json", 1, {NULL}},
    {"solve " MW("hang") " --objective 'max used(rf) + 1000000 * s1' --objective 'max 3 * s0 - tile_m' --json",
     0,
     {"\"values\":{\"tile_m\":3,\"s0\":2,\"s1\":8}", "\"value\":8000129}", "\"value\":3}"}},
    {"solve " MW("hang_no_presolve_small") " --domain B_r=16,1,7,2 --require 's0 < 6' --require 's1 + s1 == 4' "
                                           "--objective 'max cdiv(B_r * B_r, 3) + s1' --objective 'min s0 + s0' --json",
     0,
     {"\"status\":\"optimal\""}},
    {"solve " MW("hang_no_presolve_small") " --domain B_r=16,1,7,2 --require 's0 < 6' --require 's1 + s1 == 4' "
                                           "--objective 'max cdiv(B_r * B_r, 3) + s1' --objective 'min s0 + s0' --lp "
                                           "@DIR@/case.lp",
     0,
     {"optimal"}},
    {"solve -m " D "hang_no_presolve_small/m.json -w " D "hang_no_presolve_small/w4.json --domain B_r=7,2 "
     "--objective 'max cdiv(B_r * B_r, 3) + s1' --objective 'min s0 + s0' --json",
     0,
     {"\"status\":\"optimal\""}},
    {"solve " MW("internal_exit_empty_model") " --require 'slack(smem) >= 240460971' --json",
     1,
     {"\"status\":\"infeasible\""}},
    {"solve " MW("internal_exit_other") " --objective 'max 3 * s0 - tile_m' --json",
     0,
     {"\"values\":{\"tile_m\":15,\"s0\":3}", "\"value\":-6}"}},
    {"solve " MW("internal_exit_simplex") " --json", 0, {"\"values\":{\"B_r\":11,\"stages\":1}"}},
    {"solve " MW("internal_exit_verify") " --json", 0, {"\"values\":{\"a_stages\":0}", "\"value\":0}", "\"value\":0}"}},
    {"solve -m h100-sxm -w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64 --require 'stages <= 1'",
     1,
     {NULL}},
    {"solve -m b200 -w " D "shipped_lexicographic_exit3/w.json --objective 'max 100000000 * b - a' "
     "--objective 'max a' --json",
     0,
     {"\"a\":2,\"b\":2}", "\"value\":199999998}", "\"value\":2}"}},
    {"solve -m b200 -w " D "shipped_wrong_optimum/w.json --json",
     0,
     {"\"values\":{\"c\":9,\"s\":11}", "\"value\":2200000081}"}},
    {"solve " MW("top_hang") " -p d=4 --domain B_r=3,5,14 --top-points --top 6 --json",
     0,
     {"\"rank\":1", "\"values\":{\"B_r\":14,\"B_c\":3,\"a_stages\":1,\"b_stages\":2,\"k_stages\":13}", "\"rank\":6"}},
    {"solve " MW("top_internal_exit_other") " --objective 'min 10000000 * (c_stages + c_stages) + c0 * c0' "
                                            "--top-points --top 4 --json",
     0,
     {"\"values\":{\"c0\":7,\"stages\":2,\"c_stages\":2}", "\"value\":40000049}", "\"rank\":3"}},
    {"solve " MW("top_internal_exit_simplex") " --top-points --top 5 --json",
     0,
     {"\"values\":{\"B_c\":16,\"a_stages\":2}"}},
    {"solve " MW("top_internal_exit_verify") " --top-points --top 6 --json",
     0,
     {"\"values\":{\"c0\":7,\"s0\":5,\"s1\":1}", "\"value\":499999999}", "\"rank\":6"}},
    {"solve " MW("top_wrong_ranking_large") " --top-points --top 4 --json",
     0,
     {"\"value\":150000001}", "\"value\":150000000}", "\"value\":40000001}", "\"value\":40000000}"}},
    {"solve " MW("top_wrong_status_large") " --top-points --top 3 --json",
     0,
     {"\"rank\":1", "\"values\":{\"c0\":14,\"stages\":5,\"c_stages\":1}"}},
    {"solve " MW("wrong_optimum_large") " --json", 0, {"\"values\":{\"s0\":4}", "\"value\":12}"}},
    {"solve " MW("wrong_optimum_realcap") " --require 'stages + stages + stages >= 23' --json",
     0,
     {"\"values\":{\"c0\":9,\"stages\":11}", "\"value\":2200000081}"}},
    {"solve " MW("wrong_status_large") " --json", 0, {"\"values\":{\"s0\":0,\"s1\":-1}"}},
    {"solve " MW("wrong_status_presolve") " --json",
     0,
     {"\"values\":{\"c1\":8,\"s0\":2,\"s1\":2}", "\"value\":199999998}", "\"value\":2}", "\"value\":4}"}},
    /* the closed form names the bound when a count's max, not capacity, stops it */
    {"solve -m b200 -w " D "closed_form_max/w.json",
     0,
     {"num_stages   8", "closed form  num_stages = floor((232448 - 0) / 16384) = 14 in smem, capped at the max 8 of "
                        "num_stages (the bound binds, not capacity): agrees"}},
    {"solve -m b200 -w " D "closed_form_max/w.json --json", 0, {"\"value\":8,", "\"floor\":14,\"bound_binds\":true"}},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* A case's arguments with @DIR@ replaced by `dir` (a per-run directory). */
static void expand(const char *args, const char *dir, char *line, size_t size) {
  const char *at = strstr(args, "@DIR@");
  if (at)
    ck_assert((size_t)snprintf(line, size, "%.*s%s%s", (int)(at - args), args, dir, at + 5) < size);
  else
    ck_assert((size_t)snprintf(line, size, "%s", args) < size);
}

START_TEST(test_engine_case) {
  const struct engine_case *c = &cases[_i];
  char dir[512], args[2048];
  tf_test_temp_dir(dir, sizeof dir, "tf_engine_case");
  expand(c->args, dir, args, sizeof args);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  tf_test_remove_dir(dir);
  ck_assert_msg(rc == c->exit, "%s: exit %d, expected %d\n%s%s", c->args, rc, c->exit, out, err);
  const char *at = out;
  for (int i = 0; i < 6 && c->want[i]; i++) {
    const char *hit = strstr(at, c->want[i]);
    ck_assert_msg(hit, "%s: no '%s' (in order) in\n%s", c->args, c->want[i], out);
    at = hit + strlen(c->want[i]);
  }
  if (c->exit == 1 && !strncmp(c->args, "solve", 5))
    ck_assert_msg(strstr(err, "tilefit: infeasible: "), "%s", err);
  if (c->exit == 0)
    ck_assert_msg(err[0] == 0, "%s: stderr %s", c->args, err);
}
END_TEST

/* Splits a command line with '...' quoting into argv (in place). */
static int split(char *line, char **argv, int max) {
  int n = 0;
  for (char *s = line; *s && n < max;) {
    while (*s == ' ')
      s++;
    if (!*s)
      break;
    char *w = s, *d = s;
    while (*s && *s != ' ') {
      if (*s == '\'') {
        for (s++; *s && *s != '\'';)
          *d++ = *s++;
        if (*s)
          s++;
      } else {
        *d++ = *s++;
      }
    }
    if (*s)
      s++;
    *d = 0;
    argv[n++] = w;
  }
  return n;
}

/* Both rankings, point by point: the same combination, counts and values. */
static void same_ranking(const tf_problem *p, const tf_answer *a, int n, const tf_oracle_result *r, size_t nr,
                         const char *what) {
  ck_assert_msg((size_t)n == nr, "%s: the search found %d points, the oracle %zu", what, n, nr);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(a[i].combo == r[i].combo, "%s: rank %d: combination %zu, oracle %zu", what, i + 1, a[i].combo,
                  r[i].combo);
    for (int k = 0; k < p->ncounts; k++)
      ck_assert_msg(a[i].counts[k] == r[i].counts[k], "%s: rank %d: %s = %lld, oracle %lld", what, i + 1,
                    p->count_names[k], (long long)a[i].counts[k], (long long)r[i].counts[k]);
    for (size_t o = 0; o < p->nobjective; o++)
      ck_assert_msg(a[i].point.objective[o] == r[i].objective[o], "%s: rank %d: objective %zu", what, i + 1, o);
  }
}

/* The search's ranking of a bound problem equals the oracle's; returns
 * how many points it has. */
static int check_against_oracle(const tf_problem *p, int k, const char *what) {
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer *a = calloc((size_t)k, sizeof *a);
  tf_oracle_result *r = calloc((size_t)k, sizeof *r);
  for (int i = 0; i < k; i++)
    tf_answer_init(&a[i], p);
  tf_error e;
  tf_error_init(&e);
  int n = 0;
  ck_assert_msg(tf_solve_top(p, &o, k, a, &n, &e) == 0, "%s: %s", what, e.msg);
  size_t nr = 0;
  ck_assert_msg(tf_oracle_top(p, 50000000, (size_t)k, r, &nr, &e) == 0, "%s: oracle: %s", what, e.msg);
  same_ranking(p, a, n, r, nr, what);
  for (int i = 0; i < k; i++)
    tf_answer_release(&a[i]);
  free(a);
  free(r);
  return n;
}

/* Each engine case's solve, in process: the search's top 8 is the oracle's. */
START_TEST(test_engine_case_oracle) {
  const struct engine_case *c = &cases[_i];
  if (strncmp(c->args, "solve", 5))
    return;
  char line[1024], *argv[64];
  expand(c->args, "/nonexistent", line, sizeof line); /* parsed only: nothing is written */
  int argc = split(line, argv, 64);
  tf_test_bound b;
  tf_test_bind_args(&b, argc, argv, c->args);
  check_against_oracle(b.problem, 8, c->args);
  tf_test_bound_release(&b);
}
END_TEST

/* ------------------------------------------------- generated problems */

static unsigned long long rng_state;
static long rnd(long n) { /* 0 .. n-1 */
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)((rng_state >> 33) % (unsigned long long)n);
}

static const char *const mems[] = {"smem", "smem", "tmem", "rf"};

/* A small random workset: 1-2 choose variables, 1-3 counts with lower
 * bounds from 0 to 2, buffers in every memory (aligned or not, some with
 * negative coefficients), loosening and mixing requires, objectives of
 * either sense with coefficients up to 10^9. */
static int random_workset(char *buf, size_t size, int *ncounts) {
  int nc = 1 + (int)rnd(3), nx = 1 + (int)rnd(2);
  size_t n =
      (size_t)snprintf(buf, size, "{\"name\": \"g\", \"choose\": {\"x\": {\"from\": 1, \"to\": %ld}", 1 + rnd(6));
  if (nx > 1)
    n += (size_t)snprintf(buf + n, size - n, ", \"y\": [%ld, %ld, 8]", 1 + rnd(3), 4 + rnd(3));
  n += (size_t)snprintf(buf + n, size - n, "}, \"count\": {");
  for (int k = 0; k < nc; k++) {
    long lo = rnd(3);
    n += (size_t)snprintf(buf + n, size - n, "%s\"s%d\": {\"min\": %ld, \"max\": %ld}", k ? ", " : "", k, lo,
                          lo + rnd(9));
  }
  n += (size_t)snprintf(buf + n, size - n, "}, \"buffers\": [");
  int nb = 1 + (int)rnd(4);
  for (int b = 0; b < nb; b++) {
    int k = (int)rnd(nc), j = (int)rnd(nc);
    n += (size_t)snprintf(buf + n, size - n,
                          "%s{\"name\": \"b%d\", \"memory\": \"%s\", \"size\": \"%ld + s%d * (x %% 3 + %ld) * %ld %s "
                          "s%d * %ld\", \"align\": %ld}",
                          b ? ", " : "", b, mems[rnd(4)], rnd(200), k, 1 + rnd(3), 1 + rnd(40), rnd(5) ? "+" : "-", j,
                          rnd(30), rnd(2) ? 1L : 8L << rnd(3));
  }
  static const char *const reqs[] = {"s0 >= %ld", "s0 + s%d >= %ld", "s0 - s%d <= %ld", "x * s%d <= %ld",
                                     "s0 + s%d == %ld"};
  n += (size_t)snprintf(buf + n, size - n, "], \"require\": [");
  for (int r = 0, nr = (int)rnd(3); r < nr; r++) {
    int t = (int)rnd(5);
    char req[64];
    if (t == 0)
      snprintf(req, sizeof req, reqs[0], rnd(6));
    else
      snprintf(req, sizeof req, reqs[t], (int)rnd(nc), rnd(12));
    n += (size_t)snprintf(buf + n, size - n, "%s\"%s\"", r ? ", " : "", req);
  }
  n += (size_t)snprintf(buf + n, size - n, "], \"objective\": [");
  static const long coef[] = {1, 3, 1000, 1000000000};
  for (int o = 0, no = 1 + (int)rnd(3); o < no; o++)
    n += (size_t)snprintf(buf + n, size - n, "%s\"%s %ld * s%d %s %ld * x %s s%d\"", o ? ", " : "",
                          rnd(2) ? "max" : "min", coef[rnd(4)], (int)rnd(nc), rnd(2) ? "+" : "-", coef[rnd(4)],
                          rnd(2) ? "+" : "-", (int)rnd(nc));
  n += (size_t)snprintf(buf + n, size - n, "]}");
  *ncounts = nc;
  return n < size ? 0 : -1;
}

/* The scan (tf_search on a problem of few count values) and the box
 * search find the same k points, in the same order. */
static int scan_is_boxes(const tf_problem *p, size_t k, const char *what) {
  tf_found a[8], b[8];
  size_t na = 0, nb = 0;
  tf_search_stats st;
  tf_error e;
  tf_error_init(&e);
  ck_assert_msg(tf_search(p, k, 0, a, &na, &st, &e) == 0, "%s: %s", what, e.msg);
  ck_assert_msg(tf_search_boxes(p, k, 0, b, &nb, NULL, &e) == 0, "%s: %s", what, e.msg);
  ck_assert_msg(na == nb, "%s: %zu points against the boxes' %zu", what, na, nb);
  for (size_t i = 0; i < na; i++) {
    ck_assert_msg(a[i].combo == b[i].combo, "%s: rank %zu: combination %zu, the boxes' %zu", what, i, a[i].combo,
                  b[i].combo);
    for (int c = 0; c < p->ncounts; c++)
      ck_assert_msg(a[i].counts[c] == b[i].counts[c], "%s: rank %zu: count %d is %lld, the boxes' %lld", what, i, c,
                    (long long)a[i].counts[c], (long long)b[i].counts[c]);
  }
  return st.scanned;
}

/* 1000 generated problems per loop iteration: the search's top 5 equals the oracle's,
 * rank by rank (infeasible ones included: both find nothing). */
START_TEST(test_generated_against_oracle) {
  int solved = 0, infeasible = 0, ranked = 0, scanned = 0;
  for (int i = 0; i < 1000; i++) {
    rng_state = 0x9e3779b97f4a7c15ULL * (unsigned long long)(_i * 1000 + i + 1);
    char text[4096];
    int nc;
    ck_assert_int_eq(random_workset(text, sizeof text, &nc), 0);
    tf_machine m = tf_test_machine(200 + rnd(2000), 64 + rnd(512), 40 + rnd(215));
    tf_workset *w = tf_test_workset(text);
    tf_request req;
    tf_request_init(&req);
    tf_error e;
    tf_error_init(&e);
    tf_problem *p = tf_problem_new(&m, w, &req, &e);
    if (p) { /* a negative constant size is an input error: skipped */
      char what[4200];
      snprintf(what, sizeof what, "problem %d (smem %lld): %s", i, (long long)m.smem.capacity, text);
      int n = check_against_oracle(p, 5, what);
      scanned += scan_is_boxes(p, 1, what) & scan_is_boxes(p, 5, what);
      solved++;
      infeasible += n == 0;
      ranked += n == 5;
      tf_problem_free(p);
    }
    tf_request_release(&req);
    tf_workset_free(w);
  }
  ck_assert_msg(solved > 800 && infeasible > 50 && ranked > 250 && scanned > 100 && scanned < solved - 100,
                "solved %d, infeasible %d, five ranked %d, scanned %d", solved, infeasible, ranked, scanned);
}
END_TEST

/* ------------------------------------------------------ the relaxation */

static tf_problem *bind_text(const char *text, long smem, tf_machine *m, tf_workset **w) {
  *m = tf_test_machine(smem, 512, 255);
  *w = tf_test_workset(text);
  tf_request req;
  tf_request_init(&req);
  tf_error e;
  tf_error_init(&e);
  tf_problem *p = tf_problem_new(m, *w, &req, &e);
  tf_request_release(&req);
  return p;
}

/* max s0 + s1 with 3 s0 + 5 s1 <= 17 over 0..10: the box bound is 20, the
 * relaxation's 17 / 3 rounded down (s1 first: 1/5 of a unit lost per
 * byte, s0 then 1/3), and a min level with no count keeps its value. */
START_TEST(test_relaxed_knapsack) {
  tf_machine m;
  tf_workset *w;
  tf_problem *p =
      bind_text("{\"name\": \"k\", \"choose\": {\"x\": [1]}, \"count\": {\"s0\": {\"min\": 0, \"max\": 10}, "
                "\"s1\": {\"min\": 0, \"max\": 10}}, \"buffers\": [{\"name\": \"b\", \"memory\": \"smem\", "
                "\"size\": \"3 * s0 + 5 * s1\"}], \"objective\": [\"max s0 + s1\", \"min x\"]}",
                17, &m, &w);
  ck_assert(p);
  tf_box b;
  tf_box_full(p, &b);
  tf_wide box[2], relaxed[2];
  tf_rows r;
  tf_rows_init(&r);
  tf_box_score_bound(p, 0, &b, box);
  tf_box_score_relaxed(p, 0, &r, &b, relaxed);
  ck_assert(box[0] == 20 && relaxed[0] == 5 && relaxed[1] == -1 && box[1] == -1);
  b.lo[1] = b.hi[1] = 4; /* 3 s0 <= -3: no point */
  tf_box_score_relaxed(p, 0, &r, &b, relaxed);
  ck_assert(relaxed[0] < -((tf_wide)1 << 100));
  tf_rows_release(&r);
  tf_problem_free(p);
  tf_workset_free(w);
}
END_TEST

/* One random box inside the full box of combination c: the relaxation
 * is at most the box's bound, at least every fitting point's value, level
 * by level, equal to it at a fitting point, and says "no point" only
 * where none fits; narrowing by the rows keeps every fitting point. */
static void check_relaxed_box(const tf_problem *p, size_t c, tf_rows *r, const char *what) {
  tf_box b;
  tf_box_full(p, &b);
  for (int k = 0; k < p->ncounts; k++) {
    b.lo[k] += rnd(b.hi[k] - b.lo[k] + 1);
    b.hi[k] -= rnd(b.hi[k] - b.lo[k] + 1);
  }
  tf_wide box[8], relaxed[8], at[8];
  tf_box_score_bound(p, c, &b, box);
  tf_box_score_relaxed(p, c, r, &b, relaxed);
  tf_box narrowed = b;
  int none = relaxed[0] < -((tf_wide)1 << 100), fits = 0, left = tf_rows_narrow(p, c, r, &narrowed);
  for (size_t o = 0; o < p->nobjective; o++)
    ck_assert_msg(relaxed[o] <= box[o], "%s: level %zu above the box bound", what, o);
  int64_t x[TF_MAX_COUNTS];
  memcpy(x, b.lo, sizeof x);
  for (;;) {
    if (tf_point_classify(p, c, x) == TF_BOX_ALL) {
      fits = 1;
      ck_assert_msg(left, "%s: combination %zu: narrowed to nothing, yet a point fits", what, c);
      for (int k = 0; k < p->ncounts; k++)
        ck_assert_msg(narrowed.lo[k] <= x[k] && x[k] <= narrowed.hi[k], "%s: narrowing lost a fitting point", what);
      tf_point_score(p, c, x, at);
      for (size_t o = 0; o < p->nobjective; o++)
        ck_assert_msg(at[o] <= relaxed[o], "%s: combination %zu: a fitting point beats level %zu", what, c, o);
      tf_box one;
      memcpy(one.lo, x, sizeof x);
      memcpy(one.hi, x, sizeof x);
      tf_box_score_relaxed(p, c, r, &one, relaxed + 4);
      for (size_t o = 0; o < p->nobjective && o < 4; o++)
        ck_assert_msg(relaxed[4 + o] == at[o], "%s: a fitting point's relaxation is not its value", what);
      tf_box_score_relaxed(p, c, r, &b, relaxed);
    }
    int k = p->ncounts - 1;
    while (k >= 0 && x[k] == b.hi[k])
      x[k] = b.lo[k], k--;
    if (k < 0)
      break;
    x[k]++;
  }
  ck_assert_msg(!none || !fits, "%s: combination %zu: no point by the relaxation, yet one fits", what, c);
}

START_TEST(test_relaxed_generated) {
  int relaxed = 0;
  for (int i = 0; i < 300; i++) {
    rng_state = 0x2545f4914f6cdd1dULL * (unsigned long long)(_i * 300 + i + 1);
    char text[4096];
    int nc;
    ck_assert_int_eq(random_workset(text, sizeof text, &nc), 0);
    tf_machine m;
    tf_workset *w;
    tf_problem *p = bind_text(text, 200 + rnd(2000), &m, &w);
    if (p && p->nobjective <= 4) {
      tf_rows r;
      tf_rows_init(&r);
      for (size_t c = 0; c < p->ncombos; c++)
        for (int t = 0; t < 4; t++)
          check_relaxed_box(p, c, &r, text);
      relaxed += r.n > 0;
      tf_rows_release(&r);
    }
    tf_problem_free(p);
    tf_workset_free(w);
  }
  ck_assert_msg(relaxed > 100, "only %d problems had a row to relax", relaxed);
}
END_TEST

Suite *search_suite(void) {
  Suite *s = suite_create("search");
  TCase *tc = tcase_create("Engine cases");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_engine_case, 0, NCASES);
  tcase_add_loop_test(tc, test_engine_case_oracle, 0, NCASES);
  suite_add_tcase(s, tc);
  TCase *gen = tcase_create("Generated");
  tcase_set_timeout(gen, 120);
  tcase_add_loop_test(gen, test_generated_against_oracle, 0, 5);
  suite_add_tcase(s, gen);
  TCase *rel = tcase_create("Relaxation");
  tcase_set_timeout(rel, 60);
  tcase_add_test(rel, test_relaxed_knapsack);
  tcase_add_loop_test(rel, test_relaxed_generated, 0, 3);
  suite_add_tcase(s, rel);
  return s;
}
