/* Reading placement from a workset (place.h).  Every error names the JSON
 * path of what is wrong: an unknown memory, a memory listed twice, a size
 * for a memory the buffer cannot be in or a candidate without one, an
 * alias that names the buffer itself, no buffer, or closes a cycle. */
#include "model/input/place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/input/datapath.h"
#include "model/input/json_read.h"
#include "model/input/machine.h"

static int read_memory(const cJSON *v, const char *path, int *out, tf_error *err) {
  const char *s;
  if (tf_json_string(v, path, &s, err))
    return -1;
  *out = tf_memory_find(s);
  if (*out < 0)
    return tf_error_set(err, TF_EINPUT, path, "unknown memory '%.40s' (expected %s)", s, TF_MEMORY_LIST(" or "));
  return 0;
}

/* `place`: a non-empty list of distinct memories, in preference order. */
static int read_place_list(tf_buffer *buf, const cJSON *a, const char *path, tf_error *err) {
  if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty list of memories (%s)", TF_MEMORY_LIST(", "));
  const cJSON *v;
  cJSON_ArrayForEach(v, a) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, (size_t)buf->nplace);
    int m;
    if (read_memory(v, sub, &m, err))
      return -1;
    for /* at most TF_NMEM distinct memories, so place[] cannot overflow */ (int i = 0; i < buf->nplace; i++)
      if (buf->place[i] == m)
        return tf_error_set(err, TF_EINPUT, sub, "'%s' is listed twice", tf_memory_name(m));
    buf->place[buf->nplace++] = m;
  }
  return 0;
}

static int candidate(const tf_buffer *buf, int m) {
  for (int i = 0; i < buf->nplace; i++)
    if (buf->place[i] == m)
      return 1;
  return 0;
}

/* A size object: one expression per memory.  With `take_keys` (neither
 * memory nor place) its keys are the candidates, in order. */
static int read_size_object(tf_buffer *buf, const cJSON *obj, const char *path, int take_keys, tf_error *err) {
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    char sub[160];
    tf_path_key(sub, sizeof sub, path, e->string);
    int m = tf_memory_find(e->string);
    if (m < 0)
      return tf_error_set(err, TF_EINPUT, sub, "unknown memory '%.40s' (expected %s)", e->string,
                          TF_MEMORY_LIST(" or "));
    if (take_keys)
      buf->place[buf->nplace++] = m;
    else if (!candidate(buf, m))
      return tf_error_set(err, TF_EINPUT, sub, "a size for %s, which is not in the buffer's place list", e->string);
    if (!(buf->sizes[m] = tf_read_expr(e, sub, err)))
      return -1;
  }
  for (int i = 0; i < buf->nplace; i++)
    if (!buf->sizes[buf->place[i]])
      return tf_error_set(err, TF_EINPUT, path,
                          "no size for %s, which the place list names (expected {\"%s\": EXPR, ...})",
                          tf_memory_name(buf->place[i]), tf_memory_name(buf->place[i]));
  return 0;
}

/* One expression: the size in bytes when every candidate is byte-sized. */
static int read_size_expr(tf_buffer *buf, const cJSON *v, const char *path, tf_error *err) {
  for (int i = 0; i < buf->nplace; i++)
    if (buf->place[i] != TF_MEM_SMEM)
      return tf_error_set(err, TF_EINPUT, path,
                          "one size fits only byte-sized memories; %s needs {\"smem\": EXPR, \"%s\": EXPR} form",
                          tf_memory_name(buf->place[i]), tf_memory_name(buf->place[i]));
  return (buf->sizes[TF_MEM_SMEM] = tf_read_expr(v, path, err)) ? 0 : -1;
}

static int read_placed(tf_buffer *buf, const cJSON *b, const char *path, tf_error *err) {
  char sub[160];
  const cJSON *place = tf_json_member(b, "place"), *size = tf_json_member(b, "size");
  tf_path_key(sub, sizeof sub, path, "size");
  if (!place && !cJSON_IsObject(size))
    return tf_error_set(err, TF_EINPUT, sub,
                        "a buffer with neither 'memory' nor 'place' needs a size per memory ({\"tmem\": EXPR})");
  if (place) {
    char psub[160];
    tf_path_key(psub, sizeof psub, path, "place");
    if (read_place_list(buf, place, psub, err))
      return -1;
  }
  buf->from_table = !place;
  if (cJSON_IsObject(size) ? read_size_object(buf, size, sub, !place, err) : read_size_expr(buf, size, sub, err))
    return -1;
  buf->memory = buf->place[0];
  buf->size = buf->sizes[buf->memory];
  return 0;
}

/* `pin`: only where the place list has rf and something else. */
static int read_pin(tf_buffer *buf, const cJSON *b, const char *path, tf_error *err) {
  const cJSON *v = tf_json_member(b, "pin");
  if (!v)
    return 0;
  char sub[160];
  tf_path_key(sub, sizeof sub, path, "pin");
  if (!candidate(buf, TF_MEM_RF) || buf->nplace < 2)
    return tf_error_set(err, TF_EINPUT, sub, "a pin needs rf and another memory in the buffer's place list");
  return (buf->pin = tf_read_expr(v, sub, err)) ? 0 : -1;
}

int tf_place_read_buffer(tf_buffer *buf, const cJSON *b, const char *path, tf_error *err) {
  char sub[160];
  const cJSON *mem = tf_json_member(b, "memory"), *alias = tf_json_member(b, "alias");
  buf->alias = -1;
  if (alias) {
    const char *s;
    tf_path_key(sub, sizeof sub, path, "alias");
    if (tf_json_string(alias, sub, &s, err))
      return -1;
    buf->alias_name = tf_strdup(s);
  }
  if (mem && tf_json_member(b, "place")) {
    tf_path_key(sub, sizeof sub, path, "place");
    return tf_error_set(err, TF_EINPUT, sub, "a buffer has either 'memory' (fixed) or 'place' (decided), not both");
  }
  if (!mem)
    return read_placed(buf, b, path, err) || read_pin(buf, b, path, err) ? -1 : 0;
  if (tf_json_member(b, "pin")) {
    tf_path_key(sub, sizeof sub, path, "pin");
    return tf_error_set(err, TF_EINPUT, sub, "a pin needs a placed buffer ('place' with rf and another memory)");
  }
  tf_path_key(sub, sizeof sub, path, "memory");
  if (read_memory(mem, sub, &buf->memory, err))
    return -1;
  tf_path_key(sub, sizeof sub, path, "size");
  return (buf->size = tf_read_expr(tf_json_member(b, "size"), sub, err)) ? 0 : -1;
}

int tf_buffer_sizes(const tf_buffer *b, tf_expr **out) {
  int n = 0;
  out[n++] = b->size;
  for (int m = 0; m < TF_NMEM; m++)
    if (b->sizes[m] && b->sizes[m] != b->size)
      out[n++] = b->sizes[m];
  return n;
}

int tf_buffer_may_live_in(const tf_buffer *b, int mem) { return b->nplace ? candidate(b, mem) : b->memory == mem; }

static int resolve_aliases(tf_workset *w, tf_error *err) {
  for (size_t i = 0; i < w->nbuffers; i++) {
    tf_buffer *b = &w->buffers[i];
    if (!b->alias_name)
      continue;
    char path[160];
    snprintf(path, sizeof path, "$.buffers[%zu].alias", i);
    b->alias = tf_workset_buffer(w, b->alias_name);
    if (b->alias < 0)
      return tf_error_set(err, TF_EINPUT, path, "no buffer '%.60s' to alias", b->alias_name);
    if ((size_t)b->alias == i)
      return tf_error_set(err, TF_EINPUT, path, "a buffer cannot alias itself");
  }
  for (size_t i = 0; i < w->nbuffers; i++) { /* a chain longer than nbuffers is a cycle */
    int at = (int)i;
    for (size_t n = 0; at >= 0 && n <= w->nbuffers; n++)
      at = w->buffers[at].alias;
    if (at >= 0) {
      char path[160];
      snprintf(path, sizeof path, "$.buffers[%zu].alias", i);
      return tf_error_set(err, TF_EINPUT, path, "aliases form a cycle through '%s'", w->buffers[i].name);
    }
  }
  return 0;
}

/* One MMA use: {"inst": NAME, "A": buffer, "B": buffer, "D": buffer}. */
static int read_mma_use(const tf_workset *w, const cJSON *e, const char *path, tf_mma_use *u, tf_error *err) {
  static const char *const keys[] = {"inst", "A", "B", "D", "comment", NULL};
  static const char *const req[] = {"inst", NULL};
  char sub[160];
  const char *s;
  tf_path_key(sub, sizeof sub, path, "inst");
  if (tf_json_keys(e, path, keys, req, err) || tf_json_string(tf_json_member(e, "inst"), sub, &s, err))
    return -1;
  u->inst = tf_strdup(s);
  for (int k = 0; k < TF_MMA_OPERANDS; k++) {
    const cJSON *v = tf_json_member(e, tf_mma_operand_names[k]);
    u->operand[k] = -1;
    if (!v)
      continue;
    tf_path_key(sub, sizeof sub, path, tf_mma_operand_names[k]);
    if (tf_json_string(v, sub, &s, err))
      return -1;
    if ((u->operand[k] = tf_workset_buffer(w, s)) < 0)
      return tf_error_set(err, TF_EINPUT, sub, "no buffer '%.60s' in this workset", s);
  }
  return 0;
}

static int read_mma_uses(tf_workset *w, const cJSON *obj, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, "$.mma", "expected an object of NAME: {\"inst\", \"A\", \"B\", \"D\"}");
  w->mma = tf_nalloc((size_t)cJSON_GetArraySize(obj) + 1, sizeof *w->mma);
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    tf_mma_use *u = &w->mma[w->nmma++];
    char path[160];
    tf_path_key(path, sizeof path, "$.mma", e->string);
    u->name = tf_strdup(e->string);
    u->path = tf_strdup(path);
    if (read_mma_use(w, e, path, u, err))
      return -1;
  }
  return 0;
}

static int read_arch(tf_workset *w, const cJSON *a, tf_error *err) {
  if (!a)
    return 0;
  if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
    return tf_error_set(err, TF_EINPUT, "$.arch",
                        "expected a non-empty list of architectures (\"sm_90\", \"sm_10x\", \"sm_80+\")");
  w->arch = tf_nalloc((size_t)cJSON_GetArraySize(a), sizeof *w->arch);
  const cJSON *v;
  cJSON_ArrayForEach(v, a) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.arch", w->narch);
    const char *s;
    if (tf_json_string(v, sub, &s, err))
      return -1;
    if (!tf_arch_pattern_valid(s))
      return tf_error_set(err, TF_EINPUT, sub,
                          "'%.40s' is not an architecture (\"sm_90\"), family (\"sm_10x\") or bound (\"sm_80+\")", s);
    w->arch[w->narch++] = tf_strdup(s);
  }
  return 0;
}

int tf_place_finish(tf_workset *w, const cJSON *root, tf_error *err) {
  if (resolve_aliases(w, err) || read_mma_uses(w, tf_json_member(root, "mma"), err))
    return -1;
  return read_arch(w, tf_json_member(root, "arch"), err);
}

void tf_place_release_buffer(tf_buffer *buf) {
  for (int m = 0; m < TF_NMEM; m++)
    if (buf->sizes[m] != buf->size)
      tf_expr_free(buf->sizes[m]);
  tf_expr_free(buf->size);
  tf_expr_free(buf->pin);
  free(buf->alias_name);
}

void tf_place_release(tf_workset *w) {
  for (size_t i = 0; i < w->nmma; i++) {
    free(w->mma[i].name);
    free(w->mma[i].inst);
    free(w->mma[i].path);
  }
  free(w->mma);
  for (size_t i = 0; i < w->narch; i++)
    free(w->arch[i]);
  free(w->arch);
}

/* "sm_90", "sm_90 or sm_10x", ... */
static void arch_list(const tf_workset *w, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (size_t i = 0; i < w->narch; i++)
    tf_strbuf_item(&b, i + 1 == w->narch && i ? " or " : ", ", "%s", w->arch[i]);
}

int tf_place_check_machine(const tf_machine *m, const tf_workset *w, int any_arch, tf_error *err) {
  int ok = !w->narch || any_arch;
  for (size_t i = 0; i < w->narch && !ok; i++)
    ok = tf_machine_arch_matches(m, w->arch[i]) == 1;
  if (!ok) {
    char list[160];
    arch_list(w, list, sizeof list);
    tf_error_set(err, TF_EINPUT, "$.arch", "%s models %s; %s is %s", w->name, list, m->name, m->arch);
    tf_error_set_at(err, "any_arch"); /* what solves it anyway: each front end says it its way */
    return -1;
  }
  for (size_t i = 0; i < w->nmma && !any_arch; i++)
    if (!tf_datapath_mma(&m->datapath, w->mma[i].inst))
      return tf_error_set(err, TF_EINPUT, w->mma[i].path, "%s has no %s in its mma table (machines/README.md)", m->name,
                          w->mma[i].inst);
  return 0;
}

int tf_place_missing_memory(const tf_machine *m, const tf_workset *w, char *why, size_t size) {
  for (int mem = 0; mem < TF_NMEM; mem++) {
    if (tf_memory_present(m, mem))
      continue;
    char names[160];
    tf_strbuf b = tf_strbuf_of(names, sizeof names);
    for (size_t i = 0; i < w->nbuffers; i++) {
      const tf_buffer *buf = &w->buffers[i];
      int elsewhere = 0;
      for (int k = 0; k < buf->nplace; k++)
        elsewhere |= buf->place[k] != mem && tf_memory_present(m, buf->place[k]);
      if (buf->memory == mem && !elsewhere)
        tf_strbuf_item(&b, " and ", "%s", buf->name);
    }
    if (b.len) {
      snprintf(why, size, "%s has no %s; %s keeps %s in it", m->name, tf_memory_what(mem), w->name, names);
      return 1;
    }
  }
  return 0;
}
