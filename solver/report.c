/* What every writer shares, and the one function that frames a command's
 * answers in a format. */
#include "report.h"

#include <string.h>

#include "model/bind/value.h"
#include "model/core/json_out.h"
#include "solver/explain_gap.h"

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

/* The shown lets, 16 at a time at one evaluation of the point each. */
void tf_report_shown_json(tf_json_out *o, const tf_problem *p, const tf_answer *a) {
  const tf_workset *w = p->workset;
  if (!w->nshow)
    return;
  tf_json_out_key_object(o, "shown");
  for (size_t i = 0; i < w->nshow; i += 16) {
    const tf_expr *e[16];
    int64_t v[16];
    int failed[16];
    size_t n = w->nshow - i < 16 ? w->nshow - i : 16;
    for (size_t k = 0; k < n; k++)
      e[k] = w->lets[w->show[i + k]].expr;
    tf_problem_values(p, a->choose, a->counts, e, n, v, failed);
    for (size_t k = 0; k < n; k++) {
      tf_json_out_key(o, w->lets[w->show[i + k]].name);
      if (failed[k])
        tf_json_out_null(o);
      else
        tf_json_out_int(o, v[k]);
    }
  }
  tf_json_out_end(o);
}

void tf_report_answers(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                       int explain) {
  if (format == TF_FORMAT_TEXT) {
    if (n == 1 && !a[0].rank)
      tf_report_text(f, req, p, &a[0], explain);
    else
      tf_report_top_text(f, req, p, a, n);
    for (int i = 1; i < n && explain && a[0].rank; i++) /* --top --explain: what separates each rank from the one before */
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
