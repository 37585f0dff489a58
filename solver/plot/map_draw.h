/* What map_draw.c and map_legend.c share: the geometry of a drawn map and
 * the colours and labels of its cells. */
#ifndef TF_SOLVER_PLOT_MAP_DRAW_H
#define TF_SOLVER_PLOT_MAP_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "solver/plot/map.h"
#include "solver/plot/scale.h"
#include "solver/plot/svg.h"

typedef struct tf_plot_map_geometry {
  double cw, ch, x0, y0, w, h; /* a cell's width and height; the grid's corner and size */
  int any;                     /* some cell is feasible */
  tf_plot_scale scale;         /* over the feasible cells' values */
} tf_plot_map_geometry;

const char *tf_plot_term_fill(int64_t term);
void tf_plot_value_fill(const tf_plot_map *m, const tf_plot_map_geometry *g, int64_t v, char out[8]);
void tf_plot_value_label(const tf_plot_map *m, int64_t v, char *out, size_t size);

/* A blocked cell's letters ("SR") and memory list ("smem, rf"). */
void tf_plot_blocked_text(unsigned mask, char *letters, size_t lsize, char *names, size_t nsize);

/* The legend right of the grid: the colour (a bar with its scale, or one
 * swatch per binding term), one entry per combination of overflowing
 * memories that occurs, the optimum. */
double tf_plot_map_legend_height(const tf_plot_map *m, const tf_plot_map_geometry *g);
void tf_plot_map_legend(const tf_plot_map *m, const tf_plot_map_geometry *g, tf_svg *s);

#endif
