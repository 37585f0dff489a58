/* Drawing a computed map (map.h): the geometry and the legend. */
#include <stdio.h>
#include <string.h>

#include "model/roofline.h"
#include "solver/plot/map.h"
#include "solver/plot/style.h"

enum { LEFT = 90, TOP = 70, LEGEND = 250 };

const char *tf_plot_blocked_fill(int memory) {
  static const char *const fills[] = {"#9e9e9e", "#c8c8c8", "#6e6e6e", "#e6e6e6"}; /* smem tmem rf, constraint */
  return fills[memory >= 0 && memory < TF_NMEM ? memory : TF_NMEM];
}

const char *tf_plot_blocked_letter(int memory) {
  static const char *const letters[] = {"S", "T", "R", "C"};
  return letters[memory >= 0 && memory < TF_NMEM ? memory : TF_NMEM];
}

/* A blocked cell's fill, letters ("ST") and memory list ("smem, tmem"). */
static const char *blocked_text(unsigned mask, char *letters, size_t lsize, char *names, size_t nsize) {
  int first = TF_NMEM;
  letters[0] = names[0] = 0;
  for (int m = 0; m < TF_NMEM; m++)
    if (mask & (1u << m)) {
      first = first < TF_NMEM ? first : m;
      snprintf(letters + strlen(letters), lsize - strlen(letters), "%s", tf_plot_blocked_letter(m));
      snprintf(names + strlen(names), nsize - strlen(names), "%s%s", names[0] ? ", " : "", tf_memory_name(m));
    }
  if (!mask) {
    snprintf(letters, lsize, "%s", tf_plot_blocked_letter(TF_NMEM));
    snprintf(names, nsize, "constraint");
  }
  return tf_plot_blocked_fill(first);
}

/* Which legend entries occur: seen[m] for each memory, seen[TF_NMEM] for a
 * constraint; returns how many. */
static int blocked_seen(const tf_plot_map *m, int seen[TF_NMEM + 1]) {
  int n = 0;
  for (int b = 0; b <= TF_NMEM; b++)
    seen[b] = 0;
  for (size_t i = 0; i < m->nx * m->ny; i++) {
    const tf_plot_cell *c = &m->cells[i];
    for (int b = 0; b <= TF_NMEM && !c->feasible; b++)
      if ((b < TF_NMEM ? c->blocked & (1u << b) : !c->blocked) && !seen[b]++)
        n++;
  }
  return n;
}

struct geometry {
  double cw, ch, x0, y0, w, h;
  int64_t lo, hi; /* colour range over the feasible cells */
  int any;        /* some cell is feasible */
};

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static struct geometry layout(const tf_plot_map *m) {
  struct geometry g = {clampd(720.0 / (double)m->nx, 28, 80), clampd(240.0 / (double)m->ny, 24, 80), LEFT, TOP, 0,
                       0, 0, 0, 0};
  g.w = g.cw * (double)m->nx;
  g.h = g.ch * (double)m->ny;
  int any = 0;
  for (size_t i = 0; i < m->nx * m->ny; i++)
    if (m->cells[i].feasible) {
      if (!any || m->cells[i].value < g.lo)
        g.lo = m->cells[i].value;
      if (!any || m->cells[i].value > g.hi)
        g.hi = m->cells[i].value;
      g.any = any = 1;
    }
  return g;
}

/* A binding term's colour (bound_by 1 .. TF_TERM_HBM), one per term. */
static const char *const term_fill[TF_TERM_HBM + 1] = {"#bbbbbb", "#4e79a7", "#f28e2b", "#59a14f", "#e15759"};

static void value_fill(const tf_plot_map *m, const struct geometry *g, int64_t v, char out[8]) {
  if (m->categorical)
    snprintf(out, 8, "%s", term_fill[v >= 1 && v <= TF_TERM_HBM ? (int)v : 0]);
  else
    tf_plot_ramp(g->hi > g->lo ? (double)(v - g->lo) / (double)(g->hi - g->lo) : 1.0, out);
}

/* A cell's text: its value, or for a binding term its name. */
static void value_label(const tf_plot_map *m, int64_t v, char *out, size_t size) {
  const char *name = m->categorical ? tf_roofline_term_name(v) : NULL;
  if (name)
    snprintf(out, size, "%s", name);
  else
    snprintf(out, size, "%lld", (long long)v);
}

static void draw_cell(const tf_plot_map *m, const struct geometry *g, size_t ix, size_t iy, tf_svg *s) {
  const tf_plot_cell *c = &m->cells[iy * m->nx + ix];
  double x = g->x0 + g->cw * (double)ix, y = g->y0 + g->ch * (double)(m->ny - 1 - iy);
  char id[96], title[512], fill[8], label[32], names[64];
  snprintf(id, sizeof id, "cell-%lld-%lld", (long long)m->xs[ix], (long long)m->ys[iy]);
  if (c->feasible) {
    value_fill(m, g, c->value, fill);
    value_label(m, c->value, label, sizeof label);
    snprintf(title, sizeof title, "%s=%lld %s=%lld: %s = %s", m->x_name, (long long)m->xs[ix], m->y_name,
             (long long)m->ys[iy], m->color_label, label);
  } else {
    snprintf(fill, sizeof fill, "%s", blocked_text(c->blocked, label, sizeof label, names, sizeof names));
    snprintf(title, sizeof title, "%s=%lld %s=%lld: infeasible (%s): %s", m->x_name, (long long)m->xs[ix],
             m->y_name, (long long)m->ys[iy], names, c->why);
  }
  tf_svg_rect(s, id, x, y, g->cw, g->ch, fill, "#ffffff", 1, title);
  int size = g->cw < 40 ? 9 : 11;
  tf_svg_text(s, x + g->cw / 2, y + g->ch / 2 + size / 3.0, size, TF_SVG_MIDDLE, 0, tf_plot_ink(fill), label);
}

static void draw_axes(const tf_plot_map *m, const struct geometry *g, tf_svg *s) {
  char v[32];
  for (size_t ix = 0; ix < m->nx; ix++) {
    snprintf(v, sizeof v, "%lld", (long long)m->xs[ix]);
    tf_svg_text(s, g->x0 + g->cw * ((double)ix + 0.5), g->y0 + g->h + 16, 11, TF_SVG_MIDDLE, 0, "#000000", v);
  }
  for (size_t iy = 0; iy < m->ny; iy++) {
    snprintf(v, sizeof v, "%lld", (long long)m->ys[iy]);
    tf_svg_text(s, g->x0 - 8, g->y0 + g->ch * ((double)(m->ny - 1 - iy) + 0.5) + 4, 11, TF_SVG_END, 0, "#000000",
                v);
  }
  tf_svg_text(s, g->x0 + g->w / 2, g->y0 + g->h + 40, 13, TF_SVG_MIDDLE, 0, "#000000", m->x_name);
  tf_svg_text(s, 30, g->y0 + g->h / 2, 13, TF_SVG_MIDDLE, 1, "#000000", m->y_name);
}

/* A categorical legend: one swatch per binding term that occurs. */
static double categories(const tf_plot_map *m, double lx, double y, tf_svg *s) {
  for (int64_t t = 1; t <= TF_TERM_HBM; t++) {
    int seen = 0;
    for (size_t i = 0; i < m->nx * m->ny && !seen; i++)
      seen = m->cells[i].feasible && m->cells[i].value == t;
    if (!seen)
      continue;
    char id[32];
    snprintf(id, sizeof id, "legend-term-%s", tf_roofline_term_name(t));
    tf_svg_rect(s, id, lx, y, 18, 18, term_fill[t], NULL, 0, NULL);
    tf_svg_text(s, lx + 26, y + 13, 11, TF_SVG_START, 0, "#000000", tf_roofline_term_name(t));
    y += 26;
  }
  return y + 10;
}

/* The colour bar (lo at the bottom), then one entry per blocker that
 * occurs, then the optimum's outline.  Returns the legend's bottom. */
static double draw_legend(const tf_plot_map *m, const struct geometry *g, tf_svg *s) {
  double lx = g->x0 + g->w + 30, y = g->y0;
  char fill[8], text[256];
  tf_svg_text(s, lx, y + 4, 12, TF_SVG_START, 0, "#000000", m->color_label);
  y += 14;
  if (g->any && m->categorical) {
    y = categories(m, lx, y, s);
  } else if (g->any) {
    for (int k = 0; k < 40; k++) {
      tf_plot_ramp(1.0 - k / 39.0, fill);
      tf_svg_rect(s, NULL, lx, y + 3 * k, 18, 3, fill, NULL, 0, NULL);
    }
    snprintf(text, sizeof text, "%lld", (long long)g->hi);
    tf_svg_text(s, lx + 24, y + 8, 11, TF_SVG_START, 0, "#000000", text);
    snprintf(text, sizeof text, "%lld", (long long)g->lo);
    tf_svg_text(s, lx + 24, y + 120, 11, TF_SVG_START, 0, "#000000", text);
    y += 136;
  }
  int seen[TF_NMEM + 1];
  blocked_seen(m, seen);
  for (int b = 0; b <= TF_NMEM; b++) {
    if (!seen[b])
      continue;
    char id[32];
    snprintf(id, sizeof id, "legend-%s", b < TF_NMEM ? tf_memory_name(b) : "constraint");
    tf_svg_rect(s, id, lx, y, 18, 18, tf_plot_blocked_fill(b), NULL, 0, NULL);
    tf_svg_text(s, lx + 9, y + 13, 11, TF_SVG_MIDDLE, 0, "#000000", tf_plot_blocked_letter(b));
    snprintf(text, sizeof text, b < TF_NMEM ? "%s overflows" : "%s violated", b < TF_NMEM ? tf_memory_name(b) : "a constraint");
    tf_svg_text(s, lx + 26, y + 13, 11, TF_SVG_START, 0, "#000000", text);
    y += 26;
  }
  if (m->has_best) {
    tf_svg_rect(s, NULL, lx + 1.5, y + 1.5, 15, 15, "none", "#e31a1c", 3, NULL);
    snprintf(text, sizeof text, "optimum: %s=%lld %s=%lld", m->x_name, (long long)m->xs[m->best_ix], m->y_name,
             (long long)m->ys[m->best_iy]);
    tf_svg_text(s, lx + 26, y + 13, 11, TF_SVG_START, 0, "#000000", text);
    y += 26;
  }
  return y;
}

void tf_plot_map_draw(const tf_plot_map *m, tf_svg *s) {
  struct geometry g = layout(m);
  /* the legend's height: title, bar, one entry per blocker that occurs, the optimum */
  int seen[TF_NMEM + 1], nseen = blocked_seen(m, seen);
  double legend_h = 14 + 136 + 26.0 * nseen + 26 + 20;
  int width = (int)(g.x0 + g.w + 30 + LEGEND), height = (int)(g.y0 + (g.h + 60 > legend_h ? g.h + 60 : legend_h));
  tf_svg_begin(s, width, height);
  tf_svg_text(s, LEFT - 60, 26, 15, TF_SVG_START, 0, "#000000", m->title);
  tf_svg_text(s, LEFT - 60, 46, 11, TF_SVG_START, 0, "#444444", m->subtitle);
  for (size_t iy = 0; iy < m->ny; iy++)
    for (size_t ix = 0; ix < m->nx; ix++)
      draw_cell(m, &g, ix, iy, s);
  if (m->has_best)
    tf_svg_rect(s, "optimum", g.x0 + g.cw * (double)m->best_ix + 1.5,
                g.y0 + g.ch * (double)(m->ny - 1 - m->best_iy) + 1.5, g.cw - 3, g.ch - 3, "none", "#e31a1c", 3,
                NULL);
  draw_axes(m, &g, s);
  draw_legend(m, &g, s);
  tf_svg_end(s);
}
