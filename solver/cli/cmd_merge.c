/* tilefit merge PART... -o OUT: joins the outputs of 'sweep --shard' into
 * the file one run of the whole sweep writes. */
#include <stdio.h>

#include "solver/batch/sweep.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/report.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_merge = {"merge",
                                 TF_CMD_MERGE,
                                 run,
                                 "join the outputs of sharded sweeps",
                                 "PART...",
                                 -1,
                                 "Joins the outputs of 'tilefit sweep --shard I/N' (in any order) into the file\n"
                                 "a single run of the sweep writes: lines ordered by index, one CSV header.\n"
                                 "Refuses a torn part (resume that shard first), a point missing or given twice,\n"
                                 "and parts of different sweeps or formats.\n",
                                 "0 merged, 2 bad or incomplete parts, 3 the output cannot be written",
                                 1,
                                 "needs at least one PART (see 'tilefit merge --help')",
                                 TF_OPERANDS_FILES};

static int run(int argc, char **argv) {
  tf_args a;
  tf_args_init(&a);
  int rc = tf_cli_start(&tf_cmd_merge, argc, argv, &a);
  if (rc == TF_CLI_GO) {
    tf_error err;
    tf_error_init(&err);
    size_t n = 0;
    rc = TF_EXIT_OK;
    if (tf_sweep_merge(a.positional, (size_t)a.npositional, a.out_file, a.format, &n, &err))
      rc = tf_cli_fail(&err);
    else if (!a.quiet)
      fprintf(stderr, "tilefit: merge: %d part%s, %zu lines\n", a.npositional, a.npositional == 1 ? "" : "s", n);
  }
  tf_args_release(&a);
  return rc;
}
