#include "model/input/workset.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/include.h"
#include "model/input/json_read.h"
#include "model/input/latency.h"
#include "model/input/let_add.h"
#include "model/input/lifetime.h"
#include "model/input/measured_error.h"
#include "model/input/place.h"
#include "model/input/roles.h"
#include "model/input/roofline.h"
#include "model/input/shape.h"
#include "model/input/show.h"

/* ---------------------------------------------------------------- binding */

static int resolve_cb(void *ctx, const char *name) { return tf_workset_resolve(ctx, name); }

/* Names a workset section writes (the roofline, its loads, the shape),
 * so that a workset without the section says why it lacks them. */
static const struct {
  int (*defines)(const char *name);
  const char *witness; /* a name every such section writes: is it there? */
  const char *section, *doc;
} sections[] = {
    {tf_roofline_defines, "cycles", "\"roofline\" (or a buffer's \"traffic\")", "docs/cost-model.md"},
    {tf_latency_defines, "load_bytes", "\"roofline\".\"loads\"", "docs/cost-model.md, latency hiding"},
    {tf_shape_defines, "time_us", "\"shape\"", "docs/cost-model.md, problem shapes"},
};

/* After an unknown name: the section that would define it, or the
 * workset's name nearest to a misspelt one (params, machine constants,
 * variables, lets, occupancy, used()/slack()), for "did you mean". */
static void hint_cb(void *ctx, const char *name, char *buf, size_t size) {
  const tf_workset *w = ctx;
  for (size_t k = 0; k < sizeof sections / sizeof *sections; k++)
    if (sections[k].defines(name) && tf_workset_resolve(w, sections[k].witness) < 0) {
      snprintf(buf, size, ": a workset's %s defines it (%s), and %s declares none", sections[k].section,
               sections[k].doc, w->name ? w->name : "this workset");
      return;
    }
  int n = tf_workset_sym_placed(w, 0, 0); /* the placed() names are long: not offered */
  const char **names = calloc((size_t)n, sizeof *names);
  char sym[8];
  if (!names)
    return; /* no memory for a suggestion: the error goes without one */
  for (int i = 0; i < n; i++)
    names[i] = tf_workset_sym_name(w, i, sym, sizeof sym);
  const char *near = tf_suggest(name, names, (size_t)n);
  if (near)
    snprintf(buf, size, "; did you mean '%s'?", near);
  free(names);
}

static int bind(const tf_workset *w, tf_expr *e, tf_error *err) {
  return tf_expr_bind_hint(e, resolve_cb, hint_cb, (void *)w, err);
}

/* Marks a bound expression of this workset for int64 evaluation. */
static void mark_count_free(const tf_workset *w, tf_expr *e) { tf_expr_mark_count_free(e, tf_lets_affine, (void *)w); }

static void mark_workset(tf_workset *w) {
  tf_lets_analyse(w); /* the lets first: the rest may use them */
  for (size_t i = 0; i < w->nparams; i++)
    mark_count_free(w, w->params[i].expr);
  for (size_t i = 0; i < w->ncounts; i++) {
    mark_count_free(w, w->counts[i].min);
    mark_count_free(w, w->counts[i].max);
  }
  for (size_t i = 0; i < w->nbuffers; i++) {
    tf_expr *sizes[TF_NMEM];
    for (int k = 0, n = tf_buffer_sizes(&w->buffers[i], sizes); k < n; k++)
      mark_count_free(w, sizes[k]);
    if (w->buffers[i].align)
      mark_count_free(w, w->buffers[i].align);
  }
}

/* ---------------------------------------------------------------- loading */

static int read_params(tf_workset *w, const cJSON *obj, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, "$.params", "expected an object of NAME: value");
  w->params = tf_nalloc((size_t)cJSON_GetArraySize(obj), sizeof *w->params);
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char path[160];
    tf_path_key(path, sizeof path, "$.params", m->string);
    if (tf_workset_check_name(w, m->string, path, err))
      return -1;
    tf_named_expr *p = &w->params[w->nparams];
    if (!(p->expr = tf_read_expr(m, path, err)))
      return -1;
    p->name = tf_strdup(m->string);
    p->path = tf_strdup(path);
    tf_workset_add_name(w, p->name, TF_SYM_PARAM, w->nparams++);
  }
  return 0;
}

static int read_choose(tf_workset *w, const cJSON *obj, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, "$.choose", "expected an object of NAME: domain");
  /* Refused here, before the let graph keeps a bit per choose variable. */
  if (cJSON_GetArraySize(obj) + 1 > TF_MAX_CHOOSE)
    return tf_error_set(err, TF_EINPUT, "$.choose",
                        "at most %d choose variables (one of the %d slots is kept for occupancy)", TF_MAX_CHOOSE - 1,
                        TF_MAX_CHOOSE);
  w->choose = tf_nalloc((size_t)cJSON_GetArraySize(obj), sizeof *w->choose);
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char path[160];
    tf_path_key(path, sizeof path, "$.choose", m->string);
    if (tf_workset_check_name(w, m->string, path, err))
      return -1;
    tf_choose *c = &w->choose[w->nchoose];
    c->name = tf_strdup(m->string);
    tf_workset_add_name(w, c->name, TF_SYM_CHOOSE, w->nchoose++);
    if (tf_read_domain(c, m, path, err))
      return -1;
  }
  return 0;
}

static int read_counts(tf_workset *w, const cJSON *obj, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, "$.count", "expected an object of NAME: {\"min\", \"max\"}");
  if (cJSON_GetArraySize(obj) > TF_MAX_COUNTS)
    return tf_error_set(err, TF_EINPUT, "$.count", "at most %d count variables", TF_MAX_COUNTS);
  w->counts = tf_nalloc((size_t)cJSON_GetArraySize(obj), sizeof *w->counts);
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    static const char *const keys[] = {"min", "max", NULL};
    char path[160], sub[160];
    tf_path_key(path, sizeof path, "$.count", m->string);
    if (tf_workset_check_name(w, m->string, path, err) || tf_json_keys(m, path, keys, keys, err))
      return -1;
    tf_count *c = &w->counts[w->ncounts];
    c->name = tf_strdup(m->string);
    tf_workset_add_name(w, c->name, TF_SYM_COUNT, w->ncounts++);
    tf_path_key(sub, sizeof sub, path, "min");
    if (!(c->min = tf_read_expr(tf_json_member(m, "min"), sub, err)))
      return -1;
    tf_path_key(sub, sizeof sub, path, "max");
    if (!(c->max = tf_read_expr(tf_json_member(m, "max"), sub, err)))
      return -1;
  }
  return 0;
}

static int read_buffer(tf_workset *w, const cJSON *b, const char *path, tf_error *err) {
  static const char *const keys[] = {"name", "memory",  "place",    "size",    "align", "alias",
                                     "pin",  "traffic", "lifetime", "comment", NULL};
  static const char *const req[] = {"name", "size", NULL};
  if (tf_json_keys(b, path, keys, req, err))
    return -1;
  char sub[160];
  const char *name;
  tf_path_key(sub, sizeof sub, path, "name");
  if (tf_json_string(tf_json_member(b, "name"), sub, &name, err))
    return -1;
  /* the name reaches GLPK's column and row names, which refuse control characters */
  const char *why = tf_text_unfit(name, TF_MAX_NAME_BYTES);
  if (why && !strcmp(why, "holds a control character"))
    return tf_error_set(err, TF_EINPUT, sub, "a buffer name must not contain control characters");
  if (why)
    return tf_error_set(err, TF_EINPUT, sub, "a buffer name of at most %d bytes of UTF-8 text; this one %s",
                        TF_MAX_NAME_BYTES, why);
  if (!*name)
    return tf_error_set(err, TF_EINPUT, sub, "expected a non-empty buffer name");
  if (tf_names_get(&w->buffer_names, name) >= 0)
    return tf_error_set(err, TF_EINPUT, sub, "buffer '%s' is defined twice", name);
  tf_buffer *buf = &w->buffers[w->nbuffers];
  tf_path_key(sub, sizeof sub, path, "size");
  buf->path = tf_strdup(sub);
  buf->name = tf_strdup(name);
  tf_names_put(&w->buffer_names, buf->name, (int)w->nbuffers);
  w->nbuffers++; /* owned by w from here on, even if its size does not parse */
  if (tf_place_read_buffer(buf, b, path, err) || tf_lifetime_read_buffer(buf, b, path, err))
    return -1;
  if (tf_json_member(b, "align")) {
    tf_path_key(sub, sizeof sub, path, "align");
    if (!(buf->align = tf_read_expr(tf_json_member(b, "align"), sub, err)))
      return -1;
  }
  const cJSON *c = tf_json_member(b, "comment");
  tf_path_key(sub, sizeof sub, path, "comment");
  if (c && !cJSON_IsString(c))
    return tf_error_set(err, TF_EINPUT, sub, "expected a string");
  return 0;
}

static int read_buffers(tf_workset *w, const cJSON *arr, tf_error *err) {
  if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
    return tf_error_set(err, TF_EINPUT, "$.buffers", "expected a non-empty list of buffers");
  w->buffers = tf_nalloc((size_t)cJSON_GetArraySize(arr), sizeof *w->buffers);
  size_t i = 0;
  const cJSON *b;
  cJSON_ArrayForEach(b, arr) {
    char path[160];
    tf_path_index(path, sizeof path, "$.buffers", i++);
    if (read_buffer(w, b, path, err))
      return -1;
  }
  return 0;
}

static int read_string_list(const cJSON *arr, const char *path, tf_error *err) {
  if (!cJSON_IsArray(arr))
    return tf_error_set(err, TF_EINPUT, path, "expected a list of strings");
  size_t i = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    if (!cJSON_IsString(x)) {
      char sub[160];
      tf_path_index(sub, sizeof sub, path, i);
      return tf_error_set(err, TF_EINPUT, sub, "expected a string");
    }
    i++;
  }
  return 0;
}

static int add_require(tf_workset *w, const char *text, const char *path, tf_error *err) {
  tf_named_expr *r = &w->require[w->nrequire];
  if (!(r->expr = tf_workset_parse_require(w, text, path, err)))
    return -1;
  r->path = tf_strdup(path);
  w->nrequire++;
  return 0;
}

/* The workset's requires, then its includes' (tf_include_read kept their
 * text), every name bound by now. */
static int read_requires(tf_workset *w, const cJSON *arr, tf_error *err) {
  if (arr && read_string_list(arr, "$.require", err))
    return -1;
  size_t own = arr ? (size_t)cJSON_GetArraySize(arr) : 0;
  w->require = tf_nalloc(own + w->ninclude_require + 1, sizeof *w->require);
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    char path[160];
    tf_path_index(path, sizeof path, "$.require", w->nrequire);
    if (add_require(w, x->valuestring, path, err))
      return -1;
  }
  for (size_t i = 0; i < w->ninclude_require; i++)
    if (add_require(w, w->include_require[i].name, w->include_require[i].path, err))
      return -1;
  return 0;
}

/* A list of objective texts at `key` ("$.objective", "$.tie_break") into
 * *out. */
static int read_objective_list(tf_workset *w, const cJSON *arr, const char *key, tf_objective **out, size_t *n,
                               tf_error *err) {
  if (!arr)
    return 0;
  if (read_string_list(arr, key, err))
    return -1;
  *out = tf_nalloc((size_t)cJSON_GetArraySize(arr), sizeof **out);
  const cJSON *x;
  cJSON_ArrayForEach(x, arr) {
    char path[160];
    tf_path_index(path, sizeof path, key, *n);
    if (tf_workset_parse_objective(w, x->valuestring, path, &(*out)[*n], err))
      return -1;
    (*n)++;
  }
  return 0;
}

/* The objectives, and the tie-breaks binding appends after whichever
 * objectives a request uses (model/bind/bind_rows.c). */
static int read_objectives(tf_workset *w, const cJSON *root, tf_error *err) {
  return read_objective_list(w, tf_json_member(root, "objective"), "$.objective", &w->objective, &w->nobjective, err) ||
                 read_objective_list(w, tf_json_member(root, "tie_break"), "$.tie_break", &w->tie_break, &w->ntie_break,
                                     err)
             ? -1
             : 0;
}

static int bind_all(tf_workset *w, tf_error *err) {
  for (size_t i = 0; i < w->nparams; i++)
    if (bind(w, w->params[i].expr, err))
      return tf_error_set_path(err, w->params[i].path), -1;
  for (size_t i = 0; i < w->ncounts; i++)
    if (bind(w, w->counts[i].min, err) || bind(w, w->counts[i].max, err)) {
      char path[160];
      tf_path_key(path, sizeof path, "$.count", w->counts[i].name);
      return tf_error_set_path(err, path), -1;
    }
  for (size_t i = 0; i < w->nlets; i++)
    if (bind(w, w->lets[i].expr, err))
      return tf_error_set_path(err, w->lets[i].path), -1;
  for (size_t i = 0; i < w->nbuffers; i++) {
    tf_expr *sizes[TF_NMEM];
    for (int k = 0, n = tf_buffer_sizes(&w->buffers[i], sizes); k < n; k++)
      if (bind(w, sizes[k], err))
        return tf_error_set_path(err, w->buffers[i].path), -1;
    if (w->buffers[i].align && bind(w, w->buffers[i].align, err)) {
      char path[160];
      snprintf(path, sizeof path, "$.buffers[%zu].align", i);
      return tf_error_set_path(err, path), -1;
    }
    if (w->buffers[i].pin && tf_expr_bind(w->buffers[i].pin, resolve_cb, w, err)) {
      char path[160];
      snprintf(path, sizeof path, "$.buffers[%zu].pin", i);
      return tf_error_set_path(err, path), -1;
    }
  }
  mark_workset(w);
  return 0;
}

static int read_workset(tf_workset *w, const cJSON *root, tf_error *err) {
  static const char *const keys[] = {
      "name",      "comment",      "params",  "choose",         "count",    "let",   "buffers", "require",
      "objective", "tie_break",    "mma",     "arch",           "roofline", "shape", "show",    "rule",
      "lifetimes", "layout_order", "include", "measured_error", "roles",    NULL};
  static const char *const req[] = {"name", "buffers", NULL};
  const char *name, *comment = "";
  /* A machine model given where a workset belongs fails on its first
   * section; say what it is instead of naming that key. */
  if (cJSON_IsObject(root) && !tf_json_member(root, "buffers") && tf_json_member(root, "smem") &&
      tf_json_member(root, "sm_count"))
    return tf_error_set(err, TF_EINPUT, "$", "this is a machine model, not a workset (give it with -m)");
  if (tf_json_keys(root, "$", keys, req, err) || tf_json_string(tf_json_member(root, "name"), "$.name", &name, err))
    return -1;
  if (tf_json_member(root, "comment") && tf_json_string(tf_json_member(root, "comment"), "$.comment", &comment, err))
    return -1;
  const char *why = tf_text_unfit(name, TF_MAX_NAME_BYTES);
  if (why || !*name)
    return tf_error_set(err, TF_EINPUT, "$.name", "a workset name of 1 to %d bytes of UTF-8 text; this one %s",
                        TF_MAX_NAME_BYTES, why ? why : "is empty");
  w->name = tf_strdup(name);
  w->comment = tf_strdup(comment);
  if (read_params(w, tf_json_member(root, "params"), err) || read_choose(w, tf_json_member(root, "choose"), err) ||
      read_counts(w, tf_json_member(root, "count"), err) ||
      tf_workset_read_lets(w, tf_json_member(root, "let"), "$.let", err) || tf_include_read(w, root, err) ||
      read_buffers(w, tf_json_member(root, "buffers"), err) || tf_place_finish(w, root, err) ||
      tf_lifetime_finish(w, root, err) || tf_roofline_read(w, root, err) || tf_shape_read(w, root, err) ||
      tf_latency_read(w, root, err) || tf_show_read(w, root, err) || tf_measured_error_read(w, root, err) ||
      tf_roles_read(w, root, err) || bind_all(w, err))
    return -1;
  return read_requires(w, tf_json_member(root, "require"), err) || read_objectives(w, root, err) ? -1 : 0;
}

tf_workset *tf_workset_parse(const char *text, size_t len, const char *file, tf_error *err) {
  cJSON *root = tf_json_parse(text, len, file, err);
  if (!root)
    return NULL;
  tf_workset *w = tf_nalloc(1, sizeof *w);
  w->file = tf_strdup(file);
  int bad = read_workset(w, root, err);
  cJSON_Delete(root);
  if (bad) {
    tf_error_set_file(err, file);
    tf_workset_free(w);
    return NULL;
  }
  return w;
}

tf_workset *tf_workset_load(const char *file, tf_error *err) {
  size_t len;
  char *text = tf_read_file(file, &len, err);
  if (!text)
    return NULL;
  tf_workset *w = tf_workset_parse(text, len, file, err);
  free(text);
  return w;
}

static void release_named(tf_named_expr *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].name);
    free(v[i].path);
    tf_expr_free(v[i].expr);
  }
  free(v);
}

void tf_objective_release(tf_objective *o) {
  tf_expr_free(o->expr);
  free(o->text);
  o->expr = NULL;
  o->text = NULL;
}

void tf_workset_free(tf_workset *w) {
  if (!w)
    return;
  free(w->show);
  for (size_t i = 0; i < w->nrules; i++)
    free(w->rules[i]), free(w->rule_archs[i]);
  free(w->rules);
  free(w->rule_archs);
  release_named(w->params, w->nparams);
  release_named(w->lets, w->nlets);
  release_named(w->require, w->nrequire);
  release_named(w->include_require, w->ninclude_require);
  for (size_t i = 0; i < w->nchoose; i++) {
    free(w->choose[i].name);
    free(w->choose[i].values);
  }
  free(w->choose);
  for (size_t i = 0; i < w->ncounts; i++) {
    free(w->counts[i].name);
    tf_expr_free(w->counts[i].min);
    tf_expr_free(w->counts[i].max);
  }
  free(w->counts);
  tf_lifetime_release(w);
  for (size_t i = 0; i < w->nbuffers; i++) {
    free(w->buffers[i].name);
    free(w->buffers[i].path);
    tf_place_release_buffer(&w->buffers[i]);
    tf_expr_free(w->buffers[i].align);
  }
  free(w->buffers);
  tf_place_release(w);
  free(w->flows);
  for (size_t i = 0; i < w->nobjective; i++)
    tf_objective_release(&w->objective[i]);
  free(w->objective);
  for (size_t i = 0; i < w->ntie_break; i++)
    tf_objective_release(&w->tie_break[i]);
  free(w->tie_break);
  for (int r = 0; r < TF_NROLES; r++)
    free(w->roles[r]);
  for (size_t i = 0; i < w->nmeasured_error; i++)
    free(w->measured_error[i].machine);
  free(w->measured_error);
  free(w->name);
  free(w->comment);
  free(w->file);
  tf_lets_release(&w->let_graph);
  tf_names_release(&w->symbols);
  tf_names_release(&w->buffer_names);
  free(w);
}

/* ------------------------------------------------ constraints, objectives */

tf_expr *tf_workset_parse_require(const tf_workset *w, const char *text, const char *where, tf_error *err) {
  tf_expr *e = tf_expr_parse_truth(text, err);
  if (!e)
    return tf_error_set_path(err, where), NULL;
  const tf_expr *l, *r;
  if (tf_expr_relation(e, &l, &r) == TF_REL_NONE) {
    tf_expr_free(e);
    tf_error_set(
        err, TF_EINPUT, where,
        "expected a comparison 'EXPR <= EXPR' (or <, >=, >, ==, !=) or a condition joined by &&, || or !, got '%s'",
        text);
    return NULL;
  }
  if (bind(w, e, err)) {
    tf_expr_free(e);
    tf_error_set_path(err, where);
    return NULL;
  }
  mark_count_free(w, e);
  return e;
}

int tf_workset_parse_objective(const tf_workset *w, const char *text, const char *where, tf_objective *out,
                               tf_error *err) {
  while (isspace((unsigned char)*text))
    text++;
  int maximize;
  if (!strncmp(text, "max", 3) && isspace((unsigned char)text[3]))
    maximize = 1;
  else if (!strncmp(text, "min", 3) && isspace((unsigned char)text[3]))
    maximize = 0;
  else
    return tf_error_set(err, TF_EINPUT, where, "expected 'max EXPR' or 'min EXPR', got '%s'", text);
  tf_expr *e = tf_expr_parse(text + 4, err);
  if (!e)
    return tf_error_set_path(err, where), -1;
  if (bind(w, e, err)) {
    tf_expr_free(e);
    return tf_error_set_path(err, where), -1;
  }
  mark_count_free(w, e);
  out->maximize = maximize;
  out->expr = e;
  out->text = tf_strdup(text);
  return 0;
}
