/* tilefit sweep without a spec file: the problem options as lists
 *   -m a100,h100-sxm  -w fa3-fwd,fa2-fwd  -p d=64,128  --fix B_r=64,128
 *   --domain B_c=64,128  --require "..."  --objective "..."  --any-arch
 * made into the spec they stand for ("machines", "worksets", "params",
 * "fix", "domain", "require", one "objectives" list, "any_arch"), so the
 * command line and a spec file follow one set of Cartesian rules: the
 * spec reader's (model/formats/spec.h). */
#ifndef TF_SOLVER_CLI_SWEEP_LISTS_H
#define TF_SOLVER_CLI_SWEEP_LISTS_H

#include "model/core/error.h"
#include "solver/batch/sweep.h"
#include "solver/cli/options.h"

/* The sweep the lists of `a` describe, or NULL with the error naming the
 * option it comes from ("-p d=64,x"). */
tf_sweep *tf_sweep_from_lists(const tf_args *a, tf_error *err);

#endif
