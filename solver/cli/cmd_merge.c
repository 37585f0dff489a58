/* tilefit merge PART... -o OUT: joins the outputs of 'sweep --shard' into
 * the file one run of the whole sweep writes. */
#include <stdio.h>

#include "solver/cli/options.h"
#include "solver/cli/cli.h"
#include "solver/report.h"
#include "solver/batch/sweep.h"

static const char merge_help[] =
    "usage: tilefit merge PART... [-o FILE] [--format jsonl|csv] [--quiet]\n"
    "\n"
    "Joins the outputs of 'tilefit sweep --shard I/N' (in any order) into the file\n"
    "a single run of the sweep writes: lines ordered by index, one CSV header.\n"
    "Refuses a torn part (resume that shard first), a point missing or given twice,\n"
    "and parts of different sweeps or formats.  FILE appears whole or not at all.\n"
    "\n"
    "  -o, --output FILE      write here (default standard output)\n"
    "      --format jsonl|csv require the parts to be in this format\n"
    "  -q, --quiet            no summary on stderr\n"
    "\n"
    "exit: 0 merged, 2 bad or incomplete parts, 3 the output cannot be written\n";

int cmd_merge(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = TF_EXIT_OK;
  size_t n = 0;
  if (tf_args_parse(argc, argv, TF_OPT_SWEEP, argc, &a, &err)) {
    rc = tf_cli_fail(&err);
  } else if (a.help) {
    fputs(merge_help, stdout);
  } else if (a.jobs != 1 || a.resume || a.shard_count) {
    tf_error_set(&err, TF_EINPUT, a.resume ? "--resume" : a.shard_count ? "--shard" : "-j",
                 "is an option of 'sweep', not of 'merge'");
    rc = tf_cli_fail(&err);
  } else if (a.npositional == 0) {
    tf_error_set(&err, TF_EINPUT, "merge", "needs at least one PART (see 'tilefit merge --help')");
    rc = tf_cli_fail(&err);
  } else if (tf_sweep_merge(a.positional, (size_t)a.npositional, a.out_file, a.format, &n, &err)) {
    rc = tf_cli_fail(&err);
  } else if (!a.quiet) {
    fprintf(stderr, "tilefit: merge: %d part%s, %zu lines\n", a.npositional, a.npositional == 1 ? "" : "s", n);
  }
  tf_args_release(&a);
  return rc;
}
