/* The frame every command runs in (frame.h): its start -- argv parsed
 * by the option table, --help, the solver options checked, the operands
 * counted, no output that is also an input -- and its end, the results
 * written whole or not at all. */
#include "solver/cli/frame.h"

#include <stdlib.h>

#include "model/core/text.h"
#include "solver/cli/fail.h"
#include "solver/output.h"
#include "solver/solve.h"

/* An output file that is also one of the command's inputs (sweep LIST -o
 * LIST, validate CASES -o CASES) would destroy it: refused before reading. */
static int outputs_not_inputs(const tf_args *a, tf_error *err) {
  const char *outs[] = {a->out_file, a->lp_file, a->mps_file}, *where[] = {"-o", "--lp", "--mps"};
  for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
    if (!outs[i])
      continue;
    const char *in = NULL;
    for (int k = 0; k < a->npositional && !in; k++)
      in = tf_output_is(outs[i], a->positional[k]) ? a->positional[k] : NULL;
    if (!in)
      in = tf_output_is(outs[i], a->req.machine)   ? a->req.machine
           : tf_output_is(outs[i], a->req.workset) ? a->req.workset
                                                   : NULL;
    if (in)
      return tf_error_set(err, TF_EINPUT, where[i],
                          "'%s' is also an input of the command ('%s'); writing it would destroy it", outs[i], in);
  }
  return 0;
}

int tf_cli_start(const tf_command *cmd, int argc, char **argv, tf_args *a) {
  tf_error err;
  tf_error_init(&err);
  if (tf_args_parse(argc, argv, cmd, a, &err))
    return tf_cli_fail(&err);
  if (a->help) {
    tf_cli_help(stdout, cmd);
    return TF_EXIT_OK;
  }
  /* a sweep's spec or lines may say "solver": "glpk" for their points; a
   * validation case is one answer, checked as solve checks it */
  tf_solve_opts o;
  tf_args_solve_opts(a, &o);
  if (a->no_presolve && !o.backend && !(cmd->bit & TF_CMD_SWEEP)) {
    tf_error_set(&err, TF_EINPUT, "--no-presolve", "turns GLPK's presolver off; it applies with --solver glpk");
    return tf_cli_fail(&err);
  }
  if (a->top && o.backend) { /* the library says so too, in terms of no front end */
    tf_error_set(&err, TF_EINPUT, "--top",
                 "the K best come from the exact search; --solver %s finds one optimum (drop --top or use --solver "
                 "exact)",
                 o.backend->name);
    return tf_cli_fail(&err);
  }
  if (a->npositional < cmd->min_operands) {
    tf_error_set(&err, TF_EINPUT, cmd->name, "%s", cmd->missing);
    return tf_cli_fail(&err);
  }
  if (outputs_not_inputs(a, &err))
    return tf_cli_fail(&err);
  return TF_CLI_GO;
}

FILE *tf_cli_out(tf_args *a) {
  if (!a->out_f)
    a->out_f = tf_text_open(&a->out);
  return a->out_f;
}

int tf_cli_finish(tf_args *a, int rc) {
  size_t len = 0;
  char *text = a->out_f ? tf_text_close(&a->out, &len) : NULL;
  a->out_f = NULL;
  tf_error err;
  tf_error_init(&err);
  if (rc == TF_EXIT_OK || rc == TF_EXIT_NO) {
    if (tf_write_file_whole(a->out_file, text ? text : "", len, "-o", &err)) /* NULL: standard output */
      rc = tf_cli_fail(&err);
  }
  free(text);
  return rc;
}
