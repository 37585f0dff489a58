/* Problem -> ILP (docs/design.md, "How it works"):
 *   pick[c]      binary, one per kept combination, sum = 1
 *   count[k][c]  integer, lo_k * pick[c] <= count[k][c] <= hi_k * pick[c],
 *                so a count times a combination-dependent coefficient stays
 *                linear; the count's value is sum_c count[k][c]
 *   units[b]     integer, align_b * units[b] >= size_b, for each buffer whose
 *                size depends on a count and is rounded up (exact rounding),
 *                one per memory a placement may put the buffer in
 *   cap(MEM)     the memory's sum of rounded sizes <= capacity
 *   require rows, then the objectives in lexicographic order. */
#ifndef TF_ENCODE_BUILD_H
#define TF_ENCODE_BUILD_H

#include "encode/ilp.h"
#include "model/bind/problem.h"
#include "model/core/error.h"

#define TF_NO_COL ((size_t)-1)

typedef struct tf_model {
  tf_ilp ilp;
  size_t *pick;       /* column of pick[c], per combination */
  size_t *count_col;  /* column of count[k][c], at c * ncounts + k */
  int64_t *count_top; /* its upper bound, tightened by capacity */
  size_t *units_col;  /* per buffer and memory, at b * TF_NMEM + mem: column of units[b], or TF_NO_COL */
  size_t ncombos;
  int ncounts;
} tf_model;

/* Builds the ILP of a problem with at least one combination: every kept
 * combination (those that fit at the smallest counts), one binary each --
 * what --solver glpk solves (solver/solve_ilp.h) and --lp / --mps write
 * (solver/export.h).  Errors: coefficients beyond 2^53 (TF_EINPUT). */
int tf_model_build(tf_model *m, const tf_problem *p, tf_error *err);

/* Appends the exact search's own order on ties as last levels: the
 * combination first in enumeration order (min sum_c c * pick[c]), then
 * the smallest counts in order (min count[k], k = 0, 1, ...), so that a
 * solver that reaches every level returns the exact search's point, not
 * another one of the same values (docs/design.md, "The exact search":
 * the order is total).  For --solver glpk when its first point ties
 * with the exact one at every level (solver/solve_ilp.c); the exported
 * levels stop at the problem's objectives. */
void tf_model_add_search_order(tf_model *m, const tf_problem *p);

void tf_model_release(tf_model *m);

#endif
