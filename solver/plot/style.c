#include "style.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/plot/svg.h"

void tf_plot_ramp(double t, char out[8]) {
  static const unsigned char stops[5][3] = {
      {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}};
  if (!(t > 0))
    t = 0;
  if (t > 1)
    t = 1;
  double pos = t * 4;
  int i = (int)pos;
  if (i > 3)
    i = 3;
  double f = pos - i;
  int rgb[3];
  for (int k = 0; k < 3; k++)
    rgb[k] = (int)lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
  snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

const char *tf_plot_ink(const char *fill) {
  unsigned long v = strtoul(fill + 1, NULL, 16);
  /* Rec. 601 luma, 0..255 */
  double y = 0.299 * (double)((v >> 16) & 255) + 0.587 * (double)((v >> 8) & 255) + 0.114 * (double)(v & 255);
  return y < 140 ? "#ffffff" : "#000000";
}

const char *tf_plot_series_color(size_t i) {
  static const char *const tab10[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return tab10[i % 10];
}

int tf_plot_ticks(double lo, double hi, double *ticks, int max) {
  if (max < 2)
    return 0;
  if (!(hi > lo)) {
    ticks[0] = lo;
    return 1;
  }
  double raw = hi / (max - 1) - lo / (max - 1), mag = pow(10, floor(log10(raw))), step = mag; /* no hi - lo: +-1e308 */
  if (raw > 5 * mag)
    step = 10 * mag;
  else if (raw > 2 * mag)
    step = 5 * mag;
  else if (raw > mag)
    step = 2 * mag;
  int n = 0;
  for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9 && n < max; v += step)
    ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
  return n;
}

void tf_plot_number(double v, char *buf, size_t size) {
  if (v == floor(v) && fabs(v) < 1e15)
    snprintf(buf, size, "%.0f", v);
  else
    snprintf(buf, size, "%.3g", v);
}

/* Three significant digits, trailing zeros dropped: 1.00 -> "1", 1.50 -> "1.5". */
static void sig3(double v, const char *unit, char *buf, size_t size) {
  char num[32];
  snprintf(num, sizeof num, "%.*f", fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2, v);
  if (strchr(num, '.')) {
    char *e = num + strlen(num);
    while (e[-1] == '0')
      *--e = 0;
    if (e[-1] == '.')
      e[-1] = 0;
  }
  snprintf(buf, size, "%s%s", num, unit);
}

void tf_plot_si(double v, int bytes, char *buf, size_t size) {
  static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char *const bin[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
  double base = bytes ? 1024 : 1000, a = fabs(v);
  if (!isfinite(v) || (a < (bytes ? 1024 : 1e4) && v == floor(v))) {
    if (isfinite(v))
      snprintf(buf, size, "%.0f%s", v, bytes ? " B" : "");
    else
      snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    return;
  }
  if (a >= 999.5 * pow(base, 6)) { /* past the largest prefix: 1e+308 */
    snprintf(buf, size, "%.3g%s", v, bytes ? " B" : "");
    return;
  }
  int k = 0;
  while (k < 6 && a >= base * 0.9995) { /* 999.6k rounds to 1M, not 1000k */
    a /= base;
    v /= base;
    k++;
  }
  sig3(v, bytes ? bin[k] : si[k], buf, size);
}

double tf_plot_text_width(const char *text, double size) {
  /* advances in 1/1000 em of '!' (33) .. '~' (126); space 318 */
  static const short adv[94] = {402, 460, 837, 637, 950, 780, 275, 390, 390, 500, 837, 317, 362, 317, 337, 637,
                                637, 637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 837, 837, 837, 532, 1000,
                                712, 687, 698, 770, 632, 575, 775, 753, 295, 295, 657, 558, 862, 747, 788, 602,
                                788, 695, 635, 593, 732, 683, 988, 685, 612, 685, 390, 337, 390, 837, 500, 500,
                                612, 635, 550, 635, 615, 353, 635, 633, 277, 277, 578, 277, 973, 633, 612, 635,
                                635, 393, 522, 393, 633, 592, 817, 592, 592, 525, 637, 337, 637, 837};
  double em = 0;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++)
    if (*c == ' ')
      em += 318;
    else if (*c > 32 && *c < 127)
      em += adv[*c - 33];
    else if ((*c & 0xc0) != 0x80) /* the first byte of a character */
      em += 700;
  return em * size / 1000;
}

int tf_plot_fit_size(const char *text, double width, int size, int min) {
  for (int s = size; s >= min; s--)
    if (tf_plot_text_width(text, s) <= width)
      return s;
  return 0;
}

const char *tf_plot_series_dash(size_t i) {
  static const char *const dashes[] = {NULL, "7 3", "2 2", "7 2 2 2", "11 3", "3 3 1 3"};
  return dashes[i % 6];
}

int tf_plot_series_marker(size_t i) {
  static const int markers[] = {TF_SVG_CIRCLE, TF_SVG_SQUARE, TF_SVG_DIAMOND, TF_SVG_TRIANGLE, TF_SVG_TRIANGLE_DOWN};
  return markers[i % 5];
}
