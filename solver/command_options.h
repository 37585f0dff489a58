/* The commands and their options, one row per option, for every front end:
 * the command line (solver/cli/options.c adds each row's spelling: short
 * name, value name, help, completion), the JSON API (solver/api_json.c:
 * the members a request of each command may have) and Python
 * (python/tilefit/: its keywords and how it writes each value, read
 * through the library's "options" request).  A problem's own fields
 * (machine, params, fix, ...) are model/input/request.h's table; this one
 * is the rest: how a command runs and what it writes.  A test built from
 * this table holds the three front ends to it (suite api, "options"). */
#ifndef TF_SOLVER_COMMAND_OPTIONS_H
#define TF_SOLVER_COMMAND_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One bit per command.  plot is one command of the JSON API ("kind":
 * "map" or "sweep") and two of the command line. */
enum tf_cmd_bit {
  TF_CMD_SOLVE = 1 << 0,
  TF_CMD_CHECK = 1 << 1,
  TF_CMD_MACHINES = 1 << 2,
  TF_CMD_WORKSETS = 1 << 3,
  TF_CMD_VALIDATE = 1 << 4,
  TF_CMD_SWEEP = 1 << 5,
  TF_CMD_MERGE = 1 << 6,
  TF_CMD_PRUNE = 1 << 7,
  TF_CMD_PLOT = 1 << 8, /* 'plot' itself: picks map or sweep */
  TF_CMD_PLOT_MAP = 1 << 9,
  TF_CMD_PLOT_SWEEP = 1 << 10,
  TF_CMD_PROBE = 1 << 11,
  TF_CMD_LAYOUT = 1 << 12,
  TF_CMD_EMIT = 1 << 13,
  TF_CMD_LAST = TF_CMD_EMIT,
};

/* Sets of commands the table names. */
#define TF_CMDS_PROBLEM (TF_CMD_SOLVE | TF_CMD_CHECK | TF_CMD_LAYOUT | TF_CMD_EMIT) /* one problem, answered */
#define TF_CMDS_SOLVES (TF_CMD_SOLVE | TF_CMD_LAYOUT | TF_CMD_EMIT)                 /* solve when a variable is free */
/* commands that may solve: the solver options */
#define TF_CMDS_SOLVING (TF_CMDS_PROBLEM | TF_CMD_SWEEP | TF_CMD_PLOT_MAP | TF_CMD_VALIDATE)
#define TF_CMDS_PLOTS (TF_CMD_PLOT_MAP | TF_CMD_PLOT_SWEEP)
#define TF_CMDS_WRITES                                                                                                \
  (TF_CMDS_PROBLEM | TF_CMD_PRUNE | TF_CMDS_PLOTS | TF_CMD_VALIDATE | TF_CMD_SWEEP | TF_CMD_MERGE | TF_CMD_MACHINES | \
   TF_CMD_WORKSETS | TF_CMD_PROBE)

/* The front ends, a bit each. */
enum tf_front { TF_FRONT_CLI = 1, TF_FRONT_JSON = 2, TF_FRONT_PY = 4 };
#define TF_FRONTS_ALL (TF_FRONT_CLI | TF_FRONT_JSON | TF_FRONT_PY)
#define TF_FRONTS_API (TF_FRONT_JSON | TF_FRONT_PY) /* the JSON API and Python, which calls it */

/* What an option's value is, in every front end's spelling:
 *   INT      an integer (--top 3, "top": 3, top=3)
 *   SECONDS  a number of seconds above 0
 *   FLAG     present or not (--explain, "explain": true, explain=True)
 *   NOFLAG   on unless turned off: --no-presolve, "presolve": false
 *   WORD     one of a few words (--emit c, "emit": "c")
 *   TEXT     a string: a name, an expression, a path
 *   PAIRS    NAME=VALUE pairs (--key A=B,C=D, "key": {"A": "B"})
 *   SHARD    I/N (--shard 2/8, "shard": [2, 8])
 *   OPERAND  what the command line reads as an operand or its own options
 *            (the problem, a spec, files): a JSON member and a Python
 *            argument only */
enum tf_option_kind {
  TF_OPTK_INT,
  TF_OPTK_SECONDS,
  TF_OPTK_FLAG,
  TF_OPTK_NOFLAG,
  TF_OPTK_WORD,
  TF_OPTK_TEXT,
  TF_OPTK_PAIRS,
  TF_OPTK_SHARD,
  TF_OPTK_OPERAND
};

/* X(id, key, flag, kind, commands, fronts, lo, hi): key is the JSON
 * member and the Python keyword, and what the library names it by in an
 * error (see model/core/error.h), flag the long command-line option (""
 * for none); an INT's values are lo..hi (a SHARD's count 1..hi), in every
 * front end. */
#define TF_COMMAND_OPTIONS(X)                                                                                         \
  X(problem, "problem", "", OPERAND, TF_CMDS_PROBLEM | TF_CMD_PLOT_MAP, TF_FRONT_JSON, 0, 0)                          \
  X(cutlass_name, "cutlass_name", "cutlass-name", TEXT, TF_CMDS_PROBLEM | TF_CMD_PLOT_MAP, TF_FRONTS_ALL, 0, 0)       \
  X(kind, "kind", "", WORD, TF_CMDS_PLOTS, TF_FRONT_JSON, 0, 0)                                                       \
  X(spec, "spec", "", OPERAND, TF_CMD_SWEEP, TF_FRONTS_API, 0, 0)                                                     \
  X(problems, "problems", "", OPERAND, TF_CMD_SWEEP, TF_FRONTS_API, 0, 0)                                             \
  X(file, "file", "", TEXT, TF_CMD_SWEEP | TF_CMD_PRUNE | TF_CMD_PLOT_SWEEP, TF_FRONTS_API, 0, 0)                     \
  X(files, "files", "", OPERAND, TF_CMD_VALIDATE, TF_FRONTS_API, 0, 0)                                                \
  X(configs, "configs", "", OPERAND, TF_CMD_PRUNE, TF_FRONTS_API, 0, 0)                                               \
  X(top, "top", "top", INT, TF_CMD_SOLVE | TF_CMD_EMIT, TF_FRONTS_ALL, 1, 1000)                                       \
  X(top_points, "top_points", "top-points", FLAG, TF_CMD_SOLVE, TF_FRONTS_ALL, 0, 0)                                  \
  X(explain, "explain", "explain", FLAG, TF_CMD_SOLVE, TF_FRONTS_ALL, 0, 0)                                           \
  X(lp, "lp", "lp", TEXT, TF_CMD_SOLVE, TF_FRONT_CLI, 0, 0)                                                           \
  X(mps, "mps", "mps", TEXT, TF_CMD_SOLVE, TF_FRONT_CLI, 0, 0)                                                        \
  X(emit, "emit", "emit", WORD, TF_CMD_LAYOUT, TF_FRONTS_ALL, 0, 0)                                                   \
  X(for_, "for", "for", WORD, TF_CMD_EMIT, TF_FRONTS_ALL, 0, 0)                                                       \
  X(key, "key", "key", PAIRS, TF_CMD_EMIT, TF_FRONTS_ALL, 0, 0)                                                       \
  X(map, "map", "map", PAIRS, TF_CMD_PRUNE, TF_FRONTS_ALL, 0, 0)                                                      \
  X(keep, "keep", "keep", FLAG, TF_CMD_PRUNE, TF_FRONT_CLI | TF_FRONT_PY, 0, 0)                                       \
  X(jobs, "jobs", "jobs", INT, TF_CMD_SWEEP, TF_FRONTS_ALL, 1, 1024)                                                  \
  X(memo_max, "memo_max", "memo-max", INT, TF_CMD_SWEEP, TF_FRONTS_ALL, 0, (1 << 30))                                 \
  X(fd, "fd", "", INT, TF_CMD_SWEEP, TF_FRONT_JSON, 0, (1 << 30))                                                     \
  X(output, "output", "output", TEXT, TF_CMDS_WRITES, TF_FRONT_CLI, 0, 0)                                             \
  X(format, "format", "format", WORD, TF_CMD_SWEEP | TF_CMD_MERGE, TF_FRONT_CLI, 0, 0)                                \
  X(resume, "resume", "resume", FLAG, TF_CMD_SWEEP, TF_FRONT_CLI, 0, 0)                                               \
  X(shard, "shard", "shard", SHARD, TF_CMD_SWEEP, TF_FRONTS_ALL, 1, 1000000)                                          \
  X(time_limit, "time_limit", "time-limit", SECONDS, TF_CMDS_SOLVING | TF_CMD_PRUNE, TF_FRONTS_ALL, 0, 0)             \
  X(solver, "solver", "solver", WORD, TF_CMDS_SOLVING, TF_FRONTS_ALL, 0, 0)                                           \
  X(presolve, "presolve", "no-presolve", NOFLAG, TF_CMDS_SOLVING, TF_FRONTS_ALL, 0, 0)                                \
  X(quiet, "quiet", "quiet", FLAG, TF_CMD_SWEEP | TF_CMD_MERGE, TF_FRONT_CLI, 0, 0)                                   \
  X(x, "x", "x", TEXT, TF_CMDS_PLOTS, TF_FRONTS_ALL, 0, 0)                                                            \
  X(y, "y", "y", TEXT, TF_CMDS_PLOTS, TF_FRONTS_ALL, 0, 0)                                                            \
  X(color, "color", "color", TEXT, TF_CMD_PLOT_MAP, TF_FRONTS_ALL, 0, 0)                                              \
  X(by, "by", "by", TEXT, TF_CMD_PLOT_SWEEP, TF_FRONTS_ALL, 0, 0)                                                     \
  X(scale, "scale", "scale", WORD, TF_CMDS_PLOTS, TF_FRONTS_ALL, 0, 0)                                                \
  X(x_scale, "x_scale", "x-scale", WORD, TF_CMD_PLOT_SWEEP, TF_FRONTS_ALL, 0, 0)                                      \
  X(unconfirmed, "unconfirmed", "unconfirmed", FLAG, TF_CMD_MACHINES, TF_FRONT_CLI, 0, 0)                             \
  X(json, "json", "json", FLAG, TF_CMDS_PROBLEM | TF_CMD_PRUNE | TF_CMD_VALIDATE | TF_CMD_MACHINES | TF_CMD_WORKSETS, \
    TF_FRONT_CLI, 0, 0)                                                                                               \
  X(jsonl, "jsonl", "jsonl", FLAG, TF_CMD_SOLVE | TF_CMD_CHECK | TF_CMD_VALIDATE, TF_FRONT_CLI, 0, 0)                 \
  X(csv, "csv", "csv", FLAG, TF_CMD_SOLVE | TF_CMD_CHECK | TF_CMD_PRUNE, TF_FRONT_CLI, 0, 0)                          \
  X(help, "help", "help", FLAG, ~0u, TF_FRONT_CLI, 0, 0)

#define TF_COPT_ENUM(id, key, flag, kind, commands, fronts, lo, hi) TF_COPT_##id,
enum tf_command_option_id { TF_COMMAND_OPTIONS(TF_COPT_ENUM) TF_NCOMMAND_OPTIONS };

typedef struct tf_command_option {
  const char *key, *flag;
  int kind;          /* enum tf_option_kind */
  unsigned commands; /* enum tf_cmd_bit */
  unsigned fronts;   /* enum tf_front */
  int64_t lo, hi;    /* an INT's range; a SHARD's count 1..hi */
} tf_command_option;

extern const tf_command_option tf_command_options[TF_NCOMMAND_OPTIONS];

/* A command's options as a front end read them: a member per row, of its
 * kind's type (a word or text borrowed from what was read, PAIRS and
 * OPERAND the value as read, for the command to take apart), and which
 * were given.  The JSON entry point fills it by the table
 * (solver/api_request.c); tf_command_arg_offsets[i] is row i's member. */
struct cJSON;
typedef struct tf_shard_arg {
  int64_t index, count; /* 1 <= index <= count */
} tf_shard_arg;
#define TF_COPT_TYPE_INT int64_t
#define TF_COPT_TYPE_SECONDS double
#define TF_COPT_TYPE_FLAG int
#define TF_COPT_TYPE_NOFLAG int /* 1 unless turned off */
#define TF_COPT_TYPE_WORD const char *
#define TF_COPT_TYPE_TEXT const char *
#define TF_COPT_TYPE_PAIRS const struct cJSON *
#define TF_COPT_TYPE_SHARD tf_shard_arg
#define TF_COPT_TYPE_OPERAND const struct cJSON *
#define TF_COPT_MEMBER(id, key, flag, kind, commands, fronts, lo, hi) TF_COPT_TYPE_##kind id;
typedef struct tf_command_args {
  TF_COMMAND_OPTIONS(TF_COPT_MEMBER)
  unsigned char given[TF_NCOMMAND_OPTIONS];
} tf_command_args;
extern const size_t tf_command_arg_offsets[TF_NCOMMAND_OPTIONS];

/* The command line's name of a command bit ("plot map"), or NULL. */
const char *tf_command_name(unsigned bit);
/* The kind's name ("int", "noflag"), as the "options" request writes it. */
const char *tf_option_kind_name(int kind);

/* The table as JSON, the library's "options" request: an array of
 * {"key", "flag", "kind", "commands": [names], "fronts": ["cli", "json",
 * "python"]}. */
void tf_command_options_write_json(FILE *f);

#endif
