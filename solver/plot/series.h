/* `tilefit plot sweep`: a sweep's results (the JSON Lines `tilefit sweep`
 * writes) as one line of points per group, e.g. stages against head dim,
 * one line per GPU. */
#ifndef TF_SOLVER_PLOT_SERIES_H
#define TF_SOLVER_PLOT_SERIES_H

#include <stddef.h>

#include "model/error.h"
#include "solver/plot/svg.h"

#define TF_PLOT_MAX_GROUPS 64

typedef struct tf_plot_xy {
  double x, y;
} tf_plot_xy;

typedef struct tf_plot_group {
  char name[128];     /* the --by value, "" without --by */
  tf_plot_xy *pts;    /* in x order once read */
  size_t n, cap;
} tf_plot_group;

typedef struct tf_plot_series {
  char x_name[64], y_name[64], by_name[64];
  char title[256];
  tf_plot_group groups[TF_PLOT_MAX_GROUPS]; /* in order of first appearance */
  size_t ngroups;
  size_t lines, skipped; /* lines read; of those, without a result (infeasible, error) */
} tf_plot_series;

/* Reads FILE.  A NAME is looked up in each line at the top level, then in
 * "values", then in "params"; a dotted NAME ("memories.smem.used") is a
 * path.  Lines whose status is not optimal or fits are counted in skipped.
 * `by` may be NULL.  Errors name the file, the line and the option. */
int tf_plot_series_read(const char *file, const char *x, const char *y, const char *by, tf_plot_series *s,
                        tf_error *err);
void tf_plot_series_release(tf_plot_series *s);

/* Draws the groups as lines with a marker per point, axes and a legend. */
void tf_plot_series_draw(const tf_plot_series *s, tf_svg *svg);

#endif
