/* Option parsing shared by the commands: every command takes the same
 * spelling of the same option, and says which groups it accepts. */
#ifndef TF_SOLVER_CLI_OPTIONS_H
#define TF_SOLVER_CLI_OPTIONS_H

#include "model/error.h"
#include "model/problem.h"

enum tf_opt_group {
  TF_OPT_PROBLEM = 1 << 0,  /* -m -w -p --fix --domain --require --objective */
  TF_OPT_FORMAT = 1 << 1,   /* --json --csv */
  TF_OPT_EXPLAIN = 1 << 2,  /* --explain */
  TF_OPT_EXPORT = 1 << 3,   /* --lp --mps */
  TF_OPT_SOLVER = 1 << 4,   /* --time-limit --no-presolve */
  TF_OPT_TOP = 1 << 5,      /* --top */
  TF_OPT_SWEEP = 1 << 6,    /* -j -o --resume --shard --format --quiet */
};

typedef struct tf_args {
  tf_request req;
  int format;               /* enum tf_format */
  int explain;
  int help;
  int top;                  /* --top K, 0: not given */
  int quiet;
  int resume;
  int jobs;
  int shard_index, shard_count; /* --shard I/N, 1-based; 0/0: all */
  int no_presolve;
  double time_limit;        /* seconds */
  const char *lp_file, *mps_file, *out_file; /* borrowed from argv */
  char **positional;        /* borrowed from argv */
  int npositional;
} tf_args;

void tf_args_init(tf_args *a);
void tf_args_release(tf_args *a);

/* Parses argv[1..argc-1] (argv[0] is the command name).  Options outside
 * `groups` are usage errors, as are more than `max_positional` operands. */
int tf_args_parse(int argc, char **argv, unsigned groups, int max_positional, tf_args *a, tf_error *err);

/* "NAME=INTEGER" -> name and value; `where` names the option in errors. */
int tf_parse_assignment(const char *text, const char *where, char *name, size_t size, int64_t *value,
                        tf_error *err);
int tf_parse_int(const char *text, int64_t *value);

#endif
