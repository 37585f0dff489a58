#include "fits.h"

int tf_fits(const tf_problem *p, size_t c, const int64_t *counts) {
  int64_t used[TF_NMEM];
  int ok = tf_memory_use(p, c, counts, used);
  if (ok <= 0)
    return ok;
  for (int m = 0; m < TF_NMEM; m++)
    if (used[m] > tf_memory_capacity(p, m, c))
      return 0;
  for (size_t r = 0; r < p->nrequire; r++) {
    int64_t v;
    if (tf_problem_form_at(p, tf_problem_row(p, c, r), counts, &v))
      return -1;
    if (p->row_kind[r] == TF_ROW_LE ? v > 0 : p->row_kind[r] == TF_ROW_GE ? v < 0 : v != 0)
      return 0;
  }
  return 1;
}
