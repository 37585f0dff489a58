/* What a kernel author pastes, from an answer (or the --top K best):
 *   cutlass   the CollectiveBuilder types (element types, layouts, tile
 *             and cluster shape, StageCount<N> or StageCountAutoCarveout,
 *             schedule) and the cutlass_library kernel name, which
 *             `check --cutlass-name` reads back to the same configuration
 *   cute-dsl  the constructor arguments of the shipped CuTe DSL GEMM
 *             examples and the stage counts they derive
 *   triton    a triton.Config list for @triton.autotune, one per distinct
 *             tile (`tilefit prune` reads it back)
 *   fa        FlashAttention-2 Flash_fwd_kernel_traits<...>, FlashAttention-3
 *             tile_size_fwd_sm90's tuple, FlashAttention-4's constructor
 *             arguments
 * Each fragment begins with the provenance comment (solver/emit/fragment.h).
 * The writers live in emit_cutlass.c and emit_kernels.c. */
#ifndef TF_SOLVER_EMIT_EMIT_H
#define TF_SOLVER_EMIT_EMIT_H

#include <stddef.h>
#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "solver/backend.h"
#include "solver/prune.h"

enum tf_emit_target { TF_EMIT_CUTLASS, TF_EMIT_CUTE_DSL, TF_EMIT_TRITON, TF_EMIT_FA, TF_EMIT_NTARGETS };

/* "cutlass" -> TF_EMIT_CUTLASS; -1 when unknown. */
int tf_emit_target(const char *name);
const char *tf_emit_target_name(int target);

/* What `tilefit emit` and tf_call_json's "emit" do: the answer
 * (tf_solve_or_check), or with top > 0 the `top` best whose tiles differ
 * (points that differ only in placement or in a worse stage count of the
 * same tile are one), written as `target` -- the text, or with json one
 * object {"schema", "for", "text", "answers": [the answers' objects]}.
 * *status gets the first answer's status (TF_ANSWER_INFEASIBLE: nothing
 * written but the JSON object with the reason).  `keys` (--key, may be
 * NULL or empty) are Triton's config keys: VAR=KEY writes the workset's
 * variable VAR as KEY, KEY=INTEGER adds a constant key; without any, the
 * tutorial kernel's.  -1 on an error (TF_EINPUT when the workset is not one
 * the target writes for, or keys for another target). */
int tf_emit_run(FILE *f, const tf_problem *p, const tf_solve_opts *o, int target, int top, int json,
                const tf_prune_map *keys, int *status, tf_error *err);

/* The problem emit solves for a target: p's machine and workset bound to
 * req with the target's own requires added (Triton: no more stages than
 * the K loop has iterations, nothing early_config_prune's estimate would
 * drop); *out is NULL when the target adds none, and p is the problem.
 * -1 on an error. */
int tf_emit_bind(int target, const tf_problem *p, const tf_request *req, tf_problem **out, tf_error *err);

/* The cutlass_library name of a CUTLASS answer whose stage count is
 * `stages` (0: the builder's automatic count), found among the names the
 * answer's params allow and verified by reading it back
 * (tf_cutlass_name_request gives this workset, every param it sets as the
 * problem has it, and the answer's tile and stages); 0 found, 1 when no
 * name carries these params (why says which), -1 on an error. */
int tf_emit_cutlass_name(const tf_problem *p, const tf_answer *a, int64_t stages, char *name, size_t size, char *why,
                         size_t whysize);

/* ---------------------------------------------- the writers (internal) */
int tf_emit_write_cutlass(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err);
/* cutlass-sm80-gemm: the 2.x device::GemmUniversal (emit_cutlass2x.c). */
int tf_emit_write_cutlass2x(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err);
int tf_emit_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err);
int tf_emit_write_triton(FILE *f, const tf_problem *p, const tf_answer *a, int n, const tf_prune_map *keys,
                         tf_error *err);
/* The requires emit --for triton adds for p's workset (NULL-ended), or NULL. */
const char *const *tf_emit_triton_requires(const tf_problem *p);
int tf_emit_write_fa(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err);

#endif
