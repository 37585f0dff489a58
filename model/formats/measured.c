#include "model/formats/measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"

const char *const tf_measured_keys[] = {"group", "source", "ref",      "provenance", "gpu", "kernel",
                                        "note",  "flops",  "measured", "config",     NULL};

/* How a number was read from its source (the measurement set's own words). */
const char *const tf_measured_provenances[] = {"text", "code-comment", "figure-transcription", "secondary", NULL};

static const char *const measure_names[TF_NMEASURES] = {"tflops", "time_ms", "relative_time"};

const char *tf_measure_name(int measure) { return measure_names[measure]; }

void tf_measured_init(tf_measured *m) { memset(m, 0, sizeof *m); }

void tf_measured_release(tf_measured *m) {
  char **s[] = {&m->group, &m->source, &m->ref, &m->provenance, &m->gpu, &m->kernel, &m->note};
  for (size_t i = 0; i < sizeof s / sizeof *s; i++)
    free(*s[i]);
  for (size_t i = 0; i < m->nconfig; i++)
    free(m->config[i].name), free(m->config[i].where);
  free(m->config);
  tf_measured_init(m);
}

double tf_measured_ns(const tf_measured *m) {
  if (m->measure == TF_MEASURE_TFLOPS)
    return (double)m->flops / (m->value * 1e3); /* flops / (TFLOP/s x 10^12) s, in ns */
  return m->measure == TF_MEASURE_TIME_MS ? m->value * 1e6 : -1;
}

/* Member `key` of root as a string into *out (NULL when absent); `empty`
 * allows "". */
static int read_text(const cJSON *root, const char *base, const char *key, int empty, char **out, tf_error *err) {
  const cJSON *v = tf_json_member(root, key);
  char path[200];
  const char *s;
  tf_path_key(path, sizeof path, base, key);
  if (!v)
    return 0;
  if (tf_json_string(v, path, &s, err))
    return -1;
  if (!*s && !empty)
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty string");
  *out = tf_strdup(s);
  return 0;
}

/* {"tflops": x} | {"time_ms": x} | {"relative_time": x}, x > 0. */
static int read_measure(const cJSON *v, const char *base, tf_measured *m, tf_error *err) {
  char path[200], mp[220];
  tf_path_key(path, sizeof path, base, "measured");
  if (!cJSON_IsObject(v) || !v->child || v->child->next)
    return tf_error_set(err, TF_EINPUT, path, "expected an object with one of tflops, time_ms or relative_time");
  const char *key = v->child->string;
  tf_path_key(mp, sizeof mp, path, key);
  for (m->measure = 0; m->measure < TF_NMEASURES && strcmp(key, measure_names[m->measure]); m->measure++)
    ;
  if (m->measure == TF_NMEASURES) {
    const char *near = tf_suggest(key, measure_names, TF_NMEASURES);
    return tf_error_set(err, TF_EINPUT, mp, "expected tflops, time_ms or relative_time%s%s%s",
                        near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  }
  m->value = cJSON_IsNumber(v->child) && !cJSON_IsBool(v->child) ? v->child->valuedouble : -1;
  if (!(m->value > 0) || !isfinite(m->value))
    return tf_error_set(err, TF_EINPUT, mp, "expected a positive number");
  return 0;
}

/* "config": {NAME: integer, ...} */
static int read_config(const cJSON *v, const char *base, tf_measured *m, tf_error *err) {
  char path[200];
  tf_path_key(path, sizeof path, base, "config");
  if (!cJSON_IsObject(v))
    return tf_error_set(err, TF_EINPUT, path, "expected an object of NAME: integer");
  const cJSON *c;
  cJSON_ArrayForEach(c, v) {
    char cp[220];
    int64_t x;
    tf_path_key(cp, sizeof cp, path, c->string);
    if (tf_json_int(c, cp, -TF_JSON_EXACT, TF_JSON_EXACT, &x, err))
      return -1;
    TF_NREALLOC(m->config, m->nconfig + 1);
    m->config[m->nconfig++] = (tf_assign){tf_strdup(c->string), x, tf_strdup(cp)};
  }
  return 0;
}

static int read_provenance(const char *base, const tf_measured *m, tf_error *err) {
  for (size_t i = 0; tf_measured_provenances[i]; i++)
    if (!strcmp(m->provenance, tf_measured_provenances[i]))
      return 0;
  char path[200];
  tf_path_key(path, sizeof path, base, "provenance");
  const char *near = tf_suggest(m->provenance, tf_measured_provenances, 4);
  return tf_error_set(err, TF_EINPUT, path, "expected text, code-comment, figure-transcription or secondary%s%s%s",
                      near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}

/* The keys a measured line needs: the measurement and where it is from. */
static int read_required(const cJSON *root, const char *base, tf_measured *m, tf_error *err) {
  static const char *const need[] = {"group", "source", "ref", "provenance"};
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    if (!tf_json_member(root, need[i]))
      return tf_error_set(err, TF_EINPUT, base,
                          "missing required key '%s' (a measured line has group, source, ref and provenance)", need[i]);
  if (read_provenance(base, m, err))
    return -1;
  if (m->measure == TF_MEASURE_TFLOPS && !m->flops)
    return tf_error_set(err, TF_EINPUT, base,
                        "missing required key 'flops' (a measured tflops needs the FLOPs it counts)");
  return 0;
}

int tf_measured_read(const cJSON *root, const char *base, tf_measured *m, tf_error *err) {
  const char *keys[] = {"group", "source", "ref", "provenance", "gpu", "kernel", "note"};
  char **outs[] = {&m->group, &m->source, &m->ref, &m->provenance, &m->gpu, &m->kernel, &m->note};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (read_text(root, base, keys[i], !strcmp(keys[i], "note"), outs[i], err))
      return -1;
  const cJSON *v;
  char path[200];
  tf_path_key(path, sizeof path, base, "flops");
  if ((v = tf_json_member(root, "flops")) && tf_json_int(v, path, 1, TF_JSON_EXACT, &m->flops, err))
    return -1;
  if ((v = tf_json_member(root, "config")) && read_config(v, base, m, err))
    return -1;
  if (!(v = tf_json_member(root, "measured"))) {
    for (size_t i = 0; tf_measured_keys[i]; i++)
      if (tf_json_member(root, tf_measured_keys[i]))
        return tf_error_set(err, TF_EINPUT, base, "'%s' belongs to a measured line, which needs 'measured'",
                            tf_measured_keys[i]);
    return 0;
  }
  m->present = 1;
  return read_measure(v, base, m, err) || read_required(root, base, m, err) ? -1 : 0;
}
