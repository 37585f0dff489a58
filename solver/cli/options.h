/* The option table and its parser: every option once, with its spelling,
 * its value, its help text and the commands that take it.  A command's
 * usage and --help are generated from the table, and an option a command
 * does not take is a usage error naming both (adding an option:
 * docs/design.md, "Where to add X"). */
#ifndef TF_SOLVER_CLI_OPTIONS_H
#define TF_SOLVER_CLI_OPTIONS_H

#include <stdio.h>

#include "model/bind/problem.h"
#include "model/core/error.h"
#include "model/core/text.h"
#include "solver/backend.h"
#include "solver/cli/command.h"

/* sweep's problem options, kept as typed: lists of the spec's keys
 * ("-m a100,h100-sxm", "-p d=64,128"), made into a spec by
 * solver/cli/sweep_lists.c. */
enum tf_list_kind {
  TF_LIST_MACHINES,
  TF_LIST_WORKSETS,
  TF_LIST_PARAM,
  TF_LIST_FIX,
  TF_LIST_DOMAIN,
  TF_LIST_REQUIRE,
  TF_LIST_OBJECTIVE,
  TF_LIST_ANY_ARCH
};
typedef struct tf_list_item {
  int kind;          /* enum tf_list_kind */
  const char *value; /* borrowed from argv; NULL for --any-arch */
  char where[64];    /* the option as given: "-p", "--fix" */
} tf_list_item;

typedef struct tf_args {
  tf_request req;
  tf_list_item *lists; /* sweep only: its problem options, in order */
  int nlists, caplists;
  int format; /* enum tf_format */
  int explain;
  int help;
  int top;        /* --top K, 0: not given */
  int top_points; /* --top-points: --top ranks points, not configurations */
  int quiet;
  int resume;
  int jobs;
  int64_t memo_max;             /* sweep --memo-max, -1: the default */
  int shard_index, shard_count; /* --shard I/N, 1-based; 0/0: all */
  int no_presolve;
  int unconfirmed;                           /* machines --unconfirmed */
  double time_limit;                         /* seconds */
  const char *lp_file, *mps_file, *out_file; /* borrowed from argv */
  const char *cutlass_name;                  /* --cutlass-name, borrowed from argv */
  const char *emit_form;                     /* layout --emit c|cute-dsl, borrowed from argv */
  const char *emit_for;                      /* emit --for cutlass|cute-dsl|triton|fa, borrowed from argv */
  const char **maps;                         /* prune --map values, borrowed from argv */
  int nmaps;
  const char **keys; /* emit --key values, borrowed from argv */
  int nkeys;
  int keep;                                           /* prune --keep */
  const char *plot_x, *plot_y, *plot_color, *plot_by; /* borrowed from argv */
  const char *plot_scale, *plot_x_scale;              /* --scale, --x-scale: borrowed from argv */
  char **positional;                                  /* borrowed from argv */
  int npositional;
  tf_text out; /* the results, held until tf_cli_finish */
  FILE *out_f; /* NULL until tf_cli_out */
} tf_args;

void tf_args_init(tf_args *a);
void tf_args_release(tf_args *a);

/* Parses argv[1..argc-1] (argv[0] is the command name) for command `cmd`:
 * an option it does not take, or more operands than it takes, is a usage
 * error. */
int tf_args_parse(int argc, char **argv, const tf_command *cmd, tf_args *a, tf_error *err);

/* The command line's spelling of a request field or command option by its
 * key ("machine" -> "-m", "top" -> "--top"), for an error's `at`; NULL
 * when no option has it. */
const char *tf_cli_spelling(const char *key, char *buf, size_t size);

/* `cmd`'s --help: usage line, text, its options from the table, exit codes. */
void tf_cli_help(FILE *f, const tf_command *cmd);

/* 'tilefit completion CMD': from the option table, one line per option
 * cmd takes, "option --LONG -S KIND [WORD...]" (-S is "-" without a short
 * spelling; KIND as enum opt_value names it, "choose" for plot map's axes;
 * WORDs for a value of fixed words), then "operands KIND". */
void tf_cli_completion(FILE *f, const tf_command *cmd);

/* The solver options the command line sets (--time-limit, --no-presolve,
 * and --solver, the request's solver: tf_solve_opts_for) over
 * tf_solve_opts_init's defaults. */
void tf_args_solve_opts(const tf_args *a, tf_solve_opts *o);

/* "NAME=INTEGER" -> name and value; `where` names the option in errors. */
int tf_parse_assignment(const char *text, const char *where, char *name, size_t size, int64_t *value, tf_error *err);
int tf_parse_int(const char *text, int64_t *value);
/* "NAME=V1,V2,..." -> name and a malloc'd list of n integers (-1: the
 * error names `where`, *values NULL). */
int tf_parse_list(const char *text, const char *where, char *name, size_t size, int64_t **values, size_t *n,
                  tf_error *err);

#endif
