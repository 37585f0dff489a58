/* A workset's lets as a graph, analysed once when the workset loads, so
 * that binding a problem (once per sweep point) walks no let's expression:
 *   - an order in which every let comes after the lets it uses, found
 *     without recursion (a chain of lets may be as long as a file allows);
 *   - the lets each let uses;
 *   - which lets may depend on a count (evaluated with affine forms; the
 *     rest in int64 alone, model/expr/expr.h tf_expr_mark_count_free);
 *   - which depend only on params and machine constants (the same at every
 *     point of a problem: evaluated once, when it is bound), and on which
 *     choose variables the others depend (a combination re-evaluates only
 *     the lets whose choose variables changed since the last one).
 * A cycle, or a let that uses used(), slack() or occupancy, is kept as the
 * error binding reports (the workset itself loads, as it always has). */
#ifndef TF_MODEL_LETS_H
#define TF_MODEL_LETS_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"

typedef struct tf_let_graph {
  int *order;        /* NULL when `error` says why there is none */
  tf_error error;    /* what binding reports, or code TF_OK */
  size_t *use_start; /* the lets let i uses: use_count[i] of them */
  size_t *use_count; /* from use[use_start[i]] on */
  int *use;
  unsigned char *affine; /* per let: its value may depend on a count */
  unsigned char *fixed;  /* per let: it uses only params, machine constants and fixed lets */
  uint64_t *choose;      /* per let: bit i, it depends (maybe through lets) on choose variable i; */
} tf_let_graph;          /* TF_LETS_PLACED: on a placement (placed(), placement_order); TF_LETS_OCCUPANCY */

#define TF_LETS_PLACED ((uint64_t)1 << 63)    /* above the TF_MAX_CHOOSE workset variables */
#define TF_LETS_OCCUPANCY ((uint64_t)1 << 61) /* on "occupancy" (1 where the problem has no such variable) */

struct tf_workset;

/* Fills w->let_graph from the workset's bound let expressions and marks
 * their count-free nodes. */
void tf_lets_analyse(struct tf_workset *w);
void tf_lets_release(tf_let_graph *g);

/* May symbol `sym` of the workset depend on a count?  (Counts, used() and
 * slack(), and lets that may.)  For tf_expr_mark_count_free; ctx is the
 * workset. */
int tf_lets_affine(void *ctx, int sym);

#endif
