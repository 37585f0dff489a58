#include <stdio.h>
#include <string.h>

#include "solver/cli/cmd_problem.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/emit/layout_write.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_layout = {"layout",
                                  TF_CMD_LAYOUT,
                                  run,
                                  "where each buffer sits: offsets, sizes, rounding, as code",
                                  "-m MACHINE -w WORKSET",
                                  0,
                                  "Lays out the answer's buffers in each memory from offset 0, in the workset's\n"
                                  "layout_order (else workset order): each buffer's offset, size, allocated size\n"
                                  "(its size rounded up to its alignment, as the capacity rows charge it) and\n"
                                  "alignment, so that the layout ends at the memory's used figure.  A buffer that\n"
                                  "aliases another shares its space; buffers with a lifetime follow the\n"
                                  "always-live ones, every lifetime from the same offset (a union).  Solves as solve "
                                  "does when a variable is free; with every\n"
                                  "variable fixed it lays out that configuration, as check evaluates it.\n"
                                  "--emit c writes a C/C++ header, --emit cute-dsl a CuTe DSL shared-storage\n"
                                  "struct.\n",
                                  "0 laid out, 1 infeasible or does not fit (the layout still printed when it does\n"
                                  "not fit), 2 bad input, 3 solver or internal failure",
                                  0,
                                  NULL,
                                  TF_OPERANDS_NONE};

static int lay_out(tf_cmd_problem *c, tf_answer *a) {
  tf_solve_opts opts;
  tf_args_solve_opts(&c->args, &opts);
  const char *e = c->args.emit_form;
  int form = e                                  ? (!strcmp(e, "c") ? TF_LAYOUT_C : TF_LAYOUT_CUTE_DSL)
             : c->args.format == TF_FORMAT_JSON ? TF_LAYOUT_JSON
                                                : TF_LAYOUT_TEXT;
  if (tf_layout_run(tf_cli_out(&c->args), c->run.problem, &opts, form, a, &c->err))
    return tf_cli_fail(&c->err);
  if (a->status == TF_ANSWER_INFEASIBLE)
    fprintf(stderr, "tilefit: infeasible: %s: %s on %s: %s\n", c->run.loaded.workset->file, c->run.loaded.workset->name,
            c->run.loaded.machine->name, a->why);
  return a->status == TF_ANSWER_INFEASIBLE || a->status == TF_ANSWER_NO_FIT ? TF_EXIT_NO : TF_EXIT_OK;
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_layout);
  if (rc == TF_CLI_GO) {
    tf_answer a;
    tf_answer_init(&a, c.run.problem);
    rc = tf_cli_finish(&c.args, lay_out(&c, &a));
    tf_answer_release(&a);
  }
  tf_cmd_problem_close(&c);
  return rc;
}
