/* A problem's stored affine forms, each distinct form once.
 *
 * Binding stores, for every kept combination, the affine form (constant,
 * then one coefficient per count) of each buffer's size, each require's row
 * and each objective.  Most of them repeat: a buffer's size depends on one
 * or two choose variables, and an objective takes a few hundred values
 * over a million combinations.  A form pool keeps each distinct form once
 * and the combination an index into it, so a million combinations store a
 * million indices and the few forms they share (docs/design.md, "Stored
 * forms").  The forms themselves, and their order of use, are the same as
 * if each were stored in place.
 *
 * A small problem (a sweep binds thousands) stores its forms as they come,
 * but for the previous combination's repeats: hashing would cost it more
 * than the memory saves.  Past TF_FORMS_SHARE_FROM forms the pool builds
 * its table, and from then on each distinct form is stored once.
 *
 * The combination being bound may still be dropped: tf_forms_mark before
 * it and tf_forms_rollback after leave the pool as it was, so a dropped
 * candidate's forms take no room. */
#ifndef TF_MODEL_FORMS_H
#define TF_MODEL_FORMS_H

#include <stddef.h>
#include <stdint.h>

#define TF_FORMS_SHARE_FROM 4096 /* forms (128 KiB at three counts) before they are shared */

typedef struct tf_forms {
  int64_t *v;        /* n forms of `stride` coefficients */
  size_t n, cap;     /* forms stored; room for them */
  size_t stride;     /* 1 + the problem's counts */
  uint32_t *table;   /* open addressing, linear probing: the first of equal forms' index + 1, 0 empty */
  size_t tcap;       /* a power of two, at least twice n; 0 until forms are shared */
  size_t share_from; /* TF_FORMS_SHARE_FROM; a test may set it before the first add */
} tf_forms;

void tf_forms_init(tf_forms *f, size_t stride);
void tf_forms_release(tf_forms *f);

/* The index of a form equal to `form` (stride coefficients), stored first
 * when there is none (or, before the forms are shared, when it is not the
 * one tried by tf_forms_add_near).
 * Allocation failure is what model/core/alloc.h says it is. */
uint32_t tf_forms_add(tf_forms *f, const int64_t *form);
static inline const int64_t *tf_forms_at(const tf_forms *f, uint32_t i) { return f->v + (size_t)i * f->stride; }

/* tf_forms_add, trying the form at index `near` first (the previous
 * combination's, in the same place: the same whenever the choose variables
 * that changed do not reach it), without hashing; UINT32_MAX: none.
 * Inline, with the store of a small problem's form: most binding calls
 * end here (a sweep's points are small problems). */
static inline uint32_t tf_forms_add_near(tf_forms *f, const int64_t *form, uint32_t near) {
  if (near < f->n) {
    const int64_t *a = tf_forms_at(f, near);
    size_t i = 0;
    while (i < f->stride && a[i] == form[i])
      i++;
    if (i == f->stride)
      return near;
  }
  if (f->tcap || f->n >= f->share_from || f->n == f->cap)
    return tf_forms_add(f, form);
  for (size_t i = 0; i < f->stride; i++)
    f->v[f->n * f->stride + i] = form[i];
  return (uint32_t)f->n++;
}

/* The pool's size now; after tf_forms_rollback(f, mark) the forms added
 * since are gone again. */
static inline size_t tf_forms_mark(const tf_forms *f) { return f->n; }
void tf_forms_rollback(tf_forms *f, size_t mark);

#endif
