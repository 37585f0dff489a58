#include "model/input/request.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/input/memory_kind.h"

/* ------------------------------------------------------------ the table */

#define TF_RQ_COUNT_STRING(m) 0, 0
#define TF_RQ_COUNT_FLAG(m) 0, 0
#define TF_RQ_COUNT_LIST_(m) offsetof(tf_request, n##m), offsetof(tf_request, cap##m)
#define TF_RQ_COUNT_ASSIGNS(m) TF_RQ_COUNT_LIST_(m)
#define TF_RQ_COUNT_DOMAINS(m) TF_RQ_COUNT_LIST_(m)
#define TF_RQ_COUNT_TEXTS(m) TF_RQ_COUNT_LIST_(m)
#define TF_RQ_COUNT_PLACES(m) TF_RQ_COUNT_LIST_(m)
#define TF_RQ_ROW(m, key, flag, spec, kind, memo, line) \
  {#m, key, flag, spec, TF_RQ_##kind, TF_RQ_##memo, line, offsetof(tf_request, m), TF_RQ_COUNT_##kind(m)},

const tf_request_field tf_request_fields[TF_NREQUEST_FIELDS] = {TF_REQUEST_FIELDS(TF_RQ_ROW)};

/* ------------------------------------------------------ what a kind does */

static void free_assign(void *v) { free(((tf_assign *)v)->name), free(((tf_assign *)v)->where); }
static void free_domain(void *v) {
  tf_domain_req *d = v;
  free(d->name), free(d->values), free(d->where);
}
static void free_text(void *v) { free(((tf_text_req *)v)->text), free(((tf_text_req *)v)->where); }
static void free_place(void *v) { free(((tf_place_req *)v)->buffer), free(((tf_place_req *)v)->where); }

static void copy_assign(void *dst, const void *src) {
  const tf_assign *a = src;
  *(tf_assign *)dst = (tf_assign){tf_strdup(a->name), a->value, tf_strdup(a->where)};
}
static void copy_domain(void *dst, const void *src) {
  const tf_domain_req *d = src;
  tf_domain_req c = {tf_strdup(d->name), tf_nalloc(d->nvalues + 1, sizeof *d->values), d->nvalues, tf_strdup(d->where)};
  memcpy(c.values, d->values, d->nvalues * sizeof *d->values);
  *(tf_domain_req *)dst = c;
}
static void copy_text(void *dst, const void *src) {
  const tf_text_req *t = src;
  *(tf_text_req *)dst = (tf_text_req){tf_strdup(t->text), tf_strdup(t->where)};
}
static void copy_place(void *dst, const void *src) {
  tf_place_req q = *(const tf_place_req *)src;
  q.buffer = tf_strdup(q.buffer);
  q.where = tf_strdup(q.where);
  *(tf_place_req *)dst = q;
}

static void write_assign(tf_json_out *w, const void *v) {
  tf_json_out_key_int(w, ((const tf_assign *)v)->name, ((const tf_assign *)v)->value);
}
static void write_domain(tf_json_out *w, const void *v) {
  const tf_domain_req *d = v;
  tf_json_out_key_array(w, d->name);
  for (size_t k = 0; k < d->nvalues; k++)
    tf_json_out_int(w, d->values[k]);
  tf_json_out_end(w);
}
static void write_text(tf_json_out *w, const void *v) { tf_json_out_string(w, ((const tf_text_req *)v)->text); }
static void write_place(tf_json_out *w, const void *v) {
  const tf_place_req *q = v;
  tf_json_out_key_array(w, q->buffer);
  for (int k = 0; k < q->nmems; k++)
    tf_json_out_string(w, tf_memory_name(q->mems[k]));
  tf_json_out_end(w);
}

static const char *assign_name(const void *v) { return ((const tf_assign *)v)->name; }
static const char *domain_name(const void *v) { return ((const tf_domain_req *)v)->name; }
static const char *place_name(const void *v) { return ((const tf_place_req *)v)->buffer; }

/* A list kind: its item's size, how one is freed, copied and written,
 * and for a list written as an object (keyed) each item's key; NULL: an
 * array. */
typedef struct list_kind {
  size_t size;
  void (*release)(void *item);
  void (*copy)(void *dst, const void *src);
  void (*write)(tf_json_out *w, const void *item);
  const char *(*key)(const void *item);
} list_kind;

static const list_kind lists[TF_RQ_NKINDS] = {
    [TF_RQ_ASSIGNS] = {sizeof(tf_assign), free_assign, copy_assign, write_assign, assign_name},
    [TF_RQ_DOMAINS] = {sizeof(tf_domain_req), free_domain, copy_domain, write_domain, domain_name},
    [TF_RQ_TEXTS] = {sizeof(tf_text_req), free_text, copy_text, write_text, NULL},
    [TF_RQ_PLACES] = {sizeof(tf_place_req), free_place, copy_place, write_place, place_name},
};

static const list_kind *list_of(size_t i) {
  const list_kind *k = &lists[tf_request_fields[i].kind];
  return k->size ? k : NULL; /* STRING and FLAG are not lists */
}

static void *member(const tf_request *r, size_t i) { return (char *)r + tf_request_fields[i].offset; }
static size_t *count(const tf_request *r, size_t i) {
  return (size_t *)((char *)r + tf_request_fields[i].count_offset);
}
static char *item(const tf_request *r, size_t i, size_t k) { return *(char **)member(r, i) + k * list_of(i)->size; }

void tf_request_add(tf_request *r, size_t i, const void *src) {
  size_t *n = count(r, i), *cap = (size_t *)((char *)r + tf_request_fields[i].cap_offset);
  char **items = member(r, i);
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 4;
    *items = tf_nrealloc(*items, *cap, list_of(i)->size);
  }
  /* counted once copied: a copy that runs out of memory (model/core/alloc.h)
   * leaves the request as it was, which its release can still free */
  list_of(i)->copy(item(r, i, *n), src);
  (*n)++;
}

/* ------------------------------------------------------------ requests */

void tf_request_init(tf_request *r) { memset(r, 0, sizeof *r); }

void tf_request_release(tf_request *r) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    const list_kind *k = list_of(i);
    if (tf_request_fields[i].kind == TF_RQ_STRING)
      free(*(char **)member(r, i));
    for (size_t j = 0; k && j < *count(r, i); j++)
      k->release(item(r, i, j));
    if (k)
      free(*(char **)member(r, i));
  }
  tf_request_init(r);
}

void tf_request_copy(tf_request *dst, const tf_request *src) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    int kind = tf_request_fields[i].kind;
    const char *s = kind == TF_RQ_STRING ? *(char **)member(src, i) : NULL;
    if (s)
      *(char **)member(dst, i) = tf_strdup(s);
    if (kind == TF_RQ_FLAG)
      *(int *)member(dst, i) = *(int *)member(src, i);
    for (size_t j = 0; list_of(i) && j < *count(src, i); j++)
      tf_request_add(dst, i, item(src, i, j));
  }
}

/* Drops item k of list field i, the items after it moved down. */
static void drop_item(tf_request *r, size_t i, size_t k) {
  const list_kind *l = list_of(i);
  size_t *n = count(r, i);
  l->release(item(r, i, k));
  memmove(item(r, i, k), item(r, i, k + 1), (*n - k - 1) * l->size);
  (*n)--;
}

/* One field of src onto dst (tf_request_overlay). */
static void overlay_field(tf_request *dst, const tf_request *src, size_t i) {
  const list_kind *l = list_of(i);
  if (tf_request_fields[i].kind == TF_RQ_STRING) {
    free(*(char **)member(dst, i));
    *(char **)member(dst, i) = tf_strdup(*(char **)member(src, i));
    return;
  }
  if (tf_request_fields[i].kind == TF_RQ_FLAG) {
    *(int *)member(dst, i) = *(int *)member(src, i);
    return;
  }
  while (i == TF_RQF_objectives && *count(dst, i)) /* a lexicographic list: replaced whole */
    drop_item(dst, i, *count(dst, i) - 1);
  for (size_t j = 0; j < *count(src, i); j++) {
    for (size_t k = 0; l->key && k < *count(dst, i); k++) /* keyed: the later one wins, last */
      if (!strcmp(l->key(item(dst, i, k)), l->key(item(src, i, j)))) {
        drop_item(dst, i, k);
        break;
      }
    tf_request_add(dst, i, item(src, i, j));
  }
}

void tf_request_overlay(tf_request *dst, const tf_request *src) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    if (!tf_request_field_empty(src, i))
      overlay_field(dst, src, i);
}

int tf_request_field_empty(const tf_request *r, size_t i) {
  int kind = tf_request_fields[i].kind;
  if (kind == TF_RQ_STRING)
    return !*(char **)member(r, i);
  if (kind == TF_RQ_FLAG)
    return !*(int *)member(r, i);
  return !*count(r, i);
}

void tf_request_write_field(tf_json_out *w, const tf_request *r, size_t i) {
  int kind = tf_request_fields[i].kind;
  const list_kind *k = list_of(i);
  if (kind == TF_RQ_STRING) {
    tf_json_out_string(w, *(char **)member(r, i)); /* NULL: null */
    return;
  }
  if (kind == TF_RQ_FLAG) {
    tf_json_out_bool(w, *(int *)member(r, i));
    return;
  }
  if (k->key)
    tf_json_out_object(w);
  else
    tf_json_out_array(w);
  for (size_t j = 0; j < *count(r, i); j++)
    k->write(w, item(r, i, j));
  tf_json_out_end(w);
}

int tf_request_write_members(tf_json_out *w, const tf_request *r) {
  int n = 0;
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    if (!tf_request_fields[i].line || tf_request_field_empty(r, i))
      continue;
    n++;
    tf_json_out_key(w, tf_request_fields[i].key);
    tf_request_write_field(w, r, i);
  }
  return n;
}

/* ------------------------------------------------------- adding items */

void tf_request_add_param(tf_request *r, const char *name, int64_t value, const char *where) {
  tf_assign a = {(char *)name, value, (char *)where};
  tf_request_add(r, TF_RQF_params, &a);
}

void tf_request_add_fix(tf_request *r, const char *name, int64_t value, const char *where) {
  tf_assign a = {(char *)name, value, (char *)where};
  tf_request_add(r, TF_RQF_fixes, &a);
}

void tf_request_add_domain(tf_request *r, const char *name, const int64_t *values, size_t n, const char *where) {
  tf_domain_req d = {(char *)name, (int64_t *)values, n, (char *)where};
  tf_request_add(r, TF_RQF_domains, &d);
}

void tf_request_add_require(tf_request *r, const char *text, const char *where) {
  tf_text_req t = {(char *)text, (char *)where};
  tf_request_add(r, TF_RQF_requires, &t);
}

void tf_request_add_objective(tf_request *r, const char *text, const char *where) {
  tf_text_req t = {(char *)text, (char *)where};
  tf_request_add(r, TF_RQF_objectives, &t);
}

void tf_request_add_place(tf_request *r, const char *buffer, const int *mems, int n, const char *where) {
  tf_place_req q = {(char *)buffer, {0}, n < TF_PLACE_MAX_MEMS ? n : TF_PLACE_MAX_MEMS, (char *)where};
  memcpy(q.mems, mems, (size_t)q.nmems * sizeof *mems);
  tf_request_add(r, TF_RQF_places, &q);
}
