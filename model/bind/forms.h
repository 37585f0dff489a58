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
 * The combination being bound may still be dropped: tf_forms_mark before
 * it and tf_forms_rollback after leave the pool as it was, so a dropped
 * candidate's forms take no room. */
#ifndef TF_MODEL_FORMS_H
#define TF_MODEL_FORMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct tf_forms {
  int64_t *v;      /* n forms of `stride` coefficients */
  size_t n, cap;   /* forms stored; room for them */
  size_t stride;   /* 1 + the problem's counts */
  uint32_t *table; /* open addressing, linear probing: a form's index + 1, 0 empty */
  size_t tcap;     /* a power of two, at least twice n; 0 before the first form */
} tf_forms;

void tf_forms_init(tf_forms *f, size_t stride);
void tf_forms_release(tf_forms *f);

/* The index of `form` (stride coefficients), stored first when it is new.
 * Allocation failure is what model/core/alloc.h says it is. */
uint32_t tf_forms_add(tf_forms *f, const int64_t *form);
/* The same, trying the form at index `near` first (the previous
 * combination's, in the same place: the same whenever the choose
 * variables that changed do not reach it), without hashing; UINT32_MAX:
 * none. */
uint32_t tf_forms_add_near(tf_forms *f, const int64_t *form, uint32_t near);

static inline const int64_t *tf_forms_at(const tf_forms *f, uint32_t i) { return f->v + (size_t)i * f->stride; }

/* The pool's size now; after tf_forms_rollback(f, mark) the forms added
 * since are gone again. */
static inline size_t tf_forms_mark(const tf_forms *f) { return f->n; }
void tf_forms_rollback(tf_forms *f, size_t mark);

#endif
