#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/alloc.h"
#include "model/json.h"
#include "model/text.h"

struct reading {
  tf_plot_series *s;
  const char *file, *x, *y, *by;
};

/* NAME at the top level, in "values", in "params"; or a dotted path. */
static const cJSON *lookup(const cJSON *line, const char *name) {
  if (strchr(name, '.')) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", name);
    const cJSON *v = line;
    for (char *save = NULL, *key = strtok_r(buf, ".", &save); key && v; key = strtok_r(NULL, ".", &save))
      v = cJSON_IsObject(v) ? tf_json_member(v, key) : NULL;
    return v;
  }
  const cJSON *v = tf_json_member(line, name);
  if (!v)
    v = tf_json_member(tf_json_member(line, "values"), name);
  if (!v)
    v = tf_json_member(tf_json_member(line, "params"), name);
  return v;
}

static int number_at(const cJSON *line, const char *name, const char *opt, size_t lineno,
                     double *out, tf_error *err) {
  const cJSON *v = lookup(line, name);
  if (!cJSON_IsNumber(v))
    return tf_error_set(err, TF_EINPUT, opt, "line %zu: %s '%s' (looked up at the top level, in values, in params)",
                        lineno, v ? "expected a number for" : "no", name);
  *out = v->valuedouble;
  return 0;
}

static tf_plot_group *group_of(struct reading *r, const cJSON *line, size_t lineno, tf_error *err) {
  char name[128] = "";
  if (r->by) {
    const cJSON *v = lookup(line, r->by);
    if (cJSON_IsString(v))
      tf_copy_text(name, sizeof name, v->valuestring); /* cut, if at all, between characters */
    else if (cJSON_IsNumber(v))
      snprintf(name, sizeof name, "%s=%.15g", r->by, v->valuedouble);
    else
      return tf_error_set(err, TF_EINPUT, "--by", "line %zu: no string or number '%s'", lineno, r->by), NULL;
  }
  tf_plot_series *s = r->s;
  for (size_t i = 0; i < s->ngroups; i++)
    if (!strcmp(s->groups[i].name, name))
      return &s->groups[i];
  if (s->ngroups == TF_PLOT_MAX_GROUPS)
    return tf_error_set(err, TF_EINPUT, "--by", "more than %d groups", TF_PLOT_MAX_GROUPS), NULL;
  tf_plot_group *g = &s->groups[s->ngroups++];
  tf_copy_text(g->name, sizeof g->name, name);
  return g;
}

static int read_line(void *ctx, const char *text, size_t len, size_t lineno, tf_error *err) {
  struct reading *r = ctx;
  cJSON *line = tf_json_parse(text, len, r->file, err);
  if (!line)
    return -1;
  r->s->lines++;
  const cJSON *status = tf_json_member(line, "status");
  int rc = 0;
  if (!cJSON_IsObject(line)) {
    rc = tf_error_set(err, TF_EINPUT, NULL, "line %zu: expected an object (a line of 'tilefit sweep')", lineno);
  } else if (!cJSON_IsString(status) || (strcmp(status->valuestring, "optimal") && strcmp(status->valuestring, "fits"))) {
    r->s->skipped++;
  } else {
    tf_plot_xy p;
    tf_plot_group *g = NULL;
    rc = number_at(line, r->x, "--x", lineno, &p.x, err) || number_at(line, r->y, "--y", lineno, &p.y, err) ||
                 !(g = group_of(r, line, lineno, err))
             ? -1
             : 0;
    if (!rc)
      TF_PUSH(g->pts, g->n, g->cap, p);
  }
  cJSON_Delete(line);
  return rc;
}

static int by_x(const void *a, const void *b) {
  const tf_plot_xy *p = a, *q = b;
  return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 : p->y > q->y;
}

int tf_plot_series_read(const char *file, const char *x, const char *y, const char *by, tf_plot_series *s,
                        tf_error *err) {
  memset(s, 0, sizeof *s);
  tf_copy_text(s->x_name, sizeof s->x_name, x);
  tf_copy_text(s->y_name, sizeof s->y_name, y);
  tf_copy_text(s->by_name, sizeof s->by_name, by ? by : "");
  const char *base = strrchr(file, '/');
  snprintf(s->title, sizeof s->title, "%s against %s%s%s (%s)", y, x, by ? ", one line per " : "", by ? by : "",
           base ? base + 1 : file);
  struct reading r = {s, file, x, y, by};
  if (tf_jsonl_each(file, read_line, &r, err)) {
    tf_error_set_file(err, file);
    return -1;
  }
  for (size_t i = 0; i < s->ngroups; i++)
    qsort(s->groups[i].pts, s->groups[i].n, sizeof *s->groups[i].pts, by_x);
  if (s->ngroups == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "%s: no line with a result to plot (%zu lines, %zu without a result)",
                        file, s->lines, s->skipped);
  return 0;
}

void tf_plot_series_release(tf_plot_series *s) {
  for (size_t i = 0; i < s->ngroups; i++)
    free(s->groups[i].pts);
  memset(s, 0, sizeof *s);
}
