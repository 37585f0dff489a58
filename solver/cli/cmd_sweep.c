/* tilefit sweep SPEC.json | PROBLEMS.jsonl: many problems, one output line
 * each, in a fixed order whatever the number of threads; resumable and
 * shardable (see solver/batch/sweep.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "solver/batch/cache.h"
#include "solver/batch/sweep.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/cli/signals.h"
#include "solver/cli/sweep_lists.h"
#include "solver/report.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_sweep = {
    "sweep",
    TF_CMD_SWEEP,
    run,
    "solve every point of a spec or problem list, one line each",
    "SPEC.json|PROBLEMS.jsonl | -m M1,M2 -w W1,W2 [-p NAME=V1,V2]...",
    1,
    "Solves every point of a sweep and writes one line per point, in point order\n"
    "whatever -j is.  SPEC.json names lists whose Cartesian product is the sweep:\n"
    "  {\"machines\": [\"b200\", \"h100-sxm\"] or \"*\", \"worksets\": [\"fa4-fwd\"] or \"*\",\n"
    "   \"params\": {\"d\": [64, 128]}, \"fix\": {\"B_r\": [64, 128]}, \"domain\": {...},\n"
    "   \"require\": [\"stages <= 32\"], \"objectives\": [[], \"max stages\", [\"max B_r*B_c\", \"max stages\"]],\n"
    "   \"where\": [\"dv <= d\"]}\n"
    "Params, fixes, domains and requires apply to the worksets that have their names;\n"
    "[] is the workset's own objectives.  A file ending in .jsonl is a list of\n"
    "problems instead, one per line (the lines 'validate' reads).  '-' reads standard\n"
    "input: a spec when it is one JSON object with \"machines\", else a problem list.\n"
    "\n"
    "Without a file, the problem options are the spec's lists: -m and -w take\n"
    "comma-separated names (or *), -p, --fix and --domain NAME=V1,V2,..., each\n"
    "--require applies to every point, the --objective options make one\n"
    "lexicographic list, --any-arch is \"any_arch\": true:\n"
    "  tilefit sweep -m h100-sxm,a100 -w fa3-fwd,fa2-fwd -p d=64,128\n"
    "\n"
    "Each line has index, total, id, input and the result: status (optimal, infeasible,\n"
    "fits, does_not_fit, or error with its message), values, memories, objectives and\n"
    "the closed form.  A point that fails is a line, never the end of the sweep.\n",
    "0 every point has its line, 2 bad spec or usage, 3 the output cannot be written",
    0,
    NULL,
    TF_OPERANDS_FILES};

/* A spec file, or the lists on the command line: one of the two. */
static tf_sweep *load(const tf_args *a, tf_error *err) {
  if (a->npositional && a->nlists) {
    tf_error_set(err, TF_EINPUT, a->lists[0].where, "a sweep comes from %s or from the options, not both",
                 a->positional[0]);
    return NULL;
  }
  if (a->npositional)
    return tf_sweep_load(a->positional[0], err);
  if (!a->nlists) {
    tf_error_set(err, TF_EINPUT, NULL,
                 "needs one SPEC.json or PROBLEMS.jsonl, or -m and -w (see 'tilefit sweep --help')");
    return NULL;
  }
  return tf_sweep_from_lists(a, err);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static void summary(const tf_args *a, const tf_sweep_opts *o, const tf_sweep_stats *st) {
  fprintf(stderr, "tilefit: sweep: ");
  if (o->shard_count > 1)
    fprintf(stderr, "shard %d/%d, %zu of %zu points", o->shard_index, o->shard_count, st->shard_points, st->points);
  else
    fprintf(stderr, "%zu points", st->points);
  if (st->resumed)
    fprintf(stderr, ", %zu kept from an earlier run", st->resumed);
  fprintf(stderr, "; %zu solved in %.2f s (%.0f points/s, -j %d):", st->written, st->seconds,
          st->seconds > 0 ? (double)st->written / st->seconds : 0, a->jobs);
  const char *sep = " ";
  for (int k = 0; k < TF_SWEEP_NSTATUS; k++)
    if (st->status[k] || k == TF_SWEEP_ERROR) {
      fprintf(stderr, "%s%zu %s", sep, st->status[k], tf_sweep_status_name(k));
      sep = ", ";
    }
  fprintf(stderr, "; reused %zu answers and %zu search optima\n", st->answer_hits, st->ilp_hits);
}

static int run(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  tf_sweep *s = NULL;
  int rc = tf_cli_start(&tf_cmd_sweep, argc, argv, &a);
  if (rc != TF_CLI_GO)
    goto out;
  rc = TF_EXIT_OK;
  if (a.resume && !a.out_file) {
    tf_error_set(&err, TF_EINPUT, "--resume", "needs the output file (-o FILE)");
    rc = tf_cli_fail(&err);
    goto out;
  }
  if (!(s = load(&a, &err))) {
    rc = tf_cli_fail(&err);
    goto out;
  }
  for (size_t i = 0; i < tf_sweep_nwarnings(s); i++)
    fprintf(stderr, "tilefit: warning: %s\n", tf_sweep_warning(s, i));
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  o.jobs = a.jobs;
  if (a.memo_max >= 0)
    o.memo_max = (size_t)a.memo_max;
  o.format = a.format == TF_FORMAT_CSV || (a.format == TF_FORMAT_TEXT && a.out_file && ends_with(a.out_file, ".csv"))
                 ? TF_FORMAT_CSV
                 : TF_FORMAT_JSONL;
  o.shard_index = a.shard_index;
  o.shard_count = a.shard_count;
  o.resume = a.resume;
  tf_args_solve_opts(&a, &o.solve);
  o.progress = a.quiet ? NULL : stderr;
  o.progress_tty = isatty(2);
  o.tmp_name = tf_cli_signals_tmp;
  tf_sweep_stats st;
  tf_cli_signals_install();
  int failed = tf_sweep_run(s, &o, a.out_file, &st, &err);
  tf_cli_signals_restore();
  if (failed) {
    rc = tf_cli_fail(&err);
    goto out;
  }
  if (!a.quiet)
    summary(&a, &o, &st);
out:
  tf_sweep_free(s);
  tf_args_release(&a);
  return rc;
}
