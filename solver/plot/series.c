#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"

struct reading {
  tf_plot_series *s;
  const char *file, *x, *y, *by;
  int x_kind; /* 0: not seen yet, 1: numbers, 2: strings (categories) */
};

/* One step of a dotted path: a member of an object, or an element of an
 * array by its decimal index ("objectives.0.value"). */
static const cJSON *step(const cJSON *v, const char *key) {
  if (cJSON_IsObject(v))
    return tf_json_member(v, key);
  char *end;
  long i = strtol(key, &end, 10);
  return cJSON_IsArray(v) && *key >= '0' && *key <= '9' && !*end && i < cJSON_GetArraySize(v)
             ? cJSON_GetArrayItem(v, (int)i)
             : NULL;
}

/* The value of the objective "min NAME" or "max NAME" of a line. */
static const cJSON *objective(const cJSON *line, const char *name) {
  const cJSON *o;
  cJSON_ArrayForEach(o, tf_json_member(line, "objectives")) {
    const cJSON *text = tf_json_member(o, "objective");
    if (cJSON_IsString(text) && strlen(text->valuestring) > 4 && !strcmp(text->valuestring + 4, name))
      return tf_json_member(o, "value");
  }
  return NULL;
}

/* NAME at the top level, in "values", in "params", an objective's value
 * ("time_us" for "min time_us"); or a dotted path. */
static const cJSON *lookup(const cJSON *line, const char *name) {
  if (strchr(name, '.')) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", name);
    const cJSON *v = line;
    for (char *save = NULL, *key = strtok_r(buf, ".", &save); key && v; key = strtok_r(NULL, ".", &save))
      v = step(v, key);
    return v;
  }
  const cJSON *v = tf_json_member(line, name);
  if (!v)
    v = tf_json_member(tf_json_member(line, "values"), name);
  if (!v)
    v = tf_json_member(tf_json_member(line, "params"), name);
  if (!v)
    v = objective(line, name);
  return v;
}

static int number_at(const cJSON *line, const char *name, const char *opt, size_t lineno, double *out, tf_error *err) {
  const cJSON *v = lookup(line, name);
  if (!cJSON_IsNumber(v))
    return tf_error_set(err, TF_EINPUT, opt,
                        "line %zu: %s '%s' (looked up at the top level, in values, in params, in objectives)", lineno,
                        v ? "expected a number for" : "no", name);
  *out = v->valuedouble;
  return 0;
}

/* The index of category `name`, added when new. */
static int category(tf_plot_series *s, const char *name, size_t lineno, double *out, tf_error *err) {
  for (size_t i = 0; i < s->ncategories; i++)
    if (!strcmp(s->categories[i], name))
      return *out = (double)i, 0;
  if (s->ncategories == TF_PLOT_MAX_CATEGORIES)
    return tf_error_set(err, TF_EINPUT, "@x", "line %zu: more than %d values", lineno, TF_PLOT_MAX_CATEGORIES);
  tf_copy_text(s->categories[s->ncategories], sizeof s->categories[0], name);
  *out = (double)s->ncategories++;
  return 0;
}

/* x: a number, or a category once the first x seen was a string (a number
 * then is a category too, by its text). */
static int x_at(struct reading *r, const cJSON *line, size_t lineno, double *out, tf_error *err) {
  const cJSON *v = lookup(line, r->x);
  if (!r->x_kind && (cJSON_IsString(v) || cJSON_IsNumber(v)))
    r->x_kind = r->s->categorical = cJSON_IsString(v) ? 2 : 1;
  r->s->categorical = r->x_kind == 2;
  if (r->x_kind == 2 && (cJSON_IsString(v) || cJSON_IsNumber(v))) {
    char text[64];
    if (cJSON_IsString(v))
      tf_copy_text(text, sizeof text, v->valuestring);
    else
      snprintf(text, sizeof text, "%.15g", v->valuedouble);
    return category(r->s, text, lineno, out, err);
  }
  if (r->x_kind == 1 && cJSON_IsString(v))
    return tf_error_set(err, TF_EINPUT, "@x", "line %zu: expected a number for '%s' (as earlier lines), got a string",
                        lineno, r->x);
  return number_at(line, r->x, "@x", lineno, out, err);
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
      return tf_error_set(err, TF_EINPUT, "@by", "line %zu: no string or number '%s'", lineno, r->by), NULL;
  }
  tf_plot_series *s = r->s;
  for (size_t i = 0; i < s->ngroups; i++)
    if (!strcmp(s->groups[i].name, name))
      return &s->groups[i];
  if (s->ngroups == TF_PLOT_MAX_GROUPS)
    return tf_error_set(err, TF_EINPUT, "@by", "more than %d groups", TF_PLOT_MAX_GROUPS), NULL;
  tf_plot_group *g = &s->groups[s->ngroups++];
  tf_copy_text(g->name, sizeof g->name, name);
  return g;
}

/* A line without a result: an x on the axis when it has an x and a group
 * (else only counted). */
static void note_miss(struct reading *r, const cJSON *line, size_t lineno) {
  tf_error e;
  tf_error_init(&e);
  tf_plot_miss miss = {0};
  tf_plot_group *g;
  const cJSON *v = lookup(line, r->x), *fix = tf_json_member(tf_json_member(line, "input"), "fix");
  const cJSON *at = line;
  if (!v && cJSON_IsObject(fix) && tf_json_member(fix, r->x)) /* no values without a result: the x it was given */
    at = fix;
  v = lookup(at, r->x);
  if (!(cJSON_IsNumber(v) || cJSON_IsString(v)) || x_at(r, at, lineno, &miss.x, &e) ||
      !(g = group_of(r, line, lineno, &e)))
    return;
  miss.group = (size_t)(g - r->s->groups);
  const cJSON *why = tf_json_member(line, "reason");
  why = cJSON_IsString(why) ? why : tf_json_member(line, "error");
  const char *text = cJSON_IsString(why) ? why->valuestring : "no result";
  const char *needs = strstr(text, " needs ");
  tf_copy_text(miss.why, sizeof miss.why, needs ? needs + 1 : text);
  TF_PUSH(r->s->misses, r->s->nmisses, r->s->cap_misses, miss);
}

/* Adds `name` to the comma list `list` unless it is there. */
static void add_name(char *list, size_t size, const cJSON *v) {
  if (!cJSON_IsString(v))
    return;
  char item[96];
  snprintf(item, sizeof item, "%s", v->valuestring);
  for (const char *p = list; (p = strstr(p, item)); p++)
    if ((p == list || p[-1] == ' ') && (p[strlen(item)] == ',' || !p[strlen(item)]))
      return;
  size_t n = strlen(list);
  if (n + strlen(item) + 3 < size)
    snprintf(list + n, size - n, "%s%s", n ? ", " : "", item);
}

/* An input value as text (a number, or the objective list joined). */
static int input_text(const cJSON *v, char *out, size_t size) {
  if (cJSON_IsNumber(v))
    return snprintf(out, size, "%.15g", v->valuedouble), 1;
  if (!cJSON_IsArray(v))
    return 0;
  size_t n = 0;
  out[0] = 0;
  for (const cJSON *o = v->child; o && n < size; o = o->next)
    if (cJSON_IsString(o))
      n += (size_t)snprintf(out + n, size - n, "%s%s", n ? ", " : "", o->valuestring);
  return 1;
}

/* The inputs every line shares: the first line's params, fixes and
 * objective, less any a later line has otherwise (or lacks). */
static void note_inputs(struct reading *r, const cJSON *line) {
  tf_plot_series *s = r->s;
  const cJSON *input = tf_json_member(line, "input");
  const cJSON *from[3] = {tf_json_member(input, "params"), tf_json_member(input, "fix"), input};
  char text[64];
  if (!s->fixed_set) {
    s->fixed_set = 1;
    for (int k = 0; k < 3; k++)
      for (const cJSON *v = cJSON_IsObject(from[k]) ? from[k]->child : NULL; v && s->nfixed < TF_PLOT_MAX_FIXED;
           v = v->next)
        if ((k < 2 || !strcmp(v->string, "objective")) && strcmp(v->string, r->x) &&
            (!r->by || strcmp(v->string, r->by)) && input_text(v, text, sizeof text)) {
          tf_copy_text(s->fixed_names[s->nfixed], sizeof s->fixed_names[0], v->string);
          tf_copy_text(s->fixed_values[s->nfixed++], sizeof s->fixed_values[0], text);
        }
    return;
  }
  for (size_t i = 0; i < s->nfixed;) {
    int same = 0;
    for (int k = 0; k < 3 && !same; k++) {
      const cJSON *v = tf_json_member(from[k], s->fixed_names[i]);
      same = (k < 2 || !strcmp(s->fixed_names[i], "objective")) && v && input_text(v, text, sizeof text) &&
             !strcmp(text, s->fixed_values[i]);
    }
    if (same) {
      i++;
      continue;
    }
    s->nfixed--;
    memmove(s->fixed_names[i], s->fixed_names[i + 1], (s->nfixed - i) * sizeof s->fixed_names[0]);
    memmove(s->fixed_values[i], s->fixed_values[i + 1], (s->nfixed - i) * sizeof s->fixed_values[0]);
  }
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
  } else if (!cJSON_IsString(status) ||
             (strcmp(status->valuestring, "optimal") && strcmp(status->valuestring, "fits"))) {
    r->s->skipped++;
    note_miss(r, line, lineno);
  } else {
    tf_plot_xy p;
    tf_plot_group *g = NULL;
    rc = x_at(r, line, lineno, &p.x, err) || number_at(line, r->y, "@y", lineno, &p.y, err) ||
                 !(g = group_of(r, line, lineno, err))
             ? -1
             : 0;
    if (!rc)
      TF_PUSH(g->pts, g->n, g->cap, p);
  }
  if (cJSON_IsObject(line)) {
    add_name(r->s->worksets, sizeof r->s->worksets, tf_json_member(line, "workset"));
    add_name(r->s->machines, sizeof r->s->machines, tf_json_member(line, "machine"));
    note_inputs(r, line);
  }
  cJSON_Delete(line);
  return rc;
}

static int by_x(const void *a, const void *b) {
  const tf_plot_xy *p = a, *q = b;
  return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 : p->y > q->y;
}

/* "fa4-fwd on b200, gb200: stages against d, one line per machine" and
 * "B_c=128  q_stage=2  objective: max stages  (FILE)". */
static void titles(tf_plot_series *s, const char *file) {
  const char *base = strrchr(file, '/');
  snprintf(s->title, sizeof s->title, "%s%s%s%s%s against %s%s%s", s->worksets, s->machines[0] ? " on " : "",
           s->machines, s->worksets[0] || s->machines[0] ? ": " : "", s->y_name, s->x_name,
           s->by_name[0] ? ", one line per " : "", s->by_name);
  size_t n = 0;
  for (size_t i = 0; i < s->nfixed && n < sizeof s->subtitle; i++)
    n += (size_t)snprintf(s->subtitle + n, sizeof s->subtitle - n,
                          strcmp(s->fixed_names[i], "objective") ? "%s%s=%s" : "%s%s: %s",
                          !n                                       ? ""
                          : strcmp(s->fixed_names[i], "objective") ? ", "
                                                                   : "; ",
                          s->fixed_names[i], s->fixed_values[i]);
  if (n < sizeof s->subtitle)
    snprintf(s->subtitle + n, sizeof s->subtitle - n, "%s(%s)", n ? " " : "", base ? base + 1 : file);
}

int tf_plot_series_read(const char *file, const char *x, const char *y, const char *by, tf_plot_series *s,
                        tf_error *err) {
  memset(s, 0, sizeof *s);
  tf_copy_text(s->x_name, sizeof s->x_name, x);
  tf_copy_text(s->y_name, sizeof s->y_name, y);
  tf_copy_text(s->by_name, sizeof s->by_name, by ? by : "");
  struct reading r = {s, file, x, y, by, 0};
  if (tf_jsonl_each(file, read_line, &r, err)) {
    tf_error_set_file(err, file);
    return -1;
  }
  size_t points = 0;
  for (size_t i = 0; i < s->ngroups; i++) {
    qsort(s->groups[i].pts, s->groups[i].n, sizeof *s->groups[i].pts, by_x);
    points += s->groups[i].n;
  }
  if (points == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "%s: no line with a result to plot (%zu lines, %zu without a result)",
                        file, s->lines, s->skipped);
  titles(s, file);
  return 0;
}

void tf_plot_series_release(tf_plot_series *s) {
  for (size_t i = 0; i < s->ngroups; i++)
    free(s->groups[i].pts);
  free(s->misses);
  memset(s, 0, sizeof *s);
}
