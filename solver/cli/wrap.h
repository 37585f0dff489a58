/* Help text wrapped to the terminal's 79 columns (solver/cli/options.c's
 * --help). */
#ifndef TF_SOLVER_CLI_WRAP_H
#define TF_SOLVER_CLI_WRAP_H

#include <stdio.h>

/* Writes text from column `col` on, wrapped at 79 columns, continuation
 * lines indented to `indent`, and a newline. */
void tf_cli_wrapped(FILE *f, const char *text, int col, int indent);

#endif
