/* The command line's one place that prints an error and maps it to an exit
 * code: what every command and the frame it runs in (frame.c) call when
 * something fails. */
#ifndef TF_SOLVER_CLI_FAIL_H
#define TF_SOLVER_CLI_FAIL_H

#include "model/core/error.h"

/* Prints "tilefit: error: FILE: PATH: MSG" on stderr, a field or option
 * the library names by its key spelled as the command line's option
 * (tf_cli_spelling); returns the exit code (enum tf_exit). */
int tf_cli_fail(const tf_error *err);

#endif
