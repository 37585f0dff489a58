#include "decode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tf_answer_init(tf_answer *a, const tf_problem *p) {
  memset(a, 0, sizeof *a);
  tf_point_init(&a->point, p);
}

void tf_answer_release(tf_answer *a) {
  tf_point_release(&a->point);
  free(a->ilp_objval);
  a->ilp_objval = NULL;
}

int tf_decode(const tf_model *m, const tf_problem *p, const double *x, tf_answer *a, tf_error *err) {
  size_t chosen = p->ncombos;
  for (size_t c = 0; c < p->ncombos; c++)
    if (m->pick[c] != TF_NO_COL && x[m->pick[c]] > 0.5) {
      if (chosen != p->ncombos)
        return tf_error_set(err, TF_EINTERNAL, NULL, "the solver picked two combinations");
      chosen = c;
    }
  if (chosen == p->ncombos)
    return tf_error_set(err, TF_EINTERNAL, NULL, "the solver picked no combination");
  a->combo = chosen;
  memcpy(a->choose, p->combo + chosen * p->nchoose, p->nchoose * sizeof *a->choose);
  for (int k = 0; k < p->ncounts; k++) {
    double v = x[m->count_col[chosen * (size_t)p->ncounts + (size_t)k]];
    if (fabs(v - round(v)) > 1e-6)
      return tf_error_set(err, TF_EINTERNAL, NULL, "the solver returned %s = %.9g, not an integer", p->count_names[k],
                          v);
    a->counts[k] = (int64_t)llround(v);
  }
  a->status = TF_ANSWER_OPTIMAL;
  return 0;
}
