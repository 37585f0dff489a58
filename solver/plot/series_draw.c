/* Drawing a read sweep (series.h): numeric axes with round ticks, a line
 * and markers per group, a legend. */
#include <float.h>
#include <stdio.h>

#include "solver/plot/series.h"
#include "solver/plot/style.h"

enum { LEFT = 80, TOP = 60, PLOT_W = 560, PLOT_H = 340, LEGEND = 220, MAX_DRAWN = 512 };

struct frame {
  double xlo, xhi, ylo, yhi;
};

/* Where v lies between lo and hi, 0 to 1, in halves: hi - lo overflows
 * for a range of +-1e308, and gave NaN coordinates. */
static double at(double v, double lo, double hi) { return (v / 2 - lo / 2) / (hi / 2 - lo / 2); }
static double px(const struct frame *f, double x) { return LEFT + at(x, f->xlo, f->xhi) * PLOT_W; }
static double py(const struct frame *f, double y) { return TOP + PLOT_H - at(y, f->ylo, f->yhi) * PLOT_H; }

/* lo - d or hi + d, kept finite. */
static double widen(double v, double d) {
  double w = v + d;
  return w > DBL_MAX ? DBL_MAX : w < -DBL_MAX ? -DBL_MAX : w;
}

static struct frame frame_of(const tf_plot_series *s) {
  struct frame f = {s->groups[0].pts[0].x, s->groups[0].pts[0].x, 0, s->groups[0].pts[0].y};
  for (size_t g = 0; g < s->ngroups; g++)
    for (size_t i = 0; i < s->groups[g].n; i++) {
      const tf_plot_xy *p = &s->groups[g].pts[i];
      f.xlo = p->x < f.xlo ? p->x : f.xlo;
      f.xhi = p->x > f.xhi ? p->x : f.xhi;
      f.ylo = p->y < f.ylo ? p->y : f.ylo;
      f.yhi = p->y > f.yhi ? p->y : f.yhi;
    }
  /* a margin so that no marker sits on the frame */
  double dx = f.xhi > f.xlo ? (f.xhi / 2 - f.xlo / 2) * 0.1 : 1, dy = f.yhi > f.ylo ? (f.yhi / 2 - f.ylo / 2) * 0.16 : 1;
  f.xlo = widen(f.xlo, -dx);
  f.xhi = widen(f.xhi, dx);
  f.yhi = widen(f.yhi, dy);
  if (f.ylo < 0)
    f.ylo = widen(f.ylo, -dy);
  return f;
}

static void draw_axes(const tf_plot_series *s, const struct frame *f, tf_svg *svg) {
  double t[10];
  char label[32];
  int n = tf_plot_ticks(f->xlo, f->xhi, t, 8);
  for (int i = 0; i < n; i++) {
    tf_svg_line(svg, px(f, t[i]), TOP, px(f, t[i]), TOP + PLOT_H, "#e5e5e5", 1);
    tf_plot_number(t[i], label, sizeof label);
    tf_svg_text(svg, px(f, t[i]), TOP + PLOT_H + 16, 11, TF_SVG_MIDDLE, 0, "#000000", label);
  }
  n = tf_plot_ticks(f->ylo, f->yhi, t, 8);
  for (int i = 0; i < n; i++) {
    tf_svg_line(svg, LEFT, py(f, t[i]), LEFT + PLOT_W, py(f, t[i]), "#e5e5e5", 1);
    tf_plot_number(t[i], label, sizeof label);
    tf_svg_text(svg, LEFT - 8, py(f, t[i]) + 4, 11, TF_SVG_END, 0, "#000000", label);
  }
  tf_svg_rect(svg, NULL, LEFT, TOP, PLOT_W, PLOT_H, "none", "#000000", 1, NULL);
  tf_svg_text(svg, LEFT + PLOT_W / 2.0, TOP + PLOT_H + 40, 13, TF_SVG_MIDDLE, 0, "#000000", s->x_name);
  tf_svg_text(svg, 26, TOP + PLOT_H / 2.0, 13, TF_SVG_MIDDLE, 1, "#000000", s->y_name);
}

/* Every stride-th point of a line (and its last) is drawn: at most
 * MAX_DRAWN + 1 of them, however long the line (10^6 points made a 114 MB
 * picture no renderer opened); the subtitle says so. */
static size_t stride_of(const tf_plot_group *g) { return g->n > MAX_DRAWN ? (g->n + MAX_DRAWN - 1) / MAX_DRAWN : 1; }

static void draw_group(const tf_plot_series *s, size_t gi, const struct frame *f, tf_svg *svg) {
  const tf_plot_group *g = &s->groups[gi];
  const char *color = tf_plot_series_color(gi);
  double xs[MAX_DRAWN + 1], ys[MAX_DRAWN + 1];
  size_t n = 0, stride = stride_of(g);
  for (size_t i = 0; i < g->n; i++)
    if (i % stride == 0 || i + 1 == g->n) {
      xs[n] = px(f, g->pts[i].x);
      ys[n++] = py(f, g->pts[i].y);
    }
  if (n > 1)
    tf_svg_polyline(svg, xs, ys, n, color, 2);
  for (size_t i = 0; i < g->n; i++) {
    if (i % stride && i + 1 != g->n)
      continue;
    char id[64], title[320], xv[32], yv[32];
    tf_plot_number(g->pts[i].x, xv, sizeof xv);
    tf_plot_number(g->pts[i].y, yv, sizeof yv);
    snprintf(id, sizeof id, "pt-%zu-%zu", gi, i);
    snprintf(title, sizeof title, "%s%s%s=%s: %s = %s", g->name, g->name[0] ? " " : "", s->x_name, xv, s->y_name, yv);
    tf_svg_circle(svg, id, px(f, g->pts[i].x), py(f, g->pts[i].y), 4.5, color, title);
  }
  double ly = TOP + 8 + 22.0 * (double)gi, lx = LEFT + PLOT_W + 24;
  tf_svg_line(svg, lx, ly, lx + 24, ly, color, 2);
  char id[32];
  snprintf(id, sizeof id, "legend-%zu", gi);
  tf_svg_circle(svg, id, lx + 12, ly, 4.5, color, NULL);
  tf_svg_text(svg, lx + 32, ly + 4, 11, TF_SVG_START, 0, "#000000", g->name[0] ? g->name : s->y_name);
}

void tf_plot_series_draw(const tf_plot_series *s, tf_svg *svg) {
  struct frame f = frame_of(s);
  double legend_h = TOP + 16 + 22.0 * (double)s->ngroups;
  int height = (int)(legend_h > TOP + PLOT_H + 60 ? legend_h : TOP + PLOT_H + 60);
  tf_svg_begin(svg, LEFT + PLOT_W + LEGEND, height);
  tf_svg_text(svg, 20, 26, 15, TF_SVG_START, 0, "#000000", s->title);
  char sub[256];
  size_t stride = 1;
  for (size_t g = 0; g < s->ngroups; g++)
    stride = stride_of(&s->groups[g]) > stride ? stride_of(&s->groups[g]) : stride;
  int n = snprintf(sub, sizeof sub, "%zu points; %zu lines without a result left out", s->lines - s->skipped,
                   s->skipped);
  if (stride > 1 && n > 0 && (size_t)n < sizeof sub)
    snprintf(sub + n, sizeof sub - (size_t)n, "; lines of more than %d points drawn at every %zu-th point at most",
             MAX_DRAWN, stride);
  tf_svg_text(svg, 20, 44, 11, TF_SVG_START, 0, "#444444", sub);
  draw_axes(s, &f, svg);
  for (size_t g = 0; g < s->ngroups; g++)
    draw_group(s, g, &f, svg);
  tf_svg_end(svg);
}
