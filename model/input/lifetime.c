#include "model/input/lifetime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/place.h"

int tf_lifetime_read_buffer(tf_buffer *buf, const cJSON *b, const char *path, tf_error *err) {
  buf->lifetime = -1;
  const cJSON *v = tf_json_member(b, "lifetime");
  if (!v)
    return 0;
  char sub[160];
  tf_path_key(sub, sizeof sub, path, "lifetime");
  if (!cJSON_IsString(v) || !*v->valuestring)
    return tf_error_set(err, TF_EINPUT, sub,
                        "expected a phase name (a non-empty string, \"mainloop\"); a buffer without one is live "
                        "throughout");
  const char *why = tf_text_unfit(v->valuestring, TF_MAX_NAME_BYTES);
  if (why)
    return tf_error_set(err, TF_EINPUT, sub, "a phase name of at most %d bytes of UTF-8 text; this one %s",
                        TF_MAX_NAME_BYTES, why);
  buf->lifetime_name = tf_strdup(v->valuestring);
  return 0;
}

static int find_phase(const tf_workset *w, const char *name) {
  for (size_t i = 0; i < w->nlifetimes; i++)
    if (!strcmp(w->lifetimes[i], name))
      return (int)i;
  return -1;
}

static int add_phase(tf_workset *w, const char *name, const char *path, tf_error *err) {
  if (w->nlifetimes == TF_MAX_LIFETIMES)
    return tf_error_set(err, TF_EINPUT, path, "at most %d lifetimes; '%.60s' is one more", TF_MAX_LIFETIMES, name);
  w->lifetimes[w->nlifetimes++] = tf_strdup(name);
  return 0;
}

/* The root's `lifetimes`: a list of distinct phase names. */
static int read_declared(tf_workset *w, const cJSON *arr, tf_error *err) {
  if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr))
    return tf_error_set(err, TF_EINPUT, "$.lifetimes", "expected a non-empty list of phase names");
  size_t i = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.lifetimes", i++);
    if (!cJSON_IsString(x) || !*x->valuestring || tf_text_unfit(x->valuestring, TF_MAX_NAME_BYTES))
      return tf_error_set(err, TF_EINPUT, sub, "expected a phase name (a non-empty string of at most %d bytes)",
                          TF_MAX_NAME_BYTES);
    if (find_phase(w, x->valuestring) >= 0)
      return tf_error_set(err, TF_EINPUT, sub, "phase '%s' is listed twice", x->valuestring);
    if (add_phase(w, x->valuestring, sub, err))
      return -1;
  }
  return 0;
}

/* Each buffer's phase index: a declared phase (did you mean one?), or a
 * new one in order of first use when none are declared. */
static int resolve_phases(tf_workset *w, int declared, tf_error *err) {
  for (size_t b = 0; b < w->nbuffers; b++) {
    tf_buffer *buf = &w->buffers[b];
    if (!buf->lifetime_name)
      continue;
    char path[160];
    snprintf(path, sizeof path, "$.buffers[%zu].lifetime", b);
    int at = find_phase(w, buf->lifetime_name);
    if (at < 0 && declared) {
      const char *near = tf_suggest(buf->lifetime_name, (const char *const *)w->lifetimes, w->nlifetimes);
      return tf_error_set(err, TF_EINPUT, path, "'%.60s' is not one of $.lifetimes%s%s%s", buf->lifetime_name,
                          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    if (at < 0 && add_phase(w, buf->lifetime_name, path, err))
      return -1;
    buf->lifetime = at >= 0 ? at : (int)w->nlifetimes - 1;
  }
  return 0;
}

/* An aliasing buffer lies in its host's space: the same lifetime. */
static int check_aliases(const tf_workset *w, tf_error *err) {
  for (size_t b = 0; b < w->nbuffers; b++) {
    const tf_buffer *buf = &w->buffers[b];
    if (buf->alias < 0 || buf->lifetime == w->buffers[buf->alias].lifetime)
      continue;
    const char *host = tf_lifetime_name(w, (size_t)buf->alias), *own = tf_lifetime_name(w, b);
    char path[160];
    snprintf(path, sizeof path, "$.buffers[%zu].lifetime", b);
    return tf_error_set(
        err, TF_EINPUT, path, "'%s' aliases '%s', so it must have its lifetime: '%s' is %s%s%s, '%s' %s%s%s", buf->name,
        w->buffers[buf->alias].name, w->buffers[buf->alias].name, host ? "in '" : "live throughout", host ? host : "",
        host ? "'" : "", buf->name, own ? "in '" : "live throughout", own ? own : "", own ? "'" : "");
  }
  return 0;
}

/* `layout_order`: buffer names, each once; the rest follow in workset
 * order. */
static int read_order(tf_workset *w, const cJSON *arr, tf_error *err) {
  size_t n = 0;
  unsigned char *seen = tf_nalloc(w->nbuffers + 1, 1);
  w->layout_order = tf_nalloc(w->nbuffers + 1, sizeof *w->layout_order);
  if (arr && !cJSON_IsArray(arr)) {
    free(seen);
    return tf_error_set(err, TF_EINPUT, "$.layout_order", "expected a list of buffer names");
  }
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.layout_order", n);
    int b = cJSON_IsString(x) ? tf_workset_buffer(w, x->valuestring) : -1;
    const char *near = NULL;
    if (b < 0 && cJSON_IsString(x)) {
      const char **names = tf_nalloc(w->nbuffers + 1, sizeof *names);
      for (size_t i = 0; i < w->nbuffers; i++)
        names[i] = w->buffers[i].name;
      near = tf_suggest(x->valuestring, names, w->nbuffers);
      tf_error_set(err, TF_EINPUT, sub, "no buffer '%.60s' in this workset%s%s%s", x->valuestring,
                   near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
      free(names);
    } else if (b < 0) {
      tf_error_set(err, TF_EINPUT, sub, "expected a buffer name (a string)");
    } else if (seen[b]) {
      tf_error_set(err, TF_EINPUT, sub, "buffer '%s' is listed twice", w->buffers[b].name);
    }
    if (b < 0 || seen[b])
      return free(seen), -1;
    seen[b] = 1;
    w->layout_order[n++] = (size_t)b;
  }
  for (size_t b = 0; b < w->nbuffers; b++)
    if (!seen[b])
      w->layout_order[n++] = b;
  free(seen);
  return 0;
}

int tf_lifetime_finish(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *declared = tf_json_member(root, "lifetimes");
  w->lifetimes = tf_nalloc(TF_MAX_LIFETIMES, sizeof *w->lifetimes);
  if (declared && read_declared(w, declared, err))
    return -1;
  if (resolve_phases(w, declared != NULL, err) || check_aliases(w, err))
    return -1;
  return read_order(w, tf_json_member(root, "layout_order"), err);
}

const char *tf_lifetime_name(const tf_workset *w, size_t b) {
  int l = w->buffers[b].lifetime;
  return l >= 0 ? w->lifetimes[l] : NULL;
}

void tf_lifetime_release(tf_workset *w) {
  for (size_t i = 0; i < w->nlifetimes; i++)
    free(w->lifetimes[i]);
  free(w->lifetimes);
  free(w->layout_order);
  for (size_t b = 0; b < w->nbuffers; b++)
    free(w->buffers[b].lifetime_name);
}
