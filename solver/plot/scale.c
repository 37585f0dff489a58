#include "scale.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

static const char *const names[] = {"auto", "linear", "log", "rank"};

int tf_plot_scale_parse(const char *text, const char *option, tf_error *err) {
  if (!text)
    return TF_SCALE_AUTO;
  for (int k = 0; k < 4; k++)
    if (!strcmp(text, names[k]))
      return k;
  tf_error_set(err, TF_EINPUT, option, "expected auto, linear, log or rank, got '%s'", text);
  return -1;
}

const char *tf_plot_scale_name(int kind) { return names[kind >= 0 && kind < 4 ? kind : 0]; }

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The largest step between neighbours as a share of the range, on values
 * mapped by f (identity or log). */
static double widest_step(const double *v, size_t n, int log_of) {
  if (n < 3)
    return 0;
  double lo = log_of ? log(v[0]) : v[0], hi = log_of ? log(v[n - 1]) : v[n - 1], widest = 0;
  for (size_t i = 1; i < n; i++) {
    double a = log_of ? log(v[i - 1]) : v[i - 1], b = log_of ? log(v[i]) : v[i];
    double share = (b / 2 - a / 2) / (hi / 2 - lo / 2); /* in halves: +-1e308 stays finite */
    widest = share > widest ? share : widest;
  }
  return widest;
}

void tf_plot_scale_make(tf_plot_scale *s, int kind, const double *v, size_t n) {
  memset(s, 0, sizeof *s);
  s->values = tf_nalloc(n ? n : 1, sizeof *s->values);
  for (size_t i = 0; i < n; i++)
    if (isfinite(v[i]))
      s->values[s->n++] = v[i];
  qsort(s->values, s->n, sizeof *s->values, ascending);
  size_t k = 0;
  for (size_t i = 0; i < s->n; i++)
    if (!k || s->values[i] != s->values[k - 1])
      s->values[k++] = s->values[i];
  s->n = k;
  s->widest = widest_step(s->values, s->n, 0);
  int positive = s->n > 0 && s->values[0] > 0;
  s->automatic = kind == TF_SCALE_AUTO || (kind == TF_SCALE_LOG && !positive);
  if (!s->automatic)
    s->kind = kind;
  else if (s->widest <= 0.5)
    s->kind = TF_SCALE_LINEAR;
  else if (positive && widest_step(s->values, s->n, 1) <= 0.5)
    s->kind = TF_SCALE_LOG;
  else
    s->kind = TF_SCALE_RANK;
}

void tf_plot_scale_release(tf_plot_scale *s) {
  free(s->values);
  memset(s, 0, sizeof *s);
}

/* The rank position of v: the index of the first value >= v, between
 * neighbours when v is none of them. */
static double rank_of(const tf_plot_scale *s, double v) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->values[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return 0;
  if (lo == s->n)
    return (double)(s->n - 1);
  double a = s->values[lo - 1], b = s->values[lo];
  return (double)(lo - 1) + (v / 2 - a / 2) / (b / 2 - a / 2);
}

double tf_plot_scale_at(const tf_plot_scale *s, double v) {
  if (s->n < 2 || !isfinite(v))
    return 0.5;
  double lo = s->values[0], hi = s->values[s->n - 1], t;
  if (s->kind == TF_SCALE_RANK)
    t = rank_of(s, v) / (double)(s->n - 1);
  else if (s->kind == TF_SCALE_LOG)
    t = v > 0 ? (log(v) - log(lo)) / (log(hi) - log(lo)) : 0;
  else
    t = (v / 2 - lo / 2) / (hi / 2 - lo / 2);
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

double tf_plot_scale_value(const tf_plot_scale *s, double t) {
  if (s->n == 0)
    return 0;
  double lo = s->values[0], hi = s->values[s->n - 1];
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  if (s->kind == TF_SCALE_RANK)
    return s->values[(size_t)lround(t * (double)(s->n - 1))];
  if (s->kind == TF_SCALE_LOG)
    return exp(log(lo) + t * (log(hi) - log(lo)));
  return lo + t * (hi / 2 - lo / 2) * 2;
}
