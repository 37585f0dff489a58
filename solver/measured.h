/* Validation against published measurements (kind "measured",
 * model/formats/measured.h): each point's problem is solved with its
 * configuration fixed under min TF_MEASURED_TIME_LET, its predicted time
 * set beside the measured one; once every file has run, the points of a
 * group (one problem measured with several configurations) are ordered by
 * their measured time and compared with the model's order, and the
 * measured best is ranked in the model's whole space (its config's
 * variables free).  What `tilefit validate` prints after its rows
 * (docs/validating.md, "Measured cases"). */
#ifndef TF_SOLVER_MEASURED_H
#define TF_SOLVER_MEASURED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/core/error.h"
#include "model/core/json_out.h"
#include "model/formats/case.h"
#include "solver/backend.h"
#include "solver/batch/cache.h"

/* The workset let a point's time is read from and minimised under, and how
 * many of its units make a nanosecond: the one place that names it. */
#define TF_MEASURED_TIME_LET "time_ns"
#define TF_MEASURED_UNITS_PER_NS 1
/* Two measured times are "apart" when the slower is at least this much
 * slower (1.05: 5 %). */
#define TF_MEASURED_APART 1.05

enum tf_mpoint_status { TF_MP_OK, TF_MP_UNREPRESENTABLE, TF_MP_NO_FIT };

typedef struct tf_mpoint {
  char *id, *machine, *workset, *file;
  size_t line;
  tf_measured m;   /* moved from the case */
  tf_request base; /* the point's problem without its configuration */
  tf_assign *fix;  /* the config's variables (the rest went into base's params) */
  size_t nfix;
  char config[200];   /* "B_r=128 B_c=128 warps=4", as the line gives it */
  int status;         /* enum tf_mpoint_status */
  char why[400];      /* not representable, or does not fit: why */
  int64_t predicted;  /* in TF_MEASURED_TIME_LET's unit */
  char bound[16];     /* the binding term's name ("mma", "hbm") */
  double measured_ns; /* -1 for a relative time */
} tf_mpoint;

typedef struct tf_mgroup {
  const char *name;     /* borrowed from its first point */
  size_t *points;       /* indices into the set, in measured order */
  size_t npoints;       /* representable points that fit */
  size_t nall;          /* every point of the group */
  int ranked;           /* 0: no point to rank; 1 ranked; -1 outside the space */
  int64_t faster, tied; /* configurations strictly faster / tied with the best */
  int at_least;         /* 1 when the search's cap cut the count: a lower bound */
} tf_mgroup;

typedef struct tf_mfamily {
  char name[160]; /* "h100-sxm fa3-fwd" */
  size_t n;
  double median, min, max;
} tf_mfamily;

typedef struct tf_mtotals {
  size_t points, groups, unrepresentable, no_fit;
  size_t right, wrong, tied;                                       /* pairs at least TF_MEASURED_APART apart */
  size_t pairs, ties_measured, ties_model, concordant, discordant; /* every pair, for tau-b */
  int has_tau;
  double tau_b;
  size_t several, top1, top3;        /* groups of several configurations */
  size_t ranked, all_top1, all_top3; /* every group with a ranked best */
} tf_mtotals;

typedef struct tf_measured_set {
  tf_mpoint *p;
  size_t n, cap;
  tf_mgroup *g;
  size_t ng;
  tf_mfamily *f;
  size_t nf;
  tf_mtotals t;
} tf_measured_set;

void tf_measured_set_init(tf_measured_set *s);
void tf_measured_set_release(tf_measured_set *s);

/* Solves one measured case (c->kind == TF_KIND_MEASURED) of `file`, line
 * `line`, adds it to s (c->measured moves into it) and writes its row to
 * out (text, or with `json` a JSON line).  Bad input (a group whose
 * points name different machines, worksets or kinds of measurement; a
 * param value the workset refuses) is -1. */
int tf_measured_case(tf_measured_set *s, tf_cache *cache, const tf_solve_opts *o, tf_case *c, const char *file,
                     size_t line, FILE *out, int json, tf_error *err);

/* After every case: groups, ranks, pairs, tau and the families.  -1 on bad
 * input (a relative time with no other point of its group to compare). */
int tf_measured_finish(tf_measured_set *s, tf_cache *cache, const tf_solve_opts *o, tf_error *err);

/* The measured best of g (the set's point g->points[0]) ranked in the
 * model's whole space: sets g->ranked, faster, tied, at_least
 * (tf_measured_finish calls it). */
int tf_measured_rank(tf_measured_set *s, tf_mgroup *g, tf_cache *cache, const tf_solve_opts *o, tf_error *err);

/* The groups and totals as text, or as the member "measured": {...} of the
 * object w stands in; nothing when the set is empty. */
void tf_measured_write_text(FILE *f, const tf_measured_set *s);
void tf_measured_write_json(tf_json_out *w, const tf_measured_set *s);

#endif
