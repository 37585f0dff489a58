#include "ilp.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/text.h"

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

/* ------------------------------------------------------- unique names */

/* An open-addressing set of the names kept so far (pointers into the
 * columns or rows, which outlive it). */
struct name_set {
  const char **slot;
  size_t mask;
};

static size_t name_hash(const char *s) {
  uint64_t h = 0xCBF29CE484222325ULL; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001B3ULL;
  return (size_t)h;
}

/* Adds `name` unless the set has it; returns 1 when added. */
static int name_add(struct name_set *set, const char *name) {
  size_t i = name_hash(name) & set->mask;
  for (; set->slot[i]; i = (i + 1) & set->mask)
    if (!strcmp(set->slot[i], name))
      return 0;
  set->slot[i] = name;
  return 1;
}

/* The start of `name` cut to at most `keep` bytes, never inside a UTF-8
 * character, then "~index" and, for try > 0, "~try". */
static char *renamed(const char *name, size_t index, unsigned try) {
  char suffix[48], *out = tf_nalloc(TF_ILP_NAME_MAX + 1, 1);
  int ns =
      try ? snprintf(suffix, sizeof suffix, "~%zu~%u", index, try) : snprintf(suffix, sizeof suffix, "~%zu", index);
  size_t keep = TF_ILP_NAME_MAX - (size_t)ns, n = 0, len = strlen(name);
  while (n < keep && n < len) {
    size_t c = tf_utf8_char(name + n, len - n);
    if (c == 0)
      c = 1; /* a stray byte is one byte */
    if (n + c > keep)
      break;
    n += c;
  }
  memcpy(out, name, n);
  memcpy(out + n, suffix, (size_t)ns + 1);
  return out;
}

/* Fits each of the n names in place. */
static void fit(char ***names, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  struct name_set set = {tf_nalloc(cap, sizeof *set.slot), cap - 1};
  for (size_t i = 0; i < n; i++) {
    char **name = names[i];
    if (strlen(*name) <= TF_ILP_NAME_MAX && name_add(&set, *name))
      continue;
    char *fresh = renamed(*name, i + 1, 0);
    for (unsigned try = 1; !name_add(&set, fresh); try++) {
      free(fresh);
      fresh = renamed(*name, i + 1, try);
    }
    free(*name);
    *name = fresh;
  }
  free(set.slot);
}

void tf_ilp_fit_names(tf_ilp *ilp) {
  char ***names = tf_nalloc(ilp->ncols > ilp->nrows ? ilp->ncols + 1 : ilp->nrows + 1, sizeof *names);
  for (size_t j = 0; j < ilp->ncols; j++)
    names[j] = &ilp->cols[j].name;
  fit(names, ilp->ncols);
  for (size_t i = 0; i < ilp->nrows; i++)
    names[i] = &ilp->rows[i].name;
  fit(names, ilp->nrows);
  free(names);
}
