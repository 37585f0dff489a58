/* `tilefit plot sweep`: a sweep's results (the JSON Lines `tilefit sweep`
 * writes) as one line of points per group, e.g. stages against head dim,
 * one line per GPU. */
#ifndef TF_SOLVER_PLOT_SERIES_H
#define TF_SOLVER_PLOT_SERIES_H

#include <stddef.h>

#include "model/core/error.h"
#include "solver/plot/svg.h"

#define TF_PLOT_MAX_GROUPS 64
#define TF_PLOT_MAX_CATEGORIES 64
#define TF_PLOT_MAX_FIXED 16

typedef struct tf_plot_xy {
  double x, y; /* x: a category's index when the x axis is categorical */
} tf_plot_xy;

typedef struct tf_plot_group {
  char name[128];  /* the --by value, "" without --by */
  tf_plot_xy *pts; /* in x order once read */
  size_t n, cap;
} tf_plot_group;

/* A line without a result whose x is known: drawn as a mark on the x axis. */
typedef struct tf_plot_miss {
  double x;
  size_t group;  /* its --by group (created for it when new) */
  char why[200]; /* the reason, from "needs ..." on when it says so */
} tf_plot_miss;

typedef struct tf_plot_series {
  char x_name[64], y_name[64], by_name[64];
  char title[256], subtitle[512];
  tf_plot_group groups[TF_PLOT_MAX_GROUPS]; /* in order of first appearance */
  size_t ngroups;
  size_t lines, skipped; /* lines read; of those, without a result (infeasible, error) */
  tf_plot_miss *misses;  /* skipped lines with an x, in file order */
  size_t nmisses, cap_misses;
  int categorical; /* 1: x is a string (a machine, a workset): categories in order of appearance */
  char categories[TF_PLOT_MAX_CATEGORIES][64];
  size_t ncategories;
  /* for the title: the worksets and machines seen, and the inputs (params,
   * fixes) every line has with the same value */
  char worksets[128], machines[192];
  char fixed_names[TF_PLOT_MAX_FIXED][64], fixed_values[TF_PLOT_MAX_FIXED][32];
  size_t nfixed;
  int fixed_set;        /* the first line's inputs were taken */
  int x_scale, y_scale; /* asked for (scale.h), TF_SCALE_AUTO by default */
} tf_plot_series;

/* Reads FILE.  A NAME is looked up in each line at the top level, then in
 * "values", then in "params"; a dotted NAME ("memories.smem.used") is a
 * path.  Lines whose status is not optimal or fits are counted in skipped
 * (and kept as misses when they have an x).  An x that is a string makes
 * the axis categorical.  `by` may be NULL.  Errors name the file, the line
 * and the option. */
int tf_plot_series_read(const char *file, const char *x, const char *y, const char *by, tf_plot_series *s,
                        tf_error *err);
void tf_plot_series_release(tf_plot_series *s);

/* Draws the groups as lines with a marker per point (a dash pattern and a
 * marker shape per group; lines that share points drawn nested, widest
 * first, and noted), the misses as an x on the x axis with their reasons,
 * axes and a legend. */
void tf_plot_series_draw(const tf_plot_series *s, tf_svg *svg);

#endif
