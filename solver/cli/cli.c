#include "cli.h"

#include <stdio.h>
#include <string.h>

struct tf_cmd {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *about;
};

static const struct tf_cmd commands[] = {
    {"solve", cmd_solve, "the best parameters for a workset on a machine"},
    {"check", cmd_check, "does one fully fixed configuration fit, buffer by buffer"},
    {"machines", cmd_machines, "list the shipped machine models, or show one"},
    {"worksets", cmd_worksets, "list the shipped worksets, or show one"},
    {"validate", cmd_validate, "compare derived values with known answers from real kernels"},
    {"sweep", cmd_sweep, "solve every point of a spec or problem list, one line each"},
    {"merge", cmd_merge, "join the outputs of sharded sweeps"},
};

static void usage(FILE *f) {
  fputs("usage: tilefit COMMAND [OPTIONS]\n\n"
        "Derives GPU kernel parameters (tile sizes, pipeline stages, buffer placement)\n"
        "from a machine model and a kernel's working set, by integer programming.\n\ncommands:\n",
        f);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].about);
  fputs("\n'tilefit COMMAND --help' describes a command.\n"
        "exit codes: 0 solved/fits, 1 infeasible/does not fit/differs, 2 bad input, 3 internal or solver failure\n",
        f);
}

int tf_cli_fail(const tf_error *err) {
  char buf[1024];
  tf_error_format(err, buf, sizeof buf);
  fprintf(stderr, "tilefit: error: %s\n", buf);
  return err->code == TF_EINPUT ? TF_EXIT_USAGE : TF_EXIT_INTERNAL;
}

int tf_cli_main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TF_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return TF_EXIT_OK;
  }
  if (!strcmp(cmd, "--version")) {
    printf("tilefit %s\n", TF_VERSION);
    return TF_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(cmd, commands[i].name))
      return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "tilefit: error: %s: unknown command (see 'tilefit --help')\n", cmd);
  return TF_EXIT_USAGE;
}
