#include "model/bind/layout.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/core/alloc.h"
#include "model/input/machine.h"

/* The buffers of memory m with lifetime `phase` (-1: always live), in
 * layout order, from the cursor: each takes its charge there (an aliased
 * buffer its excess). */
static int lay_phase(const tf_problem *p, const tf_point *pt, int m, int phase, tf_layout *l, size_t *at,
                     int64_t *cursor, tf_error *err) {
  const tf_workset *w = p->workset;
  for (size_t i = 0; i < p->nbuffers; i++) {
    size_t b = w->layout_order ? w->layout_order[i] : i;
    if (tf_memory_of_at(p, b, pt->choose) != m || w->buffers[b].lifetime != phase)
      continue;
    tf_layout_slot *s = &l->slots[l->nslots++];
    s->buffer = b;
    s->memory = m;
    s->lifetime = phase;
    s->host = tf_memory_alias_host(p, b, pt->choose);
    s->size = pt->raw[b];
    s->allocated = pt->alloc[b];
    s->align = tf_memory_align(p, b);
    s->offset = *cursor;
    s->extra_offset = s->host >= 0 ? *cursor : -1;
    at[b] = l->nslots - 1;
    if (tf_checked_add(*cursor, s->allocated, cursor))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow laying out %s", tf_memory_name(m));
  }
  return 0;
}

/* One memory: the always-live buffers from offset 0, then each phase from
 * where they end (a union: the memory ends at the largest phase's end);
 * an aliased buffer's own offset is its host's (the host has its
 * lifetime), filled in after every host is placed. */
static int lay_memory(const tf_problem *p, const tf_point *pt, int m, tf_layout *l, size_t *at, tf_error *err) {
  size_t first = l->nslots;
  int64_t cursor = 0;
  if (lay_phase(p, pt, m, -1, l, at, &cursor, err))
    return -1;
  int64_t base = cursor, end = cursor;
  l->phase_base[m] = base;
  for (int q = 0; q < (int)p->workset->nlifetimes; q++) {
    size_t before = l->nslots;
    cursor = base;
    if (lay_phase(p, pt, m, q, l, at, &cursor, err))
      return -1;
    l->phased[m] |= l->nslots > before;
    l->phase_size[m][q] = cursor - base;
    end = cursor > end ? cursor : end;
  }
  for (size_t i = first; i < l->nslots; i++) {
    tf_layout_slot *s = &l->slots[i];
    if (s->host >= 0)
      s->offset = l->slots[at[s->host]].offset;
    s->aligned = s->offset % s->align == 0;
  }
  l->end[m] = end;
  return 0;
}

int tf_layout_of(const tf_problem *p, const tf_point *pt, tf_layout *out, tf_error *err) {
  memset(out, 0, sizeof *out);
  out->slots = tf_nalloc(p->nbuffers + 1, sizeof *out->slots);
  size_t *at = tf_nalloc(p->nbuffers + 1, sizeof *at);
  int rc = 0;
  for (int m = 0; m < TF_NMEM && !rc; m++) {
    tf_memory_row row = tf_memory_report(p, m, pt->choose, pt->used);
    out->capacity[m] = row.capacity;
    out->shown[m] = row.shown;
    rc = lay_memory(p, pt, m, out, at, err);
    if (!rc && out->end[m] != pt->used[m])
      rc = tf_error_set(err, TF_EINTERNAL, NULL, "the %s layout ends at %lld, but the capacity rows charge %lld",
                        tf_memory_name(m), (long long)out->end[m], (long long)pt->used[m]);
  }
  free(at);
  if (rc)
    tf_layout_release(out);
  return rc;
}

void tf_layout_release(tf_layout *l) {
  free(l->slots);
  memset(l, 0, sizeof *l);
}
