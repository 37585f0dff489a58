/* The output writers, one per format, shared by every command:
 *   text  solver/write_text.c   tables for people
 *   JSON  solver/write_json.c   one object per answer, "schema" first
 *                               (solver/schema/tilefit.schema.json)
 *   CSV   solver/write_csv.c    RFC 4180, quoting in one place
 * tf_report_answers is what solve and check print; validate and sweep
 * frame the same writers' objects and rows in their own lines (adding a
 * format: docs/design.md, "Where to add X").  Everything goes to the
 * FILE * handed in (stdout for results).  What they share (an answer's
 * status name, the shown lets) is solver/answer_view.h, below them. */
#ifndef TF_SOLVER_REPORT_H
#define TF_SOLVER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "model/core/json_out.h"
#include "solver/answer_view.h"

/* JSON: one document; JSONL: one object per line (a sweep's JSON). */
enum tf_format { TF_FORMAT_TEXT, TF_FORMAT_JSON, TF_FORMAT_CSV, TF_FORMAT_JSONL };

/* n answers of one problem in the chosen format: text is the full report
 * of one unranked answer, or a ranked table (--top); JSON one document
 * (an object, or an array of ranked answers); JSONL one object per line;
 * CSV a header and one row each.  The one place that decides how several
 * answers are framed. */
void tf_report_answers(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                       int explain);

/* ------------------------------------------------------------------ text */
void tf_report_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain);
/* The values block of the text report: each variable and its value, and
 * the placement when there is one. */
void tf_report_text_values(FILE *f, const tf_problem *p, const tf_answer *a);
/* A ranked table of --top answers. */
void tf_report_top_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int n);

/* ------------------------------------------------------------------ JSON */
/* The "schema" member of every JSON object tilefit writes: the version of
 * solver/schema/tilefit.schema.json the object follows. */
#define TF_REPORT_SCHEMA "tilefit/1"
/* One line of JSON, newline-terminated. */
void tf_report_json(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a);
/* The same object without the newline, to embed in another. */
void tf_report_json_object(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a);
/* The object with "explain" (binding counts and each level's next-better
 * candidate) when `explain` and the answer is optimal. */
void tf_report_json_answer(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain);
/* The same object as a value of the JSON writer w (model/core/json_out.h). */
void tf_report_json_write(tf_json_out *w, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain);
/* --top's answers, a[0..n) in rank order, each as tf_report_json_write's
 * object; with `explain` each after the first also says its gap to the one
 * before it ("gap", solver/explain_gap.h). */
void tf_report_json_ranked(tf_json_out *w, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                           int explain);
/* Its members after "id", in the object w stands in, for a caller that
 * frames them (a sweep line, a layout, a prune row). */
void tf_report_json_members(tf_json_out *w, const tf_problem *p, const tf_answer *a);
/* The members of a failed problem: machine and workset when known (NULL:
 * left out), "status": "error" and the message. */
void tf_report_json_error_members(tf_json_out *w, const char *machine, const char *workset, const char *msg);

/* ------------------------------------------------------------------- CSV */
/* A string cell, quoted when it must be (RFC 4180). */
void tf_csv_field(FILE *f, const char *s);
/* ",V", or "," when !ok. */
void tf_csv_int(FILE *f, int ok, int64_t v);
/* The one row layout of an answer, whichever command writes it
 * (docs/using.md#output):
 *   machine,workset,status,rank,objectives,param_P...,VAR...,place_B...,
 *   shown_L...,MEM_used,MEM_capacity...,objectiveN...,closed_C,
 *   closed_C_agrees...,reason
 * Its columns are a union over worksets (a sweep's, prune's kernel names),
 * so every row of one output has the same cells; a cell that does not
 * apply to a row is empty.  The command's own columns come first: solve
 * and check "id", a sweep "index,total,id", prune "where,config,KEY...,fits". */
typedef struct tf_csv_columns {
  char **params;
  size_t nparams, capparams;
  char **vars;
  size_t nvars, capvars; /* choose, occupancy, counts, place_NAME */
  char **counts;
  size_t ncounts, capcounts; /* for the closed-form columns */
  char **shown;
  size_t nshown, capshown; /* the worksets' shown lets (model/input/show.h) */
  int mem[TF_NMEM];
  size_t nobjectives;
} tf_csv_columns;

/* A workset's columns; `occupancy`: some problem of it chooses one
 * (its bound problem's occupancy, or tf_problem_shape_of's before
 * binding). */
void tf_csv_columns_add_workset(tf_csv_columns *c, const tf_workset *w, int occupancy);
/* A bound problem's: its workset's, its occupancy and objectives. */
void tf_csv_columns_add_problem(tf_csv_columns *c, const tf_problem *p);
void tf_csv_columns_add_objectives(tf_csv_columns *c, size_t n);
void tf_csv_columns_release(tf_csv_columns *c);
/* "machine,...,reason\n", after the command's own columns and a comma. */
void tf_csv_columns_write_header(FILE *f, const tf_csv_columns *c);
/* "PREFIX,machine,...,reason\n"; the caller frees it. */
char *tf_csv_columns_header(const tf_csv_columns *c, const char *prefix);
/* An answer's row after the command's own cells and a comma; the reason
 * is why it is infeasible or does not fit, empty when it is solved or fits. */
void tf_csv_columns_row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p,
                        const tf_answer *a);
/* A row without an answer: `status` ("error"; prune's "skipped") and why;
 * `p` NULL when it failed before binding (machine, workset and params as
 * the request gives them). */
void tf_csv_columns_error_row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p,
                              const char *status, const char *msg);

#endif
