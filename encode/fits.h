/* Does a kept combination fit at concrete counts?  Evaluated from the
 * problem's stored affine forms, with the memory module's charges and
 * capacities.  The reduction's (and the engine's) feasibility test; the
 * exhaustive oracle (oracle.c) keeps its own, on purpose, so that one bug
 * cannot hit both sides of the property test. */
#ifndef TF_ENCODE_FITS_H
#define TF_ENCODE_FITS_H

#include <stddef.h>
#include <stdint.h>

#include "model/problem.h"

/* 1 fits, 0 does not, -1 overflow. */
int tf_fits(const tf_problem *p, size_t c, const int64_t *counts);

#endif
