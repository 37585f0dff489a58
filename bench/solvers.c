/* The solver benchmark behind `make bench-solvers` (also part of `make
 * bench`; not a test): the exact search (--solver exact), GLPK on the
 * whole integer program (--solver glpk: build, GLPK, decode, certify
 * against the exact optimum) and the exhaustive oracle (encode/oracle.h)
 * on the same bound problems, in one run on one machine:
 *   1. every shipped workset on its machine, default params, its own
 *      objectives;
 *   2. bench/engine.md's generated worksets (bench_workset): 1, 2 or 3
 *      counts, 10^2 .. 10^5 kept combinations, with and without a
 *      loosening require.
 * Each solver runs in a child process of its own (fork), which binds the
 * problem, solves it repeatedly for the median and reports its peak RSS
 * (wait4's ru_maxrss: the child's whole peak, binding included).  A GLPK
 * answer the certification rejects (exit 3 in the command) is counted,
 * with its first words; growth exponents are fitted over 10^3 .. 10^5.
 * Usage: bench-solvers OUT.md [MAX_KEPT] [BUDGET_S] [GLPK_LIMIT_S]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "encode/oracle.h"
#include "model/input/catalog.h"
#include "solver/solve.h"

#include "bench/util.h"

enum { EXACT, GLPK, ORACLE, NSOLVERS };

/* What a child reports through its pipe. */
struct result {
  double median; /* seconds; < 0: failed */
  int status;    /* 1 optimal, 0 infeasible */
  int rejected;  /* GLPK: the certification refused its answer */
  int64_t obj[TF_MAX_OBJECTIVES];
  size_t kept;
  double glpk_s; /* GLPK: the median of its own solve times */
  int timeout;   /* GLPK: the time limit, not a wrong answer */
  char why[160]; /* a rejection's or failure's first words */
  long rss_kib;  /* filled by the parent */
};

#define MAX_RUNS 256
struct job {
  tf_problem *p;
  tf_solve_opts o;
  int solver;
  struct result *r;
  double own[MAX_RUNS]; /* GLPK's own solve time, per run */
  int nown;
};

static int run_one(void *ctx) {
  struct job *j = ctx;
  tf_error e;
  tf_error_init(&e);
  int rc;
  if (j->solver == ORACLE) {
    tf_oracle_result o;
    size_t n = 0;
    rc = tf_oracle_top(j->p, SIZE_MAX, 1, &o, &n, &e);
    j->r->status = n > 0;
    for (size_t i = 0; !rc && n && i < j->p->nobjective && i < TF_MAX_OBJECTIVES; i++)
      j->r->obj[i] = o.objective[i];
  } else {
    tf_answer a;
    tf_answer_init(&a, j->p);
    rc = tf_solve(j->p, &j->o, NULL, &a, &e);
    j->r->status = a.status == TF_ANSWER_OPTIMAL;
    if (j->nown < MAX_RUNS)
      j->own[j->nown++] = a.ilp_seconds;
    for (size_t i = 0; !rc && j->r->status && i < j->p->nobjective && i < TF_MAX_OBJECTIVES; i++)
      j->r->obj[i] = a.point.objective[i];
    tf_answer_release(&a);
  }
  if (rc) {
    j->r->timeout = j->solver == GLPK && strstr(e.msg, "time limit") != NULL;
    j->r->rejected = j->solver == GLPK && e.code == TF_ESOLVER && !j->r->timeout;
    snprintf(j->r->why, sizeof j->r->why, "%.150s", e.msg);
  }
  return rc;
}

/* In the child: bind, time, report. */
static void child(const char *machine, const char *workset, int solver, double budget, double glpk_limit, int fd) {
  struct result r;
  memset(&r, 0, sizeof r);
  r.median = -1;
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(machine);
  req.workset = strdup(workset);
  tf_error e;
  tf_error_init(&e);
  tf_loaded l;
  static struct job j;
  j.p = NULL, j.solver = solver, j.r = &r, j.nown = 0;
  if (!tf_load(&req, "-m", "-w", &l, &e) && (j.p = tf_problem_new(l.machine, l.workset, &req, &e))) {
    tf_solve_opts_init(&j.o);
    j.o.backend = solver == GLPK ? &tf_backend_glpk : NULL;
    j.o.time_limit_s = solver == GLPK ? glpk_limit : 0;
    r.kept = j.p->ncombos;
    r.median = median_time(run_one, &j, budget, 3, NULL);
    qsort(j.own, (size_t)j.nown, sizeof *j.own, cmp_double);
    r.glpk_s = j.nown ? j.own[j.nown / 2] : -1;
  } else {
    snprintf(r.why, sizeof r.why, "%.150s", e.msg);
  }
  if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
    _exit(1);
  _exit(0);
}

static struct result measure(const char *machine, const char *workset, int solver, double budget, double glpk_limit) {
  struct result r;
  memset(&r, 0, sizeof r);
  r.median = -1;
  int fds[2];
  if (pipe(fds))
    return r;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    child(machine, workset, solver, budget, glpk_limit, fds[1]);
  }
  close(fds[1]);
  ssize_t got = pid > 0 ? read(fds[0], &r, sizeof r) : -1;
  close(fds[0]);
  struct rusage ru;
  int status;
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || got != (ssize_t)sizeof r) {
    memset(&r, 0, sizeof r);
    r.median = -1;
    snprintf(r.why, sizeof r.why, "the child failed");
    return r;
  }
  r.rss_kib = ru.ru_maxrss;
  return r;
}

/* ---------------------------------------------------------------- rows */

struct row {
  char name[96];
  struct result r[NSOLVERS];
};

static int same(const struct result *a, const struct result *b, size_t nobj) {
  if (a->median < 0 || b->median < 0 || a->status != b->status)
    return 0;
  return !a->status || !memcmp(a->obj, b->obj, nobj * sizeof *a->obj);
}

static size_t rejected, timeouts, glpk_runs, disagree;

static void run_row(struct row *w, const char *machine, const char *workset, double budget, double glpk_limit) {
  for (int s = 0; s < NSOLVERS; s++)
    w->r[s] = measure(machine, workset, s, budget, glpk_limit);
  if (w->r[EXACT].median < 0 && w->r[ORACLE].median < 0)
    return; /* does not bind here (an architecture the machine lacks) */
  glpk_runs++;
  rejected += w->r[GLPK].rejected;
  timeouts += w->r[GLPK].timeout;
  /* a certified GLPK answer, and the exact one, must be the oracle's */
  size_t nobj = TF_MAX_OBJECTIVES;
  disagree +=
      !same(&w->r[EXACT], &w->r[ORACLE], nobj) || (w->r[GLPK].median >= 0 && !same(&w->r[GLPK], &w->r[ORACLE], nobj));
}

static void header(void) {
  both("| case | kept | exact | GLPK, full model (GLPK's own solve) | oracle | GLPK / exact | oracle / exact | peak "
       "RSS exact / GLPK / "
       "oracle | GLPK answer |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

static double limit_shown = 5; /* GLPK's time limit, for the table */

static void print_row(const struct row *w) {
  char t[NSOLVERS][64], ratio[2][32], own[32];
  const struct result *r = w->r;
  for (int s = 0; s < NSOLVERS; s++)
    us(r[s].median, t[s], sizeof t[s]);
  size_t len = strlen(t[GLPK]);
  if (r[GLPK].timeout)
    snprintf(t[GLPK], sizeof t[GLPK], "> %.0f s (time limit)", limit_shown);
  else if (r[GLPK].median >= 0)
    snprintf(t[GLPK] + len, sizeof t[GLPK] - len, " (GLPK %s)", us(r[GLPK].glpk_s, own, sizeof own));
  snprintf(ratio[0], sizeof ratio[0], r[GLPK].median > 0 && r[EXACT].median > 0 ? "%.1f" : "-",
           r[GLPK].median / r[EXACT].median);
  snprintf(ratio[1], sizeof ratio[1], r[ORACLE].median > 0 && r[EXACT].median > 0 ? "%.1f" : "-",
           r[ORACLE].median / r[EXACT].median);
  char verdict[200];
  if (r[GLPK].rejected)
    snprintf(verdict, sizeof verdict, "rejected: %.60s...", r[GLPK].why);
  else if (r[GLPK].timeout)
    snprintf(verdict, sizeof verdict, "time limit (exit 3)");
  else if (r[GLPK].median < 0)
    snprintf(verdict, sizeof verdict, "failed: %.60s", r[GLPK].why);
  else
    snprintf(verdict, sizeof verdict, "certified%s",
             same(&r[GLPK], &r[ORACLE], TF_MAX_OBJECTIVES) ? "" : " (differs from the oracle!)");
  both("| %s | %zu | %s | %s | %s | %s | %s | %.1f / %.1f / %.1f MiB | %s |\n", w->name, r[EXACT].kept, t[EXACT],
       r[GLPK].rejected ? "-" : t[GLPK], t[ORACLE], r[GLPK].rejected ? "-" : ratio[0], ratio[1],
       (double)r[EXACT].rss_kib / 1024, (double)r[GLPK].rss_kib / 1024, (double)r[ORACLE].rss_kib / 1024, verdict);
}

/* The machine a shipped workset runs on here: the first whose name
 * marks its architecture. */
static const char *machine_for(const char *ws) {
  static const struct {
    const char *mark, *machine;
  } table[] = {{"sm103", "b300"},    {"sm100", "b200"},   {"fa4", "b200"},         {"sm120", "rtx5090"},
               {"sm90", "h100-sxm"}, {"fa3", "h100-sxm"}, {"flashmla", "h100-sxm"}};
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strstr(ws, table[i].mark))
      return table[i].machine;
  return "a100";
}

static void shipped(double budget, double glpk_limit) {
  size_t n;
  char **names = tf_catalog_list(TF_CATALOG_WORKSETS, &n);
  both("## Shipped worksets\n\nEach on its machine, default params, its own objectives.\n\n");
  header();
  for (size_t i = 0; i < n; i++) {
    struct row w;
    snprintf(w.name, sizeof w.name, "%s on %s", names[i], machine_for(names[i]));
    run_row(&w, machine_for(names[i]), names[i], budget, glpk_limit);
    print_row(&w);
  }
  tf_catalog_list_free(names, n);
}

/* Least-squares slope of log(time) on log(kept) over kept >= `from`. */
static double exponent(const struct row *w, int n, int s, size_t from) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = 0; i < n; i++) {
    double y = w[i].r[s].median;
    if (w[i].r[EXACT].kept < from || y <= 0 || w[i].r[s].rejected)
      continue;
    double x = log((double)w[i].r[EXACT].kept);
    sx += x, sy += log(y), sxx += x * x, sxy += x * log(y), m++;
  }
  return m < 2 ? NAN : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

static void generated(const char *dir, size_t max_kept, double budget, double glpk_limit) {
  both("\n## Generated worksets (bench/engine.md's first family)\n\n");
  header();
  char path[256];
  snprintf(path, sizeof path, "%s/w.json", dir);
  char growth[6][160];
  int ng = 0;
  for (int nc = 1; nc <= 3; nc++)
    for (int loose = 0; loose < 2; loose++) {
      struct row w[4];
      int n = 0;
      for (size_t kept = 100; kept <= max_kept && n < 4; kept *= 10, n++) {
        snprintf(w[n].name, sizeof w[n].name, "%d count%s%s, 10^%d", nc, nc > 1 ? "s" : "",
                 loose ? ", loosening require" : "", (int)lround(log10((double)kept)));
        if (bench_workset(path, nc, kept, loose, 0)) {
          fprintf(stderr, "bench-solvers: cannot write %s\n", path);
          exit(1);
        }
        run_row(&w[n], "b200", path, budget, glpk_limit);
        print_row(&w[n]);
      }
      snprintf(growth[ng++], sizeof growth[0], "| %d%s | %.2f | %.2f | %.2f |\n", nc, loose ? ", loosening" : "",
               exponent(w, n, EXACT, 1000), exponent(w, n, GLPK, 100), exponent(w, n, ORACLE, 1000));
    }
  remove(path);
  both("\nGrowth exponents (time ~ kept^e, least squares over 10^3 .. 10^%d kept; GLPK's from 10^2, without its "
       "timed-out rows; nan: fewer than two rows):\n\n| counts | exact | GLPK | oracle |\n|---|---:|---:|---:|\n",
       (int)lround(log10((double)max_kept)));
  for (int i = 0; i < ng; i++)
    both("%s", growth[i]);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench-solvers OUT.md [MAX_KEPT] [BUDGET_S] [GLPK_LIMIT_S]\n");
    return 2;
  }
  size_t max_kept = argc > 2 ? (size_t)atol(argv[2]) : 100000;
  double budget = argc > 3 ? atof(argv[3]) : 0.2;
  double glpk_limit = argc > 4 ? atof(argv[4]) : 5;
  limit_shown = glpk_limit;
  md = fopen(argv[1], "w");
  char dir[] = "/tmp/tilefit-solversXXXXXX";
  if (!md || !mkdtemp(dir)) {
    perror("bench-solvers");
    return 1;
  }
  both("# Solvers: exact search vs GLPK vs exhaustive oracle\n\nMedian wall time per solve of a bound problem "
       "(at least 3 runs, %.2g s per solver and problem), each solver in a child process of its own; peak RSS "
       "is the child's (binding included).  *exact* is `--solver exact` (the exact search, certified); *GLPK* "
       "is `--solver glpk`: the exact search, then GLPK on the whole integer program (every kept combination, "
       "presolve on, time limit %.0f s), decoded and certified against the exact optimum; *oracle* is the "
       "exhaustive enumeration.  A rejected GLPK answer is one the certification refused (exit 3).\n\n",
       budget, glpk_limit);
  shipped(budget, glpk_limit);
  generated(dir, max_kept, budget, glpk_limit);
  both("\nGLPK answers the certification rejected: %zu of %zu problems (%.1f %%) as wrong, %zu more at the time "
       "limit.  Exact or certified GLPK answers that differ from the oracle: %zu.\n",
       rejected, glpk_runs, glpk_runs ? 100.0 * (double)rejected / (double)glpk_runs : 0.0, timeouts, disagree);
  rmdir(dir);
  fclose(md);
  return 0;
}
