/* The layout of an answer (model/bind/layout.h) for people and programs: a
 * table per memory in text, or one JSON object (the answer's members, as
 * `solve --json` writes them, and "layout").  The C header and the CuTe
 * DSL struct are solver/emit/struct_write.h's. */
#ifndef TF_SOLVER_EMIT_LAYOUT_WRITE_H
#define TF_SOLVER_EMIT_LAYOUT_WRITE_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/layout.h"
#include "model/bind/problem.h"
#include "model/core/json_out.h"
#include "solver/backend.h"

void tf_layout_write_text(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l);
/* One JSON object, newline-terminated; without "layout" when l is NULL
 * (an infeasible answer). */
void tf_layout_write_json(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l);
/* Its "layout" value alone, {"smem": {...}, ...}, as a value of w. */
void tf_layout_json_value(tf_json_out *w, const tf_problem *p, const tf_layout *l);

/* What `tilefit layout` and tf_call_json's "layout" do: answer the problem
 * (tf_solve_or_check), lay the answer out and write it in `form`.  An
 * infeasible problem writes its answer object (with the reason) in JSON
 * and nothing in the other forms.  -1 on an error, else the answer's
 * status in *a. */
enum tf_layout_form { TF_LAYOUT_TEXT, TF_LAYOUT_JSON, TF_LAYOUT_C, TF_LAYOUT_CUTE_DSL };
int tf_layout_run(FILE *f, const tf_problem *p, const tf_solve_opts *o, int form, tf_answer *a, tf_error *err);

#endif
