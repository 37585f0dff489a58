/* What every writer shows of an answer besides its values, in each
 * format: its status's name, whether it carries values, and the
 * workset's shown lets at it (model/input/show.h).  The writers
 * (write_text.c, write_json.c, write_csv.c) and the lines that frame
 * their output (validate, sweeps, prune, emit) read it; it calls none of
 * them. */
#ifndef TF_SOLVER_ANSWER_VIEW_H
#define TF_SOLVER_ANSWER_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "model/core/json_out.h"

/* "optimal", "infeasible", "fits", "does_not_fit". */
const char *tf_answer_status_name(int status);
/* Does the answer carry values (not infeasible)? */
int tf_report_has_answer(const tf_answer *a);

/* The workset's shown lets at an answer: 0 with *value, -1 when one cannot
 * be evaluated there.  Text: "shown        mma_version 3, ab_buffers 3";
 * JSON: "shown":{"mma_version":3,"ab_buffers":3} (null for one that cannot
 * be evaluated). */
int tf_report_shown(const tf_problem *p, const tf_answer *a, size_t i, int64_t *value);
void tf_report_shown_text(FILE *f, const tf_problem *p, const tf_answer *a);
/* The same list without the label and the line's end: "mma_version 3, ab_buffers 3". */
void tf_report_shown_list(FILE *f, const tf_problem *p, const tf_answer *a);
void tf_report_shown_json(tf_json_out *w, const tf_problem *p, const tf_answer *a);

#endif
