/* The property test's exhaustive reference (tests/oracle_ref.h). */
#include "tests/oracle_ref.h"

#include <string.h>

typedef __int128 i128;

#define LIMIT ((i128)1 << 52) /* JSON numbers stay exact, int64 never overflows */

static i128 floor_div(i128 a, i128 b) {
  i128 q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
static i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }
static i128 align_up(i128 x, i128 a) { return ceil_div(x, a) * a; }

struct env {
  const pg_problem *p;
  const int64_t *choose, *counts;
  const i128 *used; /* the memories' totals, once the buffers are summed */
  int out_of_range;
};

static i128 eval(struct env *e, int n) {
  const pg_node *x = &e->p->node[n];
  i128 v;
  switch (x->op) {
  case PG_CONST: return x->v;
  case PG_CHOOSE: return e->choose[x->v];
  case PG_COUNT: return e->counts[x->v];
  case PG_USED: return e->used[x->v];
  case PG_SLACK: return pg_capacity(e->p, (int)x->v) - e->used[x->v];
  default: break;
  }
  i128 a = eval(e, x->a), b = eval(e, x->b);
  switch (x->op) {
  case PG_ADD: v = a + b; break;
  case PG_SUB: v = a - b; break;
  case PG_MUL: v = a * b; break;
  case PG_CDIV: v = ceil_div(a, b); break;
  case PG_FDIV: v = floor_div(a, b); break;
  case PG_MIN: v = a < b ? a : b; break;
  default: v = a > b ? a : b; break;
  }
  if (v > LIMIT || v < -LIMIT)
    e->out_of_range = 1;
  return v;
}

/* The limits an occupancy o puts on one CTA; NULL when it fits. */
static const char *occupancy_breaks(const pg_problem *p, i128 o, const i128 *used) {
  const pg_machine *m = &p->m;
  if (o < 1)
    return "occupancy below 1";
  i128 smem = floor_div(floor_div(m->smem_per_sm, o), m->smem_granule) * m->smem_granule - m->smem_reserved;
  if (used[PG_SMEM] > smem)
    return "smem over the occupancy's share";
  if (o > m->ctas_per_sm)
    return "occupancy over CTAs per SM";
  if (p->threads > 0 && o * p->threads > m->threads_per_sm)
    return "occupancy over threads per SM";
  if (p->threads > 0 && used[PG_RF] > 0 &&
      o * ceil_div(p->threads, 32) * align_up(32 * used[PG_RF], m->rf_warp_granule) > m->rf_per_sm)
    return "occupancy over registers per SM";
  if (used[PG_TMEM] > 0) {
    i128 alloc = 1;
    while (alloc < used[PG_TMEM])
      alloc *= 2;
    if (alloc < m->tmem_min_alloc)
      alloc = m->tmem_min_alloc;
    if (o * alloc > pg_capacity(p, PG_TMEM))
      return "occupancy over TMEM columns";
  }
  return NULL;
}

static int holds(int rel, i128 a, i128 b) {
  switch (rel) {
  case PG_LE: return a <= b;
  case PG_LT: return a < b;
  case PG_GE: return a >= b;
  case PG_GT: return a > b;
  default: return a == b;
  }
}

/* Memory totals, capacities, occupancy and requires; NULL when it fits.
 * A memory holds its always-live buffers and, over them, one phase at a
 * time: its total is the always-live sum plus the largest phase's sum. */
static const char *breaks(const pg_problem *p, struct env *e, i128 *used, int64_t *alloc) {
  i128 phase[PG_NMEM][PG_MAX_LIFETIMES] = {{0}};
  for (int b = 0; b < p->nbuffers; b++) {
    i128 size = eval(e, p->buf[b].size);
    if (size < 0)
      e->out_of_range = 1; /* the generator keeps sizes >= 0 */
    i128 a = align_up(size, p->buf[b].align);
    alloc[b] = a > LIMIT ? (e->out_of_range = 1, 0) : (int64_t)a;
    if (p->buf[b].life >= 0)
      phase[p->buf[b].mem][p->buf[b].life] += a;
    else
      used[p->buf[b].mem] += a;
  }
  for (int m = 0; m < PG_NMEM; m++) {
    i128 largest = 0;
    for (int q = 0; q < PG_MAX_LIFETIMES; q++)
      largest = phase[m][q] > largest ? phase[m][q] : largest;
    used[m] += largest;
  }
  for (int m = 0; m < PG_NMEM; m++)
    if (used[m] > pg_capacity(p, m))
      return m == PG_SMEM ? "smem over capacity" : m == PG_TMEM ? "tmem over capacity" : "rf over capacity";
  const char *why = p->uses_occupancy ? occupancy_breaks(p, e->choose[PG_OCC], used) : NULL;
  if (why)
    return why;
  for (int i = 0; i < p->nrequire; i++)
    if (!holds(p->req[i].rel, eval(e, p->req[i].lhs), eval(e, p->req[i].rhs)))
      return "violates a require";
  return NULL;
}

int ref_eval(const pg_problem *p, const int64_t *choose, const int64_t *counts, ref_point *out) {
  i128 used[PG_NMEM] = {0};
  struct env e = {p, choose, counts, used, 0};
  memset(out, 0, sizeof *out);
  memcpy(out->choose, choose, sizeof out->choose);
  memcpy(out->counts, counts, sizeof out->counts);
  for (int k = 0; k < p->ncounts; k++) {
    int64_t lo, hi;
    ref_count_bounds(p, k, &lo, &hi);
    if (counts[k] < lo || counts[k] > hi)
      out->why = "a count outside its bounds";
  }
  const char *why = breaks(p, &e, used, out->alloc);
  if (!out->why)
    out->why = why;
  out->fits = out->why == NULL;
  for (int m = 0; m < PG_NMEM; m++) {
    if (used[m] > LIMIT)
      e.out_of_range = 1;
    out->used[m] = (int64_t)used[m];
  }
  int list = pg_objectives(p);
  for (int o = 0; o < p->nobj[list]; o++)
    out->objective[o] = (int64_t)eval(&e, p->obj[list][o].expr);
  return e.out_of_range ? -1 : 0;
}

int ref_compare(const pg_problem *p, const int64_t *a, const int64_t *b) {
  int list = pg_objectives(p);
  for (int o = 0; o < p->nobj[list]; o++) {
    if (a[o] == b[o])
      continue;
    int better = p->obj[list][o].max ? a[o] > b[o] : a[o] < b[o];
    return better ? 1 : -1;
  }
  return 0;
}

int ref_choose_values(const pg_problem *p, int slot, int64_t *values) {
  for (int i = 0; i < p->nfix; i++)
    if (!p->fix[i].is_count && p->fix[i].var == slot)
      return values[0] = p->fix[i].v, 1;
  if (p->has_domain[slot]) {
    memcpy(values, p->domain[slot], (size_t)p->ndomain[slot] * sizeof *values);
    return p->ndomain[slot];
  }
  if (slot == PG_OCC) {
    int n = 0;
    for (int64_t v = 1; v <= p->m.ctas_per_sm && n < PG_MAX_VALUES; v++)
      values[n++] = v;
    return n;
  }
  memcpy(values, p->dom[slot], (size_t)p->ndom[slot] * sizeof *values);
  return p->ndom[slot];
}

void ref_count_bounds(const pg_problem *p, int k, int64_t *lo, int64_t *hi) {
  *lo = p->lo[k];
  *hi = p->hi[k];
  for (int i = 0; i < p->nfix; i++)
    if (p->fix[i].is_count && p->fix[i].var == k)
      *lo = *hi = p->fix[i].v;
}

/* Keeps the best `top` objective vectors seen, best first. */
static void keep_top(const pg_problem *p, ref_result *r, int top, const int64_t *v) {
  int at = r->ntop;
  while (at > 0 && ref_compare(p, v, r->top[at - 1]) > 0)
    at--;
  if (at >= top)
    return;
  int last = r->ntop < top ? r->ntop : top - 1;
  memmove(r->top[at + 1], r->top[at], (size_t)(last - at) * sizeof r->top[0]);
  memcpy(r->top[at], v, sizeof r->top[0]);
  if (r->ntop < top)
    r->ntop++;
}

static void visit(const pg_problem *p, int top, const int64_t *choose, const int64_t *counts, ref_result *r) {
  ref_point pt;
  if (ref_eval(p, choose, counts, &pt))
    r->out_of_range = 1;
  r->npoints++;
  if (!pt.fits)
    return;
  r->nfeasible++;
  int c = r->nfeasible == 1 ? 1 : ref_compare(p, pt.objective, r->best.objective);
  if (c > 0) {
    r->best = pt;
    r->nbest = 0;
  }
  if (c >= 0)
    r->nbest++;
  keep_top(p, r, top, pt.objective);
}

/* An odometer over the choose slots, then the counts. */
void ref_solve(const pg_problem *p, int top, ref_result *r) {
  int64_t values[PG_MAX_CHOOSE + 1][PG_MAX_VALUES], lo[PG_MAX_COUNTS], hi[PG_MAX_COUNTS];
  int n[PG_MAX_CHOOSE + 1] = {0}, at[PG_MAX_CHOOSE + 1] = {0};
  int64_t choose[PG_MAX_CHOOSE + 1] = {0}, counts[PG_MAX_COUNTS] = {0};
  memset(r, 0, sizeof *r);
  r->nobjective = p->nobj[pg_objectives(p)];
  for (int i = 0; i <= PG_OCC; i++)
    if (i < p->nchoose || (i == PG_OCC && p->uses_occupancy))
      if ((n[i] = ref_choose_values(p, i, values[i])) == 0)
        return;
  for (int k = 0; k < p->ncounts; k++)
    ref_count_bounds(p, k, &lo[k], &hi[k]);
  for (;;) {
    for (int i = 0; i <= PG_OCC; i++)
      choose[i] = n[i] ? values[i][at[i]] : 0;
    for (int k = 0; k < p->ncounts; k++)
      counts[k] = lo[k];
    for (int k = 0; k < p->ncounts && lo[k] > hi[k]; k++)
      return; /* an empty count range: nothing fits */
    for (;;) {
      visit(p, top < 1 ? 1 : top, choose, counts, r);
      int k = 0;
      while (k < p->ncounts && ++counts[k] > hi[k])
        counts[k] = lo[k], k++;
      if (k == p->ncounts)
        break;
    }
    int i = 0;
    while (i <= PG_OCC && (n[i] == 0 || ++at[i] >= n[i]))
      at[i] = 0, i++;
    if (i > PG_OCC)
      return;
  }
}
