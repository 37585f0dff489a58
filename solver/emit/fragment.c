#include "fragment.h"

#include <ctype.h>
#include <string.h>

#include "solver/report.h"
#include "solver/tilefit.h"

static void provenance_values(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "%svalues:", lead);
  for (size_t i = 0; i < p->place_first; i++)
    fprintf(f, " %s=%lld", p->choose_names[i], (long long)a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, " %s=%lld", p->count_names[k], (long long)a->counts[k]);
  for (size_t i = p->place_first; i < p->nchoose; i++)
    fprintf(f, "%s%s in %s", i == p->place_first ? "; placement " : ", ", p->choose_names[i],
            tf_memory_name((int)a->choose[i]));
  fputc('\n', f);
}

void tf_fragment_provenance(FILE *f, const char *lead, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "%stilefit %s: workset %s on machine %s, %s\n", lead, TF_LIBRARY_VERSION, p->workset->name,
          p->machine->name, tf_answer_status_name(a->status));
  fprintf(f, "%sparams:", lead);
  for (size_t i = 0; i < p->workset->nparams; i++)
    fprintf(f, " %s=%lld", p->workset->params[i].name, (long long)p->param_values[i]);
  fputc('\n', f);
  provenance_values(f, lead, p, a);
  fprintf(f, "%sproved to fit:", lead);
  const char *sep = " ";
  for (int m = 0; m < TF_NMEM; m++)
    if (tf_report_memory_used(p, m)) {
      fprintf(f, "%s%s %lld of %lld %s", sep, tf_memory_name(m), (long long)a->point.used[m],
              (long long)(m == TF_MEM_SMEM ? a->point.smem_limit : p->capacity[m]), tf_memory_unit(m));
      sep = ", ";
    }
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
  for (size_t i = 0; i < p->place_first; i++)
    if (!strcmp(p->choose_names[i], name))
      return *v = a->choose[i], 0;
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], name))
      return *v = a->counts[k], 0;
  for (size_t i = 0; i < p->workset->nparams; i++)
    if (!strcmp(p->workset->params[i].name, name))
      return *v = p->param_values[i], 0;
  return -1;
}
