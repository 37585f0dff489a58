#include "style.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
