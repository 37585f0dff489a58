/* A set of names, each with an int value: a hash table with open
 * addressing, so that looking a name up costs the same for a workset of
 * ten names as for one of a hundred thousand.  Keys are borrowed: the
 * strings must outlive the table (the workset owns them). */
#ifndef TF_MODEL_NAMES_H
#define TF_MODEL_NAMES_H

#include <stddef.h>

typedef struct tf_names {
  const char **key; /* NULL: empty slot */
  int *value;
  size_t n, cap; /* cap: 0 or a power of two, at least 2n */
} tf_names;

/* Adds name -> value; returns -1 (and adds nothing) if the name is there. */
int tf_names_put(tf_names *t, const char *name, int value);

/* The value of a name, or -1 if it is not there. */
int tf_names_get(const tf_names *t, const char *name);

void tf_names_release(tf_names *t);

/* 1 when s is a plain name: letters, digits and _, not empty (what an
 * expression reads as one name, placed() and a count reference). */
int tf_name_is_plain(const char *s);

#endif
