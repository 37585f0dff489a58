/* Machines and worksets loaded once per run, by the name a request gives,
 * shared read-only by every problem (and every sweep worker) that names
 * them.  Lookups are thread-safe. */
#ifndef TF_SOLVER_BATCH_CACHE_H
#define TF_SOLVER_BATCH_CACHE_H

#include <pthread.h>

#include "model/bind/problem.h"
#include "model/input/machine.h"
#include "model/input/workset.h"

typedef struct tf_cache_entry {
  int kind;     /* enum tf_catalog_kind */
  char *name;   /* as the request spelt it */
  void *object; /* tf_machine * or tf_workset * */
} tf_cache_entry;

typedef struct tf_cache {
  tf_cache_entry *entries;
  size_t n, cap;
  size_t hits, misses;
  pthread_mutex_t lock;
} tf_cache;

void tf_cache_init(tf_cache *c);
void tf_cache_release(tf_cache *c);

/* One machine or workset by name; borrowed from the cache. */
const tf_machine *tf_cache_machine(tf_cache *c, const char *name, const char *where, tf_error *err);
const tf_workset *tf_cache_workset(tf_cache *c, const char *name, const char *where, tf_error *err);

/* The request's machine and workset; borrowed from the cache. */
int tf_cache_get(tf_cache *c, const tf_request *req, const char *mwhere, const char *wwhere, const tf_machine **m,
                 const tf_workset **w, tf_error *err);

/* The same for a case at `line` of `file` (validate's case files): an
 * error names "line N: $.machine" or "$.workset" and the file. */
int tf_cache_get_case(tf_cache *c, const tf_request *req, const char *file, size_t line, const tf_machine **m,
                      const tf_workset **w, tf_error *err);

#endif
