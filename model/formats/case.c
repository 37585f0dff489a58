#include "model/formats/case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/suggest.h"
#include "model/formats/cutlass_types.h"
#include "model/input/json_read.h"

void tf_case_init(tf_case *c) {
  memset(c, 0, sizeof *c);
  tf_request_init(&c->req);
  tf_measured_init(&c->measured);
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
  tf_measured_release(&c->measured);
  tf_case_init(c);
}

const char *tf_case_kind_name(int kind) {
  static const char *const names[] = {"formula", "tuned", "fits", "measured"};
  return names[kind];
}

struct ctx {
  char prefix[32]; /* "line 12: " */
  char root[64];   /* what "$" stands for: "$", or "$.problems[3]" for an object inside another */
  tf_error *err;
};

/* prefix + sub, with sub's leading "$" (every sub has one) read as root. */
static void path_of(const struct ctx *x, char *buf, size_t size, const char *sub) {
  snprintf(buf, size, "%s%s%s", x->prefix, x->root, sub[0] == '$' ? sub + 1 : sub);
}

/* The path of a request field: "line 12: $.params". */
static void field_path(const struct ctx *x, size_t field, char *buf, size_t size) {
  char sub[64];
  snprintf(sub, sizeof sub, "$.%s", tf_request_fields[field].key);
  path_of(x, buf, size, sub);
}

/* A param's value given by name, "a_type": "bf16" or "c_layout": "t", as
 * -p a_type=bf16 reads it (cutlass_types.h); other params refuse strings. */
static int symbolic(const struct ctx *x, const cJSON *m, const char *path, int64_t *value) {
  char symbols[256];
  if (!tf_cl_param_symbol(m->string, m->valuestring, value))
    return 0;
  return tf_error_set(x->err, TF_EINPUT, path, "expected an integer%s%s, got '%s'",
                      *tf_cl_symbols(m->string, symbols, sizeof symbols) ? " or one of " : "", symbols, m->valuestring);
}

/* {"NAME": integer, ...}; a params value may also be a symbol (symbolic) */
static int read_assignments(const struct ctx *x, const cJSON *obj, size_t field, tf_case *c) {
  char path[160];
  field_path(x, field, path, sizeof path);
  if (!cJSON_IsObject(obj))
    return tf_error_set(x->err, TF_EINPUT, path, "expected an object of NAME: integer");
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    char mp[160];
    tf_path_key(mp, sizeof mp, path, m->string);
    tf_assign a = {m->string, 0, mp};
    if (field == TF_RQF_params && cJSON_IsString(m)
            ? symbolic(x, m, mp, &a.value)
            : tf_json_int(m, mp, -TF_JSON_EXACT, TF_JSON_EXACT, &a.value, x->err))
      return -1;
    tf_request_add(&c->req, field, &a);
  }
  return 0;
}

static int read_domains(const struct ctx *x, const cJSON *obj, size_t field, tf_case *c) {
  char path[160];
  field_path(x, field, path, sizeof path);
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
      tf_request_add(&c->req, field, &(tf_domain_req){m->string, d.values, d.nvalues, mp});
    free(d.values);
    if (rc)
      return -1;
  }
  return 0;
}

static int read_texts(const struct ctx *x, const cJSON *arr, size_t field, tf_case *c) {
  char path[160];
  field_path(x, field, path, sizeof path);
  if (cJSON_IsString(arr)) { /* a single string is a one-element list */
    tf_request_add(&c->req, field, &(tf_text_req){arr->valuestring, path});
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
    tf_request_add(&c->req, field, &(tf_text_req){v->valuestring, ip});
  }
  return 0;
}

/* "smem", or with `list` also ["rf", "smem"]: memory ids, each once. */
static int read_mems(const struct ctx *x, const cJSON *v, const char *path, int list, int *mems, int *n) {
  const cJSON *one = cJSON_IsArray(v) && list ? v->child : v;
  *n = 0;
  if (!one || (!cJSON_IsArray(v) && !cJSON_IsString(v)) || (cJSON_IsArray(v) && !list))
    return tf_error_set(x->err, TF_EINPUT, path,
                        list ? "expected a memory or a non-empty list of memories" : "expected a memory (%s)",
                        TF_MEMORY_LIST(" or "));
  for (; one; one = cJSON_IsArray(v) ? one->next : NULL) {
    int m = cJSON_IsString(one) ? tf_memory_find(one->valuestring) : -1;
    for (int i = 0; m >= 0 && i < *n; i++)
      if (mems[i] == m)
        return tf_error_set(x->err, TF_EINPUT, path, "'%s' is listed twice", one->valuestring);
    if (m < 0)
      return tf_error_set(x->err, TF_EINPUT, path, "expected %s", TF_MEMORY_LIST(" or "));
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
  static const char *const kinds[] = {"formula", "tuned", "fits", "measured"};
  for (int k = TF_KIND_FORMULA; k <= TF_KIND_MEASURED; k++)
    if (cJSON_IsString(v) && !strcmp(v->valuestring, kinds[k])) {
      c->kind = k;
      c->has_kind = 1;
      return 0;
    }
  const char *near = cJSON_IsString(v) ? tf_suggest(v->valuestring, kinds, 4) : NULL;
  if (near)
    return tf_error_set(x->err, TF_EINPUT, path,
                        "expected \"formula\", \"tuned\", \"fits\" or \"measured\"; did you mean \"%s\"?", near);
  return tf_error_set(x->err, TF_EINPUT, path, "expected \"formula\", \"tuned\", \"fits\" or \"measured\"");
}

/* A measured line is measured and nothing else: its config is its fix and
 * min time_ns its objective (solver/measured.h), so expect, fix and
 * objective have no place in it; and kind measured needs "measured". */
static int check_measured(const struct ctx *x, const cJSON *root, tf_case *c) {
  char path[160];
  path_of(x, path, sizeof path, "$");
  int measured = c->measured.present;
  if (c->has_kind && (c->kind == TF_KIND_MEASURED) != measured)
    return tf_error_set(x->err, TF_EINPUT, path,
                        measured ? "'measured' belongs to kind \"measured\", not \"%s\""
                                 : "kind \"measured\" needs 'measured' (tflops, time_ms or relative_time)",
                        tf_case_kind_name(c->kind));
  static const char *const not_measured[] = {"expect", "fix", "objective"};
  for (size_t i = 0; measured && i < sizeof not_measured / sizeof *not_measured; i++)
    if (tf_json_member(root, not_measured[i]))
      return tf_error_set(x->err, TF_EINPUT, path,
                          "a measured line has no '%s' (its config is fixed and it is solved under min time_ns)",
                          not_measured[i]);
  if (measured)
    c->kind = TF_KIND_MEASURED, c->has_kind = 1;
  return 0;
}

/* The request fields by kind (model/input/request.h's table). */
static int read_string_field(const struct ctx *x, const cJSON *v, size_t field, tf_case *c) {
  return read_string(x, v, tf_request_fields[field].key, (char **)((char *)&c->req + tf_request_fields[field].offset));
}

static int read_flag(const struct ctx *x, const cJSON *v, size_t field, tf_case *c) {
  char path[160];
  field_path(x, field, path, sizeof path);
  if (!cJSON_IsBool(v))
    return tf_error_set(x->err, TF_EINPUT, path, "expected true or false");
  *(int *)((char *)&c->req + tf_request_fields[field].offset) = cJSON_IsTrue(v);
  return 0;
}

static int read_pins(const struct ctx *x, const cJSON *v, size_t field, tf_case *c) {
  char sub[64];
  snprintf(sub, sizeof sub, "$.%s", tf_request_fields[field].key);
  return read_places(x, v, sub, 1, c);
}

typedef int (*field_reader)(const struct ctx *x, const cJSON *v, size_t field, tf_case *c);
static const field_reader readers[TF_RQ_NKINDS] = {
    [TF_RQ_STRING] = read_string_field, [TF_RQ_ASSIGNS] = read_assignments, [TF_RQ_DOMAINS] = read_domains,
    [TF_RQ_TEXTS] = read_texts,         [TF_RQ_PLACES] = read_pins,         [TF_RQ_FLAG] = read_flag,
};

/* A problem line's keys: the request's, then a case's own. */
static const char *const case_keys[] = {"expect", "kind", "comment"};
#define NCASE_KEYS (sizeof case_keys / sizeof *case_keys)
#define NMEASURED_KEYS 10 /* tf_measured_keys */

/* The request's fields of a problem object, each by its kind. */
static int read_fields(const struct ctx *x, const cJSON *root, tf_case *c) {
  const cJSON *v;
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    if ((v = tf_json_member(root, tf_request_fields[i].key)) && readers[tf_request_fields[i].kind](x, v, i, c))
      return -1;
  return 0;
}

static int read_case(const struct ctx *x, const cJSON *root, tf_case *c) {
  const char *keys[TF_NREQUEST_FIELDS + NCASE_KEYS + NMEASURED_KEYS + 1];
  size_t n = 0;
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++)
    keys[n++] = tf_request_fields[i].key;
  for (size_t i = 0; i < NCASE_KEYS; i++)
    keys[n++] = case_keys[i];
  for (size_t i = 0; tf_measured_keys[i] && i < NMEASURED_KEYS; i++)
    keys[n++] = tf_measured_keys[i];
  keys[n] = NULL;
  static const char *const required[] = {"machine", "workset", NULL};
  char path[160];
  path_of(x, path, sizeof path, "$");
  if (tf_json_keys(root, path, keys, NULL, x->err))
    return -1;
  for (int i = 0; required[i]; i++)
    if (!tf_json_member(root, required[i]))
      return tf_error_set(x->err, TF_EINPUT, path, "missing required key '%s'", required[i]);
  const cJSON *v;
  if (read_fields(x, root, c))
    return -1;
  if ((v = tf_json_member(root, "expect")) && read_expect(x, v, c))
    return -1;
  if ((v = tf_json_member(root, "kind")) && read_kind(x, v, c))
    return -1;
  if ((v = tf_json_member(root, "comment")) && read_string(x, v, "comment", &c->comment))
    return -1;
  if (tf_measured_read(root, path, &c->measured, x->err) || check_measured(x, root, c))
    return -1;
  if (!c->has_kind)
    c->kind = c->expect_fits >= 0 ? TF_KIND_FITS : TF_KIND_FORMULA;
  return 0;
}

/* Parses text into c with paths under x (its prefix and root set). */
static int parse(struct ctx *x, const char *text, size_t len, const char *file, size_t line, tf_case *c,
                 tf_error *err) {
  x->err = err;
  cJSON *root = line ? tf_json_parse_line(text, len, file, line, err) : tf_json_parse(text, len, file, err);
  if (!root)
    return -1;
  int rc = read_case(x, root, c);
  cJSON_Delete(root);
  if (rc)
    tf_error_set_file(err, file);
  return rc;
}

int tf_case_read(const cJSON *obj, const char *file, const char *root, tf_case *c, tf_error *err) {
  struct ctx x;
  x.prefix[0] = 0;
  snprintf(x.root, sizeof x.root, "%s", root);
  x.err = err;
  int rc = read_case(&x, obj, c);
  if (rc)
    tf_error_set_file(err, file);
  return rc;
}

int tf_case_read_fields(const cJSON *obj, const char *root, tf_request *req, tf_error *err) {
  struct ctx x;
  x.prefix[0] = 0;
  snprintf(x.root, sizeof x.root, "%s", root);
  x.err = err;
  tf_case c;
  tf_case_init(&c);
  int rc = read_fields(&x, obj, &c);
  if (!rc)
    tf_request_overlay(req, &c.req);
  tf_case_release(&c);
  return rc;
}

int tf_case_parse(const char *text, size_t len, const char *file, size_t line, tf_case *c, tf_error *err) {
  struct ctx x;
  x.prefix[0] = 0; /* line 0: an object on its own (the library's JSON entry point) */
  if (line)
    snprintf(x.prefix, sizeof x.prefix, "line %zu: ", line);
  snprintf(x.root, sizeof x.root, "$");
  return parse(&x, text, len, file, line, c, err);
}

int tf_case_parse_at(const char *text, size_t len, const char *file, const char *root, tf_case *c, tf_error *err) {
  struct ctx x;
  x.prefix[0] = 0;
  snprintf(x.root, sizeof x.root, "%s", root);
  return parse(&x, text, len, file, 0, c, err);
}

/* ---------------------------------------------------------------- writing */

void tf_case_write_input(tf_json_out *w, const tf_request *req, int fits) {
  tf_json_out_object(w);
  tf_request_write_members(w, req);
  if (fits)
    tf_json_out_key_string(w, "kind", "fits");
  tf_json_out_end(w);
}
