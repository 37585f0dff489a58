/* Drawing a read sweep (series.h): axes (linear, log or rank; categories),
 * a line and markers per group, the lines without a result as an x on the
 * x axis, a legend and notes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "solver/plot/scale.h"
#include "solver/plot/series.h"
#include "solver/plot/style.h"

enum { LEFT = 80, TOP = 64, PLOT_W = 560, PLOT_H = 340, LEGEND = 220, MAX_DRAWN = 512, MAX_NOTES = 8, NEST = 3 };

static const char *const MISS_INK = "#b00020";

struct frame {
  tf_plot_scale xs, ys;
  int x_pow2, y_pow2; /* every value a power of two: ticks at the values */
};

static double px(const struct frame *f, double x) { return LEFT + (0.05 + 0.9 * tf_plot_scale_at(&f->xs, x)) * PLOT_W; }
static double py(const struct frame *f, double y) {
  return TOP + PLOT_H - (0.06 + 0.86 * tf_plot_scale_at(&f->ys, y)) * PLOT_H; /* clear of the x marks on the axis */
}

static int pow2(double v) {
  return v >= 1 && v <= 9007199254740992.0 && v == floor(v) && !((int64_t)v & ((int64_t)v - 1));
}

/* auto: log for three or more powers of two spanning a factor of 4 (x) or
 * for positive values spanning a factor of 100 (y); linear else. */
static int axis_kind(int asked, const double *v, size_t n, int is_x, int *all_pow2) {
  double lo = INFINITY, hi = -INFINITY;
  int p2 = n > 0, positive = n > 0;
  for (size_t i = 0; i < n; i++) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
    p2 &= pow2(v[i]);
    positive &= v[i] > 0;
  }
  *all_pow2 = p2;
  if (asked != TF_SCALE_AUTO)
    return asked;
  if (is_x)
    return p2 && hi >= 4 * lo ? TF_SCALE_LOG : TF_SCALE_LINEAR;
  return positive && hi >= 100 * lo ? TF_SCALE_LOG : TF_SCALE_LINEAR;
}

static struct frame frame_of(const tf_plot_series *s) {
  struct frame f;
  size_t n = s->nmisses + 1;
  for (size_t g = 0; g < s->ngroups; g++)
    n += s->groups[g].n;
  double *xv = tf_nalloc(n, sizeof *xv), *yv = tf_nalloc(n, sizeof *yv);
  size_t nx = 0, ny = 0;
  for (size_t g = 0; g < s->ngroups; g++)
    for (size_t i = 0; i < s->groups[g].n; i++) {
      xv[nx++] = s->groups[g].pts[i].x;
      yv[ny++] = s->groups[g].pts[i].y;
    }
  for (size_t i = 0; i < s->nmisses; i++)
    xv[nx++] = s->misses[i].x;
  int xk = s->categorical ? TF_SCALE_RANK : axis_kind(s->x_scale, xv, nx, 1, &f.x_pow2);
  int yk = axis_kind(s->y_scale, yv, ny, 0, &f.y_pow2);
  int nonneg = 1;
  for (size_t i = 0; i < ny; i++)
    nonneg &= yv[i] >= 0;
  if (yk == TF_SCALE_LINEAR && nonneg)
    yv[ny++] = 0; /* a linear y axis starts at 0 */
  tf_plot_scale_make(&f.xs, xk, xv, nx);
  tf_plot_scale_make(&f.ys, yk, yv, ny);
  if (s->categorical) { /* every category, seen with a result or not */
    free(f.xs.values);
    f.xs.values = tf_nalloc(s->ncategories + 1, sizeof *f.xs.values);
    for (f.xs.n = 0; f.xs.n < s->ncategories; f.xs.n++)
      f.xs.values[f.xs.n] = (double)f.xs.n;
  }
  free(xv);
  free(yv);
  return f;
}

/* Tick values along one axis: the data values (rank, powers of two on a
 * log axis: every k-th so that at most `max`), 1-2-5 decades (log), round
 * steps (linear). */
static int axis_ticks(const tf_plot_scale *sc, int all_pow2, double *t, int max) {
  int n = 0;
  if (sc->n == 0)
    return 0;
  if (sc->kind == TF_SCALE_RANK || (sc->kind == TF_SCALE_LOG && all_pow2)) {
    size_t step = (sc->n + (size_t)max - 1) / (size_t)max;
    for (size_t i = 0; i < sc->n && n < max; i += step)
      t[n++] = sc->values[i];
    return n;
  }
  double lo = sc->values[0], hi = sc->values[sc->n - 1];
  if (sc->kind == TF_SCALE_LOG) {
    for (double p = pow(10, floor(log10(lo))); p <= hi && n < max; p *= 10)
      for (int k = 0; k < 3 && n < max; k++) {
        double v = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
        if (v >= lo && v <= hi && (hi / lo < 1e3 || k == 0))
          t[n++] = v;
      }
    return n;
  }
  return tf_plot_ticks(lo, hi, t, max);
}

static void x_label(const tf_plot_series *s, double v, char *buf, size_t size) {
  if (s->categorical)
    snprintf(buf, size, "%s", s->categories[v >= 0 && v < (double)s->ncategories ? (size_t)v : 0]);
  else
    tf_plot_si(v, 0, buf, size);
}

static void draw_axes(const tf_plot_series *s, const struct frame *f, tf_svg *svg) {
  double t[16];
  char label[64];
  int n = axis_ticks(&f->xs, f->x_pow2, t, 12);
  double gap = INFINITY; /* a linear x of a few values far enough apart: ticks at the values */
  for (size_t i = 1; i < f->xs.n; i++)
    gap = fmin(gap, px(f, f->xs.values[i]) - px(f, f->xs.values[i - 1]));
  if (f->xs.kind == TF_SCALE_LINEAR && f->xs.n >= 2 && f->xs.n <= 12 && gap >= 36)
    for (n = 0; n < (int)f->xs.n; n++)
      t[n] = f->xs.values[n];
  for (int i = 0; i < n; i++) {
    tf_svg_line(svg, px(f, t[i]), TOP, px(f, t[i]), TOP + PLOT_H, "#e5e5e5", 1);
    x_label(s, t[i], label, sizeof label);
    int size = tf_plot_fit_size(label, 0.9 * PLOT_W / (f->xs.n > 1 ? (double)n : 1.0) - 4, 11, 7);
    tf_svg_text(svg, px(f, t[i]), TOP + PLOT_H + 16, size ? size : 7, TF_SVG_MIDDLE, 0, "#000000", label);
  }
  n = axis_ticks(&f->ys, f->y_pow2, t, 10);
  for (int i = 0; i < n; i++) {
    tf_svg_line(svg, LEFT, py(f, t[i]), LEFT + PLOT_W, py(f, t[i]), "#e5e5e5", 1);
    tf_plot_si(t[i], 0, label, sizeof label);
    tf_svg_text(svg, LEFT - 8, py(f, t[i]) + 4, 11, TF_SVG_END, 0, "#000000", label);
  }
  tf_svg_rect(svg, NULL, LEFT, TOP, PLOT_W, PLOT_H, "none", "#000000", 1, NULL);
  char name[128];
  snprintf(name, sizeof name, "%s%s%s", s->x_name, f->xs.kind == TF_SCALE_LOG ? " (log scale)" : "",
           f->xs.kind == TF_SCALE_RANK && !s->categorical ? " (rank scale)" : "");
  tf_svg_text(svg, LEFT + PLOT_W / 2.0, TOP + PLOT_H + 40, 13, TF_SVG_MIDDLE, 0, "#000000", name);
  snprintf(name, sizeof name, "%s%s%s", s->y_name, f->ys.kind == TF_SCALE_LOG ? " (log scale)" : "",
           f->ys.kind == TF_SCALE_RANK ? " (rank scale)" : "");
  tf_svg_text(svg, 26, TOP + PLOT_H / 2.0, 13, TF_SVG_MIDDLE, 1, "#000000", name);
}

static int same_pt(const tf_plot_xy *a, const tf_plot_xy *b) { return a->x == b->x && a->y == b->y; }

/* Whether groups a and b share a segment (two neighbouring points), by a
 * walk over both in x order. */
static int share_segment(const tf_plot_group *a, const tf_plot_group *b) {
  size_t i = 0, j = 0;
  while (i + 1 < a->n && j + 1 < b->n) {
    if (same_pt(&a->pts[i], &b->pts[j]) && same_pt(&a->pts[i + 1], &b->pts[j + 1]))
      return 1;
    int c = a->pts[i].x < b->pts[j].x || (a->pts[i].x == b->pts[j].x && a->pts[i].y < b->pts[j].y);
    if (c)
      i++;
    else
      j++;
  }
  return 0;
}

static int has_point(const tf_plot_group *g, const tf_plot_xy *p) {
  size_t lo = 0, hi = g->n; /* in x order, then y */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const tf_plot_xy *q = &g->pts[mid];
    if (q->x < p->x || (q->x == p->x && q->y < p->y))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < g->n && same_pt(&g->pts[lo], p);
}

/* How many later groups cover group gi's line (share a segment) or its
 * point p: it is drawn that much wider, so that theirs lie on it; at most
 * NEST. */
static int covered_line(const tf_plot_series *s, size_t gi) {
  int k = 0;
  for (size_t h = gi + 1; h < s->ngroups && k < NEST; h++)
    k += share_segment(&s->groups[gi], &s->groups[h]);
  return k;
}

static int covered_point(const tf_plot_series *s, size_t gi, const tf_plot_xy *p) {
  int k = 0;
  for (size_t h = gi + 1; h < s->ngroups && k < NEST; h++)
    k += has_point(&s->groups[h], p);
  return k;
}

/* Every stride-th point of a line (and its last) is drawn: at most
 * MAX_DRAWN + 1 of them, however long the line (10^6 points made a 114 MB
 * picture no renderer opened); the subtitle says so. */
static size_t stride_of(const tf_plot_group *g) { return g->n > MAX_DRAWN ? (g->n + MAX_DRAWN - 1) / MAX_DRAWN : 1; }

static void draw_line(const tf_plot_series *s, size_t gi, const struct frame *f, tf_svg *svg) {
  const tf_plot_group *g = &s->groups[gi];
  double xs[MAX_DRAWN + 1], ys[MAX_DRAWN + 1];
  size_t n = 0, stride = stride_of(g);
  for (size_t i = 0; i < g->n; i++)
    if (i % stride == 0 || i + 1 == g->n) {
      xs[n] = px(f, g->pts[i].x);
      ys[n++] = py(f, g->pts[i].y);
    }
  if (n > 1)
    tf_svg_polyline(svg, xs, ys, n, tf_plot_series_color(gi), 2 + 3.0 * covered_line(s, gi), tf_plot_series_dash(gi));
}

static void draw_markers(const tf_plot_series *s, size_t gi, const struct frame *f, tf_svg *svg) {
  const tf_plot_group *g = &s->groups[gi];
  size_t stride = stride_of(g);
  for (size_t i = 0; i < g->n; i++) {
    if (i % stride && i + 1 != g->n)
      continue;
    char id[64], title[320], xv[64], yv[32];
    x_label(s, g->pts[i].x, xv, sizeof xv);
    tf_plot_number(g->pts[i].y, yv, sizeof yv);
    if (!s->categorical)
      tf_plot_number(g->pts[i].x, xv, sizeof xv);
    snprintf(id, sizeof id, "pt-%zu-%zu", gi, i);
    snprintf(title, sizeof title, "%s%s%s=%s: %s = %s", g->name, g->name[0] ? " " : "", s->x_name, xv, s->y_name, yv);
    double r = 4.5 + 2.5 * covered_point(s, gi, &g->pts[i]);
    tf_svg_marker(svg, id, tf_plot_series_marker(gi), px(f, g->pts[i].x), py(f, g->pts[i].y), r,
                  tf_plot_series_color(gi), title);
  }
}

struct notes {
  char line[MAX_NOTES + 1][480];
  size_t n;
};

/* The misses at x as notes, one per reason: "x d=192 (b200, gb200): needs ...". */
static void miss_notes_at(const tf_plot_series *s, double x, struct notes *out, size_t *extra) {
  char xv[64];
  x_label(s, x, xv, sizeof xv);
  for (size_t i = 0; i < s->nmisses; i++) {
    const tf_plot_miss *m = &s->misses[i];
    int first = m->x == x;
    for (size_t k = 0; k < i && first; k++) /* the first miss at x with this reason */
      first = !(s->misses[k].x == x && !strcmp(s->misses[k].why, m->why));
    if (!first)
      continue;
    if (out->n == MAX_NOTES) {
      ++*extra;
      continue;
    }
    char groups[256] = "";
    for (size_t k = i; k < s->nmisses; k++)
      if (s->misses[k].x == x && !strcmp(s->misses[k].why, m->why) && s->groups[s->misses[k].group].name[0] &&
          !strstr(groups, s->groups[s->misses[k].group].name))
        snprintf(groups + strlen(groups), sizeof groups - strlen(groups), "%s%s", groups[0] ? ", " : "",
                 s->groups[s->misses[k].group].name);
    snprintf(out->line[out->n++], sizeof out->line[0], "\xc3\x97 %s=%s%s%s%s: %s", s->x_name, xv, groups[0] ? " (" : "",
             groups, groups[0] ? ")" : "", m->why);
  }
}

static void miss_notes(const tf_plot_series *s, const struct frame *f, struct notes *out) {
  size_t extra = 0;
  out->n = 0;
  for (size_t i = 0; i < f->xs.n; i++) /* the distinct x values, ascending */
    miss_notes_at(s, f->xs.values[i], out, &extra);
  if (extra)
    snprintf(out->line[out->n++], sizeof out->line[0], "... and %zu more without a result", extra);
}

/* Groups whose points are all the same as an earlier group's: one note per
 * such set, "b200, gb200, b300: the same points (drawn nested)". */
static void same_notes(const tf_plot_series *s, struct notes *out) {
  out->n = 0;
  for (size_t g = 0; g < s->ngroups && out->n < MAX_NOTES; g++) {
    int first = 1, twin = 0;
    char names[400] = "";
    for (size_t h = 0; h < s->ngroups; h++) {
      const tf_plot_group *a = &s->groups[g], *b = &s->groups[h];
      int same = a->n == b->n && a->n > 0;
      for (size_t i = 0; i < a->n && same; i++)
        same = same_pt(&a->pts[i], &b->pts[i]);
      if (same && h < g)
        first = 0;
      if (same && h != g)
        twin = 1;
      if (same)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "", b->name);
    }
    if (first && twin)
      snprintf(out->line[out->n++], sizeof out->line[0], "%s: the same points (drawn nested)", names);
  }
}

/* An x on the x axis for each x without a result. */
static void draw_misses(const tf_plot_series *s, const struct frame *f, tf_svg *svg) {
  for (size_t i = 0, k = 0; i < f->xs.n; i++) {
    double x = f->xs.values[i];
    size_t first = s->nmisses;
    for (size_t m = 0; m < s->nmisses && first == s->nmisses; m++)
      first = s->misses[m].x == x ? m : first;
    if (first == s->nmisses)
      continue;
    char id[32], xv[64], title[320];
    x_label(s, x, xv, sizeof xv);
    snprintf(id, sizeof id, "miss-%zu", k++);
    snprintf(title, sizeof title, "%s=%s: no result: %s", s->x_name, xv, s->misses[first].why);
    tf_svg_marker(svg, id, TF_SVG_CROSS, px(f, x), TOP + PLOT_H, 5.5, MISS_INK, title);
  }
}

/* One entry per group (its dash, marker and colour), then the x of the
 * misses; returns the rightmost edge of its text. */
static double draw_legend(const tf_plot_series *s, tf_svg *svg) {
  double lx = LEFT + PLOT_W + 24, right = 0;
  for (size_t gi = 0; gi <= s->ngroups; gi++) {
    double ly = TOP + 8 + 22.0 * (double)gi, xs[2] = {lx, lx + 28}, ys[2] = {ly, ly};
    const char *name = gi < s->ngroups ? s->groups[gi].name : "no result (below)";
    char id[32];
    if (gi == s->ngroups && !s->nmisses)
      break;
    if (gi < s->ngroups) {
      name = name[0] ? name : s->y_name;
      tf_svg_polyline(svg, xs, ys, 2, tf_plot_series_color(gi), 2, tf_plot_series_dash(gi));
      snprintf(id, sizeof id, "legend-%zu", gi);
      tf_svg_marker(svg, id, tf_plot_series_marker(gi), lx + 14, ly, 4.5, tf_plot_series_color(gi), NULL);
    } else {
      tf_svg_marker(svg, "legend-miss", TF_SVG_CROSS, lx + 14, ly, 5.5, MISS_INK, NULL);
    }
    tf_svg_text(svg, lx + 36, ly + 4, 11, TF_SVG_START, 0, "#000000", name);
    double r = lx + 36 + tf_plot_text_width(name, 11);
    right = r > right ? r : right;
  }
  return right;
}

static void counts_line(const tf_plot_series *s, char *sub, size_t size) {
  size_t stride = 1;
  for (size_t g = 0; g < s->ngroups; g++)
    stride = stride_of(&s->groups[g]) > stride ? stride_of(&s->groups[g]) : stride;
  int n = snprintf(sub, size, "%zu points; %zu lines without a result left out%s", s->lines - s->skipped, s->skipped,
                   s->nmisses ? " (\xc3\x97 on the x axis)" : "");
  if (stride > 1 && n > 0 && (size_t)n < size)
    snprintf(sub + n, size - (size_t)n, "; lines of more than %d points drawn at every %zu-th point at most", MAX_DRAWN,
             stride);
}

static double widest(double a, double b) { return a > b ? a : b; }

void tf_plot_series_draw(const tf_plot_series *s, tf_svg *svg) {
  struct frame f = frame_of(s);
  struct notes same, miss;
  same_notes(s, &same);
  miss_notes(s, &f, &miss);
  char sub[256];
  counts_line(s, sub, sizeof sub);
  double notes_y = TOP + PLOT_H + 62,
         height = widest(TOP + 16 + 22.0 * (double)(s->ngroups + 1), notes_y + 15.0 * (double)(same.n + miss.n));
  tf_svg probe = {0}; /* the legend, drawn once to measure it */
  double width = widest(LEFT + PLOT_W + LEGEND, draw_legend(s, &probe) + 16);
  tf_svg_release(&probe);
  width = widest(width, 20 + tf_plot_text_width(s->title, 15) + 20);
  width = widest(width, 20 + tf_plot_text_width(s->subtitle, 11) + 20);
  for (size_t i = 0; i < same.n + miss.n; i++)
    width = widest(width, 20 + tf_plot_text_width(i < same.n ? same.line[i] : miss.line[i - same.n], 11) + 20);
  tf_svg_begin(svg, (int)ceil(width), (int)ceil(height + 10));
  tf_svg_text(svg, 20, 24, 15, TF_SVG_START, 0, "#000000", s->title);
  tf_svg_text(svg, 20, 40, 11, TF_SVG_START, 0, "#444444", s->subtitle);
  tf_svg_text(svg, 20, 55, 11, TF_SVG_START, 0, "#444444", sub);
  draw_axes(s, &f, svg);
  for (size_t g = 0; g < s->ngroups; g++)
    draw_line(s, g, &f, svg);
  for (size_t g = 0; g < s->ngroups; g++)
    draw_markers(s, g, &f, svg);
  draw_misses(s, &f, svg);
  draw_legend(s, svg);
  for (size_t i = 0; i < same.n + miss.n; i++)
    tf_svg_text(svg, 20, notes_y + 15.0 * (double)i, 11, TF_SVG_START, 0, i < same.n ? "#444444" : MISS_INK,
                i < same.n ? same.line[i] : miss.line[i - same.n]);
  tf_svg_end(svg);
  tf_plot_scale_release(&f.xs);
  tf_plot_scale_release(&f.ys);
}
