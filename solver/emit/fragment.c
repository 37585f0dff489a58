#include "fragment.h"

#include <ctype.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/value.h"
#include "solver/report.h"
#include "solver/tilefit.h"

void tf_fragment_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  const char *sep = "";
  for (size_t i = 0; i < tf_place_nnumeric(p); i++, sep = " ")
    fprintf(f, "%s%s=%lld", sep, p->choose_names[i], (long long)a->choose[i]);
  for (int k = 0; k < p->ncounts; k++, sep = " ")
    fprintf(f, "%s%s=%lld", sep, p->count_names[k], (long long)a->counts[k]);
  for (size_t k = 0; k < tf_place_count(p); k++) {
    size_t i = tf_place_var(p, k);
    fprintf(f, "%s%s in %s", k == 0 ? "; placement " : ", ", p->choose_names[i],
            tf_memory_name(tf_place_memory(p, i, a->choose[i])));
  }
}

static void provenance_values(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "%svalues: ", lead);
  tf_fragment_values(f, p, a);
  fputc('\n', f);
}

void tf_fragment_bytes(FILE *f, const tf_problem *p, const tf_answer *a) {
  const char *sep = "";
  for (int m = 0; m < TF_NMEM; m++) {
    tf_memory_row r = tf_memory_report(p, m, a->choose, a->point.used);
    if (r.shown) {
      fprintf(f, "%s%s %lld of %lld %s", sep, tf_memory_name(m), (long long)r.used, (long long)r.capacity,
              tf_memory_unit(m));
      sep = ", ";
    }
  }
}

void tf_fragment_provenance(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a, int n) {
  fprintf(f, "%stilefit %s: workset %s on machine %s, %s\n", lead, TF_LIBRARY_VERSION, p->workset->name,
          p->machine->name, n > 1 ? "the best distinct answers in rank order" : tf_answer_status_name(a->status));
  fprintf(f, "%sparams:", lead);
  for (size_t i = 0; i < p->workset->nparams; i++)
    fprintf(f, " %s=%lld", p->workset->params[i].name, (long long)p->param_values[i]);
  fputc('\n', f);
  if (n > 1) {
    fprintf(f, "%seach of the %d with its values and the bytes it was proved to fit in\n", lead, n);
    return;
  }
  provenance_values(f, lead, p, a);
  fprintf(f, "%sproved to fit: ", lead);
  tf_fragment_bytes(f, p, a);
  fputc('\n', f);
}

void tf_fragment_ident(const char *name, char *out, size_t size) {
  size_t n = 0;
  if (size < 2)
    return;
  if (isdigit((unsigned char)name[0]))
    out[n++] = '_';
  for (const char *s = name; *s && n + 1 < size; s++)
    out[n++] = isalnum((unsigned char)*s) || *s == '_' ? *s : '_';
  out[n] = 0;
}

int tf_fragment_value(const tf_problem *p, const tf_answer *a, const char *name, int64_t *v) {
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    if (!strcmp(p->choose_names[i], name))
      return *v = a->choose[i], 0;
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], name))
      return *v = a->counts[k], 0;
  for (size_t i = 0; i < p->workset->nparams; i++)
    if (!strcmp(p->workset->params[i].name, name))
      return *v = p->param_values[i], 0;
  char text[160];
  tf_objective e = {0};
  tf_error err;
  tf_error_init(&err);
  snprintf(text, sizeof text, "max %s", name); /* a let: evaluated at the answer's point */
  int rc = tf_workset_resolve(p->workset, name) < 0 || tf_workset_parse_objective(p->workset, text, name, &e, &err) ||
                   tf_problem_value(p, a->choose, a->counts, e.expr, v, &err)
               ? -1
               : 0;
  if (e.expr)
    tf_objective_release(&e);
  return rc;
}
