#include "model/input/lets.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/input/workset.h"

/* ------------------------------------------------------------ the walk */

/* A let on the walk's stack: its symbols, each once, in order of first
 * use, and the next one to look at. */
struct frame {
  size_t let, next;
  tf_symbols syms;
};

struct walk {
  tf_workset *w;
  int *state; /* per let: 0 not reached, 1 on the stack, 2 finished */
  size_t norder;
  size_t nuse, capuse;
};

static void open_frame(struct walk *k, struct frame *f, size_t let) {
  memset(f, 0, sizeof *f);
  f->let = let;
  k->state[let] = 1;
  tf_expr_symbols(k->w->lets[let].expr, &f->syms);
}

/* The error binding will report for symbol `sym` of let `let`, if any. */
static int symbol_error(struct walk *k, size_t let, int sym) {
  tf_workset *w = k->w;
  enum tf_sym_kind kind = tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_DERIVED)
    return tf_error_set(&w->let_graph.error, TF_EINPUT, w->lets[let].path,
                        "used() and slack() may appear only in require and objective");
  size_t j = (size_t)(sym - tf_workset_sym_let(w, 0));
  if (kind == TF_SYM_LET && k->state[j] == 1)
    return tf_error_set(&w->let_graph.error, TF_EINPUT, w->lets[j].path, "cyclic definition of '%s'", w->lets[j].name);
  return 0;
}

/* A let whose every let is finished, with its symbols: its place in the
 * order, the lets it uses, whether it is fixed, and whether it may depend
 * on a count (its count-free nodes marked). */
static void finish(struct walk *k, const struct frame *f) {
  tf_workset *w = k->w;
  tf_let_graph *g = &w->let_graph;
  size_t let = f->let;
  int fixed = 1;
  uint64_t choose = 0;
  k->state[let] = 2;
  g->order[k->norder++] = (int)let;
  g->use_start[let] = k->nuse;
  for (size_t i = 0; i < f->syms.n; i++) {
    enum tf_sym_kind kind = tf_workset_sym_kind(w, f->syms.v[i]);
    int j = f->syms.v[i] - tf_workset_sym_let(w, 0);
    if (kind == TF_SYM_LET) {
      TF_PUSH(g->use, k->nuse, k->capuse, j);
      choose |= g->choose[j];
    }
    if (kind == TF_SYM_CHOOSE)
      choose |= (uint64_t)1 << (f->syms.v[i] - tf_workset_sym_choose(w, 0));
    if (kind == TF_SYM_PLACED)
      choose |= TF_LETS_PLACED;
    if (kind == TF_SYM_OCCUPANCY)
      choose |= TF_LETS_OCCUPANCY;
    fixed &= kind == TF_SYM_LET ? g->fixed[j] : kind == TF_SYM_PARAM || kind == TF_SYM_MACHINE;
  }
  g->use_count[let] = k->nuse - g->use_start[let];
  g->fixed[let] = (unsigned char)fixed;
  g->choose[let] = choose;
  g->affine[let] = !tf_expr_mark_count_free(w->lets[let].expr, tf_lets_affine, w);
}

/* Walks depth first from one let; -1 (the stack emptied) on an error. */
static int walk_from(struct walk *k, size_t root, struct frame *stack) {
  size_t depth = 1;
  open_frame(k, &stack[0], root);
  while (depth) {
    struct frame *top = &stack[depth - 1];
    if (top->next == top->syms.n) {
      finish(k, top);
      tf_symbols_release(&top->syms);
      depth--;
      continue;
    }
    int sym = top->syms.v[top->next++];
    if (symbol_error(k, top->let, sym)) {
      while (depth)
        tf_symbols_release(&stack[--depth].syms);
      return -1;
    }
    size_t j = (size_t)(sym - tf_workset_sym_let(k->w, 0));
    if (tf_workset_sym_kind(k->w, sym) == TF_SYM_LET && k->state[j] == 0)
      open_frame(k, &stack[depth++], j);
  }
  return 0;
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
  g->choose = tf_nalloc(w->nlets + 1, sizeof *g->choose);
  g->use_start = tf_nalloc(w->nlets + 1, sizeof *g->use_start);
  g->use_count = tf_nalloc(w->nlets + 1, sizeof *g->use_count);
  memset(g->affine, 1, w->nlets); /* until finished: a let in a cycle stays affine */
  struct walk k = {w, tf_nalloc(w->nlets + 1, sizeof *k.state), 0, 0, 0};
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
  }
}

void tf_lets_release(tf_let_graph *g) {
  free(g->order);
  free(g->use_start);
  free(g->use_count);
  free(g->use);
  free(g->affine);
  free(g->fixed);
  free(g->choose);
  memset(g, 0, sizeof *g);
}
