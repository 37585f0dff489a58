/* Drawing a computed map (map.h): the geometry, the cells and their
 * labels, the axes; the legend is map_legend.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

#include "model/input/roofline.h"
#include "solver/plot/cell_style.h"
#include "solver/plot/map.h"
#include "solver/plot/map_legend.h"
#include "solver/plot/style.h"

enum { LEFT = 90, LEGEND = 250, CELL_PAD = 3, LABEL_SIZE = 11, LABEL_MIN = 7 };

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static void layout(const tf_plot_map *m, tf_plot_map_geometry *g) {
  memset(g, 0, sizeof *g);
  g->cw = clampd(720.0 / (double)m->nx, 28, 80);
  g->ch = clampd(240.0 / (double)m->ny, 24, 80);
  g->x0 = LEFT;
  g->y0 = m->free_note[0] ? 86 : 70;
  g->w = g->cw * (double)m->nx;
  g->h = g->ch * (double)m->ny;
  double *v = tf_nalloc(m->nx * m->ny + 1, sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < m->nx * m->ny; i++)
    if (m->cells[i].feasible)
      v[n++] = (double)m->cells[i].value;
  g->any = n > 0;
  tf_plot_scale_make(&g->scale, m->categorical ? TF_SCALE_LINEAR : m->scale, v, n);
  free(v);
}

static void value_fill(const tf_plot_map *m, const tf_plot_map_geometry *g, int64_t v, char out[8]) {
  if (m->categorical)
    snprintf(out, 8, "%s", tf_plot_term_fill(v));
  else
    tf_plot_ramp(g->scale.n > 1 ? tf_plot_scale_at(&g->scale, (double)v) : 1.0, out);
}

/* A cell's text: its value (tf_plot_si), or for a binding term its name. */
static void value_label(const tf_plot_map *m, int64_t v, char *out, size_t size) {
  const char *name = m->categorical ? tf_roofline_term_name(v) : NULL;
  if (name)
    snprintf(out, size, "%s", name);
  else
    tf_plot_si((double)v, m->bytes, out, size);
}

/* The label centred in its cell, at the largest size from LABEL_SIZE down
 * to LABEL_MIN that leaves CELL_PAD on each side; else turned up the cell
 * (a tall narrow cell); else compact ("227 KiB" as "227K"); else none (the
 * cell's title still says it). */
static void cell_label(const tf_plot_map_geometry *g, double x, double y, const char *fill, const char *label,
                       tf_svg *s) {
  double cx = x + g->cw / 2, cy = y + g->ch / 2, across = g->cw - 2 * CELL_PAD, up = g->ch - 2 * CELL_PAD;
  int size = tf_plot_fit_size(label, across, LABEL_SIZE, LABEL_MIN);
  if (size && up >= size) {
    tf_svg_text(s, cx, cy + size * 0.36, size, TF_SVG_MIDDLE, 0, tf_plot_ink(fill), label);
    return;
  }
  size = tf_plot_fit_size(label, up, LABEL_SIZE, LABEL_MIN);
  if (size && across >= size) { /* turned -90 degrees about its anchor: its height runs across */
    tf_svg_text(s, cx + size * 0.26, cy, size, TF_SVG_MIDDLE, 1, tf_plot_ink(fill), label);
    return;
  }
  char compact[32];
  size_t n = 0;
  for (const char *c = label; *c && n + 1 < sizeof compact; c++)
    if (*c != ' ' && !(c[0] == 'i' && c[1] == 'B') && !(c[0] == 'B' && c > label && c[-1] == 'i'))
      compact[n++] = *c;
  compact[n] = 0;
  size = tf_plot_fit_size(compact, across, LABEL_SIZE, LABEL_MIN);
  if (size && up >= size)
    tf_svg_text(s, cx, cy + size * 0.36, size, TF_SVG_MIDDLE, 0, tf_plot_ink(fill), compact);
}

static void draw_cell(const tf_plot_map *m, const tf_plot_map_geometry *g, size_t ix, size_t iy, tf_svg *s) {
  const tf_plot_cell *c = &m->cells[iy * m->nx + ix];
  double x = g->x0 + g->cw * (double)ix, y = g->y0 + g->ch * (double)(m->ny - 1 - iy);
  char id[96], title[640], fill[8], label[32], names[64], at[160] = "";
  snprintf(id, sizeof id, "cell-%lld-%lld", (long long)m->xs[ix], (long long)m->ys[iy]);
  if (c->feasible) {
    value_fill(m, g, c->value, fill);
    value_label(m, c->value, label, sizeof label);
    if (c->free_at[0])
      snprintf(at, sizeof at, " (at %s)", c->free_at);
    char exact[32];
    snprintf(exact, sizeof exact, "%lld", (long long)c->value);
    snprintf(title, sizeof title, "%s=%lld %s=%lld: %s = %s%s%s%s%s", m->x_name, (long long)m->xs[ix], m->y_name,
             (long long)m->ys[iy], m->color_label, m->categorical ? label : exact,
             strcmp(label, exact) && !m->categorical ? " (" : "", strcmp(label, exact) && !m->categorical ? label : "",
             strcmp(label, exact) && !m->categorical ? ")" : "", at);
  } else {
    tf_plot_blocked_text(c->blocked, label, sizeof label, names, sizeof names);
    snprintf(fill, sizeof fill, "%s", tf_plot_blocked_mask_fill(c->blocked));
    snprintf(title, sizeof title, "%s=%lld %s=%lld: infeasible (%s): %s", m->x_name, (long long)m->xs[ix], m->y_name,
             (long long)m->ys[iy], names, c->why);
  }
  tf_svg_rect(s, id, x, y, g->cw, g->ch, fill, "#ffffff", 1, title);
  cell_label(g, x, y, fill, label, s);
}

static void draw_axes(const tf_plot_map *m, const tf_plot_map_geometry *g, tf_svg *s) {
  char v[32];
  for (size_t ix = 0; ix < m->nx; ix++) {
    snprintf(v, sizeof v, "%lld", (long long)m->xs[ix]);
    int size = tf_plot_fit_size(v, g->cw - 2, 11, 7);
    tf_svg_text(s, g->x0 + g->cw * ((double)ix + 0.5), g->y0 + g->h + 16, size ? size : 7, TF_SVG_MIDDLE, 0, "#000000",
                v);
  }
  for (size_t iy = 0; iy < m->ny; iy++) {
    snprintf(v, sizeof v, "%lld", (long long)m->ys[iy]);
    tf_svg_text(s, g->x0 - 8, g->y0 + g->ch * ((double)(m->ny - 1 - iy) + 0.5) + 4, 11, TF_SVG_END, 0, "#000000", v);
  }
  tf_svg_text(s, g->x0 + g->w / 2, g->y0 + g->h + 40, 13, TF_SVG_MIDDLE, 0, "#000000", m->x_name);
  tf_svg_text(s, 30, g->y0 + g->h / 2, 13, TF_SVG_MIDDLE, 1, "#000000", m->y_name);
}

static void free_text(const tf_plot_map *m, char *out, size_t size) {
  snprintf(out, size, "free in each cell, at its best value (hover over a cell): %s", m->free_note);
}

/* The title, the subtitle and the note on free variables. */
static void draw_titles(const tf_plot_map *m, tf_svg *s) {
  char note[400];
  tf_svg_text(s, 30, 26, 15, TF_SVG_START, 0, "#000000", m->title);
  tf_svg_text(s, 30, 46, 11, TF_SVG_START, 0, "#444444", m->subtitle);
  if (m->free_note[0]) {
    free_text(m, note, sizeof note);
    tf_svg_text(s, 30, 62, 11, TF_SVG_START, 0, "#b35900", note);
  }
}

/* The width the titles need. */
static double titles_width(const tf_plot_map *m) {
  char note[400];
  double w = tf_plot_text_width(m->title, 15), w2 = tf_plot_text_width(m->subtitle, 11);
  w = w2 > w ? w2 : w;
  if (m->free_note[0]) {
    free_text(m, note, sizeof note);
    w2 = tf_plot_text_width(note, 11);
    w = w2 > w ? w2 : w;
  }
  return 30 + w + 20;
}

void tf_plot_map_draw(const tf_plot_map *m, tf_svg *s) {
  tf_plot_map_geometry g;
  layout(m, &g);
  double legend_h = tf_plot_map_legend_height(m, &g);
  double width = g.x0 + g.w + 30 + LEGEND, height = g.y0 + (g.h + 60 > legend_h ? g.h + 60 : legend_h);
  double need = titles_width(m); /* the picture is as wide as its longest title */
  tf_svg_begin(s, (int)(need > width ? need : width), (int)height);
  draw_titles(m, s);
  for (size_t iy = 0; iy < m->ny; iy++)
    for (size_t ix = 0; ix < m->nx; ix++)
      draw_cell(m, &g, ix, iy, s);
  if (m->has_best)
    tf_svg_rect(s, "optimum", g.x0 + g.cw * (double)m->best_ix + 1.5,
                g.y0 + g.ch * (double)(m->ny - 1 - m->best_iy) + 1.5, g.cw - 3, g.ch - 3, "none", "#e31a1c", 3, NULL);
  draw_axes(m, &g, s);
  tf_plot_map_legend(m, &g, s);
  tf_svg_end(s);
  tf_plot_scale_release(&g.scale);
}
