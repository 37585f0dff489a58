/* A sweep spec: lists whose Cartesian product is a set of problems (see
 * spec.h).  Parsed here, next to the problem-line parser (case.c); the
 * batch engine (solver/batch/) loads the worksets it names and runs the
 * points. */
#include "model/formats/spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/catalog.h"
#include "model/input/json_read.h"

static int has_param(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->nparams; i++)
    if (!strcmp(w->params[i].name, name))
      return 1;
  return 0;
}

static int has_choose(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->nchoose; i++)
    if (!strcmp(w->choose[i].name, name))
      return 1;
  return 0;
}

static int has_variable(const tf_workset *w, const char *name) {
  for (size_t i = 0; w && i < w->ncounts; i++)
    if (!strcmp(w->counts[i].name, name))
      return 1;
  return has_choose(w, name);
}

/* Does a require parse in w?  Why not goes to *why (may be NULL). */
static int binds_require(const tf_workset *w, const char *text, tf_error *why) {
  tf_error err;
  tf_error_init(&err);
  tf_expr *e = tf_workset_parse_require(w, text, "require", &err);
  tf_expr_free(e);
  if (!e && why)
    *why = err;
  return e != NULL;
}

static int binds_objectives(const tf_workset *w, const tf_spec_objectives *o, tf_error *why) {
  for (size_t i = 0; i < o->n; i++) {
    tf_error err;
    tf_error_init(&err);
    tf_objective obj;
    memset(&obj, 0, sizeof obj);
    int rc = tf_workset_parse_objective(w, o->texts[i], "objective", &obj, &err);
    tf_objective_release(&obj);
    if (rc) {
      if (why)
        *why = err;
      return 0;
    }
  }
  return 1;
}

/* A require or objective list that binds in no workset: why it does not
 * in the first that loads (an unknown name, or text that is no
 * expression at all: 'max'). */
static int unbound(const tf_spec *s, const tf_workset *const *ws, int objective, size_t i, const char *path,
                   tf_error *err) {
  size_t wi = 0;
  while (!ws[wi])
    wi++;
  tf_error why;
  tf_error_init(&why);
  if (objective)
    binds_objectives(ws[wi], &s->objectives[i], &why);
  else
    binds_require(ws[wi], s->requires[i], &why);
  return tf_error_set(err, TF_EINPUT, path, "binds in no workset of the sweep; in %s: %s", ws[wi]->name, why.msg);
}

/* "machines"/"worksets": a list of names, or "*" for every shipped one. */
static int read_names(const cJSON *v, const char *path, int kind, char ***out, size_t *n, tf_error *err) {
  if (cJSON_IsString(v) && !strcmp(v->valuestring, "*")) {
    *out = tf_catalog_list(kind, n);
    if (!*n)
      return tf_error_set(err, TF_EINPUT, path, "\"*\" found no shipped %s", kind ? "worksets" : "machines");
    return 0;
  }
  if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty list of names, or \"*\" for all shipped");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(v), sizeof **out);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, *n);
    if (!cJSON_IsString(x) || !x->valuestring[0])
      return tf_error_set(err, TF_EINPUT, sub, "expected a non-empty string");
    for (size_t i = 0; i < *n; i++)
      if (!strcmp((*out)[i], x->valuestring))
        return tf_error_set(err, TF_EINPUT, sub, "'%s' appears twice", x->valuestring);
    (*out)[(*n)++] = tf_strdup(x->valuestring);
  }
  return 0;
}

/* {"NAME": [integers] | {"from", "to", "step"} | integer, ...} */
static int read_lists(const cJSON *obj, const char *path, tf_spec_values **out, size_t *n, tf_error *err) {
  if (!obj)
    return 0;
  if (!cJSON_IsObject(obj))
    return tf_error_set(err, TF_EINPUT, path, "expected an object of NAME: [integers]");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(obj) + 1, sizeof **out);
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char sub[160];
    tf_path_key(sub, sizeof sub, path, m->string);
    tf_choose c;
    memset(&c, 0, sizeof c);
    if (cJSON_IsNumber(m)) {
      int64_t v;
      if (tf_json_int(m, sub, -TF_JSON_EXACT, TF_JSON_EXACT, &v, err))
        return -1;
      c.values = tf_nalloc(1, sizeof *c.values);
      c.values[0] = v;
      c.nvalues = 1;
    } else if (tf_read_domain(&c, m, sub, err)) {
      free(c.values);
      return -1;
    }
    (*out)[(*n)++] = (tf_spec_values){tf_strdup(m->string), c.values, c.nvalues};
  }
  return 0;
}

/* A string, or a list of strings. */
static int read_strings(const cJSON *v, const char *path, int allow_empty, char ***out, size_t *n, tf_error *err) {
  if (!v)
    return 0;
  if (cJSON_IsString(v)) {
    *out = tf_nalloc(1, sizeof **out);
    (*out)[(*n)++] = tf_strdup(v->valuestring);
    return 0;
  }
  if (!cJSON_IsArray(v) || (!allow_empty && !cJSON_GetArraySize(v)))
    return tf_error_set(err, TF_EINPUT, path, "expected a string or a list of strings");
  *out = tf_nalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, *n);
    if (!cJSON_IsString(x))
      return tf_error_set(err, TF_EINPUT, sub, "expected a string");
    (*out)[(*n)++] = tf_strdup(x->valuestring);
  }
  return 0;
}

/* "objectives": a list whose items are each a string (one objective) or a
 * list of strings (lexicographic; [] for the workset's own). */
static int read_objectives(tf_spec *s, const cJSON *v, tf_error *err) {
  if (!v)
    return 0;
  if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
    return tf_error_set(err, TF_EINPUT, "$.objectives",
                        "expected a non-empty list of objective lists, e.g. [[], \"max stages\"]");
  s->objectives = tf_nalloc((size_t)cJSON_GetArraySize(v), sizeof *s->objectives);
  const cJSON *x;
  cJSON_ArrayForEach(x, v) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.objectives", s->nobjectives);
    tf_spec_objectives *o = &s->objectives[s->nobjectives++];
    if (read_strings(x, sub, 1, &o->texts, &o->n, err))
      return -1;
  }
  return 0;
}

/* Names `where` filters may use: the swept params, then the swept fixes. */
struct where_ctx {
  const tf_spec *s;
};

static int where_resolve(void *ctx, const char *name) {
  const tf_spec *s = ((struct where_ctx *)ctx)->s;
  for (size_t i = 0; i < s->nparams; i++)
    if (!strcmp(s->params[i].name, name))
      return (int)i;
  for (size_t i = 0; i < s->nfixes; i++)
    if (!strcmp(s->fixes[i].name, name))
      return (int)(s->nparams + i);
  return -1;
}

static int read_where(tf_spec *s, const cJSON *v, tf_error *err) {
  char **texts = NULL;
  size_t n = 0;
  int rc = read_strings(v, "$.where", 0, &texts, &n, err);
  s->where = tf_nalloc(n + 1, sizeof *s->where);
  struct where_ctx ctx = {s};
  for (size_t i = 0; i < n; i++) {
    char sub[160];
    tf_path_index(sub, sizeof sub, "$.where", i);
    tf_expr *e = rc ? NULL : tf_expr_parse(texts[i], err);
    if (!rc && !e)
      tf_error_set_path(err, sub), rc = -1;
    if (e) {
      s->where[s->nwhere++] = e;
      if (tf_expr_bind(e, where_resolve, &ctx, err))
        tf_error_set_path(err, sub), rc = -1;
    }
    free(texts[i]);
  }
  free(texts);
  return rc;
}

/* Applicability table: for spec workset i, entry j over params, fixes,
 * domains, requires, objectives. */
static unsigned char *applies_row(const tf_spec *s, size_t wi) { return s->applies + wi * s->napplies; }

/* The name of group g (0 params, 1 variables, 2 choose variables) nearest
 * to `name` in any loaded workset of the sweep, as " did you mean ...",
 * into buf ("" when none is near: model/core/suggest.h). */
static void nearest_name(const tf_spec *s, const tf_workset *const *ws, int g, const char *name, char *buf,
                         size_t size) {
  size_t n = 0, cap = 0;
  const char **names = NULL;
  for (size_t wi = 0; wi < s->nworksets; wi++) {
    const tf_workset *w = ws[wi];
    for (size_t i = 0; w && g == 0 && i < w->nparams; i++)
      TF_PUSH(names, n, cap, w->params[i].name);
    for (size_t i = 0; w && g == 1 && i < w->ncounts; i++)
      TF_PUSH(names, n, cap, w->counts[i].name);
    for (size_t i = 0; w && g > 0 && i < w->nchoose; i++)
      TF_PUSH(names, n, cap, w->choose[i].name);
  }
  const char *near = tf_suggest(name, names, n);
  buf[0] = 0;
  if (near)
    snprintf(buf, size, "; did you mean '%s'?", near);
  free(names);
}

static int compute_applies(tf_spec *s, const tf_workset *const *ws, tf_error *err) {
  s->napplies = s->nparams + s->nfixes + s->ndomains + s->nrequires + s->nobjectives + 1;
  s->applies = tf_nalloc(s->nworksets * s->napplies + 1, 1);
  int any_loaded = 0;
  for (size_t wi = 0; wi < s->nworksets; wi++) {
    const tf_workset *w = ws[wi];
    unsigned char *a = applies_row(s, wi);
    size_t j = 0;
    any_loaded |= w != NULL;
    for (size_t i = 0; i < s->nparams; i++)
      a[j++] = has_param(w, s->params[i].name);
    for (size_t i = 0; i < s->nfixes; i++)
      a[j++] = has_variable(w, s->fixes[i].name);
    for (size_t i = 0; i < s->ndomains; i++)
      a[j++] = has_choose(w, s->domains[i].name);
    for (size_t i = 0; i < s->nrequires; i++)
      a[j++] = w && binds_require(w, s->requires[i], NULL);
    for (size_t i = 0; i < s->nobjectives; i++)
      a[j++] = !w || binds_objectives(w, &s->objectives[i], NULL); /* a workset that does not load: error lines */
  }
  if (!any_loaded)
    return 0; /* nothing to check names against */
  static const char *const what[] = {"params", "fix", "domain", "require", "objectives"};
  size_t counts[] = {s->nparams, s->nfixes, s->ndomains, s->nrequires, s->nobjectives};
  size_t j = 0;
  for (int g = 0; g < 5; g++)
    for (size_t i = 0; i < counts[g]; i++, j++) {
      int used = 0;
      for (size_t wi = 0; wi < s->nworksets && !used; wi++)
        used = ws[wi] && applies_row(s, wi)[j];
      if (used)
        continue;
      char group[32], path[160];
      snprintf(group, sizeof group, "$.%s", what[g]);
      if (g < 3) {
        const tf_spec_values *v = g == 0 ? &s->params[i] : g == 1 ? &s->fixes[i] : &s->domains[i];
        char near[160];
        tf_path_key(path, sizeof path, group, v->name);
        nearest_name(s, ws, g, v->name, near, sizeof near);
        return tf_error_set(err, TF_EINPUT, path, "no workset of the sweep has a %s '%s'%s",
                            g == 0   ? "param"
                            : g == 1 ? "variable"
                                     : "choose variable",
                            v->name, near);
      }
      tf_path_index(path, sizeof path, group, i);
      return unbound(s, ws, g == 4, i, path, err);
    }
  return 0;
}

static int32_t *point_sel(const tf_spec *s, size_t i) { return s->sel + i * s->stride; }

struct symbol_check {
  const int *set;
  int ok;
};
static void symbol_is_set(void *ctx, int sym) {
  struct symbol_check *c = ctx;
  if (!c->set[sym])
    c->ok = 0;
}

/* Scratch for expansion, sized by the spec and allocated once: the
 * odometer over the point's swept values and the symbols `where` sees. */
struct expansion {
  int32_t *vals; /* per param then fix: the value index, -1 when it does not apply */
  size_t *dims, *lens;
  tf_affine *syms; /* per param then fix: its value (constant) */
  int *set;        /* per param then fix: does the point set it */
};

static void expansion_init(struct expansion *x, size_t nd) {
  x->vals = tf_nalloc(nd + 1, sizeof *x->vals);
  x->dims = tf_nalloc(nd + 1, sizeof *x->dims);
  x->lens = tf_nalloc(nd + 1, sizeof *x->lens);
  x->syms = tf_nalloc(nd + 1, sizeof *x->syms);
  x->set = tf_nalloc(nd + 1, sizeof *x->set);
}

static void expansion_release(struct expansion *x) {
  free(x->vals);
  free(x->dims);
  free(x->lens);
  free(x->syms);
  free(x->set);
}

/* Does the point pass every `where` filter that applies to it? */
static int passes_where(const tf_spec *s, struct expansion *x, size_t mi, size_t wi, tf_error *err) {
  size_t nsym = s->nparams + s->nfixes;
  const int32_t *vals = x->vals;
  for (size_t k = 0; k < nsym; k++) {
    x->set[k] = vals[k] >= 0;
    x->syms[k] = (tf_affine){0};
    if (x->set[k])
      x->syms[k].c = k < s->nparams ? s->params[k].v[vals[k]] : s->fixes[k - s->nparams].v[vals[k]];
  }
  tf_eval_env env = {x->syms, 0, NULL};
  for (size_t i = 0; i < s->nwhere; i++) {
    struct symbol_check c = {x->set, 1};
    tf_expr_each_symbol(s->where[i], symbol_is_set, &c);
    if (!c.ok)
      continue;
    int64_t v;
    if (tf_expr_eval_const(s->where[i], &env, &v, err)) {
      char path[160];
      tf_path_index(path, sizeof path, "$.where", i);
      tf_error_set_path(err, path);
      snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (at %s, %s)", s->machines[mi],
               s->worksets[wi]);
      return -1;
    }
    if (!v)
      return 0;
  }
  return 1;
}

static int push_point(tf_spec *s, size_t mi, size_t wi, size_t oi, const int32_t *vals, tf_error *err) {
  if (s->npoints >= TF_SPEC_MAX_POINTS)
    return tf_error_set(err, TF_EINPUT, "$", "the sweep has more than %d points", TF_SPEC_MAX_POINTS);
  if (s->npoints == s->capsel) {
    s->capsel = s->capsel ? 2 * s->capsel : 256;
    s->sel = tf_nrealloc(s->sel, s->capsel * s->stride, sizeof *s->sel);
  }
  int32_t *p = point_sel(s, s->npoints++);
  p[0] = (int32_t)mi, p[1] = (int32_t)wi, p[2] = (int32_t)oi;
  memcpy(p + 3, vals, (s->nparams + s->nfixes) * sizeof *vals);
  return 0;
}

/* The points of one machine and spec workset: the odometer over the
 * swept values that apply to the workset, last fastest, then objectives. */
static int expand_workset(tf_spec *s, struct expansion *x, size_t mi, size_t wi, tf_error *err) {
  size_t nd = s->nparams + s->nfixes, n = 0;
  const unsigned char *a = applies_row(s, wi);
  for (size_t d = 0; d < nd; d++) {
    x->vals[d] = -1;
    if (a[d]) {
      x->dims[n] = d;
      x->lens[n++] = d < s->nparams ? s->params[d].n : s->fixes[d - s->nparams].n;
    }
  }
  for (size_t k = 0; k < n; k++)
    x->vals[x->dims[k]] = 0;
  for (;;) {
    int keep = passes_where(s, x, mi, wi, err);
    if (keep < 0)
      return -1;
    for (size_t oi = 0; keep && oi < (s->nobjectives ? s->nobjectives : 1); oi++)
      if ((!s->nobjectives || a[nd + s->ndomains + s->nrequires + oi]) && push_point(s, mi, wi, oi, x->vals, err))
        return -1;
    size_t k = n;
    while (k > 0 && (size_t)++x->vals[x->dims[k - 1]] == x->lens[k - 1])
      x->vals[x->dims[--k]] = 0;
    if (k == 0)
      return 0;
  }
}

/* machines x worksets x params x fixes x objectives, last fastest; a pair
 * arch_ok rules out is expanded only to count its points. */
static int expand(tf_spec *s, const unsigned char *arch_ok, tf_error *err) {
  s->stride = 3 + s->nparams + s->nfixes;
  struct expansion x;
  expansion_init(&x, s->nparams + s->nfixes);
  int rc = 0;
  for (size_t mi = 0; mi < s->nmachines && !rc; mi++)
    for (size_t wi = 0; wi < s->nworksets && !rc; wi++) {
      size_t before = s->npoints;
      rc = expand_workset(s, &x, mi, wi, err);
      if (arch_ok && !arch_ok[mi * s->nworksets + wi])
        s->skipped_arch += s->npoints - before, s->npoints = before;
    }
  expansion_release(&x);
  return rc;
}

/* A spec's keys: the request fields a spec sweeps (model/input/request.h's
 * `spec` column), then its own. */
static void spec_keys(const char **keys) {
  size_t n = 0;
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    if (*tf_request_fields[i].spec)
      keys[n++] = tf_request_fields[i].spec;
  keys[n++] = "where";
  keys[n++] = "comment";
  keys[n] = NULL;
}

static int parse(tf_spec *s, const cJSON *root, tf_error *err) {
  const char *keys[TF_NREQUEST_FIELDS + 3];
  static const char *const required[] = {"machines", "worksets", NULL};
  spec_keys(keys);
  if (tf_json_keys(root, "$", keys, required, err))
    return -1;
  int rc = read_names(tf_json_member(root, "machines"), "$.machines", TF_CATALOG_MACHINES, &s->machines, &s->nmachines,
                      err) ||
                   read_names(tf_json_member(root, "worksets"), "$.worksets", TF_CATALOG_WORKSETS, &s->worksets,
                              &s->nworksets, err) ||
                   read_lists(tf_json_member(root, "params"), "$.params", &s->params, &s->nparams, err) ||
                   read_lists(tf_json_member(root, "fix"), "$.fix", &s->fixes, &s->nfixes, err) ||
                   read_lists(tf_json_member(root, "domain"), "$.domain", &s->domains, &s->ndomains, err) ||
                   read_strings(tf_json_member(root, "require"), "$.require", 0, &s->requires, &s->nrequires, err) ||
                   read_objectives(s, tf_json_member(root, "objectives"), err)
               ? -1
               : 0;
  for (size_t i = 0; i < s->nfixes && !rc; i++)
    for (size_t j = 0; j < s->nparams && !rc; j++)
      if (!strcmp(s->fixes[i].name, s->params[j].name))
        rc = tf_error_set(err, TF_EINPUT, "$.fix", "'%s' is both a param and a fix", s->fixes[i].name);
  const cJSON *where = tf_json_member(root, "where"), *any = tf_json_member(root, "any_arch");
  if (rc || (where && read_where(s, where, err)))
    return -1;
  if (any && !cJSON_IsBool(any))
    return tf_error_set(err, TF_EINPUT, "$.any_arch", "expected true or false");
  s->any_arch = cJSON_IsTrue(any);
  const cJSON *solver = tf_json_member(root, "solver");
  const char *name;
  if (solver && tf_json_string(solver, "$.solver", &name, err))
    return -1;
  s->solver = solver ? tf_strdup(name) : NULL;
  return 0;
}

int tf_spec_read(tf_spec *s, const cJSON *root, const char *file, tf_error *err) {
  memset(s, 0, sizeof *s);
  int rc = cJSON_IsObject(root) ? parse(s, root, err)
                                : tf_error_set(err, TF_EINPUT, "$",
                                               "expected a sweep spec object (a problem list "
                                               "is a file ending in .jsonl)");
  if (rc)
    tf_error_set_file(err, file);
  return rc;
}

int tf_spec_parse(tf_spec *s, const char *text, size_t len, const char *file, tf_error *err) {
  memset(s, 0, sizeof *s);
  cJSON *root = tf_json_parse(text, len, file, err);
  if (!root)
    return -1;
  int rc = tf_spec_read(s, root, file, err);
  cJSON_Delete(root);
  return rc;
}

int tf_spec_expand(tf_spec *s, const tf_workset *const *ws, const unsigned char *arch_ok, tf_error *err) {
  return compute_applies(s, ws, err) || expand(s, arch_ok, err) ? -1 : 0;
}

void tf_spec_release(tf_spec *s) {
  free(s->solver);
  char **names[] = {s->machines, s->worksets, s->requires};
  size_t nnames[] = {s->nmachines, s->nworksets, s->nrequires};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < nnames[l]; i++)
      free(names[l][i]);
    free(names[l]);
  }
  tf_spec_values *lists[] = {s->params, s->fixes, s->domains};
  size_t nlists[] = {s->nparams, s->nfixes, s->ndomains};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < nlists[l]; i++)
      free(lists[l][i].name), free(lists[l][i].v);
    free(lists[l]);
  }
  for (size_t i = 0; i < s->nobjectives; i++) {
    for (size_t j = 0; j < s->objectives[i].n; j++)
      free(s->objectives[i].texts[j]);
    free(s->objectives[i].texts);
  }
  free(s->objectives);
  for (size_t i = 0; i < s->nwhere; i++)
    tf_expr_free(s->where[i]);
  free(s->where);
  free(s->applies);
  free(s->sel);
  memset(s, 0, sizeof *s);
}

char *tf_spec_id(const tf_spec *s, size_t i) {
  const int32_t *p = point_sel(s, i);
  tf_text t;
  FILE *f = tf_text_open(&t);
  fprintf(f, "%s/%s", s->machines[p[0]], s->worksets[p[1]]);
  const int32_t *vals = p + 3;
  int first = 1;
  for (size_t k = 0; k < s->nparams; k++)
    if (vals[k] >= 0) {
      fprintf(f, "%s%s=%lld", first ? "/" : ",", s->params[k].name, (long long)s->params[k].v[vals[k]]);
      first = 0;
    }
  first = 1;
  for (size_t k = 0; k < s->nfixes; k++)
    if (vals[s->nparams + k] >= 0) {
      fprintf(f, "%s%s=%lld", first ? "/fix:" : ",", s->fixes[k].name, (long long)s->fixes[k].v[vals[s->nparams + k]]);
      first = 0;
    }
  if (s->nobjectives)
    fprintf(f, "/o%d", p[2] + 1);
  return tf_text_close(&t, NULL);
}

void tf_spec_request(const tf_spec *s, size_t i, tf_request *req) {
  const int32_t *p = point_sel(s, i);
  const unsigned char *a = applies_row(s, (size_t)p[1]);
  const int32_t *vals = p + 3;
  char where[160];
  req->id = tf_spec_id(s, i);
  req->machine = tf_strdup(s->machines[p[0]]);
  req->workset = tf_strdup(s->worksets[p[1]]);
  req->any_arch = s->any_arch;
  if (s->solver)
    req->solver = tf_strdup(s->solver);
  for (size_t k = 0; k < s->nparams; k++)
    if (vals[k] >= 0) {
      tf_path_key(where, sizeof where, "$.params", s->params[k].name);
      tf_request_add_param(req, s->params[k].name, s->params[k].v[vals[k]], where);
    }
  for (size_t k = 0; k < s->nfixes; k++)
    if (vals[s->nparams + k] >= 0) {
      tf_path_key(where, sizeof where, "$.fix", s->fixes[k].name);
      tf_request_add_fix(req, s->fixes[k].name, s->fixes[k].v[vals[s->nparams + k]], where);
    }
  size_t j = s->nparams + s->nfixes;
  for (size_t k = 0; k < s->ndomains; k++, j++)
    if (a[j]) {
      tf_path_key(where, sizeof where, "$.domain", s->domains[k].name);
      tf_request_add_domain(req, s->domains[k].name, s->domains[k].v, s->domains[k].n, where);
    }
  for (size_t k = 0; k < s->nrequires; k++, j++)
    if (a[j]) {
      tf_path_index(where, sizeof where, "$.require", k);
      tf_request_add_require(req, s->requires[k], where);
    }
  if (s->nobjectives) {
    const tf_spec_objectives *o = &s->objectives[p[2]];
    for (size_t k = 0; k < o->n; k++) {
      snprintf(where, sizeof where, "$.objectives[%d][%zu]", p[2], k);
      tf_request_add_objective(req, o->texts[k], where);
    }
  }
}
