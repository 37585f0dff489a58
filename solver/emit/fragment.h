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
#include "model/bind/problem.h"

/* The provenance comment, each line begun with `lead` ("// ", "# ", " * "),
 * for n answers (a[0] the first): one answer's values and bytes, or for
 * several a line saying each fragment item carries its own. */
void tf_fragment_provenance(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a, int n);

/* "smem 98304 of 232448 B, rf 151 of 255 registers/thread": what the
 * answer uses of each memory it uses, against the capacity it was
 * proved against. */
void tf_fragment_bytes(FILE *f, const tf_problem *p, const tf_answer *a);

/* "BLOCK_M=128 BLOCK_N=256 num_stages=3": the answer's values. */
void tf_fragment_values(FILE *f, const tf_problem *p, const tf_answer *a);

/* `name` as a C or Python identifier: every character outside [A-Za-z0-9_]
 * becomes '_', and a leading digit gets a '_' before it. */
void tf_fragment_ident(const char *name, char *out, size_t size);

/* The value of the workset's variable, param or let `name` at the
 * answer; 0 found, -1 when the workset has none of that name. */
int tf_fragment_value(const tf_problem *p, const tf_answer *a, const char *name, int64_t *v);

#endif
