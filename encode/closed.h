/* The closed-form pipeline depth at a chosen tile:
 *   depth = floor((capacity - resident) / per_stage)
 * per memory, the least over the memories a count uses, within the count's
 * bounds.  It is the formula CUTLASS and FlashAttention-4 evaluate; where
 * the exact answer differs, `reason` says which constraint the formula
 * leaves out. */
#ifndef TF_ENCODE_CLOSED_H
#define TF_ENCODE_CLOSED_H

#include <stdint.h>

#include "model/bind/problem.h"
#include "model/core/error.h"

typedef struct tf_closed {
  int applies;         /* the count uses some memory per unit */
  int64_t value;       /* the closed-form depth, at most the count's max */
  int64_t floor_value; /* floor((capacity - resident) / per_stage) itself */
  int capped;          /* floor_value is above the max: the bound, not capacity, binds */
  int memory;          /* the memory that limits it */
  int64_t capacity;    /* that memory's bound (less than capacity under an occupancy) */
  int64_t resident;    /* that memory's usage not proportional to the count */
  int64_t per_stage;   /* its usage per unit of the count */
  int agrees;          /* value equals the exact answer's */
  char reason[256];    /* when it does not */
} tf_closed;

/* Closed form for count k at combination `combo`, the other counts at
 * `counts`; `answer` is the exact value to compare with. */
int tf_closed_form(const tf_problem *p, size_t combo, const int64_t *counts, int k, tf_closed *out, tf_error *err);

#endif
