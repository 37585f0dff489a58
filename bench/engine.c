/* The engine benchmark behind `make bench-engine` (also part of `make
 * bench`; not a test).  In one run on one machine it measures:
 *   1. the solve path (tf_solve: the exact search, then certification from
 *      the workset's expressions) against the exhaustive oracle
 *      (tf_oracle_solve) on the same bound problems: generated worksets
 *      with 1, 2 or 3 counts and 10^2 .. 10^6 kept combinations, with and
 *      without a require that loosens as a count grows, medians and their
 *      ratio, and the growth exponent fitted over 10^3 .. 10^6; a second
 *      family puts the counts first (1, 2, 3 or 5 of them) out of reach
 *      of their maxima; past 10^9 points the oracle is not run;
 *   2. the whole process (`tilefit solve --json`) at 10^4 and 10^5 kept
 *      combinations with three counts: wall time and peak memory, with a
 *      fixed-tile solve of the same workset timed in the same run;
 *   3. --top K on cutlass-sm90-gemm (h100-sxm) for K = 10, 50, 200: the
 *      search against the oracle's K best (tf_oracle_top), rankings
 *      compared point by point, and the whole `tilefit solve --top K`.
 *   4. small problems (no counts, counts in 1..2, shipped worksets with few
 *      count values): the solve path against the oracle, which has little
 *      to do there.
 * Usage: bench-engine OUT.md [MAX_KEPT] [BUDGET_S] [TILEFIT_BIN];
 * BENCH_ENGINE_ONLY=growth|hard|small|process|top writes that table alone. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "encode/oracle.h"
#include "solver/solve.h"

#include "bench/util.h"

/* --------------------------------------------------- generated worksets */

struct bcase {
  tf_problem *p;
  tf_solve_opts o;
  int k;        /* --top K, 0: a solve */
  tf_answer *a; /* k (or 1) answers */
  int n;
  tf_oracle_result *r;
  size_t nr;
};

static int run_search(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  int rc = b->k ? tf_solve_top(b->p, &b->o, b->k, b->a, &b->n, &e) : tf_solve(b->p, &b->o, NULL, b->a, &e);
  if (!b->k)
    b->n = b->a->status == TF_ANSWER_OPTIMAL;
  if (rc)
    fprintf(stderr, "bench-engine: %s\n", e.msg);
  return rc;
}

/* The search alone, without certifying and describing each answer. */
static int run_search_only(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  size_t n;
  size_t k = b->k ? (size_t)b->k : 1;
  tf_found *found = calloc(k, sizeof *found);
  int rc = tf_search(b->p, k, 0, found, &n, NULL, &e);
  free(found);
  return rc;
}

static int run_oracle(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  int rc = tf_oracle_top(b->p, SIZE_MAX, b->k ? (size_t)b->k : 1, b->r, &b->nr, &e);
  if (rc)
    fprintf(stderr, "bench-engine: oracle: %s\n", e.msg);
  return rc;
}

/* Same points, in the same order, with the same objective values. */
static int agree(const struct bcase *b) {
  if ((size_t)b->n != b->nr)
    return 0;
  for (int i = 0; i < b->n; i++) {
    if (b->a[i].combo != b->r[i].combo)
      return 0;
    for (int k = 0; k < b->p->ncounts; k++)
      if (b->a[i].counts[k] != b->r[i].counts[k])
        return 0;
    for (size_t o = 0; o < b->p->nobjective; o++)
      if (b->a[i].point.objective[o] != b->r[i].objective[o])
        return 0;
  }
  return 1;
}

struct timing {
  size_t kept, points;
  double search, oracle, search_only;
  int agrees;
};

/* The oracle visits about 10^7 points a second: past this many a row
 * times the solve path alone (its oracle and agreement read "-"). */
#define ORACLE_POINTS 1000000000

/* Binds a problem from machine and workset files, times both (the oracle
 * only up to ORACLE_POINTS points; t->agrees is -1 without it). */
/* With `alone` (or k) the search is timed alone too (search_only). */
static int measure(const char *machine, const char *workset, int k, int alone, double budget, struct timing *t) {
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(machine);
  req.workset = strdup(workset);
  tf_error e;
  tf_error_init(&e);
  tf_loaded l;
  struct bcase b;
  memset(&b, 0, sizeof b);
  int rc = -1;
  if (!tf_load(&req, "-m", "-w", &l, &e) && (b.p = tf_problem_new(l.machine, l.workset, &req, &e))) {
    size_t n = k ? (size_t)k : 1;
    b.k = k;
    tf_solve_opts_init(&b.o);
    b.a = calloc(n, sizeof *b.a);
    b.r = calloc(n, sizeof *b.r);
    for (size_t i = 0; i < n; i++)
      tf_answer_init(&b.a[i], b.p);
    t->kept = b.p->ncombos;
    t->points = b.p->ncombos;
    for (int c = 0; c < b.p->ncounts; c++)
      t->points *= (size_t)(b.p->count_hi[c] - b.p->count_lo[c] + 1);
    t->search = median_time(run_search, &b, budget, 3, NULL);
    int oracle = t->points <= ORACLE_POINTS;
    t->oracle = oracle ? median_time(run_oracle, &b, budget, 3, NULL) : SKIPPED;
    t->search_only = k || alone ? median_time(run_search_only, &b, budget, 3, NULL) : -1;
    t->agrees = oracle ? agree(&b) : -1;
    rc = t->search < 0 || (oracle && t->oracle < 0) ? -1 : 0;
    for (size_t i = 0; i < n; i++)
      tf_answer_release(&b.a[i]);
    free(b.a);
    free(b.r);
    tf_problem_free(b.p);
    tf_loaded_release(&l);
  } else {
    fprintf(stderr, "bench-engine: %s: %s\n", workset, e.msg);
  }
  tf_request_release(&req);
  return rc;
}

/* ------------------------------------------------------- whole process */

/* ---------------------------------------------------------- the tables */

#define NSIZES 5
static const size_t sizes[NSIZES] = {100, 1000, 10000, 100000, 1000000};

/* Least-squares slope of log(time) on log(kept) over the rows at 10^3 and up. */
static double exponent(const struct timing *t, int n, int oracle) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = 0; i < n; i++) {
    double y = oracle ? t[i].oracle : t[i].search;
    if (t[i].kept < 1000 || y <= 0)
      continue;
    double x = log((double)t[i].kept);
    sx += x, sy += log(y), sxx += x * x, sxy += x * log(y), m++;
  }
  return m < 2 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

static const char *const family_text[2] = {
    "Generated worksets on b200: choose a x b (every combination kept), counts s0 in 1..16, s1 in 1..8, s2 in "
    "1..4, one SMEM ring per count sized by the tile, a fixed SMEM buffer and an RF buffer.  Objectives: 1 "
    "count `max (a*31+b*17)%1000, max s0`; 2 counts `max s0 + s1` first, then the tile term; 3 counts the "
    "tile term, `max s0 + s2`, `min s1`.",
    "The same, but rings of 6 KB and more per stage, s0 in 1..32, s1 in 1..16 (three and five counts: s0 in "
    "1..16, the others in 1..8), and the counts first: `max s0`, `max s0 + s1`, `max s0 + s1 + s2`, "
    "`max s0 + s1 + s2 + s3 + s4` (rings s3, s4 of 8 KB and more), then the tile term.  No combination "
    "reaches the counts' maxima, so the box's corner bounds every combination alike and is never reached: the "
    "search tells them apart by the linear relaxation of the count subproblem (docs/design.md).  The "
    "oracle is run up to 10^9 points (kept times the points of a box: 65,536 with five counts); past that a row "
    "times the solve path alone and its oracle columns read -.",
};

/* One row of a growth table: ratio and agreement "-" without the oracle. */
static void growth_row(int nc, int loose, const struct timing *t) {
  char x[32], y[32], r[32];
  if (t->agrees < 0)
    snprintf(r, sizeof r, "-");
  else
    snprintf(r, sizeof r, "%.1f", t->oracle / t->search);
  both("| %d | %s | %zu | %s | %s | %s | %s |\n", nc, loose ? bench_loosening[nc - 1] : "-", t->kept,
       us(t->search, x, sizeof x), us(t->oracle, y, sizeof y), r,
       t->agrees < 0 ? "-"
       : t->agrees   ? "yes"
                     : "**no**");
}

static const int growth_counts[2][4] = {{1, 2, 3, 0}, {1, 2, 3, 5}}; /* per family, 0 ends */

static void growth_table(const char *dir, size_t max_kept, double budget, int hard) {
  both("%s\n\n%s  The loosening requires are `s0 >= 4`, `s0 + s1 >= 5`, `s0 + s2 >= 5`%s.  *Solve* is `tf_solve` "
       "on the bound problem (exact search + certification); *oracle* is `tf_oracle_solve` on the same problem; "
       "medians of this process's CPU time (on a shared machine wall time mostly measures the neighbours); "
       "*agrees*: the same point and values.\n\n"
       "| counts | loosening require | kept | solve | oracle | oracle / solve | agrees |\n"
       "|---:|---|---:|---:|---:|---:|---|\n",
       hard ? "### Counts first, maxima out of reach" : "## The solve path against the exhaustive oracle",
       family_text[hard], hard ? " (five counts: both `s0 + s1 >= 5` and `s2 + s3 + s4 >= 6`)" : "");
  char path[512];
  struct timing all[8][NSIZES];
  int nrow[8] = {0}, ng = 0;
  for (int j = 0; j < 4 && growth_counts[hard][j]; j++)
    for (int loose = 0; loose < 2; loose++, ng++) {
      int nc = growth_counts[hard][j];
      for (int i = 0; i < NSIZES && sizes[i] <= max_kept; i++) {
        snprintf(path, sizeof path, "%s/w.json", dir);
        struct timing *t = &all[ng][nrow[ng]];
        if (bench_workset(path, nc, sizes[i], loose, hard) || measure("b200", path, 0, 0, budget, t))
          continue;
        nrow[ng]++;
        growth_row(nc, loose, t);
      }
    }
  both("\nGrowth exponent a in time ~ kept^a, least squares over the rows from 10^3 kept up (the oracle's over "
       "the rows it ran):\n\n| counts | loosening require | solve | oracle |\n|---:|---|---:|---:|\n");
  for (int g = 0; g < ng; g++) {
    int nc = growth_counts[hard][g / 2];
    double a = exponent(all[g], nrow[g], 0), b = exponent(all[g], nrow[g], 1);
    char x[16] = "-", y[16] = "-";
    if (!isnan(a))
      snprintf(x, sizeof x, "%.2f", a);
    if (!isnan(b))
      snprintf(y, sizeof y, "%.2f", b);
    both("| %d | %s | %s | %s |\n", nc, g % 2 ? bench_loosening[nc - 1] : "-", x, y);
  }
  both("\n");
}

static const char *const shipped_small[][2] = {
    {"fa2-fwd", "a100"},
    {"fa2-bwd", "a100"},
    {"flashinfer-prefill", "a100"},
    {"flashmla-sm90-decode", "h100-sxm"},
    {"fa3-bwd", "h100-sxm"},
    {"fa3-fwd", "h100-sxm"},
};

static void small_row(const char *what, const char *machine, const char *workset, double budget) {
  struct timing t;
  char x[32], y[32], z[32];
  if (measure(machine, workset, 0, 1, budget, &t))
    return;
  both("| %s | %zu | %zu | %s | %s | %s | %.2f | %.2f | %s |\n", what, t.kept, t.points, us(t.search, x, sizeof x),
       us(t.search_only, z, sizeof z), us(t.oracle, y, sizeof y), t.search / t.oracle, t.search_only / t.oracle,
       t.agrees ? "yes" : "**no**");
}

/* Problems with few points: no counts, counts in 1..2, the shipped
 * worksets whose counts are fixed or few. */
static void small_table(const char *dir, size_t max_kept, double budget) {
  both("## Small problems: the solve path against a scan\n\n"
       "Where a combination has few count values the exhaustive oracle has little to do, and the solve path must "
       "not cost more.  Generated worksets on b200 as in the first family (the same tiles, rings, fixed buffers "
       "and objectives) with no counts (the tile term alone) or with 1 or 3 counts, each in 1..2, the tile term first "
       "or (*counts "
       "first*) the second family's objectives; then the "
       "shipped worksets whose counts are fixed or few, each on its machine.  *Solve* is `tf_solve` (the exact "
       "search, which scans a problem of at most 16 count values per combination point by point, and the "
       "certification of its answer); *search* is `tf_search` alone, the same point without the certification "
       "(the answer evaluated again from the workset's expressions, docs/design.md); *oracle* is "
       "`tf_oracle_solve`; medians of this process's CPU time; *agrees*: the same point and values.\n\n"
       "| workset | kept | points | solve | search | oracle | solve / oracle | search / oracle | agrees |\n"
       "|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
  char path[512], what[64];
  snprintf(path, sizeof path, "%s/ws.json", dir);
  static const int ncounts[] = {0, 1, 3, 1, 3};
  for (int g = 0; g < 5; g++)
    for (int i = 0; i < NSIZES && sizes[i] <= max_kept; i++) {
      if (ncounts[g])
        snprintf(what, sizeof what, "%d count%s in 1..2%s", ncounts[g], ncounts[g] > 1 ? "s" : "",
                 g >= 3 ? ", counts first" : "");
      else
        snprintf(what, sizeof what, "no counts");
      if (!bench_workset_small(path, ncounts[g], sizes[i], g >= 3))
        small_row(what, "b200", path, budget);
    }
  for (size_t i = 0; i < sizeof shipped_small / sizeof *shipped_small; i++) {
    snprintf(what, sizeof what, "%s on %s", shipped_small[i][0], shipped_small[i][1]);
    small_row(what, shipped_small[i][1], shipped_small[i][0], budget);
  }
  remove(path);
  both("\n");
}

static void process_table(const char *dir, const char *bin) {
  both("## The whole process, three counts\n\n"
       "`tilefit solve -m b200 -w W.json --json` on the generated 3-count worksets above, against the same command "
       "with `--fix a=1 --fix b=1` (one combination), in the same run; medians of 5 of the wall time and of the "
       "process's CPU time (user + system); peak RSS of the process (`tilefit`'s own: the benchmark runs itself "
       "again as a small helper that forks and execs `tilefit` and reads its child's `ru_maxrss` from `wait4`; a "
       "fork of the benchmark itself would report the benchmark's peak, which `ru_maxrss` carries across exec); "
       "the ratio is of CPU times.  No oracle runs here, so the rows go to 10^6 kept whatever `BENCH_MAX_KEPT` "
       "says.\n\n"
       "| kept | loosening require | solve, wall | solve, CPU | peak RSS | fixed-tile solve, wall | fixed-tile, CPU | "
       "fixed-tile peak RSS | ratio |\n"
       "|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
  char path[512], x[32], y[32], xc[32], yc[32];
  snprintf(path, sizeof path, "%s/w3.json", dir);
  for (size_t kept = 10000; kept <= 1000000; kept *= 10) /* no oracle here: 10^6 whatever max_kept */
    for (int loose = 0; loose < 2; loose++) {
      if (bench_workset(path, 3, kept, loose, 0))
        continue;
      char *free_argv[] = {(char *)bin, "solve", "-m", "b200", "-w", path, "--json", NULL};
      char *fixed_argv[] = {(char *)bin, "solve", "-m",  "b200",  "-w",  path,
                            "--json",    "--fix", "a=1", "--fix", "b=1", NULL};
      long rss = 0, rss_fixed = 0;
      double c, cf, t = bench_process_median(bin, free_argv, &c, &rss),
                    tf = bench_process_median(bin, fixed_argv, &cf, &rss_fixed);
      both("| %zu | %s | %s | %s | %.1f MiB | %s | %s | %.1f MiB | %.1f |\n", kept, loose ? bench_loosening[2] : "-",
           us(t, x, sizeof x), us(c, xc, sizeof xc), (double)rss / 1024, us(tf, y, sizeof y), us(cf, yc, sizeof yc),
           (double)rss_fixed / 1024, c / cf);
    }
  char *true_argv[] = {"/bin/true", NULL};
  long rss_true = 0;
  double c_true;
  if (bench_process_median("/bin/true", true_argv, &c_true, &rss_true) >= 0)
    both("\nThe same measurement of `/bin/true` reads %.1f MiB: the floor the helper's image sets.\n",
         (double)rss_true / 1024);
}

static void top_table(const char *bin, double budget) {
  both("\n## --top K\n\n"
       "cutlass-sm90-gemm on h100-sxm, default params and objectives.  *Search + certify*: `tf_solve_top` on the "
       "bound problem (each answer re-evaluated from the workset's expressions, with its closed form); *search*: "
       "`tf_search` alone; *oracle*: `tf_oracle_top`, every point, keeping the K best; *same ranking*: point by point; "
       "*process*: `tilefit solve -m h100-sxm -w cutlass-sm90-gemm --top K --json`, median wall time of 5.\n\n"
       "| K | search + certify | search | oracle | oracle / search | same ranking | process |\n"
       "|---:|---:|---:|---:|---:|---|---:|\n");
  static const int ks[] = {10, 50, 200};
  char x[32], y[32], z[32], w[32], kbuf[16];
  for (int i = 0; i < 3; i++) {
    struct timing t;
    if (measure("h100-sxm", "cutlass-sm90-gemm", ks[i], 0, budget, &t))
      continue;
    snprintf(kbuf, sizeof kbuf, "%d", ks[i]);
    char *argv[] = {(char *)bin, "solve", "-m", "h100-sxm", "-w", "cutlass-sm90-gemm", "--top", kbuf, "--json", NULL};
    long rss;
    double cpu, p = bench_process_median(bin, argv, &cpu, &rss);
    both("| %d | %s | %s | %s | %.1f | %s | %s |\n", ks[i], us(t.search, x, sizeof x), us(t.search_only, w, sizeof w),
         us(t.oracle, y, sizeof y), t.oracle / t.search_only, t.agrees ? "yes" : "**no**", us(p, z, sizeof z));
  }
}

int main(int argc, char **argv) {
  if (argc > 3 && !strcmp(argv[1], BENCH_HELPER_ARG))
    return bench_rusage_helper(argv);
  const char *out = argc > 1 ? argv[1] : "bench/engine.md";
  size_t max_kept = argc > 2 ? (size_t)atol(argv[2]) : 1000000;
  double budget = argc > 3 ? atof(argv[3]) : 0.3;
  const char *bin = argc > 4 ? argv[4] : "./tilefit";
  bench_clock = cpu_now;
  md = fopen(out, "w");
  if (!md) {
    perror(out);
    return 2;
  }
  char dir[] = "/tmp/tf-bench-engine-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 3;
  }
  double load[1] = {-1};
  getloadavg(load, 1);
  fprintf(md,
          "# Engine benchmark\n\nWritten by `make bench-engine` (bench/engine.c); every figure below was measured "
          "in that one run, on a machine with load average %.2f at the start.\n\n",
          load[0]);
  if (max_kept < 1000000)
    fprintf(md,
            "This run stops at %zu kept combinations (`BENCH_MAX_KEPT=%zu make bench-engine`; the default, "
            "10^6, takes the oracle minutes per row on a shared machine).\n\n",
            max_kept, max_kept);
  const char *only = getenv("BENCH_ENGINE_ONLY"); /* one table: growth, hard, small, process or top */
  if (!only || !strcmp(only, "growth"))
    growth_table(dir, max_kept, budget, 0);
  if (!only || !strcmp(only, "hard"))
    growth_table(dir, max_kept, budget, 1);
  if (!only || !strcmp(only, "small"))
    small_table(dir, max_kept, budget);
  if (!only || !strcmp(only, "process"))
    process_table(dir, bin);
  if (!only || !strcmp(only, "top"))
    top_table(bin, budget);
  char path[600];
  snprintf(path, sizeof path, "%s/w.json", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/w3.json", dir);
  remove(path);
  rmdir(dir);
  fclose(md);
  fprintf(stderr, "bench-engine: wrote %s\n", out);
  return 0;
}
