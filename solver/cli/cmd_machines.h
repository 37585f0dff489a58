/* tilefit machines: the one-machine JSON document, shared with the
 * library's "machine" request (solver/api.h). */
#ifndef TF_SOLVER_CLI_CMD_MACHINES_H
#define TF_SOLVER_CLI_CMD_MACHINES_H

#include <stdio.h>

#include "model/input/machine.h"

/* `tilefit machines NAME --json`: name, description, file, every field
 * with its value and source, the sources file; newline-terminated. */
void tf_cli_machine_json(FILE *f, const tf_machine *m);

#endif
