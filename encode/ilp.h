/* A backend-neutral integer linear program: columns with bounds and kinds,
 * sparse rows, and a list of objectives solved lexicographically.  The
 * builder (build.c) writes one; solver/glpk.c reads it.  Coefficients are
 * integers stored as doubles, which are exact below 2^53; the builder
 * refuses larger ones. */
#ifndef TF_ENCODE_ILP_H
#define TF_ENCODE_ILP_H

#include <stddef.h>
#include <stdint.h>

enum tf_col_kind { TF_COL_BIN, TF_COL_INT };
enum tf_row_sense { TF_SENSE_LE, TF_SENSE_GE, TF_SENSE_EQ };

typedef struct tf_lin { /* a sparse linear form: sum val[i] * x[ind[i]] */
  size_t *ind;
  double *val;
  size_t n, cap;
} tf_lin;

typedef struct tf_ilp_col {
  char *name;
  int kind;
  double lo, hi;
} tf_ilp_col;

typedef struct tf_ilp_row {
  char *name;
  int sense;
  double rhs;
  tf_lin lin;
} tf_ilp_row;

typedef struct tf_ilp_obj {
  char *name; /* the objective's text */
  int maximize;
  tf_lin lin;
} tf_ilp_obj;

typedef struct tf_ilp {
  tf_ilp_col *cols;
  size_t ncols, capcols;
  tf_ilp_row *rows;
  size_t nrows, caprows;
  tf_ilp_obj *objs;
  size_t nobjs, capobjs;
} tf_ilp;

void tf_ilp_init(tf_ilp *ilp);
void tf_ilp_release(tf_ilp *ilp);

size_t tf_ilp_add_col(tf_ilp *ilp, const char *name, int kind, double lo, double hi);
/* Returns the row index; terms are added with tf_lin_add on its `lin`. */
size_t tf_ilp_add_row(tf_ilp *ilp, const char *name, int sense, double rhs);
size_t tf_ilp_add_obj(tf_ilp *ilp, const char *name, int maximize);
void tf_lin_add(tf_lin *lin, size_t col, double val);

/* The longest name GLPK takes, and so the LP and MPS files carry. */
#define TF_ILP_NAME_MAX 255

/* Makes every column name, and every row name, at most TF_ILP_NAME_MAX
 * bytes and unique among its kind: a name that is longer, or that an
 * earlier one already has, keeps its start and ends in "~N" (N its
 * 1-based index, then "~N~K" should even that be taken).  A name cut at
 * 255 bytes had made long choose names repeat, which glpsol refuses. */
void tf_ilp_fit_names(tf_ilp *ilp);

/* Sorts a form by column and merges repeated columns (GLPK refuses
 * duplicates); terms that cancel are dropped. */
void tf_lin_compact(tf_lin *lin);
/* Compacts every row and objective. */
void tf_ilp_compact(tf_ilp *ilp);

#endif
