/* Validation against known answers: each line of a cases file is a problem
 * (model/formats/case.h) with "expect" and a kind -- formula and fits cases must
 * agree, tuned cases are reported beside the limit tilefit finds.  What
 * `tilefit validate` runs and the library's JSON entry point calls. */
#ifndef TF_SOLVER_VALIDATE_H
#define TF_SOLVER_VALIDATE_H

#include <stddef.h>
#include <stdio.h>

#include "model/core/error.h"
#include "solver/backend.h"
#include "solver/batch/cache.h"
#include "solver/measured.h"

/* measured: the measured cases reported (solver/measured.h), never a
 * failure; set collects them for the groups and totals (NULL: a measured case is bad
 * input). */
typedef struct tf_validate_tally {
  size_t passed, failed, skipped, measured;
  tf_measured_set *set;
} tf_validate_tally;

/* Runs every case of `file`, adding to *t, and writes one row per case to
 * `out`: a text row (with the full report of a case that differs), or with
 * `json` one object per line {"id", "kind", "result": "agree"|"differ"|
 * "tuned", "expected", "derived", "note", "answer": the solve object}.
 * Machines and worksets come from `cache`; cases solve with *o (a case's
 * own "solver" in place of o's).  Returns -1 on bad input (a
 * line that does not parse or bind), with rows already written for the
 * lines before it. */
int tf_validate_file(tf_cache *cache, const char *file, FILE *out, int json, const tf_solve_opts *o,
                     tf_validate_tally *t, tf_error *err);

/* The whole command, for every front end: every case of files[0..n-1]
 * (rows as tf_validate_file writes them, held until the end, so that bad
 * input anywhere writes none), then the measured cases' groups and
 * totals.  Each front end frames rows and tally its way. */
typedef struct tf_validate_run {
  char *rows;          /* the rows, one a line (JSON objects with `json`) */
  size_t nrows;        /* bytes */
  tf_measured_set set; /* the measured cases */
  tf_validate_tally t; /* its set is &set: do not copy the struct */
} tf_validate_run;
int tf_validate_files(char *const *files, size_t n, int json, const tf_solve_opts *o, tf_validate_run *v,
                      tf_error *err);
void tf_validate_run_release(tf_validate_run *v);

#endif
