#include <stdio.h>
#include <stdlib.h>

#include "model/alloc.h"

#include "solver/cli/cli.h"
#include "solver/cli/cmd_problem.h"
#include "solver/tilefit.h"

static const char solve_help[] =
    "usage: tilefit solve -m MACHINE -w WORKSET [options]\n"
    "\n"
    "Finds the best assignment of the workset's variables that fits the machine.\n"
    "\n"
    "  -m, --machine NAME|FILE    machine model (tilefit machines lists them)\n"
    "  -w, --workset NAME|FILE    working set (tilefit worksets lists them)\n"
    "  -p, --param NAME=VALUE     set a workset parameter (repeatable)\n"
    "      --fix VAR=VALUE        pin a choose or count variable (repeatable)\n"
    "      --domain VAR=V1,V2,..  narrow a choose variable's domain\n"
    "      --require \"EXPR <= EXPR\"  an extra constraint (repeatable)\n"
    "      --objective \"max EXPR\"    replaces the workset's objectives; repeat for a\n"
    "                             lexicographic order\n"
    "      --json | --csv         machine-readable output\n"
    "      --explain              buffers, memories, and for each objective the next\n"
    "                             better candidate and what it misses by\n"
    "      --top K                the K best distinct assignments, in objective order\n"
    "      --lp FILE | --mps FILE write the model GLPK solves\n"
    "      --time-limit SECONDS   per solver call (default 60)\n"
    "      --no-presolve          turn GLPK's MIP presolver off\n"
    "\n"
    "exit: 0 solved, 1 infeasible, 2 bad input, 3 solver or internal failure\n";

static int solve_top(tf_cmd_problem *c, const tf_solve_opts *opts) {
  int k = c->args.top, n = 0, rc;
  tf_answer *a = tf_nalloc((size_t)k, sizeof *a);
  for (int i = 0; i < k; i++)
    tf_answer_init(&a[i], c->problem);
  if (c->args.lp_file || c->args.mps_file) {
    tf_error_set(&c->err, TF_EINPUT, "--top", "cannot be combined with --lp or --mps");
    rc = tf_cli_fail(&c->err);
  } else if (tf_solve_top(c->problem, opts, k, a, &n, &c->err)) {
    rc = tf_cli_fail(&c->err);
  } else if (n == 0) {
    fprintf(stderr, "tilefit: infeasible: %s: %s on %s: %s\n", c->loaded.workset->file, c->loaded.workset->name,
            c->loaded.machine->name, a[0].why);
    rc = TF_EXIT_NO;
  } else {
    for (int i = 0; i < n; i++)
      a[i].rank = i + 1;
    if (c->args.format == TF_FORMAT_TEXT)
      tf_report_top_text(stdout, &c->args.req, c->problem, a, n);
    if (c->args.format == TF_FORMAT_CSV)
      tf_report_csv_header(stdout, c->problem);
    for (int i = 0; i < n && c->args.format != TF_FORMAT_TEXT; i++)
      (c->args.format == TF_FORMAT_JSON ? tf_report_json : tf_report_csv_row)(stdout, &c->args.req, c->problem, &a[i]);
    rc = TF_EXIT_OK;
  }
  for (int i = 0; i < k; i++)
    tf_answer_release(&a[i]);
  free(a);
  return rc;
}

int cmd_solve(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv,
                               TF_OPT_PROBLEM | TF_OPT_FORMAT | TF_OPT_EXPLAIN | TF_OPT_EXPORT | TF_OPT_SOLVER |
                                   TF_OPT_TOP,
                               solve_help);
  if (rc) {
    rc = rc > 0 ? TF_EXIT_OK : tf_cli_fail(&c.err);
    tf_cmd_problem_close(&c);
    return rc;
  }
  tf_solve_opts opts;
  tf_solve_opts_init(&opts);
  opts.time_limit_s = c.args.time_limit;
  opts.presolve = !c.args.no_presolve;
  tf_solve_out out = {c.args.lp_file, c.args.mps_file};
  if (c.args.top) {
    rc = solve_top(&c, &opts);
    tf_cmd_problem_close(&c);
    return rc;
  }
  tf_answer a;
  tf_answer_init(&a, c.problem);
  if (tf_solve(c.problem, &opts, &out, &a, &c.err)) {
    rc = tf_cli_fail(&c.err);
  } else if (a.status == TF_ANSWER_INFEASIBLE) {
    fprintf(stderr, "tilefit: infeasible: %s: %s on %s: %s\n", c.loaded.workset->file, c.loaded.workset->name,
            c.loaded.machine->name, a.why);
    if (c.args.format == TF_FORMAT_JSON)
      tf_report_json(stdout, &c.args.req, c.problem, &a);
    rc = TF_EXIT_NO;
  } else {
    tf_report_answer(stdout, c.args.format, &c.args.req, c.problem, &a, c.args.explain);
    rc = TF_EXIT_OK;
  }
  tf_answer_release(&a);
  tf_cmd_problem_close(&c);
  return rc;
}
