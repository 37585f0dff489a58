/* The frame every command of the command line runs in (frame.c): its
 * start, which parses argv by the option table (options.h), and its end,
 * which writes the results it held.  A command calls tf_cli_start, writes
 * to tf_cli_out, and returns tf_cli_finish's exit code. */
#ifndef TF_SOLVER_CLI_FRAME_H
#define TF_SOLVER_CLI_FRAME_H

#include <stdio.h>

#include "solver/cli/command.h"
#include "solver/cli/options.h"

/* Every command's start: parse argv for cmd (into an initialised a),
 * print --help, check the operand count.  Returns TF_CLI_GO when the
 * command goes on, else the exit code, the error already printed
 * (tf_cli_fail). */
#define TF_CLI_GO (-1)
int tf_cli_start(const tf_command *cmd, int argc, char **argv, tf_args *a);

/* Where a command writes its results: a buffer, written out by
 * tf_cli_finish -- to standard output, or whole to -o FILE -- only when
 * the command ends with 0 or 1, so bad input leaves no partial output. */
FILE *tf_cli_out(tf_args *a);
/* Writes the results held (when rc is 0 or 1) and returns the exit code:
 * rc, or 2/3 when they cannot be written (the error printed). */
int tf_cli_finish(tf_args *a, int rc);

#endif
