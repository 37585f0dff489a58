/* The property test's generator: a seeded description of one problem
 * (tests/propgen.h).  The shapes are the ones the engine finds hard: one to
 * three counts with lower bounds above 1, buffers that shrink as a count
 * grows, requires that loosen or mix counts, aligned count-dependent
 * buffers in every memory, coefficients up to 10^9 and capacities up to
 * 2^40, objectives in any order, fixes, domains, occupancy 0 and 1,
 * --top K, check, --solver glpk (with or without --no-presolve), buffer
 * lifetimes and a layout order, and placement: buffers placed in two or
 * three memories with a size in each, pins in the workset and on the
 * command line, aliases, placed() in lets, requires and sizes,
 * placement_order in objectives, with occupancy and with GLPK. */
#include "tests/propgen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ randomness */

struct rng {
  uint64_t s;
};

static uint64_t next(struct rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t pick(struct rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1)); }

static int chance(struct rng *r, int percent) { return (int)(next(r) % 100) < percent; }

/* Log-uniform in [1, hi]: small and huge values alike. */
static int64_t pick_log(struct rng *r, int64_t hi) {
  int bits = 0;
  while (bits < 62 && ((int64_t)1 << (bits + 1)) <= hi)
    bits++;
  int64_t top = (int64_t)1 << pick(r, 0, bits);
  int64_t v = pick(r, top, 2 * top - 1);
  return v > hi ? hi : v;
}

/* ---------------------------------------------------------- expressions */

struct gen {
  pg_problem *p;
  struct rng r;
  int pad;              /* an occupancy problem ends with a buffer near an SMEM share */
  int rounded[PG_NMEM]; /* the memory has an aligned count-dependent buffer */
  int phased[PG_NMEM];  /* the memory has a count-dependent buffer with a lifetime */
};

static int node(struct gen *g, int op, int64_t v, int a, int b) {
  pg_problem *p = g->p;
  if (p->nnodes >= PG_MAX_NODES)
    return 0; /* node 0 is the constant 0 */
  p->node[p->nnodes] = (pg_node){op, v, a, b};
  return p->nnodes++;
}

static int k(struct gen *g, int64_t v) { return node(g, PG_CONST, v, 0, 0); }
static int op2(struct gen *g, int op, int a, int b) { return node(g, op, 0, a, b); }
static int cvar(struct gen *g, int i) { return node(g, PG_CHOOSE, i, 0, 0); }
static int svar(struct gen *g, int i) { return node(g, PG_COUNT, i, 0, 0); }

/* A count-free term over the workset's choose variables, >= 0 for the
 * positive values the domains hold. */
static int choose_term(struct gen *g) {
  int n = g->p->nchoose;
  if (!n || chance(&g->r, 25))
    return k(g, pick(&g->r, 0, 40));
  int a = cvar(g, (int)pick(&g->r, 0, n - 1)), b = cvar(g, (int)pick(&g->r, 0, n - 1));
  switch (pick(&g->r, 0, 5)) {
  case 0: return op2(g, PG_MUL, a, k(g, pick(&g->r, 1, 9)));
  case 1: return op2(g, PG_MUL, a, b);
  case 2: {
    int64_t m = pick(&g->r, 1, 20), d = pick(&g->r, 1, 6);
    return node(g, PG_CDIV, 0, op2(g, PG_MUL, a, k(g, m)), k(g, d));
  }
  case 3: return op2(g, PG_ADD, op2(g, PG_MAX, a, b), k(g, pick(&g->r, 0, 9)));
  case 4: return op2(g, PG_MIN, a, op2(g, PG_ADD, b, k(g, pick(&g->r, 0, 3))));
  default: return op2(g, PG_ADD, op2(g, PG_FDIV, op2(g, PG_MUL, a, b), k(g, 2)), k(g, pick(&g->r, 0, 5)));
  }
}

/* (s - lo), which grows with the count, or (hi - s), which shrinks: both
 * >= 0 inside the count's bounds. */
static int count_offset(struct gen *g, int s, int shrink) {
  pg_problem *p = g->p;
  if (shrink)
    return op2(g, PG_SUB, k(g, p->hi[s]), svar(g, s));
  return p->lo[s] ? op2(g, PG_SUB, svar(g, s), k(g, p->lo[s])) : svar(g, s);
}

/* ----------------------------------------------------------------- machine */

static void gen_machine(struct gen *g) {
  pg_machine *m = &g->p->m;
  struct rng *r = &g->r;
  static const int64_t real[] = {232448, 166912, 101376, 99 * 1024, 48 * 1024};
  int scale = (int)pick(r, 0, 2);
  if (scale == 0)
    m->smem_capacity = pick(r, 256, 100000);
  else if (scale == 1)
    m->smem_capacity = real[pick(r, 0, 4)];
  else
    m->smem_capacity = pick(r, 1000000, ((int64_t)1 << 40) - 8192);
  if (scale == 2 && chance(r, 40))
    m->smem_capacity = ((int64_t)1 << 40) - 8192 - pick(r, 0, 1 << 20);
  static const int64_t granules[] = {1, 2, 16, 32, 128, 256};
  m->smem_granule = granules[pick(r, 0, 5)];
  m->smem_reserved = chance(r, 50) ? 1024 : pick(r, 0, 2000);
  int64_t need = m->smem_capacity + m->smem_reserved;
  m->smem_per_sm = (need + 1023) / 1024 * 1024 + 1024 * pick(r, 0, 2);
  if (m->smem_per_sm > ((int64_t)1 << 40))
    m->smem_per_sm = (int64_t)1 << 40;
  m->tmem_present = chance(r, 55);
  m->tmem_columns = (int64_t)1 << pick(r, 3, 11);
  m->tmem_min_alloc = (int64_t)1 << pick(r, 0, 3);
  if (m->tmem_min_alloc > m->tmem_columns)
    m->tmem_min_alloc = m->tmem_columns;
  m->rf_per_thread = chance(r, 40) ? 255 : pick(r, 16, 255);
  m->rf_per_sm = chance(r, 60) ? 65536 : pick(r, 4096, 65536);
  m->rf_warp_granule = (int64_t)1 << pick(r, 6, 9);
  m->threads_per_sm = (int64_t)512 * pick(r, 2, 4);
  m->ctas_per_sm = chance(r, 80) ? pick(r, 1, 8) : pick(r, 9, 32);
  m->threads_per_cta = 1024;
  if (m->smem_capacity >= ((int64_t)1 << 39))
    g->p->features |= 1ull << PF_CAP_2_40;
}

/* ---------------------------------------------------------------- workset */

static void gen_domains(struct gen *g) {
  pg_problem *p = g->p;
  p->nchoose = (int)pick(&g->r, 0, 3);
  for (int i = 0; i < p->nchoose; i++) {
    int n = (int)pick(&g->r, 1, 4), tiles = chance(&g->r, 30);
    p->ndom[i] = 0;
    while (p->ndom[i] < n) {
      int64_t v = tiles ? (int64_t)1 << pick(&g->r, 0, 8) : pick(&g->r, 1, 16);
      int dup = 0;
      for (int j = 0; j < p->ndom[i]; j++)
        dup |= p->dom[i][j] == v;
      if (!dup)
        p->dom[i][p->ndom[i]++] = v;
    }
  }
}

static void gen_counts(struct gen *g) {
  pg_problem *p = g->p;
  static const int64_t los[] = {0, 1, 1, 2, 3, 5};
  p->ncounts = chance(&g->r, 4) ? 0 : (int)pick(&g->r, 1, 3);
  int64_t box = 1;
  for (int i = 0; i < p->ncounts; i++) {
    p->lo[i] = los[pick(&g->r, 0, 5)];
    p->hi[i] = p->lo[i] + pick(&g->r, 0, p->ncounts == 3 ? 7 : 12);
    box *= p->hi[i] - p->lo[i] + 1;
    if (p->lo[i] > 1)
      p->features |= 1ull << PF_LO_ABOVE_1;
  }
  for (int i = 0; box > 600 && i < p->ncounts; i++) { /* keep the brute force small */
    box /= p->hi[i] - p->lo[i] + 1;
    p->hi[i] = p->lo[i] + (p->hi[i] - p->lo[i]) / 2;
    box *= p->hi[i] - p->lo[i] + 1;
  }
  if (p->ncounts)
    p->features |= 1ull << (PF_COUNTS1 + p->ncounts - 1);
}

int64_t pg_capacity(const pg_problem *p, int mem) {
  if (mem == PG_SMEM)
    return p->m.smem_capacity;
  if (mem == PG_TMEM)
    return p->m.tmem_present ? p->m.tmem_columns : 0;
  return p->m.rf_per_thread;
}

/* A small count-free term for TMEM columns and registers per thread. */
static int small_term(struct gen *g) {
  return g->p->nchoose && chance(&g->r, 50) ? cvar(g, (int)pick(&g->r, 0, g->p->nchoose - 1))
                                            : k(g, pick(&g->r, 0, 24));
}

/* One buffer: M * (T0 + T1 * offset(s_a) + ...) + N, with M scaled to the
 * memory's capacity (up to 10^9) and each offset growing or shrinking. */
static void gen_buffer(struct gen *g, int b) {
  pg_problem *p = g->p;
  struct rng *r = &g->r;
  int mem = chance(r, 55) ? PG_SMEM : chance(r, 50) ? PG_RF : PG_TMEM;
  if (mem == PG_TMEM && !p->m.tmem_present && chance(r, 80))
    mem = PG_SMEM;
  int counts_ok = mem == PG_SMEM || !p->uses_occupancy; /* occupancy needs count-free rf and tmem */
  int64_t cap = pg_capacity(p, mem), mult = 1;
  if (mem == PG_SMEM && !g->pad)
    mult = pick_log(r, cap / 2000 > 1000000000 ? 1000000000 : cap / 2000 + 1);
  int e = mem == PG_SMEM ? choose_term(g) : small_term(g), dependent = 0;
  for (int s = 0; s < p->ncounts && counts_ok; s++) {
    if (chance(r, 40))
      continue;
    int shrink = chance(r, 25);
    int coef = mem == PG_SMEM ? choose_term(g) : k(g, pick(r, 1, 4));
    if (mem == PG_SMEM)
      coef = op2(g, PG_ADD, coef, k(g, pick(r, 1, 12)));
    e = op2(g, PG_ADD, e, op2(g, PG_MUL, coef, count_offset(g, s, shrink)));
    dependent = 1;
    if (shrink)
      p->features |= 1ull << PF_NEGATIVE;
  }
  if (mult > 1)
    e = op2(g, PG_ADD, op2(g, PG_MUL, k(g, mult), e), k(g, pick(r, 0, mult)));
  static const int64_t aligns[] = {1, 1, 2, 3, 4, 8, 16, 32, 128, 1024};
  int64_t al = aligns[pick(r, 0, mem == PG_SMEM ? 9 : 6)];
  if (mem == PG_SMEM && mult > 100000 && chance(r, 50))
    al = pick_log(r, mult);
  else if (mem == PG_SMEM && dependent && chance(r, 35))
    al = mult * pick(r, 2, 64); /* about one count step: rounding decides what fits */
  p->buf[b].mem = mem;
  p->buf[b].size = e;
  p->buf[b].align = al;
  g->rounded[mem] |= dependent && al > 1;
  if (dependent && al > 1)
    p->features |= 1ull << (mem == PG_SMEM ? PF_ALIGNED_SMEM : mem == PG_TMEM ? PF_ALIGNED_TMEM : PF_ALIGNED_RF);
}

/* A constant SMEM buffer just inside or just past what one of `o` CTAs
 * gets, floor(floor(per_sm / o) / granule) * granule - reserved: the
 * boundary the occupancy rule draws, where an off-by-reserve shows. */
static void gen_pad(struct gen *g, int b) {
  pg_problem *p = g->p;
  const pg_machine *m = &p->m;
  int64_t o = pick(&g->r, 1, m->ctas_per_sm < 6 ? m->ctas_per_sm : 6);
  int64_t share = m->smem_per_sm / o / m->smem_granule * m->smem_granule - m->smem_reserved;
  int64_t size = chance(&g->r, 50) ? share - pick(&g->r, 0, 300) : share + pick(&g->r, 1, m->smem_reserved + 1);
  p->buf[b].mem = PG_SMEM;
  p->buf[b].size = k(g, size > 0 ? size : 0);
  p->buf[b].align = 1;
}

/* A count variable, or a choose variable, or a constant. */
static int some_count(struct gen *g) { return svar(g, (int)pick(&g->r, 0, g->p->ncounts - 1)); }
static int some_choose(struct gen *g) {
  return g->p->nchoose ? cvar(g, (int)pick(&g->r, 0, g->p->nchoose - 1)) : k(g, pick(&g->r, 1, 9));
}

/* used(MEM) or slack(MEM) of a memory where they are linear (no aligned
 * count-dependent buffer), or -1. */
static int used_or_slack(struct gen *g) {
  int mem = (int)pick(&g->r, 0, PG_NMEM - 1);
  return g->rounded[mem] || g->phased[mem] ? -1 : node(g, chance(&g->r, 50) ? PG_USED : PG_SLACK, mem, 0, 0);
}

/* Does buffer b's size depend on a count? */
static int depends(const pg_problem *p, int n) {
  const pg_node *x = &p->node[n];
  if (x->op == PG_COUNT)
    return 1;
  if (x->op == PG_LET)
    return depends(p, p->let[x->v]);
  if (x->op == PG_CONST || x->op == PG_CHOOSE || x->op == PG_USED || x->op == PG_SLACK || x->op == PG_PLACED ||
      x->op == PG_PORDER)
    return 0;
  return depends(p, x->a) || depends(p, x->b);
}

/* Does buffer b's size in any of its memories depend on a count? */
static int any_size_depends(const pg_problem *p, int b) {
  if (!p->buf[b].nplace)
    return depends(p, p->buf[b].size);
  for (int i = 0; i < p->buf[b].nplace; i++)
    if (depends(p, p->buf[b].psize[i]))
      return 1;
  return 0;
}

/* Lifetimes and a layout order, from a stream of their own (the other
 * draws, and so every earlier seed's problem apart from these, stay as
 * they were): in some problems each buffer but the occupancy pad is live
 * throughout or in one of up to three phases. */
static void gen_lifetimes(struct gen *g, int nbuffers) {
  pg_problem *p = g->p;
  struct rng r = {p->seed * 0x9E3779B97F4A7C15ULL + 0x5851F42D4C957F2DULL};
  int phases = chance(&r, 35) ? (int)pick(&r, 1, PG_MAX_LIFETIMES) : 0;
  for (int b = 0; b < p->nbuffers; b++) {
    p->buf[b].life = b < nbuffers && phases && chance(&r, 70) ? (int)pick(&r, 0, phases - 1) : -1;
    if (p->buf[b].alias >= 0) /* an aliasing buffer lives in its host's space, so in its phase */
      p->buf[b].life = p->buf[p->buf[b].alias].life;
    if (p->buf[b].life >= 0) {
      p->features |= 1ull << PF_LIFETIMES;
      int mems[PG_NMEM], n = pg_candidates(p, b, mems);
      for (int i = 0; i < n; i++)
        g->phased[mems[i]] |= depends(p, pg_size_in(p, b, mems[i]));
    }
  }
  if (!chance(&r, 25))
    return;
  for (int b = 0; b < p->nbuffers; b++) /* a shuffled prefix */
    p->order[b] = b;
  for (int b = p->nbuffers - 1; b > 0; b--) {
    int j = (int)pick(&r, 0, b), t = p->order[b];
    p->order[b] = p->order[j], p->order[j] = t;
  }
  p->norder = (int)pick(&r, 1, p->nbuffers);
  p->features |= 1ull << PF_LAYOUT_ORDER;
}

/* ------------------------------------------------------------ placement */

/* The placement, alias and let passes draw from streams of their own, so
 * that every other draw (and so every seed's problem apart from these)
 * stays as it was: each swaps g->r for its stream while it runs. */
static struct rng own_stream(const pg_problem *p, uint64_t salt) {
  return (struct rng){p->seed * 0xA24BAED4963EE407ULL + salt};
}

/* A size in memory `mem` for a buffer that may be placed there: SMEM bytes
 * over the choose variables, TMEM columns or registers per thread small,
 * each maybe growing or shrinking with a count (not TMEM and registers
 * under occupancy).  TMEM sizes are at least 1: a machine without TMEM
 * has none, and nothing of size 0 shows that. */
static int placed_size(struct gen *g, int mem, int *dependent) {
  pg_problem *p = g->p;
  struct rng *r = &g->r;
  int e = mem == PG_SMEM ? choose_term(g) : small_term(g);
  *dependent = 0;
  for (int s = 0; s < p->ncounts && (mem == PG_SMEM || !p->uses_occupancy); s++) {
    if (chance(r, 60))
      continue;
    int shrink = chance(r, 25);
    int coef = mem == PG_SMEM ? op2(g, PG_ADD, choose_term(g), k(g, pick(r, 1, 12))) : k(g, pick(r, 1, 4));
    e = op2(g, PG_ADD, e, op2(g, PG_MUL, coef, count_offset(g, s, shrink)));
    *dependent = 1;
  }
  return mem == PG_TMEM ? op2(g, PG_ADD, e, k(g, 1)) : e;
}

/* Buffer b's place list: its memory and one or two others, shuffled
 * (TMEM mostly left out on a machine without it). */
static void place_list(struct gen *g, int b) {
  pg_problem *p = g->p;
  int n = 0, want = (int)pick(&g->r, 2, 3), list[PG_NMEM];
  list[n++] = p->buf[b].mem;
  for (int m = 0; m < PG_NMEM && n < want; m++)
    if (m != p->buf[b].mem && (m != PG_TMEM || p->m.tmem_present || chance(&g->r, 20)) &&
        (want == 3 || chance(&g->r, 50)))
      list[n++] = m;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)pick(&g->r, 0, i), t = list[i];
    list[i] = list[j], list[j] = t;
  }
  int orig = p->buf[b].size, orig_mem = p->buf[b].mem;
  for (int i = 0; i < n; i++) {
    int dependent = depends(p, orig);
    p->buf[b].place[i] = list[i];
    p->buf[b].psize[i] = list[i] == orig_mem ? orig : placed_size(g, list[i], &dependent);
    g->rounded[list[i]] |= dependent && p->buf[b].align > 1;
  }
  p->buf[b].nplace = n;
  p->buf[b].mem = list[0];
  p->buf[b].size = p->buf[b].psize[0];
}

/* Buffer b's pins: the workset's (a param) and the command line's. */
static void place_pins(struct gen *g, int b) {
  pg_problem *p = g->p;
  int has_rf = 0, mask = 0;
  for (int i = 0; i < p->buf[b].nplace; i++)
    has_rf |= p->buf[b].place[i] == PG_RF;
  if (has_rf && p->buf[b].nplace >= 2 && chance(&g->r, 30)) { /* a pin needs rf and another memory */
    p->buf[b].pin = (int)pick(&g->r, -1, 1);
    p->features |= 1ull << PF_PIN;
  }
  if (chance(&g->r, 20)) {
    while (!mask)
      for (int i = 0; i < p->buf[b].nplace; i++)
        mask |= chance(&g->r, 50) << p->buf[b].place[i];
    p->buf[b].cli_place = mask;
    p->features |= 1ull << PF_CLI_PLACE;
  }
}

/* One or two of the first `nbuffers` buffers placed; the counts' box
 * shrinks so that the brute force stays small. */
static void place_buffers(struct gen *g, int nbuffers) {
  pg_problem *p = g->p;
  int n = (int)pick(&g->r, 1, nbuffers < 2 ? nbuffers : 2), first = (int)pick(&g->r, 0, nbuffers - 1);
  for (int i = 0; i < n; i++) {
    int b = (first + i) % nbuffers;
    if (chance(&g->r, 50))
      p->buf[b].align = (int64_t)1 << pick(&g->r, 0, 5);
    place_list(g, b);
    place_pins(g, b);
  }
  for (int64_t box = 601; box > 150;) {
    box = 1;
    for (int s = 0; s < p->ncounts; s++)
      box *= p->hi[s] - p->lo[s] + 1;
    for (int s = 0; box > 150 && s < p->ncounts; s++)
      p->hi[s] = p->lo[s] + (p->hi[s] - p->lo[s]) / 2;
  }
  p->features |= 1ull << PF_PLACE;
  if (p->uses_occupancy)
    p->features |= 1ull << PF_PLACE_OCC;
}

/* A buffer sharing an earlier one's space: both count-free in every
 * memory they may be in (tilefit refuses a count-dependent alias). */
static void gen_alias(struct gen *g, int nbuffers) {
  pg_problem *p = g->p;
  int b = (int)pick(&g->r, 1, nbuffers - 1), t = (int)pick(&g->r, 0, b - 1);
  if (any_size_depends(p, b) || any_size_depends(p, t))
    return;
  p->buf[b].alias = t;
  p->features |= 1ull << PF_ALIAS;
}

static void gen_placement(struct gen *g, int nbuffers) {
  pg_problem *p = g->p;
  struct rng saved = g->r;
  g->r = own_stream(p, 0x9FB21C651E98DF25ULL);
  if (chance(&g->r, 30))
    place_buffers(g, nbuffers);
  if (nbuffers >= 2 && chance(&g->r, 30))
    gen_alias(g, nbuffers);
  g->r = saved;
}

/* placed(b, MEM) for a placed buffer b and one of its memories. */
static int some_placed(struct gen *g) {
  const pg_problem *p = g->p;
  int b = (int)pick(&g->r, 0, p->nbuffers - 1);
  while (!p->buf[b].nplace)
    b = (b + 1) % p->nbuffers;
  return node(g, PG_PLACED, b, p->buf[b].place[pick(&g->r, 0, p->buf[b].nplace - 1)], 0);
}

/* A let over placements (and a choose variable or a count), used by a
 * require or an objective added for it. */
static void gen_let(struct gen *g) {
  pg_problem *p = g->p;
  int e = op2(g, PG_MUL, some_placed(g), k(g, pick(&g->r, 1, 9)));
  if (chance(&g->r, 50))
    e = op2(g, PG_ADD, e, op2(g, PG_MUL, some_placed(g), k(g, pick(&g->r, 1, 9))));
  if (chance(&g->r, 50))
    e = op2(g, PG_ADD, e, p->ncounts && chance(&g->r, 50) ? some_count(g) : some_choose(g));
  p->let[p->nlets] = e;
  int use = node(g, PG_LET, p->nlets++, 0, 0), list = pg_objectives(p);
  if (chance(&g->r, 50) && p->nrequire < PG_MAX_REQUIRES) {
    p->req[p->nrequire].lhs = use;
    p->req[p->nrequire].rhs = k(g, pick(&g->r, 0, 14));
    p->req[p->nrequire].rel = (int)pick(&g->r, 0, 4);
    p->req[p->nrequire++].on_cli = chance(&g->r, 30);
  } else if (p->nobj[list] < PG_MAX_OBJECTIVES) {
    p->obj[list][p->nobj[list]].expr = use;
    p->obj[list][p->nobj[list]++].max = chance(&g->r, 50);
  }
  p->features |= 1ull << PF_PLACED_LET;
}

/* A size that depends on where another buffer is, as fa3-fwd's Q_rf
 * staging: an SMEM size of some buffer (not the occupancy pad) gains
 * placed(B, MEM) * K. */
static void placed_in_size(struct gen *g) {
  pg_problem *p = g->p;
  int b = (int)pick(&g->r, 0, p->nbuffers - 1 - g->pad), *size = NULL;
  for (int i = 0; i < p->buf[b].nplace; i++)
    if (p->buf[b].place[i] == PG_SMEM)
      size = &p->buf[b].psize[i];
  if (!p->buf[b].nplace && p->buf[b].mem == PG_SMEM)
    size = &p->buf[b].size;
  if (!size)
    return;
  int term = op2(g, PG_MUL, some_placed(g), k(g, pick(&g->r, 1, 64)));
  *size = op2(g, PG_ADD, *size, term);
  if (p->buf[b].nplace && p->buf[b].place[0] == PG_SMEM)
    p->buf[b].size = p->buf[b].psize[0];
  p->features |= 1ull << PF_PLACED_SIZE;
}

/* With placement: lets over placed(), a legality rule on placed(), an
 * objective on placement_order. */
static void gen_lets(struct gen *g) {
  pg_problem *p = g->p;
  int placed = 0;
  for (int b = 0; b < p->nbuffers; b++)
    placed |= p->buf[b].nplace > 0;
  if (!placed)
    return;
  struct rng saved = g->r;
  g->r = own_stream(p, 0x3C6EF372FE94F82BULL);
  while (p->nlets < PG_MAX_LETS && chance(&g->r, 45))
    gen_let(g);
  if (chance(&g->r, 25) && p->nrequire < PG_MAX_REQUIRES) { /* placed(A, rf) + placed(B, smem) <= 1 */
    int lhs = some_placed(g);
    p->req[p->nrequire].lhs = op2(g, PG_ADD, lhs, some_placed(g));
    p->req[p->nrequire].rhs = k(g, 1);
    p->req[p->nrequire].rel = PG_LE;
    p->req[p->nrequire++].on_cli = chance(&g->r, 30);
  }
  int list = pg_objectives(p);
  if (chance(&g->r, 15) && p->nobj[list] < PG_MAX_OBJECTIVES) {
    p->obj[list][p->nobj[list]].expr = node(g, PG_PORDER, 0, 0, 0);
    p->obj[list][p->nobj[list]++].max = chance(&g->r, 50);
  }
  if (chance(&g->r, 30))
    placed_in_size(g);
  g->r = saved;
}

int pg_candidates(const pg_problem *p, int b, int *mems) {
  if (!p->buf[b].nplace)
    return mems[0] = p->buf[b].mem, 1;
  int n = 0;
  for (int i = 0; i < p->buf[b].nplace; i++) {
    int m = p->buf[b].place[i], pin = p->buf[b].pin;
    int ok = p->buf[b].cli_place ? (p->buf[b].cli_place >> m) & 1 : pin == 1 ? m == PG_RF : pin == 0 ? m != PG_RF : 1;
    if (ok)
      mems[n++] = m;
  }
  return n;
}

int pg_size_in(const pg_problem *p, int b, int mem) {
  for (int i = 0; i < p->buf[b].nplace; i++)
    if (p->buf[b].place[i] == mem)
      return p->buf[b].psize[i];
  return p->buf[b].size;
}

int pg_has_placement_tie_break(const pg_problem *p) {
  int mems[PG_NMEM];
  for (int b = 0; b < p->nbuffers; b++)
    if (p->buf[b].nplace && pg_candidates(p, b, mems) > 1)
      return 1;
  return 0;
}

/* A bound near the middle of what the counts can reach. */
static int64_t count_bound(struct gen *g, int64_t lo, int64_t hi) { return pick(&g->r, lo - 1, hi + 1); }

/* One require: tightening, loosening (a + c >= 5), mixing counts with
 * negative coefficients, count-free, or on occupancy. */
static void gen_require(struct gen *g, int i) {
  pg_problem *p = g->p;
  struct rng *r = &g->r;
  int lhs, rhs, rel = (int)pick(r, 0, 4), kind = p->ncounts ? (int)pick(r, 0, 5) : 4, u = -1;
  if (chance(r, 10) && (u = used_or_slack(g)) >= 0) { /* used(smem) <= K, slack(rf) >= K */
    int64_t cap = pg_capacity(p, (int)p->node[u].v);
    p->req[i].lhs = u;
    p->req[i].rhs = k(g, pick(r, -cap / 4, cap + cap / 4));
    p->req[i].rel = rel == PG_EQ ? PG_LE : rel;
    p->req[i].on_cli = chance(r, 30);
    return;
  }
  int64_t L = INT64_MAX, H = 0; /* the smallest min and largest max of the counts */
  for (int s = 0; s < p->ncounts; s++) {
    L = p->lo[s] < L ? p->lo[s] : L;
    H = p->hi[s] > H ? p->hi[s] : H;
  }
  if (kind == 0) { /* c * s <= K */
    lhs = some_choose(g);
    lhs = op2(g, PG_MUL, lhs, some_count(g));
    rhs = k(g, pick(r, 0, 60));
    rel = chance(r, 50) ? PG_LE : PG_LT;
  } else if (kind == 1 || kind == 2) { /* loosening: s_a + c >= K, s_a + s_b >= K */
    lhs = some_count(g);
    lhs = op2(g, PG_ADD, lhs, kind == 1 ? some_choose(g) : some_count(g));
    rhs = k(g, count_bound(g, 2 * L, 2 * H + 4));
    rel = chance(r, 60) ? PG_GE : PG_GT;
    p->features |= 1ull << PF_LOOSEN;
  } else if (kind == 3) { /* mixing: W1 * s_a - W2 * s_b REL K */
    int64_t w1 = pick(r, 1, 3), w2 = pick(r, 1, 3);
    lhs = op2(g, PG_MUL, k(g, w1), some_count(g));
    lhs = op2(g, PG_SUB, lhs, op2(g, PG_MUL, k(g, w2), some_count(g)));
    rhs = k(g, pick(r, -3 * H, 3 * H));
    p->features |= 1ull << PF_MIXED | 1ull << PF_NEGATIVE;
  } else if (kind == 4 || !p->uses_occupancy) { /* count-free */
    lhs = some_choose(g);
    lhs = op2(g, PG_MUL, lhs, some_choose(g));
    rhs = k(g, pick(r, 1, 120));
    rel = rel == PG_EQ ? PG_LE : rel;
  } else { /* occupancy and a count */
    lhs = op2(g, PG_ADD, node(g, PG_CHOOSE, PG_OCC, 0, 0), some_count(g));
    rhs = k(g, pick(r, 1, H + 4));
  }
  p->req[i].lhs = lhs;
  p->req[i].rhs = rhs;
  p->req[i].rel = rel;
  p->req[i].on_cli = chance(r, 30);
}

/* One objective; *is_count says whether it is about counts only. */
static void gen_objective(struct gen *g, int list, int o, int *is_count) {
  pg_problem *p = g->p;
  struct rng *r = &g->r;
  int kind = (int)pick(r, 0, 7), e;
  *is_count = 0;
  if (!p->ncounts && kind < 3)
    kind = 3;
  int64_t w = chance(r, 30) ? pick(r, 100000000, 1000000000) : pick(r, 2, 1000);
  /* one random draw per statement: argument order is unspecified in C */
  switch (kind) {
  case 0:
    e = some_count(g);
    *is_count = 1;
    break;
  case 1:
    e = op2(g, PG_MUL, k(g, w), some_count(g));
    e = op2(g, PG_ADD, e, some_count(g));
    *is_count = 1;
    break;
  case 2:
    e = k(g, pick(r, 1, 5));
    e = op2(g, PG_MUL, e, some_count(g));
    e = op2(g, PG_SUB, e, some_choose(g));
    break;
  case 3:
    e = some_choose(g);
    e = op2(g, PG_MUL, e, some_choose(g));
    break;
  case 4:
    e = op2(g, PG_MUL, k(g, w), some_choose(g));
    e = op2(g, PG_SUB, e, p->ncounts ? some_count(g) : k(g, 1));
    break;
  case 5: e = p->nbuffers ? p->buf[pick(r, 0, p->nbuffers - 1)].size : some_choose(g); break;
  case 6:
    e = used_or_slack(g);
    e = e < 0 ? some_choose(g) : p->ncounts ? op2(g, PG_ADD, e, op2(g, PG_MUL, k(g, w), some_count(g))) : e;
    break;
  default:
    e = p->uses_occupancy ? op2(g, PG_ADD, op2(g, PG_MUL, k(g, w), node(g, PG_CHOOSE, PG_OCC, 0, 0)), some_choose(g))
                          : some_choose(g);
    break;
  }
  if ((kind == 1 || kind == 4) && w >= 100000000)
    p->features |= 1ull << PF_WEIGHT_1E9;
  if (kind == 2 || kind == 4)
    p->features |= 1ull << PF_NEGATIVE;
  p->obj[list][o].expr = e;
  p->obj[list][o].max = chance(r, 55);
  p->features |= 1ull << (p->obj[list][o].max ? PF_MAX : PF_MIN);
}

static void gen_objectives(struct gen *g) {
  pg_problem *p = g->p;
  int cli = chance(&g->r, 25);
  for (int list = 0; list <= cli; list++) {
    p->nobj[list] = (int)pick(&g->r, list ? 1 : 0, 3);
    int first_count = -1, first_tile = -1;
    for (int o = 0; o < p->nobj[list]; o++) {
      int is_count;
      gen_objective(g, list, o, &is_count);
      if (is_count && first_count < 0)
        first_count = o;
      if (!is_count && first_tile < 0)
        first_tile = o;
    }
    if (list == cli && first_count >= 0 && first_tile >= 0)
      p->features |= 1ull << (first_count < first_tile ? PF_COUNT_FIRST : PF_TILE_FIRST);
  }
  if (cli)
    p->features |= 1ull << PF_CLI_OBJECTIVE;
}

/* ---------------------------------------------------------------- request */

static int refers_to_occupancy(const pg_problem *p, int e) {
  const pg_node *n = &p->node[e];
  if (n->op == PG_CHOOSE)
    return n->v == PG_OCC;
  if (n->op == PG_LET)
    return refers_to_occupancy(p, p->let[n->v]);
  if (n->op == PG_CONST || n->op == PG_COUNT || n->op == PG_USED || n->op == PG_SLACK || n->op == PG_PLACED ||
      n->op == PG_PORDER)
    return 0;
  return refers_to_occupancy(p, n->a) || refers_to_occupancy(p, n->b);
}

static void add_fix(pg_problem *p, int is_count, int var, int64_t v) {
  p->fix[p->nfix].is_count = is_count;
  p->fix[p->nfix].var = var;
  p->fix[p->nfix++].v = v;
  p->features |= 1ull << PF_FIX;
}

static int64_t some_value(struct gen *g, int i) {
  const pg_problem *p = g->p;
  return chance(&g->r, 70) ? p->dom[i][pick(&g->r, 0, p->ndom[i] - 1)] : pick(&g->r, 1, 16);
}

/* The occupancy variable's request: a domain with 0 and 1 in it, a fix, or
 * nothing (1 .. CTAs per SM) when an expression already names it. */
static void occupancy_request(struct gen *g, int named) {
  pg_problem *p = g->p;
  int mode = (int)pick(&g->r, named ? 0 : 1, 2);
  if (mode == 1) {
    int n = 0;
    for (int64_t v = 0; v <= p->m.ctas_per_sm + 1 && n < 6; v++)
      if (v < 2 || chance(&g->r, 50))
        p->domain[PG_OCC][n++] = v;
    p->has_domain[PG_OCC] = 1;
    p->ndomain[PG_OCC] = n;
    p->features |= 1ull << PF_DOMAIN | 1ull << PF_OCC_0 | 1ull << PF_OCC_1;
  } else if (mode == 2) {
    int64_t v = pick(&g->r, 0, p->m.ctas_per_sm + 1);
    add_fix(p, 0, PG_OCC, v);
    p->features |= 1ull << (v == 0 ? PF_OCC_0 : v == 1 ? PF_OCC_1 : PF_FIX);
  }
}

/* `check` fixes every variable. */
static void check_request(struct gen *g) {
  pg_problem *p = g->p;
  for (int i = 0; i < p->nchoose; i++)
    add_fix(p, 0, i, some_value(g, i));
  if (p->uses_occupancy)
    add_fix(p, 0, PG_OCC, pick(&g->r, 0, p->m.ctas_per_sm + 1));
  for (int s = 0; s < p->ncounts; s++)
    add_fix(p, 1, s, pick(&g->r, p->lo[s], p->hi[s]));
  p->check = 1;
  p->features |= 1ull << PF_CHECK;
}

static void gen_request(struct gen *g) {
  pg_problem *p = g->p;
  struct rng *r = &g->r;
  int named = 0;
  for (int i = 0; i < p->nrequire; i++)
    named |= refers_to_occupancy(p, p->req[i].lhs) || refers_to_occupancy(p, p->req[i].rhs);
  int list = pg_objectives(p);
  for (int o = 0; o < p->nobj[list]; o++)
    named |= refers_to_occupancy(p, p->obj[list][o].expr);
  if (chance(r, 12)) {
    check_request(g);
    return;
  }
  if (p->uses_occupancy)
    occupancy_request(g, named);
  for (int i = 0; i < p->nchoose; i++) {
    if (chance(r, 15)) {
      add_fix(p, 0, i, some_value(g, i));
    } else if (chance(r, 15)) {
      int n = (int)pick(r, 1, 4);
      p->ndomain[i] = 0;
      for (int64_t v = pick(r, 1, 4); p->ndomain[i] < n; v += pick(r, 1, 5))
        p->domain[i][p->ndomain[i]++] = v;
      p->has_domain[i] = 1;
      p->features |= 1ull << PF_DOMAIN;
    }
  }
  for (int s = 0; s < p->ncounts; s++)
    if (chance(r, 10))
      add_fix(p, 1, s, pick(r, p->lo[s], p->hi[s]));
  if (chance(r, 18)) {
    p->top = (int)pick(r, 2, 6);
    p->features |= 1ull << PF_TOP;
  }
  /* --solver glpk where GLPK's tolerances hold: coefficients and
   * capacities below 10^6 (no 10^8 weight, no 2^40 capacity; the rest is
   * decided once the problem is whole, in_glpk_range); one in four of
   * those also without GLPK's presolver */
  int glpk = chance(r, 30), presolve_off = chance(r, 25);
  p->glpk = glpk && !p->top && !p->check && !(p->features & (1ull << PF_WEIGHT_1E9 | 1ull << PF_CAP_2_40));
  p->no_presolve = p->glpk && presolve_off;
  if (p->glpk)
    p->features |= 1ull << PF_GLPK;
}

int pg_objectives(const pg_problem *p) { return p->nobj[1] > 0; }

/* --------------------------------------------------- GLPK's range */

#define PG_GLPK_RANGE 1000000 /* coefficients and capacities below 10^6: GLPK's tolerances hold */

static int64_t sat(int64_t x) { return x > PG_GLPK_RANGE ? PG_GLPK_RANGE : x; } /* saturate: a bound, not a value */

/* The largest |value| choose variable i takes: its domain, the request's
 * narrowed one, a fix. */
static int64_t choose_bound(const pg_problem *p, int i) {
  int64_t m = i == PG_OCC ? p->m.ctas_per_sm + 1 : 0;
  for (int j = 0; i < PG_OCC && j < p->ndom[i]; j++)
    m = llabs(p->dom[i][j]) > m ? llabs(p->dom[i][j]) : m;
  for (int j = 0; p->has_domain[i] && j < p->ndomain[i]; j++)
    m = llabs(p->domain[i][j]) > m ? llabs(p->domain[i][j]) : m;
  for (int f = 0; f < p->nfix; f++)
    if (!p->fix[f].is_count && p->fix[f].var == i && llabs(p->fix[f].v) > m)
      m = llabs(p->fix[f].v);
  return sat(m);
}

/* An upper bound on |value| of node n over every variable's range,
 * saturated at the range: what GLPK's coefficients can reach. */
static int64_t magnitude(const pg_problem *p, int n) {
  const pg_node *x = &p->node[n];
  int64_t a = x->op >= PG_ADD && x->op <= PG_MAX ? magnitude(p, x->a) : 0;
  int64_t b = x->op >= PG_ADD && x->op <= PG_MAX ? magnitude(p, x->b) : 0;
  switch (x->op) {
  case PG_CONST: return sat(llabs(x->v));
  case PG_CHOOSE: return choose_bound(p, (int)x->v);
  case PG_COUNT: return sat(llabs(p->lo[x->v]) > llabs(p->hi[x->v]) ? llabs(p->lo[x->v]) : llabs(p->hi[x->v]));
  case PG_ADD:
  case PG_SUB: return sat(a + b);
  case PG_MUL: return a && b > PG_GLPK_RANGE / a ? PG_GLPK_RANGE : sat(a * b);
  case PG_CDIV:
  case PG_FDIV: return sat(a + 1);
  case PG_MIN:
  case PG_MAX: return a > b ? a : b;
  case PG_PLACED: return 1;
  case PG_LET: return magnitude(p, p->let[x->v]);
  case PG_PORDER: return 27;                              /* at most two placed buffers of three candidates */
  default: return sat(2 * pg_capacity(p, (int)x->v) + 1); /* used(MEM), slack(MEM) */
  }
}

/* Every size, require, objective and capacity below 10^6? */
static int in_glpk_range(const pg_problem *p) {
  int64_t m = 0;
  for (int mem = 0; mem < PG_NMEM; mem++)
    m = pg_capacity(p, mem) > m ? pg_capacity(p, mem) : m;
  m = p->m.smem_per_sm > m ? p->m.smem_per_sm : m;
  for (int b = 0; b < p->nbuffers; b++)
    for (int i = 0; i < (p->buf[b].nplace ? p->buf[b].nplace : 1); i++) {
      int e = p->buf[b].nplace ? p->buf[b].psize[i] : p->buf[b].size;
      m = magnitude(p, e) > m ? magnitude(p, e) : m;
    }
  for (int i = 0; i < p->nrequire; i++) {
    int64_t l = magnitude(p, p->req[i].lhs), r = magnitude(p, p->req[i].rhs);
    m = l > m ? l : r > m ? r : m;
  }
  for (int list = 0; list < 2; list++)
    for (int o = 0; o < p->nobj[list]; o++)
      m = magnitude(p, p->obj[list][o].expr) > m ? magnitude(p, p->obj[list][o].expr) : m;
  return m < PG_GLPK_RANGE;
}

void pg_generate(pg_problem *p, unsigned long long seed) {
  struct gen g;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.r.s = seed * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL;
  memset(p, 0, sizeof *p);
  p->seed = seed;
  p->nnodes = 1; /* node 0: the constant 0 */
  gen_machine(&g);
  gen_domains(&g);
  gen_counts(&g);
  p->uses_occupancy = chance(&g.r, 22);
  if (p->uses_occupancy && chance(&g.r, 50))
    p->threads = 32 * pick(&g.r, 1, 16);
  g.pad = p->uses_occupancy && chance(&g.r, 60);
  p->nbuffers = (int)pick(&g.r, 1, PG_MAX_BUFFERS - g.pad);
  for (int b = 0; b < p->nbuffers; b++)
    gen_buffer(&g, b);
  int nbuffers = p->nbuffers;
  if (g.pad)
    gen_pad(&g, p->nbuffers++);
  for (int b = 0; b < p->nbuffers; b++)
    p->buf[b].alias = -1, p->buf[b].pin = PG_NO_PIN;
  gen_placement(&g, nbuffers);
  gen_lifetimes(&g, nbuffers);
  p->nrequire = (int)pick(&g.r, 0, 3);
  for (int i = 0; i < p->nrequire; i++)
    gen_require(&g, i);
  gen_objectives(&g);
  gen_lets(&g);
  gen_request(&g);
  if (p->glpk && !in_glpk_range(p)) { /* decided last: the range depends on everything above */
    p->glpk = p->no_presolve = 0;
    p->features &= ~(1ull << PF_GLPK);
  }
  struct rng own = own_stream(p, 0xBB67AE8584CAA73BULL);
  p->top_points = p->top && chance(&own, 50); /* else --top ranks distinct configurations */
  if (p->top && !p->top_points)
    p->features |= 1ull << PF_TOP_CONFIGS;
  if (p->glpk && (p->features & (1ull << PF_PLACE)))
    p->features |= 1ull << PF_PLACE_GLPK;
}

/* ---------------------------------------------------------------- writing */

struct out {
  char *buf;
  size_t n, size;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...) {
  if (o->n >= o->size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + o->n, o->size - o->n, fmt, ap);
  va_end(ap);
  o->n = n < 0 ? o->size : o->n + (size_t)n;
}

const char *pg_choose_name(int slot) {
  static const char *const names[] = {"c0", "c1", "c2", "c3", "occupancy"};
  return names[slot];
}

const char *pg_count_name(int k) {
  static const char *const names[] = {"s0", "s1", "s2"};
  return names[k];
}

const char *const pg_mem_names[PG_NMEM] = {"smem", "tmem", "rf"};
#define mems pg_mem_names

static void expr_out(const pg_problem *p, int e, struct out *o) {
  const pg_node *n = &p->node[e];
  static const char *const infix[] = {[PG_ADD] = " + ", [PG_SUB] = " - ", [PG_MUL] = " * "};
  static const char *const call[] = {[PG_CDIV] = "cdiv", [PG_FDIV] = "fdiv", [PG_MIN] = "min", [PG_MAX] = "max"};
  switch (n->op) {
  case PG_CONST: put(o, n->v < 0 ? "(%lld)" : "%lld", (long long)n->v); return;
  case PG_CHOOSE: put(o, "%s", pg_choose_name((int)n->v)); return;
  case PG_COUNT: put(o, "%s", pg_count_name((int)n->v)); return;
  case PG_USED:
  case PG_SLACK: put(o, "%s(%s)", n->op == PG_USED ? "used" : "slack", mems[n->v]); return;
  case PG_PLACED: put(o, "placed(b%lld, %s)", (long long)n->v, mems[n->a]); return;
  case PG_LET: put(o, "l%lld", (long long)n->v); return;
  case PG_PORDER: put(o, "placement_order"); return;
  case PG_ADD:
  case PG_SUB:
  case PG_MUL:
    put(o, "(");
    expr_out(p, n->a, o);
    put(o, "%s", infix[n->op]);
    expr_out(p, n->b, o);
    put(o, ")");
    return;
  default:
    put(o, "%s(", call[n->op]);
    expr_out(p, n->a, o);
    put(o, ", ");
    expr_out(p, n->b, o);
    put(o, ")");
  }
}

void pg_expr_text(const pg_problem *p, int e, char *buf, size_t size) {
  struct out o = {buf, 0, size};
  buf[0] = 0;
  expr_out(p, e, &o);
}

static const char *const rel_text[] = {" <= ", " < ", " >= ", " > ", " == "};

static void require_out(const pg_problem *p, int i, struct out *o) {
  expr_out(p, p->req[i].lhs, o);
  put(o, "%s", rel_text[p->req[i].rel]);
  expr_out(p, p->req[i].rhs, o);
}

static void objective_out(const pg_problem *p, int list, int i, struct out *o) {
  put(o, "%s ", p->obj[list][i].max ? "max" : "min");
  expr_out(p, p->obj[list][i].expr, o);
}

void pg_machine_json(const pg_problem *p, char *buf, size_t size) {
  const pg_machine *m = &p->m;
  struct out o = {buf, 0, size};
  put(&o, "{\"name\": \"m\", \"description\": \"generated machine, seed %llu\", \"arch\": \"%s\",\n", p->seed,
      m->tmem_present ? "sm_100" : "sm_90");
  put(&o, " \"sm_count\": 132, \"clock_mhz\": 1980, \"hbm_gbps\": 3350, \"l2_bytes\": 52428800,\n");
  put(&o,
      " \"smem\": {\"capacity\": %lld, \"per_sm\": %lld, \"reserved_per_cta\": %lld, \"granule\": %lld, "
      "\"carveouts_kb\": [%lld], \"bytes_per_clk\": 128},\n",
      (long long)m->smem_capacity, (long long)m->smem_per_sm, (long long)m->smem_reserved, (long long)m->smem_granule,
      (long long)(m->smem_per_sm / 1024));
  if (m->tmem_present)
    put(&o, " \"tmem\": {\"columns\": %lld, \"lanes\": 128, \"min_alloc_columns\": %lld},\n",
        (long long)m->tmem_columns, (long long)m->tmem_min_alloc);
  put(&o, " \"rf\": {\"per_sm\": %lld, \"per_thread\": %lld, \"warp_granule\": %lld},\n", (long long)m->rf_per_sm,
      (long long)m->rf_per_thread, (long long)m->rf_warp_granule);
  put(&o, " \"limits\": {\"threads_per_sm\": %lld, \"ctas_per_sm\": %lld, \"threads_per_cta\": %lld},\n",
      (long long)m->threads_per_sm, (long long)m->ctas_per_sm, (long long)m->threads_per_cta);
  put(&o, " \"throughput\": {\"mma_f16_per_clk\": 4096, \"mma_f8_per_clk\": 8192, \"mma_f4_per_clk\": 0, "
          "\"exp_per_clk\": 16},\n \"sources\": {");
  static const char *const fields[] = {"sm_count",
                                       "clock_mhz",
                                       "hbm_gbps",
                                       "l2_bytes",
                                       "smem.capacity",
                                       "smem.per_sm",
                                       "smem.reserved_per_cta",
                                       "smem.granule",
                                       "smem.carveouts_kb",
                                       "smem.bytes_per_clk",
                                       "rf.per_sm",
                                       "rf.per_thread",
                                       "rf.warp_granule",
                                       "limits.threads_per_sm",
                                       "limits.ctas_per_sm",
                                       "limits.threads_per_cta",
                                       "throughput.mma_f16_per_clk",
                                       "throughput.mma_f8_per_clk",
                                       "throughput.mma_f4_per_clk",
                                       "throughput.exp_per_clk",
                                       "tmem.columns",
                                       "tmem.lanes",
                                       "tmem.min_alloc_columns",
                                       NULL};
  for (int i = 0; fields[i]; i++)
    if (m->tmem_present || strncmp(fields[i], "tmem.", 5))
      put(&o, "%s\"%s\": \"[derived] generated\"", i ? ", " : "", fields[i]);
  put(&o, "}}\n");
}

static void workset_vars(const pg_problem *p, struct out *o) {
  const char *sep = " \"params\": {";
  if (p->threads)
    put(o, "%s\"threads\": %lld", sep, (long long)p->threads), sep = ", ";
  for (int b = 0; b < p->nbuffers; b++)
    if (p->buf[b].pin != PG_NO_PIN)
      put(o, "%s\"pin_b%d\": %d", sep, b, p->buf[b].pin), sep = ", ";
  if (*sep == ',')
    put(o, "},\n");
  if (p->threads) /* occupancy reads the CTA size it is given as a role */
    put(o, " \"roles\": {\"threads\": \"threads\"},\n");
  put(o, " \"choose\": {");
  for (int i = 0; i < p->nchoose; i++) {
    put(o, "%s\"%s\": [", i ? ", " : "", pg_choose_name(i));
    for (int j = 0; j < p->ndom[i]; j++)
      put(o, "%s%lld", j ? ", " : "", (long long)p->dom[i][j]);
    put(o, "]");
  }
  put(o, "},\n \"count\": {");
  for (int s = 0; s < p->ncounts; s++)
    put(o, "%s\"%s\": {\"min\": %lld, \"max\": %lld}", s ? ", " : "", pg_count_name(s), (long long)p->lo[s],
        (long long)p->hi[s]);
  put(o, "},\n");
  for (int i = 0; i < p->nlets; i++) {
    put(o, "%s\"l%d\": \"", i ? ", " : " \"let\": {", i);
    expr_out(p, p->let[i], o);
    put(o, "\"%s", i + 1 == p->nlets ? "},\n" : "");
  }
}

/* A buffer's memory or place list and its size or sizes. */
static void buffer_out(const pg_problem *p, int b, struct out *o) {
  if (!p->buf[b].nplace) {
    put(o, "\"memory\": \"%s\", \"size\": \"", mems[p->buf[b].mem]);
    expr_out(p, p->buf[b].size, o);
    put(o, "\"");
    return;
  }
  put(o, "\"place\": [");
  for (int i = 0; i < p->buf[b].nplace; i++)
    put(o, "%s\"%s\"", i ? ", " : "", mems[p->buf[b].place[i]]);
  put(o, "], \"size\": {");
  for (int i = 0; i < p->buf[b].nplace; i++) {
    put(o, "%s\"%s\": \"", i ? ", " : "", mems[p->buf[b].place[i]]);
    expr_out(p, p->buf[b].psize[i], o);
    put(o, "\"");
  }
  put(o, "}");
  if (p->buf[b].pin != PG_NO_PIN)
    put(o, ", \"pin\": \"pin_b%d\"", b);
}

void pg_workset_json(const pg_problem *p, char *buf, size_t size) {
  struct out o = {buf, 0, size};
  put(&o, "{\"name\": \"gen%llu\",\n", p->seed);
  workset_vars(p, &o);
  put(&o, " \"buffers\": [");
  for (int b = 0; b < p->nbuffers; b++) {
    put(&o, "%s\n  {\"name\": \"b%d\", ", b ? "," : "", b);
    buffer_out(p, b, &o);
    if (p->buf[b].alias >= 0)
      put(&o, ", \"alias\": \"b%d\"", p->buf[b].alias);
    if (p->buf[b].align > 1)
      put(&o, ", \"align\": %lld", (long long)p->buf[b].align);
    if (p->buf[b].life >= 0)
      put(&o, ", \"lifetime\": \"p%d\"", p->buf[b].life);
    put(&o, "}");
  }
  if (p->norder) {
    put(&o, "],\n \"layout_order\": [");
    for (int i = 0; i < p->norder; i++)
      put(&o, "%s\"b%d\"", i ? ", " : "", p->order[i]);
  }
  put(&o, "],\n \"require\": [");
  for (int i = 0, n = 0; i < p->nrequire; i++)
    if (!p->req[i].on_cli) {
      put(&o, "%s\"", n++ ? ", " : "");
      require_out(p, i, &o);
      put(&o, "\"");
    }
  put(&o, "],\n \"objective\": [");
  for (int i = 0; i < p->nobj[0]; i++) {
    put(&o, "%s\"", i ? ", " : "");
    objective_out(p, 0, i, &o);
    put(&o, "\"");
  }
  put(&o, "]}\n");
}

/* Copies a string into the argument store. */
static char *arg(struct out *store, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *arg(struct out *store, const char *fmt, ...) {
  char *s = store->buf + store->n;
  va_list ap;
  va_start(ap, fmt);
  int n = store->n < store->size ? vsnprintf(s, store->size - store->n, fmt, ap) : -1;
  va_end(ap);
  store->n = n < 0 ? store->size : store->n + (size_t)n + 1;
  return store->n <= store->size ? s : (char *)"";
}

/* Keeps what was written at the free end of the store as one argument. */
static char *claim(struct out *store, const struct out *text) {
  char *s = store->buf + store->n;
  store->n += text->n + 1;
  return store->n <= store->size ? s : (char *)"";
}

static int request_args(const pg_problem *p, char **argv, int argc, struct out *st) {
  for (int i = 0; i < p->nfix; i++) {
    argv[argc++] = "--fix";
    argv[argc++] = arg(st, "%s=%lld", p->fix[i].is_count ? pg_count_name(p->fix[i].var) : pg_choose_name(p->fix[i].var),
                       (long long)p->fix[i].v);
  }
  for (int i = 0; i <= PG_OCC; i++) {
    if (!p->has_domain[i])
      continue;
    struct out list = {st->buf + st->n, 0, st->size - st->n};
    put(&list, "%s=", pg_choose_name(i));
    for (int j = 0; j < p->ndomain[i]; j++)
      put(&list, "%s%lld", j ? "," : "", (long long)p->domain[i][j]);
    argv[argc++] = "--domain";
    argv[argc++] = claim(st, &list);
  }
  for (int b = 0; b < p->nbuffers; b++)
    if (p->buf[b].cli_place) { /* --place bN=rf,smem: the memories in reverse, which must not matter */
      struct out list = {st->buf + st->n, 0, st->size - st->n};
      put(&list, "b%d=", b);
      for (int m = PG_NMEM - 1, n = 0; m >= 0; m--)
        if ((p->buf[b].cli_place >> m) & 1)
          put(&list, "%s%s", n++ ? "," : "", mems[m]);
      argv[argc++] = "--place";
      argv[argc++] = claim(st, &list);
    }
  for (int i = 0; i < p->nrequire; i++)
    if (p->req[i].on_cli) {
      struct out text = {st->buf + st->n, 0, st->size - st->n};
      require_out(p, i, &text);
      argv[argc++] = "--require";
      argv[argc++] = claim(st, &text);
    }
  return argc;
}

int pg_args(const pg_problem *p, const char *mfile, const char *wfile, char **argv, char *store, size_t size) {
  struct out st = {store, 0, size};
  int argc = 0;
  argv[argc++] = "tilefit";
  argv[argc++] = p->check ? "check" : "solve";
  argv[argc++] = "-m";
  argv[argc++] = (char *)mfile;
  argv[argc++] = "-w";
  argv[argc++] = (char *)wfile;
  argc = request_args(p, argv, argc, &st);
  for (int i = 0; i < p->nobj[1] && !p->check; i++) {
    struct out text = {st.buf + st.n, 0, st.size - st.n};
    objective_out(p, 1, i, &text);
    argv[argc++] = "--objective";
    argv[argc++] = claim(&st, &text);
  }
  if (p->top) {
    if (p->top_points)
      argv[argc++] = "--top-points";
    argv[argc++] = "--top";
    argv[argc++] = arg(&st, "%d", p->top);
  }
  if (p->glpk) {
    argv[argc++] = "--solver";
    argv[argc++] = "glpk";
  }
  if (p->no_presolve)
    argv[argc++] = "--no-presolve";
  argv[argc++] = "--jsonl";
  argv[argc] = NULL;
  return argc;
}
