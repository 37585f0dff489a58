/* The property test's exhaustive reference (tests/oracle_ref.h). */
#include "tests/oracle_ref.h"

#include <stdlib.h>
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
  const int *place;
  const i128 *used; /* the memories' totals, once the buffers are summed */
  int out_of_range;
};

/* placement_order: each placed buffer's index among its candidates, the
 * first placed buffer the most significant digit. */
static i128 placement_order(const pg_problem *p, const int *place) {
  i128 v = 0;
  for (int b = 0; b < p->nbuffers; b++) {
    int mems[PG_NMEM], n = p->buf[b].nplace ? pg_candidates(p, b, mems) : 0, at = 0;
    for (int i = 0; i < n; i++)
      if (mems[i] == place[b])
        at = i;
    if (n)
      v = v * n + at;
  }
  return v;
}

static i128 eval(struct env *e, int n) {
  const pg_node *x = &e->p->node[n];
  i128 v;
  switch (x->op) {
  case PG_CONST: return x->v;
  case PG_CHOOSE: return e->choose[x->v];
  case PG_COUNT: return e->counts[x->v];
  case PG_USED: return e->used[x->v];
  case PG_SLACK: return pg_capacity(e->p, (int)x->v) - e->used[x->v];
  case PG_PLACED: return e->place[x->v] == x->a;
  case PG_LET: return eval(e, e->p->let[x->v]);
  case PG_PORDER: return placement_order(e->p, e->place);
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

/* What buffer b takes of its memory at the point: its size rounded to its
 * align, or, aliasing a buffer in the same memory, its excess over that
 * buffer's unrounded size, rounded. */
static i128 charge(const pg_problem *p, struct env *e, int b) {
  int mem = e->place[b], t = p->buf[b].alias;
  i128 size = eval(e, pg_size_in(p, b, mem));
  if (size < 0)
    e->out_of_range = 1; /* the generator keeps sizes >= 0 */
  if (t >= 0 && e->place[t] == mem) {
    i128 host = eval(e, pg_size_in(p, t, mem));
    size = size > host ? size - host : 0;
  }
  return align_up(size, p->buf[b].align);
}

/* Memory totals, capacities, occupancy and requires; NULL when it fits.
 * A memory holds its always-live buffers and, over them, one phase at a
 * time: its total is the always-live sum plus the largest phase's sum. */
static const char *breaks(const pg_problem *p, struct env *e, i128 *used, int64_t *alloc) {
  i128 phase[PG_NMEM][PG_MAX_LIFETIMES] = {{0}};
  for (int b = 0; b < p->nbuffers; b++) {
    i128 a = charge(p, e, b);
    alloc[b] = a > LIMIT ? (e->out_of_range = 1, 0) : (int64_t)a;
    if (p->buf[b].life >= 0)
      phase[e->place[b]][p->buf[b].life] += a;
    else
      used[e->place[b]] += a;
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

/* How many objectives compare: the shown ones, and placement_order. */
static int full_objectives(const pg_problem *p) { return p->nobj[pg_objectives(p)] + pg_has_placement_tie_break(p); }

int ref_eval(const pg_problem *p, const int64_t *choose, const int64_t *counts, const int *place, ref_point *out) {
  i128 used[PG_NMEM] = {0};
  struct env e = {p, choose, counts, place, used, 0};
  memset(out, 0, sizeof *out);
  memcpy(out->choose, choose, sizeof out->choose);
  memcpy(out->counts, counts, sizeof out->counts);
  memcpy(out->place, place, sizeof out->place);
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
  int list = pg_objectives(p), o = 0;
  for (; o < p->nobj[list]; o++)
    out->objective[o] = (int64_t)eval(&e, p->obj[list][o].expr);
  if (pg_has_placement_tie_break(p))
    out->objective[o] = (int64_t)placement_order(p, place);
  return e.out_of_range ? -1 : 0;
}

int ref_compare(const pg_problem *p, const int64_t *a, const int64_t *b) {
  int list = pg_objectives(p), n = p->nobj[list];
  for (int o = 0; o < full_objectives(p); o++) {
    if (a[o] == b[o])
      continue;
    int better = o < n && p->obj[list][o].max ? a[o] > b[o] : a[o] < b[o]; /* placement_order: min */
    return better ? 1 : -1;
  }
  return 0;
}

int ref_same_config(const pg_problem *p, const ref_point *a, const ref_point *b) {
  for (int i = 0; i <= PG_OCC; i++)
    if (a->choose[i] != b->choose[i])
      return 0;
  if (!memcmp(a->place, b->place, sizeof a->place))
    return 1;
  ref_point moved;
  ref_eval(p, b->choose, b->counts, a->place, &moved);
  if (!moved.fits)
    return 0;
  for (int o = 0; o < p->nobj[pg_objectives(p)]; o++) /* the shown objectives */
    if (moved.objective[o] != b->objective[o])
      return 0;
  return 1;
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

/* The feasible points, for --top of configurations. */
struct kept {
  ref_point *pt;
  size_t n, cap;
};

static void visit(const pg_problem *p, int top, const ref_point *pt, ref_result *r, struct kept *kept) {
  r->npoints++;
  if (!pt->fits)
    return;
  r->nfeasible++;
  int c = r->nfeasible == 1 ? 1 : ref_compare(p, pt->objective, r->best.objective);
  if (c > 0) {
    r->best = *pt;
    r->nbest = 0;
  }
  if (c >= 0)
    r->nbest++;
  if (!kept) {
    keep_top(p, r, top, pt->objective);
  } else if (kept->n == REF_MAX_KEPT) {
    r->out_of_range = 1;
  } else {
    if (kept->n == kept->cap) {
      kept->cap = kept->cap ? 2 * kept->cap : 1024;
      kept->pt = realloc(kept->pt, kept->cap * sizeof *kept->pt);
      if (!kept->pt)
        abort();
    }
    kept->pt[kept->n++] = *pt;
  }
}

/* Sorts points best first (a merge sort: stable, no comparator state). */
static void sort_points(const pg_problem *p, ref_point *pt, ref_point *tmp, size_t n) {
  if (n < 2)
    return;
  size_t h = n / 2, i = 0, j = h, k = 0;
  sort_points(p, pt, tmp, h);
  sort_points(p, pt + h, tmp, n - h);
  while (i < h || j < n)
    tmp[k++] = j >= n || (i < h && ref_compare(p, pt[j].objective, pt[i].objective) <= 0) ? pt[i++] : pt[j++];
  memcpy(pt, tmp, n * sizeof *pt);
}

/* The best `top` configurations: in objective order, each point that is
 * no listed one's configuration is listed. */
static void top_configs(const pg_problem *p, int top, struct kept *kept, ref_result *r) {
  ref_point *tmp = malloc((kept->n + 1) * sizeof *tmp), listed[REF_MAX_TOP];
  if (!tmp)
    abort();
  sort_points(p, kept->pt, tmp, kept->n);
  free(tmp);
  r->ntop = 0;
  for (size_t i = 0; i < kept->n && r->ntop < top; i++) {
    int j = 0;
    while (j < r->ntop && !ref_same_config(p, &listed[j], &kept->pt[i]))
      j++;
    if (j == r->ntop) {
      listed[r->ntop] = kept->pt[i];
      memcpy(r->top[r->ntop++], kept->pt[i].objective, sizeof r->top[0]);
    }
  }
}

/* The variables the odometer turns: the choose slots in use, then each
 * placed buffer over its candidates. */
struct dims {
  int64_t values[PG_MAX_CHOOSE + 1][PG_MAX_VALUES];
  int n[PG_MAX_CHOOSE + 1];
  int mems[PG_MAX_BUFFERS][PG_NMEM], nmem[PG_MAX_BUFFERS];
};

/* Advances the choose and placement odometer; 0 when it wrapped. */
static int advance(const pg_problem *p, const struct dims *d, int *at, int *pat) {
  for (int i = 0; i <= PG_OCC; i++) {
    if (d->n[i] == 0) /* a slot the problem does not use */
      continue;
    if (++at[i] < d->n[i])
      return 1;
    at[i] = 0;
  }
  for (int b = 0; b < p->nbuffers; b++) {
    if (++pat[b] < d->nmem[b])
      return 1;
    pat[b] = 0;
  }
  return 0;
}

/* Every count vector of one combination. */
static void visit_counts(const pg_problem *p, int top, const int64_t *choose, const int *place, const int64_t *lo,
                         const int64_t *hi, ref_result *r, struct kept *kept) {
  int64_t counts[PG_MAX_COUNTS] = {0};
  for (int k = 0; k < p->ncounts; k++)
    counts[k] = lo[k];
  for (;;) {
    ref_point pt;
    if (ref_eval(p, choose, counts, place, &pt))
      r->out_of_range = 1;
    visit(p, top, &pt, r, kept);
    int k = 0;
    while (k < p->ncounts && ++counts[k] > hi[k])
      counts[k] = lo[k], k++;
    if (k == p->ncounts)
      return;
  }
}

void ref_solve(const pg_problem *p, int top, ref_result *r) {
  static struct dims d;
  int64_t lo[PG_MAX_COUNTS], hi[PG_MAX_COUNTS], choose[PG_MAX_CHOOSE + 1] = {0};
  int at[PG_MAX_CHOOSE + 1] = {0}, pat[PG_MAX_BUFFERS] = {0}, place[PG_MAX_BUFFERS] = {0};
  struct kept kept = {0}, *keep = top > 0 && !p->top_points ? &kept : NULL;
  memset(r, 0, sizeof *r);
  memset(&d, 0, sizeof d);
  r->nobjective = p->nobj[pg_objectives(p)];
  r->nfull = full_objectives(p);
  for (int i = 0; i <= PG_OCC; i++)
    if (i < p->nchoose || (i == PG_OCC && p->uses_occupancy))
      if ((d.n[i] = ref_choose_values(p, i, d.values[i])) == 0)
        return;
  for (int b = 0; b < p->nbuffers; b++)
    if ((d.nmem[b] = pg_candidates(p, b, d.mems[b])) == 0)
      return;
  for (int k = 0; k < p->ncounts; k++) {
    ref_count_bounds(p, k, &lo[k], &hi[k]);
    if (lo[k] > hi[k])
      return; /* an empty count range: nothing fits */
  }
  do {
    for (int i = 0; i <= PG_OCC; i++)
      choose[i] = d.n[i] ? d.values[i][at[i]] : 0;
    for (int b = 0; b < p->nbuffers; b++)
      place[b] = d.mems[b][pat[b]];
    visit_counts(p, top < 1 ? 1 : top, choose, place, lo, hi, r, keep);
  } while (advance(p, &d, at, pat));
  if (keep) {
    top_configs(p, top, &kept, r);
    free(kept.pt);
  }
}

int ref_some_placement_fits(const pg_problem *p, const int64_t *choose, const int64_t *counts) {
  int mems[PG_MAX_BUFFERS][PG_NMEM], nmem[PG_MAX_BUFFERS], pat[PG_MAX_BUFFERS] = {0}, place[PG_MAX_BUFFERS];
  for (int b = 0; b < p->nbuffers; b++)
    if ((nmem[b] = pg_candidates(p, b, mems[b])) == 0)
      return 0;
  for (;;) {
    ref_point pt;
    for (int b = 0; b < p->nbuffers; b++)
      place[b] = mems[b][pat[b]];
    ref_eval(p, choose, counts, place, &pt);
    if (pt.fits)
      return 1;
    int b = 0;
    while (b < p->nbuffers && ++pat[b] >= nmem[b])
      pat[b++] = 0;
    if (b == p->nbuffers)
      return 0;
  }
}
