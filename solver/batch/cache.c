#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/input/catalog.h"
#include "solver/solve.h"

void tf_cache_init(tf_cache *c) {
  memset(c, 0, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
}

void tf_cache_release(tf_cache *c) {
  for (size_t i = 0; i < c->n; i++) {
    if (c->entries[i].kind == TF_CATALOG_MACHINES)
      tf_machine_free(c->entries[i].object);
    else
      tf_workset_free(c->entries[i].object);
    free(c->entries[i].name);
  }
  free(c->entries);
  pthread_mutex_destroy(&c->lock);
  memset(c, 0, sizeof *c);
}

/* Called with the lock held. */
static void *lookup(tf_cache *c, int kind, const char *name, const char *where, tf_error *err) {
  for (size_t i = 0; i < c->n; i++)
    if (c->entries[i].kind == kind && !strcmp(c->entries[i].name, name)) {
      c->hits++;
      return c->entries[i].object;
    }
  c->misses++;
  void *obj = tf_catalog_load(kind, name, where, err);
  if (!obj)
    return NULL;
  tf_cache_entry e = {kind, tf_strdup(name), obj};
  TF_PUSH(c->entries, c->n, c->cap, e);
  return obj;
}

struct lookup_args {
  tf_cache *c;
  int kind;
  const char *name, *where;
  tf_error *err;
};

static void *lookup_body(void *arg) {
  struct lookup_args *a = arg;
  return lookup(a->c, a->kind, a->name, a->where, a->err);
}

static void unlock(void *arg) { pthread_mutex_unlock(&((struct lookup_args *)arg)->c->lock); }

/* A load that runs out of memory releases the lock before the failure
 * goes on, so the other workers are not left waiting on it. */
static void *locked_lookup(tf_cache *c, int kind, const char *name, const char *where, tf_error *err) {
  struct lookup_args a = {c, kind, name, where, err};
  pthread_mutex_lock(&c->lock);
  void *obj = tf_alloc_guarded(lookup_body, unlock, &a);
  pthread_mutex_unlock(&c->lock);
  return obj;
}

const tf_machine *tf_cache_machine(tf_cache *c, const char *name, const char *where, tf_error *err) {
  return locked_lookup(c, TF_CATALOG_MACHINES, name, where, err);
}

const tf_workset *tf_cache_workset(tf_cache *c, const char *name, const char *where, tf_error *err) {
  return locked_lookup(c, TF_CATALOG_WORKSETS, name, where, err);
}

int tf_cache_get(tf_cache *c, const tf_request *req, const char *mwhere, const char *wwhere, const tf_machine **m,
                 const tf_workset **w, tf_error *err) {
  if (tf_load_names(req, mwhere, wwhere, err))
    return -1;
  *m = tf_cache_machine(c, req->machine, mwhere, err);
  *w = *m ? tf_cache_workset(c, req->workset, wwhere, err) : NULL;
  return *m && *w ? 0 : -1;
}

int tf_cache_get_case(tf_cache *c, const tf_request *req, const char *file, size_t line, const tf_machine **m,
                      const tf_workset **w, tf_error *err) {
  char mwhere[64], wwhere[64];
  snprintf(mwhere, sizeof mwhere, "line %zu: $.machine", line);
  snprintf(wwhere, sizeof wwhere, "line %zu: $.workset", line);
  if (tf_cache_get(c, req, mwhere, wwhere, m, w, err))
    return tf_error_set_file(err, file), -1;
  return 0;
}
