/* A tighter exact bound on a box's objectives, for the exact search
 * (search.c): the linear relaxation of the count subproblem, one row at a
 * time.
 *
 * Every point that fits at combination c satisfies each row f <= 0 of
 * tf_rows_of: each memory row's unrounded total minus its bound (a charge
 * is never below its size; the rows tf_box_narrow narrows by) and each
 * require row (a >= row negated, an == row both ways).  So the greatest
 * value of an objective level over the points of a box that satisfy one
 * such row -- a continuous knapsack over the box, solved exactly in
 * integers by taking the counts in order of objective lost per unit of
 * the row gained, and rounded down because a level's value at a point is
 * an integer -- bounds that level over every fitting point of the box, and
 * so does the least of these over the rows.  With counts first and their
 * maxima out of reach the box's corner is never near the optimum, and this
 * bound prunes most combinations before they are narrowed or split
 * (bench/engine.md, "Counts first").  It equals tf_box_score_bound where
 * the box's preferred corner satisfies every row: at a point that fits,
 * and over a box every point of which fits. */
#ifndef TF_ENCODE_RELAX_H
#define TF_ENCODE_RELAX_H

#include <stddef.h>

#include "solver/search/bound.h"

/* The rows of one combination, kept while the search stays on it. */
typedef struct tf_rows {
  size_t combo; /* whose rows; SIZE_MAX: none yet */
  int n, nall, cap;
  tf_wide *f; /* nall rows of 1 + ncounts: f[0] + sum f[1 + i] x_i <= 0; the n first
                   relax, the others (each count-dependent size >= 0) only narrow */
} tf_rows;

void tf_rows_init(tf_rows *r);
void tf_rows_release(tf_rows *r);

/* Makes r combination c's rows (nothing to do when they are already):
 * the rows whose every coefficient is below 2^62 in magnitude and that
 * depend on a count; the others are left out, which only loosens the
 * bound. */
void tf_rows_of(const tf_problem *p, size_t c, tf_rows *r);

/* tf_box_narrow by these rows (the same rows but those left out above),
 * which the search builds once per combination rather than once per box:
 * removes only points that cannot fit; 0 when nothing is left. */
int tf_rows_narrow(const tf_problem *p, size_t c, tf_rows *r, tf_box *b);

/* tf_box_score_bound, each level with a count lowered to the least of its
 * rows' relaxations; every level -2^120 when some row holds at no point of
 * the box (no point fits). */
void tf_box_score_relaxed(const tf_problem *p, size_t c, tf_rows *r, const tf_box *b, tf_wide *score);

/* The same where score already holds tf_box_score_bound's: a caller
 * that can drop the box on that bound alone need not pay for this. */
void tf_box_score_tighten(const tf_problem *p, size_t c, tf_rows *r, const tf_box *b, tf_wide *score);

/* The greatest value of c[0] + sum c[1 + i] x_i over the real points of
 * box b with f[0] + sum f[1 + i] x_i <= 0, rounded down (the continuous
 * knapsack above); -2^120 when no point of the box satisfies the row.
 * Every |c| below 2^63 and |f| below 2^62.  What the search over boxes of
 * combinations bounds a box's level by, with the box's linear forms. */
tf_wide tf_relax_level(const tf_wide *c, const tf_wide *f, int n, const tf_box *b);

#endif
