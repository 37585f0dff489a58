/* Sweeps: spec expansion, ids, canonical keys, the problem-list form,
 * deterministic output whatever -j is, resume after a kill or a torn line,
 * shards merged back, and GNU parallel driving the shards. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/core/lines.h"
#include "model/formats/case.h"
#include "model/input/catalog.h"
#include "solver/batch/memo.h"
#include "solver/batch/sweep.h"
#include "solver/report.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define SMALL "tests/data/sweep/small.json"
#define PROBLEMS "tests/data/sweep/problems.jsonl"
#define BIG "bench/spec-5k.json"

static char dir[256];
static tf_cache cache;

static void setup(void) {
  tf_test_temp_dir(dir, sizeof dir, "tf-sweep");
  tf_cache_init(&cache);
}

/* rm -rf: whatever a test left in dir */
static void teardown(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
  tf_cache_release(&cache);
}

static const char *tmp(const char *name) {
  static char paths[8][512];
  static int k;
  char *p = paths[k++ % 8];
  snprintf(p, sizeof paths[0], "%s/%s", dir, name);
  return p;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot read %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = 0;
  fclose(f);
  if (len)
    *len = (size_t)n;
  return buf;
}

static void spill(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fwrite(text, 1, len, f), len);
  fclose(f);
}

static void same_files(const char *a, const char *b) {
  size_t na, nb;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  size_t k = 0;
  while (k < na && k < nb && x[k] == y[k])
    k++;
  ck_assert_msg(na == nb && k == na, "%s (%zu bytes) and %s (%zu bytes) differ at byte %zu", a, na, b, nb, k);
  free(x);
  free(y);
}

static size_t count_lines(const char *text) {
  size_t n = 0;
  for (; *text; text++)
    n += *text == '\n';
  return n;
}

static tf_sweep *load(const char *file) {
  tf_error e;
  tf_error_init(&e);
  tf_sweep *s = tf_sweep_load(file, &e);
  ck_assert_msg(s != NULL, "%s: %s: %s", e.file, e.path, e.msg);
  return s;
}

static tf_sweep *spec(const char *json) {
  tf_error e;
  tf_error_init(&e);
  tf_sweep *s = tf_sweep_parse_spec(json, strlen(json), "test.json", &e);
  ck_assert_msg(s != NULL, "%s: %s\n%s", e.path, e.msg, json);
  return s;
}

struct runopts {
  int jobs, format, shard_index, shard_count, resume;
  unsigned reuse;
  size_t memo_max; /* 0: the default */
};

static int run(tf_sweep *s, struct runopts r, const char *out, tf_sweep_stats *st, tf_error *e) {
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  o.jobs = r.jobs ? r.jobs : 1;
  o.format = r.format ? r.format : TF_FORMAT_JSONL;
  o.shard_index = r.shard_index;
  o.shard_count = r.shard_count;
  o.resume = r.resume;
  if (r.reuse)
    o.reuse = r.reuse & 3;
  if (r.memo_max)
    o.memo_max = r.memo_max;
  tf_error_init(e);
  return tf_sweep_run(s, &o, out, st, e);
}

static void run_ok(tf_sweep *s, struct runopts r, const char *out, tf_sweep_stats *st) {
  tf_error e;
  tf_sweep_stats local;
  int rc = run(s, r, out, st ? st : &local, &e);
  ck_assert_msg(rc == 0, "sweep failed: %s: %s", e.path, e.msg);
}

/* ------------------------------------------------------------ expansion */

START_TEST(test_spec_expansion) {
  tf_sweep *s = load(SMALL);
  /* per machine: fa4 (d, dv) in {(64,64), (128,64), (128,128)} x 2 objectives,
   * cutlass-sm90 (no d, dv) x 2 epilogues x 2 objectives */
  ck_assert_uint_eq(tf_sweep_npoints(s), 20);
  static const struct {
    size_t i;
    const char *id;
  } want[] = {
      {0, "b200/fa4-fwd/d=64,dv=64/o1"},
      {1, "b200/fa4-fwd/d=64,dv=64/o2"},
      {2, "b200/fa4-fwd/d=128,dv=64/o1"},
      {5, "b200/fa4-fwd/d=128,dv=128/o2"},
      {6, "b200/cutlass-sm90-gemm/epilogue_bytes=0/o1"},
      {9, "b200/cutlass-sm90-gemm/epilogue_bytes=33792/o2"},
      {10, "h100-sxm/fa4-fwd/d=64,dv=64/o1"},
      {19, "h100-sxm/cutlass-sm90-gemm/epilogue_bytes=33792/o2"},
  };
  for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
    char *id = tf_sweep_id(s, want[k].i);
    ck_assert_str_eq(id, want[k].id);
    free(id);
  }
  /* the request of a point: only the params its workset has */
  tf_request req;
  tf_request_init(&req);
  tf_error e;
  tf_error_init(&e);
  int check;
  ck_assert_int_eq(tf_sweep_request(s, 9, &req, &check, &e), 0);
  ck_assert_str_eq(req.machine, "b200");
  ck_assert_str_eq(req.workset, "cutlass-sm90-gemm");
  ck_assert_uint_eq(req.nparams, 1);
  ck_assert_str_eq(req.params[0].name, "epilogue_bytes");
  ck_assert_int_eq(req.params[0].value, 33792);
  ck_assert_uint_eq(req.nobjectives, 1);
  ck_assert_str_eq(req.objectives[0].text, "max stages");
  ck_assert_int_eq(check, 0);
  tf_request_release(&req);
  /* ids are unique */
  for (size_t i = 0; i < 20; i++)
    for (size_t j = i + 1; j < 20; j++) {
      char *a = tf_sweep_id(s, i), *b = tf_sweep_id(s, j);
      ck_assert_str_ne(a, b);
      free(a);
      free(b);
    }
  tf_sweep_free(s);
}
END_TEST

/* A spec of machines x worksets crosses architectures: the pairs a
 * workset does not model are left out and counted in a warning, unless
 * the spec says any_arch. */
START_TEST(test_spec_skips_architecture) {
  tf_sweep *s = spec("{\"machines\": [\"a100\", \"h100-sxm\", \"b200\"], \"worksets\": [\"fa2-fwd\", \"fa3-fwd\", "
                     "\"fa4-fwd\"], \"params\": {\"d\": [64, 128]}}");
  /* fa2-fwd on all three, fa3-fwd on h100-sxm, fa4-fwd on b200: 5 pairs of 9, 2 head dims each */
  ck_assert_uint_eq(tf_sweep_npoints(s), 10);
  ck_assert_uint_eq(tf_sweep_nwarnings(s), 1);
  ck_assert_ptr_nonnull(strstr(tf_sweep_warning(s, 0), "8 points skipped: architecture"));
  char *id = tf_sweep_id(s, 1);
  ck_assert_str_eq(id, "a100/fa2-fwd/d=128");
  free(id);
  id = tf_sweep_id(s, 2);
  ck_assert_str_eq(id, "h100-sxm/fa2-fwd/d=64");
  free(id);
  tf_sweep_free(s);
  s = spec("{\"machines\": [\"a100\", \"h100-sxm\", \"b200\"], \"worksets\": [\"fa2-fwd\", \"fa3-fwd\", \"fa4-fwd\"], "
           "\"params\": {\"d\": [64, 128]}, \"any_arch\": true}");
  ck_assert_uint_eq(tf_sweep_npoints(s), 18);
  ck_assert_uint_eq(tf_sweep_nwarnings(s), 0);
  tf_sweep_free(s);
  s = spec("{\"machines\": [\"a100\"], \"worksets\": [\"fa2-fwd\", \"fa3-fwd\"]}");
  ck_assert_uint_eq(tf_sweep_npoints(s), 1);
  ck_assert_ptr_nonnull(strstr(tf_sweep_warning(s, 0), "1 point skipped: architecture"));
  tf_sweep_free(s);
}
END_TEST

/* Fixes, domains, requires and objective lists apply where they bind. */
START_TEST(test_spec_rules) {
  tf_sweep *s =
      spec("{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\", \"cutlass-sm90-gemm\"], \"any_arch\": true,"
           " \"fix\": {\"B_r\": [128], \"tile_m\": [64, 128]}, \"domain\": {\"B_c\": [64, 128]},"
           " \"require\": [\"stages <= 32\", \"tile_k >= 64\"],"
           " \"objectives\": [\"max stages\", [\"max B_c\", \"max stages\"], [\"max tile_n\"]],"
           " \"where\": [\"tile_m >= 128\"]}");
  /* fa4: B_r x 2 objectives (max stages, max B_c); cutlass: tile_m=128 only x 2 (max stages, max tile_n) */
  ck_assert_uint_eq(tf_sweep_npoints(s), 4);
  static const char *const ids[] = {"b200/fa4-fwd/fix:B_r=128/o1", "b200/fa4-fwd/fix:B_r=128/o2",
                                    "b200/cutlass-sm90-gemm/fix:tile_m=128/o1",
                                    "b200/cutlass-sm90-gemm/fix:tile_m=128/o3"};
  for (size_t i = 0; i < 4; i++) {
    char *id = tf_sweep_id(s, i);
    ck_assert_str_eq(id, ids[i]);
    free(id);
  }
  tf_request req;
  tf_error e;
  int check;
  tf_request_init(&req);
  tf_error_init(&e);
  ck_assert_int_eq(tf_sweep_request(s, 1, &req, &check, &e), 0);
  ck_assert_uint_eq(req.ndomains, 1);
  ck_assert_uint_eq(req.nrequires, 1);
  ck_assert_str_eq(req.requires[0].text, "stages <= 32");
  ck_assert_uint_eq(req.nobjectives, 2);
  tf_request_release(&req);
  tf_request_init(&req);
  ck_assert_int_eq(tf_sweep_request(s, 2, &req, &check, &e), 0);
  ck_assert_uint_eq(req.ndomains, 0);
  ck_assert_uint_eq(req.nrequires, 2);
  ck_assert_uint_eq(req.nfixes, 1);
  ck_assert_int_eq(req.fixes[0].value, 128);
  tf_request_release(&req);
  tf_sweep_free(s);
  /* "*" is every shipped machine; ranges as in worksets (any_arch keeps the machines fa4-fwd does not model) */
  s = spec("{\"machines\": \"*\", \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": {\"from\": 64, \"to\": 256, "
           "\"step\": 64}, \"in_bits\": 16}, \"any_arch\": true}");
  size_t nmachines;
  char **names = tf_catalog_list(TF_CATALOG_MACHINES, &nmachines);
  tf_catalog_list_free(names, nmachines);
  ck_assert_uint_ge(nmachines, 13);
  ck_assert_uint_eq(tf_sweep_npoints(s), nmachines * 4);
  char *id = tf_sweep_id(s, 3);
  ck_assert_str_eq(id, "a10/fa4-fwd/d=256,in_bits=16");
  free(id);
  tf_sweep_free(s);
}
END_TEST

static const struct {
  const char *json, *path, *msg;
} spec_errors[] = {
    {"[1]", "$", "expected a sweep spec object"},
    {"{\"machines\": [\"b200\"]}", "$", "missing required key 'worksets'"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"bogus\": 1}", "$.bogus", "unknown key"},
    {"{\"machines\": [], \"worksets\": [\"fa4-fwd\"]}", "$.machines", "non-empty list"},
    {"{\"machines\": [\"b200\", \"b200\"], \"worksets\": [\"fa4-fwd\"]}", "$.machines[1]", "appears twice"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"nosuch\": [1]}}", "$.params.nosuch",
     "no workset of the sweep has a param"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [64, 64]}}", "$.params.d[1]",
     "appears twice"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [1.5]}}", "$.params.d[0]", "integer"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"fix\": {\"tile_m\": [64]}}", "$.fix.tile_m",
     "no workset of the sweep has a variable"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [64]}, \"where\": [\"x <= d\"]}",
     "$.where[0]", "unknown name 'x'"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [64]}, \"where\": [\"d <=\"]}",
     "$.where[0]", ""},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [64]}, \"where\": [\"d / 3\"]}",
     "$.where[0]", "remainder"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"objectives\": []}", "$.objectives", "non-empty"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"objectives\": [\"max nosuch\"]}", "$.objectives[0]",
     "binds in no workset of the sweep; in fa4-fwd: in expression 'nosuch': unknown name 'nosuch'"},
    /* text that is no objective at all says so, not "a misspelt name?" */
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"objectives\": [\"max\"]}", "$.objectives[0]",
     "in fa4-fwd: expected 'max EXPR' or 'min EXPR', got 'max'"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"objectives\": [[1]]}", "$.objectives[0][0]",
     "expected a string"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"require\": [\"nosuch <= 1\"]}", "$.require[0]",
     "binds in no workset"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], \"params\": {\"d\": [64]}, \"fix\": {\"d\": [1]}}",
     "$.fix", "both a param and a fix"},
    {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\"], ", "", "malformed JSON"},
};

START_TEST(test_spec_errors) {
  tf_error e;
  tf_error_init(&e);
  const char *json = spec_errors[_i].json;
  tf_sweep *s = tf_sweep_parse_spec(json, strlen(json), "bad.json", &e);
  ck_assert_msg(s == NULL, "accepted: %s", json);
  tf_test_input_error(&e, json, "bad.json", spec_errors[_i].path, spec_errors[_i].msg);
}
END_TEST

/* A machine or workset a spec names that does not load is bad input,
 * found at load (before any point is solved), naming the spec's path and
 * the nearest shipped name. */
START_TEST(test_spec_unloadable) {
  static const struct {
    const char *json, *path, *msg;
  } rows[] = {
      {"{\"machines\": [\"b200\", \"z9000\"], \"worksets\": [\"fa4-fwd\"]}", "$.machines[1]",
       "unknown machine 'z9000' ("},
      {"{\"machines\": [\"b200\", \"h100sxm\"], \"worksets\": [\"fa4-fwd\"]}", "$.machines[1]",
       "unknown machine 'h100sxm'; did you mean 'h100-sxm'?"},
      {"{\"machines\": [\"b200\"], \"worksets\": [\"fa4-fwd\", \"fa4fwd\"]}", "$.worksets[1]",
       "unknown workset 'fa4fwd'; did you mean 'fa4-fwd'?"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    tf_error e;
    tf_error_init(&e);
    tf_sweep *s = tf_sweep_parse_spec(rows[i].json, strlen(rows[i].json), "spec.json", &e);
    ck_assert_ptr_null(s);
    tf_test_input_error(&e, rows[i].json, "spec.json", rows[i].path, rows[i].msg);
  }
}
END_TEST

/* ------------------------------------------------------------------ keys */

static char *key_of(const char *machine, const char *params, const char *objective) {
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup(machine);
  req.workset = strdup("fa4-fwd");
  char buf[128];
  snprintf(buf, sizeof buf, "%s", params);
  for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    char *eq = strchr(tok, '=');
    *eq = 0;
    tf_request_add_param(&req, tok, atoll(eq + 1), "-p");
  }
  if (objective)
    tf_request_add_objective(&req, objective, "--objective");
  const tf_machine *m;
  const tf_workset *w;
  tf_error e;
  tf_error_init(&e);
  ck_assert_int_eq(tf_cache_get(&cache, &req, "-m", "-w", &m, &w, &e), 0);
  tf_problem *p = tf_problem_new(m, w, &req, &e);
  ck_assert_msg(p != NULL, "%s", e.msg);
  char *key = tf_sweep_key(&req, p, 0, NULL);
  tf_problem_free(p);
  tf_request_release(&req);
  return key;
}

START_TEST(test_keys) {
  char *a = key_of("b200", "d=64", NULL);
  char *b = key_of("b200", "d=64 dv=64", NULL); /* dv defaults to d: the same bound problem */
  char *c = key_of("b200", "dv=64 d=64", NULL); /* order of params does not matter */
  char *d = key_of("b200", "d=64 dv=128", NULL);
  char *e = key_of("b300", "d=64", NULL);
  char *f = key_of("b200", "d=64", "max stages");
  ck_assert_str_eq(a, b);
  ck_assert_str_eq(a, c);
  ck_assert_str_ne(a, d);
  ck_assert_str_ne(a, e);
  ck_assert_str_ne(a, f);
  free(a), free(b), free(c), free(d), free(e), free(f);
}
END_TEST

/* The memo key of a problem line, bound as a sweep binds it. */
static char *key_of_line(const char *line) {
  tf_case c;
  tf_case_init(&c);
  tf_error e;
  tf_error_init(&e);
  ck_assert_msg(tf_case_parse(line, strlen(line), "test", 1, &c, &e) == 0, "%s: %s", line, e.msg);
  const tf_machine *m;
  const tf_workset *w;
  ck_assert_msg(tf_cache_get(&cache, &c.req, "-m", "-w", &m, &w, &e) == 0, "%s: %s", line, e.msg);
  tf_problem *p = tf_problem_new(m, w, &c.req, &e);
  ck_assert_msg(p != NULL, "%s: %s", line, e.msg);
  char *key = tf_sweep_key(&c.req, p, 0, NULL);
  tf_problem_free(p);
  tf_case_release(&c);
  return key;
}

/* The memo key is the whole request: a line that differs from the base in
 * any one field the table puts in the key has another key, one that
 * differs in its id the same.  Every field of the table must have a row
 * here, so a new field cannot go untested. */
START_TEST(test_key_has_every_field) {
  char line[256];
  char *k0 = key_of_line("{\"machine\":\"a100\",\"workset\":\"fa2-fwd\"}");
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    const tf_request_field *fd = &tf_request_fields[i];
    const char *member = tf_test_request_variant(fd->key);
    ck_assert_msg(member != NULL, "request field '%s' has no variant in tf_test_request_variant", fd->key);
    int mach = !strcmp(fd->key, "machine"), work = !strcmp(fd->key, "workset");
    snprintf(line, sizeof line, "{%s,%s%s%s}", mach ? member : "\"machine\":\"a100\"",
             work ? member : "\"workset\":\"fa2-fwd\"", mach || work ? "" : ",", mach || work ? "" : member);
    char *k = key_of_line(line);
    if (fd->memo == TF_RQ_NO)
      ck_assert_msg(!strcmp(k, k0), "'%s' changed the memo key", fd->key);
    else
      ck_assert_msg(strcmp(k, k0), "'%s' is not in the memo key: %s", fd->key, k);
    free(k);
  }
  free(k0);
}
END_TEST

/* The spec reader reads every request field the table gives a spec key:
 * a spec with that key gives its points a request with the field set;
 * a field with no spec key is refused by name. */
START_TEST(test_spec_has_every_field) {
  static const struct {
    const char *key, *member;
  } variant[] = {
      {"machines", NULL},
      {"worksets", NULL},
      {"params", "\"params\":{\"d\":[64]}"},
      {"fix", "\"fix\":{\"B_r\":[64]}"},
      {"domain", "\"domain\":{\"B_c\":[64]}"},
      {"require", "\"require\":[\"B_c <= 64\"]"},
      {"objectives", "\"objectives\":[[\"max stages\"]]"},
      {"any_arch", "\"any_arch\":true"},
      {"solver", "\"solver\":\"glpk\""},
  };
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    const tf_request_field *fd = &tf_request_fields[i];
    char json[256];
    tf_error e;
    tf_error_init(&e);
    if (!*fd->spec) { /* not swept: the problem-line key is no spec key */
      snprintf(json, sizeof json, "{\"machines\":[\"a100\"],\"worksets\":[\"fa2-fwd\"],\"%s\":1}", fd->key);
      ck_assert_ptr_null(tf_sweep_parse_spec(json, strlen(json), "spec.json", &e));
      ck_assert_msg(strstr(e.msg, "unknown key"), "%s: %s", fd->key, e.msg);
      continue;
    }
    size_t v = 0;
    while (v < sizeof variant / sizeof *variant && strcmp(variant[v].key, fd->spec))
      v++;
    ck_assert_msg(v < sizeof variant / sizeof *variant, "spec key '%s' has no variant in this test", fd->spec);
    snprintf(json, sizeof json, "{\"machines\":[\"a100\"],\"worksets\":[\"fa2-fwd\"]%s%s}",
             variant[v].member ? "," : "", variant[v].member ? variant[v].member : "");
    tf_sweep *sw = tf_sweep_parse_spec(json, strlen(json), "spec.json", &e);
    ck_assert_msg(sw != NULL, "%s: %s", json, e.msg);
    tf_request req;
    tf_request_init(&req);
    int check;
    ck_assert_int_eq(tf_sweep_request(sw, 0, &req, &check, &e), 0);
    ck_assert_msg(!tf_request_field_empty(&req, i), "spec key '%s' does not reach the request", fd->spec);
    tf_request_release(&req);
    tf_sweep_free(sw);
  }
}
END_TEST

/* Two lines that differ only in a pin get their own answers (the memo key
 * once left `place` out, and line b got line a's placement). */
START_TEST(test_pins_not_memoised_together) {
  static char out[1 << 14], err[1 << 12];
  ck_assert_int_eq(tf_test_run("sweep -q tests/data/sweep/pins.jsonl", out, sizeof out, err, sizeof err), 0);
  char *b = strstr(out, "\"id\":\"b\"");
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_nonnull(strstr(out, "\"placement\":{\"Q\":\"smem\"}"));
  ck_assert_msg(strstr(b, "\"placement\":{\"Q\":\"rf\"}") != NULL, "%s", out);
}
END_TEST

/* The problem-list form: ids, error lines, the answer memo. */
START_TEST(test_problem_list) {
  tf_sweep *s = load(PROBLEMS);
  ck_assert_uint_eq(tf_sweep_npoints(s), 7);
  static const char *const ids[] = {"fa4-d128", "line-3",   "line-4",         "no-such-param",
                                    "one-over", "a100-fa4", "no-such-machine"};
  static const char *const status[] = {"optimal", "optimal", "error", "error", "does_not_fit", "infeasible", "error"};
  tf_sweep_stats st;
  run_ok(s, (struct runopts){.jobs = 1}, tmp("out.jsonl"), &st);
  ck_assert_uint_eq(st.answer_hits, 1); /* line 3 is line 1 with dv spelt out */
  char *text = slurp(tmp("out.jsonl"), NULL), *line = text;
  for (size_t i = 0; i < 7; i++) {
    char *nl = strchr(line, '\n');
    ck_assert_ptr_nonnull(nl);
    *nl = 0;
    char want[128];
    snprintf(want, sizeof want, "{\"index\":%zu,\"total\":7,\"id\":\"%s\",", i, ids[i]);
    ck_assert_msg(!strncmp(line, want, strlen(want)), "line %zu: %s", i, line);
    snprintf(want, sizeof want, "\"status\":\"%s\"", status[i]);
    ck_assert_msg(strstr(line, want), "line %zu: want %s in %s", i, want, line);
    line = nl + 1;
  }
  ck_assert_str_eq(line, "");
  free(text);
  /* the same through the CSV writer: one header, one row each */
  run_ok(s, (struct runopts){.jobs = 2, .format = TF_FORMAT_CSV}, tmp("out.csv"), NULL);
  text = slurp(tmp("out.csv"), NULL);
  ck_assert_uint_eq(count_lines(text), 8);
  ck_assert_msg(!strncmp(text, tf_sweep_csv_header(s), strlen(tf_sweep_csv_header(s))), "%s", text);
  ck_assert_msg(strstr(text, "\n0,7,fa4-d128,b200,fa4-fwd,optimal,,max stages,128,128,"), "%s", text);
  ck_assert_msg(strstr(text, "\n4,7,one-over,b200,fa4-fwd,does_not_fit,"), "%s", text);
  ck_assert_msg(strstr(text, ",\"smem needs 265216 B of 232448, 32768 over\"\n"), "%s", text);
  free(text);
  tf_sweep_free(s);
}
END_TEST

/* ---------------------------------------------------------- determinism */

START_TEST(test_jobs_identical) {
  tf_sweep *s = load(SMALL);
  static const int fmt[] = {TF_FORMAT_JSONL, TF_FORMAT_CSV};
  for (int f = 0; f < 2; f++) {
    run_ok(s, (struct runopts){.jobs = 1, .format = fmt[f]}, tmp("j1"), NULL);
    run_ok(s, (struct runopts){.jobs = 2, .format = fmt[f]}, tmp("j2"), NULL);
    run_ok(s, (struct runopts){.jobs = 7, .format = fmt[f]}, tmp("j7"), NULL);
    same_files(tmp("j1"), tmp("j2"));
    same_files(tmp("j1"), tmp("j7"));
  }
  tf_sweep_free(s);
}
END_TEST

/* Reusing answers and search optima changes nothing in the output: the
 * memo path and tf_solve agree, line for line. */
START_TEST(test_reuse_identical) {
  tf_sweep *s = load(SMALL);
  tf_sweep_stats st;
  run_ok(s, (struct runopts){.jobs = 2, .reuse = 4 /* none */}, tmp("plain"), &st);
  ck_assert_uint_eq(st.answer_lookups + st.ilp_lookups, 0);
  run_ok(s, (struct runopts){.jobs = 2, .reuse = TF_REUSE_ANSWER | TF_REUSE_ILP}, tmp("reuse"), &st);
  /* the memo was asked at every point; no two points share a search
   * problem now that cutlass-sm90-gemm's own objective is the roofline time,
   * which reads each machine's clock and SM count */
  ck_assert_uint_gt(st.answer_lookups + st.ilp_lookups, 0);
  same_files(tmp("plain"), tmp("reuse"));
  tf_sweep_free(s);
}
END_TEST

/* A memo of 3 answers (flushed many times over) writes the same file. */
START_TEST(test_memo_bounded_identical) {
  tf_sweep *s = load(SMALL);
  tf_sweep_stats st;
  run_ok(s, (struct runopts){.jobs = 2, .reuse = 4 /* none */}, tmp("plain"), &st);
  run_ok(s, (struct runopts){.jobs = 2, .reuse = TF_REUSE_ANSWER | TF_REUSE_ILP, .memo_max = 3}, tmp("small"), &st);
  ck_assert_uint_gt(st.answer_lookups, 3);
  same_files(tmp("plain"), tmp("small"));
  tf_sweep_free(s);
}
END_TEST

/* The memo itself: never more than max entries (plus those being
 * computed), and an entry still held survives the flush that drops it. */
START_TEST(test_memo_flat) {
  tf_memo m;
  tf_memo_init(&m, 10);
  int own;
  tf_memo_entry *held = tf_memo_get(&m, "held", 4, &own);
  ck_assert_int_eq(own, 1);
  held->text = strdup("kept while held");
  tf_memo_finish(&m, held, 1);
  for (int i = 0; i < 1000; i++) {
    char key[16];
    int n = snprintf(key, sizeof key, "k%d", i);
    tf_memo_entry *e = tf_memo_get(&m, key, (size_t)n, &own);
    ck_assert_int_eq(own, 1);
    e->text = strdup(key);
    tf_memo_finish(&m, e, 1);
    tf_memo_put(&m, e);
    ck_assert_uint_le(m.n, 10);
  }
  ck_assert_uint_ge(m.flushes, 99);
  ck_assert_str_eq(held->text, "kept while held"); /* dropped from the table, not freed */
  tf_memo_put(&m, held);
  tf_memo_entry *again = tf_memo_get(&m, "k999", 4, &own);
  ck_assert_int_eq(own, 0); /* the current generation is reused */
  tf_memo_put(&m, again);
  tf_memo_release(&m);
}
END_TEST

/* -------------------------------------------------------------- resume */

/* Cut a complete output anywhere (inside a line, on a line boundary, in the
 * CSV header) or add a torn line, resume, and get the same file. */
START_TEST(test_resume_torn) {
  tf_sweep *s = load(SMALL);
  int csv = _i % 2;
  const char *full = tmp(csv ? "full.csv" : "full.jsonl"), *part = tmp(csv ? "part.csv" : "part.jsonl");
  run_ok(s, (struct runopts){.jobs = 2, .format = csv ? TF_FORMAT_CSV : TF_FORMAT_JSONL}, full, NULL);
  size_t len;
  char *text = slurp(full, &len);
  size_t cuts[8], ncuts = 0;
  cuts[ncuts++] = 0;
  cuts[ncuts++] = 5;                                       /* inside the first line (or header) */
  cuts[ncuts++] = (size_t)(strchr(text, '\n') - text) + 1; /* a line boundary */
  cuts[ncuts++] = len / 2;
  cuts[ncuts++] = len - 1; /* all but the last newline */
  cuts[ncuts++] = len;     /* complete */
  for (size_t k = 0; k < ncuts; k++) {
    spill(part, text, cuts[k]);
    tf_sweep_stats st;
    run_ok(s, (struct runopts){.jobs = 1 + (int)k % 2, .format = csv ? TF_FORMAT_CSV : TF_FORMAT_JSONL, .resume = 1},
           part, &st);
    same_files(part, full);
    if (cuts[k] == len)
      ck_assert_uint_eq(st.written, 0);
  }
  /* a torn line after complete ones: the half line is dropped, never kept */
  size_t two = (size_t)(strchr(strchr(text, '\n') + 1, '\n') - text) + 1;
  char *torn = malloc(two + 40);
  memcpy(torn, text, two);
  memcpy(torn + two, text + two, 30);
  spill(part, torn, two + 30);
  tf_sweep_stats st;
  run_ok(s, (struct runopts){.jobs = 2, .format = csv ? TF_FORMAT_CSV : TF_FORMAT_JSONL, .resume = 1}, part, &st);
  ck_assert_uint_eq(st.torn_bytes, 30);
  same_files(part, full);
  free(torn);
  free(text);
  tf_sweep_free(s);
}
END_TEST

/* Resuming a file of another sweep, shard or format is refused. */
START_TEST(test_resume_refuses) {
  tf_sweep *s = load(SMALL);
  tf_sweep *other = spec("{\"machines\": [\"b200\"], \"worksets\": [\"fa2-fwd\"]}");
  run_ok(other, (struct runopts){0}, tmp("other.jsonl"), NULL);
  tf_error e;
  tf_sweep_stats st;
  ck_assert_int_eq(run(s, (struct runopts){.resume = 1}, tmp("other.jsonl"), &st, &e), -1);
  ck_assert_int_eq(e.code, TF_EINPUT);
  ck_assert_msg(strstr(e.msg, "line 1 is not point 0 (b200/fa4-fwd/d=64,dv=64/o1) of this sweep"), "%s", e.msg);
  run_ok(s, (struct runopts){.shard_index = 1, .shard_count = 2}, tmp("shard.jsonl"), NULL);
  ck_assert_int_eq(
      run(s, (struct runopts){.shard_index = 2, .shard_count = 2, .resume = 1}, tmp("shard.jsonl"), &st, &e), -1);
  ck_assert_int_eq(run(s, (struct runopts){.format = TF_FORMAT_CSV, .resume = 1}, tmp("shard.jsonl"), &st, &e), -1);
  ck_assert_msg(strstr(e.msg, "CSV header"), "%s", e.msg);
  ck_assert_int_eq(run(s, (struct runopts){.resume = 1}, NULL, &st, &e), -1);
  ck_assert_str_eq(e.at, "resume"); /* the library names the option; the command line spells it */
  tf_sweep_free(other);
  tf_sweep_free(s);
}
END_TEST

/* A resume file damaged in the middle (a NUL, a line that is no JSON),
 * one whose last line this tilefit would not write now (another version,
 * a changed model: here a value edited), and one another run holds: each
 * refused before anything is written, the file unchanged. */
START_TEST(test_resume_damaged) {
  tf_sweep *s = load(SMALL);
  const char *full = tmp("full.jsonl"), *part = tmp("part.jsonl");
  run_ok(s, (struct runopts){0}, full, NULL);
  size_t len;
  char *text = slurp(full, &len);
  size_t two = (size_t)(strchr(strchr(text, '\n') + 1, '\n') - text) + 1, one = (size_t)(strchr(text, '\n') - text) + 1;
  char *edited = malloc(two + 1);
  static const struct {
    size_t at;
    const char *bytes, *msg;
  } cases[] = {{300, "\0", "line 1 is not a whole JSON line (damaged?)"}, /* past the line's index and id */
               {301, "\"", "line 1 is not a whole JSON line (damaged?)"},
               {0, NULL, "its last line is not what this tilefit writes for point 1 now"}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    memcpy(edited, text, two);
    if (cases[k].bytes) {
      edited[cases[k].at] = cases[k].bytes[0];
    } else { /* a value of the second line: one more digit in its "index" is caught earlier, so its last byte */
      char *last_digit = edited + two - 3;
      while (*last_digit < '0' || *last_digit > '9')
        last_digit--;
      *last_digit = *last_digit == '9' ? '8' : (char)(*last_digit + 1);
    }
    spill(part, edited, two);
    tf_error e;
    tf_sweep_stats st;
    ck_assert_int_eq(run(s, (struct runopts){.resume = 1}, part, &st, &e), -1);
    ck_assert_int_eq(e.code, TF_EINPUT);
    ck_assert_msg(strstr(e.msg, cases[k].msg), "case %zu: %s", k, e.msg);
    size_t got;
    char *after = slurp(part, &got);
    ck_assert(got == two && !memcmp(after, edited, two));
    free(after);
  }
  /* held by another writer (flock, as a running --resume holds it) */
  spill(part, text, one);
  int fd = open(part, O_RDWR);
  ck_assert_int_eq(flock(fd, LOCK_EX), 0);
  pid_t pid = fork(); /* flock locks belong to the open file: another process must try */
  if (pid == 0) {
    tf_error e;
    tf_sweep_stats st;
    _exit(run(s, (struct runopts){.resume = 1}, part, &st, &e) == -1 && strstr(e.msg, "another tilefit is writing it")
              ? 0
              : 1);
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a held file was resumed");
  close(fd);
  run_ok(s, (struct runopts){.resume = 1}, part, NULL); /* released: it resumes */
  same_files(part, full);
  free(edited);
  free(text);
  tf_sweep_free(s);
}
END_TEST

/* ------------------------------------------------- lines in memory */

/* A line callback's lines, joined: the bytes a file would hold. */
struct collected {
  char *text;
  size_t len, calls, stop_at; /* stop_at: fail that call (1-based); 0: never */
  int set_error;
};

static int collect(void *ctx, const char *line, size_t len, tf_error *err) {
  struct collected *c = ctx;
  if (++c->calls == c->stop_at)
    return c->set_error ? tf_error_set(err, TF_EOUTPUT, "$.sink", "the reader went away") : 1;
  ck_assert_msg(len > 0 && line[len - 1] == '\n', "a line without its newline: %.*s", (int)len, line);
  c->text = realloc(c->text, c->len + len + 1);
  memcpy(c->text + c->len, line, len);
  c->len += len;
  c->text[c->len] = 0;
  return 0;
}

static int run_lines(tf_sweep *s, struct runopts r, struct collected *c, tf_sweep_stats *st, tf_error *e) {
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  o.jobs = r.jobs ? r.jobs : 1;
  o.format = r.format ? r.format : TF_FORMAT_JSONL;
  o.shard_index = r.shard_index;
  o.shard_count = r.shard_count;
  o.line = collect, o.line_ctx = c;
  tf_error_init(e);
  return tf_sweep_run(s, &o, NULL, st, e);
}

/* PROBLEMS' lines that are not blank, in memory and in a file of their
 * own. */
static size_t list_lines(char **lines, size_t *lens, size_t max) {
  char *text = slurp(PROBLEMS, NULL);
  size_t n = 0;
  FILE *f = fopen(tmp("list.jsonl"), "w");
  for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
    lens[n] = strlen(line) + 1; /* with its newline, as the file's reader hands it over */
    lines[n] = malloc(lens[n] + 1);
    snprintf(lines[n], lens[n] + 1, "%s\n", line);
    fputs(lines[n++], f);
  }
  fclose(f);
  free(text);
  return n;
}

/* A list in memory is the same list in a file (tf_sweep_load_lines shares
 * the file loader's line rule), and the line callback gets the bytes the
 * file writer writes: JSON and CSV, threads, a shard. */
START_TEST(test_lines_in_memory) {
  char *lines[16];
  size_t lens[16], n = list_lines(lines, lens, 16);
  ck_assert_uint_eq(n, 7);
  tf_error e;
  tf_error_init(&e);
  tf_sweep *file = load(tmp("list.jsonl"));
  tf_sweep *mem = tf_sweep_load_lines((const char *const *)lines, lens, n, tmp("list.jsonl"), NULL, &e);
  ck_assert_msg(mem != NULL, "%s: %s", e.path, e.msg);
  ck_assert_uint_eq(tf_sweep_npoints(mem), 7);
  static const struct runopts how[] = {
      {.jobs = 1}, {.jobs = 3, .format = TF_FORMAT_CSV}, {.jobs = 2, .shard_index = 2, .shard_count = 3}};
  for (size_t k = 0; k < sizeof how / sizeof *how; k++) {
    run_ok(file, how[k], tmp("file.out"), NULL);
    struct collected c = {0};
    tf_sweep_stats st;
    ck_assert_msg(run_lines(mem, how[k], &c, &st, &e) == 0, "%s", e.msg);
    size_t len;
    char *want = slurp(tmp("file.out"), &len);
    size_t at = 0;
    while (at < len && at < c.len && c.text[at] == want[at])
      at++;
    ck_assert_msg(c.len == len && at == len, "case %zu: %zu bytes, not %zu, from byte %zu: %.80s", k, c.len, len, at,
                  c.text ? c.text + at : "");
    ck_assert_uint_eq(c.calls, count_lines(want)); /* a call per line, the CSV header one of them */
    ck_assert_uint_eq(st.written, how[k].shard_count ? 2 : 7);
    free(want), free(c.text);
  }
  tf_sweep_free(file);
  tf_sweep_free(mem);
  for (size_t i = 0; i < n; i++)
    free(lines[i]);
}
END_TEST

/* With `where`, a line that does not parse is bad input at where[i]: its
 * path inside the object as the object's own, no file, no line number. */
START_TEST(test_lines_bad_input) {
  static const struct {
    const char *line, *path, *msg;
  } bad[] = {
      {"{\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"d\": true}}", "$.list[1].params.d",
       "expected an integer from -9007199254740992 to 9007199254740992, got true"},
      {"{\"machine\": \"b200\"}", "$.list[1]", "missing required key 'workset'"},
      {"{\"id\": \"broken\", \"machine\": \"b200\", \"workset\": ", "$.list[1]", "line 1, column"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    const char *lines[] = {"{\"machine\": \"b200\", \"workset\": \"fa4-fwd\"}", bad[k].line};
    size_t lens[] = {strlen(lines[0]), strlen(lines[1])};
    tf_error e;
    tf_error_init(&e);
    ck_assert_ptr_null(tf_sweep_load_lines(lines, lens, 2, "", "$.list", &e));
    tf_test_input_error(&e, bad[k].line, "", bad[k].path, bad[k].msg);
    ck_assert_msg(!strncmp(e.msg, bad[k].msg, strlen(bad[k].msg)), "%s", e.msg); /* and first */
    /* where NULL: an error point, as a file's line is */
    tf_error_init(&e);
    tf_sweep *s = tf_sweep_load_lines(lines, lens, 2, "", NULL, &e);
    ck_assert_ptr_nonnull(s);
    struct collected c = {0};
    tf_sweep_stats st;
    ck_assert_int_eq(run_lines(s, (struct runopts){0}, &c, &st, &e), 0);
    ck_assert_uint_eq(st.status[TF_SWEEP_ERROR], 1);
    ck_assert_msg(strstr(c.text, "{\"index\":1,\"total\":2,\"id\":"), "%s", c.text);
    free(c.text);
    tf_sweep_free(s);
  }
  /* the longest line a file may have (model/core/lines.h), and not a byte more */
  size_t len = TF_MAX_LINE_BYTES + 1;
  char *huge = malloc(len + 1);
  memset(huge, ' ', len);
  huge[0] = '{', huge[len - 1] = '}', huge[len] = 0;
  const char *lines[] = {"{\"machine\": \"b200\", \"workset\": \"fa4-fwd\"}", huge};
  size_t lens[] = {strlen(lines[0]), len};
  tf_error e;
  tf_error_init(&e);
  ck_assert_ptr_null(tf_sweep_load_lines(lines, lens, 2, "", "$.list", &e));
  ck_assert_str_eq(e.path, "$.list[1]");
  ck_assert_msg(strstr(e.msg, "line 2: longer than 16777216 bytes"), "%s", e.msg);
  huge[len - 2] = '}', huge[len - 1] = '\n'; /* a newline does not count */
  tf_error_init(&e);
  ck_assert_ptr_null(tf_sweep_load_lines(lines, lens, 2, "", "$.list", &e));
  ck_assert_msg(strstr(e.msg, "missing required key 'machine'"), "%s", e.msg);
  free(huge);
}
END_TEST

/* A callback that fails stops the sweep with its error (or one saying so);
 * a callback does not go with a file, a descriptor or resume. */
START_TEST(test_line_callback_stops) {
  tf_sweep *s = load(SMALL);
  tf_error e;
  tf_sweep_stats st;
  for (int set = 0; set < 2; set++) {
    struct collected c = {.stop_at = 3, .set_error = set};
    ck_assert_int_eq(run_lines(s, (struct runopts){.jobs = 2}, &c, &st, &e), -1);
    ck_assert_uint_eq(st.written, 2);
    ck_assert_uint_eq(count_lines(c.text), 2);
    ck_assert_str_eq(e.msg, set ? "the reader went away" : "the line callback stopped the sweep");
    free(c.text);
  }
  tf_sweep_opts o;
  tf_sweep_opts_init(&o);
  struct collected c = {0};
  o.line = collect, o.line_ctx = &c;
  tf_error_init(&e);
  ck_assert_int_eq(tf_sweep_run(s, &o, tmp("x.jsonl"), &st, &e), -1);
  ck_assert_int_eq(e.code, TF_EINPUT);
  o.out_fd = 1;
  ck_assert_int_eq(tf_sweep_run(s, &o, NULL, &st, &e), -1);
  o.out_fd = -1, o.resume = 1;
  ck_assert_int_eq(tf_sweep_run(s, &o, NULL, &st, &e), -1);
  ck_assert_uint_eq(c.calls, 0);
  struct stat sb;
  ck_assert_int_ne(stat(tmp("x.jsonl"), &sb), 0);
  tf_sweep_free(s);
}
END_TEST

/* ------------------------------------------------------- shards, merge */

START_TEST(test_shards_merge) {
  tf_sweep *s = load(SMALL);
  int csv = _i;
  int fmt = csv ? TF_FORMAT_CSV : TF_FORMAT_JSONL;
  run_ok(s, (struct runopts){.jobs = 2, .format = fmt}, tmp("single"), NULL);
  size_t total = 0;
  for (int i = 1; i <= 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "part%d", i);
    tf_sweep_stats st;
    run_ok(s, (struct runopts){.jobs = i, .format = fmt, .shard_index = i, .shard_count = 3}, tmp(name), &st);
    ck_assert_uint_eq(st.shard_points, i == 3 ? 6 : 7);
    total += st.written;
  }
  ck_assert_uint_eq(total, 20);
  char *parts[] = {strdup(tmp("part2")), strdup(tmp("part3")), strdup(tmp("part1"))};
  tf_error e;
  tf_error_init(&e);
  size_t n;
  ck_assert_msg(tf_sweep_merge(parts, 3, tmp("merged"), TF_FORMAT_TEXT, &n, &e) == 0, "%s", e.msg);
  ck_assert_uint_eq(n, 20);
  same_files(tmp("merged"), tmp("single"));
  /* a missing shard, a shard twice, the wrong format */
  ck_assert_int_eq(tf_sweep_merge(parts, 2, tmp("bad"), TF_FORMAT_TEXT, &n, &e), -1);
  ck_assert_msg(strstr(e.msg, "is missing"), "%s", e.msg);
  char *twice[] = {parts[0], parts[1], parts[2], parts[0]};
  tf_error_init(&e);
  ck_assert_int_eq(tf_sweep_merge(twice, 4, tmp("bad"), TF_FORMAT_TEXT, &n, &e), -1);
  ck_assert_msg(strstr(e.msg, "appears twice"), "%s", e.msg);
  tf_error_init(&e);
  ck_assert_int_eq(tf_sweep_merge(parts, 3, tmp("bad"), csv ? TF_FORMAT_JSONL : TF_FORMAT_CSV, &n, &e), -1);
  /* a torn part */
  size_t len;
  char *text = slurp(parts[0], &len);
  spill(parts[0], text, len - 3);
  tf_error_init(&e);
  ck_assert_int_eq(tf_sweep_merge(parts, 3, tmp("bad"), TF_FORMAT_TEXT, &n, &e), -1);
  ck_assert_msg(strstr(e.msg, "torn"), "%s", e.msg);
  struct stat sb;
  ck_assert_int_ne(stat(tmp("bad"), &sb), 0); /* nothing half written */
  free(text);
  for (int i = 0; i < 3; i++)
    free(parts[i]);
  tf_sweep_free(s);
}
END_TEST

/* ------------------------------------------------------- the binary */

static char out[1 << 14], errbuf[1 << 14];

START_TEST(test_cli_usage) {
  static const struct {
    int rc;
    const char *args, *err;
  } cases[] = {
      {2, "sweep", "needs one SPEC.json"},
      {2, "sweep " SMALL " " SMALL, "unexpected argument"},
      {2, "sweep " SMALL " --resume", "--resume: needs the output file"},
      {2, "sweep " SMALL " --shard 4/3", "--shard"},
      {2, "sweep " SMALL " --format xml", "expected jsonl or csv"},
      {2, "sweep " SMALL " --explain", "unknown option"},
      {2, "sweep /nonexistent.json", "cannot read"},
      {3, "sweep " SMALL " -o /nonexistent/dir/out.jsonl", "cannot write"},
      {2, "merge", "needs at least one PART"},
      {2, "merge -j 2 x", "is an option of 'sweep'"},
      {2, "merge /nonexistent.jsonl", "cannot read"},
      {0, "sweep --help", ""},
      {0, "merge --help", ""},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    int rc = tf_test_run(cases[k].args, out, sizeof out, errbuf, sizeof errbuf);
    ck_assert_msg(rc == cases[k].rc, "'%s': exit %d, want %d (%s)", cases[k].args, rc, cases[k].rc, errbuf);
    ck_assert_msg(strstr(errbuf, cases[k].err), "'%s': stderr '%s' lacks '%s'", cases[k].args, errbuf, cases[k].err);
  }
}
END_TEST

/* Lists on the command line are the spec they stand for: the same points,
 * ids and answers, byte for byte, as the equivalent spec file; an error
 * names the option, not a file. */
START_TEST(test_cli_lists) {
  static char want[1 << 15], got[1 << 15];
  const char *spec = tmp("lists.json");
  FILE *f = fopen(spec, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"machines\": [\"b200\", \"h100-sxm\"], \"worksets\": [\"fa4-fwd\", \"cutlass-sm90-gemm\"],\n"
        " \"params\": {\"d\": [64, 128], \"epilogue_bytes\": [0, 33792]}, \"fix\": {\"q_stage\": [2]},\n"
        " \"require\": [\"stages <= 40\"], \"objectives\": [[\"max stages\"]], \"any_arch\": true}\n",
        f);
  ck_assert_int_eq(fclose(f), 0);
  char args[512];
  snprintf(args, sizeof args, "sweep -q %s", spec);
  ck_assert_int_eq(tf_test_run(args, want, sizeof want, errbuf, sizeof errbuf), 0);
  ck_assert_int_eq(tf_test_run("sweep -q -m b200,h100-sxm -w fa4-fwd,cutlass-sm90-gemm -p d=64,128 "
                               "-p epilogue_bytes=0,33792 --fix q_stage=2 --require 'stages <= 40' "
                               "--objective 'max stages' --any-arch",
                               got, sizeof got, errbuf, sizeof errbuf),
                   0);
  ck_assert_msg(strlen(want) > 1000 && !strcmp(got, want), "lists and spec differ:\n%s\n---\n%s", got, want);
  static const struct {
    const char *args, *err;
  } bad[] = {
      {"sweep -m b200 -w fa4-fwd -p d=64,x", "tilefit: error: -p: 'x' is not an integer in 'd=64,x'\n"},
      {"sweep -m b200 -w fa4-fwd -p zz=1", "tilefit: error: -p zz=1: no workset of the sweep has a param 'zz'\n"},
      {"sweep -m b200 -w fa4-fwd -p d=64 -p d=128",
       "tilefit: error: -p: 'd' is given twice; give its values in one list (-p d=V1,V2,...)\n"},
      {"sweep -m b200 -w fa4-fwd --fix B_r=64 --fix B_r=128", "tilefit: error: --fix: 'B_r' is given twice"},
      {"sweep -m b200 -w fa4-fwd --objective max",
       "tilefit: error: --objective max: binds in no workset of the sweep; in fa4-fwd: expected 'max EXPR'"},
      {"sweep -w fa4-fwd", "tilefit: error: -m: a sweep without a spec file needs both -m and -w"},
      {"sweep " SMALL " -m b200", "tilefit: error: -m: a sweep comes from " SMALL " or from the options, not both\n"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    ck_assert_int_eq(tf_test_run(bad[k].args, got, sizeof got, errbuf, sizeof errbuf), 2);
    ck_assert_msg(!strncmp(errbuf, bad[k].err, strlen(bad[k].err)), "'%s': %s", bad[k].args, errbuf);
    ck_assert_str_eq(got, "");
  }
}
END_TEST

static const char *bin(void) {
  const char *b = getenv("TILEFIT_BIN");
  return b && *b ? b : "./tilefit";
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The shipped 5,000-point spec: -j 1 and -j 2 write the same file, and a
 * sweep killed at a random moment, run again with --resume, writes it too. */
START_TEST(test_cli_kill_resume) {
  char args[512];
  snprintf(args, sizeof args, "sweep %s -j 1 -o %s -q", BIG, tmp("j1.jsonl"));
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, errbuf, sizeof errbuf), 0);
  snprintf(args, sizeof args, "sweep %s -j 2 -o %s", BIG, tmp("j2.jsonl"));
  double t0 = seconds();
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, errbuf, sizeof errbuf), 0);
  double full = seconds() - t0;
  ck_assert_msg(strstr(errbuf, "points/s, -j 2)"), "%s", errbuf); /* the summary reports throughput */
  same_files(tmp("j1.jsonl"), tmp("j2.jsonl"));
  char *text = slurp(tmp("j1.jsonl"), NULL);
  ck_assert_uint_ge(count_lines(text), 5000);
  free(text);
  unsigned seed = (unsigned)tf_test_seed("sweep kill/resume", (unsigned)time(NULL) ^ (unsigned)getpid());
  for (int round = 0; round < 4; round++) {
    const char *part = tmp("killed.jsonl");
    unlink(part);
    useconds_t delay = (useconds_t)(rand_r(&seed) % (unsigned)(full * 1e6 + 1));
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      /* --resume from the first run: the file is then its own checkpoint
       * (without it the result is written whole, at the end) */
      execl(bin(), bin(), "sweep", BIG, "-j", "2", "-o", part, "-q", "--resume", (char *)NULL);
      _exit(127);
    }
    usleep(delay);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    snprintf(args, sizeof args, "sweep %s -j 2 -o %s --resume", BIG, part);
    int rc = tf_test_run(args, out, sizeof out, errbuf, sizeof errbuf);
    ck_assert_msg(rc == 0, "resume after a kill at %u us (seed %u): exit %d: %s", (unsigned)delay, seed, rc, errbuf);
    same_files(part, tmp("j2.jsonl"));
  }
}
END_TEST

/* GNU parallel runs three shards; merged, they are the single run. */
START_TEST(test_cli_gnu_parallel) {
  ck_assert_msg(system("parallel --version >/dev/null 2>&1") == 0,
                "GNU parallel is not installed (apt-get install parallel)");
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s sweep %s -j 2 -o %s/single.csv -q", bin(), BIG, dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "parallel --will-cite --halt now,fail=1 -j 3 %s sweep %s --shard {}/3 -o %s/part-{}.csv -q ::: 1 2 3", bin(),
           BIG, dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "%s merge %s/part-3.csv %s/part-1.csv %s/part-2.csv -o %s/merged.csv -q", bin(), dir, dir,
           dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  same_files(tmp("merged.csv"), tmp("single.csv"));
}
END_TEST

/* `sweep -` read standard input whole under the 16 MiB file limit, while
 * the same list by name was read a line at a time: a 17 MiB list (one
 * problem, then blank lines) now loads both ways. */
START_TEST(test_cli_stdin_list_size) {
  const char *list = tmp("big.jsonl");
  FILE *f = fopen(list, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"id\": \"p\", \"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"d\": 128, \"dv\": 128}}\n", f);
  static char blank[1 << 16];
  memset(blank, ' ', sizeof blank);
  blank[sizeof blank - 1] = '\n';
  for (int i = 0; i < 17 * 16; i++)
    fwrite(blank, 1, sizeof blank, f);
  ck_assert_int_eq(fclose(f), 0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s sweep - -q -o %s < %s 2>%s", bin(), tmp("a.jsonl"), list, tmp("err.txt"));
  int status = system(cmd);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "sweep - of a 17 MiB list: %d", status);
  snprintf(cmd, sizeof cmd, "sweep %s -q -o %s", list, tmp("b.jsonl"));
  ck_assert_int_eq(tf_test_run(cmd, out, sizeof out, errbuf, sizeof errbuf), 0);
  same_files(tmp("a.jsonl"), tmp("b.jsonl"));
}
END_TEST

/* A sweep's CSV header is written before any point is bound; its answer
 * columns must be those solve --csv writes for the bound problem (an
 * occupancy the objective reads through lets, the workset's tie-breaks),
 * for every shipped workset on every shipped machine, with the workset's
 * objectives and, where it has the let, "min time_us", from a spec and
 * from a problem list. */
static void same_columns(const char *m, const char *w, const char *objective) {
  char *argv[] = {"solve", "-m", (char *)m, "-w", (char *)w, "--any-arch", "--objective", (char *)objective};
  tf_test_bound b;
  tf_test_bind_args(&b, objective ? 8 : 6, argv, w);
  tf_csv_columns c;
  memset(&c, 0, sizeof c);
  tf_csv_columns_add_problem(&c, b.problem); /* what tf_report_answers writes after "id," */
  char *solve = tf_csv_columns_header(&c, "index,total,id");
  tf_csv_columns_release(&c);
  tf_test_bound_release(&b);
  char json[512];
  snprintf(json, sizeof json, "{\"machines\": [\"%s\"], \"worksets\": [\"%s\"], \"any_arch\": true%s%s%s}", m, w,
           objective ? ", \"objectives\": [[\"" : "", objective ? objective : "", objective ? "\"]]" : "");
  tf_sweep *s = spec(json);
  ck_assert_msg(!strcmp(tf_sweep_csv_header(s), solve), "%s on %s (%s):\n  solve --csv: %s  sweep:       %s", w, m,
                objective ? objective : "its objectives", solve, tf_sweep_csv_header(s));
  tf_sweep_free(s);
  /* the same problem as a line of a problem list */
  snprintf(json, sizeof json, "{\"machine\": \"%s\", \"workset\": \"%s\", \"any_arch\": true%s%s%s}", m, w,
           objective ? ", \"objective\": [\"" : "", objective ? objective : "", objective ? "\"]" : "");
  const char *lines[] = {json};
  size_t lens[] = {strlen(json)};
  tf_error e;
  tf_error_init(&e);
  s = tf_sweep_load_lines(lines, lens, 1, "", "$.list", &e);
  ck_assert_msg(s != NULL, "%s: %s", json, e.msg);
  ck_assert_msg(!strcmp(tf_sweep_csv_header(s), solve), "%s on %s (%s), a problem line:\n  solve --csv: %s  sweep: %s",
                w, m, objective ? objective : "its objectives", solve, tf_sweep_csv_header(s));
  tf_sweep_free(s);
  free(solve);
}

START_TEST(test_csv_columns_as_solve) {
  size_t nm, nw, pairs = 0, timed = 0;
  char **machines = tf_catalog_list(TF_CATALOG_MACHINES, &nm), **worksets = tf_catalog_list(TF_CATALOG_WORKSETS, &nw);
  ck_assert(nm > 10 && nw > 20);
  for (size_t i = 0; i < nw; i++) {
    tf_error e;
    tf_error_init(&e);
    tf_workset *w = tf_catalog_load(TF_CATALOG_WORKSETS, worksets[i], "-w", &e);
    ck_assert_msg(w != NULL, "%s: %s", worksets[i], e.msg);
    int has_time = tf_workset_resolve(w, "time_us") >= 0;
    tf_workset_free(w);
    for (size_t k = 0; k < nm; k++, pairs++) {
      same_columns(machines[k], worksets[i], NULL);
      if (has_time)
        same_columns(machines[k], worksets[i], "min time_us"), timed++;
    }
  }
  printf("sweep: the CSV columns of %zu workset x machine pairs (%zu also with min time_us) are solve --csv's\n", pairs,
         timed);
  ck_assert(timed > 0);
  tf_catalog_list_free(machines, nm);
  tf_catalog_list_free(worksets, nw);
}
END_TEST

Suite *sweep_suite(void) {
  Suite *s = suite_create("sweep");
  TCase *core = tcase_create("Core");
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_set_timeout(core, 60);
  tcase_add_test(core, test_spec_expansion);
  tcase_add_test(core, test_spec_rules);
  tcase_add_test(core, test_spec_skips_architecture);
  tcase_add_loop_test(core, test_spec_errors, 0, sizeof spec_errors / sizeof *spec_errors);
  tcase_add_test(core, test_spec_unloadable);
  tcase_add_test(core, test_keys);
  tcase_add_test(core, test_key_has_every_field);
  tcase_add_test(core, test_spec_has_every_field);
  tcase_add_test(core, test_pins_not_memoised_together);
  tcase_add_test(core, test_problem_list);
  tcase_add_test(core, test_jobs_identical);
  tcase_add_test(core, test_reuse_identical);
  tcase_add_test(core, test_memo_bounded_identical);
  tcase_add_test(core, test_memo_flat);
  tcase_add_loop_test(core, test_resume_torn, 0, 2);
  tcase_add_test(core, test_resume_refuses);
  tcase_add_test(core, test_resume_damaged);
  tcase_add_loop_test(core, test_shards_merge, 0, 2);
  tcase_add_test(core, test_lines_in_memory);
  tcase_add_test(core, test_lines_bad_input);
  tcase_add_test(core, test_line_callback_stops);
  tcase_add_test(core, test_csv_columns_as_solve);
  suite_add_tcase(s, core);
  TCase *cli = tcase_create("CLI");
  tcase_add_checked_fixture(cli, setup, teardown);
  tcase_set_timeout(cli, 300);
  tcase_add_test(cli, test_cli_usage);
  tcase_add_test(cli, test_cli_lists);
  tcase_add_test(cli, test_cli_kill_resume);
  tcase_add_test(cli, test_cli_gnu_parallel);
  tcase_add_test(cli, test_cli_stdin_list_size);
  suite_add_tcase(s, cli);
  return s;
}
