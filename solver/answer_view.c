/* What every writer shows of an answer besides its values (answer_view.h). */
#include "answer_view.h"

#include "model/bind/value.h"

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
