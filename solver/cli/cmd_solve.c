#include <stdio.h>

#include "solver/cli/cmd_problem.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/run.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_solve = {"solve",
                                 TF_CMD_SOLVE,
                                 run,
                                 "the best parameters for a workset on a machine",
                                 "-m MACHINE -w WORKSET",
                                 0,
                                 "Finds the best assignment of the workset's variables that fits the machine.\n"
                                 "Infeasible: the reason on stderr; --json, --jsonl and --csv also print it as\n"
                                 "the answer's \"reason\" with status infeasible.\n",
                                 "0 solved, 1 infeasible, 2 bad input, 3 solver or internal failure",
                                 0,
                                 NULL,
                                 TF_OPERANDS_NONE};

static void infeasible(tf_cmd_problem *c, const tf_answer *a) {
  fprintf(stderr, "tilefit: infeasible: %s: %s on %s: %s\n", c->run.loaded.workset->file, c->run.loaded.workset->name,
          c->run.loaded.machine->name, a->why);
  if (c->args.format != TF_FORMAT_TEXT) /* the reason, machine-readable */
    tf_report_answers(tf_cli_out(&c->args), c->args.format, &c->args.req, c->run.problem, a, 1, 0);
}

/* One answer, or with --top K the K best configurations (--top-points:
 * points), reported in the chosen format; nothing fits: the reason. */
static int solve(tf_cmd_problem *c, const tf_solve_opts *opts) {
  int top = c->args.top;
  if (top && (c->args.lp_file || c->args.mps_file))
    return tf_error_set(&c->err, TF_EINPUT, "--top", "cannot be combined with --lp or --mps"), tf_cli_fail(&c->err);
  tf_solve_out out = {c->args.lp_file, c->args.mps_file};
  tf_ranked r;
  int rc;
  if (tf_run_solve(c->run.problem, opts, &out, top, c->args.top_points, &r, &c->err)) {
    rc = tf_cli_fail(&c->err);
  } else if (r.n == 0 || r.a[0].status == TF_ANSWER_INFEASIBLE) {
    if (top)
      r.a[0].rank = 1; /* framed as --top frames its answers: a JSON array of one */
    infeasible(c, &r.a[0]);
    rc = TF_EXIT_NO;
  } else {
    tf_report_answers(tf_cli_out(&c->args), c->args.format, &c->args.req, c->run.problem, r.a, r.n, c->args.explain);
    rc = TF_EXIT_OK;
  }
  tf_ranked_release(&r);
  return rc;
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_solve);
  if (rc == TF_CLI_GO) {
    tf_solve_opts opts;
    tf_args_solve_opts(&c.args, &opts);
    rc = tf_cli_finish(&c.args, solve(&c, &opts));
  }
  tf_cmd_problem_close(&c);
  return rc;
}
