/* The legend of a map (map_legend.c), which map_draw.c draws right of the
 * grid, and the geometry of a drawn map that both read.  What the cells
 * and the legend both colour is cell_style.h, below them. */
#ifndef TF_SOLVER_PLOT_MAP_LEGEND_H
#define TF_SOLVER_PLOT_MAP_LEGEND_H

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

/* The legend right of the grid: the colour (a bar with its scale, or one
 * swatch per binding term), one entry per combination of overflowing
 * memories that occurs, the optimum. */
double tf_plot_map_legend_height(const tf_plot_map *m, const tf_plot_map_geometry *g);
void tf_plot_map_legend(const tf_plot_map *m, const tf_plot_map_geometry *g, tf_svg *s);

#endif
