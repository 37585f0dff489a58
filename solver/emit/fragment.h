/* What every fragment tilefit writes for a compiler or a tuner starts
 * with (a layout header, a CuTe DSL struct, a CUTLASS type, a Triton
 * config list, FlashAttention traits): a comment that names the machine,
 * the workset, every param, the values, the tilefit version, and the use
 * of each memory the answer was proved to fit in; and the identifiers
 * those fragments derive from names. */
#ifndef TF_SOLVER_EMIT_FRAGMENT_H
#define TF_SOLVER_EMIT_FRAGMENT_H

#include <stddef.h>
#include <stdio.h>

#include "encode/decode.h"
#include "model/problem.h"

/* The provenance comment, each line begun with `lead` ("// ", "# ", " * "). */
void tf_fragment_provenance(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a);

/* `name` as a C or Python identifier: every character outside [A-Za-z0-9_]
 * becomes '_', and a leading digit gets a '_' before it. */
void tf_fragment_ident(const char *name, char *out, size_t size);

/* The value of the workset's param or variable `name` in the answer;
 * 0 found, -1 when the workset has none of that name. */
int tf_fragment_value(const tf_problem *p, const tf_answer *a, const char *name, int64_t *v);

#endif
