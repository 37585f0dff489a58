#include "solver/cli/cli.h"

#include <string.h>

#include "model/core/suggest.h"
#include "model/core/text.h"
#include "solver/cli/options.h"
#include "solver/tilefit.h"

static const tf_command *const commands[] = {
    &tf_cmd_solve,    &tf_cmd_check, &tf_cmd_layout, &tf_cmd_emit,  &tf_cmd_machines, &tf_cmd_worksets,
    &tf_cmd_validate, &tf_cmd_sweep, &tf_cmd_merge,  &tf_cmd_prune, &tf_cmd_plot,     &tf_cmd_probe,
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

const tf_command *tf_cli_command(unsigned bit) {
  static const tf_command *const kinds[] = {&tf_cmd_plot_map, &tf_cmd_plot_sweep}; /* under 'plot' */
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (commands[i]->bit == bit)
      return commands[i];
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (kinds[i]->bit == bit)
      return kinds[i];
  return NULL;
}

static void usage(FILE *f) {
  fputs("usage: tilefit COMMAND [OPTIONS]\n\n"
        "Derives GPU kernel parameters (tile sizes, pipeline stages, buffer placement)\n"
        "from a machine model and a kernel's working set, by exact integer programming\n"
        "(--solver glpk: GLPK solves the same program, certified against the exact one).\n\ncommands:\n",
        f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->about);
  fputs("\n'tilefit help COMMAND' (or 'tilefit COMMAND --help') describes a command;\n"
        "'tilefit completion [COMMAND]' lists what bash completion offers.\n"
        "exit codes: 0 solved/fits, 1 infeasible/does not fit/differs, 2 bad input, 3 internal or solver failure\n",
        f);
}

static const tf_command *find_command(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp(name, commands[i]->name))
      return commands[i];
  return NULL;
}

static int unknown_command(const char *cmd);

/* help and completion are not commands of the table: their help here. */
static const char help_help[] = "usage: tilefit help [COMMAND [KIND]]\n\n"
                                "Describes a command, as 'tilefit COMMAND --help' does (for plot, 'tilefit help\n"
                                "plot map' or 'plot sweep'); without COMMAND, lists the commands.\n";
static const char completion_help[] =
    "usage: tilefit completion [COMMAND [KIND]]\n\n"
    "What bash completion (dist/tilefit.bash) offers, read from the option table\n"
    "that --help and the parser use: without COMMAND the commands, one 'command NAME'\n"
    "line each; with one, each option it takes and the kind of value it completes\n"
    "('option --machine -m machine'), then its operands; for plot, its kinds first\n"
    "('kind map'), and with a kind, that kind's options.\n";

/* The help of help or completion, when `name` is one; else NULL. */
static const char *builtin_help(const char *name) {
  return !strcmp(name, "help") ? help_help : !strcmp(name, "completion") ? completion_help : NULL;
}

/* 'tilefit help CMD [KIND]' is 'tilefit CMD [KIND] --help', as git's
 * 'help': the command prints its own help, generated from the table. */
static int help(int argc, char **argv) {
  if (argc < 3) {
    usage(stdout);
    return TF_EXIT_OK;
  }
  const tf_command *c = find_command(argv[2]);
  if (!c && builtin_help(argv[2])) {
    if (argc == 3)
      return fputs(builtin_help(argv[2]), stdout), TF_EXIT_OK;
    fprintf(stderr, "tilefit: error: help: '%s' has no kinds; 'tilefit help %s' describes it\n", argv[2], argv[2]);
    return TF_EXIT_USAGE;
  }
  if (!c)
    return unknown_command(argv[2]);
  if (argc > 4) {
    fprintf(stderr, "tilefit: error: help: takes one command (and for plot, its kind), not %d words\n", argc - 2);
    return TF_EXIT_USAGE;
  }
  char help_flag[] = "--help";
  char *args[] = {argv[2], argc == 4 ? argv[3] : help_flag, help_flag, NULL};
  return c->run(argc == 4 ? 3 : 2, args);
}

/* 'tilefit completion [CMD [KIND]]', what dist/tilefit.bash completes
 * from: without CMD the commands, one "command NAME" line each; with one,
 * its options and operands from the option table (tf_cli_completion). */
static int completion(int argc, char **argv) {
  static const tf_command *const kinds[] = {&tf_cmd_plot_map, &tf_cmd_plot_sweep};
  if (argc < 3) {
    for (size_t i = 0; i < NCOMMANDS; i++)
      printf("command %s\n", commands[i]->name);
    puts("command help\ncommand completion");
    return TF_EXIT_OK;
  }
  if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
    return fputs(completion_help, stdout), TF_EXIT_OK;
  const tf_command *c = find_command(argv[2]);
  if (!c)
    return unknown_command(argv[2]);
  if (argc > 4 || (argc == 4 && c != &tf_cmd_plot)) {
    fprintf(stderr, "tilefit: error: completion: takes one command (and for plot, its kind)\n");
    return TF_EXIT_USAGE;
  }
  for (size_t k = 0; argc == 4 && k < sizeof kinds / sizeof *kinds; k++)
    if (!strcmp(argv[3], kinds[k]->name + strlen("plot ")))
      c = kinds[k];
  if (argc == 4 && c == &tf_cmd_plot) {
    fprintf(stderr, "tilefit: error: completion: plot's kind is map or sweep, not '%.40s'\n", argv[3]);
    return TF_EXIT_USAGE;
  }
  if (c == &tf_cmd_plot)
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
      printf("kind %s\n", kinds[k]->name + strlen("plot "));
  tf_cli_completion(stdout, c);
  return TF_EXIT_OK;
}

int tf_cli_main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TF_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return TF_EXIT_OK;
  }
  if (!strcmp(cmd, "help"))
    return help(argc, argv);
  if (!strcmp(cmd, "completion"))
    return completion(argc, argv);
  if (!strcmp(cmd, "--version")) {
    printf("tilefit %s\n", TF_LIBRARY_VERSION);
    return TF_EXIT_OK;
  }
  const tf_command *c = find_command(cmd);
  if (c)
    return c->run(argc - 1, argv + 1);
  return unknown_command(cmd);
}

static int unknown_command(const char *cmd) {
  const char *names[NCOMMANDS];
  for (size_t i = 0; i < NCOMMANDS; i++)
    names[i] = commands[i]->name;
  const char *near = tf_suggest(cmd, names, NCOMMANDS);
  char shown[96];
  tf_escape(shown, sizeof shown, cmd); /* what the terminal gets: no control characters, at most 95 bytes */
  if (!*cmd)                           /* `tilefit ''`, `tilefit help ''`: not ": unknown command" */
    fprintf(stderr, "tilefit: error: '': an empty command name (see 'tilefit --help')\n");
  else if (near)
    fprintf(stderr, "tilefit: error: %s: unknown command; did you mean '%s'? (see 'tilefit --help')\n", shown, near);
  else
    fprintf(stderr, "tilefit: error: %s: unknown command (see 'tilefit --help')\n", shown);
  return TF_EXIT_USAGE;
}
