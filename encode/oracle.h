/* The exhaustive oracle: every kept combination, every count value in its
 * bounds, evaluated in integers from the problem's affine forms; the
 * lexicographically best point wins (the first one found on ties).  Tests
 * hold the search and the ILP to it, and bench/ times it.  It shares no
 * pruning code with them (solver/search/, encode/build.c): only the stored
 * forms and the memory module's charge and capacity rules. */
#ifndef TF_ENCODE_ORACLE_H
#define TF_ENCODE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"
#include "model/core/error.h"

#define TF_MAX_OBJECTIVES 16

typedef struct tf_oracle_result {
  int feasible;
  size_t combo;
  int64_t counts[TF_MAX_COUNTS];
  int64_t objective[TF_MAX_OBJECTIVES];
  size_t points; /* points evaluated */
} tf_oracle_result;

/* Refuses (TF_EINPUT) a search of more than max_points points. */
int tf_oracle_solve(const tf_problem *p, size_t max_points, tf_oracle_result *r, tf_error *err);

/* The k best points, best first, into r[0..*n-1] (*n < k when fewer
 * fit); ties go to the point met first: combination order, then counts in
 * lexicographic order -- the tie rule of the exact search (search.h). */
int tf_oracle_top(const tf_problem *p, size_t max_points, size_t k, tf_oracle_result *r, size_t *n, tf_error *err);

#endif
