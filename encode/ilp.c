#include "ilp.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

void tf_ilp_init(tf_ilp *ilp) { memset(ilp, 0, sizeof *ilp); }

static void lin_release(tf_lin *lin) {
  free(lin->ind);
  free(lin->val);
}

void tf_ilp_release(tf_ilp *ilp) {
  for (size_t i = 0; i < ilp->ncols; i++)
    free(ilp->cols[i].name);
  for (size_t i = 0; i < ilp->nrows; i++) {
    free(ilp->rows[i].name);
    lin_release(&ilp->rows[i].lin);
  }
  for (size_t i = 0; i < ilp->nobjs; i++) {
    free(ilp->objs[i].name);
    lin_release(&ilp->objs[i].lin);
  }
  free(ilp->cols);
  free(ilp->rows);
  free(ilp->objs);
  tf_ilp_init(ilp);
}

size_t tf_ilp_add_col(tf_ilp *ilp, const char *name, int kind, double lo, double hi) {
  tf_ilp_col c = {tf_strdup(name), kind, lo, hi};
  TF_PUSH(ilp->cols, ilp->ncols, ilp->capcols, c);
  return ilp->ncols - 1;
}

size_t tf_ilp_add_row(tf_ilp *ilp, const char *name, int sense, double rhs) {
  tf_ilp_row r = {tf_strdup(name), sense, rhs, {0}};
  TF_PUSH(ilp->rows, ilp->nrows, ilp->caprows, r);
  return ilp->nrows - 1;
}

size_t tf_ilp_add_obj(tf_ilp *ilp, const char *name, int maximize) {
  tf_ilp_obj o = {tf_strdup(name), maximize, {0}};
  TF_PUSH(ilp->objs, ilp->nobjs, ilp->capobjs, o);
  return ilp->nobjs - 1;
}

void tf_lin_add(tf_lin *lin, size_t col, double val) {
  if (val == 0)
    return;
  if (lin->n == lin->cap) {
    lin->cap = lin->cap ? 2 * lin->cap : 8;
    TF_NREALLOC(lin->ind, lin->cap);
    TF_NREALLOC(lin->val, lin->cap);
  }
  lin->ind[lin->n] = col;
  lin->val[lin->n++] = val;
}

struct term {
  size_t ind;
  double val;
};

static int by_column(const void *a, const void *b) {
  const struct term *x = a, *y = b;
  return x->ind < y->ind ? -1 : x->ind > y->ind;
}

void tf_lin_compact(tf_lin *lin) {
  if (lin->n < 2)
    return;
  struct term *t = tf_nalloc(lin->n, sizeof *t);
  for (size_t i = 0; i < lin->n; i++)
    t[i] = (struct term){lin->ind[i], lin->val[i]};
  qsort(t, lin->n, sizeof *t, by_column);
  size_t n = 0;
  for (size_t i = 0; i < lin->n; i++) {
    if (n && lin->ind[n - 1] == t[i].ind) {
      lin->val[n - 1] += t[i].val;
      continue;
    }
    if (n && lin->val[n - 1] == 0)
      n--;
    lin->ind[n] = t[i].ind;
    lin->val[n++] = t[i].val;
  }
  if (n && lin->val[n - 1] == 0)
    n--;
  lin->n = n;
  free(t);
}

void tf_ilp_compact(tf_ilp *ilp) {
  for (size_t i = 0; i < ilp->nrows; i++)
    tf_lin_compact(&ilp->rows[i].lin);
  for (size_t i = 0; i < ilp->nobjs; i++)
    tf_lin_compact(&ilp->objs[i].lin);
}
