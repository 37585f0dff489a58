/* The command line in-process: a table of (expected exit code, arguments),
 * as kissat's testusage.c does.  stdout and stderr go to /dev/null; the
 * end-to-end suite checks what they say. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/cli/cli.h"
#include "tests/suites.h"

#define MINI "-m b200 -w tests/data/worksets/fa4-mini.json"
static const struct {
  int code;
  const char *args;
} cases[] = {
    {2, ""},
    {0, "--help"},
    {0, "--version"},
    {2, "frobnicate"},
    {0, "solve --help"},
    {0, "check --help"},
    {0, "machines --help"},
    {0, "machines"},
    {0, "machines b200"},
    {2, "machines nosuch"},
    {2, "machines b200 extra"},
    {0, "worksets tests/data/worksets/fa4-mini.json"},
    {0, "solve " MINI},
    {0, "solve " MINI " --json"},
    {0, "solve " MINI " --csv"},
    {0, "solve " MINI " --explain"},
    {0, "solve " MINI " -p d=64 --fix B_c=128 --fix q_stage=2"},
    {0, "solve " MINI " --objective=max|stages --fix=B_c=64"},
    {2, "solve -m b200"},
    {2, "solve -w tests/data/worksets/fa4-mini.json"},
    {2, "solve -m nosuch -w tests/data/worksets/fa4-mini.json"},
    {2, "solve -m b200 -w nosuch"},
    {2, "solve -m b200 -w /nonexistent/w.json"},
    {2, "solve " MINI " -p d"},
    {2, "solve " MINI " -p d=x"},
    {2, "solve " MINI " -p nosuch=1"},
    {2, "solve " MINI " --fix nosuch=1"},
    {2, "solve " MINI " --fix B_c=64 --fix B_c=128"},
    {2, "solve " MINI " --domain B_c="},
    {2, "solve " MINI " --domain stages=1,2"},
    {2, "solve " MINI " --require stages"},
    {2, "solve " MINI " --objective stages"},
    {2, "solve " MINI " --frobnicate"},
    {2, "solve " MINI " --time-limit 0"},
    {2, "solve " MINI " extra"},
    {1, "solve " MINI " --require stages>=70"},
    {1, "solve -m a100 -w tests/data/worksets/fa4-mini.json"},
    {0, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=3"},
    {1, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=4"},
    {2, "check " MINI " --fix B_c=128"},
};

/* Splits a command line on spaces; '|' inside an argument stands for a space. */
static int split(char *line, char **argv, int max) {
  int n = 0;
  argv[n++] = "tilefit";
  for (char *tok = strtok(line, " "); tok && n < max - 1; tok = strtok(NULL, " ")) {
    for (char *c = tok; *c; c++)
      if (*c == '|')
        *c = ' ';
    argv[n++] = tok;
  }
  argv[n] = NULL;
  return n;
}

START_TEST(test_exit_codes) {
  char line[1024];
  snprintf(line, sizeof line, "%s", cases[_i].args);
  char *argv[64];
  int argc = split(line, argv, 64);
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));
  int rc = tf_cli_main(argc, argv);
  ck_assert_msg(rc == cases[_i].code, "'tilefit %s' exited %d, expected %d", cases[_i].args, rc, cases[_i].code);
}
END_TEST

Suite *cli_suite(void) {
  Suite *s = suite_create("cli");
  TCase *tc = tcase_create("Exit codes");
  tcase_add_loop_test(tc, test_exit_codes, 0, sizeof cases / sizeof *cases);
  suite_add_tcase(s, tc);
  return s;
}
