#include <stdio.h>

#include "model/formats/cutlass_types.h"
#include "solver/cli/cmd_problem.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/prune.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_check = {"check",
                                 TF_CMD_CHECK,
                                 run,
                                 "does one fully fixed configuration fit, buffer by buffer",
                                 "-m MACHINE -w WORKSET --fix VAR=VALUE...",
                                 0,
                                 "Evaluates one configuration, with every variable fixed (by --fix or by a\n"
                                 "one-value domain), and reports whether it fits: every buffer's bytes after\n"
                                 "rounding, every memory's use against its capacity, and the first violation.\n",
                                 "0 fits, 1 does not fit, 2 bad input, 3 internal failure",
                                 0,
                                 NULL,
                                 TF_OPERANDS_NONE};

/* Before the report, into the same output (-o FILE or stdout). */
static void print_binding(FILE *f, const tf_cmd_problem *c) {
  fprintf(f, "%s\n  binds %s on %s", c->args.cutlass_name, c->run.loaded.workset->name, c->run.loaded.machine->name);
  for (size_t i = 0; i < c->args.req.nparams; i++) {
    const tf_assign *p = &c->args.req.params[i];
    const char *shown = tf_cl_param_show(p->name, p->value); /* a type or layout by its name */
    if (shown)
      fprintf(f, ", %s %s", p->name, shown);
    else
      fprintf(f, ", %s %lld", p->name, (long long)p->value);
  }
  fprintf(f, "\n  stages: %s\n\n", c->kernel.stages ? "as named" : "the builder's automatic count");
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_check);
  if (rc != TF_CLI_GO)
    return tf_cmd_problem_close(&c), rc;
  tf_solve_opts opts; /* --solver, --time-limit: where check solves, for a builder's stage count */
  tf_args_solve_opts(&c.args, &opts);
  if (c.args.cutlass_name && !c.kernel.stages &&
      tf_fix_builder_stages(&c.args.req, &c.run.loaded, &opts, &c.run.problem, &c.err))
    return rc = tf_cli_fail(&c.err), tf_cmd_problem_close(&c), rc;
  if (c.args.cutlass_name && c.args.format == TF_FORMAT_TEXT)
    print_binding(tf_cli_out(&c.args), &c);
  tf_answer a;
  tf_answer_init(&a, c.run.problem);
  if (tf_check(c.run.problem, &a, &c.err)) {
    rc = tf_cli_fail(&c.err);
  } else {
    tf_report_answers(tf_cli_out(&c.args), c.args.format, &c.args.req, c.run.problem, &a, 1, 1);
    rc = tf_cli_finish(&c.args, a.status == TF_ANSWER_FITS ? TF_EXIT_OK : TF_EXIT_NO);
  }
  tf_answer_release(&a);
  tf_cmd_problem_close(&c);
  return rc;
}
