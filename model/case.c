#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json.h"

void tf_case_init(tf_case *c) {
  memset(c, 0, sizeof *c);
  tf_request_init(&c->req);
  c->expect_fits = -1;
}

void tf_case_release(tf_case *c) {
  tf_request_release(&c->req);
  for (size_t i = 0; i < c->nexpect; i++)
    free(c->expect[i].name), free(c->expect[i].where);
  free(c->expect);
  for (size_t i = 0; i < c->nexpect_place; i++)
    free(c->expect_place[i].buffer), free(c->expect_place[i].where);
  free(c->expect_place);
  free(c->comment);
  tf_case_init(c);
}

const char *tf_case_kind_name(int kind) {
  static const char *const names[] = {"formula", "tuned", "fits"};
  return names[kind];
}

struct ctx {
  char prefix[32]; /* "line 12: " */
  tf_error *err;
};

static void path_of(const struct ctx *x, char *buf, size_t size, const char *sub) {
  snprintf(buf, size, "%s%s", x->prefix, sub);
}

/* {"NAME": integer, ...} into the callback */
static int read_assignments(const struct ctx *x, const cJSON *obj, const char *key,
                            void (*add)(tf_request *, const char *, int64_t, const char *), tf_case *c) {
  char path[160], sub[160];
  snprintf(sub, sizeof sub, "$.%s", key);
  path_of(x, path, sizeof path, sub);
  if (!cJSON_IsObject(obj))
    return tf_error_set(x->err, TF_EINPUT, path, "expected an object of NAME: integer");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    tf_path_key(mp, sizeof mp, path, m->string);
    int64_t v;
    if (tf_json_int(m, mp, -TF_JSON_EXACT, TF_JSON_EXACT, &v, x->err))
      return -1;
    add(&c->req, m->string, v, mp);
  }
  return 0;
}

static int read_domains(const struct ctx *x, const cJSON *obj, tf_case *c) {
  char path[160];
  path_of(x, path, sizeof path, "$.domain");
  if (!cJSON_IsObject(obj))
    return tf_error_set(x->err, TF_EINPUT, path, "expected an object of NAME: [values]");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    tf_path_key(mp, sizeof mp, path, m->string);
    tf_choose d;
    memset(&d, 0, sizeof d);
    int rc = tf_read_domain(&d, m, mp, x->err);
    if (!rc)
      tf_request_add_domain(&c->req, m->string, d.values, d.nvalues, mp);
    free(d.values);
    if (rc)
      return -1;
  }
  return 0;
}

static int read_texts(const struct ctx *x, const cJSON *arr, const char *key,
                      void (*add)(tf_request *, const char *, const char *), tf_case *c) {
  char path[160], sub[160];
  snprintf(sub, sizeof sub, "$.%s", key);
  path_of(x, path, sizeof path, sub);
  if (cJSON_IsString(arr)) { /* a single string is a one-element list */
    add(&c->req, arr->valuestring, path);
    return 0;
  }
  if (!cJSON_IsArray(arr))
    return tf_error_set(x->err, TF_EINPUT, path, "expected a list of strings");
  size_t i = 0;
  const cJSON *v;
  cJSON_ArrayForEach(v, arr) {
    char ip[160];
    tf_path_index(ip, sizeof ip, path, i++);
    if (!cJSON_IsString(v))
      return tf_error_set(x->err, TF_EINPUT, ip, "expected a string");
    add(&c->req, v->valuestring, ip);
  }
  return 0;
}

/* "smem", or with `list` also ["rf", "smem"]: memory ids, each once. */
static int read_mems(const struct ctx *x, const cJSON *v, const char *path, int list, int *mems, int *n) {
  const cJSON *one = cJSON_IsArray(v) && list ? v->child : v;
  *n = 0;
  if (!one || (!cJSON_IsArray(v) && !cJSON_IsString(v)) || (cJSON_IsArray(v) && !list))
    return tf_error_set(x->err, TF_EINPUT, path, list ? "expected a memory or a non-empty list of memories" : "expected a memory (smem, tmem or rf)");
  for (; one; one = cJSON_IsArray(v) ? one->next : NULL) {
    int m = cJSON_IsString(one) ? tf_memory_find(one->valuestring) : -1;
    for (int i = 0; m >= 0 && i < *n; i++)
      if (mems[i] == m)
        return tf_error_set(x->err, TF_EINPUT, path, "'%s' is listed twice", one->valuestring);
    if (m < 0)
      return tf_error_set(x->err, TF_EINPUT, path, "expected smem, tmem or rf");
    mems[(*n)++] = m;
  }
  return 0;
}

/* {"BUFFER": memory or [memories], ...} into pins (`list`) or expectations. */
static int read_places(const struct ctx *x, const cJSON *obj, const char *sub, int list, tf_case *c) {
  char path[160];
  path_of(x, path, sizeof path, sub);
  if (!cJSON_IsObject(obj))
    return tf_error_set(x->err, TF_EINPUT, path, "expected an object of BUFFER: memory");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    int mems[TF_PLACE_MAX_MEMS], n;
    tf_path_key(mp, sizeof mp, path, m->string);
    if (read_mems(x, m, mp, list, mems, &n))
      return -1;
    if (list) {
      tf_request_add_place(&c->req, m->string, mems, n, mp);
      continue;
    }
    tf_place_req q = {tf_strdup(m->string), {mems[0]}, 1, tf_strdup(mp)};
    TF_PUSH(c->expect_place, c->nexpect_place, c->capexpect_place, q);
  }
  return 0;
}

static void add_expect(tf_case *c, const char *name, int64_t v, const char *where) {
  c->expect = tf_nrealloc(c->expect, c->nexpect + 1, sizeof *c->expect);
  c->expect[c->nexpect++] = (tf_assign){tf_strdup(name), v, tf_strdup(where)};
}

static int read_expect(const struct ctx *x, const cJSON *obj, tf_case *c) {
  char path[160];
  path_of(x, path, sizeof path, "$.expect");
  if (!cJSON_IsObject(obj) || !obj->child)
    return tf_error_set(x->err, TF_EINPUT, path, "expected an object of NAME: integer or {\"fits\": true|false}");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    tf_path_key(mp, sizeof mp, path, m->string);
    if (!strcmp(m->string, "fits")) {
      if (!cJSON_IsBool(m))
        return tf_error_set(x->err, TF_EINPUT, mp, "expected true or false");
      c->expect_fits = cJSON_IsTrue(m);
      continue;
    }
    if (!strcmp(m->string, "placement")) {
      if (read_places(x, m, "$.expect.placement", 0, c))
        return -1;
      continue;
    }
    int64_t v;
    if (tf_json_int(m, mp, -TF_JSON_EXACT, TF_JSON_EXACT, &v, x->err))
      return -1;
    add_expect(c, m->string, v, mp);
  }
  return 0;
}

static int read_string(const struct ctx *x, const cJSON *v, const char *key, char **out) {
  char path[160], sub[160];
  snprintf(sub, sizeof sub, "$.%s", key);
  path_of(x, path, sizeof path, sub);
  const char *s;
  if (tf_json_string(v, path, &s, x->err))
    return -1;
  if (!*s)
    return tf_error_set(x->err, TF_EINPUT, path, "expected a non-empty string");
  *out = tf_strdup(s);
  return 0;
}

static int read_kind(const struct ctx *x, const cJSON *v, tf_case *c) {
  char path[160];
  path_of(x, path, sizeof path, "$.kind");
  for (int k = TF_KIND_FORMULA; k <= TF_KIND_FITS; k++)
    if (cJSON_IsString(v) && !strcmp(v->valuestring, tf_case_kind_name(k))) {
      c->kind = k;
      c->has_kind = 1;
      return 0;
    }
  return tf_error_set(x->err, TF_EINPUT, path, "expected \"formula\", \"tuned\" or \"fits\"");
}

static int read_case(const struct ctx *x, const cJSON *root, tf_case *c) {
  static const char *const keys[] = {"id", "machine", "workset", "params", "fix", "domain", "require",
                                     "objective", "place", "any_arch", "expect", "kind", "comment", NULL};
  char path[160];
  path_of(x, path, sizeof path, "$");
  if (tf_json_keys(root, path, keys, NULL, x->err))
    return -1;
  static const char *const required[] = {"machine", "workset"};
  for (int i = 0; i < 2; i++)
    if (!tf_json_member(root, required[i]))
      return tf_error_set(x->err, TF_EINPUT, path, "missing required key '%s'", required[i]);
  const cJSON *v;
  if ((v = tf_json_member(root, "id")) && read_string(x, v, "id", &c->req.id))
    return -1;
  if (read_string(x, tf_json_member(root, "machine"), "machine", &c->req.machine) ||
      read_string(x, tf_json_member(root, "workset"), "workset", &c->req.workset))
    return -1;
  if ((v = tf_json_member(root, "params")) && read_assignments(x, v, "params", tf_request_add_param, c))
    return -1;
  if ((v = tf_json_member(root, "fix")) && read_assignments(x, v, "fix", tf_request_add_fix, c))
    return -1;
  if ((v = tf_json_member(root, "domain")) && read_domains(x, v, c))
    return -1;
  if ((v = tf_json_member(root, "require")) && read_texts(x, v, "require", tf_request_add_require, c))
    return -1;
  if ((v = tf_json_member(root, "objective")) && read_texts(x, v, "objective", tf_request_add_objective, c))
    return -1;
  if ((v = tf_json_member(root, "place")) && read_places(x, v, "$.place", 1, c))
    return -1;
  if ((v = tf_json_member(root, "any_arch"))) {
    path_of(x, path, sizeof path, "$.any_arch");
    if (!cJSON_IsBool(v))
      return tf_error_set(x->err, TF_EINPUT, path, "expected true or false");
    c->req.any_arch = cJSON_IsTrue(v);
  }
  if ((v = tf_json_member(root, "expect")) && read_expect(x, v, c))
    return -1;
  if ((v = tf_json_member(root, "kind")) && read_kind(x, v, c))
    return -1;
  if ((v = tf_json_member(root, "comment")) && read_string(x, v, "comment", &c->comment))
    return -1;
  if (!c->has_kind)
    c->kind = c->expect_fits >= 0 ? TF_KIND_FITS : TF_KIND_FORMULA;
  return 0;
}

int tf_case_parse(const char *text, size_t len, const char *file, size_t line, tf_case *c, tf_error *err) {
  struct ctx x;
  x.prefix[0] = 0; /* line 0: an object on its own (the library's JSON entry point) */
  if (line)
    snprintf(x.prefix, sizeof x.prefix, "line %zu: ", line);
  x.err = err;
  tf_error e;
  tf_error_init(&e);
  cJSON *root = tf_json_parse(text, len, file, &e);
  if (!root) {
    /* syntax errors carry no path; their "line L, column C" counts from
     * the start of `text`, which is line `line` of the file */
    int l = 0, col = 0, n = 0;
    if (sscanf(e.msg, "line %d, column %d: %n", &l, &col, &n) == 2 && n > 0 && l >= 1)
      tf_error_set(err, TF_EINPUT, NULL, "line %zu, column %d: %s", line + (size_t)l - 1, col, e.msg + n);
    else
      tf_error_set(err, TF_EINPUT, NULL, "line %zu: %s", line, e.msg);
    tf_error_set_file(err, file);
    return -1;
  }
  int rc = read_case(&x, root, c);
  cJSON_Delete(root);
  if (rc)
    tf_error_set_file(err, file);
  return rc;
}

/* ---------------------------------------------------------------- writing */

/* "KEY":{"NAME":V,...} for params and fixes. */
static void write_assignments(FILE *f, const char *sep, const char *key, const tf_assign *v, size_t n) {
  fprintf(f, "%s\"%s\":{", sep, key);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? "," : "", f);
    tf_json_write_string(f, v[i].name);
    fprintf(f, ":%lld", (long long)v[i].value);
  }
  fputc('}', f);
}

static void write_domains(FILE *f, const char *sep, const tf_request *req) {
  fprintf(f, "%s\"domain\":{", sep);
  for (size_t i = 0; i < req->ndomains; i++) {
    fputs(i ? "," : "", f);
    tf_json_write_string(f, req->domains[i].name);
    fputs(":[", f);
    for (size_t k = 0; k < req->domains[i].nvalues; k++)
      fprintf(f, "%s%lld", k ? "," : "", (long long)req->domains[i].values[k]);
    fputc(']', f);
  }
  fputc('}', f);
}

static void write_texts(FILE *f, const char *sep, const char *key, const tf_text_req *v, size_t n) {
  fprintf(f, "%s\"%s\":[", sep, key);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? "," : "", f);
    tf_json_write_string(f, v[i].text);
  }
  fputc(']', f);
}

static void write_places(FILE *f, const char *sep, const tf_request *req) {
  fprintf(f, "%s\"place\":{", sep);
  for (size_t i = 0; i < req->nplaces; i++) {
    fputs(i ? "," : "", f);
    tf_json_write_string(f, req->places[i].buffer);
    fputs(":[", f);
    for (int k = 0; k < req->places[i].nmems; k++)
      fprintf(f, "%s\"%s\"", k ? "," : "", tf_memory_name(req->places[i].mems[k]));
    fputc(']', f);
  }
  fputc('}', f);
}

void tf_case_write_input(FILE *f, const tf_request *req, int fits) {
  const char *sep = "";
  fputc('{', f);
  if (req->nparams)
    write_assignments(f, sep, "params", req->params, req->nparams), sep = ",";
  if (req->nfixes)
    write_assignments(f, sep, "fix", req->fixes, req->nfixes), sep = ",";
  if (req->ndomains)
    write_domains(f, sep, req), sep = ",";
  if (req->nrequires)
    write_texts(f, sep, "require", req->requires, req->nrequires), sep = ",";
  if (req->nobjectives)
    write_texts(f, sep, "objective", req->objectives, req->nobjectives), sep = ",";
  if (req->nplaces)
    write_places(f, sep, req), sep = ",";
  if (req->any_arch)
    fprintf(f, "%s\"any_arch\":true", sep), sep = ",";
  if (fits)
    fprintf(f, "%s\"kind\":\"fits\"", sep);
  fputc('}', f);
}
