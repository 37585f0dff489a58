#include "problem.h"

#include <stdio.h>
#include <string.h>

#include "problem_internal.h"

/* Occupancy: how many CTAs of a combination fit on one SM.  SMEM is a
 * constraint of the ILP (tf_problem_smem_for_occupancy bounds one CTA);
 * registers, threads, TMEM and the CTA limit do not depend on counts and
 * are checked per combination (tf_occupancy_fits). */

int64_t tf_problem_smem_for_occupancy(const tf_problem *p, int64_t ctas) {
  const tf_machine *m = p->machine;
  int64_t g = m->smem.granule > 0 ? m->smem.granule : 1;
  int64_t limit = tf_fdiv(tf_fdiv(m->smem.per_sm, ctas), g) * g - m->smem.reserved_per_cta;
  return limit < p->capacity[TF_MEM_SMEM] ? limit : p->capacity[TF_MEM_SMEM];
}

/* Total of a memory's buffers when it does not depend on a count. */
/* a * b for a, b >= 0, saturating at INT64_MAX: past it nothing fits anyway */
static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return tf_checked_mul(a, b, &r) ? INT64_MAX : r;
}

static int count_free_total(const tf_problem *p, const int64_t *sizes, size_t stride, int m, int64_t *total) {
  *total = 0;
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (p->workset->buffers[b].memory != m)
      continue;
    const int64_t *a = sizes + b * stride;
    for (int k = 0; k < p->ncounts; k++)
      if (a[1 + k])
        return -1;
    int64_t v = a[0] > 0 ? sat_mul(tf_cdiv(a[0], p->align[b]), p->align[b]) : 0;
    if (tf_checked_add(*total, v, total))
      *total = INT64_MAX;
  }
  return 0;
}

/* The limits on CTAs per SM other than SMEM, which must not depend on a
 * count: 0 and a reason when `ctas` exceeds one, 1 when it fits, -1 on an
 * error. */
int tf_occupancy_fits(const tf_problem *p, int64_t ctas, const int64_t *sizes, char *why, size_t size,
                          tf_error *err) {
  const tf_machine *m = p->machine;
  size_t stride = tf_problem_stride(p);
  int64_t regs, cols;
  if (count_free_total(p, sizes, stride, TF_MEM_RF, &regs) || count_free_total(p, sizes, stride, TF_MEM_TMEM, &cols))
    return tf_error_set(err, TF_EINPUT, "occupancy",
                        "occupancy needs register and TMEM use that does not depend on a count variable");
  if (ctas > m->limits.ctas_per_sm)
    return snprintf(why, size, "occupancy %lld is above the %lld CTAs an SM holds", (long long)ctas,
                    (long long)m->limits.ctas_per_sm), 0;
  if (p->threads > 0 && sat_mul(ctas, p->threads) > m->limits.threads_per_sm)
    return snprintf(why, size, "occupancy %lld needs %lld threads per SM, above %lld", (long long)ctas,
                    (long long)sat_mul(ctas, p->threads), (long long)m->limits.threads_per_sm), 0;
  if (p->threads > 0 && regs > 0) {
    int64_t g = m->rf.warp_granule > 0 ? m->rf.warp_granule : 1;
    int64_t per_cta = sat_mul(tf_cdiv(p->threads, 32), sat_mul(tf_cdiv(sat_mul(regs, 32), g), g));
    if (sat_mul(ctas, per_cta) > m->rf.per_sm)
      return snprintf(why, size, "occupancy %lld needs %lld registers per SM, above %lld", (long long)ctas,
                      (long long)sat_mul(ctas, per_cta), (long long)m->rf.per_sm), 0;
  }
  if (cols > 0) {
    int64_t alloc = 1;
    while (alloc < cols && alloc < ((int64_t)1 << 62))
      alloc *= 2;
    if (alloc < m->tmem.min_alloc_columns)
      alloc = m->tmem.min_alloc_columns;
    if (sat_mul(ctas, alloc) > p->capacity[TF_MEM_TMEM])
      return snprintf(why, size, "occupancy %lld needs %lld TMEM columns per SM (%lld allocated per CTA), above %lld",
                      (long long)ctas, (long long)sat_mul(ctas, alloc), (long long)alloc,
                      (long long)p->capacity[TF_MEM_TMEM]), 0;
  }
  return 1;
}

