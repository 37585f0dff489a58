/* The command line: the table of commands, dispatch, help and
 * completion (solver/cli/cli.c).  It calls every command (a tf_command,
 * solver/cli/command.h) and nothing below calls it. */
#ifndef TF_SOLVER_CLI_CLI_H
#define TF_SOLVER_CLI_CLI_H

#include "solver/cli/command.h"

/* Runs the whole command line; returns the process exit code. */
int tf_cli_main(int argc, char **argv);

/* The command a bit names, or NULL. */
const tf_command *tf_cli_command(unsigned bit);

#endif
