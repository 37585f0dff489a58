/* Rendering of answers: a table for people, one JSON object per answer,
 * or CSV.  Everything goes to the FILE * handed in (stdout for results). */
#ifndef TF_SOLVER_REPORT_H
#define TF_SOLVER_REPORT_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/problem.h"

enum tf_format { TF_FORMAT_TEXT, TF_FORMAT_JSON, TF_FORMAT_CSV };

const char *tf_answer_status_name(int status);

void tf_report_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain);
/* One line of JSON, newline-terminated. */
void tf_report_json(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a);
/* The same object without the newline, to embed in another. */
void tf_report_json_object(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a);
void tf_report_csv_header(FILE *f, const tf_problem *p);
void tf_report_csv_row(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a);

/* One answer in the chosen format (CSV with its header). */
void tf_report_answer(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a,
                      int explain);

/* A ranked table of --top answers. */
void tf_report_top_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int n);

/* JSON string literal with escapes. */
void tf_json_write_string(FILE *f, const char *s);

#endif
