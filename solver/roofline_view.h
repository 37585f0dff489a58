/* The roofline terms of one point, as --explain, --top rows and plots
 * show them (the lets model/input/roofline.h writes, evaluated at a point). */
#ifndef TF_SOLVER_ROOFLINE_VIEW_H
#define TF_SOLVER_ROOFLINE_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "model/bind/problem.h"
#include "model/core/json_out.h"
#include "model/input/roofline.h"

#define TF_VIEW_MAX_FLOWS 32

typedef struct tf_roofline_view {
  int ok; /* 0: no roofline, or it did not evaluate */
  int has[TF_ROOFLINE_NTERMS];
  int64_t term[TF_ROOFLINE_NTERMS]; /* cycles(mma), cycles(exp), cycles(smem), cycles(l2), cycles(alu) */
  int64_t cycles, bound_by;
  int scheduled;                     /* 1: cycles = overlap + serial + overhead (below) */
  int64_t overlap, serial, overhead; /* overlap_cycles, serial_cycles, overhead_cycles */
  int64_t mma_ops, exp_ops;          /* summed over entries; -1 when absent */
  size_t nflows;
  struct {
    const char *buffer;
    char edge[32]; /* "" when it crosses no edge */
    int64_t bytes;
    const char *charge; /* "smem port", "unmetered", ... */
  } flow[TF_VIEW_MAX_FLOWS];
} tf_roofline_view;

/* The roofline at (choose, counts). */
void tf_roofline_view_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_roofline_view *v);

/* A let or built-in name's value at a point ("cycles(smem)"); -1 when it
 * is unknown or does not evaluate. */
int tf_roofline_value(const tf_problem *p, const int64_t *choose, const int64_t *counts, const char *name,
                      int64_t *out);

/* The whole-kernel estimate of a point (model/input/shape.h): ok 0 when the
 * workset declares no shape. */
typedef struct tf_estimate {
  int ok;
  int64_t time_ns, waves, bound_by, ideal_ns; /* ideal_ns -1: no MMA rate */
} tf_estimate;
void tf_estimate_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_estimate *e);

/* " 1234.567 us  mma   16  87.3%": the --top columns (header when `header`). */
void tf_estimate_columns(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts, int header);
/* "estimate":{"time_ns":...,"bound_by":"mma","waves":...,"efficiency_permille":...}, a member
 * of the object w stands in. */
void tf_estimate_json(tf_json_out *w, const tf_problem *p, const int64_t *choose, const int64_t *counts);

/* --explain's roofline lines, and the same as a JSON member "roofline":{...}. */
void tf_explain_roofline(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts);
void tf_explain_roofline_json(tf_json_out *w, const tf_problem *p, const int64_t *choose, const int64_t *counts);

#endif
