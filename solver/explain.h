/* --explain: for each lexicographic level of an optimum, the next-better
 * candidate (the smallest improvement of that level that keeps the earlier
 * levels) and the constraint it misses, by how much. */
#ifndef TF_SOLVER_EXPLAIN_H
#define TF_SOLVER_EXPLAIN_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/problem.h"

#define TF_EXPLAIN_MAX_CANDIDATES 200000 /* larger candidate spaces are not searched */

void tf_explain_levels(FILE *f, const tf_problem *p, const tf_answer *a);

#endif
