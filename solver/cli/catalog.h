/* A catalogue command (`tilefit worksets`): without an operand, one line
 * per shipped entry; with one, the entry in full.  Both write to `f`. */
#ifndef TF_SOLVER_CLI_CATALOG_H
#define TF_SOLVER_CLI_CATALOG_H

#include <stdio.h>

#include "model/core/error.h"
#include "model/core/json_out.h"
#include "solver/cli/command.h"

typedef struct tf_catalog_view {
  int kind; /* enum tf_catalog_kind */
  /* one line of the listing; width: the longest name's length */
  void (*line)(FILE *f, const char *name, int width, const char *path);
  int (*show)(FILE *f, const char *path, tf_error *err); /* the full view: 0, or -1 */
  /* --json: one listing entry's members after its name ("description"),
   * in the entry's object w stands in, and the full view as one object
   * (the library's own description) */
  void (*json_item)(tf_json_out *w, const char *path);
  int (*show_json)(FILE *f, const char *path, tf_error *err);
  const char *plural; /* the listing's member: "worksets" */
} tf_catalog_view;

/* The whole command: returns its exit code. */
int tf_cli_catalog(const tf_command *cmd, const tf_catalog_view *v, int argc, char **argv);

#endif
