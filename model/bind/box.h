/* Bounds over a box of choose combinations, for the exact search's boxes
 * of choose variables (solver/search/space.c), without binding any one of
 * them.
 *
 * A box is a range of domain indices per choose variable (occupancy and
 * placements included): every combination whose i-th value is
 * domain[i][lo[i] .. hi[i]].  Each symbol takes the interval of its
 * values over the box, and the lets, buffer sizes, require rows and
 * objectives are bounded by model/expr/interval.h: affine forms in the
 * counts whose constants and coefficients lie in intervals.  From them:
 *
 *   - EMPTY: no combination of the box has a point that fits: some
 *     memory's least use over the box and the counts' box (each buffer of
 *     one memory throughout the box charged its least size, rounded up:
 *     a charge is monotone in the size) is above the most that memory
 *     offers anywhere in the box, or some require row holds nowhere;
 *   - OPEN: otherwise, with each objective's interval form, which bounds
 *     the objective at every point of the box;
 *   - OPAQUE: some value may fail to evaluate at a combination of the
 *     box (a division by zero, an inexact `/`, a count where none may
 *     stand, a negative size, an overflow; interval.h), or reads what a
 *     box cannot bound (used() and slack()).  Nothing may be concluded:
 *     the search splits the box, down to single combinations, which it
 *     binds as binding always has -- so an error is met exactly where
 *     binding every combination would meet it.
 *
 * Everything dropped as EMPTY would have been dropped by binding (it does
 * not fit at the smallest counts or violates a require) or has no point
 * that fits; a box's objective forms hold every combination's. */
#ifndef TF_MODEL_BOX_H
#define TF_MODEL_BOX_H

#include <stdint.h>

#include "model/bind/problem.h"
#include "model/expr/interval.h"

__extension__ typedef __int128 tf_wide;

enum tf_cbox_kind { TF_CBOX_OPEN, TF_CBOX_EMPTY, TF_CBOX_OPAQUE };

/* A box of combinations: domain index ranges, lo[i] <= hi[i] < ndomain[i]. */
typedef struct tf_cbox {
  uint32_t lo[TF_MAX_CHOOSE], hi[TF_MAX_CHOOSE];
} tf_cbox;

/* Least and greatest value of an interval form over the counts' box
 * lo <= counts <= hi (exact, in 128 bits). */
void tf_ival_range(const tf_ival *v, int ncounts, const int64_t *lo, const int64_t *hi, tf_wide *mn, tf_wide *mx);

/* Linear rows every point of the box that fits satisfies, each
 * f[0] + sum f[1 + i] x_i <= 0 over the counts' box (for the search's
 * relaxation, solver/search/relax.h): per memory and lifetime row, the
 * sizes of the buffers the box keeps in that memory, each size's least
 * linear form over the box (a charge is never below its size, and at a
 * point that fits every size is at least 0), minus the most the memory
 * offers; and each require's row as a least linear form (== both ways). */
typedef struct tf_cbox_rows {
  int n, cap;
  tf_wide *f; /* n rows of 1 + ncounts */
} tf_cbox_rows;
void tf_cbox_rows_release(tf_cbox_rows *r);

/* The least (up = 0) or greatest (up = 1) linear form in the counts over
 * an interval form v, for counts at least lo: l(x) <= v(x) <= u(x) at
 * every point.  Exact at a combination. */
void tf_ival_linear(const tf_ival *v, int ncounts, const int64_t *lo, int up, tf_wide *f);

/* Bounds box b of p (which must be bound on demand, problem.h): the kind,
 * and for OPEN each objective's interval form in obj[0 .. nobjective) and
 * (rows not NULL) the box's rows.  Uses the problem's scratch symbols. */
int tf_cbox_bound(tf_problem *p, const tf_cbox *b, tf_ival *obj, tf_cbox_rows *rows);

/* Frees what tf_cbox_bound keeps with the problem. */
void tf_cbox_scratch_free(tf_problem *p);

#endif
