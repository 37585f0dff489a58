/* Drawing a read sweep (series.h): numeric axes with round ticks, a line
 * and markers per group, a legend. */
#include <stdio.h>

#include "solver/plot/series.h"
#include "solver/plot/style.h"

enum { LEFT = 80, TOP = 60, PLOT_W = 560, PLOT_H = 340, LEGEND = 220 };

struct frame {
  double xlo, xhi, ylo, yhi;
};

static double px(const struct frame *f, double x) { return LEFT + (x - f->xlo) / (f->xhi - f->xlo) * PLOT_W; }
static double py(const struct frame *f, double y) { return TOP + PLOT_H - (y - f->ylo) / (f->yhi - f->ylo) * PLOT_H; }

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
  double dx = f.xhi > f.xlo ? (f.xhi - f.xlo) * 0.05 : 1, dy = f.yhi > f.ylo ? (f.yhi - f.ylo) * 0.08 : 1;
  f.xlo -= dx;
  f.xhi += dx;
  f.yhi += dy;
  if (f.ylo < 0)
    f.ylo -= dy;
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

static void draw_group(const tf_plot_series *s, size_t gi, const struct frame *f, tf_svg *svg) {
  const tf_plot_group *g = &s->groups[gi];
  const char *color = tf_plot_series_color(gi);
  double xs[512], ys[512];
  size_t n = g->n < 512 ? g->n : 512; /* the line; every point still gets its marker */
  for (size_t i = 0; i < n; i++) {
    xs[i] = px(f, g->pts[i].x);
    ys[i] = py(f, g->pts[i].y);
  }
  if (n > 1)
    tf_svg_polyline(svg, xs, ys, n, color, 2);
  for (size_t i = 0; i < g->n; i++) {
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
  char sub[160];
  snprintf(sub, sizeof sub, "%zu points; %zu lines without a result left out", s->lines - s->skipped, s->skipped);
  tf_svg_text(svg, 20, 44, 11, TF_SVG_START, 0, "#444444", sub);
  draw_axes(s, &f, svg);
  for (size_t g = 0; g < s->ngroups; g++)
    draw_group(s, g, &f, svg);
  tf_svg_end(svg);
}
