/* The bodies of the fuzz targets (see targets.h).  Every target frees what
 * it allocates, so LeakSanitizer's end-of-input check is meaningful, and
 * aborts only on a broken invariant: a crash, a leak, undefined behaviour,
 * or an expression whose symbolic and concrete values differ. */
#include "tests/fuzz/targets.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "encode/build.h"
#include "encode/closed.h"
#include "encode/decode.h"
#include "encode/oracle.h"
#include "model/bind/problem.h"
#include "model/expr/expr.h"
#include "model/formats/case.h"
#include "model/input/machine.h"
#include "model/input/workset.h"
#include "solver/api.h"
#include "solver/cli/cli.h"
#include "solver/solve.h"

/* ---------------------------------------------------------------- machine */

int tf_fuzz_machine(const uint8_t *data, size_t size) {
  tf_error err;
  tf_error_init(&err);
  tf_machine *m = tf_machine_parse((const char *)data, size, "fuzz.json", &err);
  if (!m && (err.code != TF_EINPUT || !err.msg[0]))
    abort(); /* a refusal must say why */
  tf_machine_free(m);
  return 0;
}

/* ---------------------------------------------------------------- workset */

/* A B200-like machine, not loaded from a file. */
static tf_machine fuzz_machine(void) {
  tf_machine m;
  memset(&m, 0, sizeof m);
  m.name = "fuzz";
  m.description = "fuzz machine";
  m.arch = "sm_100";
  m.file = "fuzz";
  m.sm_count = 148;
  m.clock_mhz = 1965;
  m.hbm_gbps = 8000;
  m.l2_bytes = 132644864;
  m.smem.capacity = 232448;
  m.smem.per_sm = 233472;
  m.smem.reserved_per_cta = 1024;
  m.smem.granule = 128;
  m.smem.bytes_per_clk = 128;
  m.tmem.present = 1;
  m.tmem.columns = 512;
  m.tmem.lanes = 128;
  m.tmem.min_alloc_columns = 32;
  m.rf.per_sm = 65536;
  m.rf.per_thread = 255;
  m.rf.warp_granule = 256;
  m.limits.threads_per_sm = 2048;
  m.limits.ctas_per_sm = 32;
  m.limits.threads_per_cta = 1024;
  m.throughput.mma_f16_per_clk = 8192;
  m.throughput.mma_f8_per_clk = 16384;
  m.throughput.mma_f4_per_clk = 32768;
  m.throughput.exp_per_clk = 16;
  return m;
}

/* Binding enumerates every combination; keep each input fast. */
#define FUZZ_MAX_COMBOS 2048
#define FUZZ_MAX_SOLVE 16 /* combinations, for a GLPK solve */

static void exercise_problem(const tf_problem *p) {
  tf_error err;
  tf_error_init(&err);
  tf_model model;
  if (tf_model_build(&model, p, &err) == 0)
    tf_model_release(&model);
  tf_error_init(&err);
  tf_oracle_result r;
  tf_oracle_solve(p, 20000, &r, &err);
  if (p->ncombos == 0)
    return;
  if (p->ncombos <= FUZZ_MAX_SOLVE) { /* the whole pipeline: GLPK, decode, verify, closed form */
    tf_solve_opts o;
    tf_solve_opts_init(&o);
    o.time_limit_s = 1;
    tf_answer s;
    tf_answer_init(&s, p);
    tf_error_init(&err);
    int rc = tf_solve(p, &o, NULL, &s, &err);
    if (rc && (!err.msg[0] || (err.code == TF_EINTERNAL && getenv("TF_FUZZ_STRICT")))) {
      fprintf(stderr, "tf_solve: %s: %s\n", err.path, err.msg);
      abort(); /* strict: an answer that fails verification is a bug to look at */
    }
    tf_answer_release(&s);
  }
  tf_answer a;
  tf_answer_init(&a, p);
  int64_t counts[TF_MAX_COUNTS];
  for (int k = 0; k < p->ncounts; k++)
    counts[k] = p->count_lo[k];
  tf_error_init(&err);
  if (tf_problem_eval_point(p, p->combo, counts, &a.point, &err) == 0) {
    char why[256];
    tf_point_fits(p, &a.point, why, sizeof why);
    for (int k = 0; k < p->ncounts; k++) {
      tf_error_init(&err);
      tf_closed_form(p, 0, counts, k, &a.closed[k], &err);
    }
  }
  tf_answer_release(&a);
}

int tf_fuzz_workset(const uint8_t *data, size_t size) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_parse((const char *)data, size, "fuzz.json", &err);
  if (!w) {
    if (err.code != TF_EINPUT || !err.msg[0])
      abort();
    return 0;
  }
  size_t combos = 1;
  for (size_t i = 0; i < w->nchoose && combos <= FUZZ_MAX_COMBOS; i++)
    combos *= w->choose[i].nvalues ? w->choose[i].nvalues : 1;
  if (combos <= FUZZ_MAX_COMBOS) {
    tf_machine m = fuzz_machine();
    tf_request req;
    tf_request_init(&req);
    tf_problem *p = tf_problem_new(&m, w, &req, &err);
    if (p)
      exercise_problem(p);
    else if (err.code != TF_EINPUT || !err.msg[0])
      abort();
    tf_problem_free(p);
    tf_request_release(&req);
  }
  tf_workset_free(w);
  return 0;
}

/* ------------------------------------------------------------- expression */

/* Symbols: constants, two counts (s, t), an affine "let" (u = 5 + 2 s) and
 * the derived forms of smem. */
enum { S_X, S_Y, S_Z, S_BIG, S_SMALL, S_E53, S_S, S_T, S_U, S_USED, S_SLACK, NSYMS };
static const char *const sym_names[NSYMS] = {"x", "y", "z", "big",        "small",      "e53",
                                             "s", "t", "u", "used(smem)", "slack(smem)"};
static const char *const count_names[2] = {"s", "t"};

static int resolve(void *ctx, const char *name) {
  (void)ctx;
  for (int i = 0; i < NSYMS; i++)
    if (!strcmp(name, sym_names[i]))
      return i;
  return -1;
}

/* counts == NULL: symbolic. */
static void fill_syms(tf_affine *syms, const int64_t *counts) {
  memset(syms, 0, NSYMS * sizeof *syms);
  syms[S_X].c = 7;
  syms[S_Y].c = -3;
  syms[S_Z].c = 0;
  syms[S_BIG].c = INT64_MAX;
  syms[S_SMALL].c = INT64_MIN;
  syms[S_E53].c = (int64_t)1 << 53;
  syms[S_USED].c = 131072;
  syms[S_SLACK].c = 101376;
  if (counts) {
    syms[S_S].c = counts[0];
    syms[S_T].c = counts[1];
    syms[S_U].c = 5 + 2 * counts[0];
  } else {
    syms[S_S].k[0] = 1;
    syms[S_T].k[1] = 1;
    syms[S_U].c = 5;
    syms[S_U].k[0] = 2;
  }
}

/* The affine value and the value at concrete counts must agree. */
static void check_agree(const tf_expr *e, const tf_eval_env *sym, const int64_t *counts) {
  tf_affine cs[NSYMS];
  fill_syms(cs, counts);
  tf_eval_env conc = {cs, 2, count_names};
  tf_affine a, v;
  tf_error e1, e2;
  tf_error_init(&e1);
  tf_error_init(&e2);
  int ra = tf_expr_eval(e, sym, &a, &e1);
  int rv = tf_expr_eval(e, &conc, &v, &e2);
  if (ra && (e1.code != TF_EINPUT || !e1.msg[0]))
    abort();
  if (rv && (e2.code != TF_EINPUT || !e2.msg[0]))
    abort();
  int64_t at;
  if (ra == 0 && rv == 0 && tf_affine_at(&a, counts, 2, &at) == 0 && at != v.c) {
    fprintf(stderr, "'%s': affine value at s=%lld t=%lld is %lld, concrete value %lld\n", tf_expr_text(e),
            (long long)counts[0], (long long)counts[1], (long long)at, (long long)v.c);
    abort();
  }
}

static void exercise_expr(const tf_expr *e) {
  tf_affine syms[NSYMS];
  fill_syms(syms, NULL);
  tf_eval_env env = {syms, 2, count_names};
  static const int64_t points[][2] = {{3, -2}, {0, 0}, {1, (int64_t)1 << 40}, {-7, 1}};
  for (size_t i = 0; i < sizeof points / sizeof *points; i++)
    check_agree(e, &env, points[i]);
  tf_error err;
  tf_error_init(&err);
  int64_t c;
  tf_expr_eval_const(e, &env, &c, &err);
  const tf_expr *l, *r;
  if (tf_expr_relation(e, &l, &r) != TF_REL_NONE) {
    check_agree(l, &env, points[0]);
    check_agree(r, &env, points[0]);
  }
}

int tf_fuzz_expr(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  tf_error err;
  tf_error_init(&err);
  tf_expr *e = tf_expr_parse(text, &err);
  if (!e) {
    if (err.code != TF_EINPUT || !err.msg[0])
      abort();
  } else {
    if (strcmp(tf_expr_text(e), text))
      abort();
    tf_expr *copy = tf_expr_copy(e);
    tf_error_init(&err);
    if (tf_expr_bind(copy, resolve, NULL, &err) == 0)
      exercise_expr(copy);
    tf_expr_free(copy);
    tf_expr_free(e);
  }
  free(text);
  return 0;
}

/* ------------------------------------------------------------ problem line */

int tf_fuzz_case(const uint8_t *data, size_t size) {
  tf_case c;
  tf_case_init(&c);
  tf_error err;
  tf_error_init(&err);
  if (tf_case_parse((const char *)data, size, "fuzz.jsonl", 7, &c, &err) && (err.code != TF_EINPUT || !err.msg[0]))
    abort();
  tf_case_release(&c);
  return 0;
}

/* ------------------------------------------------------------ JSON entry */

int tf_fuzz_api(const uint8_t *data, size_t size) {
  char *request = malloc(size + 1);
  memcpy(request, data, size);
  request[size] = 0;
  if (strstr(request, "\"file") || strstr(request, "top")) {
    free(request);
    return 0;
  }
  int status = -1;
  char *answer = tf_call_json(request, &status);
  cJSON *parsed = answer ? cJSON_Parse(answer) : NULL;
  if (!parsed || status < 0 || status > 3)
    abort();
  if (status >= 2) {
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(parsed, "error"));
    if (!msg || !*msg || strchr(msg, '\n'))
      abort();
  }
  cJSON_Delete(parsed);
  tf_free(answer);
  free(request);
  return 0;
}

/* ------------------------------------------------------------ command line */

#define FUZZ_MAX_ARGS 48
#define FUZZ_MAX_TOP 20

static int in_scratch; /* set by tf_fuzz_cli_scratch */

static int is_fixture(const char *name) {
  return !strcmp(name, "mini.json") || !strcmp(name, "cases.jsonl") || !strcmp(name, "bad.json");
}

/* Removes what a command wrote (--lp, --mps, -o files), so the scratch
 * directory does not grow over millions of inputs. */
static void clean_scratch(void) {
  if (!in_scratch)
    return;
  DIR *d = opendir(".");
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' && !is_fixture(e->d_name))
      unlink(e->d_name);
  closedir(d);
}

int tf_fuzz_cli(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1);
  memcpy(buf, data, size);
  buf[size] = 0;
  if (size && buf[size - 1] == '\n')
    buf[--size] = 0; /* one argument per line; the last line's newline is optional */
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = 0;
  argv[argc++] = "tilefit";
  char *s = buf, *end = buf + size;
  while (size && s <= end && argc <= FUZZ_MAX_ARGS) {
    char *nl = s;
    while (nl < end && *nl != '\n' && *nl)
      nl++;
    *nl = 0;
    if (strchr(s, '/')) { /* stay inside the scratch directory */
      free(buf);
      return 0;
    }
    argv[argc++] = s;
    s = nl + 1;
  }
  argv[argc] = NULL;
  /* --top K re-solves K times with a growing set of cuts: K = 200 takes
   * seconds, K = 1000 minutes.  Slow, not wrong; keep inputs fast. */
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--top", 5)) {
      const char *v = argv[i][5] == '=' ? argv[i] + 6 : i + 1 < argc ? argv[i + 1] : "";
      if (atoi(v) > FUZZ_MAX_TOP || strlen(v) > 3) {
        free(buf);
        return 0;
      }
    }
  int rc = tf_cli_main(argc, argv);
  fflush(stdout);
  fflush(stderr);
  free(buf);
  clean_scratch();
  if (rc < 0 || rc > 3)
    abort(); /* exit codes are 0..3 */
  return 0;
}

static const char fixture_mini[] =
    "{\"name\": \"fa4-mini\", \"params\": {\"d\": 128, \"dv\": \"d\", \"in_bits\": 16, \"out_bits\": 16},\n"
    " \"choose\": {\"B_r\": [128], \"B_c\": [64, 128], \"q_stage\": [1, 2]},\n"
    " \"count\": {\"stages\": {\"min\": 1, \"max\": 64}},\n"
    " \"let\": {\"K\": \"B_c * d * in_bits / 8\", \"V\": \"B_c * dv * in_bits / 8\"},\n"
    " \"buffers\": [\n"
    "  {\"name\": \"Q\", \"memory\": \"smem\", \"size\": \"q_stage * B_r * d * in_bits / 8\", \"align\": 1024},\n"
    "  {\"name\": \"KV\", \"memory\": \"smem\", \"size\": \"stages * max(K, V)\", \"align\": 1024},\n"
    "  {\"name\": \"S\", \"memory\": \"tmem\", \"size\": \"2 * B_c\"},\n"
    "  {\"name\": \"Oacc\", \"memory\": \"tmem\", \"size\": \"q_stage * dv\"}],\n"
    " \"objective\": [\"max stages\"]}\n";
static const char fixture_cases[] =
    "{\"id\": \"a\", \"machine\": \"b200\", \"workset\": \"mini.json\", \"fix\": {\"B_c\": 128, \"q_stage\": 2},"
    " \"expect\": {\"stages\": 3}}\n"
    "\n"
    "{\"id\": \"b\", \"machine\": \"b200\", \"workset\": \"mini.json\", \"fix\": {\"B_c\": 128, \"q_stage\": 2,"
    " \"stages\": 4}, \"expect\": {\"fits\": false}}\n";
static const char fixture_bad[] = "{\"name\": \"bad\", \"buffers\": [}\n";

static int write_fixture(const char *name, const char *text) {
  FILE *f = fopen(name, "w");
  if (!f)
    return -1;
  fputs(text, f);
  return fclose(f);
}

int tf_fuzz_cli_scratch(const char *dir, const char *data_dir) {
  mkdir(dir, 0700);
  if (chdir(dir))
    return -1;
  setenv("TILEFIT_DATA", data_dir, 0);
  in_scratch = 1;
  return write_fixture("mini.json", fixture_mini) || write_fixture("cases.jsonl", fixture_cases) ||
                 write_fixture("bad.json", fixture_bad)
             ? -1
             : 0;
}
