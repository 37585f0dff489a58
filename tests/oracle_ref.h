/* The property test's reference answer: an exhaustive enumeration of a
 * generated problem (tests/propgen.h), evaluated from its description in
 * __int128 with its own rounding, capacity and occupancy arithmetic.  It
 * includes nothing from model/, encode/ or solver/, so an engine bug cannot
 * hide in shared code.  The rules it implements (docs/objectives.md,
 * docs/placement.md):
 *   - a buffer takes align * ceil(size / align) of its memory; a memory's
 *     total must be at most its capacity (SMEM per CTA, TMEM columns,
 *     registers per thread);
 *   - with an occupancy o (a choose variable 1 .. CTAs per SM unless
 *     fixed or narrowed): o >= 1; SMEM per CTA at most
 *     floor(floor(per_sm / o) / granule) * granule - reserved; o <= CTAs
 *     per SM; o * threads <= threads per SM; o * ceil(threads / 32) *
 *     align(32 * rf, warp granule) <= registers per SM; o * max(min
 *     alloc, pow2(tmem)) <= TMEM columns;
 *   - every require holds, every count lies in its bounds (a --fix of a
 *     count replaces them);
 *   - a placed buffer takes one of its candidates (its place list less
 *     what its pins leave out, in the list's order) with that memory's
 *     size; a buffer aliasing T in T's memory adds max(0, size - size(T))
 *     rounded to its own align (unrounded sizes compared), elsewhere its
 *     whole size;
 *   - objectives compare lexicographically, max larger, min smaller,
 *     then, when some placed buffer has two candidates or more, a last
 *     unshown `min placement_order`: the candidates' indices as the
 *     digits of a mixed-radix number, the first placed buffer first;
 *   - --top K (distinct configurations, docs/cost-model.md "Ranked
 *     configurations"): in objective order, a point b is the
 *     configuration of an earlier listed a when both have the same
 *     choose values outside placement and either the same placement or
 *     b moved to a's placement at b's counts fits with b's shown
 *     objective values. */
#ifndef TF_TESTS_ORACLE_REF_H
#define TF_TESTS_ORACLE_REF_H

#include "tests/propgen.h"

#define REF_MAX_TOP 8
#define REF_MAX_OBJ (PG_MAX_OBJECTIVES + 1) /* and placement_order */
#define REF_MAX_KEPT 50000                  /* points a --top of configurations sorts */

typedef struct ref_point {
  int64_t choose[PG_MAX_CHOOSE + 1]; /* slot PG_OCC: occupancy, when used */
  int64_t counts[PG_MAX_COUNTS];
  int place[PG_MAX_BUFFERS]; /* each buffer's memory */
  int fits;
  const char *why; /* the first rule it breaks */
  int64_t used[PG_NMEM];
  int64_t alloc[PG_MAX_BUFFERS];  /* per buffer, after rounding */
  int64_t objective[REF_MAX_OBJ]; /* the shown ones, then placement_order when it decides */
} ref_point;

typedef struct ref_result {
  int out_of_range; /* a value past 2^52 (or too many points to rank): the problem is skipped */
  long npoints, nfeasible, nbest;
  int nobjective; /* shown */
  int nfull;      /* compared: the shown ones and placement_order when it decides */
  ref_point best; /* the first optimal point in enumeration order */
  int ntop;       /* the best min(K, feasible) objective vectors */
  int64_t top[REF_MAX_TOP][REF_MAX_OBJ];
} ref_result;

/* Evaluates one point (every variable given, `place` each buffer's
 * memory); returns 0, or -1 when a value leaves the range the test keeps
 * to (2^52). */
int ref_eval(const pg_problem *p, const int64_t *choose, const int64_t *counts, const int *place, ref_point *out);

/* Enumerates every point of the problem as requested. */
void ref_solve(const pg_problem *p, int top, ref_result *r);

/* -1, 0, 1: a's objective vector (placement_order included) is worse,
 * equal, better than b's. */
int ref_compare(const pg_problem *p, const int64_t *a, const int64_t *b);

/* Is b (ranked after a) a's configuration? */
int ref_same_config(const pg_problem *p, const ref_point *a, const ref_point *b);

/* `check` at a point whose placements are free: does some placement of
 * the candidates fit? */
int ref_some_placement_fits(const pg_problem *p, const int64_t *choose, const int64_t *counts);

/* The values a variable ranges over after the request; returns how many. */
int ref_choose_values(const pg_problem *p, int slot, int64_t *values);
void ref_count_bounds(const pg_problem *p, int k, int64_t *lo, int64_t *hi);

#endif
