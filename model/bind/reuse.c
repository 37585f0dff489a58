#include "model/bind/reuse.h"

#include "model/bind/problem_internal.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/input/lets.h"
#include "model/input/place.h"
#include "model/input/workset.h"

#define EVERY TF_REUSE_EVERY

struct reads {
  const tf_workset *w;
  uint64_t bits;
};

/* What reading symbol `sym` makes a value depend on.  used() and slack()
 * are set per combination: a value that reads them is evaluated at every
 * combination. */
static void add_read(void *ctx, int sym) {
  struct reads *r = ctx;
  const tf_workset *w = r->w;
  switch (tf_workset_sym_kind(w, sym)) {
  case TF_SYM_PARAM:
  case TF_SYM_MACHINE:
  case TF_SYM_COUNT: return; /* the same at every combination */
  case TF_SYM_CHOOSE: r->bits |= (uint64_t)1 << (sym - tf_workset_sym_choose(w, 0)); return;
  case TF_SYM_LET: r->bits |= w->let_graph.choose[sym - tf_workset_sym_let(w, 0)]; return;
  case TF_SYM_PLACED: r->bits |= TF_LETS_PLACED; return;
  case TF_SYM_OCCUPANCY: r->bits |= TF_LETS_OCCUPANCY; return;
  case TF_SYM_DERIVED: r->bits = EVERY; return;
  }
  r->bits = EVERY; /* a kind this switch does not name: every combination */
}

static uint64_t reads_of(const tf_problem *p, const tf_expr *e) {
  struct reads r = {p->workset, 0};
  tf_expr_each_symbol(e, add_read, &r);
  return r.bits;
}

/* A buffer reads its size expressions, and its placement when it has one
 * (the size expression is the one of its memory). */
static uint64_t buffer_reads(const tf_problem *p, size_t b) {
  const tf_buffer *buf = &p->workset->buffers[b];
  tf_expr *sizes[TF_NMEM];
  uint64_t bits = buf->nplace ? TF_LETS_PLACED : 0;
  for (int k = 0, n = tf_buffer_sizes(buf, sizes); k < n; k++)
    bits |= reads_of(p, sizes[k]);
  return bits;
}

void tf_reuse_init(tf_reuse *r, const tf_problem *p) {
  memset(r, 0, sizeof *r);
  r->n = p->nbuffers + 2 * p->nrequire + p->nobjective;
  r->reads = tf_nalloc(r->n + 1, sizeof *r->reads);
  r->stale = tf_nalloc(r->n + 1, sizeof *r->stale);
  r->value = tf_nalloc(r->n + 1, sizeof *r->value);
  for (size_t b = 0; b < p->nbuffers; b++)
    r->reads[tf_reuse_buffer(b)] = buffer_reads(p, b);
  for (size_t q = 0; q < p->nrequire; q++) {
    const tf_expr *side[2];
    tf_expr_relation(p->require[q], &side[0], &side[1]);
    for (int s = 0; s < 2; s++)
      r->reads[tf_reuse_side(p, q, s)] = reads_of(p, side[s]);
  }
  for (size_t o = 0; o < p->nobjective; o++)
    r->reads[tf_reuse_objective(p, o)] = reads_of(p, p->objective[o].expr);
  for (size_t i = 0; i < r->n; i++)
    r->stale[i] = EVERY;
}

void tf_reuse_release(tf_reuse *r) {
  free(r->reads);
  free(r->stale);
  free(r->value);
  memset(r, 0, sizeof *r);
}

/* Any change, whichever variable: what a value that reads every
 * combination (EVERY) meets.  Above the workset's variables, below
 * TF_LETS_PLACED. */
#define ANY_CHANGE ((uint64_t)1 << 62)
_Static_assert(TF_MAX_CHOOSE < 61, "a choose variable's bit would meet TF_LETS_OCCUPANCY or ANY_CHANGE");

/* The variables' bits as the let graph names them (tf_problem_var_bit),
 * and ANY_CHANGE. */
void tf_reuse_next(tf_reuse *r, const tf_problem *p, const int64_t *choose) {
  uint64_t changed = r->started ? 0 : EVERY;
  for (size_t i = 0; i < p->nchoose; i++)
    if (r->started && choose[i] != r->at[i])
      changed |= ANY_CHANGE | tf_problem_var_bit(p, i);
  memcpy(r->at, choose, p->nchoose * sizeof *choose);
  r->started = 1;
  for (size_t i = 0; changed && i < r->n; i++)
    r->stale[i] |= changed;
}

int tf_reuse_evaluate(tf_reuse *r, size_t i, const tf_expr *e, const tf_eval_env *env, tf_error *err) {
  if (tf_expr_eval(e, env, &r->value[i], err))
    return -1;
  r->stale[i] = 0;
  return 0;
}
