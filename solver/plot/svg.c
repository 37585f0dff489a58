#include "svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/text.h"
#include "solver/output.h"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(tf_svg *s, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->cap - s->len;
    int n = vsnprintf(s->buf ? s->buf + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
      return; /* an encoding error cannot come from the formats used here */
    if ((size_t)n < room) {
      s->len += (size_t)n;
      return;
    }
    s->cap = 2 * (s->len + (size_t)n + 1024);
    TF_NREALLOC(s->buf, s->cap);
  }
}

/* Text content and attribute values: the five XML specials escaped, and
 * what XML 1.0 cannot hold (control characters, bytes that are not UTF-8)
 * replaced by U+FFFD, so that every renderer reads the file. */
static void put_escaped(tf_svg *s, const char *text) {
  static const struct {
    char c;
    const char *as;
  } specials[] = {{'<', "&lt;"}, {'>', "&gt;"}, {'&', "&amp;"}, {'"', "&quot;"}, {'\'', "&apos;"}};
  size_t left = strlen(text);
  for (const char *c = text; *c;) {
    size_t k = tf_utf8_char(c, left);
    const char *as = NULL;
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
      as = *c == specials[i].c ? specials[i].as : as;
    if (!k || (unsigned char)*c < 0x20 || *c == 0x7f)
      put(s, "\xEF\xBF\xBD"), k = k ? k : 1;
    else if (as)
      put(s, "%s", as);
    else
      put(s, "%.*s", (int)k, c);
    c += k;
    left -= k;
  }
}

/* A coordinate as the file holds it: finite and within what a renderer
 * draws (a NaN or an infinity from an extreme axis range never reaches it). */
static double fin(double v) {
  if (!isfinite(v))
    return 0;
  return v > 1e6 ? 1e6 : v < -1e6 ? -1e6 : v;
}

void tf_svg_begin(tf_svg *s, int width, int height) {
  memset(s, 0, sizeof *s);
  put(s,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
      width, height, width, height, width, height);
}

void tf_svg_end(tf_svg *s) { put(s, "</svg>\n"); }

void tf_svg_release(tf_svg *s) {
  free(s->buf);
  memset(s, 0, sizeof *s);
}

static void put_id(tf_svg *s, const char *id) {
  if (!id)
    return;
  put(s, " id=\"");
  put_escaped(s, id);
  put(s, "\"");
}

static void close_with_title(tf_svg *s, const char *tag, const char *title) {
  if (!title) {
    put(s, "/>\n");
    return;
  }
  put(s, "><title>");
  put_escaped(s, title);
  put(s, "</title></%s>\n", tag);
}

void tf_svg_rect(tf_svg *s, const char *id, double x, double y, double w, double h, const char *fill,
                 const char *stroke, double stroke_width, const char *title) {
  put(s, "<rect");
  put_id(s, id);
  put(s, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", fin(x), fin(y), fin(w), fin(h), fill);
  if (stroke)
    put(s, " stroke=\"%s\" stroke-width=\"%.1f\"", stroke, stroke_width);
  close_with_title(s, "rect", title);
}

void tf_svg_line(tf_svg *s, double x1, double y1, double x2, double y2, const char *stroke, double width) {
  put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n", fin(x1),
      fin(y1), fin(x2), fin(y2), stroke, width);
}

void tf_svg_polyline(tf_svg *s, const double *xs, const double *ys, size_t n, const char *stroke, double width,
                     const char *dash) {
  put(s, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"", stroke, width);
  if (dash)
    put(s, " stroke-dasharray=\"%s\"", dash);
  put(s, " stroke-linejoin=\"round\" points=\"");
  for (size_t i = 0; i < n; i++)
    put(s, "%s%.1f,%.1f", i ? " " : "", fin(xs[i]), fin(ys[i]));
  put(s, "\"/>\n");
}

void tf_svg_circle(tf_svg *s, const char *id, double cx, double cy, double r, const char *fill, const char *title) {
  put(s, "<circle");
  put_id(s, id);
  put(s, " cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"", fin(cx), fin(cy), fin(r), fill);
  close_with_title(s, "circle", title);
}

/* An x: two crossed bars of half-width c reaching d, its twelve corners
 * coded 1: d, 2: d - c, 3: c from the centre on each axis (signed). */
static void put_cross(tf_svg *s, double d, double c) {
  static const signed char corner[12][2] = {{-1, -2}, {-2, -1}, {0, -3}, {2, -1}, {1, -2}, {3, 0},
                                            {1, 2},   {2, 1},   {0, 3},  {-2, 1}, {-1, 2}, {-3, 0}};
  for (int k = 0; k < 12; k++) {
    double xy[2];
    for (int q = 0; q < 2; q++) {
      int v = corner[k][q], m = v < 0 ? -v : v;
      xy[q] = (v < 0 ? -1 : 1) * (m == 1 ? d : m == 2 ? d - c : m == 3 ? c : 0);
    }
    put(s, "%s%.1f,%.1f", k ? "L" : "M", xy[0], xy[1]);
  }
  put(s, "z");
}

void tf_svg_marker(tf_svg *s, const char *id, int shape, double cx, double cy, double r, const char *fill,
                   const char *title) {
  if (shape == TF_SVG_CIRCLE) {
    put(s, "<circle");
    put_id(s, id);
    put(s, " cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"1\"", fin(cx), fin(cy),
        fin(r), fill);
    close_with_title(s, "circle", title);
    return;
  }
  double a = fin(r) * 0.9, d = fin(r) * 1.25, t = fin(r) * 1.2, c = fin(r) * 0.35; /* about the area of the circle */
  put(s, "<path");
  put_id(s, id);
  put(s, " transform=\"translate(%.1f %.1f)\" d=\"", fin(cx), fin(cy));
  if (shape == TF_SVG_SQUARE)
    put(s, "M%.1f,%.1fh%.1fv%.1fh%.1fz", -a, -a, 2 * a, 2 * a, -2 * a);
  else if (shape == TF_SVG_DIAMOND)
    put(s, "M0,%.1fL%.1f,0L0,%.1fL%.1f,0z", -d, d, d, -d);
  else if (shape == TF_SVG_TRIANGLE)
    put(s, "M0,%.1fL%.1f,%.1fL%.1f,%.1fz", -t, t, t * 0.7, -t, t * 0.7);
  else if (shape == TF_SVG_TRIANGLE_DOWN)
    put(s, "M0,%.1fL%.1f,%.1fL%.1f,%.1fz", t, t, -t * 0.7, -t, -t * 0.7);
  else
    put_cross(s, d, c);
  put(s, "\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"1\"", fill);
  close_with_title(s, "path", title);
}

void tf_svg_text(tf_svg *s, double x, double y, int size, int anchor, int rotate, const char *fill, const char *text) {
  static const char *const anchors[] = {"start", "middle", "end"};
  put(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" fill=\"%s\"", fin(x), fin(y), size,
      anchors[anchor], fill);
  if (rotate)
    put(s, " transform=\"rotate(-90 %.1f %.1f)\"", fin(x), fin(y));
  put(s, ">");
  put_escaped(s, text);
  put(s, "</text>\n");
}

int tf_svg_write(const tf_svg *s, const char *file, const char *where, tf_error *err) {
  return tf_write_file_whole(file, s->buf, s->len, where, err);
}
