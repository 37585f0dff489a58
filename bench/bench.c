/* The benchmark behind `make bench` (not part of the tests).  In one run on
 * one machine it measures:
 *   1. per problem, the median time of the solve path (tf_solve: the exact
 *      search and certification), GLPK on the whole ILP (build, GLPK,
 *      decode, verify), the exhaustive oracle (encode/oracle.h) and the
 *      closed form (encode/closed.h at every kept combination, best by the
 *      objectives), on every shipped workset and on generated worksets of
 *      10 to 10^5 combinations;
 *   2. sweep throughput on bench/spec-5k.json at -j 1 and -j 2, with and
 *      without reuse of answers and search optima;
 *   3. the reuse (memo) hit rates on that spec and on the validation cases.
 * Prints a table and writes the results as Markdown to argv[1]. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "encode/build.h"
#include "encode/closed.h"
#include "encode/oracle.h"
#include "encode/verify.h"
#include "model/input/catalog.h"
#include "solver/batch/cache.h"
#include "solver/batch/sweep.h"
#include "solver/report.h"
#include "solver/solve.h"

#include "bench/util.h"

/* ------------------------------------------------------------ one case */

struct bcase {
  const tf_machine *m;
  const tf_workset *w;
  tf_request req;
  tf_problem *p;
  tf_solve_opts o;
  int loose;             /* undo the tight count bounds */
  int64_t *closed_value; /* per combo x count, from a first pass */
  /* results */
  int status; /* TF_ANSWER_OPTIMAL or INFEASIBLE */
  int64_t obj[TF_MAX_OBJECTIVES];
  int oracle_feasible;
  int64_t oracle_obj[TF_MAX_OBJECTIVES];
  int closed_feasible;
  int64_t closed_obj[TF_MAX_OBJECTIVES];
  size_t oracle_points;
  char error[512];
};

static int fail(struct bcase *b, const tf_error *e) {
  tf_error_format(e, b->error, sizeof b->error);
  return -1;
}

static int do_bind(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  tf_problem *p = tf_problem_new(b->m, b->w, &b->req, &e);
  if (!p)
    return fail(b, &e);
  tf_problem_free(p);
  return 0;
}

/* The count columns' upper bounds as they were before encode/build.c
 * tightened them: the count's own bounds, in the column and in its link
 * row (bench only: it reaches into the model's rows by name). */
static void loosen(tf_model *m, const tf_problem *p) {
  size_t nk = (size_t)p->ncounts, ncols = m->ilp.ncols;
  size_t *which = malloc((ncols + 1) * sizeof *which); /* column -> c * nk + k + 1, or 0 */
  memset(which, 0, (ncols + 1) * sizeof *which);
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t k = 0; k < nk; k++) {
      size_t col = m->count_col[c * nk + k];
      m->ilp.cols[col].hi = (double)(p->count_hi[k] > 0 ? p->count_hi[k] : 0);
      which[col] = c * nk + k + 1;
    }
  for (size_t r = 0; r < m->ilp.nrows; r++) {
    tf_ilp_row *row = &m->ilp.rows[r];
    if (strncmp(row->name, "hi_", 3))
      continue;
    size_t ck = 0;
    for (size_t t = 0; t < row->lin.n && !ck; t++)
      ck = which[row->lin.ind[t]];
    if (!ck--)
      continue;
    size_t c = ck / nk, k = ck % nk;
    for (size_t t = 0; t < row->lin.n; t++)
      if (row->lin.ind[t] == m->pick[c])
        row->lin.val[t] = -(double)p->count_hi[k];
  }
  free(which);
}

static int do_ilp(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  tf_answer a;
  tf_answer_init(&a, b->p);
  int rc = 0;
  if (!b->loose) {
    rc = tf_solve(b->p, &b->o, NULL, &a, &e);
  } else if (b->p->ncombos == 0) {
    a.status = TF_ANSWER_INFEASIBLE;
  } else {
    tf_model m;
    tf_solution s;
    memset(&s, 0, sizeof s);
    rc = tf_model_build(&m, b->p, &e);
    if (!rc) {
      loosen(&m, b->p);
      tf_solve_opts glpk = b->o; /* GLPK with presolve, as --solver glpk runs it */
      glpk.backend = &tf_backend_glpk;
      rc = tf_backend_solve(&m.ilp, &glpk, &s, &e);
      if (!rc && s.status == TF_SOL_INFEASIBLE)
        a.status = TF_ANSWER_INFEASIBLE;
      else if (!rc)
        rc = tf_decode(&m, b->p, s.x, &a, &e) || tf_verify(b->p, &a, s.objval, &e) ? -1 : 0;
      tf_solution_release(&s);
      tf_model_release(&m);
    }
  }
  if (!rc) {
    b->status = a.status;
    for (size_t o = 0; o < b->p->nobjective && a.status == TF_ANSWER_OPTIMAL; o++)
      b->obj[o] = a.point.objective[o];
  }
  tf_answer_release(&a);
  return rc ? fail(b, &e) : 0;
}

static int do_oracle(void *ctx) {
  struct bcase *b = ctx;
  tf_error e;
  tf_error_init(&e);
  tf_oracle_result r;
  if (tf_oracle_solve(b->p, SIZE_MAX, &r, &e))
    return fail(b, &e);
  b->oracle_feasible = r.feasible;
  b->oracle_points = r.points;
  memcpy(b->oracle_obj, r.objective, sizeof r.objective);
  return 0;
}

/* The closed form as a solver: at every kept combination, each count at
 * its closed-form depth (the others at their lower bounds); the best by the
 * objectives.  It checks neither requires nor rounding: that is the point
 * of comparing it with the exact answer. */
static int do_closed(void *ctx) {
  struct bcase *b = ctx;
  const tf_problem *p = b->p;
  tf_error e;
  tf_error_init(&e);
  int first = b->closed_value == NULL;
  if (first)
    b->closed_value = calloc(p->ncombos * (size_t)p->ncounts + 1, sizeof *b->closed_value);
  b->closed_feasible = 0;
  for (size_t c = 0; c < p->ncombos; c++) {
    int64_t counts[TF_MAX_COUNTS], at[TF_MAX_COUNTS];
    int ok = 1;
    for (int k = 0; k < p->ncounts; k++)
      counts[k] = p->count_lo[k];
    for (int k = 0; k < p->ncounts; k++) {
      int64_t *v = &b->closed_value[c * (size_t)p->ncounts + (size_t)k];
      memcpy(at, counts, sizeof at);
      if (!first)
        at[k] = *v; /* the exact value to compare with: no explanation needed */
      tf_closed cl;
      if (tf_closed_form(p, c, at, k, &cl, &e))
        return fail(b, &e);
      *v = cl.applies ? cl.value : p->count_hi[k];
      if (*v < p->count_lo[k])
        ok = 0;
    }
    if (!ok)
      continue;
    int64_t obj[TF_MAX_OBJECTIVES];
    for (size_t o = 0; o < p->nobjective; o++) {
      const int64_t *a = tf_problem_obj(p, c, o);
      obj[o] = a[0];
      for (int k = 0; k < p->ncounts; k++)
        obj[o] += a[1 + k] * b->closed_value[c * (size_t)p->ncounts + (size_t)k];
    }
    int better = !b->closed_feasible;
    for (size_t o = 0; o < p->nobjective && !better; o++) {
      if (obj[o] == b->closed_obj[o])
        continue;
      better = p->objective[o].maximize ? obj[o] > b->closed_obj[o] : obj[o] < b->closed_obj[o];
      break;
    }
    if (better) {
      b->closed_feasible = 1;
      memcpy(b->closed_obj, obj, p->nobjective * sizeof *obj);
    }
  }
  return 0;
}

static int same_objectives(const struct bcase *b, int feasible, const int64_t *obj) {
  int ilp_ok = b->status == TF_ANSWER_OPTIMAL;
  if (ilp_ok != feasible)
    return 0;
  for (size_t o = 0; ilp_ok && o < b->p->nobjective; o++)
    if (obj[o] != b->obj[o])
      return 0;
  return 1;
}

struct row {
  char name[96];
  size_t candidates, kept;
  double bind, ilp, ilp_loose, oracle, closed;
  size_t oracle_points;
  int oracle_agrees, closed_agrees, loose_agrees;
  char error[512], ilp_error[512];
};

static void measure(struct bcase *b, struct row *r, double budget) {
  tf_error e;
  tf_error_init(&e);
  memset(r->error, 0, sizeof r->error);
  tf_solve_opts_init(&b->o); /* the CLI's defaults: the exact search, 60 s */
  b->loose = 0;
  b->closed_value = NULL;
  b->error[0] = 0;
  r->bind = median_time(do_bind, b, budget / 4, 3, NULL);
  b->p = tf_problem_new(b->m, b->w, &b->req, &e);
  if (!b->p) {
    tf_error_format(&e, r->error, sizeof r->error);
    return;
  }
  r->candidates = b->p->ncandidates;
  r->kept = b->p->ncombos;
  r->ilp = median_time(do_ilp, b, budget, 3, NULL);
  r->ilp_loose = SKIPPED;
  if (r->ilp < 0) {
    snprintf(r->ilp_error, sizeof r->ilp_error, "%s", b->error);
    b->status = -1;
  } else if (r->kept <= 50000) { /* the variants of the largest cases would only hit the time limit too */
    int status = b->status;
    int64_t obj[TF_MAX_OBJECTIVES];
    memcpy(obj, b->obj, sizeof obj);
    b->loose = 1;
    r->ilp_loose = median_time(do_ilp, b, budget, 3, NULL);
    r->loose_agrees = b->status == status && !memcmp(obj, b->obj, sizeof obj);
    b->loose = 0;
    b->status = status;
    memcpy(b->obj, obj, sizeof obj);
  }
  r->oracle = median_time(do_oracle, b, budget, 3, NULL);
  r->oracle_points = b->oracle_points;
  r->closed = median_time(do_closed, b, budget, 3, NULL);
  r->oracle_agrees = same_objectives(b, b->oracle_feasible, b->oracle_obj);
  r->closed_agrees = same_objectives(b, b->closed_feasible, b->closed_obj);
  if (r->oracle < 0 || r->closed < 0)
    snprintf(r->error, sizeof r->error, "%s", b->error);
  free(b->closed_value);
  tf_problem_free(b->p);
  b->p = NULL;
}

/* ------------------------------------------------------------- output */

static void table_header(void) {
  both("| case | combinations (kept) | bind | solve | GLPK, full model | oracle (points) | "
       "closed form | solve / oracle | solve / closed form | oracle agrees | closed form agrees |\n");
  both("|---|---:|---:|---:|---:|---:|---:|---:|---:|:-:|:-:|\n");
}

static void table_row(const struct row *r) {
  char b[6][64], ratio[2][32];
  if (r->error[0]) {
    both("| %s | | | | | | | | | | %s |\n", r->name, r->error);
    return;
  }
  if (r->ilp < 0) {
    snprintf(b[1], sizeof b[1], "%s", strstr(r->ilp_error, "time limit") ? "> 60 s (GLPK time limit)" : "failed");
    snprintf(ratio[0], sizeof ratio[0], "> %.0f", 60 / r->oracle);
    snprintf(ratio[1], sizeof ratio[1], "> %.0f", 60 / r->closed);
  } else {
    us(r->ilp, b[1], sizeof b[1]);
    snprintf(ratio[0], sizeof ratio[0], "%.2f", r->ilp / r->oracle);
    snprintf(ratio[1], sizeof ratio[1], "%.0f", r->ilp / r->closed);
  }
  both("| %s | %zu (%zu) | %s | %s | %s%s | %s (%zu) | %s | %s | %s | %s | %s |\n", r->name, r->candidates, r->kept,
       us(r->bind, b[0], 64), b[1], us(r->ilp_loose, b[3], 64),
       r->ilp_loose >= 0 && !r->loose_agrees ? " (differs!)" : "", us(r->oracle, b[4], 64), r->oracle_points,
       us(r->closed, b[5], 64), ratio[0], ratio[1],
       r->ilp < 0         ? "-"
       : r->oracle_agrees ? "yes"
                          : "NO",
       r->ilp < 0         ? "-"
       : r->closed_agrees ? "yes"
                          : "no");
}

/* ----------------------------------------------------- the benchmarks */

static const char *machine_for(const char *ws) {
  if (strstr(ws, "sm100") || strstr(ws, "fa4"))
    return "b200";
  if (strstr(ws, "sm90") || strstr(ws, "fa3"))
    return "h100-sxm";
  if (strstr(ws, "sm120"))
    return "rtx5090";
  return "a100";
}

static int shipped(tf_cache *cache, struct row *rows, size_t *nrows, double budget) {
  size_t n;
  char **names = tf_catalog_list(TF_CATALOG_WORKSETS, &n);
  for (size_t i = 0; i < n; i++) {
    struct bcase b;
    memset(&b, 0, sizeof b);
    tf_request_init(&b.req);
    b.req.machine = strdup(machine_for(names[i]));
    b.req.workset = strdup(names[i]);
    struct row *r = &rows[(*nrows)++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s on %s", names[i], b.req.machine);
    tf_error e;
    tf_error_init(&e);
    if (tf_cache_get(cache, &b.req, "-m", "-w", &b.m, &b.w, &e))
      tf_error_format(&e, r->error, sizeof r->error);
    else
      measure(&b, r, budget);
    tf_request_release(&b.req);
    fprintf(stderr, "  %s\n", r->name);
  }
  tf_catalog_list_free(names, n);
  return 0;
}

/* A GEMM-like workset with m x n tile combinations, all of which fit at
 * one stage: A and B stages scale with m + n, an epilogue with m * n. */
static tf_workset *generated(size_t mdim, size_t ndim, char *name, size_t size) {
  char text[2048];
  snprintf(name, size, "generated, %zu x %zu", mdim, ndim);
  snprintf(
      text, sizeof text,
      "{\"name\": \"gen-%zux%zu\", \"params\": {\"k\": 32, \"bits\": 16},"
      " \"choose\": {\"m\": {\"from\": 1, \"to\": %zu, \"step\": 1}, \"n\": {\"from\": 1, \"to\": %zu, \"step\": 1}},"
      " \"count\": {\"stages\": {\"min\": 1, \"max\": 64}},"
      " \"buffers\": ["
      "  {\"name\": \"A\", \"memory\": \"smem\", \"size\": \"stages * m * k * bits / 8\", \"align\": 128},"
      "  {\"name\": \"B\", \"memory\": \"smem\", \"size\": \"stages * n * k * bits / 8\", \"align\": 128},"
      "  {\"name\": \"C\", \"memory\": \"smem\", \"size\": \"(m + n) * 64 + fdiv(m * n, 8)\", \"align\": 1024}],"
      " \"require\": [\"m * n <= %zu\"],"
      " \"objective\": [\"max m * n\", \"max stages\"]}",
      mdim, ndim, mdim, ndim, mdim * ndim * 3 / 4);
  tf_error e;
  tf_error_init(&e);
  tf_workset *w = tf_workset_parse(text, strlen(text), "generated", &e);
  if (!w)
    fprintf(stderr, "bench: generated workset does not parse: %s: %s\n", e.path, e.msg);
  return w;
}

static void growth(tf_cache *cache, struct row *rows, size_t *nrows, double budget) {
  static const size_t dims[][2] = {{2, 5}, {10, 10}, {20, 50}, {50, 60}, {100, 100}, {200, 500}};
  tf_request mreq;
  tf_request_init(&mreq);
  mreq.machine = strdup("b200");
  mreq.workset = strdup("fa4-fwd");
  const tf_machine *m;
  const tf_workset *ignored;
  tf_error e;
  tf_error_init(&e);
  if (tf_cache_get(cache, &mreq, "-m", "-w", &m, &ignored, &e)) {
    fprintf(stderr, "bench: %s\n", e.msg);
    exit(3);
  }
  for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
    struct row *r = &rows[(*nrows)++];
    memset(r, 0, sizeof *r);
    struct bcase b;
    memset(&b, 0, sizeof b);
    tf_request_init(&b.req);
    b.m = m;
    tf_workset *w = generated(dims[i][0], dims[i][1], r->name, sizeof r->name);
    b.w = w;
    if (w)
      measure(&b, r, budget);
    tf_workset_free(w);
    fprintf(stderr, "  %s\n", r->name);
  }
  tf_request_release(&mreq);
}

struct sweep_result {
  int jobs;
  unsigned reuse;
  double seconds, rate;
  tf_sweep_stats st;
};

static int sweep_once(const char *spec, int jobs, unsigned reuse, struct sweep_result *out) {
  tf_error e;
  tf_error_init(&e);
  tf_sweep *s = tf_sweep_load(spec, &e);
  if (!s) {
    fprintf(stderr, "bench: %s: %s\n", spec, e.msg);
    return -1;
  }
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  o.jobs = jobs;
  o.reuse = reuse;
  double t0 = now();
  int rc = tf_sweep_run(s, &o, "/dev/null", &out->st, &e);
  out->seconds = now() - t0;
  out->jobs = jobs;
  out->reuse = reuse;
  out->rate = (double)out->st.written / out->seconds;
  if (rc)
    fprintf(stderr, "bench: sweep: %s\n", e.msg);
  tf_sweep_free(s);
  return rc;
}

/* The best of three runs: other processes only ever slow a run down. */
static int sweep_best(const char *spec, int jobs, unsigned reuse, struct sweep_result *out) {
  struct sweep_result r;
  for (int k = 0; k < 3; k++) {
    if (sweep_once(spec, jobs, reuse, &r))
      return -1;
    if (k == 0 || r.rate > out->rate)
      *out = r;
  }
  return 0;
}

static void machine_info(void) {
  char model[512] = "unknown CPU", line[512];
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10)) {
      char *colon = strchr(line, ':');
      snprintf(model, sizeof model, "%s", colon ? colon + 2 : line);
      model[strcspn(model, "\n")] = 0;
      break;
    }
  if (f)
    fclose(f);
  struct utsname u;
  uname(&u);
  char glpk[128] = "GLPK (version unknown)";
  FILE *g = popen("glpsol --version 2>/dev/null | head -1", "r");
  if (g && fgets(glpk, sizeof glpk, g))
    glpk[strcspn(glpk, "\n")] = 0;
  if (g)
    pclose(g);
  time_t t = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
  double load[1] = {-1};
  getloadavg(load, 1);
  both("Machine: %s, %ld logical CPUs, %s %s (%s); %s; %s; load average %.2f when the run began (other processes "
       "slow every figure down, and -j 2 most).\n\n",
       model, sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release, u.machine, glpk, date, load[0]);
}

int main(int argc, char **argv) {
  const char *out = argc > 1 ? argv[1] : "bench/results.md";
  const char *spec = argc > 2 ? argv[2] : "bench/spec-5k.json";
  double budget = argc > 3 ? atof(argv[3]) : 0.3;
  md = fopen(out, "w");
  if (!md) {
    perror(out);
    return 2;
  }
  fprintf(md, "# Benchmark results\n\nWritten by `make bench` (bench/bench.c, bench/run.sh); every figure below was "
              "measured in that one run.\n\n");
  machine_info();

  tf_cache cache;
  tf_cache_init(&cache);
  struct row rows[64];
  size_t nrows = 0;
  fprintf(stderr, "bench: shipped worksets\n");
  shipped(&cache, rows, &nrows, budget);
  size_t nshipped = nrows;
  fprintf(stderr, "bench: generated worksets\n");
  growth(&cache, rows, &nrows, budget);

  both("## Per problem: solve, exhaustive oracle, closed form\n\n"
       "Median wall time per problem (a bound problem in, an answer out).  *Solve* is `tf_solve`: the exact "
       "search (solver/search/search.c), then certification in integers.  *GLPK, full model*: the whole ILP of "
       "encode/build.c with the count columns bounded by the count's own range, solved by GLPK with presolve, "
       "decoded and verified (what the solve path was before the exact search).  *Oracle*: every kept combination "
       "and every count value.  *Closed form*: `tf_closed_form` at every kept combination, the best by the "
       "objectives (it ignores requires and rounding, so it may disagree).  *Bind* (machine + workset + params "
       "-> enumerated, pruned combinations) is shared by all three and not included in them.\n\n"
       "### Shipped worksets (default params, the workset's own objectives)\n\n");
  table_header();
  for (size_t i = 0; i < nshipped; i++)
    table_row(&rows[i]);
  both("\n### Generated worksets, growing numbers of combinations\n\n"
       "Two choose variables m x n (every combination fits at one stage, a require removes the largest), one count "
       "(stages, 1 to 64), three SMEM buffers, objectives max m*n then max stages, on the b200 model.\n\n");
  table_header();
  for (size_t i = nshipped; i < nrows; i++)
    table_row(&rows[i]);
  both("\nGrowth between consecutive sizes, as the exponent a in time ~ kept^a:\n\n"
       "| from -> to (kept) | solve | oracle | closed form |\n|---|---:|---:|---:|\n");
  for (size_t i = nshipped + 1; i < nrows; i++) {
    const struct row *a = &rows[i - 1], *b = &rows[i];
    if (a->error[0] || b->error[0] || a->kept < 2 || b->kept <= a->kept)
      continue;
    double lk = log((double)b->kept / (double)a->kept);
    char ilp[32];
    if (a->ilp < 0)
      snprintf(ilp, sizeof ilp, "-");
    else if (b->ilp < 0) /* at least the time limit */
      snprintf(ilp, sizeof ilp, "> %.2f", log(60 / a->ilp) / lk);
    else
      snprintf(ilp, sizeof ilp, "%.2f", log(b->ilp / a->ilp) / lk);
    both("| %zu -> %zu | %s | %.2f | %.2f |\n", a->kept, b->kept, ilp, log(b->oracle / a->oracle) / lk,
         log(b->closed / a->closed) / lk);
  }

  fprintf(stderr, "bench: sweeps\n");
  double load[1] = {-1};
  getloadavg(load, 1);
  struct sweep_result sw[6]; /* the default (answers), none, answers + search optima; -j 1 and 2 each */
  static const unsigned reuses[3] = {TF_REUSE_ANSWER, 0, TF_REUSE_ANSWER | TF_REUSE_ILP};
  static const char *const reuse_name[3] = {"answers (the default)", "none", "answers + search optima"};
  int ok = 1;
  for (int i = 0; ok && i < 6; i++)
    ok = !sweep_best(spec, 1 + i % 2, reuses[i / 2], &sw[i]);
  both("\n## Sweep throughput\n\n`%s` (%zu points: every shipped machine x every shipped workset), output to "
       "/dev/null, through the library (`tf_sweep_run`, what `tilefit sweep` calls); the best of three runs each; "
       "load average %.2f before.\n\n"
       "| -j | reuse | seconds | points/s | answers reused | search optima reused |\n|---:|---|---:|---:|---:|---:|\n",
       spec, ok ? sw[0].st.points : 0, load[0]);
  for (int i = 0; ok && i < 6; i++)
    both("| %d | %s | %.3f | %.0f | %zu of %zu | %zu of %zu |\n", sw[i].jobs, reuse_name[i / 2], sw[i].seconds,
         sw[i].rate, sw[i].st.answer_hits, sw[i].st.answer_lookups, sw[i].st.ilp_hits, sw[i].st.ilp_lookups);
  if (ok)
    both("\n-j 2 over -j 1: %.2fx with the default reuse, %.2fx without.  Reuse at -j 2: %.2fx (answers), %.2fx "
         "(answers + search optima).\n",
         sw[1].rate / sw[0].rate, sw[3].rate / sw[2].rate, sw[1].rate / sw[3].rate, sw[5].rate / sw[3].rate);

  fprintf(stderr, "bench: reuse on the validation cases\n");
  both("\n## Reuse (memo) hit rates\n\n| input | points | answers reused | search optima reused "
       "|\n|---|---:|---:|---:|\n");
  if (ok)
    both("| %s | %zu | %.1f%% | %.1f%% |\n", spec, sw[4].st.points,
         100.0 * (double)sw[4].st.answer_hits / (double)(sw[4].st.answer_lookups ? sw[4].st.answer_lookups : 1),
         100.0 * (double)sw[4].st.ilp_hits / (double)(sw[4].st.ilp_lookups ? sw[4].st.ilp_lookups : 1));
  static const char *const lists[] = {"tests/data/validate/flashattention.jsonl", "tests/data/validate/cutlass.jsonl"};
  for (int i = 0; i < 2; i++) {
    struct sweep_result v;
    if (access(lists[i], R_OK) || sweep_once(lists[i], 1, TF_REUSE_ANSWER | TF_REUSE_ILP, &v))
      continue;
    both("| %s | %zu | %.1f%% | %.1f%% |\n", lists[i], v.st.points,
         100.0 * (double)v.st.answer_hits / (double)(v.st.answer_lookups ? v.st.answer_lookups : 1),
         100.0 * (double)v.st.ilp_hits / (double)(v.st.ilp_lookups ? v.st.ilp_lookups : 1));
  }
  both("\nAnswers are reused when two points have the same canonical key (machine, workset, bound params, fixes, "
       "domains, requires, objectives); search optima when two points give the exact search the same problem (machines "
       "with equal capacities, params that do not change the program).  Rates are of lookups; points that fail "
       "before the search (infeasible at binding, errors) make none.\n");
  tf_cache_release(&cache);
  fclose(md);
  fprintf(stderr, "bench: wrote %s\n", out);
  return ok ? 0 : 3;
}
