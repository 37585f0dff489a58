#include "solver/cli/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/formats/cutlass_types.h"
#include "solver/cli/wrap.h"
#include "solver/output.h"
#include "solver/report.h"
#include "solver/solve.h"

void tf_args_init(tf_args *a) {
  memset(a, 0, sizeof *a);
  tf_request_init(&a->req);
  a->time_limit = 60;
  a->jobs = 1;
  a->memo_max = -1;
}

void tf_args_release(tf_args *a) {
  if (a->out_f)
    free(tf_text_close(&a->out, NULL));
  tf_request_release(&a->req);
  free(a->positional);
  free(a->maps);
  free(a->keys);
  free(a->lists);
  memset(a, 0, sizeof *a);
}

/* Decimal as JSON writes it: an optional '-', then 0 or digits without a
 * leading zero; no '+', no spaces, no "true". */
int tf_parse_int(const char *text, int64_t *value) {
  const char *d = text + (*text == '-');
  if (*d < '0' || *d > '9' || (d[0] == '0' && d[1]))
    return -1;
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || errno == ERANGE || end == text)
    return -1;
  *value = v;
  return 0;
}

/* "A=1,B=2" is two assignments in one option: refused with the two
 * options it stands for (a comma lists a sweep's values, "B_r=64,128",
 * so it cannot also separate names).  0 when text is not that. */
static int two_names(const char *text, const char *where, tf_error *err) {
  const char *eq = strchr(text, '=');
  const char *comma = eq ? strchr(eq, ',') : NULL;
  if (!comma || !strchr(comma, '='))
    return 0;
  char shown[512];
  size_t n = 0;
  for (const char *s = text; *s && n + 2 * strlen(where) + 4 < sizeof shown; s++) {
    /* a comma whose item names something starts the next option */
    int split = *s == ',' && memchr(s + 1, '=', strcspn(s + 1, ","));
    n += (size_t)(split ? snprintf(shown + n, sizeof shown - n, " %s ", where) : snprintf(shown + n, 2, "%c", *s));
  }
  return tf_error_set(err, TF_EINPUT, where, "'%s' sets more than one name; give each its own option: %s %s", text,
                      where, shown);
}

int tf_parse_assignment(const char *text, const char *where, char *name, size_t size, int64_t *value, tf_error *err) {
  if (two_names(text, where, err))
    return -1;
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || (size_t)(eq - text) >= size)
    return tf_error_set(err, TF_EINPUT, where, "expected NAME=INTEGER, got '%s'", text);
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  char symbols[256];
  if (tf_parse_int(eq + 1, value) && tf_cl_param_symbol(name, eq + 1, value))
    return tf_error_set(err, TF_EINPUT, where, "expected an integer%s%s after '%s=', got '%s'",
                        *tf_cl_symbols(name, symbols, sizeof symbols) ? " or one of " : "", symbols, name, eq + 1);
  return 0;
}

int tf_parse_list(const char *text, const char *where, char *name, size_t size, int64_t **values, size_t *n,
                  tf_error *err) {
  const char *eq = strchr(text, '=');
  *values = NULL;
  *n = 0;
  if (two_names(text, where, err))
    return -1;
  if (!eq || eq == text || (size_t)(eq - text) >= size)
    return tf_error_set(err, TF_EINPUT, where, "expected NAME=V1,V2,..., got '%s'", text);
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  size_t cap = 0;
  for (const char *s = eq + 1;;) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    char item[64];
    int64_t v;
    if (len == 0 || len >= sizeof item) {
      free(*values), *values = NULL;
      return tf_error_set(err, TF_EINPUT, where, "expected NAME=V1,V2,... with integers, got '%s'", text);
    }
    memcpy(item, s, len);
    item[len] = 0;
    if (tf_parse_int(item, &v) && tf_cl_param_symbol(name, item, &v)) { /* a type or layout by name */
      free(*values), *values = NULL;
      return tf_error_set(err, TF_EINPUT, where, "'%s' is not an integer in '%s'", item, text);
    }
    TF_PUSH(*values, *n, cap, v);
    if (!comma)
      return 0;
    s = comma + 1;
  }
}

static int parse_domain(tf_args *a, const char *text, const char *arg, tf_error *err) {
  char name[128];
  int64_t *values;
  size_t n;
  if (tf_parse_list(text, "--domain", name, sizeof name, &values, &n, err))
    return -1;
  tf_request_add_domain(&a->req, name, values, n, arg);
  free(values);
  return 0;
}

/* BUF=MEM[,MEM...]: memories by name, each once. */
static int parse_place(tf_args *a, const char *text, const char *arg, tf_error *err) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || eq - text >= 128)
    return tf_error_set(err, TF_EINPUT, "--place", "expected BUFFER=MEMORY[,MEMORY...], got '%s'", text);
  char name[128], item[16];
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  int mems[TF_PLACE_MAX_MEMS], n = 0;
  for (const char *s = eq + 1;; s++) {
    size_t len = strcspn(s, ",");
    int m = -1;
    if (len < sizeof item) {
      memcpy(item, s, len);
      item[len] = 0;
      m = tf_memory_find(item);
    }
    for (int i = 0; m >= 0 && i < n; i++)
      if (mems[i] == m)
        return tf_error_set(err, TF_EINPUT, "--place", "'%s' is listed twice in '%s'", item, text);
    if (m < 0)
      return tf_error_set(err, TF_EINPUT, "--place", "expected memories %s after '%s=', got '%s'",
                          TF_MEMORY_LIST(" or "), name, eq + 1);
    mems[n++] = m;
    s += len;
    if (!*s)
      break;
  }
  tf_request_add_place(&a->req, name, mems, n, arg);
  return 0;
}

static int parse_shard(tf_args *a, const char *text, tf_error *err) {
  int64_t i, n;
  const char *slash = strchr(text, '/');
  char head[32];
  if (!slash || slash - text >= 32)
    return tf_error_set(err, TF_EINPUT, "--shard", "expected I/N such as 2/8, got '%s'", text);
  memcpy(head, text, (size_t)(slash - text));
  head[slash - text] = 0;
  if (tf_parse_int(head, &i) || tf_parse_int(slash + 1, &n) || n < 1 || n > tf_command_options[TF_COPT_shard].hi ||
      i < 1 || i > n)
    return tf_error_set(err, TF_EINPUT, "--shard", "expected I/N with 1 <= I <= N, got '%s'", text);
  a->shard_index = (int)i;
  a->shard_count = (int)n;
  return 0;
}

/* Options, once: their spellings, their value, their help, the commands
 * that take them and how they may be repeated.  --help lists a command's
 * rows in this order. */
enum opt_id {
  O_MACHINE,
  O_WORKSET,
  O_PARAM,
  O_FIX,
  O_DOMAIN,
  O_PLACE,
  O_ANY_ARCH,
  O_REQUIRE,
  O_OBJECTIVE,
  O_JSON,
  O_JSONL,
  O_CSV,
  O_EXPLAIN,
  O_TOP,
  O_TOP_POINTS,
  O_LP,
  O_MPS,
  O_CUTLASS_NAME,
  O_EMIT,
  O_FOR,
  O_KEY,
  O_MAP,
  O_KEEP,
  O_JOBS,
  O_MEMO_MAX,
  O_OUT,
  O_FORMAT,
  O_RESUME,
  O_SHARD,
  O_TIME,
  O_SOLVER,
  O_NOPRESOLVE,
  O_QUIET,
  O_X,
  O_Y,
  O_COLOR,
  O_BY,
  O_SCALE,
  O_X_SCALE,
  O_UNCONFIRMED,
  O_HELP
};
enum opt_flag {
  ONCE = 0,            /* given twice is a usage error naming it */
  REPEATABLE = 1 << 0, /* each one adds (-p, --fix, ...) */
  FORMAT = 1 << 1,     /* one of the output formats: at most one of them */
};
/* The commands of the problem options (the others' are in their rows of
 * solver/command_options.h). */
#define BINDING (TF_CMDS_PROBLEM | TF_CMD_PRUNE)       /* commands that bind -m, -w and -p */
#define PROBLEM_IN (TF_CMDS_PROBLEM | TF_CMD_PLOT_MAP) /* what the problem is, not how it is written */
/* What completion offers for an option's value (tilefit completion,
 * dist/tilefit.bash): the names it takes, files, or the words of its
 * value's spelling ("jsonl|csv"). */
enum opt_value {
  V_NONE, /* takes no value */
  V_TEXT, /* free text or a number: nothing to offer */
  V_MACHINE,
  V_WORKSET, /* a shipped name or a .json file */
  V_PARAM,
  V_FIX,
  V_DOMAIN, /* NAME= of the workset's params, its variables, its choose variables */
  V_PLACE,  /* BUF=MEM of the workset's placed buffers */
  V_FILE,
  V_WORDS, /* one of the words of `value`, split at '|' */
  V_AXIS   /* plot map: a choose variable; plot sweep: free text */
};
static const char *const value_kinds[] = {"none",   "text",  "machine", "workset", "param", "fix",
                                          "domain", "place", "file",    "words",   "axis"};

/* A problem option's row names its request field (model/input/request.h), whose
 * flag is its long name and whose kind says how its value is read, so the
 * option table and the problem-line reader share one vocabulary; NO_RQ:
 * an option of the command line alone. */
#define RQ(member) TF_RQF_##member
#define NO_RQ (-1)
/* Every other option names its row of the command-option table
 * (solver/command_options.h), which gives its long name and its commands,
 * the JSON API's and Python's too. */
#define COPT(id) TF_COPT_##id
#define NO_COPT (-1)
#define BY_ROW 0 /* commands: those of its command-option row */

static const struct option_spec {
  enum opt_id id;
  int field; /* enum tf_request_field_id, or NO_RQ */
  int copt;  /* enum tf_command_option_id, or NO_COPT */
  enum opt_value complete;
  char short_name;
  const char *value; /* the value's name in help, NULL: takes none */
  unsigned flags;    /* enum opt_flag */
  const char *help;
  unsigned commands; /* a problem option's commands (enum tf_cmd_bit); the others' are their row's */
} options[] = {
    {O_MACHINE, RQ(machine), NO_COPT, V_MACHINE, 'm', "NAME|FILE", ONCE,
     "machine model (tilefit machines lists them; - reads it from standard input)",
     BINDING | TF_CMD_PLOT_MAP | TF_CMD_SWEEP},
    {O_WORKSET, RQ(workset), NO_COPT, V_WORKSET, 'w', "NAME|FILE", ONCE,
     "working set (tilefit worksets lists them; - reads it from standard input)",
     BINDING | TF_CMD_PLOT_MAP | TF_CMD_SWEEP},
    {O_PARAM, RQ(params), NO_COPT, V_PARAM, 'p', "NAME=VALUE", REPEATABLE, "set a workset parameter (repeatable)",
     BINDING | TF_CMD_PLOT_MAP | TF_CMD_SWEEP},
    {O_FIX, RQ(fixes), NO_COPT, V_FIX, 0, "VAR=VALUE", REPEATABLE, "pin a choose or count variable (repeatable)",
     PROBLEM_IN | TF_CMD_SWEEP},
    {O_DOMAIN, RQ(domains), NO_COPT, V_DOMAIN, 0, "VAR=V1,V2,..", REPEATABLE, "narrow a choose variable's domain",
     PROBLEM_IN | TF_CMD_SWEEP},
    {O_PLACE, RQ(places), NO_COPT, V_PLACE, 0, "BUF=MEM[,MEM..]", REPEATABLE,
     "pin a placed buffer to a memory, or narrow its candidates (repeatable)", PROBLEM_IN},
    {O_ANY_ARCH, RQ(any_arch), NO_COPT, V_NONE, 0, NULL, ONCE,
     "solve a workset on a machine whose architecture it does not declare", BINDING | TF_CMD_PLOT_MAP | TF_CMD_SWEEP},
    {O_REQUIRE, RQ(requires), NO_COPT, V_TEXT, 0, "\"EXPR <= EXPR\"", REPEATABLE, "an extra constraint (repeatable)",
     PROBLEM_IN | TF_CMD_SWEEP},
    {O_OBJECTIVE, RQ(objectives), NO_COPT, V_TEXT, 0, "\"max EXPR\"", REPEATABLE,
     "replaces the workset's objectives; repeat for a lexicographic order",
     TF_CMDS_SOLVES | TF_CMD_PLOT_MAP | TF_CMD_SWEEP},
    {O_JSON, NO_RQ, COPT(json), V_NONE, 0, NULL, FORMAT,
     "JSON output: one document (solve --top and prune: an array; validate: the cases and the tally)", BY_ROW},
    {O_JSONL, NO_RQ, COPT(jsonl), V_NONE, 0, NULL, FORMAT, "JSON Lines output: one object per answer or case", BY_ROW},
    {O_CSV, NO_RQ, COPT(csv), V_NONE, 0, NULL, FORMAT, "CSV output (RFC 4180), with a header line", BY_ROW},
    {O_EXPLAIN, NO_RQ, COPT(explain), V_NONE, 0, NULL, ONCE,
     "buffers, memories, and for each objective the next better candidate and what it misses by", BY_ROW},
    {O_TOP, NO_RQ, COPT(top), V_TEXT, 0, "K", ONCE,
     "the K best distinct configurations (a tile's best placement and counts), in objective order (emit: a "
     "fragment for each, Triton's list deduplicated)",
     BY_ROW},
    {O_TOP_POINTS, NO_RQ, COPT(top_points), V_NONE, 0, NULL, ONCE, "with --top: every point, not one per configuration",
     BY_ROW},
    {O_LP, NO_RQ, COPT(lp), V_FILE, 0, "FILE", ONCE,
     "write the whole integer program (CPLEX LP), one file per objective level: FILE, then FILE with .level2, "
     ".level3, ... before its extension, each with the earlier levels' optima pinned as rows",
     BY_ROW},
    {O_MPS, NO_RQ, COPT(mps), V_FILE, 0, "FILE", ONCE,
     "the same in free MPS (no objective sense: glpsol --max or --min)", BY_ROW},
    {O_CUTLASS_NAME, NO_RQ, COPT(cutlass_name), V_TEXT, 0, "NAME", ONCE,
     "a CUTLASS library kernel name (cutlass3x_sm90_..._0_...): binds its workset, machine, types and tile; "
     "stage count 0 is the builder's automatic count",
     BY_ROW},
    {O_EMIT, NO_RQ, COPT(emit), V_WORDS, 0, "c|cute-dsl", FORMAT,
     "the layout as code: a C/C++ header (struct, offsets, static_asserts) or a CuTe DSL shared-storage struct",
     BY_ROW},
    {O_FOR, NO_RQ, COPT(for_), V_WORDS, 0, "cutlass|cute-dsl|triton|fa", ONCE,
     "what to write: a CUTLASS CollectiveBuilder type and kernel name, CuTe DSL GEMM arguments, a Triton config "
     "list, FlashAttention kernel traits",
     BY_ROW},
    {O_KEY, NO_RQ, COPT(key), V_TEXT, 0, "VAR=KEY,...", REPEATABLE,
     "--for triton: write the workset's variable VAR as your kernel's config key KEY (repeatable; default: the "
     "tutorial kernel's BLOCK_SIZE_M, ... and GROUP_SIZE_M)",
     BY_ROW},
    {O_MAP, NO_RQ, COPT(map), V_TEXT, 0, "KEY=VAR,...", REPEATABLE,
     "read a configuration's KEY as the workset's variable or param VAR (repeatable)", BY_ROW},
    {O_KEEP, NO_RQ, COPT(keep), V_NONE, 0, NULL, ONCE,
     "print only the configurations that fit, in the input's own form (prune reads it back)", BY_ROW},
    {O_JOBS, NO_RQ, COPT(jobs), V_TEXT, 'j', "N", ONCE, "worker threads (default 1)", BY_ROW},
    {O_MEMO_MAX, NO_RQ, COPT(memo_max), V_TEXT, 0, "N", ONCE,
     "answers kept for reuse at most (default 8192, about 22 MiB; 0: none), so memory stays flat", BY_ROW},
    {O_OUT, NO_RQ, COPT(output), V_FILE, 'o', "FILE", ONCE,
     "write the results here (default standard output); FILE appears whole or not at all", BY_ROW},
    {O_FORMAT, NO_RQ, COPT(format), V_WORDS, 0, "jsonl|csv", FORMAT,
     "output format (sweep: default jsonl, csv when FILE ends in .csv; merge: the parts must be in it)", BY_ROW},
    {O_RESUME, NO_RQ, COPT(resume), V_NONE, 0, NULL, ONCE,
     "continue FILE after an interrupted run; the result is the file an uninterrupted run writes", BY_ROW},
    {O_SHARD, NO_RQ, COPT(shard), V_TEXT, 0, "I/N", ONCE,
     "solve points i with i mod N = I - 1 ('tilefit merge' joins shards)", BY_ROW},
    {O_TIME, NO_RQ, COPT(time_limit), V_TEXT, 0, "SECONDS", ONCE,
     "wall-clock seconds for the whole solve of a problem, binding included (default 60)", BY_ROW},
    {O_SOLVER, NO_RQ, COPT(solver), V_WORDS, 0, "exact|glpk", ONCE,
     "exact: the exact search (the default); glpk: GLPK solves the whole integer program, its answer certified "
     "against the exact optimum (exit 3 when they differ)",
     BY_ROW},
    {O_NOPRESOLVE, NO_RQ, COPT(presolve), V_NONE, 0, NULL, ONCE,
     "turn GLPK's MIP presolver off (with --solver glpk, or a problem's \"solver\": \"glpk\")", BY_ROW},
    {O_QUIET, NO_RQ, COPT(quiet), V_NONE, 'q', NULL, ONCE, "no progress and no summary on stderr", BY_ROW},
    {O_X, NO_RQ, COPT(x), V_AXIS, 0, "VAR|NAME", ONCE,
     "across: map, a choose variable; sweep, a number of each line (at the top level, in values, in params, or a "
     "dotted path such as memories.smem.used; an objective's expression, time_us, names its value)",
     BY_ROW},
    {O_Y, NO_RQ, COPT(y), V_AXIS, 0, "VAR|NAME", ONCE, "up: as --x", BY_ROW},
    {O_COLOR, NO_RQ, COPT(color), V_TEXT, 0, "EXPR", ONCE, "the cell value (default: the first count variable)",
     BY_ROW},
    {O_BY, NO_RQ, COPT(by), V_TEXT, 0, "NAME", ONCE, "one line per value of NAME (e.g. machine)", BY_ROW},
    {O_SCALE, NO_RQ, COPT(scale), V_WORDS, 0, "auto|linear|log|rank", ONCE,
     "map: the colour scale; sweep: the y axis's (default auto: docs/pictures.md says the rule)", BY_ROW},
    {O_X_SCALE, NO_RQ, COPT(x_scale), V_WORDS, 0, "auto|linear|log|rank", ONCE,
     "the x axis's scale (default auto: log for powers of two, ticks at the data)", BY_ROW},
    {O_UNCONFIRMED, NO_RQ, COPT(unconfirmed), V_NONE, 0, NULL, ONCE,
     "every number marked UNCONFIRMED, with its source, across the machines given (default: all)", BY_ROW},
    {O_HELP, NO_RQ, COPT(help), V_NONE, 'h', NULL, REPEATABLE, "this help", BY_ROW},
};
#define NOPTIONS (sizeof options / sizeof *options)

/* The option's long spelling: a problem option's is its request field's
 * flag, the others' their command-option row's. */
static const char *long_name(const struct option_spec *o) {
  return o->field == NO_RQ ? tf_command_options[o->copt].flag : tf_request_fields[o->field].flag;
}

/* The commands that take it. */
static unsigned commands_of(const struct option_spec *o) {
  return o->field == NO_RQ ? tf_command_options[o->copt].commands : o->commands;
}

static const struct option_spec *find_option(const char *arg, const char **inline_value) {
  *inline_value = NULL;
  for (size_t i = 0; i < NOPTIONS; i++) {
    const struct option_spec *o = &options[i];
    if (arg[1] != '-') {
      if (o->short_name && arg[1] == o->short_name) {
        if (arg[2])
          *inline_value = arg + 2; /* -pd=64 */
        return o;
      }
      continue;
    }
    size_t n = strlen(long_name(o));
    if (!strncmp(arg + 2, long_name(o), n) && (arg[2 + n] == 0 || arg[2 + n] == '=')) {
      if (arg[2 + n] == '=')
        *inline_value = arg + 3 + n;
      return o;
    }
  }
  return NULL;
}

/* The key a front end names the option by: its request field's or its
 * command-option row's. */
static const char *key_of(const struct option_spec *o) {
  return o->field == NO_RQ ? tf_command_options[o->copt].key : tf_request_fields[o->field].key;
}

const char *tf_cli_spelling(const char *key, char *buf, size_t size) {
  for (size_t i = 0; i < NOPTIONS; i++)
    if (!strcmp(key_of(&options[i]), key)) {
      if (options[i].short_name)
        snprintf(buf, size, "-%c", options[i].short_name);
      else
        snprintf(buf, size, "--%s", long_name(&options[i]));
      return buf;
    }
  return NULL;
}

/* "-m, --machine NAME|FILE" */
static void spelling(const struct option_spec *o, char *buf, size_t size) {
  char head[8] = "    "; /* "-m, " or blanks */
  if (o->short_name)
    snprintf(head, sizeof head, "-%c, ", o->short_name);
  snprintf(buf, size, "%s--%s%s%s", head, long_name(o), o->value ? " " : "", o->value ? o->value : "");
}

void tf_cli_help(FILE *f, const tf_command *cmd) {
  fprintf(f, "usage: tilefit %s [options]%s%s\n\n%s", cmd->name, cmd->operands[0] ? " " : "", cmd->operands, cmd->text);
  int width = 0;
  char buf[96];
  for (size_t i = 0; i < NOPTIONS; i++) {
    spelling(&options[i], buf, sizeof buf);
    if (commands_of(&options[i]) & cmd->bit && (int)strlen(buf) > width)
      width = (int)strlen(buf);
  }
  fputs("\noptions:\n", f);
  for (size_t i = 0; i < NOPTIONS; i++)
    if (commands_of(&options[i]) & cmd->bit) {
      spelling(&options[i], buf, sizeof buf);
      fprintf(f, "  %-*s  ", width, buf);
      tf_cli_wrapped(f, options[i].help, width + 4, width + 4);
    }
  fprintf(f, "\nexit: %s\n", cmd->exit_text);
}

static void completion_line(FILE *f, const struct option_spec *o, const tf_command *cmd) {
  enum opt_value v = o->complete;
  const char *kind = v == V_AXIS ? (cmd->bit == TF_CMD_PLOT_MAP ? "choose" : "text") : value_kinds[v];
  char short_name[3] = {'-', o->short_name, 0}; /* "-m", or "-" when it has none */
  fprintf(f, "option --%s %s %s", long_name(o), short_name, kind);
  if (v == V_WORDS)
    for (const char *w = o->value; *w; w += strcspn(w, "|"), w += *w == '|')
      fprintf(f, " %.*s", (int)strcspn(w, "|"), w);
  fputc('\n', f);
}

void tf_cli_completion(FILE *f, const tf_command *cmd) {
  static const char *const operands[] = {"none", "files", "machines", "worksets", "kinds"};
  for (size_t i = 0; i < NOPTIONS; i++)
    if (commands_of(&options[i]) & cmd->bit)
      completion_line(f, &options[i], cmd);
  fprintf(f, "operands %s\n", operands[cmd->operand_kind]);
}

/* The nearest option `cmd` takes to an unknown "--name[=v]", or NULL. */
static const char *near_option(const char *arg, const tf_command *cmd, char *buf, size_t size) {
  if (arg[1] != '-')
    return NULL;
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
  const char *names[NOPTIONS];
  for (size_t i = 0; i < NOPTIONS; i++)
    names[i] = commands_of(&options[i]) & cmd->bit ? long_name(&options[i]) : NULL;
  const char *near = tf_suggest(word, names, NOPTIONS);
  if (near)
    snprintf(buf, size, "; did you mean '--%s'?", near);
  return near;
}

/* "unknown option for 'check'; it is an option of 'solve'", or
 * "unknown option for 'solve'; did you mean '--json'?" */
static int not_an_option(const struct option_spec *o, const char *arg, const tf_command *cmd, tf_error *err) {
  char owners[128], near[96] = "";
  tf_strbuf b = tf_strbuf_of(owners, sizeof owners);
  for (unsigned bit = 1; o && bit <= TF_CMD_LAST; bit <<= 1) {
    const char *name = (commands_of(o) & bit) ? tf_command_name(bit) : NULL;
    if (name)
      tf_strbuf_item(&b, ", ", "'%s'", name);
  }
  if (!b.len) {
    near_option(arg, cmd, near, sizeof near);
    return tf_error_set(err, TF_EINPUT, arg, "unknown option for '%s'%s (see 'tilefit %s --help')", cmd->name, near,
                        cmd->name);
  }
  return tf_error_set(err, TF_EINPUT, arg, "unknown option for '%s'; it is an option of %s (see 'tilefit %s --help')",
                      cmd->name, owners, cmd->name);
}

/* An INT option, in its command-option row's range (every front end's). */
static int row_int(const struct option_spec *o, const char *v, const char *where, int64_t *out, tf_error *err) {
  int64_t lo = tf_command_options[o->copt].lo, hi = tf_command_options[o->copt].hi;
  if (tf_parse_int(v, out) || *out < lo || *out > hi)
    return tf_error_set(err, TF_EINPUT, where, "expected an integer from %lld to %lld, got '%s'", (long long)lo,
                        (long long)hi, v);
  return 0;
}

static int parse_time(tf_args *a, const char *v, const char *where, tf_error *err) {
  char *end;
  double t = strtod(v, &end);
  if (*end || !(t > 0) || t > 1e6)
    return tf_error_set(err, TF_EINPUT, where, "expected seconds, a number above 0, got '%s'", v);
  a->time_limit = t;
  return 0;
}

/* --format jsonl|csv (sweep, merge): a sweep's JSON is always lines, so
 * "json" is taken for "jsonl". */
static int parse_format(tf_args *a, const char *v, const char *where, tf_error *err) {
  if (!strcmp(v, "jsonl") || !strcmp(v, "json"))
    a->format = TF_FORMAT_JSONL;
  else if (!strcmp(v, "csv"))
    a->format = TF_FORMAT_CSV;
  else
    return tf_error_set(err, TF_EINPUT, where, "expected jsonl or csv, got '%s'", v);
  return 0;
}

/* --solver NAME: the request's solver (model/input/request.h), checked
 * now; tf_args_solve_opts makes it the solve options' backend. */
static int parse_solver(tf_args *a, const char *v, const char *where, tf_error *err) {
  const tf_backend *b;
  if (tf_solver_named(v, where, &b, err))
    return -1;
  free(a->req.solver);
  a->req.solver = tf_strdup(v);
  return 0;
}

static const char *const emit_forms[] = {"c", "cute-dsl", NULL};
static const char *const emit_targets[] = {"cutlass", "cute-dsl", "triton", "fa", NULL};

/* One of a list of words; a near miss is named. */
static int parse_choice(const char *v, const char *where, const char *const *words, const char **out, tf_error *err) {
  char list[128];
  tf_strbuf b = tf_strbuf_of(list, sizeof list);
  size_t n = 0;
  for (; words[n]; n++) {
    if (!strcmp(v, words[n]))
      return *out = words[n], 0;
    tf_strbuf_item(&b, ", ", "%s", words[n]);
  }
  const char *near = tf_suggest(v, words, n);
  if (near)
    return tf_error_set(err, TF_EINPUT, where, "expected one of %s, got '%s'; did you mean '%s'?", list, v, near);
  return tf_error_set(err, TF_EINPUT, where, "expected one of %s, got '%s'", list, v);
}

static void add_map(const char ***list, int *n, const char *v) {
  TF_NREALLOC(*list, (size_t)*n + 1);
  (*list)[(*n)++] = v;
}

/* --x, --y, --color, --by, --scale, --x-scale: borrowed from argv */
static int apply_plot(tf_args *a, enum opt_id id, const char *v) {
  const char **field = id == O_X         ? &a->plot_x
                       : id == O_Y       ? &a->plot_y
                       : id == O_COLOR   ? &a->plot_color
                       : id == O_SCALE   ? &a->plot_scale
                       : id == O_X_SCALE ? &a->plot_x_scale
                                         : &a->plot_by;
  *field = v;
  return 0;
}

/* A problem option's value into its request field, read as the field's
 * kind (model/input/request.h): the kinds the problem-line reader takes, one
 * arm each.  arg is the whole argument, "--fix B_r=128", for errors
 * binding it later. */
static int apply_request(tf_args *a, int field, const char *v, const char *where, const char *arg, tf_error *err) {
  const tf_request_field *f = &tf_request_fields[field];
  char *member = (char *)&a->req + f->offset, name[128];
  int64_t x;
  switch ((enum tf_request_kind)f->kind) {
  case TF_RQ_STRING:
    free(*(char **)member);
    *(char **)member = tf_strdup(v);
    return 0;
  case TF_RQ_ASSIGNS:
    if (tf_parse_assignment(v, where, name, sizeof name, &x, err))
      return -1;
    tf_request_add(&a->req, (size_t)field, &(tf_assign){name, x, (char *)arg});
    return 0;
  case TF_RQ_DOMAINS: return parse_domain(a, v, arg, err);
  case TF_RQ_TEXTS: tf_request_add(&a->req, (size_t)field, &(tf_text_req){(char *)v, (char *)where}); return 0;
  case TF_RQ_PLACES: return parse_place(a, v, arg, err);
  case TF_RQ_FLAG: *(int *)member = 1; return 0;
  case TF_RQ_NKINDS: break;
  }
  return tf_error_set(err, TF_EINTERNAL, where, "request field '%s' of no kind", f->member);
}

static int apply(tf_args *a, const struct option_spec *o, const char *v, const char *where, tf_error *err) {
  char arg[192]; /* arg: the whole argument, "--fix B_r=128", for errors binding it */
  int64_t x;
  snprintf(arg, sizeof arg, "%s %s", where, v ? v : "");
  if (o->field != NO_RQ)
    return apply_request(a, o->field, v, where, arg, err);
  switch (o->id) {
  case O_JSON: a->format = TF_FORMAT_JSON; return 0;
  case O_JSONL: a->format = TF_FORMAT_JSONL; return 0;
  case O_CSV: a->format = TF_FORMAT_CSV; return 0;
  case O_EXPLAIN: a->explain = 1; return 0;
  case O_TOP_POINTS: a->top_points = 1; return 0;
  case O_LP: a->lp_file = v; return 0;
  case O_MPS: a->mps_file = v; return 0;
  case O_CUTLASS_NAME: a->cutlass_name = v; return 0;
  case O_EMIT: return parse_choice(v, where, emit_forms, &a->emit_form, err);
  case O_FOR: return parse_choice(v, where, emit_targets, &a->emit_for, err);
  case O_MAP: return add_map(&a->maps, &a->nmaps, v), 0;
  case O_KEY: return add_map(&a->keys, &a->nkeys, v), 0;
  case O_KEEP: a->keep = 1; return 0;
  case O_TIME: return parse_time(a, v, where, err);
  case O_SOLVER: return parse_solver(a, v, where, err);
  case O_NOPRESOLVE: a->no_presolve = 1; return 0;
  case O_TOP:
    if (row_int(o, v, where, &x, err))
      return -1;
    a->top = (int)x;
    return 0;
  case O_JOBS:
    if (row_int(o, v, where, &x, err))
      return -1;
    a->jobs = (int)x;
    return 0;
  case O_MEMO_MAX: return row_int(o, v, where, &a->memo_max, err);
  case O_OUT: a->out_file = v; return 0;
  case O_RESUME: a->resume = 1; return 0;
  case O_SHARD: return parse_shard(a, v, err);
  case O_FORMAT: return parse_format(a, v, where, err);
  case O_QUIET: a->quiet = 1; return 0;
  case O_X:
  case O_Y:
  case O_COLOR:
  case O_BY:
  case O_SCALE:
  case O_X_SCALE: return apply_plot(a, o->id, v);
  case O_UNCONFIRMED: a->unconfirmed = 1; return 0;
  case O_HELP: a->help = 1; return 0;
  case O_MACHINE:
  case O_WORKSET:
  case O_PARAM:
  case O_FIX:
  case O_DOMAIN:
  case O_PLACE:
  case O_ANY_ARCH:
  case O_REQUIRE:
  case O_OBJECTIVE: break; /* problem options: apply_request, by their field */
  }
  return 0;
}

/* sweep keeps its problem options as typed, for the spec they make. */
static int keep_list(tf_args *a, enum opt_id id, const char *v, const char *where) {
  static const struct {
    enum opt_id id;
    enum tf_list_kind kind;
  } kinds[] = {
      {O_MACHINE, TF_LIST_MACHINES},    {O_WORKSET, TF_LIST_WORKSETS},
      {O_PARAM, TF_LIST_PARAM},         {O_FIX, TF_LIST_FIX},
      {O_DOMAIN, TF_LIST_DOMAIN},       {O_REQUIRE, TF_LIST_REQUIRE},
      {O_OBJECTIVE, TF_LIST_OBJECTIVE}, {O_ANY_ARCH, TF_LIST_ANY_ARCH},
  };
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    if (kinds[k].id == id) {
      tf_list_item item = {(int)kinds[k].kind, v, ""};
      snprintf(item.where, sizeof item.where, "%s", where);
      TF_PUSH(a->lists, a->nlists, a->caplists, item);
      return 1;
    }
  return 0;
}

/* The value of option o at argv[*i]: inline, the next argument, or none. */
static int option_value(const struct option_spec *o, const char *inline_value, int argc, char **argv, int *i,
                        const char *where, const char **v, tf_error *err) {
  *v = NULL;
  if (!o->value)
    return inline_value ? tf_error_set(err, TF_EINPUT, where, "takes no value") : 0;
  *v = inline_value;
  if (!*v && *i + 1 >= argc)
    return tf_error_set(err, TF_EINPUT, where, "needs a value");
  if (!*v)
    *v = argv[++*i];
  return 0;
}

/* What the parse has seen so far: an option given twice, two formats, or
 * two readers of standard input are usage errors, named. */
struct seen {
  const char *where[NOPTIONS]; /* as first given, per option */
  const char *format;          /* the format option given */
  const char *stdin_by;        /* the option or operand that reads '-' */
  char buf[NOPTIONS + 2][64];
};

static int one_stdin(struct seen *s, const char *value, const char *by, tf_error *err) {
  if (!value || strcmp(value, "-"))
    return 0;
  if (s->stdin_by)
    return tf_error_set(err, TF_EINPUT, by,
                        "standard input ('-') is already read by %s; only one option or operand can read it",
                        s->stdin_by);
  s->stdin_by = by;
  return 0;
}

static int note_option(struct seen *s, const struct option_spec *o, const char *where, const char *v, tf_error *err) {
  size_t k = (size_t)(o - options);
  if (s->where[k] && !(o->flags & REPEATABLE))
    return tf_error_set(err, TF_EINPUT, where, "given twice; it may be given once");
  if (!s->where[k])
    s->where[k] = strcpy(s->buf[k], where);
  if (o->flags & FORMAT) {
    if (s->format)
      return tf_error_set(err, TF_EINPUT, where, "conflicts with %s: one output format", s->format);
    s->format = s->where[k];
  }
  return (o->id == O_MACHINE || o->id == O_WORKSET) ? one_stdin(s, v, s->where[k], err) : 0;
}

static int operand(tf_args *a, struct seen *s, const tf_command *cmd, char *arg, tf_error *err) {
  if (cmd->max_operands >= 0 && a->npositional >= cmd->max_operands)
    return tf_error_set(err, TF_EINPUT, arg, "unexpected argument (see --help)");
  a->positional[a->npositional++] = arg;
  return one_stdin(s, arg, "the operand '-'", err);
}

int tf_args_parse(int argc, char **argv, const tf_command *cmd, tf_args *a, tf_error *err) {
  a->positional = tf_nalloc((size_t)argc + 1, sizeof *a->positional);
  struct seen s;
  memset(&s, 0, sizeof s);
  int only_operands = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_operands || arg[0] != '-' || !arg[1]) {
      if (operand(a, &s, cmd, argv[i], err))
        return -1;
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_operands = 1;
      continue;
    }
    const char *inline_value, *v;
    const struct option_spec *o = find_option(arg, &inline_value);
    if (!o || !(commands_of(o) & cmd->bit))
      return not_an_option(o, arg, cmd, err);
    char where[64];
    if (o->short_name)
      snprintf(where, sizeof where, "-%c", o->short_name);
    else
      snprintf(where, sizeof where, "--%s", long_name(o));
    if (option_value(o, inline_value, argc, argv, &i, where, &v, err) || note_option(&s, o, where, v, err))
      return -1;
    if (cmd->bit == TF_CMD_SWEEP && keep_list(a, o->id, v, where))
      continue;
    if (apply(a, o, v, where, err))
      return -1;
  }
  return 0;
}

void tf_args_solve_opts(const tf_args *a, tf_solve_opts *o) {
  tf_solve_opts_init(o);
  o->time_limit_s = a->time_limit;
  o->presolve = !a->no_presolve;
  tf_solve_opts_for(o, &a->req, "--solver", o, NULL); /* checked when parsed: it names a solver */
}
