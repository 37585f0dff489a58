/* The benchmark of the search over boxes of combinations (docs/design.md,
 * "Boxes of combinations"), behind `make bench-space` (not a test).  In
 * one run on one machine:
 *   1. three generated families -- three counts (the first family of
 *      bench/engine.md), five counts (its second, counts first) and
 *      placement (the second family's three counts and a buffer placed in
 *      SMEM or registers) -- from 10^4 to 10^9 combinations: the whole
 *      `tilefit solve --json` (CPU, peak RSS) against a baseline binary
 *      (the release before: every combination bound, at most 10^6) in the
 *      same run, answers compared; the exhaustive oracle in this process
 *      on the problem bound whole where it finishes, against the search
 *      over boxes on the same workset; growth exponents;
 *   2. cutlass-sm90-gemm on h100-sxm over profiler-sized tile domains,
 *      both binaries.
 * Usage: bench-space OUT.md BIN BASE_BIN [MAX_COMBINATIONS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode/oracle.h"
#include "solver/solve.h"

#include "bench/util.h"

#define ORACLE_POINTS 700000000 /* about a minute of the oracle on a shared machine */
#define NSIZES 6
static const size_t sizes[NSIZES] = {10000, 100000, 1000000, 10000000, 100000000, 1000000000};

/* `bin args...`'s answer: from its JSON, "values" and "placement", or
 * "refused" when it exits non-zero.  Owned by the caller. */
static char *answer_of(const char *bin, char *const *argv) {
  char cmd[4096];
  size_t n = (size_t)snprintf(cmd, sizeof cmd, "%s", bin);
  for (int i = 1; argv[i] && n < sizeof cmd; i++)
    n += (size_t)snprintf(cmd + n, sizeof cmd - n, " '%s'", argv[i]);
  if (n < sizeof cmd)
    snprintf(cmd + n, sizeof cmd - n, " 2>/dev/null");
  FILE *f = popen(cmd, "r");
  static char out[1 << 16];
  size_t got = f ? fread(out, 1, sizeof out - 1, f) : 0;
  int rc = f ? pclose(f) : -1;
  out[got] = 0;
  const char *v = strstr(out, "\"values\":"), *end = v ? strstr(v, "\"objectives\"") : NULL;
  if (rc || !v || !end)
    return strdup("refused");
  return strndup(v, (size_t)(end - v));
}

/* The oracle on the problem bound whole, and the search over boxes on the
 * same workset bound on demand: *cpu the oracle's CPU time (one run), 1
 * when both name the same point with the same values; -1 when the
 * oracle would take too long or the problem cannot be bound whole. */
static int oracle_agrees(const char *machine, const char *workset, double *cpu) {
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(machine), req.workset = strdup(workset);
  tf_error e;
  tf_error_init(&e);
  tf_loaded l;
  int agree = -1;
  if (tf_load(&req, "-m", "-w", &l, &e)) {
    tf_request_release(&req);
    return -1;
  }
  tf_problem *whole = tf_problem_new(l.machine, l.workset, &req, &e);
  tf_problem *lazy = tf_problem_new_on_demand(l.machine, l.workset, &req, 0, &e);
  size_t points = whole ? whole->ncombos : 0;
  for (int c = 0; whole && c < whole->ncounts; c++)
    points *= (size_t)(whole->count_hi[c] - whole->count_lo[c] + 1);
  tf_oracle_result r;
  tf_answer a;
  tf_solve_opts o;
  tf_solve_opts_init(&o);
  if (whole && lazy && points <= ORACLE_POINTS) {
    tf_answer_init(&a, lazy);
    double t0 = cpu_now();
    int bad = tf_oracle_solve(whole, ORACLE_POINTS, &r, &e);
    *cpu = cpu_now() - t0;
    bad |= tf_solve(lazy, &o, NULL, &a, &e);
    agree = !bad && r.feasible && a.status == TF_ANSWER_OPTIMAL &&
            !memcmp(whole->combo + r.combo * whole->nchoose, a.choose, whole->nchoose * sizeof *a.choose) &&
            !memcmp(r.counts, a.counts, (size_t)whole->ncounts * sizeof *a.counts) &&
            !memcmp(r.objective, a.point.objective, whole->nobjective * sizeof *a.point.objective);
    tf_answer_release(&a);
  }
  tf_problem_free(whole);
  tf_problem_free(lazy);
  tf_loaded_release(&l);
  tf_request_release(&req);
  return agree;
}

struct row {
  size_t combos;
  double cpu, base_cpu; /* medians; -1 refused */
  long rss, base_rss;
};

/* Least-squares slope of log(cpu) on log(combinations). */
static double exponent(const struct row *t, int n, int base) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = 0; i < n; i++) {
    double y = base ? t[i].base_cpu : t[i].cpu;
    if (y <= 0)
      continue;
    double x = log((double)t[i].combos);
    sx += x, sy += log(y), sxx += x * x, sxy += x * log(y), m++;
  }
  return m < 2 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

static int write_family(const char *path, int family, size_t kept) {
  return family == 0   ? bench_workset(path, 3, kept, 0, 0)
         : family == 1 ? bench_workset(path, 5, kept, 0, 1)
                       : bench_workset_place(path, kept);
}

static const char *const family_name[3] = {"three counts", "five counts", "placement"};

/* One family, one size: both binaries, the answers, the oracle. */
static void family_row(const char *bin, const char *base, const char *path, int family, struct row *t) {
  char *argv[] = {(char *)bin, "solve", "-m", "b200", "-w", (char *)path, "--json", "--time-limit", "600", NULL};
  double wall;
  t->cpu = t->base_cpu = -1;
  t->rss = t->base_rss = 0;
  wall = bench_process_median(bin, argv, &t->cpu, &t->rss);
  char *mine = answer_of(bin, argv), *theirs = answer_of(base, argv);
  int same_base = !strcmp(mine, theirs), refused = !strcmp(theirs, "refused");
  if (!refused)
    bench_process_median(base, argv, &t->base_cpu, &t->base_rss);
  double ocpu = -1;
  int oracle = oracle_agrees("b200", path, &ocpu);
  char a[32], b[32], c[32], d[32];
  (void)wall;
  both("| %s | %zu | %s | %.1f MiB | %s | %s | %s | %s | %s |\n", family_name[family], t->combos,
       us(t->cpu, a, sizeof a), (double)t->rss / 1024, refused ? "refused" : us(t->base_cpu, b, sizeof b),
       refused ? "-" : (snprintf(d, sizeof d, "%.1f MiB", (double)t->base_rss / 1024), d),
       refused     ? "-"
       : same_base ? "yes"
                   : "**no**",
       oracle < 0 ? "-" : us(ocpu, c, sizeof c),
       oracle < 0 ? "-"
       : oracle   ? "yes"
                  : "**no**");
  free(mine), free(theirs);
}

static void families(const char *dir, const char *bin, const char *base, size_t max) {
  both(
      "## Generated families, 10^4 to 10^9 combinations\n\n"
      "`tilefit solve -m b200 -w W.json --json` of this tree (the search over boxes of combinations) against the "
      "baseline binary (every combination bound; it refuses more than 10^6) in the same run: medians of 5 of the "
      "process's CPU time (user + system) and its peak RSS (bench/util.c says how); *same*: the same values and "
      "placement in both JSON answers.  *Oracle*: `tf_oracle_solve` in this process on the workset bound whole "
      "(CPU time of one run), where it finishes (at most %d points); *agrees*: the search over boxes, on the same "
      "workset bound on demand, names its point with its values.  Three counts: bench/engine.md's first family "
      "(the tile term first); five counts: its second (the counts first, out of reach); placement: the second "
      "family's three counts and a buffer P placed in SMEM (`((a + b) %% 9 + 1) * 4096` B) or registers "
      "(`((a * 3 + b) %% 5 + 1) * 24`), which doubles the combinations.  Past 10^7 combinations the tile domain "
      "is a x b with b in 1..combinations / 10^5 (a domain holds at most 10^5 values).\n\n"
      "| family | combinations | solve, CPU | peak RSS | baseline, CPU | baseline peak RSS | same | oracle | agrees |\n"
      "|---|---:|---:|---:|---:|---:|---|---:|---|\n",
      ORACLE_POINTS);
  char path[512];
  snprintf(path, sizeof path, "%s/w.json", dir);
  struct row all[3][NSIZES];
  int nrow[3] = {0};
  for (int f = 0; f < 3; f++)
    for (int i = 0; i < NSIZES && sizes[i] <= max; i++) {
      struct row *t = &all[f][nrow[f]];
      t->combos = f == 2 ? 2 * sizes[i] : sizes[i];
      if (write_family(path, f, sizes[i]))
        continue;
      family_row(bin, base, path, f, t);
      nrow[f]++;
    }
  both("\nGrowth exponent a in CPU ~ combinations^a, least squares over the rows (the baseline's over those it "
       "solved):\n\n| family | solve | baseline |\n|---|---:|---:|\n");
  for (int f = 0; f < 3; f++)
    both("| %s | %.2f | %.2f |\n", family_name[f], exponent(all[f], nrow[f], 0), exponent(all[f], nrow[f], 1));
  remove(path);
  both("\n");
}

/* "16,32,...,256": from, from + step, ... up to `to`. */
static char *every(int from, int step, int to) {
  static char buf[8][512];
  static int k;
  char *b = buf[k++ % 8];
  size_t n = 0;
  for (int v = from; v <= to && n < 500; v += step)
    n += (size_t)snprintf(b + n, 512 - n, "%s%d", n ? "," : "", v);
  return b;
}

static void sm90_row(const char *bin, const char *base, const char *what, char *tm, char *tn, char *tk, char *splits) {
  char dm[600], dn[600], dk[600], ds[600];
  snprintf(dm, sizeof dm, "tile_m=%s", tm), snprintf(dn, sizeof dn, "tile_n=%s", tn);
  snprintf(dk, sizeof dk, "tile_k=%s", tk), snprintf(ds, sizeof ds, "splits=%s", splits);
  char *argv[] = {(char *)bin, "solve",        "-m",  "h100-sxm", "-w", "cutlass-sm90-gemm", "--domain",
                  dm,          "--domain",     dn,    "--domain", dk,   "--domain",          ds,
                  "--json",    "--time-limit", "600", NULL};
  double cpu = -1, base_cpu = -1;
  long rss = 0, base_rss = 0;
  bench_process_median(bin, argv, &cpu, &rss);
  char *mine = answer_of(bin, argv), *theirs = answer_of(base, argv);
  int refused = !strcmp(theirs, "refused");
  if (!refused)
    bench_process_median(base, argv, &base_cpu, &base_rss);
  char a[32], b[32], r[32], *v = strstr(mine, "{");
  snprintf(r, sizeof r, "%.1f MiB", (double)base_rss / 1024);
  both("| %s | %s | %.1f MiB | %s | %s | %s | `%.*s` |\n", what, us(cpu, a, sizeof a), (double)rss / 1024,
       refused ? "refused" : us(base_cpu, b, sizeof b), refused ? "-" : r,
       refused                 ? "-"
       : !strcmp(mine, theirs) ? "yes"
                               : "**no**",
       v ? (int)(strcspn(v, "}") + 1) : 0, v ? v : "");
  free(mine), free(theirs);
}

static void sm90(const char *bin, const char *base) {
  both("## A profiler-sized CUTLASS SM90 space\n\n"
       "`tilefit solve -m h100-sxm -w cutlass-sm90-gemm --domain ... --json` (default params: 4096^3 fp16, "
       "objectives `min time_us`, `max stages`) over tile domains the way the CUTLASS profiler enumerates them, "
       "each combination also with operands A and B in shared memory or registers (the workset's placements; it "
       "has no cluster, raster or swizzle variable, so those do not multiply the space here); both binaries, "
       "medians of 5 of CPU time, peak RSS.\n\n"
       "| space (combinations, placements included) | solve, CPU | peak RSS | baseline, CPU | baseline peak RSS | "
       "same | answer |\n|---|---:|---:|---:|---:|---|---|\n");
  sm90_row(bin, base, "tile_m every 16, tile_n every 8, tile_k 32..256, split-K 1..2 (16,384)", every(16, 16, 256),
           every(8, 8, 256), "32,64,128,256", "1,2");
  sm90_row(bin, base, "the same, split-K 1..16 (131,072)", every(16, 16, 256), every(8, 8, 256), "32,64,128,256",
           every(1, 1, 16));
  sm90_row(bin, base, "tile_m and tile_n every 8, tile_k every 16, split-K 1..8 (524,288)", every(8, 8, 256),
           every(8, 8, 256), every(16, 16, 256), every(1, 1, 8));
  sm90_row(bin, base, "the same, split-K 1..32 (2,097,152)", every(8, 8, 256), every(8, 8, 256), every(16, 16, 256),
           every(1, 1, 32));
  both("\n");
}

/* Instructions of `bin solve ...` under callgrind, into *total, and of
 * the functions named in fns (inclusive, summed) into *part; -1 when
 * valgrind or callgrind_annotate is missing. */
static int instructions(const char *bin, const char *workset, const char *const *fns, double *total, double *part) {
  char cmd[2048], line[4096];
  snprintf(cmd, sizeof cmd,
           "valgrind --tool=callgrind --callgrind-out-file=%s.cg %s solve -m b200 -w %s --json >/dev/null 2>&1 && "
           "callgrind_annotate --inclusive=yes %s.cg 2>/dev/null; rm -f %s.cg",
           workset, bin, workset, workset, workset);
  FILE *f = popen(cmd, "r");
  *total = *part = -1;
  while (f && fgets(line, sizeof line, f)) {
    char num[64];
    if (sscanf(line, " %63[0-9,]", num) != 1)
      continue;
    double v = 0;
    for (char *c = num; *c; c++)
      if (*c != ',')
        v = v * 10 + (*c - '0');
    if (strstr(line, "PROGRAM TOTALS"))
      *total = v;
    for (const char *const *fn = fns; *fn; fn++)
      if (strstr(line, *fn) && strchr(line, '[')) /* the function's own line, not a caller's */
        *part = (*part < 0 ? 0 : *part) + v;
  }
  int rc = f ? pclose(f) : -1;
  return rc || *total < 0 ? -1 : 0;
}

/* Binding's share of a 10^4 three-count solve, both binaries. */
static void binding_share(const char *dir, const char *bin, const char *base) {
  static const char *const mine[] = {"tf_problem_new_on_demand ", "tf_problem_bind_combo ", NULL};
  static const char *const theirs[] = {"tf_problem_new_timed ", NULL};
  char path[512];
  snprintf(path, sizeof path, "%s/w3.json", dir);
  double t1, p1, t2, p2;
  if (bench_workset(path, 3, 10000, 0, 0) || instructions(bin, path, mine, &t1, &p1) ||
      instructions(base, path, theirs, &t2, &p2)) {
    both("## Binding's share\n\nNot measured: valgrind's callgrind is missing.\n\n");
    remove(path);
    return;
  }
  both("## Binding's share\n\n`tilefit solve -m b200 -w W.json --json` on the three-count family at 10^4 combinations "
       "under callgrind, instructions of the whole process: this tree %.2f M, of which binding (the problem bound "
       "on demand, then the combinations bound one by one) %.0f k, %.1f %%; the baseline %.2f M, of which binding "
       "every combination %.2f M, %.1f %%.\n\n",
       t1 / 1e6, p1 / 1e3, 100 * p1 / t1, t2 / 1e6, p2 / 1e6, 100 * p2 / t2);
  remove(path);
}

int main(int argc, char **argv) {
  if (argc > 3 && !strcmp(argv[1], BENCH_HELPER_ARG))
    return bench_rusage_helper(argv);
  if (argc < 4) {
    fprintf(stderr, "usage: bench-space OUT.md BIN BASE_BIN [MAX_COMBINATIONS]\n");
    return 2;
  }
  size_t max = argc > 4 ? (size_t)atof(argv[4]) : 1000000000;
  md = fopen(argv[1], "w");
  char dir[] = "/tmp/tf-bench-space-XXXXXX";
  if (!md || !mkdtemp(dir)) {
    perror(argv[1]);
    return 3;
  }
  double load[1] = {-1};
  getloadavg(load, 1);
  const char *base_name = getenv("BENCH_BASE_NAME"); /* what the baseline is, for the reader: a commit */
  fprintf(md,
          "# Boxes of combinations\n\nWritten by `make bench-space` (bench/space.c); every figure below was "
          "measured in that one run, on a machine with load average %.2f at the start.  *Baseline*: `%s`, "
          "the tree before the search over boxes (every combination bound).\n\n",
          load[0], base_name ? base_name : argv[3]);
  families(dir, argv[2], argv[3], max);
  sm90(argv[2], argv[3]);
  binding_share(dir, argv[2], argv[3]);
  rmdir(dir);
  fclose(md);
  fprintf(stderr, "bench-space: wrote %s\n", argv[1]);
  return 0;
}
