#include <stdio.h>
#include <string.h>

#include "solver/cli/cli.h"
#include "solver/cli/cmd_problem.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_check = {
    "check", TF_CMD_CHECK, run, "does one fully fixed configuration fit, buffer by buffer",
    "-m MACHINE -w WORKSET --fix VAR=VALUE...", 0,
    "Evaluates one configuration, with every variable fixed (by --fix or by a\n"
    "one-value domain), and reports whether it fits: every buffer's bytes after\n"
    "rounding, every memory's use against its capacity, and the first violation.\n",
    "0 fits, 1 does not fit, 2 bad input, 3 internal failure", 0, NULL};

/* A CUTLASS name with stage count 0: the builder's automatic count is the
 * largest that fits (its formula is what the workset encodes), so solve for
 * it, then check that point like any fixed configuration.  When none fits,
 * the point to show is the smallest count the kernel accepts. */
static int builder_stages(tf_cmd_problem *c) {
  tf_solve_opts opts;
  tf_solve_opts_init(&opts);
  opts.time_limit_s = c->args.time_limit;
  tf_answer a;
  tf_answer_init(&a, c->problem);
  int rc = tf_solve(c->problem, &opts, NULL, &a, &c->err);
  int k = -1;
  for (int i = 0; i < c->problem->ncounts; i++)
    if (!strcmp(c->problem->count_names[i], "stages"))
      k = i;
  int64_t stages = k < 0 ? 0 : a.status == TF_ANSWER_INFEASIBLE ? c->problem->count_lo[k] : a.point.counts[k];
  tf_answer_release(&a);
  if (rc)
    return -1;
  if (k < 0)
    return tf_error_set(&c->err, TF_EINPUT, "--cutlass-name", "workset %s has no count 'stages'",
                        c->loaded.workset->name);
  tf_request_add_fix(&c->args.req, "stages", stages, "--cutlass-name");
  tf_problem_free(c->problem);
  c->problem = tf_problem_new(c->loaded.machine, c->loaded.workset, &c->args.req, &c->err);
  return c->problem ? 0 : -1;
}

static void print_binding(const tf_cmd_problem *c) {
  fprintf(stdout, "%s\n  binds %s on %s", c->args.cutlass_name, c->loaded.workset->name, c->loaded.machine->name);
  for (size_t i = 0; i < c->args.req.nparams; i++)
    fprintf(stdout, ", %s %lld", c->args.req.params[i].name, (long long)c->args.req.params[i].value);
  fprintf(stdout, "\n  stages: %s\n\n", c->kernel.stages ? "as named" : "the builder's automatic count");
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_check);
  if (rc != TF_CLI_GO)
    return tf_cmd_problem_close(&c), rc;
  if (c.args.cutlass_name && !c.kernel.stages && builder_stages(&c))
    return rc = tf_cli_fail(&c.err), tf_cmd_problem_close(&c), rc;
  if (c.args.cutlass_name && c.args.format == TF_FORMAT_TEXT)
    print_binding(&c);
  tf_answer a;
  tf_answer_init(&a, c.problem);
  if (tf_check(c.problem, &a, &c.err)) {
    rc = tf_cli_fail(&c.err);
  } else {
    tf_report_answers(stdout, c.args.format, &c.args.req, c.problem, &a, 1, 1);
    rc = a.status == TF_ANSWER_FITS ? TF_EXIT_OK : TF_EXIT_NO;
  }
  tf_answer_release(&a);
  tf_cmd_problem_close(&c);
  return rc;
}
