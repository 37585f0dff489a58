/* The search over boxes of combinations (solver/search/space.c, a problem
 * bound on demand) against the exhaustive oracle (encode/oracle.c) on the
 * same workset bound whole: random worksets with larger choose domains
 * (unsorted lists among them) whose lets, sizes, requires and objectives
 * use every form the language has -- cdiv, fdiv, exact / (with and without
 * a remainder), %, min, max, if, align, pow2, comparisons, products of choose variables, placed buffers with
 * sizes per memory, aliased pairs, lifetimes, occupancy, used() -- ranked top 3 point by point;
 * the same error where binding whole fails; the same reason where
 * nothing fits, and the counters partition the candidates.  Seeds are
 * consecutive from TILEFIT_SEED (printed). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/oracle.h"
#include "model/input/catalog.h"
#include "model/input/place.h"
#include "solver/tilefit.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static unsigned long long rng_state;
static long rnd(long n) { /* 0 .. n-1 */
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)((rng_state >> 33) % (unsigned long long)n);
}

static const char *const lets[] = {
    "cdiv(x * y, %ld)",
    "fdiv(x + z * 5, %ld)",
    "min(x, y) + max(z, %ld)",
    "if(x %% 2 == 0, y, z + %ld)",
    "x * y * %ld / 2",
    "(x * 7 + y) %% %ld",
    "align(x * 3, %ld)",
    "if(y > %ld && z < 2, x * 2, y)",
    "(x * 6 + y * %ld * 4) / 2 - pow2(z)",
};
static const char *const reqs[] = {
    "t <= %ld",          "s0 + s1 >= %ld",   "x * s0 <= %ld",     "u - z != %ld",  "placed(p, rf) + z <= %ld",
    "v * s1 - t <= %ld", "occupancy <= %ld", "used(smem) <= %ld", "y %% 3 != %ld",
};
static const char *const objs[] = {
    "max s0",        "min t + s1",     "max x * y - z",       "min u * s0 + v",
    "max occupancy", "max used(smem)", "min placement_order", "max w",
};

/* A random workset (JSON) of 3 choose variables, 2 counts, 4 lets, up to
 * 4 buffers (one placed), up to 3 requires and 1 to 3 objectives. */
static void random_workset(char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size,
                              "{\"name\": \"space\", \"choose\": {\"x\": {\"from\": %ld, \"to\": %ld}, "
                              "\"y\": [%ld, 2, %ld, 4, 9, 3], \"z\": {\"from\": 0, \"to\": %ld}}, \"count\": {",
                              rnd(3), 4 + rnd(40), 10 + rnd(8), 20 + rnd(20), 1 + rnd(4));
  n += (size_t)snprintf(buf + n, size - n, "\"s0\": {\"min\": %ld, \"max\": %ld}, \"s1\": {\"min\": %ld, \"max\": %ld}",
                        rnd(2), 2 + rnd(8), rnd(3), 3 + rnd(6));
  n += (size_t)snprintf(buf + n, size - n, "}, \"let\": {");
  const char *names[] = {"t", "u", "v", "w"};
  for (int i = 0; i < 4; i++) {
    char e[96];
    snprintf(e, sizeof e, lets[rnd(9)], 2 + rnd(4));
    n += (size_t)snprintf(buf + n, size - n, "%s\"%s\": \"%s\"", i ? ", " : "", names[i], e);
  }
  n += (size_t)snprintf(
      buf + n, size - n,
      "}, \"buffers\": [{\"name\": \"r\", \"memory\": \"smem\", \"size\": \"s0 * (t + %ld) * %ld\", "
      "\"align\": %ld%s}, {\"name\": \"p\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": \"u * "
      "%ld + s1 * 16\", \"rf\": \"v + %ld\"}}",
      1 + rnd(3), 8 + rnd(200), rnd(4) ? 1L : 128L, rnd(3) ? "" : ", \"lifetime\": \"mainloop\"", 4 + rnd(60), rnd(40));
  if (rnd(3) == 0) /* a phase of its own: smem holds the larger of the phases */
    n += (size_t)snprintf(buf + n, size - n,
                          ", {\"name\": \"ep\", \"memory\": \"smem\", \"size\": \"(x + z) * %ld + s0 * 8\", "
                          "\"align\": 128, \"lifetime\": \"epilogue\"}",
                          16 + rnd(300));
  if (rnd(2))
    n += (size_t)snprintf(buf + n, size - n, ", {\"name\": \"q\", \"memory\": \"rf\", \"size\": \"w * 2 + s1 * %ld\"}",
                          rnd(2) ? 0 : rnd(20));
  if (rnd(3) == 0) /* a pair: al inside h, both in smem; binding fails where either depends on a count (some x only) */
    n += (size_t)snprintf(buf + n, size - n,
                          ", {\"name\": \"h\", \"memory\": \"smem\", \"size\": \"v * 64%s\"}, {\"name\": \"al\", "
                          "\"memory\": \"smem\", \"alias\": \"h\", \"size\": \"w * %ld\"}",
                          rnd(3) ? "" : " + s1 * (x % 3 == 0)", 16 + rnd(64));
  n += (size_t)snprintf(buf + n, size - n, "], \"require\": [");
  for (int r = 0, nr = (int)rnd(4); r < nr; r++) {
    char e[96];
    snprintf(e, sizeof e, reqs[rnd(9)], rnd(2) ? 1 + rnd(4) : 4 + rnd(200));
    n += (size_t)snprintf(buf + n, size - n, "%s\"%s\"", r ? ", " : "", e);
  }
  n += (size_t)snprintf(buf + n, size - n, "], \"objective\": [");
  for (int o = 0, no = 1 + (int)rnd(3); o < no; o++)
    n += (size_t)snprintf(buf + n, size - n, "%s\"%s\"", o ? ", " : "", objs[rnd(8)]);
  snprintf(buf + n, size - n, "]}");
}

/* The on-demand problem's top k against the oracle's over the whole one:
 * choose values, counts and objective values, rank by rank; nothing found
 * on both sides with the same reason.  Returns the points found. */
static int same_as_oracle(tf_problem *whole, tf_problem *lazy, const char *what) {
  enum { K = 3 };
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a[K], b[K];
  tf_oracle_result r[K];
  for (int i = 0; i < K; i++)
    tf_answer_init(&a[i], lazy), tf_answer_init(&b[i], whole);
  tf_error e;
  tf_error_init(&e);
  int n = 0, nb = 0;
  size_t nr = 0;
  int rc = tf_solve_top(lazy, &o, K, a, &n, &e);
  ck_assert_msg(rc == 0, "%s: %s", what, e.msg);
  ck_assert_msg(tf_oracle_top(whole, 100000000, K, r, &nr, &e) == 0, "%s: oracle: %s", what, e.msg);
  ck_assert_msg((size_t)n == nr, "%s: %d points, the oracle %zu", what, n, nr);
  for (int i = 0; i < n; i++) {
    const int64_t *want = whole->combo + r[i].combo * whole->nchoose;
    for (size_t v = 0; v < whole->nchoose; v++)
      ck_assert_msg(a[i].choose[v] == want[v], "%s: rank %d: %s = %lld, oracle %lld", what, i + 1,
                    whole->choose_names[v], (long long)a[i].choose[v], (long long)want[v]);
    for (int k = 0; k < whole->ncounts; k++)
      ck_assert_msg(a[i].counts[k] == r[i].counts[k], "%s: rank %d: count %d", what, i + 1, k);
    for (size_t v = 0; v < whole->nobjective; v++)
      ck_assert_msg(a[i].point.objective[v] == r[i].objective[v], "%s: rank %d: objective %zu", what, i + 1, v);
  }
  if (n == 0) { /* the reason binding whole gives */
    ck_assert_int_eq(tf_solve_top(whole, &o, K, b, &nb, &e), 0);
    ck_assert_msg(!strcmp(a[0].why, b[0].why), "%s: why '%s', bound whole '%s'", what, a[0].why, b[0].why);
  }
  const struct tf_space_stats *st = &lazy->space;
  ck_assert_msg(st->visited + st->pruned_bound + st->pruned_infeasible == lazy->ncandidates,
                "%s: %llu visited, %llu and %llu pruned of %zu", what, (unsigned long long)st->visited,
                (unsigned long long)st->pruned_bound, (unsigned long long)st->pruned_infeasible, lazy->ncandidates);
  for (int i = 0; i < K; i++)
    tf_answer_release(&a[i]), tf_answer_release(&b[i]);
  return n;
}

/* Binding whole fails exactly where the search over boxes fails. */
static void same_error(tf_problem *lazy, const tf_error *whole_err, const char *what) {
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a;
  tf_answer_init(&a, lazy);
  tf_error e;
  tf_error_init(&e);
  int n = 0;
  int rc = tf_solve_top(lazy, &o, 1, &a, &n, &e);
  ck_assert_msg(rc != 0 && e.code == whole_err->code, "%s: bound whole: %s; on demand: rc %d %s", what, whole_err->msg,
                rc, e.msg);
  tf_answer_release(&a);
}

START_TEST(test_space_against_oracle) {
  unsigned long long seed = tf_test_seed("space: 300 problems from the first of consecutive seeds", 1);
  int solved = 0, infeasible = 0, errors = 0;
  for (int i = 0; i < 300; i++) {
    rng_state = 0x9e3779b97f4a7c15ULL * (seed + (unsigned long long)(_i * 300 + i));
    char text[4096], what[4400];
    random_workset(text, sizeof text);
    tf_machine m = tf_test_machine(2000 + rnd(20000), 0, 40 + rnd(215));
    tf_workset *w = tf_test_workset(text);
    ck_assert_msg(w != NULL, "%s", text);
    snprintf(what, sizeof what, "seed %llu (smem %lld, rf %lld): %s", seed + (unsigned long long)(_i * 300 + i),
             (long long)m.smem.capacity, (long long)m.rf.per_thread, text);
    tf_request req;
    tf_request_init(&req);
    tf_error e, le;
    tf_error_init(&e), tf_error_init(&le);
    tf_problem *whole = tf_problem_new(&m, w, &req, &e);
    tf_problem *lazy = tf_problem_new_on_demand_from(&m, w, &req, 0, 0, &le);
    ck_assert_msg(lazy != NULL || whole == NULL, "%s: on demand: %s", what, le.msg);
    if (whole && lazy) {
      int n = same_as_oracle(whole, lazy, what);
      solved++, infeasible += n == 0;
    } else if (lazy) {
      same_error(lazy, &e, what);
      errors++;
    }
    tf_problem_free(whole);
    tf_problem_free(lazy);
    tf_request_release(&req);
    tf_workset_free(w);
  }
  ck_assert_msg(solved > 100 && infeasible > 5 && errors > 20, "solved %d, infeasible %d, errors %d", solved,
                infeasible, errors);
}
END_TEST

/* The top 3 of both bindings of one request, compared as same_as_oracle
 * compares (both bound whole's and on demand's answers, certified). */
static int same_top(const tf_machine *m, const tf_workset *w, const tf_request *req, const char *what) {
  enum { K = 3 };
  tf_error e, le;
  tf_error_init(&e), tf_error_init(&le);
  tf_problem *whole = tf_problem_new(m, w, req, &e), *lazy = tf_problem_new_on_demand_from(m, w, req, 0, 0, &le);
  ck_assert_msg(lazy != NULL || whole == NULL, "%s: on demand: %s", what, le.msg);
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  tf_answer a[K], b[K];
  for (int i = 0; lazy && i < K; i++)
    tf_answer_init(&a[i], lazy), tf_answer_init(&b[i], lazy);
  int na = 0, nb = 0, ra = lazy ? tf_solve_top(lazy, &o, K, a, &na, &le) : 0;
  int rb = whole ? tf_solve_top(whole, &o, K, b, &nb, &e) : -1;
  if (lazy)
    ck_assert_msg(ra == rb && (ra ? le.code == e.code : na == nb), "%s: on demand %d (%d) %s, bound whole %d (%d) %s",
                  what, ra, na, le.msg, rb, nb, e.msg);
  for (int i = 0; lazy && !ra && i < na; i++) {
    ck_assert_msg(!memcmp(a[i].choose, b[i].choose, lazy->nchoose * sizeof *a[i].choose) &&
                      !memcmp(a[i].counts, b[i].counts, sizeof a[i].counts) &&
                      !memcmp(a[i].point.objective, b[i].point.objective, lazy->nobjective * sizeof(int64_t)),
                  "%s: rank %d differs", what, i + 1);
  }
  if (lazy && !ra && !na)
    ck_assert_msg(!strcmp(a[0].why, b[0].why), "%s: why '%s', bound whole '%s'", what, a[0].why, b[0].why);
  for (int i = 0; lazy && i < K; i++)
    tf_answer_release(&a[i]), tf_answer_release(&b[i]);
  int many = lazy && !ra && na && lazy->ncandidates > TF_ON_DEMAND_FROM; /* ranked, where a solve binds on demand */
  tf_problem_free(whole), tf_problem_free(lazy);
  return many;
}

/* Each choose domain widened to about 25 values between its ends, in
 * steps of 8 where its ends are multiples of 8 (the values it had kept). */
static void widen(tf_request *req, const tf_workset *w) {
  for (size_t i = 0; i < w->nchoose; i++) {
    const int64_t *v = w->choose[i].values;
    size_t n = w->choose[i].nvalues, k = 0;
    int64_t lo = v[0], hi = v[0], out[200];
    for (size_t j = 1; j < n; j++)
      lo = v[j] < lo ? v[j] : lo, hi = v[j] > hi ? v[j] : hi;
    int64_t step = (hi - lo) / 24 > 1 ? (hi - lo) / 24 : 1;
    if (lo % 8 == 0 && hi % 8 == 0 && step >= 8)
      step = step / 8 * 8;
    for (int64_t x = lo; x <= hi && k < 100 && hi - lo > 8; x += step)
      out[k++] = x;
    for (size_t j = 0, seen = 0, m = k; j < n && k < 200 && m; j++, seen = 0) {
      for (size_t q = 0; q < k; q++)
        seen |= out[q] == v[j];
      if (!seen)
        out[k++] = v[j]; /* the workset's own values stay */
    }
    if (k)
      tf_request_add_domain(req, w->choose[i].name, out, k, "widened");
  }
}

/* Every shipped workset on the first shipped machine of its architecture,
 * its domains widened (thousands of combinations), under its objectives and
 * under `min time_us` where it has one: on demand against bound whole. */
START_TEST(test_space_shipped_widened) {
  size_t nw, nm;
  int ranked = 0;
  char **ws = tf_catalog_list(TF_CATALOG_WORKSETS, &nw), **ms = tf_catalog_list(TF_CATALOG_MACHINES, &nm);
  for (size_t i = 0; i < nw; i++) {
    tf_error e;
    tf_error_init(&e);
    tf_workset *w = tf_catalog_load(TF_CATALOG_WORKSETS, ws[i], "-w", &e);
    ck_assert_msg(w != NULL, "%s: %s", ws[i], e.msg);
    tf_machine *m = NULL;
    for (size_t j = 0; j < nm && !m; j++) {
      m = tf_catalog_load(TF_CATALOG_MACHINES, ms[j], "-m", &e);
      if (m && tf_place_check_machine(m, w, 0, &e))
        tf_machine_free(m), m = NULL;
    }
    for (int time = 0; m && time < 2; time++) {
      tf_request req;
      tf_request_init(&req);
      widen(&req, w);
      if (time)
        tf_request_add_objective(&req, "min time_us", "--objective");
      char what[256];
      snprintf(what, sizeof what, "%s on %s%s", ws[i], m->name, time ? ", min time_us" : "");
      ranked += same_top(m, w, &req, what);
      tf_request_release(&req);
    }
    tf_machine_free(m);
    tf_workset_free(w);
  }
  tf_catalog_list_free(ws, nw), tf_catalog_list_free(ms, nm);
  ck_assert_msg(ranked >= 20, "only %d widened problems of more than %d combinations ranked", ranked,
                TF_ON_DEMAND_FROM);
}
END_TEST

static char out[1 << 16], err[1 << 12];

/* 10^7 combinations through the command line: the cap is gone; the
 * counters add up; the answer fits (check); nothing fitting is proven
 * without binding every combination. */
START_TEST(test_space_command_line) {
  char dir[256], path[300], args[1024];
  tf_test_temp_dir(dir, sizeof dir, "tf-space");
  snprintf(path, sizeof path, "%s/w.json", dir);
  static const char *const w =
      "{\"name\": \"big\", \"choose\": {\"a\": {\"from\": 1, \"to\": 10000}, \"b\": {\"from\": 1, \"to\": 1000}},"
      " \"count\": {\"s0\": {\"min\": 1, \"max\": 16}}, \"buffers\": [{\"name\": \"r\", \"memory\": \"smem\","
      " \"size\": \"s0 * (a %% 7 + b %% 5 + 1) * 4096\"}], \"require\": [\"s0 >= %d\"],"
      " \"objective\": [\"max (a * 31 + b * 17) %% 1000\", \"max s0\"]}";
  char text[1024];
  snprintf(text, sizeof text, w, 2);
  tf_test_write(path, text, strlen(text));
  snprintf(args, sizeof args, "solve -m b200 -w %s --json", path);
  ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
  unsigned long long cand, visited, bound, infeasible;
  const char *c = strstr(out, "\"combinations\":");
  ck_assert_msg(c && sscanf(c,
                            "\"combinations\":{\"candidates\":%llu,\"visited\":%llu,\"pruned_bound\":%llu,"
                            "\"pruned_infeasible\":%llu}",
                            &cand, &visited, &bound, &infeasible) == 4,
                "%s", out);
  ck_assert_msg(cand == 10000000 && visited + bound + infeasible == cand && visited < 1000, "%s", out);
  long long a, b, s0;
  const char *v = strstr(out, "\"values\":");
  ck_assert_msg(v && sscanf(v, "\"values\":{\"a\":%lld,\"b\":%lld,\"s0\":%lld}", &a, &b, &s0) == 3, "%s", out);
  ck_assert_int_eq((a * 31 + b * 17) % 1000, 999);
  snprintf(args, sizeof args, "check -m b200 -w %s --fix a=%lld --fix b=%lld --fix s0=%lld", path, a, b, s0);
  ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 0, "%s%s", out, err);
  snprintf(text, sizeof text, w, 17); /* s0 is at most 16 */
  tf_test_write(path, text, strlen(text));
  snprintf(args, sizeof args, "solve -m b200 -w %s", path);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 1);
  ck_assert_msg(strstr(err, "no point of the 10000000 candidate combinations fits: the search over boxes of them ruled "
                            "out every one"),
                "%s", err);
  /* slack() cannot be bounded over a box: every combination is bound, until the time limit */
  snprintf(text, sizeof text, w, 2);
  static const char at[] = "\"objective\": [", first[] = "\"max slack(rf)\", ";
  char *o = strstr(text, at) + strlen(at);
  memmove(o + strlen(first), o, strlen(o) + 1);
  memcpy(o, first, strlen(first));
  tf_test_write(path, text, strlen(text));
  snprintf(args, sizeof args, "solve -m b200 -w %s --time-limit 0.5", path);
  ck_assert_msg(tf_test_run(args, out, sizeof out, err, sizeof err) == 3, "%s", err);
  TF_TEST_CONTAINS(err, "time limit of 0.5 s reached before the optimum was proven: best found (",
                   "best bound no bound known (", " of 10000000 combinations bound one by one)");
  tf_test_remove_dir(dir);
}
END_TEST

Suite *space_suite(void) {
  Suite *s = suite_create("space");
  TCase *tc = tcase_create("Against the oracle");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_space_against_oracle, 0, 3);
  tcase_add_test(tc, test_space_command_line);
  tcase_add_test(tc, test_space_shipped_widened);
  suite_add_tcase(s, tc);
  return s;
}
