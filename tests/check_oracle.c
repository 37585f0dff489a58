/* The property test: on thousands of generated worksets and machines, the
 * ILP's optimum equals the exhaustive oracle's, every ILP answer passes
 * exact verification (tf_solve checks it), and the closed-form depth agrees
 * whenever the layout is per-stage packed. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "encode/oracle.h"
#include "solver/solve.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define BATCHES 50
#define PER_BATCH 100 /* 5,000 generated problems */

static unsigned long long rng_state;
static unsigned rnd(unsigned n) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)((rng_state >> 33) % n);
}

struct gen {
  char json[8192];
  size_t n;
  int nchoose, ncounts;
  int packed; /* per-stage packed: the closed form must agree */
};

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(struct gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g->n += (size_t)vsnprintf(g->json + g->n, sizeof g->json - g->n, fmt, ap);
  va_end(ap);
}

/* A count-free term over the choose variables, >= 0. */
static void choose_term(struct gen *g) {
  if (!g->nchoose || rnd(3) == 0) {
    put(g, "%u", rnd(40));
    return;
  }
  int a = (int)rnd((unsigned)g->nchoose), b = (int)rnd((unsigned)g->nchoose);
  switch (rnd(5)) {
  case 0: put(g, "c%d * %u", a, 1 + rnd(9)); break;
  case 1: put(g, "c%d * c%d", a, b); break;
  case 2: put(g, "cdiv(c%d * %u, %u)", a, 1 + rnd(20), 1 + rnd(6)); break;
  case 3: put(g, "max(c%d, c%d) + %u", a, b, rnd(10)); break;
  default: put(g, "fdiv(c%d * c%d, 2) + %u", a, b, rnd(5)); break;
  }
}

static void size_expr(struct gen *g, int *count_dependent) {
  choose_term(g);
  *count_dependent = 0;
  for (int k = 0; k < g->ncounts; k++) {
    if (rnd(3) == 0)
      continue;
    *count_dependent = 1;
    put(g, " + s%d * (", k);
    choose_term(g);
    put(g, " + %u)", 1 + rnd(12));
  }
}

static void generate(struct gen *g, unsigned long long seed) {
  rng_state = seed * 2654435761ULL + 12345;
  memset(g, 0, sizeof *g);
  int force_packed = rnd(4) == 0;
  g->nchoose = (int)rnd(4);
  g->ncounts = force_packed ? 1 : 1 + (int)rnd(2);
  put(g, "{\"name\": \"gen%llu\", \"choose\": {", seed);
  for (int i = 0; i < g->nchoose; i++) {
    put(g, "%s\"c%d\": [", i ? ", " : "", i);
    unsigned nv = 1 + rnd(4), used[16] = {0};
    for (unsigned v = 0; v < nv; v++) {
      unsigned x;
      do
        x = 1 + rnd(12);
      while (used[x]);
      used[x] = 1;
      put(g, "%s%u", v ? ", " : "", x);
    }
    put(g, "]");
  }
  put(g, "}, \"count\": {");
  for (int k = 0; k < g->ncounts; k++) {
    unsigned lo = rnd(3);
    put(g, "%s\"s%d\": {\"min\": %u, \"max\": %u}", k ? ", " : "", k, lo, lo + rnd(14));
  }
  put(g, "}, \"buffers\": [");
  int nbuf = 1 + (int)rnd(5), aligned_dependent = 0;
  static const char *const mems[] = {"smem", "smem", "smem", "tmem", "rf"};
  static const unsigned aligns[] = {1, 1, 2, 4, 16, 128};
  for (int b = 0; b < nbuf; b++) {
    int dep;
    unsigned al = aligns[rnd(6)];
    put(g, "%s{\"name\": \"b%d\", \"memory\": \"%s\", \"size\": \"", b ? ", " : "", b, mems[rnd(5)]);
    size_expr(g, &dep);
    put(g, "\"");
    if (force_packed && dep)
      al = 1;
    if (al > 1)
      put(g, ", \"align\": %u", al);
    put(g, "}");
    aligned_dependent |= dep && al > 1;
  }
  put(g, "]");
  int nreq = force_packed ? 0 : (int)rnd(3);
  if (nreq) {
    put(g, ", \"require\": [");
    for (int r = 0; r < nreq; r++) {
      put(g, "%s\"", r ? ", " : "");
      if (g->ncounts > 1 && rnd(2))
        put(g, "s0 + s1 <= %u", 4 + rnd(16));
      else if (g->nchoose && rnd(2))
        put(g, "c0 * s0 <= %u", 10 + rnd(60));
      else
        put(g, "s0 >= %u", rnd(4));
      put(g, "\"");
    }
    put(g, "]");
  }
  int nobj = force_packed ? 1 : 1 + (int)rnd(3);
  int only_max_s0 = 1;
  put(g, ", \"objective\": [");
  for (int o = 0; o < nobj; o++) {
    put(g, "%s\"", o ? ", " : "");
    unsigned kind = rnd(5);
    if (o == 0 && (kind < 2 || force_packed)) {
      put(g, "max s0");
    } else {
      only_max_s0 = 0;
      if (kind == 0 && g->nchoose > 1)
        put(g, "max c0 * c1");
      else if (kind == 1 && g->nchoose)
        put(g, "min c0 * s0 + %u", rnd(5));
      else if (kind == 2)
        put(g, "%s s%d", rnd(2) ? "max" : "min", (int)rnd((unsigned)g->ncounts));
      else if (kind == 3 && g->nchoose)
        put(g, "max 3 * s0 - c%d", (int)rnd((unsigned)g->nchoose));
      else
        put(g, "max s0 + s%d", g->ncounts - 1);
    }
    put(g, "\"");
  }
  put(g, "]}");
  g->packed = g->ncounts == 1 && nreq == 0 && !aligned_dependent && only_max_s0 && nobj == 1;
}

static int run_one(unsigned long long seed, int *checked_closed) {
  struct gen g;
  generate(&g, seed);
  tf_machine m = tf_test_machine(50 + (long)rnd(1500), rnd(4) ? 64 + (long)rnd(448) : 0, 20 + (long)rnd(235));
  tf_workset *w = tf_test_workset(g.json);
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(&m, w, &req, &err);
  ck_assert_msg(p, "seed %llu: %s: %s\n%s", seed, err.path, err.msg, g.json);
  tf_solve_opts opts;
  tf_solve_opts_init(&opts);
  tf_answer a;
  tf_answer_init(&a, p);
  int rc = tf_solve(p, &opts, NULL, &a, &err);
  ck_assert_msg(rc == 0, "seed %llu: solve failed: %s\n%s", seed, err.msg, g.json);
  tf_oracle_result r;
  rc = tf_oracle_solve(p, 10000000, &r, &err);
  ck_assert_msg(rc == 0, "seed %llu: oracle failed: %s", seed, err.msg);
  ck_assert_msg(r.feasible == (a.status == TF_ANSWER_OPTIMAL), "seed %llu: oracle feasible %d, ILP status %d\n%s", seed,
                r.feasible, a.status, g.json);
  if (r.feasible) {
    for (size_t o = 0; o < p->nobjective; o++)
      ck_assert_msg(r.objective[o] == a.point.objective[o], "seed %llu: objective %zu '%s': oracle %lld, ILP %lld\n%s",
                    seed, o, p->objective[o].text, (long long)r.objective[o], (long long)a.point.objective[o], g.json);
    if (g.packed && a.closed[0].applies) {
      ck_assert_msg(a.closed[0].agrees, "seed %llu: closed form %lld, ILP %lld: %s\n%s", seed,
                    (long long)a.closed[0].value, (long long)a.counts[0], a.closed[0].reason, g.json);
      ++*checked_closed;
    }
  }
  tf_answer_release(&a);
  tf_problem_free(p);
  tf_workset_free(w);
  return r.feasible;
}

START_TEST(test_ilp_equals_oracle) {
  int feasible = 0, closed = 0;
  for (int i = 0; i < PER_BATCH; i++)
    feasible += run_one((unsigned long long)(_i * PER_BATCH + i), &closed);
  /* the generator must exercise both outcomes, and the closed form */
  ck_assert_int_gt(feasible, PER_BATCH / 5);
  ck_assert_int_lt(feasible, PER_BATCH);
  ck_assert_int_gt(closed, 0);
}
END_TEST

Suite *oracle_suite(void) {
  Suite *s = suite_create("oracle");
  TCase *tc = tcase_create("ILP equals oracle");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_ilp_equals_oracle, 0, BATCHES);
  suite_add_tcase(s, tc);
  return s;
}
