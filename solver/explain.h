/* --explain: for each lexicographic level of an optimum, the next-better
 * candidate (the smallest improvement of that level that keeps the earlier
 * levels) and the constraint it misses, by how much. */
#ifndef TF_SOLVER_EXPLAIN_H
#define TF_SOLVER_EXPLAIN_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/problem.h"

#define TF_EXPLAIN_MAX_CANDIDATES 200000 /* larger candidate spaces are not searched */

/* The next-better candidate of one level: the variables where it differs
 * from the answer, the level's value there and the first constraint it
 * violates.  found is 0 when no candidate in the domains does better. */
typedef struct tf_explain_level {
  int found;
  int64_t choose[TF_MAX_CHOOSE];
  int64_t counts[TF_MAX_COUNTS];
  int64_t value;
  char why[256];
} tf_explain_level;

/* Level `level` (0-based) of an optimal answer. */
void tf_explain_search(const tf_problem *p, const tf_answer *a, size_t level, tf_explain_level *out);

/* Every level as text lines, "level 1       max stages = 3: next better is ...". */
void tf_explain_levels(FILE *f, const tf_problem *p, const tf_answer *a);

/* Per placed buffer: where it is, and why each other memory of its place
 * list loses (solver/explain_place.c). */
void tf_explain_placement(FILE *f, const tf_problem *p, const tf_answer *a);

/* Why variable `name` of an answer cannot take its next larger value (the
 * next value of its domain, or one more for a count), other variables as
 * in the answer: "B_c = 208: smem needs 237568 B of 232448, 5120 over".
 * Returns -1 when the variable is unknown or already at its largest. */
int tf_explain_next_value(const tf_problem *p, const tf_answer *a, const char *name, char *buf, size_t size);

#endif
