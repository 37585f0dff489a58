/* A plain-text SVG writer: the document is built in memory, then written
 * whole (a temporary file renamed over the target) or not at all.  No
 * dependencies; every coordinate in user units (pixels), y downwards. */
#ifndef TF_SOLVER_PLOT_SVG_H
#define TF_SOLVER_PLOT_SVG_H

#include <stddef.h>

#include "model/core/error.h"

typedef struct tf_svg {
  char *buf;
  size_t len, cap;
} tf_svg;

/* Starts a width x height document on a white background. */
void tf_svg_begin(tf_svg *s, int width, int height);
void tf_svg_end(tf_svg *s);
void tf_svg_release(tf_svg *s);

/* `id` and `title` may be NULL; a title is the tooltip a viewer shows and
 * what a test reads back.  `stroke` NULL: no outline. */
void tf_svg_rect(tf_svg *s, const char *id, double x, double y, double w, double h, const char *fill,
                 const char *stroke, double stroke_width, const char *title);
void tf_svg_line(tf_svg *s, double x1, double y1, double x2, double y2, const char *stroke, double width);
/* `dash` NULL: solid, else an SVG dash array ("7 3"). */
void tf_svg_polyline(tf_svg *s, const double *xs, const double *ys, size_t n, const char *stroke, double width,
                     const char *dash);
void tf_svg_circle(tf_svg *s, const char *id, double cx, double cy, double r, const char *fill, const char *title);

/* A marker of about radius r centred on (cx, cy), outlined in white: a
 * circle is a <circle> (cx, cy), every other shape a <path> whose
 * transform="translate(cx cy)" places it. */
enum tf_svg_marker {
  TF_SVG_CIRCLE,
  TF_SVG_SQUARE,
  TF_SVG_DIAMOND,
  TF_SVG_TRIANGLE,
  TF_SVG_TRIANGLE_DOWN,
  TF_SVG_CROSS
};
void tf_svg_marker(tf_svg *s, const char *id, int shape, double cx, double cy, double r, const char *fill,
                   const char *title);

enum tf_svg_anchor { TF_SVG_START, TF_SVG_MIDDLE, TF_SVG_END };

/* Text with its baseline at y; `rotate` turns it -90 degrees about (x, y)
 * (a y-axis title).  The text is escaped. */
void tf_svg_text(tf_svg *s, double x, double y, int size, int anchor, int rotate, const char *fill, const char *text);

/* Writes the document with tf_write_file_whole (solver/output.h): whole or
 * not at all. */
int tf_svg_write(const tf_svg *s, const char *file, const char *where, tf_error *err);

#endif
