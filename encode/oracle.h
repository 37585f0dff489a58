/* The exhaustive oracle: every kept combination, every count value in its
 * bounds, evaluated in integers from the problem's affine forms; the
 * lexicographically best point wins (the first one found on ties).  Tests
 * hold the ILP to it, and bench/ times it. */
#ifndef TF_ENCODE_ORACLE_H
#define TF_ENCODE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/error.h"
#include "model/problem.h"

#define TF_MAX_OBJECTIVES 16

typedef struct tf_oracle_result {
  int feasible;
  size_t combo;
  int64_t counts[TF_MAX_COUNTS];
  int64_t objective[TF_MAX_OBJECTIVES];
  size_t points;          /* points evaluated */
} tf_oracle_result;

/* Does combination c fit at these counts?  1 yes, 0 no, -1 on overflow. */
int tf_oracle_fits(const tf_problem *p, size_t c, const int64_t *counts);

/* Refuses (TF_EINPUT) a search of more than max_points points. */
int tf_oracle_solve(const tf_problem *p, size_t max_points, tf_oracle_result *r, tf_error *err);

#endif
