/* What the pictures share: the colour ramp of a heat map, the colours of
 * a series, round axis ticks. */
#ifndef TF_SOLVER_PLOT_STYLE_H
#define TF_SOLVER_PLOT_STYLE_H

#include <stddef.h>

/* The colour at t in [0, 1] on viridis (matplotlib's default map; five of
 * its stops, linear between them) as "#rrggbb" in out[8]. */
void tf_plot_ramp(double t, char out[8]);

/* Black or white, whichever reads better on `fill` ("#rrggbb"). */
const char *tf_plot_ink(const char *fill);

/* The i-th of ten distinct series colours (matplotlib's tab10), cycling. */
const char *tf_plot_series_color(size_t i);

/* Up to `max` round tick values covering [lo, hi] (steps 1, 2 or 5 times a
 * power of ten); returns how many. */
int tf_plot_ticks(double lo, double hi, double *ticks, int max);

/* A tick label: an integer when the value is one, else three significant
 * digits. */
void tf_plot_number(double v, char *buf, size_t size);

#endif
