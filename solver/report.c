/* What every writer shares, and the one function that frames a command's
 * answers in a format. */
#include "report.h"

const char *tf_answer_status_name(int status) {
  static const char *const names[] = {"optimal", "infeasible", "fits", "does_not_fit"};
  return names[status];
}

int tf_report_has_answer(const tf_answer *a) { return a->status != TF_ANSWER_INFEASIBLE; }

void tf_report_answers(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                       int explain) {
  if (format == TF_FORMAT_TEXT) {
    if (n == 1 && !a[0].rank)
      tf_report_text(f, req, p, &a[0], explain);
    else
      tf_report_top_text(f, req, p, a, n);
    return;
  }
  if (format == TF_FORMAT_CSV) {
    tf_report_csv_header(f, p);
    for (int i = 0; i < n; i++)
      tf_report_csv_row(f, req, p, &a[i]);
    return;
  }
  int array = format == TF_FORMAT_JSON && (n > 1 || a[0].rank); /* --top: one array */
  if (array)
    fputs("[\n", f);
  for (int i = 0; i < n; i++) {
    tf_report_json_answer(f, req, p, &a[i], explain);
    fputs(array && i + 1 < n ? ",\n" : "\n", f);
  }
  if (array)
    fputs("]\n", f);
}
