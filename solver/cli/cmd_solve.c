#include <stdio.h>
#include <stdlib.h>

#include "model/core/alloc.h"

#include "solver/cli/cli.h"
#include "solver/cli/cmd_problem.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_solve = {
    "solve", TF_CMD_SOLVE, run, "the best parameters for a workset on a machine", "-m MACHINE -w WORKSET", 0,
    "Finds the best assignment of the workset's variables that fits the machine.\n"
    "Infeasible: the reason on stderr; --json, --jsonl and --csv also print it as\n"
    "the answer's \"reason\" with status infeasible.\n",
    "0 solved, 1 infeasible, 2 bad input, 3 solver or internal failure", 0, NULL, TF_OPERANDS_NONE};

static void infeasible(tf_cmd_problem *c, const tf_answer *a) {
  fprintf(stderr, "tilefit: infeasible: %s: %s on %s: %s\n", c->loaded.workset->file, c->loaded.workset->name,
          c->loaded.machine->name, a->why);
  if (c->args.format != TF_FORMAT_TEXT) /* the reason, machine-readable */
    tf_report_answers(tf_cli_out(&c->args), c->args.format, &c->args.req, c->problem, a, 1, 0);
}

static int solve_top(tf_cmd_problem *c, const tf_solve_opts *opts) {
  int k = c->args.top, n = 0, rc;
  tf_answer *a = tf_nalloc((size_t)k, sizeof *a);
  for (int i = 0; i < k; i++)
    tf_answer_init(&a[i], c->problem);
  if (c->args.lp_file || c->args.mps_file) {
    tf_error_set(&c->err, TF_EINPUT, "--top", "cannot be combined with --lp or --mps");
    rc = tf_cli_fail(&c->err);
  } else if ((c->args.top_points ? tf_solve_top : tf_solve_configs)(c->problem, opts, k, a, &n, &c->err)) {
    rc = tf_cli_fail(&c->err);
  } else if (n == 0) {
    a[0].rank = 1; /* framed as --top frames its answers: a JSON array of one */
    infeasible(c, &a[0]);
    rc = TF_EXIT_NO;
  } else {
    for (int i = 0; i < n; i++)
      a[i].rank = i + 1;
    tf_report_answers(tf_cli_out(&c->args), c->args.format, &c->args.req, c->problem, a, n, c->args.explain);
    rc = TF_EXIT_OK;
  }
  for (int i = 0; i < k; i++)
    tf_answer_release(&a[i]);
  free(a);
  return rc;
}

static int solve_one(tf_cmd_problem *c, const tf_solve_opts *opts) {
  tf_solve_out out = {c->args.lp_file, c->args.mps_file};
  tf_answer a;
  tf_answer_init(&a, c->problem);
  int rc;
  if (tf_solve(c->problem, opts, &out, &a, &c->err)) {
    rc = tf_cli_fail(&c->err);
  } else if (a.status == TF_ANSWER_INFEASIBLE) {
    infeasible(c, &a);
    rc = TF_EXIT_NO;
  } else {
    tf_report_answers(tf_cli_out(&c->args), c->args.format, &c->args.req, c->problem, &a, 1, c->args.explain);
    rc = TF_EXIT_OK;
  }
  tf_answer_release(&a);
  return rc;
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_solve);
  if (rc == TF_CLI_GO) {
    tf_solve_opts opts;
    tf_args_solve_opts(&c.args, &opts);
    rc = tf_cli_finish(&c.args, c.args.top ? solve_top(&c, &opts) : solve_one(&c, &opts));
  }
  tf_cmd_problem_close(&c);
  return rc;
}
