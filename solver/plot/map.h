/* `tilefit plot map`: the feasible region of two choose variables.  Every
 * cell (x, y) of their domains is solved with x and y fixed (everything
 * else as the user asked); a feasible cell holds the colour value at its
 * optimum, an infeasible one the memory (or constraint) that rules it out.
 * The optimum of the unfixed problem is the outlined cell. */
#ifndef TF_SOLVER_PLOT_MAP_H
#define TF_SOLVER_PLOT_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "solver/plot/svg.h"
#include "solver/solve.h"

#define TF_PLOT_MAX_AXIS 64 /* values on one axis */

typedef struct tf_plot_cell {
  int feasible;
  int64_t value;     /* feasible: the colour value at the cell's optimum */
  unsigned blocked;  /* infeasible: bit m set when memory m overflows; 0: a constraint */
  char why[320];     /* infeasible: the solver's reason */
  char free_at[128]; /* feasible: the free choose variables at its best point, "q_stage=2 P=rf" */
} tf_plot_cell;

typedef struct tf_plot_map {
  char x_name[64], y_name[64];
  char color_label[192]; /* "stages" or the --color expression */
  int categorical;       /* 1: the colour is bound_by or time_bound_by, a term code (model/input/roofline.h) */
  int bytes;             /* 1: the colour is a size in bytes (used(smem), a name ending in "bytes") */
  int scale;             /* the colour scale asked for (scale.h; TF_SCALE_AUTO: by its rule) */
  int64_t xs[TF_PLOT_MAX_AXIS], ys[TF_PLOT_MAX_AXIS];
  size_t nx, ny;
  tf_plot_cell *cells; /* ny x nx, row iy holds ys[iy] */
  int has_best;        /* 0: nothing fits anywhere */
  size_t best_ix, best_iy;
  char title[256], subtitle[512];
  char free_note[256]; /* "" or which variables each cell leaves free, e.g. q_stage */
} tf_plot_map;

typedef struct tf_plot_map_opts {
  const char *x, *y; /* choose variable names */
  const char *color; /* an expression, or NULL: the first count
                                    (the first objective when there is none) */
  int scale;         /* the colour scale (scale.h), TF_SCALE_AUTO by default */
  const tf_solve_opts *solve;
} tf_plot_map_opts;

/* Solves every cell of `p` (bound from `req`, which each cell repeats
 * with x and y fixed).  Errors (unknown variable, an axis too long, a
 * solver failure) name the option. */
int tf_plot_map_compute(const tf_problem *p, const tf_request *req, const tf_plot_map_opts *o, tf_plot_map *m,
                        tf_error *err);
void tf_plot_map_release(tf_plot_map *m);

/* Draws the map: cells, axis labels, the outlined optimum, a legend. */
void tf_plot_map_draw(const tf_plot_map *m, tf_svg *s);

#endif
