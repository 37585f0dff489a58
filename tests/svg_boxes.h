/* The picture tests' own reading of an SVG tilefit wrote: its text
 * elements as boxes, estimated from the font size and the characters with
 * a coarse width per kind of character (not the plot code's table), and
 * its cells (rect id="cell-...") with the label drawn in each. */
#ifndef TF_TESTS_SVG_BOXES_H
#define TF_TESTS_SVG_BOXES_H

#include <stddef.h>

typedef struct tf_test_box {
  double x0, y0, x1, y1;
  char text[160];
} tf_test_box;

/* Every <text> of `doc` as a box; returns how many (at most max). */
size_t tf_test_text_boxes(const char *doc, tf_test_box *boxes, size_t max);

/* The estimated width of `text` (UTF-8, unescaped) at font size `size`. */
double tf_test_text_width(const char *text, double size);

/* Fails the test when two boxes overlap by more than half a pixel either
 * way, or one leaves the picture (width x height). */
void tf_test_no_overlap(const tf_test_box *boxes, size_t n, double width, double height);

typedef struct tf_test_cell {
  char id[64];
  double x, y, w, h;
  char fill[8];
  char title[400];
  int labelled;
  tf_test_box label; /* the <text> right after the cell's <rect>, when there is one */
} tf_test_cell;

/* The cells of a map; returns how many (at most max). */
size_t tf_test_cells(const char *doc, tf_test_cell *cells, size_t max);

/* The numeric attribute `name` of the first element from `e` on. */
double tf_test_attr(const char *e, const char *name);

#endif
