/* The Limits table of docs/using.md, held to the binary: each limit is
 * accepted at its edge and refused one past it, with the message the table
 * promises.
 * Also the solver's time limit end to end (exit 3, "time limit", the best
 * bound known), and the crash reproducers the fuzz targets found
 * (tests/fuzz/regress/TARGET/), replayed through the targets' own code so
 * that `make asan` keeps checking them. */
#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/bind/problem.h"
#include "model/core/json.h"
#include "model/expr/expr.h"
#include "solver/cli/options.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* The fuzz targets' bodies (tests/fuzz/ is not compiled on its own here). */
#include "tests/fuzz/targets.c"

static char out[1 << 16], err[1 << 14];

/* A growable string. */
struct buf {
  char *s;
  size_t n, cap;
};
static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (b->s && b->n + (size_t)k < b->cap) {
      b->n += (size_t)k;
      return;
    }
    b->cap = 2 * (b->cap + (size_t)k + 64);
    b->s = realloc(b->s, b->cap);
    if (b->n == 0)
      b->s[0] = 0;
  }
}

/* ------------------------------------------------------------ the table */

enum gen { G_STORED, G_COMBOS, G_DOMAIN, G_CHOOSE, G_COUNTS, G_EXPR_LEN, G_NEST, G_ARGS, G_FILE, G_JSON, G_COEF };

struct limit_case {
  const char *what;
  enum gen gen;
  long long n;      /* the generator's size */
  int code;         /* expected exit */
  const char *want; /* substring of stderr; NULL: stderr empty */
};

static const struct limit_case limits[] = {
    /* 1000 combinations of 140,000 buffers: 1.4 x 10^8 coefficients, checked before allocating */
    {"stored coefficients: 1000 x 140000 buffers", G_STORED, 140000, 2,
     "$.choose: 1000 combinations of 140000 buffers, 0 constraints and 0 objectives would store more than "
     "134217728 coefficients; narrow the domains with --domain or --fix"},
    /* a solve binds on demand: no cap (a problem bound whole keeps one: tests/bad/31-combinations-1e7) */
    {"choose combinations: 1000 x 1001", G_COMBOS, 1001, 0, NULL},
    {"one domain of 100000 values", G_DOMAIN, 100000, 0, NULL},
    {"one domain of 100001 values", G_DOMAIN, 100001, 2, "$.choose.a: domain has more than 100000 values"},
    {"31 choose variables", G_CHOOSE, 31, 0, NULL},
    {"32 choose variables", G_CHOOSE, 32, 2, "$.choose: at most 31 choose variables"},
    {"8 count variables", G_COUNTS, 8, 0, NULL},
    {"9 count variables", G_COUNTS, 9, 2, "$.count: at most 8 count variables"},
    {"an expression of 4096 characters", G_EXPR_LEN, 4096, 0, NULL},
    {"an expression of 4097 characters", G_EXPR_LEN, 4097, 2, "expression longer than 4096 characters"},
    {"99 nested parentheses", G_NEST, 99, 0, NULL},
    {"100 nested parentheses", G_NEST, 100, 2, "expression nested too deeply"},
    {"max() of 16 arguments", G_ARGS, 16, 0, NULL},
    {"max() of 17 arguments", G_ARGS, 17, 2, "too many arguments"},
    {"a file of 16 MiB", G_FILE, 16 << 20, 2, "$: missing required key 'name'"},
    {"a file of 16 MiB + 1", G_FILE, (16 << 20) + 1, 2, "file larger than 16777216 bytes"},
    {"a JSON number of 2^53 - 1", G_JSON, 9007199254740991LL, 0, NULL},
    {"a JSON number of -(2^53 - 1)", G_JSON, -9007199254740991LL, 0, NULL},
    {"a JSON number of 2^53", G_JSON, 9007199254740992LL, 2,
     "$.params.big: integer 9007199254740992 is at or beyond 2^53, where JSON numbers stop being exact"},
    {"an ILP coefficient of 2^53", G_COEF, 9007199254740992LL, 0, NULL},
    {"an ILP coefficient of 2^53 + 1", G_COEF, 9007199254740993LL, 2,
     "buffer 'x' has a coefficient -9007199254740993 beyond 2^53, which the solver cannot represent exactly"},
};

/* Writes the case's workset to dir/w.json; returns extra arguments. */
static const char *generate(const struct limit_case *c, const char *dir, char *extra, size_t size) {
  struct buf b = {0};
  extra[0] = 0;
  const char *tail = "\"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": 128}]}";
  switch (c->gen) {
  case G_STORED:
    put(&b, "{\"name\": \"t\", \"choose\": {\"a\": {\"from\": 1, \"to\": 1000}}, \"buffers\": [");
    for (long long i = 0; i < c->n; i++)
      put(&b, "%s{\"name\": \"b%lld\", \"memory\": \"rf\", \"size\": 1}", i ? ", " : "", i);
    put(&b, "]}");
    break;
  case G_COMBOS:
    put(&b,
        "{\"name\": \"t\", \"choose\": {\"a\": {\"from\": 1, \"to\": 1000}, \"b\": {\"from\": 1, \"to\": %lld}}, %s",
        c->n, tail);
    break;
  case G_DOMAIN: put(&b, "{\"name\": \"t\", \"choose\": {\"a\": {\"from\": 1, \"to\": %lld}}, %s", c->n, tail); break;
  case G_CHOOSE:
    put(&b, "{\"name\": \"t\", \"choose\": {");
    for (long long i = 0; i < c->n; i++)
      put(&b, "%s\"v%lld\": [1, 2]", i ? ", " : "", i);
    put(&b, "}, %s", tail);
    for (long long i = 0; i < c->n; i++) /* one combination: 2^n would be refused as too many */
      snprintf(extra + strlen(extra), size - strlen(extra), " --fix v%lld=1", i);
    break;
  case G_COUNTS:
    put(&b, "{\"name\": \"t\", \"count\": {");
    for (long long i = 0; i < c->n; i++)
      put(&b, "%s\"c%lld\": {\"min\": 0, \"max\": 3}", i ? ", " : "", i);
    put(&b, "}, \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"128 * (c0");
    for (long long i = 1; i < c->n; i++)
      put(&b, " + c%lld", i);
    put(&b, ")\"}]}");
    break;
  case G_EXPR_LEN: /* "1+1+...+1+128" of exactly n characters */
  case G_NEST:
    put(&b, "{\"name\": \"t\", \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"");
    if (c->gen == G_NEST) {
      for (long long i = 0; i < c->n; i++)
        put(&b, "(");
      put(&b, "128");
      for (long long i = 0; i < c->n; i++)
        put(&b, ")");
    } else {
      long long len = 3;
      put(&b, "128");
      for (; len + 2 <= c->n; len += 2)
        put(&b, "+0");
      if (len < c->n)
        put(&b, " ");
    }
    put(&b, "\"}]}");
    break;
  case G_ARGS:
    put(&b, "{\"name\": \"t\", \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"max(128");
    for (long long i = 1; i < c->n; i++)
      put(&b, ", %lld", i);
    put(&b, ")\"}]}");
    break;
  case G_FILE: /* whitespace and {} */
    b.s = malloc((size_t)c->n + 1);
    memset(b.s, ' ', (size_t)c->n - 2);
    memcpy(b.s + c->n - 2, "{}", 3);
    b.n = (size_t)c->n;
    break;
  case G_JSON: put(&b, "{\"name\": \"t\", \"params\": {\"big\": %lld}, %s", c->n, tail); break;
  case G_COEF: /* at stages = 1 the buffer is empty, so nothing prunes it before the ILP */
    snprintf(extra, size, " --lp %s/m.lp", dir); /* the ILP, not the exact search, has the limit */
    put(&b,
        "{\"name\": \"t\", \"count\": {\"stages\": {\"min\": 1, \"max\": 2}}, \"buffers\": [{\"name\": \"x\", "
        "\"memory\": \"smem\", \"size\": \"(stages - 1) * %lld\"}], \"objective\": [\"min stages\"]}",
        c->n);
    break;
  }
  char path[512];
  snprintf(path, sizeof path, "%s/w.json", dir);
  tf_test_write(path, b.s, b.n);
  free(b.s);
  return extra;
}

START_TEST(test_limit) {
  const struct limit_case *c = &limits[_i];
  char dir[256], extra[2048], args[4096];
  tf_test_temp_dir(dir, sizeof dir, "tf-limits");
  generate(c, dir, extra, sizeof extra);
  snprintf(args, sizeof args, "solve -m b200 -w %s/w.json%s", dir, extra);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  tf_test_remove_dir(dir);
  ck_assert_msg(rc == c->code, "%s: exit %d, expected %d; stderr: %s", c->what, rc, c->code, err);
  if (c->want) {
    ck_assert_msg(strstr(err, c->want), "%s: stderr '%s' lacks '%s'", c->what, err, c->want);
    ck_assert_msg(!strchr(err, '\n') || !strchr(err, '\n')[1], "%s: more than one line on stderr: %s", c->what, err);
    ck_assert_msg(out[0] == 0, "%s: stdout not empty: %s", c->what, out);
  } else {
    ck_assert_msg(err[0] == 0, "%s: stderr: %s", c->what, err);
  }
}
END_TEST

START_TEST(test_default_time_limit) {
  tf_args a;
  tf_args_init(&a);
  ck_assert(a.time_limit == 60);
  tf_args_release(&a);
}
END_TEST

/* ------------------------------------------------------ the time limit */

/* 10^5 combinations and a parity row no interval bound can refute: the
 * search is still open after a millisecond, and says so. */
START_TEST(test_time_limit_wide) {
  char dir[256], path[300], args[1024];
  tf_test_temp_dir(dir, sizeof dir, "tf-limits");
  snprintf(path, sizeof path, "%s/wide.json", dir);
  static const char wide[] =
      "{\"name\": \"wide\", \"choose\": {\"a\": {\"from\": 1, \"to\": 1000}, \"b\": {\"from\": 1, \"to\": 100}},\n"
      " \"count\": {\"stages\": {\"min\": 1, \"max\": 1000}, \"x\": {\"min\": 0, \"max\": 1000},"
      " \"y\": {\"min\": 0, \"max\": 1000}},\n"
      " \"buffers\": [{\"name\": \"ring\", \"memory\": \"smem\", \"size\": \"stages * (a * b % 97 + 1) * 128 + a * 37 "
      "+ b\","
      " \"align\": 128},\n"
      "   {\"name\": \"acc\", \"memory\": \"rf\", \"size\": \"(a + b) % 200\"}],\n"
      " \"require\": [\"4 * stages + 6 * x + 10 * y == 2 * a + 1\"],\n" /* odd = even: no point, */
      " \"objective\": [\"max stages * 3 + a - b\"]}\n";                /* which bounds cannot see */
  tf_test_write(path, wide, strlen(wide));
  snprintf(args, sizeof args, "solve -m b200 -w %s --time-limit 0.001 --json", path);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  tf_test_remove_dir(dir);
  ck_assert_msg(rc == 3, "exit %d: %s", rc, err);
  ck_assert_str_eq(out, "");
  ck_assert_msg(!strncmp(err, "tilefit: error: ", 16) && strstr(err, "time limit of 0.001 s reached"), "%s", err);
  /* the limit counts binding, which may use it all before the search */
  ck_assert_msg(strstr(err, "best bound") || strstr(err, "no bound known") || strstr(err, "while binding"), "%s", err);
  ck_assert_msg(strchr(err, '\n')[1] == 0, "more than one line: %s", err);
}
END_TEST

/* No integer point (the left side is even), which LP-based branch and
 * bound cannot see: the search runs until the limit, with a bound. */
START_TEST(test_time_limit_bound) {
  char dir[256], path[300], args[1024];
  tf_test_temp_dir(dir, sizeof dir, "tf-limits");
  snprintf(path, sizeof path, "%s/parity.json", dir);
  static const char parity[] =
      "{\"name\": \"parity\", \"count\": {\"c0\": {\"min\": 0, \"max\": 1000000}, \"c1\": {\"min\": 0, \"max\": "
      "1000000},"
      " \"c2\": {\"min\": 0, \"max\": 1000000}, \"c3\": {\"min\": 0, \"max\": 1000000}, \"c4\": {\"min\": 0, \"max\": "
      "1000000},"
      " \"c5\": {\"min\": 0, \"max\": 1000000}},\n"
      " \"buffers\": [{\"name\": \"x\", \"memory\": \"smem\", \"size\": \"c0\"}],\n"
      " \"require\": [\"4 * c0 + 6 * c1 + 10 * c2 + 14 * c3 + 22 * c4 + 26 * c5 == 1000001\"],\n"
      " \"objective\": [\"max c0 + c1\"]}\n";
  tf_test_write(path, parity, strlen(parity));
  snprintf(args, sizeof args, "solve -m b200 -w %s --time-limit 0.5", path);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  tf_test_remove_dir(dir);
  ck_assert_msg(rc == 3, "exit %d: %s", rc, err);
  ck_assert_str_eq(out, "");
  ck_assert_msg(strstr(err, "time limit of 0.5 s reached before any feasible solution; best bound "), "%s", err);
}
END_TEST

/* 10^6 combinations, 300 chained lets: binding alone took 13-23 s and
 * --time-limit 1 was ignored (exit 0).  The limit counts binding too, in
 * the command line, a sweep and the library alike.  A solve with
 * --explain binds every combination (a plain solve binds on demand). */
static void slow_binding(const char *path) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"name\": \"slowbind\", \"choose\": {", f);
  for (int i = 0; i < 6; i++)
    fprintf(f, "%s\"c%d\": {\"from\": 1, \"to\": 10}", i ? ", " : "", i);
  fputs("}, \"count\": {\"stages\": {\"min\": 1, \"max\": 8}}, \"let\": {", f);
  for (int i = 0; i < 300; i++)
    fprintf(f, "%s\"l%d\": \"%s%d + c%d\"", i ? ", " : "", i, i ? "l" : "c", i ? i - 1 : 0, i % 6);
  fputs("}, \"buffers\": [{\"name\": \"KV\", \"memory\": \"smem\", \"size\": \"stages * l299 * 16\"}],"
        " \"objective\": [\"max stages\"]}\n",
        f);
  ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_time_limit_binding) {
  char dir[256], path[300], list[300], args[1024];
  tf_test_temp_dir(dir, sizeof dir, "tf-limits");
  snprintf(path, sizeof path, "%s/slow.json", dir);
  slow_binding(path);
  snprintf(args, sizeof args, "solve -m b200 -w %s --time-limit 1 --explain", path);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 3, "exit %d: %s", rc, err);
  ck_assert_str_eq(out, "");
  TF_TEST_CONTAINS(err, "time limit of 1 s reached while binding, after ", "of 1000000 combinations");
  snprintf(list, sizeof list, "%s/list.jsonl", dir);
  char line[256];
  snprintf(line, sizeof line, "{\"id\": \"slow\", \"machine\": \"b200\", \"workset\": \"%s\"}\n", path);
  tf_test_write(list, line, strlen(line));
  snprintf(args, sizeof args, "sweep %s -q --time-limit 1", list);
  rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  tf_test_remove_dir(dir);
  ck_assert_msg(rc == 0 && strstr(out, "\"status\":\"error\"") && strstr(out, "while binding"), "exit %d: %s%s", rc,
                out, err);
}
END_TEST

/* Out of memory aborted (exit 134, a core dump); it is a failure: one
 * line, exit 3.  (Not under ASan, whose shadow memory needs more address
 * space than the limit.) */
START_TEST(test_out_of_memory_exit_3) {
#ifdef TF_TEST_ASAN
  return;
#endif
  char dir[256], path[300], cmd[1024];
  tf_test_temp_dir(dir, sizeof dir, "tf-limits");
  snprintf(path, sizeof path, "%s/slow.json", dir);
  slow_binding(path);
  const char *bin = getenv("TILEFIT_BIN");
  snprintf(cmd, sizeof cmd, "ulimit -v 60000; exec %s solve -m b200 -w %s --explain 2>%s/err >/dev/null",
           bin && *bin ? bin : "./tilefit", path, dir);
  int status = system(cmd);
  snprintf(path, sizeof path, "%s/err", dir);
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(err, 1, sizeof err - 1, f) : 0;
  err[n] = 0;
  if (f)
    fclose(f);
  tf_test_remove_dir(dir);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d: %s", status, err);
  ck_assert_msg(!strncmp(err, "tilefit: error: out of memory", 29) && strchr(err, '\n')[1] == 0, "%s", err);
}
END_TEST

/* ------------------------------------------------------ fuzz regressions */

static int (*const fuzz_fn[])(const uint8_t *, size_t) = {tf_fuzz_machine, tf_fuzz_workset, tf_fuzz_expr,
                                                          tf_fuzz_case,    tf_fuzz_cli,     tf_fuzz_api};
static const char *const fuzz_name[] = {"machine", "workset", "expr", "case", "cli", "api"};

START_TEST(test_fuzz_regressions) {
  char dir[256], here[4096];
  ck_assert_ptr_nonnull(getcwd(here, sizeof here));
  snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", fuzz_name[_i]);
  DIR *d = opendir(dir);
  if (!d)
    return; /* no crash found yet */
  char *files[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256)
    if (e->d_name[0] != '.') {
      char path[600];
      snprintf(path, sizeof path, "%s/%s/%s", here, dir, e->d_name);
      files[n++] = strdup(path);
    }
  closedir(d);
  char scratch[256];
  FILE *saved_out = stdout, *saved_err = stderr, *null_out = NULL, *null_err = NULL;
  if (fuzz_fn[_i] == tf_fuzz_cli) { /* as fuzz_cli runs it: in a scratch directory, output to /dev/null */
    tf_test_temp_dir(scratch, sizeof scratch, "tf-limits-cli");
    ck_assert_int_eq(tf_fuzz_cli_scratch(scratch, here), 0);
    null_out = fopen("/dev/null", "w");
    null_err = fopen("/dev/null", "w");
  }
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(files[i], "rb");
    ck_assert_ptr_nonnull(f);
    static uint8_t data[1 << 20];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    if (null_out)
      stdout = null_out, stderr = null_err;
    fuzz_fn[_i](data, len);
    stdout = saved_out, stderr = saved_err;
    free(files[i]);
  }
  if (null_out) {
    fclose(null_out);
    fclose(null_err);
    ck_assert_int_eq(chdir(here), 0);
    tf_test_remove_dir(scratch);
  }
}
END_TEST

/* What the fuzzers found in the expression evaluator, as plain cases:
 * a remainder whose floor-division form overflowed, and an exact division
 * of a count's coefficient INT64_MIN by -1 (a SIGFPE on x86). */
static const struct {
  const char *text;
  int ok;
  long long value;
  const char *msg;
} expr_cases[] = {
    {"9223372036854775807 % -2", 1, -1, NULL},
    {"(-9223372036854775807 - 1) % -1", 1, 0, NULL},
    {"(-9223372036854775807 - 1) % 3", 1, 1, NULL},
    {"-7 % 3", 1, 2, NULL},
    {"7 % -3", 1, -2, NULL},
    {"(s * -9223372036854775807 - s) / -1", 0, 0, "integer overflow"},
    {"(-9223372036854775807 - 1) / -1", 0, 0, "integer overflow"},
    {"fdiv(-9223372036854775807 - 1, -1)", 0, 0, "integer overflow"},
};

START_TEST(test_expr_regression) {
  tf_affine syms[NSYMS]; /* the fuzz target's symbol table: s and t are counts */
  fill_syms(syms, NULL);
  tf_eval_env env = {syms, 2, count_names};
  tf_error e;
  tf_error_init(&e);
  tf_expr *x = tf_expr_parse(expr_cases[_i].text, &e);
  ck_assert_msg(x != NULL, "%s", e.msg);
  ck_assert_int_eq(tf_expr_bind(x, resolve, NULL, &e), 0);
  tf_affine v;
  tf_error_init(&e);
  int rc = tf_expr_eval(x, &env, &v, &e);
  if (expr_cases[_i].ok) {
    ck_assert_msg(rc == 0, "%s: %s", expr_cases[_i].text, e.msg);
    ck_assert_msg(v.c == expr_cases[_i].value, "%s = %lld, expected %lld", expr_cases[_i].text, (long long)v.c,
                  expr_cases[_i].value);
  } else {
    ck_assert_msg(rc == -1 && strstr(e.msg, expr_cases[_i].msg), "%s: %s", expr_cases[_i].text, e.msg);
  }
  tf_expr_free(x);
}
END_TEST

Suite *limits_suite(void) {
  Suite *s = suite_create("limits");
  TCase *tc = tcase_create("Limits");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_limit, 0, sizeof limits / sizeof *limits);
  tcase_add_test(tc, test_default_time_limit);
  suite_add_tcase(s, tc);
  TCase *tl = tcase_create("Time limit");
  tcase_set_timeout(tl, 120);
  tcase_add_test(tl, test_time_limit_wide);
  tcase_add_test(tl, test_time_limit_bound);
  tcase_add_test(tl, test_time_limit_binding);
  tcase_add_test(tl, test_out_of_memory_exit_3);
  suite_add_tcase(s, tl);
  TCase *fz = tcase_create("Fuzz regressions");
  tcase_set_timeout(fz, 120);
  tcase_add_loop_test(fz, test_fuzz_regressions, 0, sizeof fuzz_name / sizeof *fuzz_name);
  tcase_add_loop_test(fz, test_expr_regression, 0, sizeof expr_cases / sizeof *expr_cases);
  suite_add_tcase(s, fz);
  return s;
}
