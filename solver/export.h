/* --lp FILE / --mps FILE: the whole integer program of a problem
 * (encode/build.h: every kept combination), one file per lexicographic
 * level.  Level 1 is FILE itself; level N > 1 is FILE with ".levelN"
 * before its extension (m.lp, m.level2.lp, m.level3.lp; a name without an
 * extension gets ".levelN" at its end).  File N has objective N and the
 * optima of levels 1..N-1 pinned as rows level1..level(N-1), at the
 * certified exact optimum, so solving the files in order reproduces the
 * lexicographic optimum level by level.  An infeasible problem writes
 * level 1 only (no optimum to pin).  The files are written whichever
 * solver answered, by the backend's writer (solver/backend.h). */
#ifndef TF_SOLVER_EXPORT_H
#define TF_SOLVER_EXPORT_H

#include <stddef.h>

#include "encode/decode.h"
#include "model/bind/problem.h"

/* Level `level`'s file name (0-based: 0 is FILE itself); 0, or -1 when it
 * does not fit in size. */
int tf_export_level_name(const char *file, size_t level, char *buf, size_t size);

/* Writes the model's level files for lp_file and mps_file (either NULL);
 * a, the problem's certified answer, gives the pins.  On failure no file
 * of this call is left. */
int tf_export_model(const tf_problem *p, const tf_answer *a, const char *lp_file, const char *mps_file, tf_error *err);

#endif
