/* Exact bounds over a box of counts, for the exact search (search.c).
 *
 * At a kept combination every buffer size, require row and objective is an
 * affine form in the counts (model/bind/problem.h), and a buffer's charge,
 * align * ceil(size / align), is monotone in its size.  So over a box
 * lo <= x <= hi the least and greatest value of each is reached at a corner
 * chosen per coordinate by the sign of its coefficient: the bounds below are
 * exact integers, not estimates.  Arithmetic is in 128 bits: a count
 * (|x| <= 2^53, checked when the problem is bound) times an int64
 * coefficient, summed over at most three counts, stays below 2^118; sums
 * over buffers saturate at +-2^120, which still compares correctly with
 * every int64 capacity. */
#ifndef TF_ENCODE_BOUND_H
#define TF_ENCODE_BOUND_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"

__extension__ typedef __int128 tf_wide;

typedef struct tf_box {
  int64_t lo[TF_MAX_COUNTS], hi[TF_MAX_COUNTS];
} tf_box;

enum tf_box_kind {
  TF_BOX_NONE, /* no point of the box fits */
  TF_BOX_SOME, /* some may, some may not */
  TF_BOX_ALL,  /* every point fits */
};

/* The box of a problem's count bounds. */
void tf_box_full(const tf_problem *p, tf_box *b);

/* Shrinks the box by the linear consequences of fitting (each require row,
 * each size >= 0, each memory's unrounded total <= its bound), removing only
 * points that cannot fit.  Returns 0 when nothing is left, 1 otherwise. */
int tf_box_narrow(const tf_problem *p, size_t c, tf_box *b);

/* Tightens box b by one row f[0] + sum f[1 + i] x_i <= 0 (coefficients
 * below 2^70 in magnitude): each count by what the others leave it;
 * *changed set when a bound moved.  Returns 0 when no point of the box
 * satisfies the row. */
int tf_box_narrow_le(const tf_wide *f, int n, tf_box *b, int *changed);

/* Every memory row at combination c, f[mr] for mr < TF_NMEM *
 * tf_memory_nrows(p) (memory mr / nrows, row mr % nrows; the count is
 * returned), as f[0] + sum f[1 + i] x_i <= 0: its unrounded total, a
 * count-free size as charged, minus the memory's bound, which every point
 * that fits satisfies; ok[mr] is 1 when the row depends on a count and its
 * coefficients stay below 2^70 in magnitude, else 0.  f and ok hold
 * TF_MEMORY_SLOTS rows. */
int tf_box_memory_rows(const tf_problem *p, size_t c, tf_wide (*f)[1 + TF_MAX_COUNTS], unsigned char *ok);

/* Exactly which of the three the box is, at combination c. */
int tf_box_classify(const tf_problem *p, size_t c, const tf_box *b);

/* The same two at a box of one point, x: TF_BOX_NONE or TF_BOX_ALL (what
 * tf_box_classify and tf_box_score_bound give at lo = hi = x), for the
 * search's scan of small problems. */
int tf_point_classify(const tf_problem *p, size_t c, const int64_t *x);
void tf_point_score(const tf_problem *p, size_t c, const int64_t *x, tf_wide *score);

/* Per objective, the best value over the box, each level on its own
 * (larger is better: a min objective's value is negated). */
void tf_box_score_bound(const tf_problem *p, size_t c, const tf_box *b, tf_wide *score);

/* The lexicographically best point of a box whose every point fits: each
 * level fixes the counts its objective depends on at the end it prefers;
 * counts no level depends on take their smallest value. */
void tf_box_best_point(const tf_problem *p, size_t c, const tf_box *b, int64_t *counts);

#endif
