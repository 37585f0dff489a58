/* The command line: a table of commands, dispatch, and the one place that
 * prints an error and maps it to an exit code. */
#ifndef TF_SOLVER_CLI_CLI_H
#define TF_SOLVER_CLI_CLI_H

#include "model/error.h"

#define TF_VERSION "0.1.0"

enum tf_exit { TF_EXIT_OK = 0, TF_EXIT_NO = 1, TF_EXIT_USAGE = 2, TF_EXIT_INTERNAL = 3 };

/* Runs the whole command line; returns the process exit code. */
int tf_cli_main(int argc, char **argv);

/* Prints "tilefit: error: FILE: PATH: MSG" on stderr, returns the exit code. */
int tf_cli_fail(const tf_error *err);

/* Commands: int cmd_X(int argc, char **argv), argv[0] the command name. */
int cmd_solve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_worksets(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
