/* A command of the command line as data (tf_command): its name, the bit
 * that says which options of the option table (solver/cli/options.c) it
 * takes, its run function and its help text; the exit codes; and each
 * command's row, defined in its solver/cli/cmd_NAME.c, which the
 * dispatcher's table (solver/cli/cli.c) lists (adding one: docs/design.md,
 * "Where to add X").  Below everything else in solver/cli/, so that the
 * option parser, the failure report and the commands name a command
 * without calling up into the dispatcher. */
#ifndef TF_SOLVER_CLI_COMMAND_H
#define TF_SOLVER_CLI_COMMAND_H

#include "solver/command_options.h"

enum tf_exit { TF_EXIT_OK = 0, TF_EXIT_NO = 1, TF_EXIT_USAGE = 2, TF_EXIT_INTERNAL = 3 };

/* One bit per command (enum tf_cmd_bit), for the option table: in
 * solver/command_options.h, with the options every front end shares. */
typedef struct tf_command {
  const char *name;
  unsigned bit;                      /* enum tf_cmd_bit */
  int (*run)(int argc, char **argv); /* argv[0] is the command name */
  const char *about;                 /* one line, for 'tilefit --help' */
  const char *operands;              /* the usage line after "tilefit NAME [options]" */
  int max_operands;                  /* -1: any number */
  const char *text;                  /* --help: what it does (after the usage line) */
  const char *exit_text;             /* --help: its exit codes */
  int min_operands;                  /* fewer is a usage error, saying */
  const char *missing;               /* this */
  int operand_kind;                  /* enum tf_operand_kind: what completion offers as an operand */
} tf_command;

/* A command's operands, for 'tilefit completion' (dist/tilefit.bash). */
enum tf_operand_kind {
  TF_OPERANDS_NONE, /* takes none, or nothing to offer */
  TF_OPERANDS_FILES,
  TF_OPERANDS_MACHINES, /* shipped machine names or .json files */
  TF_OPERANDS_WORKSETS, /* shipped workset names or .json files */
  TF_OPERANDS_KINDS     /* plot: map or sweep */
};

extern const tf_command tf_cmd_solve, tf_cmd_check, tf_cmd_machines, tf_cmd_worksets, tf_cmd_validate, tf_cmd_sweep,
    tf_cmd_merge, tf_cmd_prune, tf_cmd_plot, tf_cmd_probe, tf_cmd_layout, tf_cmd_emit;
/* The two kinds of 'plot', reached through tf_cmd_plot. */
extern const tf_command tf_cmd_plot_map, tf_cmd_plot_sweep;

#endif
