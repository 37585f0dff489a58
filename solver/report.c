/* The one function that frames a command's answers in a format; what
 * the writers share is below them, in answer_view.c. */
#include "report.h"

#include <string.h>

#include "model/core/json_out.h"
#include "solver/explain_gap.h"

void tf_report_answers(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                       int explain) {
  if (format == TF_FORMAT_TEXT) {
    if (n == 1 && !a[0].rank)
      tf_report_text(f, req, p, &a[0], explain);
    else
      tf_report_top_text(f, req, p, a, n);
    for (int i = 1; i < n && explain && a[0].rank;
         i++) /* --top --explain: what separates each rank from the one before */
      if (a[i - 1].status == TF_ANSWER_OPTIMAL && a[i].status == TF_ANSWER_OPTIMAL)
        tf_gap_text(f, p, &a[i - 1], &a[i]);
    return;
  }
  if (format == TF_FORMAT_CSV) { /* "id," then the one answer layout, as a sweep's line after its index and total */
    tf_csv_columns c;
    memset(&c, 0, sizeof c);
    tf_csv_columns_add_problem(&c, p);
    fputs("id,", f);
    tf_csv_columns_write_header(f, &c);
    for (int i = 0; i < n; i++) {
      tf_csv_field(f, req->id ? req->id : "");
      fputc(',', f);
      tf_csv_columns_row(f, &c, req, p, &a[i]);
    }
    tf_csv_columns_release(&c);
    return;
  }
  int array = format == TF_FORMAT_JSON && (n > 1 || a[0].rank); /* --top: one array, an answer a line */
  tf_json_out w;
  tf_json_out_init(&w, f);
  if (array)
    tf_json_out_array_lines(&w);
  if (array)
    tf_report_json_ranked(&w, req, p, a, n, explain);
  for (int i = 0; i < n && !array; i++) {
    tf_report_json_write(&w, req, p, &a[i], explain);
    tf_json_out_line(&w);
  }
  if (array) {
    tf_json_out_end(&w);
    tf_json_out_line(&w);
  }
}
