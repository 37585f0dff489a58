/* A thread-safe memo from byte keys to computed results, for sweeps: the
 * first thread to ask for a key computes it while later ones wait, then
 * every one reuses it.  Open addressing on a FNV-1a hash.
 *
 * Bounded: it holds at most `max` entries (sweep --memo-max).  When a new
 * key would pass that, every finished entry is dropped at once (a
 * generation ends; what is still being computed stays), so memory is flat
 * in a sweep's length while repeats close together are still reused.  An
 * entry handed out by tf_memo_get stays valid until tf_memo_put. */
#ifndef TF_SOLVER_BATCH_MEMO_H
#define TF_SOLVER_BATCH_MEMO_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/search/search.h"

enum { TF_MEMO_PENDING, TF_MEMO_DONE, TF_MEMO_FAILED };

typedef struct tf_memo_entry {
  uint64_t hash;
  char *key;
  size_t klen;
  int state;
  char *text; /* answers: the line's body */
  size_t tlen;
  int status;
  tf_found found; /* searches: the optimum, when nfound is 1 */
  size_t nfound;
  size_t refs; /* holders between tf_memo_get and tf_memo_put */
  int dropped; /* out of the table, freed by the last tf_memo_put */
} tf_memo_entry;

#define TF_MEMO_MAX_DEFAULT 8192 /* entries; an answer line and its key are about 2.7 KiB: 22 MiB */

typedef struct tf_memo {
  tf_memo_entry **slot;
  size_t cap, n;
  size_t max; /* entries kept at most, >= 1 */
  size_t lookups, hits, flushes;
  pthread_mutex_t lock;
  pthread_cond_t cv;
} tf_memo;

void tf_memo_init(tf_memo *m, size_t max);
void tf_memo_release(tf_memo *m);

/* The entry for a key.  *own = 1: it is new and the caller must finish it
 * (tf_memo_finish); otherwise it is done (reuse it) or failed (compute
 * without it).  Waits while another thread is computing it. */
tf_memo_entry *tf_memo_get(tf_memo *m, const char *key, size_t klen, int *own);
void tf_memo_finish(tf_memo *m, tf_memo_entry *e, int ok);
/* Done with an entry tf_memo_get returned (after tf_memo_finish, when own). */
void tf_memo_put(tf_memo *m, tf_memo_entry *e);

#endif
