#include "closed.h"

#include <stdio.h>
#include <string.h>

/* Usage of memory m that does not scale with count k, with the other
 * counts at their values; constant buffers count rounded, as allocated. */
static int split_memory(const tf_problem *p, size_t combo, const int64_t *counts, int k, int m, int64_t *resident,
                        int64_t *per_stage) {
  *resident = 0;
  *per_stage = 0;
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (p->workset->buffers[b].memory != m)
      continue;
    const int64_t *a = tf_problem_buf(p, combo, b);
    int64_t fixed = a[0], t;
    for (int i = 0; i < p->ncounts; i++)
      if (i != k && (tf_checked_mul(a[1 + i], counts[i], &t) || tf_checked_add(fixed, t, &fixed)))
        return -1;
    if (a[1 + k] == 0 && p->align[b] > 1 && tf_checked_mul(tf_cdiv(fixed, p->align[b]), p->align[b], &fixed))
      return -1;
    if (tf_checked_add(*resident, fixed, resident) || tf_checked_add(*per_stage, a[1 + k], per_stage))
      return -1;
  }
  return 0;
}

static void explain(const tf_problem *p, size_t combo, const int64_t *counts, int k, tf_closed *out) {
  if (counts[k] >= out->value) {
    snprintf(out->reason, sizeof out->reason,
             "the closed form is more conservative: another memory or a negative per-stage term limits it");
    return;
  }
  /* why can the exact answer not take one more? */
  int64_t at[TF_MAX_COUNTS];
  memcpy(at, counts, sizeof at);
  at[k] = counts[k] + 1;
  char why[200];
  int fits = tf_problem_why(p, p->combo + combo * p->nchoose, at, why, sizeof why);
  const char *name = p->count_names[k];
  if (fits < 0)
    snprintf(out->reason, sizeof out->reason, "%s = %lld cannot be evaluated: %s", name, (long long)at[k], why);
  else if (!fits)
    snprintf(out->reason, sizeof out->reason, "%s = %lld %s, a constraint the closed form leaves out", name,
             (long long)at[k], why);
  else
    snprintf(out->reason, sizeof out->reason, "%s = %lld also fits: the objective does not maximize %s", name,
             (long long)at[k], name);
}

int tf_closed_form(const tf_problem *p, size_t combo, const int64_t *counts, int k, tf_closed *out,
                   tf_error *err) {
  memset(out, 0, sizeof *out);
  out->value = p->count_hi[k];
  out->memory = -1;
  for (int m = 0; m < TF_NMEM; m++) {
    int64_t resident, per_stage;
    if (split_memory(p, combo, counts, k, m, &resident, &per_stage))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow in the closed form of %s", p->count_names[k]);
    if (per_stage <= 0)
      continue;
    int64_t cap = m == TF_MEM_SMEM ? p->smem_limit[combo] : p->capacity[m];
    int64_t room;
    if (resident == INT64_MIN || tf_checked_add(cap, -resident, &room))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow in the closed form of %s", p->count_names[k]);
    int64_t depth = tf_fdiv(room, per_stage);
    if (!out->applies || depth < out->value || out->memory < 0) {
      if (!out->applies || depth < out->value) {
        out->value = depth;
        out->memory = m;
        out->resident = resident;
        out->capacity = cap;
        out->per_stage = per_stage;
      }
    }
    out->applies = 1;
  }
  if (!out->applies)
    return 0;
  if (out->value > p->count_hi[k])
    out->value = p->count_hi[k];
  out->agrees = out->value == counts[k];
  if (!out->agrees)
    explain(p, combo, counts, k, out);
  return 0;
}
