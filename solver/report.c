/* What every writer shares, and the one function that frames a command's
 * answers in a format. */
#include "report.h"

#include "model/json.h"
#include "model/json_out.h"
#include "model/value.h"

const char *tf_answer_status_name(int status) {
  static const char *const names[] = {"optimal", "infeasible", "fits", "does_not_fit"};
  return names[status];
}

int tf_report_has_answer(const tf_answer *a) { return a->status != TF_ANSWER_INFEASIBLE; }

int tf_report_shown(const tf_problem *p, const tf_answer *a, size_t i, int64_t *value) {
  tf_error err;
  tf_error_init(&err);
  return tf_problem_value(p, a->choose, a->counts, p->workset->lets[p->workset->show[i]].expr, value, &err);
}

void tf_report_shown_list(FILE *f, const tf_problem *p, const tf_answer *a) {
  const tf_workset *w = p->workset;
  for (size_t i = 0; i < w->nshow; i++) {
    int64_t v;
    fprintf(f, "%s%s ", i ? ", " : "", w->lets[w->show[i]].name);
    if (tf_report_shown(p, a, i, &v))
      fputs("-", f);
    else
      fprintf(f, "%lld", (long long)v);
  }
}

void tf_report_shown_text(FILE *f, const tf_problem *p, const tf_answer *a) {
  if (!p->workset->nshow)
    return;
  fputs("shown        ", f);
  tf_report_shown_list(f, p, a);
  fputc('\n', f);
}

void tf_report_shown_json(FILE *f, const tf_problem *p, const tf_answer *a) {
  const tf_workset *w = p->workset;
  if (!w->nshow)
    return;
  fputs(",\"shown\":{", f);
  for (size_t i = 0; i < w->nshow; i++) {
    int64_t v;
    fputs(i ? "," : "", f);
    tf_json_write_string(f, w->lets[w->show[i]].name);
    if (tf_report_shown(p, a, i, &v))
      fputs(":null", f);
    else
      fprintf(f, ":%lld", (long long)v);
  }
  fputc('}', f);
}

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
