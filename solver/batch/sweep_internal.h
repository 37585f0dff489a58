/* Internal to the batch engine: the sweep's own structure (a spec from
 * model/formats/spec.h, or a problem list of model/formats/case.h lines; the worksets and
 * machines they name, loaded once) and what its files share: sweep_points.c
 * (loading, ids, requests), sweep_key.c, sweep_line.c, sweep_resume.c,
 * sweep_run.c, sweep_merge.c. */
#ifndef TF_SOLVER_BATCH_SWEEP_INTERNAL_H
#define TF_SOLVER_BATCH_SWEEP_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "encode/ilp.h"
#include "model/expr/expr.h"
#include "model/formats/case.h"
#include "model/formats/spec.h"
#include "model/input/workset.h"
#include "solver/batch/cache.h"
#include "solver/batch/sweep.h"
#include "solver/report.h"

struct wsinfo { /* a workset named by the sweep, loaded for expansion */
  char *name;
  const tf_workset *w; /* borrowed from the sweep's cache; NULL when it does not load */
};

struct tf_sweep {
  tf_cache cache; /* machines and worksets, parsed once for expansion and solving */
  char *file;
  int is_spec;
  size_t npoints;

  /* a spec */
  tf_spec spec;
  size_t *wsidx; /* per spec workset: index into ws */

  /* a problem list */
  tf_case *cases;    /* per point */
  char **case_error; /* per point: why the line does not parse, or NULL */
  size_t capcases;

  struct wsinfo *ws;
  size_t nws, capws;
  tf_csv_columns csv;
  char *csv_header;
  char **warnings;
  size_t nwarnings, capwarnings;
};

void tf_sweep_warn(tf_sweep *s, const char *fmt, const char *a, const char *b);
size_t tf_sweep_workset_index(tf_sweep *s, const char *name);

/* sweep_key.c: the exact content of a search problem (choose values left
 * out, which do not change which combination wins), the search memo's key. */
char *tf_sweep_search_key(const tf_problem *p, size_t *len);

/* sweep_line.c: the start of point `index`'s line, "{"index":N,"total":T,
 * "id":ID,"schema":S" (the object left open in w, for the line's members)
 * or "N,T,ID,"; its end (the object closed, the line ended; nothing for
 * CSV, whose row ends itself); and reading index and total back from a
 * line.  A line's body (the answer memo's text) is the members after
 * those, each with its comma. */
void tf_sweep_line_prefix(tf_json_out *w, FILE *f, int format, size_t index, size_t total, const char *id);
void tf_sweep_line_end(tf_json_out *w, int format);
int tf_sweep_line_position(const char *line, int csv, size_t *index, size_t *total);

/* sweep_resume.c: locks fd (flock: one writer at a time), checks the
 * complete lines of fd against the first points of todo[0..ntodo-1], each
 * a whole JSON object in JSON Lines, and leaves fd after them (a torn last
 * line cut off, its length in *torn); *done is how many points they hold,
 * *last a copy of the last point line (NULL when none; the caller frees
 * it). */
int tf_sweep_resume_scan(const tf_sweep *s, int format, const size_t *todo, size_t ntodo, int fd, const char *file,
                         size_t *done, size_t *torn, char **last, tf_error *err);

#endif
