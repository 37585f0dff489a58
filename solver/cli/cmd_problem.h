/* What solve and check share: parse the problem options, load the machine
 * and workset, bind the problem.  One owner for the four resources. */
#ifndef TF_SOLVER_CLI_CMD_PROBLEM_H
#define TF_SOLVER_CLI_CMD_PROBLEM_H

#include "model/formats/cutlass_name.h"
#include "solver/cli/options.h"
#include "solver/run.h"
#include "solver/solve.h"

typedef struct tf_cmd_problem {
  tf_args args;
  tf_run run; /* the loaded machine and workset, the bound problem */
  tf_error err;
  tf_cutlass_kernel kernel; /* with --cutlass-name: the kernel it names */
} tf_cmd_problem;

/* Returns TF_CLI_GO when c->run.problem is ready, else the exit code (after
 * --help, or a usage or input error already printed).  Close c either way. */
int tf_cmd_problem_open(tf_cmd_problem *c, int argc, char **argv, const tf_command *cmd);
void tf_cmd_problem_close(tf_cmd_problem *c);

#endif
