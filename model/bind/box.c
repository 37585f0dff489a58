#include "model/bind/box.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/place_bind.h"
#include "model/bind/problem_internal.h"
#include "model/bind/reuse.h"
#include "model/core/alloc.h"
#include "model/input/lets.h"

#define OPAQUE TF_CBOX_OPAQUE

static tf_wide wmin(tf_wide a, tf_wide b) { return a < b ? a : b; }
static tf_wide wmax(tf_wide a, tf_wide b) { return a > b ? a : b; }

void tf_ival_range(const tf_ival *v, int n, const int64_t *lo, const int64_t *hi, tf_wide *mn, tf_wide *mx) {
  tf_wide a = v->lo[0], b = v->hi[0];
  for (int i = 0; i < n; i++) {
    if (!v->lo[1 + i] && !v->hi[1 + i])
      continue;
    tf_wide p[4] = {(tf_wide)v->lo[1 + i] * lo[i], (tf_wide)v->lo[1 + i] * hi[i], (tf_wide)v->hi[1 + i] * lo[i],
                    (tf_wide)v->hi[1 + i] * hi[i]};
    a += wmin(wmin(p[0], p[1]), wmin(p[2], p[3]));
    b += wmax(wmax(p[0], p[1]), wmax(p[2], p[3]));
  }
  *mn = a, *mx = b;
}

/* What a box's bounds are computed in, kept with the problem. */
struct tf_box_scratch {
  tf_ival *syms;         /* every symbol */
  tf_ival *size;         /* per buffer: its size in its memory, where the box keeps it in one */
  int *mem;              /* per buffer: that memory, else -1 (several, or it aliases another) */
  unsigned char *paired; /* per buffer: it aliases another, or another aliases it */
  tf_ival *row;          /* per live require: its row, normalised */
  tf_ival *diff;         /* per live require: lhs - rhs */
  tf_ival *obj;          /* per objective */
  /* The box these were last evaluated at: a value that reads none of the
   * variables whose range changed since is the same (as in binding's
   * reuse, model/bind/reuse.h), so consecutive boxes -- a box's two halves
   * differ in one variable -- evaluate again only what that one reaches. */
  int valid;
  uint32_t lo[TF_MAX_CHOOSE], hi[TF_MAX_CHOOSE];
  unsigned char ascending[TF_MAX_CHOOSE]; /* per variable: its domain is in ascending order */
};

void tf_cbox_scratch_free(tf_problem *p) {
  if (!p->box)
    return;
  free(p->box->syms), free(p->box->size), free(p->box->mem), free(p->box->paired), free(p->box->row),
      free(p->box->diff), free(p->box->obj);
  free(p->box);
  p->box = NULL;
}

/* Every symbol as a point of its bound value (params, machine constants,
 * the fixed lets, each count its unit form), once; a fixed buffer's
 * placed() too.  The box's own symbols are set per box (set_choose). */
static void init_syms(tf_problem *p) {
  const tf_workset *w = p->workset;
  size_t n = (size_t)tf_workset_nsymbols(w);
  p->box = tf_nalloc(1, sizeof *p->box);
  tf_ival *syms = p->box->syms = tf_nalloc(n + 1, sizeof *syms);
  p->box->size = tf_nalloc(w->nbuffers + 1, sizeof *p->box->size);
  p->box->mem = tf_nalloc(w->nbuffers + 1, sizeof *p->box->mem);
  p->box->paired = tf_nalloc(w->nbuffers + 1, 1);
  for (size_t b = 0; b < w->nbuffers; b++)
    if (w->buffers[b].alias >= 0)
      p->box->paired[b] = p->box->paired[w->buffers[b].alias] = 1;
  p->box->row = tf_nalloc(p->nlive_row + 1, sizeof *p->box->row);
  p->box->diff = tf_nalloc(p->nlive_row + 1, sizeof *p->box->diff);
  p->box->obj = tf_nalloc(p->nobjective + 1, sizeof *p->box->obj);
  for (size_t i = 0; i < n; i++) {
    syms[i] = tf_ival_point(p->syms[i].c);
    for (int k = 0; k < p->ncounts; k++) {
      syms[i].lo[1 + k] = syms[i].hi[1 + k] = p->syms[i].k[k];
      syms[i].g = p->syms[i].k[k] ? 1 : syms[i].g; /* a count's: its divisor says nothing */
    }
  }
  for (size_t i = 0; i < p->nchoose; i++) {
    p->box->ascending[i] = 1;
    for (size_t k = 1; k < p->ndomain[i]; k++)
      p->box->ascending[i] &= p->domain[i][k - 1] < p->domain[i][k];
  }
  int64_t none[TF_MAX_CHOOSE] = {0};
  for (size_t b = 0; b < w->nbuffers; b++)
    for (int m = 0; tf_place_of_buffer(p, b) < 0 && m < TF_NMEM; m++)
      syms[tf_workset_sym_placed(w, b, m)] = tf_ival_point(m == tf_memory_of_at(p, b, none));
}

/* The memories placement variable v takes over [lo, hi], a bit each. */
static unsigned place_mask(const tf_problem *p, size_t v, uint32_t lo, uint32_t hi) {
  unsigned mask = 0;
  for (uint32_t k = lo; k <= hi; k++)
    mask |= 1u << p->domain[v][k];
  return mask;
}

/* The choose variables' intervals, placed() and placement_order. */
static void set_choose(tf_problem *p, const tf_cbox *b) {
  const tf_workset *w = p->workset;
  for (size_t i = 0; i < p->nchoose; i++) {
    if (p->choose_sym[i] < 0)
      continue;
    int64_t lo = p->domain[i][b->lo[i]], hi = p->domain[i][b->hi[i]];
    for (uint32_t k = b->lo[i]; !p->box->ascending[i] && k <= b->hi[i]; k++) /* a list in the workset's order */
      lo = p->domain[i][k] < lo ? p->domain[i][k] : lo, hi = p->domain[i][k] > hi ? p->domain[i][k] : hi;
    uint64_t g = 0; /* what divides every value: once 1, nothing more to learn */
    for (uint32_t k = b->lo[i]; k <= b->hi[i] && g != 1; k++)
      g = tf_gcd(g, p->domain[i][k] < 0 ? -(uint64_t)p->domain[i][k] : (uint64_t)p->domain[i][k]);
    tf_ival *s = &p->box->syms[p->choose_sym[i]];
    s->lo[0] = lo, s->hi[0] = hi, s->g = g;
  }
  tf_ival order = tf_ival_point(0);
  for (size_t buf = 0; buf < w->nbuffers; buf++) {
    int v = tf_place_of_buffer(p, buf);
    if (v < 0)
      continue;
    unsigned mask = place_mask(p, (size_t)v, b->lo[v], b->hi[v]);
    for (int m = 0; m < TF_NMEM; m++) {
      tf_ival *s = &p->box->syms[tf_workset_sym_placed(w, buf, m)];
      *s = tf_ival_point(mask == 1u << m);
      s->hi[0] = (mask >> m) & 1, s->g = s->lo[0] == s->hi[0] ? s->g : 1;
    }
    order.lo[0] += (int64_t)b->lo[v] * p->place_weight[v]; /* at most 3^32 in all: no overflow */
    order.hi[0] += (int64_t)b->hi[v] * p->place_weight[v];
  }
  order.g = order.lo[0] == order.hi[0] ? (uint64_t)order.lo[0] : 1;
  p->box->syms[tf_workset_sym_placement_order(w)] = order;
}

#define EVERY (~(uint64_t)0) /* changed_since's "nothing is the box's yet" */

/* The variables whose range differs from the box last evaluated (every
 * one when none was), as the let graph names them (tf_problem_var_bit). */
static uint64_t changed_since(const tf_problem *p, const tf_cbox *b) {
  uint64_t changed = 0;
  for (size_t i = 0; i < p->nchoose; i++)
    if (!p->box->valid || b->lo[i] != p->box->lo[i] || b->hi[i] != p->box->hi[i])
      changed |= tf_problem_var_bit(p, i);
  return p->box->valid ? changed : EVERY;
}

/* Does value i of binding's reuse table read a variable that changed?
 * After EVERY also one that reads none (a count, a param). */
static int stale(const tf_problem *p, size_t i, uint64_t changed) {
  return changed == EVERY || (p->reuse->reads[i] & changed) != 0;
}

static int eval_lets(tf_problem *p, const tf_ival_env *env, uint64_t changed) {
  const tf_workset *w = p->workset;
  for (size_t k = 0; k < p->nlet_eval; k++) {
    size_t i = (size_t)p->let_eval[k];
    if ((changed == EVERY || (w->let_graph.choose[i] & changed)) &&
        tf_expr_interval(w->lets[i].expr, env, &p->box->syms[tf_workset_sym_let(w, i)]))
      return OPAQUE;
  }
  return 0;
}

/* Where sums of charges start, as use_bounds in the search does. */
struct least {
  tf_wide slot[TF_MEMORY_SLOTS];
};

static tf_wide sat(tf_wide v) { return v > INT64_MAX ? INT64_MAX : v; }

/* Buffer b's size in memory m over the box: refused where a point may
 * fail (interval.h), and where binding would fail: a size that may be
 * count-free and negative, an aliased pair that may depend on counts, a
 * use occupancy checks per SM that may depend on a count. */
static int buffer_in(tf_problem *p, size_t b, int m, const int64_t *at, const tf_ival_env *env, tf_ival *v) {
  int64_t choose[TF_MAX_CHOOSE];
  memcpy(choose, at, sizeof choose);
  if (tf_place_of_buffer(p, b) >= 0)
    choose[tf_place_of_buffer(p, b)] = m;
  if (tf_expr_interval(tf_memory_size_expr(p, b, choose), env, v))
    return OPAQUE;
  int may_free = 1;
  for (int k = 0; k < p->ncounts; k++)
    may_free &= v->lo[1 + k] <= 0 && v->hi[1 + k] >= 0;
  int free_of_counts = tf_ival_count_free(v, p->ncounts);
  if (may_free && v->lo[0] < 0)
    return OPAQUE;
  if (!free_of_counts && (p->box->paired[b] || (p->occupancy >= 0 && tf_memory_sm_use(m))))
    return OPAQUE;
  return 0;
}

/* Every buffer's size over the box, and each memory's least use into
 * `least` from those whose memory is the same throughout the box and that
 * alias no other (an aliased one adds at least 0). */
static int buffers(tf_problem *p, const tf_cbox *box, const tf_ival_env *env, uint64_t changed, struct least *least) {
  const tf_workset *w = p->workset;
  int64_t at[TF_MAX_CHOOSE] = {0};
  for (size_t i = 0; i < p->nchoose; i++)
    at[i] = p->domain[i][box->lo[i]];
  memset(least, 0, sizeof *least);
  for (size_t b = 0; b < w->nbuffers; b++) {
    int v = tf_place_of_buffer(p, b);
    unsigned mask = v < 0 ? 1u << tf_memory_of_at(p, b, at) : place_mask(p, (size_t)v, box->lo[v], box->hi[v]);
    p->box->mem[b] = -1;
    for (int m = 0; m < TF_NMEM; m++) {
      tf_ival size;
      if (!(mask & (1u << m)))
        continue;
      if (v < 0 && !stale(p, tf_reuse_buffer(b), changed))
        size = p->box->size[b]; /* a fixed buffer whose size reads nothing that changed */
      else if (buffer_in(p, b, m, at, env, &size))
        return OPAQUE;
      if (v < 0)
        p->box->size[b] = size;
      if (mask != 1u << m || w->buffers[b].alias >= 0)
        continue;
      p->box->size[b] = size, p->box->mem[b] = m;
      tf_wide mn, mx;
      int64_t charged;
      tf_ival_range(&size, p->ncounts, p->count_lo, p->count_hi, &mn, &mx);
      mn = mn < 0 ? 0 : mn; /* a negative size fits nowhere: 0 bounds what the others leave */
      if (mn > INT64_MAX || tf_memory_charge(p, b, (int64_t)mn, &charged))
        charged = mn > INT64_MAX ? INT64_MAX : (int64_t)mn;
      size_t s = tf_memory_slot(p, b, m);
      least->slot[s] = sat(least->slot[s] + charged);
    }
  }
  return 0;
}

/* The most memory m offers anywhere in the box: its capacity at each
 * occupancy the box holds (the only variable a capacity depends on). */
static int64_t capacity_max(const tf_problem *p, int m, const tf_cbox *box) {
  if (!tf_memory_capacity_varies(p, m) || p->occupancy < 0)
    return tf_memory_capacity_max(p, m);
  int64_t at[TF_MAX_CHOOSE] = {0}, most = INT64_MIN;
  size_t o = (size_t)p->occupancy;
  for (uint32_t k = box->lo[o]; k <= box->hi[o]; k++) {
    at[o] = p->domain[o][k];
    int64_t c = tf_memory_capacity_at(p, m, at);
    most = c > most ? c : most;
  }
  return most;
}

/* Does some memory's least use exceed the most it offers in the box? */
static int memory_over(const tf_problem *p, const tf_cbox *box, const struct least *least) {
  int64_t slots[TF_MEMORY_SLOTS] = {0}, used[TF_NMEM];
  for (size_t s = 0; s < TF_MEMORY_SLOTS; s++)
    slots[s] = (int64_t)least->slot[s];
  tf_memory_total(p, slots, 1, used);
  for (int m = 0; m < TF_NMEM; m++)
    if (used[m] > capacity_max(p, m, box))
      return 1;
  return 0;
}

/* Each live require's row over the box, normalised as binding stores it
 * (form {<=, >=, ==} 0); *none set when one holds at no point.  Refused
 * where a point may fail: a side, their difference, a '!=' on counts. */
/* lhs - rhs of require r over the box into *d, or OPAQUE. */
static int difference(tf_problem *p, size_t r, const tf_ival_env *env, tf_ival *d) {
  const tf_expr *l, *rr;
  tf_expr_relation(p->require[r], &l, &rr);
  tf_ival a, b;
  *d = tf_ival_point(0);
  d->g = 1;
  if (tf_expr_interval(l, env, &a) || tf_expr_interval(rr, env, &b))
    return OPAQUE;
  for (int i = 0; i <= p->ncounts; i++) {
    tf_wide lo = (tf_wide)a.lo[i] - b.hi[i], hi = (tf_wide)a.hi[i] - b.lo[i];
    if (lo <= INT64_MIN || hi >= INT64_MAX) /* the < and > shift below stays in range */
      return OPAQUE;                        /* binding's "integer overflow" may be met */
    d->lo[i] = (int64_t)lo, d->hi[i] = (int64_t)hi;
  }
  return 0;
}

static int requires(tf_problem *p, const tf_ival_env *env, uint64_t changed, int *none) {
  for (size_t live = 0; live < p->nlive_row; live++) {
    size_t r = p->live_row[live];
    const tf_expr *l, *rr;
    enum tf_rel rel = tf_expr_relation(p->require[r], &l, &rr);
    if ((stale(p, tf_reuse_side(p, r, 0), changed) || stale(p, tf_reuse_side(p, r, 1), changed)) &&
        difference(p, r, env, &p->box->diff[live]))
      return OPAQUE;
    tf_ival d = p->box->diff[live];
    if (rel == TF_REL_NE && !tf_ival_count_free(&d, p->ncounts))
      return OPAQUE;
    p->box->row[live] = d;
    tf_wide mn, mx;
    tf_ival_range(&d, p->ncounts, p->count_lo, p->count_hi, &mn, &mx);
    if (rel == TF_REL_NE) { /* count-free: fails only where a == b, and no row for the relaxation */
      *none |= mn == 0 && mx == 0;
      p->box->row[live] = tf_ival_point(0);
      continue;
    }
    int64_t shift = rel == TF_REL_LT ? 1 : rel == TF_REL_GT ? -1 : 0; /* a < b: a - b + 1 <= 0 */
    mn += shift, mx += shift;
    p->box->row[live].lo[0] = (int64_t)(p->box->row[live].lo[0] + shift); /* |d| < 2^63 - 1 or refused above */
    p->box->row[live].hi[0] = (int64_t)(p->box->row[live].hi[0] + shift);
    switch ((enum tf_row_kind)p->row_kind[r]) {
    case TF_ROW_LE: *none |= mn > 0; break;
    case TF_ROW_GE: *none |= mx < 0; break;
    case TF_ROW_EQ: *none |= mn > 0 || mx < 0; break;
    }
  }
  return 0;
}

void tf_ival_linear(const tf_ival *v, int n, const int64_t *lo, int up, tf_wide *f) {
  f[0] = up ? v->hi[0] : v->lo[0];
  for (int i = 0; i < n; i++) {
    /* k x over k in [kl, kh] and x in [lo, hi]: at most kh x where x >= 0
     * and kl x where x < 0, which is kh x + (kh - kl)(-x) <= kh x + (kh -
     * kl) max(0, -lo); at least kl x + (kh - kl) min(0, lo) alike */
    tf_wide kl = v->lo[1 + i], kh = v->hi[1 + i];
    f[1 + i] = up ? kh : kl;
    if (lo[i] < 0)
      f[0] += up ? (kh - kl) * -(tf_wide)lo[i] : (kh - kl) * (tf_wide)lo[i];
  }
}

void tf_cbox_rows_release(tf_cbox_rows *r) {
  free(r->f);
  r->f = NULL;
  r->n = r->cap = 0;
}

static tf_wide *new_row(tf_cbox_rows *r, int n) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->f = tf_nrealloc(r->f, (size_t)r->cap * (size_t)(1 + n), sizeof *r->f);
  }
  tf_wide *f = r->f + (size_t)r->n++ * (size_t)(1 + n);
  for (int k = 0; k <= n; k++)
    f[k] = 0;
  return f;
}

/* The box's rows (box.h): each memory row's least sizes less the most the
 * memory offers, then each require's least form (its negation's for >=). */
static void box_rows(const tf_problem *p, const tf_cbox *box, tf_cbox_rows *r) {
  int n = p->ncounts, nrows = tf_memory_nrows(p);
  tf_wide f[1 + TF_MAX_COUNTS];
  r->n = 0;
  for (int m = 0; m < TF_NMEM; m++)
    for (int q = 0; q < nrows; q++) {
      tf_wide *row = NULL;
      for (size_t b = 0; b < p->nbuffers; b++) {
        if (p->box->mem[b] != m || !tf_memory_in_row(p, b, q))
          continue;
        row = row ? row : new_row(r, n);
        tf_ival_linear(&p->box->size[b], n, p->count_lo, 0, f);
        int64_t charged;
        if (tf_ival_count_free(&p->box->size[b], n) && !tf_memory_charge(p, b, f[0] > 0 ? (int64_t)f[0] : 0, &charged))
          f[0] = charged; /* a count-free size as charged: monotone in the size, which is at least 0 where it fits */
        for (int k = 0; k <= n; k++)
          row[k] += f[k];
      }
      if (row)
        row[0] -= capacity_max(p, m, box);
    }
  for (size_t live = 0; live < p->nlive_row; live++) {
    int kind = p->row_kind[p->live_row[live]];
    if (kind != TF_ROW_GE)
      tf_ival_linear(&p->box->row[live], n, p->count_lo, 0, new_row(r, n));
    if (kind != TF_ROW_LE) {
      tf_wide *row = new_row(r, n);
      tf_ival_linear(&p->box->row[live], n, p->count_lo, 1, row);
      for (int k = 0; k <= n; k++)
        row[k] = -row[k];
    }
  }
}

int tf_cbox_bound(tf_problem *p, const tf_cbox *b, tf_ival *obj, tf_cbox_rows *rows) {
  for (int m = 0; m < TF_NMEM; m++)
    if (p->uses_derived[m])
      return OPAQUE; /* used() and slack() are a combination's whole use: bound at a combination */
  if (!p->box)
    init_syms(p);
  uint64_t changed = changed_since(p, b);
  set_choose(p, b);
  tf_ival_env env = {p->box->syms, p->ncounts};
  struct least least;
  int none = 0;
  p->box->valid = 0; /* until every value is the box's */
  if (eval_lets(p, &env, changed) || buffers(p, b, &env, changed, &least) || requires(p, &env, changed, &none))
    return OPAQUE;
  for (size_t o = 0; o < p->nobjective; o++) {
    if (stale(p, tf_reuse_objective(p, o), changed) && tf_expr_interval(p->objective[o].expr, &env, &p->box->obj[o]))
      return OPAQUE;
    obj[o] = p->box->obj[o];
  }
  p->box->valid = 1;
  memcpy(p->box->lo, b->lo, sizeof b->lo);
  memcpy(p->box->hi, b->hi, sizeof b->hi);
  if (none || memory_over(p, b, &least))
    return TF_CBOX_EMPTY;
  if (rows && p->ncounts)
    box_rows(p, b, rows);
  return TF_CBOX_OPEN;
}
