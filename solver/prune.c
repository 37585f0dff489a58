#include "prune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json_out.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/show.h"
#include "solver/report.h"

void tf_prune_map_release(tf_prune_map *m) {
  for (size_t i = 0; i < m->n; i++)
    free(m->pairs[i].from), free(m->pairs[i].to);
  free(m->pairs);
  memset(m, 0, sizeof *m);
}

int tf_prune_map_parse(tf_prune_map *m, const char *text, const char *where, tf_error *err) {
  for (const char *s = text;;) {
    size_t len = strcspn(s, ",");
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s || eq + 1 == s + len)
      return tf_error_set(err, TF_EINPUT, where, "expected KEY=VARIABLE[,KEY=VARIABLE...], got '%s'", text);
    tf_prune_pair pair = {tf_strndup(s, (size_t)(eq - s)), tf_strndup(eq + 1, (size_t)(s + len - eq - 1)), ""};
    snprintf(pair.where, sizeof pair.where, "%s", where);
    TF_PUSH(m->pairs, m->n, m->cap, pair);
    if (!s[len])
      return 0;
    s += len + 1;
  }
}

void tf_pruned_release(tf_pruned *x) {
  if (x->answered)
    tf_answer_release(&x->answer);
  tf_problem_free(x->problem);
  tf_loaded_release(&x->loaded);
  memset(x, 0, sizeof *x);
}

static int is_param(const tf_workset *w, const char *name) {
  for (size_t i = 0; i < w->nparams; i++)
    if (!strcmp(w->params[i].name, name))
      return 1;
  return 0;
}

static int is_variable(const tf_workset *w, const char *name) {
  for (size_t i = 0; i < w->nchoose; i++)
    if (!strcmp(w->choose[i].name, name))
      return 1;
  for (size_t i = 0; i < w->ncounts; i++)
    if (!strcmp(w->counts[i].name, name))
      return 1;
  return 0;
}

/* The spellings Triton's own tutorial uses for the block sizes
 * (python/tutorials/03-matrix-multiplication.py: BLOCK_SIZE_M, ...), read
 * as the workset's names when it has those and not these. */
static const char *const triton_spellings[][2] = {
    {"BLOCK_SIZE_M", "BLOCK_M"}, {"BLOCK_SIZE_N", "BLOCK_N"}, {"BLOCK_SIZE_K", "BLOCK_K"}};

const char *tf_prune_triton_spelling(const char *variable) {
  for (size_t i = 0; i < sizeof triton_spellings / sizeof triton_spellings[0]; i++)
    if (!strcmp(variable, triton_spellings[i][1]))
      return triton_spellings[i][0];
  return NULL;
}

/* A key as the workset names it: --map first, then Triton's spellings. */
static const char *mapped(const tf_workset *w, const tf_prune_map *map, const char *key) {
  for (size_t i = 0; map && i < map->n; i++)
    if (!strcmp(map->pairs[i].from, key))
      return map->pairs[i].to;
  for (size_t i = 0; i < sizeof triton_spellings / sizeof triton_spellings[0]; i++)
    if (!strcmp(key, triton_spellings[i][0]) && !is_variable(w, key) && is_variable(w, triton_spellings[i][1]))
      return triton_spellings[i][1];
  return key;
}

/* Triton's own values for a launch field a configuration leaves out.
 * Absent: triton.Config(kwargs, num_warps=4, num_stages=3, ...)'s
 * defaults (triton-lang/triton @ 009401737888df54cfa5427fab82b0f12d47a35b,
 * python/triton/runtime/autotuner.py, Config.__init__).  None: dropped by
 * Config.all_kwargs, so the backend's option default compiles it:
 * CUDAOptions num_stages = 3, num_warps = 4
 * (third_party/nvidia/backend/compiler.py), HIPOptions num_stages = 2,
 * num_warps = 4 (third_party/amd/backend/compiler.py; both read at main,
 * the commit not pinned). */
static const struct {
  const char *key;
  int64_t absent, null_cuda, null_hip;
} triton_defaults[] = {{"num_stages", 3, 3, 2}, {"num_warps", 4, 4, 4}};

static int triton_default(const char *key) {
  for (int i = 0; i < (int)(sizeof triton_defaults / sizeof triton_defaults[0]); i++)
    if (!strcmp(key, triton_defaults[i].key))
      return i;
  return -1;
}

/* Is `name` in the comma-separated `list` ("maxnreg, pre_hook")? */
static int listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *s = list; *s; s += strspn(s, ", ")) {
    size_t len = strcspn(s, ",");
    if (len == n && !strncmp(s, name, n))
      return 1;
    s += len;
  }
  return 0;
}

static int assigned(const tf_assign *v, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return 1;
  return 0;
}

/* Gives num_stages and num_warps Triton's values where the workset has
 * them and neither the configuration nor the request does. */
static void add_triton_defaults(const tf_loaded *l, tf_request *req, const tf_config *cfg, const tf_prune_map *map) {
  int hip = !strncmp(l->machine->arch, "gfx", 3);
  for (int i = 0; i < (int)(sizeof triton_defaults / sizeof triton_defaults[0]); i++) {
    const char *key = triton_defaults[i].key;
    int given = 0;
    for (size_t j = 0; j < cfg->nvalues && !given; j++)
      given = !strcmp(mapped(l->workset, map, cfg->values[j].name), key);
    if (given || assigned(req->fixes, req->nfixes, key) || assigned(req->params, req->nparams, key))
      continue;
    int64_t value = !listed(cfg->nulls, key) ? triton_defaults[i].absent
                    : hip                    ? triton_defaults[i].null_hip
                                             : triton_defaults[i].null_cuda;
    if (is_variable(l->workset, key))
      tf_request_add_fix(req, key, value, cfg->where);
    else if (is_param(l->workset, key))
      tf_request_add_param(req, key, value, cfg->where);
  }
}

/* A key given null that names a variable or param is an error, but for
 * Triton's launch fields (triton_defaults); other null keys (maxnreg,
 * pre_hook) carry nothing and are left out. */
static int null_keys(const tf_workset *w, const tf_config *cfg, const tf_prune_map *map, tf_error *err) {
  for (const char *s = cfg->nulls; *s;) {
    size_t len = strcspn(s, ",");
    char key[96];
    snprintf(key, sizeof key, "%.*s", (int)len, s);
    const char *name = mapped(w, map, key);
    if ((is_variable(w, name) || is_param(w, name)) && triton_default(name) < 0)
      return tf_error_set(err, TF_EINPUT, cfg->where, "'%s' is null; expected an integer for %s", key, name);
    s += len;
    s += strspn(s, ", ");
  }
  return 0;
}

static void drop_assignments(tf_assign *v, size_t *n, size_t keep) {
  while (*n > keep) {
    --*n;
    free(v[*n].name);
    free(v[*n].where);
  }
}

/* Binds and checks the request as it stands. */
static int check_bound(const tf_loaded *l, const tf_request *req, tf_pruned *out, tf_error *err) {
  out->problem = tf_problem_new(l->machine, l->workset, req, err);
  if (!out->problem)
    return -1;
  tf_answer_init(&out->answer, out->problem);
  out->answered = 1;
  return tf_check(out->problem, &out->answer, err);
}

int tf_prune_object(const tf_loaded *l, tf_request *req, const tf_config *cfg, const tf_prune_map *map, tf_pruned *out,
                    tf_error *err) {
  memset(out, 0, sizeof *out);
  size_t nparams = req->nparams, nfixes = req->nfixes;
  tf_strbuf ignored = tf_strbuf_of(out->ignored, sizeof out->ignored);
  if (null_keys(l->workset, cfg, map, err))
    return -1;
  for (size_t i = 0; i < cfg->nvalues; i++) {
    const tf_assign *v = &cfg->values[i];
    const char *name = mapped(l->workset, map, v->name);
    if (is_variable(l->workset, name))
      tf_request_add_fix(req, name, v->value, v->where);
    else if (is_param(l->workset, name))
      tf_request_add_param(req, name, v->value, v->where);
    else
      tf_strbuf_item(&ignored, ", ", "%s", v->name);
  }
  add_triton_defaults(l, req, cfg, map);
  int rc = check_bound(l, req, out, err);
  drop_assignments(req->params, &req->nparams, nparams);
  drop_assignments(req->fixes, &req->nfixes, nfixes);
  if (rc)
    tf_error_set_path(err, cfg->where);
  return rc;
}

int tf_fix_builder_stages(tf_request *req, const tf_loaded *l, const tf_solve_opts *opts, tf_problem **p,
                          tf_error *err) {
  int k = -1;
  for (int i = 0; i < (*p)->ncounts; i++)
    if (!strcmp((*p)->count_names[i], "stages"))
      k = i;
  if (k < 0)
    return tf_error_set(err, TF_EINPUT, "@cutlass_name", "workset %s has no count 'stages'", l->workset->name);
  /* The builder counts shared memory only: a workset that models the
   * consumers' registers (rf_model) is solved without them here, and the
   * check that follows says whether the registers hold. */
  tf_problem *smem_only = *p;
  if (tf_workset_resolve(l->workset, "rf_model") >= 0) {
    tf_request r;
    tf_request_init(&r);
    tf_request_copy(&r, req);
    tf_request_add_param(&r, "rf_model", 0, "@cutlass_name");
    smem_only = tf_problem_new(l->machine, l->workset, &r, err);
    tf_request_release(&r);
    if (!smem_only)
      return -1;
  }
  tf_answer a;
  tf_answer_init(&a, smem_only);
  int rc = tf_solve(smem_only, opts, NULL, &a, err);
  int64_t stages = a.status == TF_ANSWER_INFEASIBLE ? smem_only->count_lo[k] : a.point.counts[k];
  tf_answer_release(&a);
  if (smem_only != *p)
    tf_problem_free(smem_only);
  if (rc)
    return -1;
  tf_request_add_fix(req, "stages", stages, "@cutlass_name");
  tf_problem_free(*p);
  *p = tf_problem_new(l->machine, l->workset, req, err);
  return *p ? 0 : -1;
}

/* Is the loaded machine of the architecture the name says (sm90 and
 * sm_90)?  A name for another one is skipped, not an error. */
static int same_arch(const tf_cutlass_kernel *k, const tf_machine *m) {
  const char *d = m->arch + strcspn(m->arch, "0123456789");
  return atoi(d) == k->arch;
}

int tf_prune_name(const char *name, const char *machine, double time_limit, tf_pruned *out, tf_error *err) {
  memset(out, 0, sizeof *out);
  tf_request req;
  tf_request_init(&req);
  req.machine = machine ? tf_strdup(machine) : NULL;
  tf_cutlass_kernel k;
  tf_solve_opts opts;
  tf_solve_opts_init(&opts);
  opts.time_limit_s = time_limit;
  int rc =
      tf_cutlass_name_request(name, &req, &k, err) || tf_load(&req, "@machine", "@cutlass_name", &out->loaded, err);
  if (!rc && machine && !same_arch(&k, out->loaded.machine)) {
    out->skipped = 1;
    snprintf(out->error, sizeof out->error, "an sm%d kernel; %s is %s", k.arch, out->loaded.machine->name,
             out->loaded.machine->arch);
    tf_request_release(&req);
    return 0;
  }
  if (!rc) {
    out->problem = tf_problem_new(out->loaded.machine, out->loaded.workset, &req, err);
    rc = !out->problem || (!k.stages && tf_fix_builder_stages(&req, &out->loaded, &opts, &out->problem, err));
  }
  if (!rc) {
    tf_answer_init(&out->answer, out->problem);
    out->answered = 1;
    rc = tf_check(out->problem, &out->answer, err);
  }
  tf_request_release(&req);
  return rc ? -1 : 0;
}

int tf_pruned_fits(const tf_pruned *v) { return !v->error[0] && v->answer.status == TF_ANSWER_FITS; }

void tf_prune_batch_init(tf_prune_batch *b) {
  memset(b, 0, sizeof *b);
  tf_configs_init(&b->list);
}

void tf_prune_batch_release(tf_prune_batch *b) {
  for (size_t i = 0; b->verdicts && i < b->list.n; i++)
    tf_pruned_release(&b->verdicts[i]);
  free(b->verdicts);
  tf_loaded_release(&b->loaded);
  tf_configs_release(&b->list);
  tf_prune_batch_init(b);
}

/* Adds each of a verdict's ignored keys once. */
static void note_ignored(tf_prune_batch *r, const char *keys) {
  tf_strbuf b = {r->ignored, sizeof r->ignored, strlen(r->ignored)}; /* appends to what is there */
  for (const char *s = keys; *s;) {
    size_t len = strcspn(s, ",");
    char key[96];
    snprintf(key, sizeof key, "%.*s", (int)len, s);
    int seen = 0;
    for (const char *t = r->ignored; *t && !seen; t += strcspn(t, ",") + (t[strcspn(t, ",")] ? 2 : 0))
      seen = strcspn(t, ",") == strlen(key) && !strncmp(t, key, strlen(key));
    if (!seen)
      tf_strbuf_item(&b, ", ", "%s", key);
    s += len;
    s += strspn(s, ", ");
  }
}

/* A configuration that cannot be checked is blamed on its own line ("line
 * 3", "$[2]"), not on the option (--fix, --cutlass-name) or the workset
 * file its values reached.  A JSON path inside the configuration stays
 * after the line; the options' own machine and workset stay theirs. */
static void blame(tf_error *err, const char *where) {
  if (!strcmp(err->at, "machine") || !strcmp(err->at, "workset"))
    return;
  err->at[0] = 0;
  char path[sizeof err->path];
  if (err->path[0] == '$')
    snprintf(path, sizeof path, "%s: %s", where, err->path);
  else
    snprintf(path, sizeof path, "%s", where);
  snprintf(err->path, sizeof err->path, "%s", path);
  err->file[0] = 0;
}

/* A line that could not be checked keeps only its error (its path names
 * the line: "line 3: ..."). */
static void line_error(tf_pruned *v, const tf_error *e) {
  tf_pruned_release(v);
  tf_error_format(e, v->error, sizeof v->error);
}

/* Every --map target names a variable or param of the workset: a map
 * onto nothing would leave the key's variable free on every line. */
static int map_targets(const tf_workset *w, const tf_prune_map *map, tf_error *err) {
  for (size_t i = 0; map && i < map->n; i++) {
    const char *to = map->pairs[i].to;
    if (is_variable(w, to) || is_param(w, to))
      continue;
    size_t n = w->nchoose + w->ncounts + w->nparams, k = 0;
    const char **names = tf_nalloc(n + 1, sizeof *names);
    for (size_t j = 0; j < w->nchoose; j++)
      names[k++] = w->choose[j].name;
    for (size_t j = 0; j < w->ncounts; j++)
      names[k++] = w->counts[j].name;
    for (size_t j = 0; j < w->nparams; j++)
      names[k++] = w->params[j].name;
    const char *near = tf_suggest(to, names, n);
    tf_error_set(err, TF_EINPUT, map->pairs[i].where, "%s=%s: workset '%s' has no variable or param '%s'%s%s%s",
                 map->pairs[i].from, to, w->name, to, near ? "; did you mean '" : "", near ? near : "",
                 near ? "'?" : "");
    free(names);
    return -1;
  }
  return 0;
}

int tf_prune_batch_run(tf_prune_batch *r, tf_request *req, const tf_prune_map *map, double time_limit, tf_error *err) {
  r->verdicts = tf_nalloc(r->list.n ? r->list.n : 1, sizeof *r->verdicts);
  int names = r->list.form == TF_CONFIGS_NAMES;
  if (!names && (!req->machine || !req->workset))
    return tf_error_set(err, TF_EINPUT, req->machine ? "@workset" : "@machine",
                        "is needed: configuration objects are checked against one machine and workset");
  if (!names && (tf_load(req, "@machine", "@workset", &r->loaded, err) || map_targets(r->loaded.workset, map, err)))
    return -1;
  for (size_t i = 0; i < r->list.n; i++) {
    tf_pruned *v = &r->verdicts[i];
    tf_error e;
    tf_error_init(&e);
    if (r->list.items[i].error) { /* it did not read */
      snprintf(v->error, sizeof v->error, "%s", r->list.items[i].error);
      if (!r->nerror++)
        tf_error_set(err, TF_EINPUT, NULL, "%s", v->error);
      continue;
    }
    int rc = names ? tf_prune_name(r->list.items[i].text, req->machine, time_limit, v, &e)
                   : tf_prune_object(&r->loaded, req, &r->list.items[i], map, v, &e);
    if (rc)
      blame(&e, r->list.items[i].where);
    if (rc && (e.code != TF_EINPUT || !r->nerror)) /* an internal failure ends the list; the first error is kept */
      *err = e;
    if (rc && e.code != TF_EINPUT)
      return -1;
    if (rc)
      line_error(v, &e);
    r->nerror += !v->skipped && v->error[0];
    r->nskipped += v->skipped;
    r->nfit += !v->error[0] && tf_pruned_fits(v);
    note_ignored(r, v->ignored);
  }
  /* no line could be checked: that is bad input, not a list of errors */
  return r->list.n && r->nerror == r->list.n ? -1 : 0;
}

/* One configuration's element: where it is, the configuration as it was
 * written, and its verdict (the error, or the answer's members). */
static void json_config(tf_json_out *w, const tf_prune_batch *r, size_t i) {
  const tf_config *c = &r->list.items[i];
  tf_json_out_object(w);
  tf_json_out_key_string(w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(w, "where", c->where);
  tf_json_out_key(w, "config");
  if (r->list.form == TF_CONFIGS_NAMES)
    tf_json_out_string(w, c->text);
  else
    tf_json_out_raw(w, c->text, strlen(c->text)); /* an object, as one line of JSON */
  const tf_pruned *v = &r->verdicts[i];
  if (v->error[0]) {
    tf_json_out_key_bool(w, "fits", 0);
    tf_json_out_key_string(w, v->skipped ? "skipped" : "error", v->error);
  } else {
    tf_json_out_key_bool(w, "fits", tf_pruned_fits(v));
    const char *rule = tf_workset_rule(v->problem->workset, v->problem->machine);
    if (rule) /* the rule it was checked by, as the text's header says */
      tf_json_out_key_string(w, "rule", rule);
    tf_report_json_members(w, v->problem, &v->answer);
  }
  tf_json_out_end(w);
}

void tf_prune_batch_json(FILE *f, const tf_prune_batch *r) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_array(&w);
  for (size_t i = 0; i < r->list.n; i++)
    json_config(&w, r, i);
  tf_json_out_end(&w);
}
