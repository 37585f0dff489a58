#include "verify.h"

#include <math.h>
#include <stdio.h>

int tf_answer_eval(const tf_problem *p, tf_answer *a, tf_error *err) {
  if (tf_problem_eval_point(p, a->choose, a->counts, &a->point, err))
    return -1;
  for (int k = 0; k < p->ncounts; k++)
    if (tf_closed_form(p, a->combo, a->counts, k, &a->closed[k], err))
      return -1;
  return 0;
}

/* The answer's point, re-evaluated from the workset's expressions, fits. */
static int verify_fits(const tf_problem *p, tf_answer *a, tf_error *err) {
  if (tf_answer_eval(p, a, err))
    return -1;
  char why[256];
  if (!tf_point_fits(p, &a->point, why, sizeof why))
    return tf_error_set(err, TF_EINTERNAL, NULL, "the solver's answer failed exact verification: %s", why);
  return 0;
}

int tf_verify(const tf_problem *p, tf_answer *a, const double *objval, tf_error *err) {
  if (verify_fits(p, a, err))
    return -1;
  for (size_t o = 0; objval && o < p->nobjective; o++)
    if ((double)a->point.objective[o] != objval[o])
      return tf_error_set(err, TF_EINTERNAL, NULL,
                          "the solver's answer failed exact verification: '%s' is %lld, the solver reported %.17g",
                          p->objective[o].text, (long long)a->point.objective[o], objval[o]);
  return 0;
}

int tf_certify(const tf_problem *p, tf_answer *a, tf_error *err) {
  if (verify_fits(p, a, err))
    return -1;
  for (size_t o = 0; o < p->nobjective; o++) {
    const int64_t *f = tf_problem_obj(p, a->combo, o);
    int64_t v = f[0], t;
    for (int k = 0; k < p->ncounts; k++)
      if (tf_checked_mul(f[1 + k], a->counts[k], &t) || tf_checked_add(v, t, &v))
        return tf_error_set(err, TF_EINPUT, "@objective", "integer overflow evaluating '%s' at the optimum",
                            p->objective[o].text);
    if (v != a->point.objective[o])
      return tf_error_set(err, TF_EINTERNAL, NULL,
                          "the exact search's answer failed verification: '%s' is %lld, the search ranked it %lld",
                          p->objective[o].text, (long long)a->point.objective[o], (long long)v);
  }
  return 0;
}
