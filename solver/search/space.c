/* The exact search over boxes of combinations, for a problem bound on
 * demand (model/bind/problem.h: tf_problem_new_on_demand).
 *
 * A node is a box of choose combinations (model/bind/box.h): a range of
 * domain indices per choose variable.  Each is bounded as a whole, by
 * interval arithmetic over its lets, sizes, requires and objectives: a box
 * no point of which fits is dropped; one whose objective bound cannot beat
 * the k-th best point found so far is dropped; one that cannot be bounded
 * (a value may fail to evaluate somewhere in it) is never dropped.  The
 * best box is taken first (its bound vector, then its first combination
 * in enumeration order): a single combination is bound as binding whole
 * binds it and searched over its counts by combination.c (tf_search_open_root);
 * any other box is split in two halves of its widest index range.  A box's
 * key -- its bound, its first combination's rank, the smallest counts --
 * is at least as good in the total order (search.h) as every point in it,
 * so what is dropped cannot be among the k best, and the points found are
 * those binding every combination finds.
 *
 * A bound combination whose search leaves none of the k best points is
 * unbound at once, so the problem's tables hold only the combinations
 * that hold (or held) an answer, and memory grows with the boxes open,
 * not with the space.  The counters (problem.h, space) partition the
 * candidates: visited + pruned by bound + pruned as infeasible. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/box.h"
#include "model/core/alloc.h"
#include "solver/search/combination.h"
#include "solver/search/search_internal.h"

#define WIDE_TOP ((tf_wide)1 << 121) /* above every bound: a box that cannot be bounded */

/* A box of at most this many combinations is not bounded on its own but
 * bound one combination at a time, in enumeration order: bounding a box
 * costs about what binding a few combinations does (bench/space.md). */
#define FEW 4

/* The open boxes: a pool; freed slots are reused. */
struct space {
  size_t w;        /* 2 * nchoose index bounds per box: lo, then hi */
  uint32_t *range; /* per box */
  tf_wide *score;  /* nobj per box: its bound */
  uint64_t *first; /* per box: the rank of its first combination */
  uint64_t *size;  /* per box: its combinations */
  size_t n, cap;
  size_t *freed, nfreed, capfreed;
  struct heap heap;  /* best first */
  tf_ival *obj;      /* scratch: a box's objective forms */
  tf_cbox_rows rows; /* scratch: a box's rows */
  tf_wide *parent;   /* scratch: the bound of the box being split */
};

static struct space *space_of(const struct search *s) { return s->space; }

static struct key box_key(const struct search *s, size_t id) {
  const struct space *sp = space_of(s);
  struct key k = {sp->score + id * s->nobj, sp->first[id], s->p->count_lo};
  return k;
}

static void get_range(const struct search *s, size_t id, tf_cbox *b) {
  const uint32_t *r = space_of(s)->range + id * space_of(s)->w;
  for (size_t i = 0; i < s->p->nchoose; i++)
    b->lo[i] = r[i], b->hi[i] = r[s->p->nchoose + i];
}

static size_t box_new(struct search *s, const tf_cbox *b) {
  struct space *sp = space_of(s);
  const tf_problem *p = s->p;
  size_t id;
  if (sp->nfreed) {
    id = sp->freed[--sp->nfreed];
  } else {
    if (sp->n == sp->cap) {
      sp->cap = sp->cap ? 2 * sp->cap : 64;
      sp->range = tf_nrealloc(sp->range, sp->cap * sp->w + 1, sizeof *sp->range);
      sp->score = tf_nrealloc(sp->score, sp->cap * s->nobj + 1, sizeof *sp->score);
      TF_NREALLOC(sp->first, sp->cap);
      TF_NREALLOC(sp->size, sp->cap);
    }
    id = sp->n++;
  }
  uint64_t first = 0, size = 1;
  for (size_t i = 0; i < p->nchoose; i++) {
    sp->range[id * sp->w + i] = b->lo[i], sp->range[id * sp->w + p->nchoose + i] = b->hi[i];
    first = first * p->ndomain[i] + b->lo[i]; /* below the candidates' count: no overflow */
    size *= (uint64_t)(b->hi[i] - b->lo[i]) + 1;
  }
  sp->first[id] = first, sp->size[id] = size;
  return id;
}

static void box_free(struct search *s, size_t id) {
  struct space *sp = space_of(s);
  TF_PUSH(sp->freed, sp->nfreed, sp->capfreed, id);
}

/* The problem the search fills: a problem bound on demand keeps the
 * combinations bound so far in its tables (problem.h), the one part of it
 * a search changes. */
static tf_problem *filled(const struct search *s) { return (tf_problem *)s->p; }

static tf_wide wabs(tf_wide v) { return v < 0 ? -v : v; }

/* Lowers each level of an open box's bound to its relaxation over the
 * box's rows (relax.h): the greatest value of the level's greatest linear
 * form over the counts' real points that satisfy a row, which every
 * fitting point of every combination of the box satisfies.  Returns 0
 * when some row holds at no point of the counts' box: nothing fits. */
static int relax(const struct search *s, tf_wide *score) {
  const tf_problem *p = s->p;
  const struct space *sp = space_of(s);
  int n = p->ncounts;
  tf_box full;
  tf_box_full(p, &full);
  for (size_t o = 0; o < s->nobj; o++) {
    tf_wide u[1 + TF_MAX_COUNTS];
    tf_ival v = sp->obj[o];
    int small = 1, dependent = 0;
    if (!p->objective[o].maximize) /* the level maximised: -objective */
      for (int k = 0; k <= n; k++) {
        int64_t lo = v.lo[k];
        v.lo[k] = v.hi[k] == INT64_MIN ? INT64_MAX : -v.hi[k], v.hi[k] = lo == INT64_MIN ? INT64_MAX : -lo;
        small &= lo != INT64_MIN && v.lo[k] != INT64_MAX;
      }
    tf_ival_linear(&v, n, p->count_lo, 1, u);
    for (int k = 0; k <= n; k++)
      small &= wabs(u[k])<((tf_wide)1 << 62), dependent |= k> 0 && u[k] != 0;
    for (int q = 0; small && dependent && q < sp->rows.n; q++) {
      const tf_wide *f = sp->rows.f + (size_t)q * (size_t)(1 + n);
      int ok = 1;
      for (int k = 0; k <= n; k++)
        ok &= wabs(f[k]) < ((tf_wide)1 << 62);
      tf_wide t = ok ? tf_relax_level(u, f, n, &full) : score[o];
      if (t <= -((tf_wide)1 << 120))
        return 0;
      score[o] = t < score[o] ? t : score[o];
    }
  }
  return 1;
}

/* Files bounded box id by its kind: dropped as infeasible or as one that
 * cannot win (counted), or queued (an opaque one always). */
static void file(struct search *s, size_t id, int kind) {
  tf_problem *p = filled(s);
  struct space *sp = space_of(s);
  if (kind == TF_CBOX_EMPTY) {
    p->space.pruned_infeasible += sp->size[id];
    box_free(s, id);
  } else if (kind == TF_CBOX_OPEN && !can_win(s, box_key(s, id))) {
    p->space.pruned_bound += sp->size[id];
    box_free(s, id);
  } else {
    tf_search_heap_push(s, &sp->heap, id);
  }
}

/* Bounds box b and files it: dropped (counted), or queued.  A box of FEW
 * combinations or fewer takes its parent's bound (`parent`, NULL for the
 * whole space), which holds for it too: its combinations are bound one by
 * one when it is taken (leaves). */
static void consider(struct search *s, const tf_cbox *b, const tf_wide *parent) {
  tf_problem *p = filled(s);
  struct space *sp = space_of(s);
  tf_search_check_time(s);
  size_t id = box_new(s, b);
  tf_wide *score = sp->score + id * s->nobj;
  if (parent && sp->size[id] <= FEW) {
    memcpy(score, parent, s->nobj * sizeof *score);
    file(s, id, TF_CBOX_OPEN);
    return;
  }
  p->space.boxes++;
  int kind = tf_cbox_bound(p, b, sp->obj, &sp->rows);
  for (size_t o = 0; o < s->nobj; o++) {
    tf_wide mn, mx;
    if (kind == TF_CBOX_OPAQUE) {
      score[o] = WIDE_TOP;
      continue;
    }
    tf_ival_range(&sp->obj[o], p->ncounts, p->count_lo, p->count_hi, &mn, &mx);
    score[o] = p->objective[o].maximize ? mx : -mn;
  }
  if (kind == TF_CBOX_OPEN && p->ncounts && !can_win(s, box_key(s, id)))
    ; /* dropped below on the box's corner bound alone */
  else if (kind == TF_CBOX_OPEN && p->ncounts && !relax(s, score))
    kind = TF_CBOX_EMPTY;
  file(s, id, kind);
}

/* Does one of the k best points lie in slot c? */
static int holds_answer(const struct search *s, size_t c) {
  for (size_t i = 0; i < s->nbest; i++)
    if (s->combo[s->best[i]] == c)
      return 1;
  return 0;
}

/* A single combination: bound (as binding whole binds it), searched over
 * its counts, and unbound again unless it holds one of the k best. */
static void leaf(struct search *s, const tf_cbox *b, const tf_box *full, tf_wide *scratch) {
  tf_problem *p = filled(s);
  size_t slot;
  p->space.visited++;
  int rc = tf_problem_bind_combo(p, b->lo, &slot, s->err);
  if (rc < 0)
    s->failed = 1;
  if (rc <= 0)
    return;
  s->rows.combo = SIZE_MAX; /* the slot may have held another combination */
  tf_search_open_root(s, slot, full, scratch);
  if (!holds_answer(s, slot) && !s->timed_out)
    tf_problem_unbind_last(p);
}

/* The variable to split box b on: the one whose values span the largest
 * ratio, log2(hi / lo) (the number of index values where one is not
 * positive).  A kernel's model varies with a tile's ratio -- tiles are
 * cdiv(M, tile_m) -- more than with its difference: on the SM90 tile
 * spaces of bench/space.md a solve takes a third of the instructions it
 * takes halving the widest index range (80 M against 269 M at 16,384
 * combinations); on the generated five-count family, whose objectives are
 * remainders of tile sums, twice as many (7.9 G against 4.0 G at 10^6). */
static size_t widest(const struct search *s, const tf_cbox *b) {
  size_t w = 0;
  double most = -1;
  for (size_t i = 0; i < s->p->nchoose; i++) {
    double lo = (double)s->p->domain[i][b->lo[i]], hi = (double)s->p->domain[i][b->hi[i]];
    if (lo > hi) {
      double t = lo;
      lo = hi, hi = t;
    }
    double spread = b->hi[i] == b->lo[i] ? -1 : lo > 0 ? log2(hi / lo) : log2(1 + (double)(b->hi[i] - b->lo[i]));
    if (spread > most)
      most = spread, w = i;
  }
  return w;
}

/* Splits a box in two halves of the index range of the variable widest
 * reads. */
static void split(struct search *s, const tf_cbox *b, const tf_wide *parent) {
  size_t w = widest(s, b);
  uint32_t mid = b->lo[w] + (b->hi[w] - b->lo[w]) / 2;
  tf_cbox left = *b, right = *b;
  left.hi[w] = mid;
  right.lo[w] = mid + 1;
  consider(s, &left, parent);
  consider(s, &right, parent);
}

/* Once the best open box cannot win, none can: each is dropped, counted. */
static void drop_rest(struct search *s) {
  struct space *sp = space_of(s);
  while (sp->heap.n) {
    size_t id = tf_search_heap_pop(s, &sp->heap);
    filled(s)->space.pruned_bound += sp->size[id];
    box_free(s, id);
  }
}

/* Each combination of a small box, in enumeration order. */
static void leaves(struct search *s, const tf_cbox *b, const tf_box *full, tf_wide *scratch) {
  tf_cbox one = *b;
  for (size_t i = 0; i < s->p->nchoose; i++)
    one.hi[i] = one.lo[i];
  for (;;) {
    leaf(s, &one, full, scratch);
    size_t i = s->p->nchoose;
    while (i > 0 && one.lo[i - 1] == b->hi[i - 1])
      i--, one.lo[i] = one.hi[i] = b->lo[i];
    if (i == 0 || s->failed || s->timed_out)
      return;
    one.lo[i - 1]++, one.hi[i - 1]++;
  }
}

static void take_best(struct search *s, const tf_box *full, tf_wide *scratch) {
  struct space *sp = space_of(s);
  size_t id = tf_search_heap_pop(s, &sp->heap);
  tf_cbox b;
  get_range(s, id, &b);
  uint64_t size = sp->size[id];
  memcpy(sp->parent, sp->score + id * s->nobj, s->nobj * sizeof *sp->parent); /* its slot is reused */
  box_free(s, id);
  if (size <= FEW)
    leaves(s, &b, full, scratch);
  else
    split(s, &b, sp->parent);
}

/* No point fits: the answer says why as binding whole would, which needs
 * every combination bound (tf_problem_count_kept): up to the combinations
 * a problem bound whole may have.  Past them, or past the time limit, the
 * answer is still proven (every box was ruled out) and says so. */
static void why_none(struct search *s) {
  tf_problem *p = filled(s);
  tf_error e;
  tf_error_init(&e);
  if (p->ncandidates <= TF_MAX_COMBINATIONS && !tf_problem_count_kept(p, &e))
    return;
  if (p->ncandidates <= TF_MAX_COMBINATIONS && e.code != TF_ESOLVER) {
    *s->err = e, s->failed = 1;
    return;
  }
  p->nkept = 0;
  snprintf(p->hopeless, sizeof p->hopeless,
           "no point of the %zu candidate combinations fits: the search over boxes of them ruled out every one%s",
           p->ncandidates,
           p->ncandidates <= TF_MAX_COMBINATIONS ? " (the time limit ended counting the kept ones)" : "");
}

void tf_space_run(struct search *s) {
  const tf_problem *p = s->p;
  struct space sp;
  memset(&sp, 0, sizeof sp);
  sp.w = 2 * p->nchoose + 1;
  sp.heap.key_of = box_key;
  sp.obj = tf_nalloc(s->nobj + 1, sizeof *sp.obj);
  sp.parent = tf_nalloc(s->nobj + 1, sizeof *sp.parent);
  s->space = &sp;
  tf_wide *scratch = tf_nalloc(s->nobj + 1, sizeof *scratch);
  tf_box full;
  tf_box_full(p, &full);
  tf_cbox all;
  for (size_t i = 0; i < p->nchoose; i++)
    all.lo[i] = 0, all.hi[i] = (uint32_t)(p->ndomain[i] - 1);
  memset(&filled(s)->space, 0, sizeof filled(s)->space);
  consider(s, &all, NULL);
  while (sp.heap.n && !s->timed_out && !s->failed) {
    if (!can_win(s, box_key(s, sp.heap.v[0])))
      drop_rest(s);
    else
      take_best(s, &full, scratch);
  }
  if (!s->nbest && !s->timed_out && !s->failed)
    why_none(s);
  if (s->timed_out && sp.heap.n) { /* what the time limit leaves unproven */
    size_t top = sp.heap.v[0];
    s->space_unbounded = sp.score[top * s->nobj] == WIDE_TOP;
    s->space_bound = s->space_unbounded ? NULL : tf_nalloc(s->nobj + 1, sizeof *s->space_bound);
    if (s->space_bound)
      memcpy(s->space_bound, sp.score + top * s->nobj, s->nobj * sizeof *s->space_bound);
  }
  s->space = NULL;
  free(sp.range), free(sp.score), free(sp.first), free(sp.size), free(sp.freed), free(sp.heap.v), free(sp.obj),
      free(sp.parent);
  tf_cbox_rows_release(&sp.rows);
  free(scratch);
}
