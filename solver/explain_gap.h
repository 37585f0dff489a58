/* What separates two ranked answers (--top K --explain, docs/cost-model.md,
 * ranked configurations): whether they tie at every objective level and,
 * where the workset declares its shape, each one's time split into the
 * parts it adds up from (the overlapped terms, the serial share, the
 * overhead and the CTA's own I/O over an SM's CTAs and iterations; HBM
 * where it binds; the fill and the fixed time), the part whose difference
 * is largest named first, beside the model's measured error on that kernel
 * and machine (the workset's `measured_error`). */
#ifndef TF_SOLVER_EXPLAIN_GAP_H
#define TF_SOLVER_EXPLAIN_GAP_H

#include <stdint.h>
#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/problem.h"
#include "model/core/json_out.h"

#define TF_GAP_PARTS 6

typedef struct tf_gap_part {
  const char *name; /* "overlapped terms", "serial share", "overhead", "CTA I/O", "HBM", "fill" */
  int64_t ns[2];
} tf_gap_part;

typedef struct tf_gap {
  int tie;              /* 1: equal at every objective level */
  int timed;            /* 1: both have a time (the workset's shape) */
  int64_t time[2];      /* time_ns of the earlier and the later rank */
  int64_t waves[2];     /* the CTAs an SM runs (waves, or sm_ctas with a fill) */
  int64_t iters[2];     /* a CTA's main-loop iterations */
  const char *bound[2]; /* the largest term of each ("mma", "smem", ...) */
  size_t nparts;        /* the parts that differ, the largest difference first */
  tf_gap_part part[TF_GAP_PARTS];
  int64_t error_permille; /* the workset's measured error on this machine, -1: none */
  int64_t error_points;
} tf_gap;

/* How answer b (the later rank) differs from answer a. */
void tf_gap_at(const tf_problem *p, const tf_answer *a, const tf_answer *b, tf_gap *g);

/* "rank 2       +6369 ns (+0.10%) after rank 1: ..." */
void tf_gap_text(FILE *f, const tf_problem *p, const tf_answer *a, const tf_answer *b);

/* "gap":{"after_rank":1,"tie":false,"gap_ns":..,"parts":[{"name":..,"ns":..,"rank_ns":..}],...}
 * as a member of the object w stands in. */
void tf_gap_json(tf_json_out *w, const tf_problem *p, const tf_answer *a, const tf_answer *b);

#endif
