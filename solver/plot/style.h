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

/* A value label that fits a cell or a tick: below 10^4 whole (or three
 * significant digits when not an integer); from 10^4 on three significant
 * digits and an SI prefix, 232k, 1.07M, 4.29G.  `bytes`: binary prefixes
 * from 1024 on instead, 512 B, 40 KiB, 1.5 MiB, 1 GiB. */
void tf_plot_si(double v, int bytes, char *buf, size_t size);

/* How wide `text` is drawn at font size `size`, in pixels: the advances of
 * DejaVu Sans Book (the font the pictures name first), measured with
 * rsvg-convert; a character outside ASCII counts as 0.7 em. */
double tf_plot_text_width(const char *text, double size);

/* The font size, at most `size` and at least `min`, at which `text` fits
 * `width` pixels; 0 when it does not fit even at `min`. */
int tf_plot_fit_size(const char *text, double width, int size, int min);

/* The i-th series' dash pattern (NULL: solid) and marker shape, cycling. */
const char *tf_plot_series_dash(size_t i);
int tf_plot_series_marker(size_t i);

#endif
