/* tilefit validate CASES.jsonl: the cases of every file (solver/validate.h),
 * their rows held back until all have run, then the closing tally. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/json_out.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/report.h"
#include "solver/validate.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_validate = {"validate",
                                    TF_CMD_VALIDATE,
                                    run,
                                    "compare derived values with known answers from real kernels",
                                    "CASES.jsonl...",
                                    -1,
                                    "Each line of CASES.jsonl is a problem (machine, workset, params, fix, domain,\n"
                                    "require, objective) with \"expect\" (variable values, or {\"fits\": true|false})\n"
                                    "and an optional \"kind\":\n"
                                    "  formula  the kernel derives the value from capacity: must agree\n"
                                    "  fits     a feasibility claim with every variable fixed: must agree\n"
                                    "  tuned    a human picked it: reported beside the limit tilefit finds,\n"
                                    "           never counted as a failure\n"
                                    "  measured a published measurement (\"measured\", \"group\", \"config\"):\n"
                                    "           its config solved under min time_ns, the predicted time beside\n"
                                    "           the measured one; then per group the measured order and the\n"
                                    "           measured best's rank in the model, and the totals\n"
                                    "Prints one row per case and a closing line 'N passed, M failed, K skipped'\n"
                                    "(and ', L measured' when there are measured cases).\n",
                                    "0 every formula and fits case agrees, 1 otherwise, 2 bad input",
                                    1,
                                    "needs at least one CASES.jsonl file",
                                    TF_OPERANDS_FILES};

/* --json: one document, the rows in "cases" and the tally; --jsonl and
 * text: the rows, then the tally line (on stderr for --jsonl). */
static void write_all(FILE *f, int format, const char *rows, size_t nrows, const tf_validate_tally *t) {
  char tally[160];
  int at = snprintf(tally, sizeof tally, "%zu passed, %zu failed, %zu skipped", t->passed, t->failed, t->skipped);
  if (t->set->n)
    snprintf(tally + at, sizeof tally - (size_t)at, ", %zu measured", t->measured);
  if (format == TF_FORMAT_JSON) {
    tf_json_out w;
    tf_json_out_init(&w, f);
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
    tf_json_out_key_array_lines(&w, "cases");
    for (size_t i = 0, n; i < nrows; i += n + 1) { /* the rows are lines, each one a case's JSON */
      const char *nl = memchr(rows + i, '\n', nrows - i);
      n = nl ? (size_t)(nl - (rows + i)) : nrows - i;
      tf_json_out_raw(&w, rows + i, n);
    }
    tf_json_out_end(&w);
    tf_json_out_key_int(&w, "passed", (int64_t)t->passed);
    tf_json_out_key_int(&w, "failed", (int64_t)t->failed);
    tf_json_out_key_int(&w, "skipped", (int64_t)t->skipped);
    if (t->set->n)
      tf_json_out_key_int(&w, "measured_cases", (int64_t)t->measured);
    tf_measured_write_json(&w, t->set);
    tf_json_out_key_string(&w, "summary", tally);
    tf_json_out_end(&w);
    tf_json_out_line(&w);
    return;
  }
  fwrite(rows, 1, nrows, f);
  if (format == TF_FORMAT_JSONL && t->set->n) { /* the groups and totals: one more line */
    tf_json_out w;
    tf_json_out_init(&w, f);
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
    tf_measured_write_json(&w, t->set);
    tf_json_out_end(&w);
    tf_json_out_line(&w);
  } else
    tf_measured_write_text(f, t->set);
  fprintf(format == TF_FORMAT_JSONL ? stderr : f, "%s\n", tally);
}

static int run(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(&tf_cmd_validate, argc, argv, &a);
  if (rc == TF_CLI_GO) {
    tf_solve_opts opts;
    tf_args_solve_opts(&a, &opts);
    tf_validate_run v;
    if (tf_validate_files(a.positional, (size_t)a.npositional, a.format != TF_FORMAT_TEXT, &opts, &v, &err)) {
      rc = tf_cli_fail(&err);
    } else {
      write_all(tf_cli_out(&a), a.format, v.rows, v.nrows, &v.t);
      rc = tf_cli_finish(&a, v.t.failed ? TF_EXIT_NO : TF_EXIT_OK);
    }
    tf_validate_run_release(&v);
  }
  tf_args_release(&a);
  return rc;
}
