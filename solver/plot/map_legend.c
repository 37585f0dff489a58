/* The legend of a map (map_legend.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/input/roofline.h"
#include "solver/plot/cell_style.h"
#include "solver/plot/map_legend.h"
#include "solver/plot/style.h"

enum { BAR_H = 160, BAR_STEPS = 40, ENTRY = 26, TICK_GAP = 16, SWATCH = 26 };

/* Which blocked combinations occur: seen[mask]; returns how many. */
static int blocked_seen(const tf_plot_map *m, int seen[8]) {
  int n = 0;
  memset(seen, 0, 8 * sizeof *seen);
  for (size_t i = 0; i < m->nx * m->ny; i++)
    if (!m->cells[i].feasible && !seen[m->cells[i].blocked & 7]++)
      n++;
  return n;
}

static int terms_seen(const tf_plot_map *m) {
  int n = 0;
  for (int64_t t = 1; t <= TF_TERM_HBM; t++)
    for (size_t i = 0; i < m->nx * m->ny; i++)
      if (m->cells[i].feasible && m->cells[i].value == t) {
        n++;
        break;
      }
  return n;
}

double tf_plot_map_legend_height(const tf_plot_map *m, const tf_plot_map_geometry *g) {
  int seen[8];
  double colour = !g->any ? 0 : m->categorical ? ENTRY * terms_seen(m) + 10 : BAR_H + 52;
  return 18 + colour + ENTRY * (blocked_seen(m, seen) + m->has_best) + 20;
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
    tf_svg_rect(s, id, lx, y, 18, 18, tf_plot_term_fill(t), NULL, 0, NULL);
    tf_svg_text(s, lx + 26, y + 13, 11, TF_SVG_START, 0, "#000000", tf_roofline_term_name(t));
    y += ENTRY;
  }
  return y + 10;
}

/* Tick values of the bar: its ends, then round values between (linear,
 * log) or the values at quarter ranks (rank); each TICK_GAP from the
 * others. */
static int bar_ticks(const tf_plot_scale *sc, double *t, int max) {
  double cand[24];
  int nc = 0, n = 0;
  cand[nc++] = sc->values[sc->n - 1];
  cand[nc++] = sc->values[0];
  if (sc->kind == TF_SCALE_LINEAR) {
    nc += tf_plot_ticks(sc->values[0], sc->values[sc->n - 1], cand + nc, 6);
  } else if (sc->kind == TF_SCALE_LOG) {
    for (double p = pow(10, floor(log10(sc->values[0]))); p <= sc->values[sc->n - 1] && nc < 22; p *= 10)
      for (int k = 0; k < 3 && nc < 22; k++)
        cand[nc++] = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
  } else {
    for (int q = 1; q < 4; q++)
      cand[nc++] = tf_plot_scale_value(sc, q / 4.0);
  }
  for (int i = 0; i < nc && n < max; i++) {
    double at = tf_plot_scale_at(sc, cand[i]) * BAR_H;
    int keep = cand[i] >= sc->values[0] && cand[i] <= sc->values[sc->n - 1];
    for (int k = 0; k < n && keep; k++)
      keep = fabs(tf_plot_scale_at(sc, t[k]) * BAR_H - at) >= TICK_GAP;
    if (keep)
      t[n++] = cand[i];
  }
  return n;
}

/* The colour bar (smallest at the bottom), its ticks, and a line naming the
 * scale and, when the rule chose it, why. */
static double colour_bar(const tf_plot_map *m, const tf_plot_map_geometry *g, double lx, double y, tf_svg *s) {
  char fill[8], text[160];
  const tf_plot_scale *sc = &g->scale;
  for (int k = 0; k < BAR_STEPS; k++) {
    tf_plot_ramp(1.0 - (k + 0.5) / BAR_STEPS, fill);
    tf_svg_rect(s, k ? NULL : "legend-bar", lx, y + (double)BAR_H / BAR_STEPS * k, 18, (double)BAR_H / BAR_STEPS, fill,
                NULL, 0, NULL);
  }
  double t[12];
  int n = sc->n > 1 ? bar_ticks(sc, t, 12) : 0;
  if (sc->n == 1)
    t[n++] = sc->values[0];
  for (int i = 0; i < n; i++) {
    double ty = y + BAR_H - (sc->n > 1 ? tf_plot_scale_at(sc, t[i]) : 1.0) * BAR_H;
    tf_svg_line(s, lx + 18, ty, lx + 22, ty, "#000000", 1);
    tf_plot_si(t[i], m->bytes, text, sizeof text);
    tf_svg_text(s, lx + 26, ty + 4, 11, TF_SVG_START, 0, "#000000", text);
  }
  y += BAR_H + 18;
  snprintf(text, sizeof text, "%s scale%s", tf_plot_scale_name(sc->kind), sc->automatic ? " (auto)" : "");
  tf_svg_text(s, lx, y, 11, TF_SVG_START, 0, "#000000", text);
  if (sc->automatic && sc->kind != TF_SCALE_LINEAR) {
    snprintf(text, sizeof text, "linear: one step is %.0f%% of the range", 100 * sc->widest);
    tf_svg_text(s, lx, y + 14, 10, TF_SVG_START, 0, "#444444", text);
  }
  return y + 34;
}

/* One entry per combination of overflowing memories that occurs. */
static double blockers(const tf_plot_map *m, double lx, double y, tf_svg *s) {
  int seen[8];
  blocked_seen(m, seen);
  for (unsigned mask = 1; mask <= 8; mask++) {
    unsigned b = mask & 7; /* 1..7, then 0: a constraint last */
    if (!seen[b])
      continue;
    char id[48], letters[8], names[48], text[96];
    tf_plot_blocked_text(b, letters, sizeof letters, names, sizeof names);
    snprintf(id, sizeof id, "legend-%s", b ? letters : "constraint");
    if (b && !(b & (b - 1))) /* one memory: named as before, legend-smem */
      snprintf(id, sizeof id, "legend-%s", names);
    const char *fill = tf_plot_blocked_mask_fill(b);
    tf_svg_rect(s, id, lx, y, SWATCH, 18, fill, NULL, 0, NULL);
    tf_svg_text(s, lx + SWATCH / 2.0, y + 13, 11, TF_SVG_MIDDLE, 0, tf_plot_ink(fill), letters);
    if (b) {
      snprintf(text, sizeof text, "%s overflow%s", names, b & (b - 1) ? "" : "s");
      char *comma = strrchr(text, ',');
      if (comma && strlen(text) + 4 < sizeof text) { /* "smem, rf" -> "smem and rf", "smem, tmem and rf" */
        memmove(comma + 4, comma + 1, strlen(comma + 1) + 1);
        memcpy(comma, " and", 4);
      }
    } else {
      snprintf(text, sizeof text, "a constraint violated");
    }
    tf_svg_text(s, lx + SWATCH + 8, y + 13, 11, TF_SVG_START, 0, "#000000", text);
    y += ENTRY;
  }
  return y;
}

void tf_plot_map_legend(const tf_plot_map *m, const tf_plot_map_geometry *g, tf_svg *s) {
  double lx = g->x0 + g->w + 30, y = g->y0;
  char text[256];
  int size = tf_plot_fit_size(m->color_label, 220, 12, 8);
  tf_svg_text(s, lx, y + 4, size ? size : 8, TF_SVG_START, 0, "#000000", m->color_label);
  y += 20;
  if (g->any && m->categorical)
    y = categories(m, lx, y, s);
  else if (g->any)
    y = colour_bar(m, g, lx, y, s);
  y = blockers(m, lx, y, s);
  if (m->has_best) {
    tf_svg_rect(s, NULL, lx + 1.5, y + 1.5, 15, 15, "none", "#e31a1c", 3, NULL);
    snprintf(text, sizeof text, "optimum: %s=%lld %s=%lld", m->x_name, (long long)m->xs[m->best_ix], m->y_name,
             (long long)m->ys[m->best_iy]);
    tf_svg_text(s, lx + 26, y + 13, 11, TF_SVG_START, 0, "#000000", text);
  }
}
