#include "model/bind/memory.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/problem.h"
#include "model/bind/problem_internal.h"
#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/input/machine.h"

/* -------------------------------------------------- at a combination */

static const int64_t *combo_of(const tf_problem *p, size_t c) { return p->combo + c * p->nchoose; }

int tf_memory_of_at(const tf_problem *p, size_t b, const int64_t *choose) {
  int v = tf_place_of_buffer(p, b); /* a placed buffer: its variable's value */
  return v >= 0 ? (int)choose[v] : p->workset->buffers[b].memory;
}

const tf_expr *tf_memory_size_expr(const tf_problem *p, size_t b, const int64_t *choose) {
  const tf_buffer *buf = &p->workset->buffers[b];
  return buf->nplace ? buf->sizes[tf_memory_of_at(p, b, choose)] : buf->size;
}

int tf_memory_alias_host(const tf_problem *p, size_t b, const int64_t *choose) {
  int a = p->workset->buffers[b].alias;
  return a >= 0 && tf_memory_of_at(p, (size_t)a, choose) == tf_memory_of_at(p, b, choose) ? a : -1;
}

int tf_memory_fold_aliases(const tf_problem *p, const int64_t *choose, int64_t *sizes, size_t stride, tf_error *err) {
  const tf_workset *w = p->workset;
  int64_t *raw = NULL;
  for (size_t b = 0; b < w->nbuffers; b++) {
    int a = tf_memory_alias_host(p, b, choose);
    if (a < 0)
      continue;
    if (!raw) { /* the hosts' own sizes, before any of them is folded */
      raw = tf_nalloc(w->nbuffers, sizeof *raw);
      for (size_t i = 0; i < w->nbuffers; i++)
        raw[i] = sizes[i * stride];
    }
    for (size_t k = 1; k < stride; k++)
      if (sizes[b * stride + k] || sizes[(size_t)a * stride + k]) {
        free(raw);
        return tf_error_set(err, TF_EINPUT, w->buffers[b].path,
                            "'%s' aliases '%s', so neither size may depend on a count", w->buffers[b].name,
                            w->buffers[a].name);
      }
    sizes[b * stride] = raw[b] > raw[a] ? raw[b] - raw[a] : 0;
  }
  free(raw);
  return 0;
}

int tf_memory_of(const tf_problem *p, size_t b, size_t c) { return tf_memory_of_at(p, b, combo_of(p, c)); }

int64_t tf_memory_capacity_at(const tf_problem *p, int mem, const int64_t *choose) {
  if (tf_memory_capacity_varies(p, mem))
    return tf_memory_capacity_at_occupancy(p->machine, mem, choose[p->occupancy]);
  return p->capacity[mem];
}

int tf_memory_capacity_varies(const tf_problem *p, int mem) {
  return tf_memory_occupancy_lowers(mem) && p->occupancy >= 0;
}

int64_t tf_memory_capacity(const tf_problem *p, int mem, size_t c) {
  return tf_memory_capacity_at(p, mem, combo_of(p, c));
}

int64_t tf_memory_capacity_max(const tf_problem *p, int mem) { return p->capacity[mem]; }

void tf_memory_bind_capacities(tf_problem *p) {
  for (int mem = 0; mem < TF_NMEM; mem++)
    p->capacity[mem] = tf_memory_machine_capacity(p->machine, mem);
}

int tf_memory_in_use(const tf_problem *p, int mem) {
  for (size_t b = 0; b < p->nbuffers; b++) {
    int v = tf_place_of_buffer(p, b);
    if (v < 0 && p->workset->buffers[b].memory == mem)
      return 1;
    for (size_t k = 0; v >= 0 && k < p->ndomain[v]; k++)
      if (p->domain[v][k] == mem)
        return 1;
  }
  return 0;
}

tf_memory_row tf_memory_report(const tf_problem *p, int mem, const int64_t *choose, const int64_t used[TF_NMEM]) {
  tf_memory_row r;
  r.shown = tf_memory_in_use(p, mem);
  r.used = choose && used ? used[mem] : 0;
  r.capacity = choose ? tf_memory_capacity_at(p, mem, choose) : p->capacity[mem];
  r.slack = r.capacity - r.used; /* both >= 0: no overflow */
  return r;
}

int tf_memory_over(const tf_problem *p, const int64_t *choose, const int64_t used[TF_NMEM]) {
  for (int m = 0; m < TF_NMEM; m++)
    if (used[m] > tf_memory_capacity_at(p, m, choose))
      return m;
  return -1;
}

size_t tf_memory_buffers(const tf_problem *p, int mem, size_t c, size_t *out) {
  size_t n = 0;
  for (size_t b = 0; b < p->nbuffers; b++)
    if (tf_memory_of(p, b, c) == mem)
      out[n++] = b;
  return n;
}

/* ---------------------------------------------------------- lifetimes */

int tf_memory_nrows(const tf_problem *p) { return 1 + (int)p->workset->nlifetimes; }

int tf_memory_in_row(const tf_problem *p, size_t b, int r) {
  int l = p->workset->buffers[b].lifetime;
  return l < 0 || l + 1 == r;
}

size_t tf_memory_slot(const tf_problem *p, size_t b, int mem) {
  return TF_MEMORY_SLOT(mem, p->workset->buffers[b].lifetime + 1);
}

int tf_memory_row_needed(const tf_problem *p, int mem, int r) {
  int phased = 0;
  for (size_t c = 0; c < p->ncombos; c++)
    for (size_t b = 0; b < p->nbuffers; b++) {
      int l = p->workset->buffers[b].lifetime;
      if (l < 0 || tf_memory_of(p, b, c) != mem)
        continue;
      if (l + 1 == r)
        return 1;
      phased = 1;
    }
  return r == 0 && !phased;
}

const char *tf_memory_row_name(const tf_problem *p, int r) { return r > 0 ? p->workset->lifetimes[r - 1] : NULL; }

/* a + b for a, b >= 0: INT64_MAX past it when saturating, else -1 */
static int add_use(int64_t a, int64_t b, int saturate, int64_t *out) {
  if (!tf_checked_add(a, b, out))
    return 0;
  return saturate ? (*out = INT64_MAX, 0) : -1;
}

int tf_memory_total(const tf_problem *p, const int64_t slots[TF_MEMORY_SLOTS], int saturate, int64_t used[TF_NMEM]) {
  int nrows = tf_memory_nrows(p);
  for (int m = 0; m < TF_NMEM; m++) {
    int64_t most = 0;
    for (int r = 1; r < nrows; r++)
      if (slots[TF_MEMORY_SLOT(m, r)] > most)
        most = slots[TF_MEMORY_SLOT(m, r)];
    if (add_use(slots[TF_MEMORY_SLOT(m, 0)], most, saturate, &used[m]))
      return -1;
  }
  return 0;
}

/* -------------------------------------------------- charging a buffer */

int64_t tf_memory_align(const tf_problem *p, size_t b) { return p->align[b]; }

int tf_memory_charge(const tf_problem *p, size_t b, int64_t size, int64_t *charged) {
  int64_t a = p->align[b];
  if (a <= 1)
    return *charged = size, 0;
  return tf_checked_mul(tf_cdiv(size, a), a, charged) ? -1 : 0;
}

int tf_memory_use(const tf_problem *p, size_t c, const int64_t *counts, int64_t used[TF_NMEM]) {
  int64_t slots[TF_MEMORY_SLOTS] = {0};
  for (size_t b = 0; b < p->nbuffers; b++) {
    int64_t v;
    if (tf_problem_form_at(p, tf_problem_buf(p, c, b), counts, &v))
      return -1;
    if (v < 0)
      return 0;
    size_t s = tf_memory_slot(p, b, tf_memory_of(p, b, c));
    if (tf_memory_charge(p, b, v, &v) || tf_checked_add(slots[s], v, &slots[s]))
      return -1;
  }
  return tf_memory_total(p, slots, 0, used) ? -1 : 1;
}

/* The least (sign 1) or greatest (sign -1) value of an affine form over a
 * box; -1 on overflow. */
static int form_extreme(const tf_problem *p, const int64_t *a, const int64_t *lo, const int64_t *hi, int sign,
                        int64_t *out) {
  int64_t v = a[0], t;
  for (int i = 0; i < p->ncounts; i++) {
    int64_t x = (a[1 + i] > 0) == (sign > 0) ? lo[i] : hi[i];
    if (tf_checked_mul(a[1 + i], x, &t) || tf_checked_add(v, t, &v))
      return -1;
  }
  *out = v;
  return 0;
}

/* Adds charge(max(size, 0)) to *sum; -1 when either overflows. */
static int add_charge(const tf_problem *p, size_t b, int64_t size, int64_t *sum) {
  int64_t v = 0;
  if (size > 0 && tf_memory_charge(p, b, size, &v))
    return -1;
  return tf_checked_add(*sum, v, sum) ? -1 : 0;
}

int tf_memory_use_range_forms(const tf_problem *p, int mem, const int64_t *choose, const int64_t *sizes,
                              const int64_t *lo, const int64_t *hi, int64_t *min, int64_t *max) {
  size_t stride = tf_problem_stride(p);
  int64_t least[TF_MEMORY_SLOTS] = {0}, most[TF_MEMORY_SLOTS] = {0}, used[TF_NMEM];
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (tf_memory_of_at(p, b, choose) != mem)
      continue;
    const int64_t *a = sizes + b * stride;
    size_t s = tf_memory_slot(p, b, mem);
    int64_t v;
    if (form_extreme(p, a, lo, hi, 1, &v) || add_charge(p, b, v, &least[s]))
      return -1;
    if (max && most[s] < INT64_MAX && (form_extreme(p, a, lo, hi, -1, &v) || add_charge(p, b, v, &most[s])))
      most[s] = INT64_MAX;
  }
  if (tf_memory_total(p, least, 0, used))
    return -1;
  *min = used[mem];
  if (max) {
    tf_memory_total(p, most, 1, used);
    *max = used[mem];
  }
  return 0;
}

int tf_memory_use_range(const tf_problem *p, size_t c, int mem, const int64_t *lo, const int64_t *hi, int64_t *min,
                        int64_t *max) {
  size_t stride = tf_problem_stride(p); /* the stored forms are shared, so not side by side: gathered */
  int64_t *sizes = tf_nalloc(p->nbuffers + 1, stride * sizeof *sizes);
  for (size_t b = 0; b < p->nbuffers; b++)
    memcpy(sizes + b * stride, tf_problem_buf(p, c, b), stride * sizeof *sizes);
  int rc = tf_memory_use_range_forms(p, mem, combo_of(p, c), sizes, lo, hi, min, max);
  free(sizes);
  return rc;
}

int tf_memory_least_use(const tf_problem *p, size_t c, const int64_t *lo, const int64_t *hi, int64_t least[TF_NMEM]) {
  int64_t slots[TF_MEMORY_SLOTS] = {0};
  for (size_t b = 0; b < p->nbuffers; b++) {
    int64_t v;
    if (form_extreme(p, tf_problem_buf(p, c, b), lo, hi, 1, &v) ||
        add_charge(p, b, v, &slots[tf_memory_slot(p, b, tf_memory_of(p, b, c))]))
      return -1;
  }
  return tf_memory_total(p, slots, 0, least);
}

int tf_memory_line(const tf_problem *p, size_t c, int mem, int r, const int64_t *counts, int k, int64_t *resident,
                   int64_t *per_unit) {
  *resident = 0;
  *per_unit = 0;
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (tf_memory_of(p, b, c) != mem || !tf_memory_in_row(p, b, r))
      continue;
    const int64_t *a = tf_problem_buf(p, c, b);
    int64_t fixed = a[0], t;
    for (int i = 0; i < p->ncounts; i++)
      if (i != k && (tf_checked_mul(a[1 + i], counts[i], &t) || tf_checked_add(fixed, t, &fixed)))
        return -1;
    if (a[1 + k] == 0 && tf_memory_charge(p, b, fixed, &fixed))
      return -1;
    if (tf_checked_add(*resident, fixed, resident) || tf_checked_add(*per_unit, a[1 + k], per_unit))
      return -1;
  }
  return 0;
}

/* ------------------------------------------ used(MEM), a point's use */

/* The always-live sum (slot 0) and each phase's, as affine forms, of the
 * buffers in mem; present[r]: a buffer of row r's phase is there. */
static int slot_forms(const tf_problem *p, int mem, const int64_t *choose, const tf_affine *sizes, tf_affine *slot,
                      int *present, tf_error *err) {
  for (int r = 0; r < tf_memory_nrows(p); r++)
    slot[r] = tf_affine_constant(0), present[r] = 0;
  for (size_t b = 0; b < p->nbuffers; b++) {
    if (tf_memory_of_at(p, b, choose) != mem)
      continue;
    tf_affine s = sizes[b];
    size_t r = tf_memory_slot(p, b, mem) - TF_MEMORY_SLOT(mem, 0);
    if (p->align[b] > 1 && !tf_affine_is_const(&s, p->ncounts))
      return tf_error_set(err, TF_EINPUT, NULL,
                          "used(%s) is not affine: buffer '%s' depends on a count and is rounded to %lld",
                          tf_memory_name(mem), p->workset->buffers[b].name, (long long)p->align[b]);
    if (tf_memory_charge(p, b, s.c, &s.c) || tf_affine_add(&slot[r], &slot[r], &s, 1))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow summing used(%s)", tf_memory_name(mem));
    present[r] = 1;
  }
  return 0;
}

int tf_memory_used_form(const tf_problem *p, int mem, const int64_t *choose, const tf_affine *sizes, tf_affine *out,
                        tf_error *err) {
  tf_affine slot[TF_MEMORY_ROWS_MAX];
  int present[TF_MEMORY_ROWS_MAX], phases = 0, varies = 0;
  if (slot_forms(p, mem, choose, sizes, slot, present, err))
    return -1;
  for (int r = 1; r < tf_memory_nrows(p); r++)
    if (present[r]) {
      phases++;
      varies = !tf_affine_is_const(&slot[r], p->ncounts) ? r : varies;
    }
  *out = slot[0];
  if (phases > 1 && varies)
    return tf_error_set(err, TF_EINPUT, NULL,
                        "used(%s) is not affine: it is the largest of its lifetimes' sums, and the sum of '%s' "
                        "depends on a count",
                        tf_memory_name(mem), tf_memory_row_name(p, varies));
  tf_affine most = tf_affine_constant(0);
  for (int r = 1; r < tf_memory_nrows(p); r++)
    if (present[r] && (phases == 1 || slot[r].c > most.c))
      most = slot[r];
  if (tf_affine_add(out, out, &most, 1))
    return tf_error_set(err, TF_EINPUT, NULL, "integer overflow summing used(%s)", tf_memory_name(mem));
  return 0;
}

int tf_memory_add(const tf_problem *p, size_t b, const int64_t *choose, int64_t size, int64_t *alloc,
                  int64_t slots[TF_MEMORY_SLOTS], tf_error *err) {
  const tf_buffer *buf = &p->workset->buffers[b];
  if (size < 0)
    return tf_error_set(err, TF_EINPUT, buf->path, "buffer '%s' has negative size %lld", buf->name, (long long)size);
  if (tf_memory_charge(p, b, size, alloc))
    return tf_error_set(err, TF_EINPUT, buf->path, "integer overflow aligning buffer '%s'", buf->name);
  int m = tf_memory_of_at(p, b, choose);
  size_t s = tf_memory_slot(p, b, m);
  if (tf_checked_add(slots[s], *alloc, &slots[s]))
    return tf_error_set(err, TF_EINPUT, buf->path, "integer overflow summing %s", tf_memory_name(m));
  return 0;
}
