/* The value of any bound expression at a concrete point: what a picture
 * colours a cell by (`tilefit plot map --color EXPR`). */
#ifndef TF_MODEL_VALUE_H
#define TF_MODEL_VALUE_H

#include <stdint.h>

#include "model/bind/problem.h"

/* Evaluates `e` (bound to p's workset, e.g. by tf_workset_parse_objective)
 * at (choose, counts), with every let and used(MEM)/slack(MEM) as at that
 * point.  Returns -1 with *err on an evaluation error. */
int tf_problem_value(const tf_problem *p, const int64_t *choose, const int64_t *counts, const tf_expr *e,
                     int64_t *value, tf_error *err);

#endif
