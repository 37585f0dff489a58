#include "closed.h"

#include "model/bind/memory.h"

#include <stdio.h>
#include <string.h>

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

int tf_closed_form(const tf_problem *p, size_t combo, const int64_t *counts, int k, tf_closed *out, tf_error *err) {
  memset(out, 0, sizeof *out);
  out->value = p->count_hi[k];
  out->memory = -1;
  for (int mr = 0; mr < TF_NMEM * tf_memory_nrows(p); mr++) {
    int m = mr / tf_memory_nrows(p), r = mr % tf_memory_nrows(p);
    int64_t resident, per_stage;
    /* usage that does not scale with count k, the others at their values;
     * one line per row of the memory (its use is the largest row) */
    if (tf_memory_line(p, combo, m, r, counts, k, &resident, &per_stage))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow in the closed form of %s", p->count_names[k]);
    if (per_stage <= 0)
      continue;
    int64_t cap = tf_memory_capacity(p, m, combo);
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
  out->floor_value = out->value;
  if (out->value > p->count_hi[k])
    out->value = p->count_hi[k], out->capped = 1;
  out->agrees = out->value == counts[k];
  if (!out->agrees)
    explain(p, combo, counts, k, out);
  return 0;
}
