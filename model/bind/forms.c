#include "model/bind/forms.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

void tf_forms_init(tf_forms *f, size_t stride) {
  memset(f, 0, sizeof *f);
  f->stride = stride;
  f->share_from = TF_FORMS_SHARE_FROM;
}

void tf_forms_release(tf_forms *f) {
  free(f->v);
  free(f->table);
  memset(f, 0, sizeof *f);
}

/* A form's hash: each coefficient mixed in by a multiply (the 64-bit
 * golden ratio), then splitmix64's finalizer, since the table index is the
 * low bits and sizes are often multiples of a large power of two (whose
 * low bits a multiply alone leaves zero). */
static uint64_t hash(const int64_t *form, size_t stride) {
  uint64_t h = 0x243f6a8885a308d3u;
  for (size_t i = 0; i < stride; i++)
    h = (h ^ (uint64_t)form[i]) * 0x9e3779b97f4a7c15u;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return h ^ (h >> 31);
}

static int same(const int64_t *a, const int64_t *b, size_t stride) {
  for (size_t i = 0; i < stride; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* The table slot that holds `form`, or the empty slot where it belongs. */
static size_t slot(const tf_forms *f, const int64_t *form) {
  size_t mask = f->tcap - 1, s = (size_t)hash(form, f->stride) & mask;
  while (f->table[s] && !same(tf_forms_at(f, f->table[s] - 1), form, f->stride))
    s = (s + 1) & mask;
  return s;
}

/* Doubles the table (or makes it, big enough for the forms there are)
 * and places every form again, the first of equal ones. */
static void grow_table(tf_forms *f) {
  size_t tcap = f->tcap ? 2 * f->tcap : 64;
  while (tcap < 2 * (f->n + 1))
    tcap *= 2;
  free(f->table);
  f->table = tf_nalloc(tcap, sizeof *f->table);
  f->tcap = tcap;
  for (size_t i = 0; i < f->n; i++) {
    size_t s = slot(f, tf_forms_at(f, (uint32_t)i));
    if (!f->table[s])
      f->table[s] = (uint32_t)(i + 1);
  }
}

static uint32_t append(tf_forms *f, const int64_t *form) {
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 32;
    f->v = tf_nrealloc(f->v, f->cap, f->stride * sizeof *f->v);
  }
  memcpy(f->v + f->n * f->stride, form, f->stride * sizeof *form);
  return (uint32_t)f->n++;
}

/* The pool never nears UINT32_MAX forms: binding refuses a problem whose
 * forms, each stored apart, would pass TF_MAX_STORED (2^27) coefficients
 * (model/bind/problem.h), and a dropped candidate's forms are rolled back. */
uint32_t tf_forms_add(tf_forms *f, const int64_t *form) {
  if (!f->tcap && f->n < f->share_from)
    return append(f, form);
  if (2 * (f->n + 1) > f->tcap)
    grow_table(f);
  size_t s = slot(f, form);
  if (f->table[s])
    return f->table[s] - 1;
  uint32_t i = append(f, form);
  f->table[s] = i + 1;
  return i;
}

/* The forms past `mark` go newest first, and leave the table when they
 * are in it (a form equal to an earlier one is not).  The table is what
 * placing the forms in index order gives, so under linear probing no
 * form's probe crossed the newest one's slot (it was empty then), and
 * emptying it strands no other form. */
void tf_forms_rollback(tf_forms *f, size_t mark) {
  while (f->n > mark) {
    f->n--;
    if (f->tcap) {
      size_t s = slot(f, tf_forms_at(f, (uint32_t)f->n));
      if (f->table[s] == f->n + 1)
        f->table[s] = 0;
    }
  }
}
