#include "cmd_problem.h"

#include <stdio.h>
#include <string.h>

#include "solver/cli/fail.h"
#include "solver/cli/frame.h"

/* The "where" options.c gives -p, --fix and --domain values. */
static int is_value_argument(const char *path) {
  static const char *const heads[] = {"-p ", "--param ", "--fix ", "--domain ", "--place "};
  for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
    if (!strncmp(path, heads[i], strlen(heads[i])))
      return 1;
  return 0;
}

/* --cutlass-name: the name chooses the workset, its params and tile (and
 * the machine, unless -m does). */
static int apply_cutlass_name(tf_cmd_problem *c) {
  if (c->args.req.workset)
    return tf_error_set(&c->err, TF_EINPUT, "-w", "cannot be combined with --cutlass-name, which names the workset");
  return tf_cutlass_name_request(c->args.cutlass_name, &c->args.req, &c->kernel, &c->err);
}

int tf_cmd_problem_open(tf_cmd_problem *c, int argc, char **argv, const tf_command *cmd) {
  memset(c, 0, sizeof *c);
  tf_args_init(&c->args);
  tf_error_init(&c->err);
  int rc = tf_cli_start(cmd, argc, argv, &c->args);
  if (rc != TF_CLI_GO)
    return rc;
  if (c->args.cutlass_name && apply_cutlass_name(c))
    return tf_cli_fail(&c->err);
  /* a solve the exact search alone answers binds on demand (run.h) */
  const tf_args *a = &c->args;
  int on_demand = (cmd->bit & TF_CMD_SOLVE) && !a->explain && !a->lp_file && !a->mps_file && !a->req.solver;
  if (!(on_demand ? tf_run_bind_on_demand : tf_run_bind)(&a->req, "-m", "-w", NULL, a->time_limit, &c->run, &c->err))
    return TF_CLI_GO;
  /* an error about a value given on the command line ("--fix B_r=128")
   * names the argument, not the workset file it was bound against */
  if (is_value_argument(c->err.path))
    c->err.file[0] = 0;
  return tf_cli_fail(&c->err);
}

void tf_cmd_problem_close(tf_cmd_problem *c) {
  tf_run_release(&c->run);
  tf_args_release(&c->args);
}
