/* The value of any bound expression at a concrete point: what a picture
 * colours a cell by (`tilefit plot map --color EXPR`). */
#ifndef TF_MODEL_VALUE_H
#define TF_MODEL_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/problem.h"

/* Evaluates `e` (bound to p's workset, e.g. by tf_workset_parse_objective)
 * at (choose, counts), with every let and used(MEM)/slack(MEM) as at that
 * point.  Returns -1 with *err on an evaluation error. */
int tf_problem_value(const tf_problem *p, const int64_t *choose, const int64_t *counts, const tf_expr *e,
                     int64_t *value, tf_error *err);

/* The n expressions e[0..n) at one point, as n calls of tf_problem_value
 * would give them, the point evaluated once: values[k], or failed[k] = 1
 * where the value's evaluation fails.  -1 (every failed[k] set) when the
 * point itself does not evaluate. */
int tf_problem_values(const tf_problem *p, const int64_t *choose, const int64_t *counts, const tf_expr *const *e,
                      size_t n, int64_t *values, int *failed);

#endif
