/* The property test: thousands of generated problems (tests/propgen.c),
 * each written out as machine JSON, workset JSON and a command line, run
 * through the real command line in-process, and compared with an
 * exhaustive reference that shares no code with the engine
 * (tests/oracle_ref.c).  Compared: the exit code and status; the
 * lexicographic objective vector; the point, which must fit and reach the
 * optimum when the reference evaluates it (so when the optimum is unique
 * it is that point, and among ties any optimal point is accepted); the
 * memory totals at the point; for --top K the sequence of objective
 * vectors, each point distinct and as good as its rank; for `check` fits
 * or not and the memory totals.
 *
 * Seeds are consecutive from TILEFIT_SEED (default 1, printed when the
 * suite is made); the run covers TILEFIT_PROP_PROBLEMS problems (default
 * 20000; `make asan` runs fewer) in batches of PER_BATCH, loop iteration i
 * covering seeds first + i * PER_BATCH onwards.  TILEFIT_PROP_ONLY=N runs
 * seed N alone and prints its reproducer.  A disagreement prints the seed,
 * the files (also written to a new directory $TMPDIR/tilefit-prop-N-XXXXXX)
 * and the command line to rerun it.
 *
 * One batch is one child process: it runs every problem of the batch
 * through tf_cli_main in-process, stdout and stderr captured in memory
 * (the stdio streams swapped for fmemopen streams), and tells the test
 * over a pipe which seed it starts and how each one ended.  A child that
 * dies (a crash, a sanitizer report, no answer within CHILD_SECONDS) is
 * reported with the seed it was running, and a new child goes on with the
 * next seed. */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/cli/cli.h"
#include "tests/oracle_ref.h"
#include "tests/propgen.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define PER_BATCH 250
#define OUT_SIZE 65536
#define CHILD_SECONDS 30 /* for one problem: far beyond any problem here, a hang */
#define PATH_SIZE 512
#define STR_(x) #x
#define STR(x) STR_(x)

struct batch {
  char dir[PATH_SIZE];
  int failed, feasible, infeasible, skipped, problems;
  int glpk, glpk_place, no_presolve; /* problems solved with --solver glpk: with placement, without presolve */
  unsigned long long features;
  uint64_t hash; /* of every generated file and command line: the same in every build */
  unsigned long long first_failure;
  char first_msg[512];
};

struct run {
  int rc;
  char out[OUT_SIZE], err[4096];
};

/* What the child tells the test about one seed: that it starts it, then
 * how it ended (rc: 1 agrees, 0 disagrees, -1 out of range). */
struct report {
  unsigned long long seed;
  int done, rc, feasible, infeasible, no_presolve;
  unsigned long long features;
  uint64_t hash; /* the batch's hash after this seed */
  char msg[512];
};

static uint64_t fnv(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001B3ULL;
  return h;
}

static unsigned long long env_ull(const char *name, unsigned long long dflt) {
  const char *v = getenv(name);
  return v && *v ? strtoull(v, NULL, 10) : dflt;
}

/* ------------------------------------------------------------ the CLI */

static FILE *mem_out, *mem_err; /* the child's capture streams, over run.out and run.err */

/* What one stream caught since it was rewound, as a string. */
static void caught(FILE *f, char *buf, size_t size) {
  fflush(f);
  long n = ftell(f);
  buf[n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1] = 0;
  rewind(f);
}

/* tf_cli_main in this process, stdout and stderr captured in memory. */
static void run_cli(int argc, char **argv, struct run *r) {
  if (!mem_out) {
    mem_out = fmemopen(r->out, sizeof r->out, "w");
    mem_err = fmemopen(r->err, sizeof r->err, "w");
    ck_assert(mem_out && mem_err);
  }
  FILE *saved_out = stdout, *saved_err = stderr;
  fflush(stdout);
  fflush(stderr);
  stdout = mem_out;
  stderr = mem_err;
  r->rc = tf_cli_main(argc, argv);
  stdout = saved_out;
  stderr = saved_err;
  caught(mem_out, r->out, sizeof r->out);
  caught(mem_err, r->err, sizeof r->err);
}

/* ------------------------------------------------------------ messages */

static int vec_text(char *buf, size_t size, const int64_t *v, int n) {
  int len = snprintf(buf, size, "(");
  for (int i = 0; i < n; i++)
    len += snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, "%s%lld", i ? ", " : "", (long long)v[i]);
  return len + snprintf(buf + len, size > (size_t)len ? size - (size_t)len : 0, ")");
}

static void point_text(const pg_problem *p, const ref_point *pt, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i <= PG_OCC && n < size; i++)
    if (i < p->nchoose || (i == PG_OCC && p->uses_occupancy))
      n += (size_t)snprintf(buf + n, size - n, "%s%s=%lld", n ? " " : "", pg_choose_name(i), (long long)pt->choose[i]);
  for (int k = 0; k < p->ncounts && n < size; k++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s=%lld", n ? " " : "", pg_count_name(k), (long long)pt->counts[k]);
  for (int b = 0; b < p->nbuffers && n < size; b++)
    if (p->buf[b].nplace)
      n += (size_t)snprintf(buf + n, size - n, "%sb%d=%s", n ? " " : "", b, pg_mem_names[pt->place[b]]);
}

/* Each buffer's memory where the request leaves it one (and the first
 * candidate where it does not), for a point given without placement. */
static void first_places(const pg_problem *p, int *place) {
  for (int b = 0; b < p->nbuffers; b++) {
    int mems[PG_NMEM];
    place[b] = pg_candidates(p, b, mems) ? mems[0] : p->buf[b].mem;
  }
}

/* The expected answer in words. */
static void expected_text(const pg_problem *p, const ref_result *r, const ref_point *fixed, char *buf, size_t size) {
  char v[256], at[256];
  if (p->check) {
    point_text(p, fixed, at, sizeof at);
    snprintf(buf, size, "%s at %s (smem %lld, tmem %lld, rf %lld%s%s)", fixed->fits ? "fits" : "does not fit", at,
             (long long)fixed->used[PG_SMEM], (long long)fixed->used[PG_TMEM], (long long)fixed->used[PG_RF],
             fixed->why ? ": " : "", fixed->why ? fixed->why : "");
  } else if (!r->nfeasible) {
    snprintf(buf, size, "infeasible (exit 1): none of %ld points fits", r->npoints);
  } else {
    vec_text(v, sizeof v, r->best.objective, r->nfull);
    point_text(p, &r->best, at, sizeof at);
    size_t n = (size_t)snprintf(buf, size, "optimal %s at %s (%ld optimal of %ld feasible, %ld points)", v, at,
                                r->nbest, r->nfeasible, r->npoints);
    for (int i = 0; p->top && i < r->ntop && n < size; i++) {
      vec_text(v, sizeof v, r->top[i], r->nfull);
      n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "; top: ", v);
    }
  }
}

/* Prints the reproducer and writes its files to a new directory. */
static void reproducer(const pg_problem *p, const char *why, const char *got) {
  char dir[PATH_SIZE], name[64], mfile[PATH_SIZE + 8], wfile[PATH_SIZE + 8], mjson[8192], wjson[16384], store[8192],
      exp[1024];
  char *argv[PG_MAX_ARGS + 8];
  snprintf(name, sizeof name, "tilefit-prop-%llu", p->seed);
  tf_test_temp_dir(dir, sizeof dir, name);
  snprintf(mfile, sizeof mfile, "%s/m.json", dir);
  snprintf(wfile, sizeof wfile, "%s/w.json", dir);
  pg_machine_json(p, mjson, sizeof mjson);
  pg_workset_json(p, wjson, sizeof wjson);
  tf_test_write_text(mfile, mjson);
  tf_test_write_text(wfile, wjson);
  int argc = pg_args(p, mfile, wfile, argv, store, sizeof store);
  fprintf(stderr, "property: seed %llu: %s\n  got: %s\n  command: ./tilefit", p->seed, why, got);
  for (int i = 1; i < argc; i++)
    fprintf(stderr, strpbrk(argv[i], " *()<>=,") ? " '%s'" : " %s", argv[i]);
  ref_result r;
  ref_solve(p, p->top, &r);
  ref_point fixed;
  if (p->check) {
    int64_t choose[PG_MAX_CHOOSE + 1] = {0}, counts[PG_MAX_COUNTS] = {0};
    int place[PG_MAX_BUFFERS];
    for (int i = 0; i < p->nfix; i++)
      (p->fix[i].is_count ? counts : choose)[p->fix[i].var] = p->fix[i].v;
    first_places(p, place);
    ref_eval(p, choose, counts, place, &fixed);
  }
  expected_text(p, &r, &fixed, exp, sizeof exp);
  fprintf(stderr,
          "\n  expected: %s\n  rerun: TILEFIT_PROP_ONLY=%llu CK_RUN_SUITE=property build/check_tilefit\n"
          "  %s:\n%s  %s:\n%s",
          exp, p->seed, mfile, mjson, wfile, wjson);
}

/* ------------------------------------------------------------ comparing */

static int json_int(const cJSON *o, const char *key, int64_t *v) {
  const cJSON *x = key ? cJSON_GetObjectItemCaseSensitive(o, key) : o;
  if (!cJSON_IsNumber(x) || x->valuedouble != (double)(int64_t)x->valuedouble || x->valuedouble > 9007199254740992.0 ||
      x->valuedouble < -9007199254740992.0)
    return -1;
  *v = (int64_t)x->valuedouble;
  return 0;
}

static const char *json_str(const cJSON *o, const char *key) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(x) ? x->valuestring : "";
}

/* The memory of each buffer an answer names in "placement": one of its
 * candidates. */
static int answer_places(const pg_problem *p, const cJSON *line, int *place, char *msg, size_t size) {
  const cJSON *placement = cJSON_GetObjectItemCaseSensitive(line, "placement");
  for (int b = 0; b < p->nbuffers; b++) {
    int mems[PG_NMEM], n = pg_candidates(p, b, mems);
    char name[16];
    place[b] = p->buf[b].mem;
    if (!p->buf[b].nplace)
      continue;
    snprintf(name, sizeof name, "b%d", b);
    const char *got = json_str(placement, name);
    place[b] = -1;
    for (int i = 0; i < n; i++)
      if (!strcmp(got, pg_mem_names[mems[i]]))
        place[b] = mems[i];
    if (place[b] < 0)
      return snprintf(msg, size, "placement of %s is '%s', not one of its %d candidates", name, got, n), -1;
  }
  return 0;
}

/* The point an answer names, evaluated by the reference. */
static int answer_point(const pg_problem *p, const cJSON *line, ref_point *pt, char *msg, size_t size) {
  int64_t choose[PG_MAX_CHOOSE + 1] = {0}, counts[PG_MAX_COUNTS] = {0};
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(line, "values");
  for (int i = 0; i <= PG_OCC; i++)
    if ((i < p->nchoose || (i == PG_OCC && p->uses_occupancy)) && json_int(values, pg_choose_name(i), &choose[i]))
      return snprintf(msg, size, "the answer has no value for %s", pg_choose_name(i)), -1;
  for (int k = 0; k < p->ncounts; k++)
    if (json_int(values, pg_count_name(k), &counts[k]))
      return snprintf(msg, size, "the answer has no value for %s", pg_count_name(k)), -1;
  for (int i = 0; i <= PG_OCC; i++) { /* a choose value must come from its domain */
    int64_t dom[PG_MAX_VALUES];
    int n = i < p->nchoose || (i == PG_OCC && p->uses_occupancy) ? ref_choose_values(p, i, dom) : -1, in = n < 0;
    for (int j = 0; j < n; j++)
      in |= dom[j] == choose[i];
    if (!in)
      return snprintf(msg, size, "%s = %lld is not in its domain", pg_choose_name(i), (long long)choose[i]), -1;
  }
  int place[PG_MAX_BUFFERS];
  if (answer_places(p, line, place, msg, size))
    return -1;
  ref_eval(p, choose, counts, place, pt);
  return 0;
}

/* Memory totals and each buffer's rounded size at the point. */
static int same_memory(const pg_problem *p, const cJSON *line, const ref_point *pt, char *msg, size_t size) {
  static const char *const mems[] = {"smem", "tmem", "rf"};
  const cJSON *memories = cJSON_GetObjectItemCaseSensitive(line, "memories");
  for (int m = 0; m < PG_NMEM; m++) {
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(memories, mems[m]);
    int64_t used;
    if (mem && json_int(mem, "used", &used))
      return snprintf(msg, size, "%s has no integer 'used'", mems[m]), -1;
    if (mem && used != pt->used[m])
      return snprintf(msg, size, "%s used is %lld, the reference says %lld", mems[m], (long long)used,
                      (long long)pt->used[m]),
             -1;
  }
  const cJSON *buffers = cJSON_GetObjectItemCaseSensitive(line, "buffers");
  for (int b = 0; b < p->nbuffers; b++) {
    int64_t alloc = -1;
    if (json_int(cJSON_GetArrayItem(buffers, b), "allocated", &alloc) || alloc != pt->alloc[b])
      return snprintf(msg, size, "buffer b%d is allocated %lld, the reference says %lld", b, (long long)alloc,
                      (long long)pt->alloc[b]),
             -1;
  }
  return 0;
}

/* One optimal answer (or one rank of --top) against the vector it must have. */
static int same_answer(const pg_problem *p, const cJSON *line, const int64_t *want, int nobj, int nfull, ref_point *pt,
                       char *msg, size_t size) {
  char a[256], b[256], at[256];
  if (strcmp(json_str(line, "status"), "optimal"))
    return snprintf(msg, size, "status '%s', expected 'optimal'", json_str(line, "status")), -1;
  if (answer_point(p, line, pt, msg, size))
    return -1;
  point_text(p, pt, at, sizeof at);
  if (!pt->fits)
    return snprintf(msg, size, "the answer %s does not fit: %s", at, pt->why), -1;
  vec_text(a, sizeof a, pt->objective, nfull);
  vec_text(b, sizeof b, want, nfull);
  if (ref_compare(p, pt->objective, want) != 0)
    return snprintf(msg, size, "the answer %s has objectives %s, the optimum is %s", at, a, b), -1;
  const cJSON *objs = cJSON_GetObjectItemCaseSensitive(line, "objectives");
  for (int o = 0; o < nobj; o++) {
    int64_t v;
    if (json_int(cJSON_GetArrayItem(objs, o), "value", &v))
      return snprintf(msg, size, "objective %d has no integer value", o + 1), -1;
    if (v != want[o])
      return snprintf(msg, size, "objective %d printed as %lld, the answer %s has %s", o + 1, (long long)v, at, a), -1;
  }
  if (cJSON_GetArraySize(objs) != nobj)
    return snprintf(msg, size, "%d objectives printed, expected %d", cJSON_GetArraySize(objs), nobj), -1;
  return same_memory(p, line, pt, msg, size);
}

#define MAX_LINES 16

/* Splits the output into JSON lines; returns how many, -1 if one is bad. */
static int parse_lines(const char *out, cJSON **lines) {
  int n = 0;
  for (const char *s = out; *s && n < MAX_LINES;) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len) {
      lines[n] = cJSON_ParseWithLength(s, len);
      if (!lines[n])
        return -1;
      n++;
    }
    s += len + (e != NULL);
  }
  return n;
}

static int compare_solve(const pg_problem *p, const ref_result *r, const struct run *run, cJSON **lines, int n,
                         char *msg, size_t size) {
  if (!r->nfeasible) {
    /* --top prints nothing on stdout for an infeasible problem */
    if (run->rc != 1 || (n < 1 && !p->top) || (n >= 1 && strcmp(json_str(lines[0], "status"), "infeasible")))
      return snprintf(msg, size, "exit %d, status '%s'", run->rc, n ? json_str(lines[0], "status") : "-"), -1;
    return 0;
  }
  int want = p->top ? r->ntop : 1;
  if (run->rc != 0 || n != want)
    return snprintf(msg, size, "exit %d with %d answers, expected exit 0 with %d", run->rc, n, want), -1;
  ref_point pts[MAX_LINES];
  for (int i = 0; i < n; i++) {
    char why[512];
    int64_t rank = 0;
    if (p->top && (json_int(lines[i], "rank", &rank) || rank != i + 1))
      return snprintf(msg, size, "answer %d has rank %lld", i + 1, (long long)rank), -1;
    if (same_answer(p, lines[i], p->top ? r->top[i] : r->best.objective, r->nobjective, r->nfull, &pts[i], why,
                    sizeof why))
      return snprintf(msg, size, "%s%d: %s", p->top ? "rank " : "answer ", i + 1, why), -1;
    for (int j = 0; j < i; j++) {
      if (!memcmp(pts[j].choose, pts[i].choose, sizeof pts[i].choose) &&
          !memcmp(pts[j].counts, pts[i].counts, sizeof pts[i].counts) &&
          !memcmp(pts[j].place, pts[i].place, sizeof pts[i].place))
        return snprintf(msg, size, "ranks %d and %d are the same point", j + 1, i + 1), -1;
      if (!p->top_points && ref_same_config(p, &pts[j], &pts[i]))
        return snprintf(msg, size, "rank %d is rank %d's configuration", i + 1, j + 1), -1;
    }
  }
  return 0;
}

static int compare_check(const pg_problem *p, const struct run *run, cJSON **lines, int n, char *msg, size_t size) {
  int64_t choose[PG_MAX_CHOOSE + 1] = {0}, counts[PG_MAX_COUNTS] = {0};
  int place[PG_MAX_BUFFERS];
  for (int i = 0; i < p->nfix; i++)
    (p->fix[i].is_count ? counts : choose)[p->fix[i].var] = p->fix[i].v;
  int fits = ref_some_placement_fits(p, choose, counts); /* check decides free placements: fits when one does */
  const char *want = fits ? "fits" : "does_not_fit";
  if (run->rc != !fits || n != 1 || strcmp(json_str(lines[0], "status"), want))
    return snprintf(msg, size, "exit %d, status '%s'", run->rc, n ? json_str(lines[0], "status") : "-"), -1;
  if (answer_places(p, lines[0], place, msg, size))
    return -1;
  ref_point pt;
  ref_eval(p, choose, counts, place, &pt);
  if (fits && !pt.fits)
    return snprintf(msg, size, "the placement it reports does not fit: %s", pt.why), -1;
  return same_memory(p, lines[0], &pt, msg, size);
}

/* The generated problem's files in `dir` and its command line. */
static int write_problem(const pg_problem *p, const char *dir, char **argv, char *store, size_t size, uint64_t *hash) {
  static char mfile[PATH_SIZE + 8], wfile[PATH_SIZE + 8], json[16384];
  snprintf(mfile, sizeof mfile, "%s/m.json", dir);
  snprintf(wfile, sizeof wfile, "%s/w.json", dir);
  pg_machine_json(p, json, sizeof json);
  tf_test_write_text(mfile, json);
  *hash = fnv(*hash, json);
  pg_workset_json(p, json, sizeof json);
  tf_test_write_text(wfile, json);
  *hash = fnv(*hash, json);
  int argc = pg_args(p, mfile, wfile, argv, store, size);
  for (int i = 6; i < argc; i++) /* after the file names */
    *hash = fnv(*hash, argv[i]);
  return argc;
}

/* Runs one seed in this process into `rep`: rc 1 when it agrees, 0 when
 * not (its reproducer printed), -1 when the generated problem left the
 * range the test keeps to. */
static void run_one(unsigned long long seed, const char *dir, struct report *rep, int verbose) {
  static pg_problem p; /* large: keep it off the stack */
  static struct run run;
  char store[8192], got[1024];
  char *argv[PG_MAX_ARGS + 8];
  pg_generate(&p, seed);
  ref_result r;
  ref_solve(&p, p.top, &r);
  rep->rc = -1;
  if (r.out_of_range)
    return;
  int argc = write_problem(&p, dir, argv, store, sizeof store, &rep->hash);
  run_cli(argc, argv, &run);
  cJSON *lines[MAX_LINES] = {0};
  int n = parse_lines(run.out, lines);
  char *msg = rep->msg;
  int bad = n < 0     ? (snprintf(msg, sizeof rep->msg, "output is not JSON lines"), 1)
            : p.check ? compare_check(&p, &run, lines, n, msg, sizeof rep->msg)
                      : compare_solve(&p, &r, &run, lines, n, msg, sizeof rep->msg);
  for (int i = 0; i < MAX_LINES; i++)
    cJSON_Delete(lines[i]);
  rep->features = p.features;
  rep->no_presolve = p.no_presolve;
  rep->feasible = !p.check && r.nfeasible;
  rep->infeasible = !p.check && !r.nfeasible;
  if (bad || verbose) {
    char *nl = strchr(run.err, '\n');
    if (nl)
      *nl = 0;
    snprintf(got, sizeof got, "%s; exit %d%s%s", bad ? msg : "agrees", run.rc, run.err[0] ? ", stderr: " : "", run.err);
    reproducer(&p, bad ? "disagrees with the reference" : "agrees", got);
  }
  rep->rc = !bad;
}

static void send(int fd, const struct report *rep) {
  ssize_t n;
  do
    n = write(fd, rep, sizeof *rep);
  while (n < 0 && errno == EINTR);
  if (n != (ssize_t)sizeof *rep)
    _exit(125);
}

/* The child: seeds first.. up to `count` of them, each announced, run and
 * reported on `fd`; SIGALRM ends a problem that takes CHILD_SECONDS. */
static void child(unsigned long long first, int count, const char *dir, uint64_t hash, int verbose, int fd) {
  signal(SIGALRM, SIG_DFL); /* Check's handler, inherited, would kill the whole test */
  struct report rep;
  for (int i = 0; i < count; i++) {
    memset(&rep, 0, sizeof rep);
    rep.seed = first + (unsigned long long)i;
    rep.hash = hash;
    send(fd, &rep);
    alarm(CHILD_SECONDS);
    run_one(rep.seed, dir, &rep, verbose);
    alarm(0);
    rep.done = 1;
    hash = rep.hash;
    send(fd, &rep);
  }
  exit(0); /* exit, not _exit: LeakSanitizer checks the child */
}

static void failure(struct batch *b, unsigned long long seed, const char *msg) {
  if (!b->failed++) {
    b->first_failure = seed;
    snprintf(b->first_msg, sizeof b->first_msg, "%s", msg);
  }
}

static void count_report(struct batch *b, const struct report *rep) {
  b->hash = rep->hash;
  b->skipped += rep->rc < 0;
  b->problems += rep->rc >= 0;
  b->features |= rep->features;
  int glpk = rep->rc >= 0 && (rep->features & (1ull << PF_GLPK));
  b->glpk += glpk;
  b->glpk_place += glpk && (rep->features & (1ull << PF_PLACE));
  b->no_presolve += glpk && rep->no_presolve;
  b->feasible += rep->feasible;
  b->infeasible += rep->infeasible;
  if (!rep->rc)
    failure(b, rep->seed, rep->msg);
}

/* A child died while it ran `seed`: that seed fails, with its reproducer. */
static void died(struct batch *b, unsigned long long seed, int status) {
  static pg_problem p;
  char msg[256];
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (sig)
    snprintf(msg, sizeof msg, "killed by signal %d%s", sig,
             sig == SIGALRM ? " (no answer within " STR(CHILD_SECONDS) " s)" : "");
  else
    snprintf(msg, sizeof msg, "the process exited with %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  pg_generate(&p, seed);
  reproducer(&p, "disagrees with the reference", msg);
  b->problems++;
  failure(b, seed, msg);
}

/* Seeds first..first+count-1, in as few children as the crashes allow. */
static void run_batch(unsigned long long first, int count, int verbose, struct batch *b) {
  tf_test_temp_dir(b->dir, sizeof b->dir, "tilefit-prop");
  unsigned long long next = first, end = first + (unsigned long long)count;
  while (next < end) {
    int fd[2];
    ck_assert(pipe(fd) == 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
      close(fd[0]);
      child(next, (int)(end - next), b->dir, b->hash, verbose, fd[1]);
    }
    close(fd[1]);
    struct report rep;
    int started = 0;
    for (ssize_t n; (n = read(fd[0], &rep, sizeof rep)) != 0;) {
      if (n < 0 && errno == EINTR)
        continue;
      ck_assert_int_eq(n, sizeof rep);
      started = !rep.done;
      next = rep.seed + rep.done;
      if (rep.done)
        count_report(b, &rep);
    }
    close(fd[0]);
    int status;
    ck_assert(waitpid(pid, &status, 0) == pid);
    if (started)
      died(b, next++, status);
    else
      ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child ended with status %d", status);
  }
  tf_test_remove_dir(b->dir);
}

/* ------------------------------------------------------------ the suite */

static const char *const feature_names[PF_NFEATURES] = {"1 count",
                                                        "2 counts",
                                                        "3 counts",
                                                        "a count's min above 1",
                                                        "a loosening require",
                                                        "a require mixing counts",
                                                        "an aligned count-dependent smem buffer",
                                                        "an aligned count-dependent tmem buffer",
                                                        "an aligned count-dependent rf buffer",
                                                        "a negative coefficient",
                                                        "a min objective",
                                                        "a max objective",
                                                        "a weight of 10^8..10^9",
                                                        "a capacity of 2^39..2^40",
                                                        "a count objective before a tile objective",
                                                        "a tile objective before a count objective",
                                                        "--fix",
                                                        "--domain",
                                                        "occupancy 0",
                                                        "occupancy 1",
                                                        "--top K",
                                                        "check",
                                                        "--solver glpk",
                                                        "--objective replacing the workset's",
                                                        "buffer lifetimes",
                                                        "a layout order",
                                                        "a placed buffer",
                                                        "an alias",
                                                        "a workset pin",
                                                        "--place",
                                                        "placed() in a let",
                                                        "--top of configurations",
                                                        "placement with occupancy",
                                                        "placement with --solver glpk",
                                                        "placed() in a size"};

static unsigned long long first_seed = 1; /* set when the suite is made */

START_TEST(test_property) {
  unsigned long long first = first_seed + (unsigned long long)_i * PER_BATCH;
  struct batch b;
  memset(&b, 0, sizeof b);
  b.hash = 0xCBF29CE484222325ULL;
  run_batch(first, PER_BATCH, 0, &b);
  if (getenv("TILEFIT_PROP_STATS")) {
    fprintf(stderr,
            "property: seeds %llu..: %d problems, %d failed, %d feasible, %d infeasible, %d skipped, "
            "--solver glpk %d (placement %d, --no-presolve %d), generated %016llx, missing:",
            first, b.problems, b.failed, b.feasible, b.infeasible, b.skipped, b.glpk, b.glpk_place, b.no_presolve,
            (unsigned long long)b.hash);
    for (int f = 0; f < PF_NFEATURES; f++)
      if (!(b.features & (1ull << f)))
        fprintf(stderr, " [%s]", feature_names[f]);
    fputc('\n', stderr);
  }
  ck_assert_msg(b.failed == 0,
                "%d of the %d generated problems from seed %llu disagree with the reference, the first seed %llu: %s "
                "(each reproducer is printed above)",
                b.failed, b.problems, first, b.first_failure, b.first_msg);
  /* the generator keeps to its ranges, and reaches every case it claims */
  ck_assert_int_le(b.skipped, PER_BATCH / 50);
  ck_assert_int_ge(b.feasible, PER_BATCH / 5);
  ck_assert_int_ge(b.infeasible, PER_BATCH / 20);
  for (int f = 0; f < PF_NFEATURES; f++)
    ck_assert_msg(b.features & (1ull << f), "seeds %llu..%llu never generate %s", first, first + PER_BATCH - 1,
                  feature_names[f]);
}
END_TEST

/* TILEFIT_PROP_ONLY=N: one seed, its reproducer printed. */
START_TEST(test_property_one) {
  struct batch b;
  memset(&b, 0, sizeof b);
  run_batch(env_ull("TILEFIT_PROP_ONLY", 0), 1, 1, &b);
  ck_assert_msg(b.failed == 0, "seed %llu disagrees: %s", b.first_failure, b.first_msg);
}
END_TEST

Suite *property_suite(void) {
  Suite *s = suite_create("property");
  TCase *tc = tcase_create("CLI equals the reference");
  tcase_set_timeout(tc, 1200);
  if (getenv("TILEFIT_PROP_ONLY")) {
    tcase_add_test(tc, test_property_one);
  } else {
    int batches = (int)((env_ull("TILEFIT_PROP_PROBLEMS", 20000) + PER_BATCH - 1) / PER_BATCH);
    first_seed = tf_test_seed("property: the first of consecutive seeds", 1);
    tcase_add_loop_test(tc, test_property, 0, batches);
  }
  suite_add_tcase(s, tc);
  return s;
}
