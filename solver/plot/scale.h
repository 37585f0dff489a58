/* How values map onto a colour ramp or an axis: linear, log or rank (the
 * distinct values evenly spaced, in order), and the rule that picks one
 * when the user does not: the first of linear, log, rank under which no
 * single step between neighbouring distinct values takes more than half
 * of the range (log only when every value is positive; fewer than three
 * distinct values: linear).  An outlier that squeezes the rest into one
 * colour fails linear; values spread over decades pass log. */
#ifndef TF_SOLVER_PLOT_SCALE_H
#define TF_SOLVER_PLOT_SCALE_H

#include <stddef.h>

#include "model/core/error.h"

enum tf_plot_scale_kind { TF_SCALE_AUTO, TF_SCALE_LINEAR, TF_SCALE_LOG, TF_SCALE_RANK };

typedef struct tf_plot_scale {
  int kind;       /* linear, log or rank once made */
  int automatic;  /* 1: the rule above chose it */
  double *values; /* the distinct values, ascending */
  size_t n;
  double widest; /* the largest step between neighbours, as a share of the range, under linear */
} tf_plot_scale;

/* "auto", "linear", "log", "rank" (NULL: auto) as a kind; -1 with err set
 * naming `option` for anything else. */
int tf_plot_scale_parse(const char *text, const char *option, tf_error *err);

/* A scale over v[0..n-1] (NaNs and infinities left out): `kind` auto
 * applies the rule; log over values that are not all positive falls back
 * to the rule. */
void tf_plot_scale_make(tf_plot_scale *s, int kind, const double *v, size_t n);
void tf_plot_scale_release(tf_plot_scale *s);

/* Where v lies on the scale, 0 (the smallest value) to 1 (the largest);
 * rank: between the ranks of its neighbours when v is no value of the
 * scale.  0.5 when the scale has one value or none. */
double tf_plot_scale_at(const tf_plot_scale *s, double v);

/* The value at position t in [0, 1] (rank: the value of the nearest rank). */
double tf_plot_scale_value(const tf_plot_scale *s, double t);

/* "linear", "log", "rank". */
const char *tf_plot_scale_name(int kind);

#endif
