#include <stdio.h>

#include "solver/cli/cli.h"
#include "solver/cli/cmd_problem.h"
#include "solver/tilefit.h"

static const char check_help[] =
    "usage: tilefit check -m MACHINE -w WORKSET --fix VAR=VALUE... [options]\n"
    "\n"
    "Evaluates one configuration, with every variable fixed (by --fix or by a\n"
    "one-value domain), and reports whether it fits: every buffer's bytes after\n"
    "rounding, every memory's use against its capacity, and the first violation.\n"
    "\n"
    "  -m, --machine NAME|FILE    -w, --workset NAME|FILE\n"
    "  -p, --param NAME=VALUE     --fix VAR=VALUE   --domain VAR=V\n"
    "      --require \"EXPR <= EXPR\"\n"
    "      --json | --csv         machine-readable output\n"
    "\n"
    "exit: 0 fits, 1 does not fit, 2 bad input, 3 internal failure\n";

int cmd_check(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, TF_OPT_PROBLEM | TF_OPT_FORMAT | TF_OPT_EXPLAIN, check_help);
  if (rc) {
    rc = rc > 0 ? TF_EXIT_OK : tf_cli_fail(&c.err);
    tf_cmd_problem_close(&c);
    return rc;
  }
  tf_answer a;
  tf_answer_init(&a, c.problem);
  if (tf_check(c.problem, &a, &c.err)) {
    rc = tf_cli_fail(&c.err);
  } else {
    tf_report_answer(stdout, c.args.format, &c.args.req, c.problem, &a, 1);
    rc = a.status == TF_ANSWER_FITS ? TF_EXIT_OK : TF_EXIT_NO;
  }
  tf_answer_release(&a);
  tf_cmd_problem_close(&c);
  return rc;
}
