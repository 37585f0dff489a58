#include <stdio.h>

#include "solver/cli/cmd_problem.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/emit/emit.h"
#include "solver/tilefit.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_emit = {"emit",
                                TF_CMD_EMIT,
                                run,
                                "the answer as code: CUTLASS, CuTe DSL, Triton, FlashAttention",
                                "--for cutlass|cute-dsl|triton|fa -m MACHINE -w WORKSET",
                                0,
                                "Writes what a kernel author pastes, for the answer (solved as solve does, or\n"
                                "checked when every variable is fixed) or with --top K for the K best distinct\n"
                                "tiles (points that differ only in placement or in a worse stage count of the\n"
                                "same tile count once): --for cutlass the CollectiveBuilder types and the\n"
                                "cutlass_library kernel name (check --cutlass-name reads it back), cute-dsl the\n"
                                "CuTe DSL GEMM examples' arguments, triton a triton.Config list (prune reads it\n"
                                "back; the tutorial kernel's keys, or --key VAR=KEY for your kernel's, and no\n"
                                "config with more stages than the K loop has iterations, -p K, or that\n"
                                "early_config_prune's estimate drops), fa FlashAttention's kernel traits.\n"
                                "Each fragment begins with a comment\n"
                                "naming the machine, workset, params, tilefit version and the bytes it fits in.\n",
                                "0 written, 1 infeasible, 2 bad input (a workset the target does not write for),\n"
                                "3 solver or internal failure",
                                0,
                                NULL,
                                TF_OPERANDS_NONE};

static int emit(tf_cmd_problem *c) {
  if (!c->args.emit_for) {
    tf_error_set(&c->err, TF_EINPUT, "--for", "emit needs --for cutlass, cute-dsl, triton or fa");
    return tf_cli_fail(&c->err);
  }
  tf_solve_opts opts;
  tf_args_solve_opts(&c->args, &opts);
  int status = TF_ANSWER_OPTIMAL, target = tf_emit_target(c->args.emit_for), rc = 0;
  /* what the name says that no param carries: another kernel would be written */
  if (target == TF_EMIT_CUTLASS && c->args.cutlass_name && c->kernel.uncarried[0]) {
    tf_error_set(&c->err, TF_EINPUT, "--cutlass-name", "emit --for cutlass cannot write this kernel: the name's %s",
                 c->kernel.uncarried);
    return tf_cli_fail(&c->err);
  }
  tf_prune_map keys = {NULL, 0, 0};
  tf_problem *own = NULL;
  for (int i = 0; !rc && i < c->args.nkeys; i++)
    rc = tf_prune_map_parse(&keys, c->args.keys[i], "--key", &c->err);
  rc = rc || tf_emit_bind(target, c->run.problem, &c->args.req, &own, &c->err) ||
       tf_emit_run(tf_cli_out(&c->args), own ? own : c->run.problem, &opts, target, c->args.top,
                   c->args.format == TF_FORMAT_JSON, &keys, &status, &c->err);
  tf_problem_free(own);
  tf_prune_map_release(&keys);
  if (rc)
    return tf_cli_fail(&c->err);
  if (status == TF_ANSWER_INFEASIBLE || status == TF_ANSWER_NO_FIT) {
    fprintf(stderr, "tilefit: %s: %s on %s: nothing to emit\n",
            status == TF_ANSWER_NO_FIT ? "does not fit" : "infeasible", c->run.loaded.workset->name,
            c->run.loaded.machine->name);
    return TF_EXIT_NO;
  }
  return TF_EXIT_OK;
}

static int run(int argc, char **argv) {
  tf_cmd_problem c;
  int rc = tf_cmd_problem_open(&c, argc, argv, &tf_cmd_emit);
  if (rc == TF_CLI_GO)
    rc = tf_cli_finish(&c.args, emit(&c));
  tf_cmd_problem_close(&c);
  return rc;
}
