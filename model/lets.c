#include "lets.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "workset.h"

/* ------------------------------------------------------------ the walk */

/* A let on the walk's stack: its symbols, each once, in order of first
 * use, and the next one to look at. */
struct frame {
  size_t let, next;
  int *sym;
  size_t n, cap;
};

struct walk {
  tf_workset *w;
  int *state;    /* per let: 0 not reached, 1 on the stack, 2 finished */
  size_t norder;
};

static void collect_once(void *ctx, int sym) {
  struct frame *f = ctx;
  for (size_t i = 0; i < f->n; i++)
    if (f->sym[i] == sym)
      return;
  TF_PUSH(f->sym, f->n, f->cap, sym);
}

static void open_frame(struct walk *k, struct frame *f, size_t let) {
  memset(f, 0, sizeof *f);
  f->let = let;
  k->state[let] = 1;
  tf_expr_each_symbol(k->w->lets[let].expr, collect_once, f);
}

/* The error binding will report for symbol `sym` of let `let`, if any. */
static int symbol_error(struct walk *k, size_t let, int sym) {
  tf_workset *w = k->w;
  enum tf_sym_kind kind = tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_DERIVED || kind == TF_SYM_OCCUPANCY)
    return tf_error_set(&w->let_graph.error, TF_EINPUT, w->lets[let].path,
                        "used(), slack() and occupancy may appear only in require and objective");
  size_t j = (size_t)(sym - tf_workset_sym_let(w, 0));
  if (kind == TF_SYM_LET && k->state[j] == 1)
    return tf_error_set(&w->let_graph.error, TF_EINPUT, w->lets[j].path, "cyclic definition of '%s'",
                        w->lets[j].name);
  return 0;
}

/* A let whose every let is finished: its place in the order, whether it
 * may depend on a count (its nodes marked), whether it is fixed. */
static void finish(struct walk *k, size_t let) {
  tf_let_graph *g = &k->w->let_graph;
  k->state[let] = 2;
  g->order[k->norder++] = (int)let;
  g->affine[let] = !tf_expr_mark_count_free(k->w->lets[let].expr, tf_lets_affine, k->w);
}

/* Walks depth first from one let; -1 (the stack emptied) on an error. */
static int walk_from(struct walk *k, size_t root, struct frame *stack) {
  size_t depth = 1;
  open_frame(k, &stack[0], root);
  while (depth) {
    struct frame *top = &stack[depth - 1];
    if (top->next == top->n) {
      finish(k, top->let);
      free(top->sym);
      depth--;
      continue;
    }
    int sym = top->sym[top->next++];
    if (symbol_error(k, top->let, sym)) {
      while (depth)
        free(stack[--depth].sym);
      return -1;
    }
    size_t j = (size_t)(sym - tf_workset_sym_let(k->w, 0));
    if (tf_workset_sym_kind(k->w, sym) == TF_SYM_LET && k->state[j] == 0)
      open_frame(k, &stack[depth++], j);
  }
  return 0;
}

/* ------------------------------------------------- uses, fixed lets */

struct uses {
  const tf_workset *w;
  tf_let_graph *g;
  size_t n;      /* uses so far */
  int fixed;     /* so far, for the let being looked at */
};

static void count_use(void *ctx, int sym) {
  struct uses *u = ctx;
  enum tf_sym_kind kind = tf_workset_sym_kind(u->w, sym);
  if (kind == TF_SYM_LET) {
    int j = sym - tf_workset_sym_let(u->w, 0);
    if (u->g->use)
      u->g->use[u->n] = j;
    u->n++;
    u->fixed &= u->g->fixed[j];
  } else {
    u->fixed &= kind == TF_SYM_PARAM || kind == TF_SYM_MACHINE;
  }
}

/* The lets each let uses (two passes: count, then fill), and in the
 * order's pass which lets are fixed. */
static void find_uses(tf_workset *w) {
  tf_let_graph *g = &w->let_graph;
  g->use_start = tf_nalloc(w->nlets + 1, sizeof *g->use_start);
  tf_let_graph counting = {.fixed = g->fixed};
  struct uses u = {w, &counting, 0, 1};
  for (size_t i = 0; i < w->nlets; i++)
    tf_expr_each_symbol(w->lets[i].expr, count_use, &u);
  g->use = tf_nalloc(u.n + 1, sizeof *g->use);
  u.g = g;
  u.n = 0;
  for (size_t i = 0; i < w->nlets; i++) {
    g->use_start[i] = u.n;
    tf_expr_each_symbol(w->lets[i].expr, count_use, &u);
  }
  g->use_start[w->nlets] = u.n;
  tf_let_graph fixed_only = {.fixed = g->fixed}; /* count_use without recording uses */
  for (size_t k = 0; k < w->nlets; k++) {        /* dependencies first */
    size_t i = (size_t)g->order[k];
    struct uses one = {w, &fixed_only, 0, 1};
    tf_expr_each_symbol(w->lets[i].expr, count_use, &one);
    g->fixed[i] = (unsigned char)one.fixed;
  }
}

/* -------------------------------------------------------------- entry */

int tf_lets_affine(void *ctx, int sym) {
  const tf_workset *w = ctx;
  enum tf_sym_kind kind = tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_LET)
    return w->let_graph.affine[sym - tf_workset_sym_let(w, 0)];
  return kind == TF_SYM_COUNT || kind == TF_SYM_DERIVED;
}

void tf_lets_analyse(tf_workset *w) {
  tf_let_graph *g = &w->let_graph;
  tf_error_init(&g->error);
  g->order = tf_nalloc(w->nlets + 1, sizeof *g->order);
  g->affine = tf_nalloc(w->nlets + 1, 1);
  g->fixed = tf_nalloc(w->nlets + 1, 1);
  memset(g->affine, 1, w->nlets); /* until finished: a let in a cycle stays affine */
  struct walk k = {w, tf_nalloc(w->nlets + 1, sizeof *k.state), 0};
  struct frame *stack = tf_nalloc(w->nlets + 1, sizeof *stack);
  int rc = 0;
  for (size_t i = 0; i < w->nlets && !rc; i++)
    if (!k.state[i])
      rc = walk_from(&k, i, stack);
  free(stack);
  free(k.state);
  if (rc) {
    free(g->order);
    g->order = NULL;
    return;
  }
  find_uses(w);
}

void tf_lets_release(tf_let_graph *g) {
  free(g->order);
  free(g->use_start);
  free(g->use);
  free(g->affine);
  free(g->fixed);
  memset(g, 0, sizeof *g);
}
