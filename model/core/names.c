#include "model/core/names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

/* FNV-1a, 64 bit. */
static uint64_t hash(const char *s) {
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The slot of `name`, or of the empty slot where it would go. */
static size_t slot(const tf_names *t, const char *name) {
  size_t i = (size_t)hash(name) & (t->cap - 1);
  while (t->key[i] && strcmp(t->key[i], name))
    i = (i + 1) & (t->cap - 1); /* linear probing */
  return i;
}

static void grow(tf_names *t) {
  tf_names bigger = {0};
  bigger.cap = t->cap ? 2 * t->cap : 16;
  bigger.key = tf_nalloc(bigger.cap, sizeof *bigger.key);
  bigger.value = tf_nalloc(bigger.cap, sizeof *bigger.value);
  for (size_t i = 0; i < t->cap; i++)
    if (t->key[i]) {
      size_t j = slot(&bigger, t->key[i]);
      bigger.key[j] = t->key[i];
      bigger.value[j] = t->value[i];
    }
  bigger.n = t->n;
  tf_names_release(t);
  *t = bigger;
}

int tf_names_put(tf_names *t, const char *name, int value) {
  if (2 * (t->n + 1) > t->cap)
    grow(t);
  size_t i = slot(t, name);
  if (t->key[i])
    return -1;
  t->key[i] = name;
  t->value[i] = value;
  t->n++;
  return 0;
}

int tf_names_get(const tf_names *t, const char *name) {
  if (!t->cap)
    return -1;
  size_t i = slot(t, name);
  return t->key[i] ? t->value[i] : -1;
}

void tf_names_release(tf_names *t) {
  free(t->key);
  free(t->value);
  memset(t, 0, sizeof *t);
}

int tf_name_is_plain(const char *s) {
  for (const char *c = s; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
      return 0;
  return *s != 0;
}
