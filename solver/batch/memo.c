#include "memo.h"

#include <stdlib.h>
#include <string.h>

#include "model/alloc.h"

static uint64_t fnv1a(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}

void tf_memo_init(tf_memo *m) {
  memset(m, 0, sizeof *m);
  pthread_mutex_init(&m->lock, NULL);
  pthread_cond_init(&m->cv, NULL);
}

void tf_memo_release(tf_memo *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slot[i]) {
      free(m->slot[i]->key);
      free(m->slot[i]->text);
      free(m->slot[i]);
    }
  free(m->slot);
  pthread_mutex_destroy(&m->lock);
  pthread_cond_destroy(&m->cv);
}

static void grow(tf_memo *m) {
  size_t cap = m->cap ? 2 * m->cap : 1024;
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

/* The entry for a key.  *own = 1: it is new and the caller must finish it
 * (tf_memo_finish); otherwise it is done (reuse it) or failed (solve without
 * it).  Waits while another thread is computing it. */
tf_memo_entry *tf_memo_get(tf_memo *m, const char *key, size_t klen, int *own) {
  uint64_t h = fnv1a(key, klen);
  pthread_mutex_lock(&m->lock);
  m->lookups++;
  if (2 * (m->n + 1) > m->cap)
    grow(m);
  size_t j = h & (m->cap - 1);
  tf_memo_entry *e;
  while ((e = m->slot[j]) && !(e->hash == h && e->klen == klen && !memcmp(e->key, key, klen)))
    j = (j + 1) & (m->cap - 1);
  if (!e) {
    e = tf_nalloc(1, sizeof *e);
    e->hash = h;
    e->key = tf_strndup(key, klen);
    e->klen = klen;
    e->state = TF_MEMO_PENDING;
    m->slot[j] = e;
    m->n++;
    *own = 1;
  } else {
    while (e->state == TF_MEMO_PENDING)
      pthread_cond_wait(&m->cv, &m->lock);
    m->hits += e->state == TF_MEMO_DONE;
    *own = 0;
  }
  pthread_mutex_unlock(&m->lock);
  return e;
}

void tf_memo_finish(tf_memo *m, tf_memo_entry *e, int ok) {
  pthread_mutex_lock(&m->lock);
  e->state = ok ? TF_MEMO_DONE : TF_MEMO_FAILED;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->lock);
}

