/* Lets the loader writes from a table (model/input/shape.c, latency.c,
 * roofline.c): each row a name and a text whose "{0}" .. "{9}" stand for
 * the declaration's own expressions, added when its condition holds.  The
 * same table answers which names a section would define, so that an
 * unknown name a workset without that section reads can say where it
 * comes from (model/input/workset.c). */
#ifndef TF_MODEL_LET_TABLE_H
#define TF_MODEL_LET_TABLE_H

#include <stddef.h>

#include "model/core/error.h"
#include "model/input/workset.h"

typedef struct tf_let_row {
  const char *name;
  const char *text; /* "{K}": vals[K] of tf_let_rows_add */
  unsigned when;    /* added when every bit is in `have` (0: always) */
} tf_let_row;

/* Appends, in order, the rows whose `when` bits are all in `have`, their
 * texts expanded with vals[0..nvals), as lets at `path`. */
int tf_let_rows_add(tf_workset *w, const tf_let_row *rows, size_t n, unsigned have, const char *const *vals,
                    size_t nvals, const char *path, tf_error *err);

/* 1 when a row of the table is called `name`. */
int tf_let_rows_define(const tf_let_row *rows, size_t n, const char *name);

#endif
