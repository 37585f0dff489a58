#include "model/bind/problem.h"

#include <stdio.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/problem_internal.h"

/* Occupancy: how many CTAs of a combination fit on one SM.  SMEM is a
 * constraint of the ILP (tf_memory_capacity bounds one CTA); registers,
 * threads, TMEM and the CTA limit do not depend on counts and are checked
 * per combination here.  The per-SM rules are model/bind/memory.c's. */

/* a * b for a, b >= 0, saturating at INT64_MAX: past it nothing fits anyway */
static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return tf_checked_mul(a, b, &r) ? INT64_MAX : r;
}

/* A memory's use, which must not depend on a count: -1 when it does. */
static int count_free_use(const tf_problem *p, const int64_t *choose, const int64_t *sizes, int m, int64_t *use) {
  size_t stride = tf_problem_stride(p);
  for (size_t b = 0; b < p->nbuffers; b++)
    for (int k = 0; k < p->ncounts && tf_memory_of_at(p, b, choose) == m; k++)
      if (sizes[b * stride + 1 + k])
        return -1;
  if (tf_memory_use_range_forms(p, m, choose, sizes, p->count_lo, p->count_hi, use, NULL))
    *use = INT64_MAX;
  return 0;
}

/* ctas CTAs of `use` units of a memory occupancy checks per SM (one
 * whose per-CTA capacity it does not lower) against what an SM holds: 1
 * fit, 0 with a reason. */
static int sm_fits(const tf_problem *p, int mem, int64_t ctas, int64_t use, int64_t threads, char *why, size_t size) {
  const tf_machine *m = p->machine;
  int64_t per_cta = tf_memory_sm_footprint(m, mem, use, threads), need = sat_mul(ctas, per_cta);
  int64_t cap = tf_memory_sm_capacity(m, mem);
  if (need <= cap)
    return 1;
  snprintf(why, size, "occupancy %lld needs %lld %s per SM, above %lld (%lld allocated per CTA)", (long long)ctas,
           (long long)need, tf_memory_sm_use(mem), (long long)cap, (long long)per_cta);
  return 0;
}

/* A workset's "cta_registers" let (model/bind/problem.c find_threads): the
 * registers one CTA holds, its warpgroups' setmaxnreg split, against the
 * SM's register file: 1 fits, 0 not (why), -1 the workset has none (or it
 * is 0: registers not modelled), and the per-thread rule applies. */
static int launch_registers_fit(const tf_problem *p, int64_t ctas, char *why, size_t size) {
  int64_t per_cta = p->cta_regs_sym >= 0 ? p->syms[p->cta_regs_sym].c : 0;
  if (per_cta <= 0)
    return -1;
  int64_t need = sat_mul(ctas, per_cta), cap = tf_memory_sm_capacity(p->machine, TF_MEM_RF);
  if (need <= cap)
    return 1;
  snprintf(why, size, "occupancy %lld needs %lld registers per SM, above %lld (cta_registers %lld per CTA)",
           (long long)ctas, (long long)need, (long long)cap, (long long)per_cta);
  return 0;
}

/* The memories occupancy checks per SM, each with a use that must not
 * depend on a count: 0 they fit, 1 one does not (why), -1 a use depends on
 * a count (why: that memory's name). */
static int sm_memories_fit(const tf_problem *p, const int64_t *choose, const int64_t *sizes, int64_t threads, char *why,
                           size_t size) {
  int64_t ctas = choose[p->occupancy], use[TF_NMEM];
  for (int mem = 0; mem < TF_NMEM; mem++)
    if (tf_memory_sm_use(mem) && count_free_use(p, choose, sizes, mem, &use[mem]))
      return snprintf(why, size, "%s", tf_memory_name(mem)), -1;
  int launch = launch_registers_fit(p, ctas, why, size);
  if (launch == 0)
    return 1;
  for (int mem = 0; mem < TF_NMEM; mem++)
    if (tf_memory_sm_use(mem) && use[mem] > 0 && !(mem == TF_MEM_RF && launch == 1) && /* charged at launch */
        !sm_fits(p, mem, ctas, use[mem], threads, why, size))
      return 1;
  return 0;
}

int tf_occupancy_fits(const tf_problem *p, const int64_t *choose, const int64_t *sizes, char *why, size_t size,
                      tf_error *err) {
  const tf_machine *m = p->machine;
  int64_t ctas = choose[p->occupancy];
  /* a "threads" let is evaluated with the combination's lets (its rf sizes use it) */
  int64_t threads = p->threads_sym >= 0 ? p->syms[p->threads_sym].c : p->threads;
  char why_all[160] = "";
  int sm = sm_memories_fit(p, choose, sizes, threads, why_all, sizeof why_all);
  if (sm < 0)
    return tf_error_set(err, TF_EINPUT, "occupancy",
                        "occupancy checks %s per SM, so its use must not depend on a count variable", why_all);
  if (ctas < 1)
    return snprintf(why, size, "occupancy %lld: at least one CTA must fit on an SM", (long long)ctas), 0;
  if (ctas > m->limits.ctas_per_sm)
    return snprintf(why, size, "occupancy %lld is above the %lld CTAs an SM holds", (long long)ctas,
                    (long long)m->limits.ctas_per_sm),
           0;
  if (threads > 0 && sat_mul(ctas, threads) > m->limits.threads_per_sm)
    return snprintf(why, size, "occupancy %lld needs %lld threads per SM, above %lld", (long long)ctas,
                    (long long)sat_mul(ctas, threads), (long long)m->limits.threads_per_sm),
           0;
  if (sm)
    return snprintf(why, size, "%s", why_all), 0;
  return 1;
}
