#include "memo.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"

static uint64_t fnv1a(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}

void tf_memo_init(tf_memo *m, size_t max) {
  memset(m, 0, sizeof *m);
  m->max = max ? max : 1;
  pthread_mutex_init(&m->lock, NULL);
  pthread_cond_init(&m->cv, NULL);
}

static void entry_free(tf_memo_entry *e) {
  free(e->key);
  free(e->text);
  free(e);
}

void tf_memo_release(tf_memo *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slot[i])
      entry_free(m->slot[i]);
  free(m->slot);
  pthread_mutex_destroy(&m->lock);
  pthread_cond_destroy(&m->cv);
}

/* A table of `cap` slots (a power of two) holding the entries kept. */
static void rehash(tf_memo *m, size_t cap) {
  tf_memo_entry **slot = tf_nalloc(cap, sizeof *slot);
  for (size_t i = 0; i < m->cap; i++)
    if (m->slot[i]) {
      size_t j = m->slot[i]->hash & (cap - 1);
      while (slot[j])
        j = (j + 1) & (cap - 1);
      slot[j] = m->slot[i];
    }
  free(m->slot);
  m->slot = slot;
  m->cap = cap;
}

/* The end of a generation: every finished entry leaves the table (freed
 * now, or by its last holder); entries being computed stay. */
static void flush(tf_memo *m) {
  m->flushes++;
  for (size_t i = 0; i < m->cap; i++) {
    tf_memo_entry *e = m->slot[i];
    if (!e || e->state == TF_MEMO_PENDING)
      continue;
    m->slot[i] = NULL;
    m->n--;
    if (e->refs)
      e->dropped = 1;
    else
      entry_free(e);
  }
  rehash(m, m->cap);
}

static void make_room(tf_memo *m) {
  if (m->n + 1 > m->max)
    flush(m);
  if (2 * (m->n + 1) > m->cap)
    rehash(m, m->cap ? 2 * m->cap : 1024);
}

struct get_args {
  tf_memo *m;
  const char *key;
  size_t klen;
  int *own;
};

/* Called with the lock held. */
static void *get_locked(void *arg) {
  struct get_args *g = arg;
  tf_memo *m = g->m;
  uint64_t h = fnv1a(g->key, g->klen);
  m->lookups++;
  make_room(m);
  size_t j = h & (m->cap - 1);
  tf_memo_entry *e;
  while ((e = m->slot[j]) && !(e->hash == h && e->klen == g->klen && !memcmp(e->key, g->key, g->klen)))
    j = (j + 1) & (m->cap - 1);
  if (!e) {
    e = tf_nalloc(1, sizeof *e);
    e->key = tf_strndup(g->key, g->klen); /* before the entry is in a slot: a failure leaves none half made */
    e->hash = h;
    e->klen = g->klen;
    e->state = TF_MEMO_PENDING;
    m->slot[j] = e;
    m->n++;
    *g->own = 1;
    e->refs++;
  } else {
    e->refs++; /* held while waiting: a flush may drop it once finished */
    while (e->state == TF_MEMO_PENDING)
      pthread_cond_wait(&m->cv, &m->lock);
    m->hits += e->state == TF_MEMO_DONE;
    *g->own = 0;
  }
  return e;
}

static void unlock(void *arg) { pthread_mutex_unlock(&((struct get_args *)arg)->m->lock); }

/* The entry for a key.  *own = 1: it is new and the caller must finish it
 * (tf_memo_finish); otherwise it is done (reuse it) or failed (solve without
 * it).  Waits while another thread is computing it.  Out of memory, the
 * lock is released before the failure goes on. */
tf_memo_entry *tf_memo_get(tf_memo *m, const char *key, size_t klen, int *own) {
  struct get_args g = {m, key, klen, own};
  pthread_mutex_lock(&m->lock);
  tf_memo_entry *e = tf_alloc_guarded(get_locked, unlock, &g);
  pthread_mutex_unlock(&m->lock);
  return e;
}

void tf_memo_put(tf_memo *m, tf_memo_entry *e) {
  pthread_mutex_lock(&m->lock);
  int gone = --e->refs == 0 && e->dropped;
  pthread_mutex_unlock(&m->lock);
  if (gone)
    entry_free(e);
}

void tf_memo_finish(tf_memo *m, tf_memo_entry *e, int ok) {
  pthread_mutex_lock(&m->lock);
  e->state = ok ? TF_MEMO_DONE : TF_MEMO_FAILED;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->lock);
}
