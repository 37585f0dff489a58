/* Worksets (model/input/workset.h): every shipped workset loads; every bad
 * fixture in tests/data/worksets/bad fails with TF_EINPUT, its file, the
 * JSON path at fault and a message that shows which check fired.  Some
 * mistakes (a count used non-affinely, cyclic params) are found only when
 * the workset is bound to a machine (tf_problem_new); those fixtures are
 * named bind-*.  Paths are relative to the repository root (tests run from
 * it). */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/bind/problem.h"
#include "model/core/json.h"
#include "model/input/json_read.h"
#include "model/input/latency.h"
#include "model/input/machine.h"
#include "model/input/place.h"
#include "model/input/roofline.h"
#include "model/input/shape.h"
#include "model/input/workset.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define SHIPPED_GLOB "model/worksets/*.json"
#define BAD_DIR "tests/data/worksets/bad"
#define MACHINE "machines/b200.json"

/* ------------------------------------------------------ bad fixtures */

enum stage {
  LOAD, /* tf_workset_load fails */
  BIND, /* the workset loads; tf_problem_new on a B200 fails */
};

/* The fixtures are a small valid workset (BASE_JSON below) with one thing
 * changed; the path is the JSON path the error must name ("" for errors
 * about the whole text; "A|B" accepts either). */
static const struct bad_case {
  const char *fixture;
  enum stage stage;
  const char *path;
  const char *msg;
} bad[] = {
    /* the text */
    {"malformed", LOAD, "", "malformed JSON"},
    {"empty", LOAD, "", "malformed JSON (unexpected end of input)"},
    {"trailing-garbage", LOAD, "", "trailing characters"},
    {"nul-byte", LOAD, "", "contains a NUL byte"},
    {"duplicate-key", LOAD, "$.params", "duplicate key 'd'"},
    {"duplicate-key-nested", LOAD, "$.count.stages", "duplicate key 'min'"},
    {"not-an-object", LOAD, "$", "expected an object"},
    /* the top level */
    {"unknown-root-key", LOAD, "$.buffer", "unknown key 'buffer'"},
    /* roles (model/input/roles.h) */
    {"roles-unknown", LOAD, "$.roles.thread", "unknown role 'thread'; did you mean 'threads'?"},
    {"roles-not-a-let", LOAD, "$.roles.cta_registers", "'d' is not a let of this workset"},
    {"roles-unknown-name", LOAD, "$.roles.threads", "'warps' is not a param or a let of this workset"},
    /* measured_error (model/input/measured_error.h) */
    {"measured-error-not-object", LOAD, "$.measured_error", "expected an object of machine names"},
    {"measured-error-bad-points", LOAD, "$.measured_error.h100-sxm.points", "1"},
    {"measured-error-unknown-key", LOAD, "$.measured_error.h100-sxm.median", "unknown key 'median'"},
    /* include: the fragments are in BAD_DIR/include */
    {"include-not-list", LOAD, "$.include", "expected an array of file names"},
    {"include-not-string", LOAD, "$.include[0]", "expected a file name"},
    {"include-stdin", LOAD, "$.include[1]", "expected a file name"},
    {"include-missing", LOAD, "$.include[0]", "cannot read the fragment 'include/none.json'"},
    {"include-unknown-key", LOAD, "include/unknown-key.json: $.params", "unknown key 'params'"},
    {"include-no-let", LOAD, "include/no-let.json: $", "missing required key 'let'"},
    {"include-twice", LOAD, "include/tile.json: $.let.tile", "name 'tile' is defined twice"},
    {"include-two-fragments", LOAD, "include/tile-area-again.json: $.let.area", "name 'area' is defined twice"},
    {"include-unknown-name", LOAD, "include/unknown-name.json: $.let.area", "unknown name 'width'"},
    {"include-require-not-list", LOAD, "include/require-not-list.json: $.require", "expected an array of constraints"},
    {"include-require-unknown-name", LOAD, "include/require-unknown-name.json: $.require[1]", "unknown name 'width'"},
    {"missing-name", LOAD, "$", "missing required key 'name'"},
    {"name-not-string", LOAD, "$.name", "expected a string"},
    {"comment-not-string", LOAD, "$.comment", "expected a string"},
    {"missing-buffers", LOAD, "$", "missing required key 'buffers'"},
    /* buffers */
    {"empty-buffers", LOAD, "$.buffers", "expected a non-empty list of buffers"},
    {"buffers-not-list", LOAD, "$.buffers", "expected a non-empty list of buffers"},
    {"buffer-not-object", LOAD, "$.buffers[1]", "expected an object"},
    {"unknown-buffer-key", LOAD, "$.buffers[1].bytes", "unknown key 'bytes'"},
    {"buffer-missing-size", LOAD, "$.buffers[0]", "missing required key 'size'"},
    {"place-unknown-memory", LOAD, "$.buffers[1].place[1]", "unknown memory 'gmem'"},
    {"place-twice", LOAD, "$.buffers[0].place[1]", "'smem' is listed twice"},
    {"place-and-memory", LOAD, "$.buffers[0].place", "either 'memory' (fixed) or 'place'"},
    {"place-size-unlisted", LOAD, "$.buffers[0].size.tmem", "not in the buffer's place list"},
    {"place-size-missing", LOAD, "$.buffers[0].size", "no size for rf"},
    {"place-size-one-expr", LOAD, "$.buffers[0].size", "one size fits only byte-sized memories"},
    {"place-size-unknown-memory", LOAD, "$.buffers[0].size.l1", "unknown memory 'l1'"},
    {"place-no-memory-expr-size", LOAD, "$.buffers[0].size", "neither 'memory' nor 'place'"},
    {"alias-self", LOAD, "$.buffers[0].alias", "cannot alias itself"},
    {"alias-missing", LOAD, "$.buffers[0].alias", "no buffer 'p' to alias"},
    {"alias-cycle", LOAD, "$.buffers[0].alias", "cycle"},
    {"lifetime-not-string", LOAD, "$.buffers[0].lifetime", "expected a phase name"},
    {"lifetime-empty", LOAD, "$.buffers[0].lifetime", "expected a phase name"},
    {"lifetime-undeclared", LOAD, "$.buffers[1].lifetime",
     "'mainlop' is not one of $.lifetimes; did you mean 'mainloop'?"},
    {"lifetimes-twice", LOAD, "$.lifetimes[2]", "phase 'mainloop' is listed twice"},
    {"lifetime-alias-differs", LOAD, "$.buffers[0].lifetime", "'q' aliases 'o', so it must have its lifetime"},
    {"layout-order-missing", LOAD, "$.layout_order[1]", "no buffer 'kvv' in this workset; did you mean 'kv'?"},
    {"layout-order-twice", LOAD, "$.layout_order[2]", "buffer 'o' is listed twice"},
    {"layout-order-not-list", LOAD, "$.layout_order", "expected a list of buffer names"},
    {"bind-used-phases-count", BIND, "$.require[0]",
     "used(smem) is not affine: it is the largest of its lifetimes' sums"},
    {"pin-fixed-memory", LOAD, "$.buffers[0].pin", "a pin needs a placed buffer"},
    {"pin-no-rf", LOAD, "$.buffers[0].pin", "a pin needs rf and another memory"},
    {"pin-syntax", LOAD, "$.buffers[0].pin", "unexpected end of expression"},
    {"placed-unknown-buffer", LOAD, "$.let.tile", "placed(x,smem)"},
    {"placed-syntax", LOAD, "$.let.tile", "expected placed(BUFFER, MEMORY)"},
    {"mma-unknown-buffer", LOAD, "$.mma.qk.B", "no buffer 'k'"},
    {"mma-no-inst", LOAD, "$.mma.qk", "missing required key 'inst'"},
    {"arch-bad", LOAD, "$.arch[0]", "not an architecture"},
    {"buffer-name-not-string", LOAD, "$.buffers[0].name", "expected a string"},
    {"unknown-memory", LOAD, "$.buffers[1].memory", "unknown memory 'gmem' (expected smem, tmem or rf)"},
    {"memory-upper-case", LOAD, "$.buffers[0].memory", "unknown memory 'SMEM'"},
    {"buffer-twice", LOAD, "$.buffers[2].name", "buffer 'q' is defined twice"},
    /* BUG: read_buffer reports a non-string comment at the buffer
     * ("$.buffers[0]", message "comment: expected a string") where every
     * other field names its own path. */
    {"buffer-comment-not-string", LOAD, "$.buffers[0].comment", "expected a string"},
    /* A bad size once leaked the buffer's path (LeakSanitizer); so did
     * size-syntax-error and size-too-long. */
    {"buffer-size-wrong-type", LOAD, "$.buffers[0].size", "expected an integer or an expression string"},
    /* names */
    {"bad-name", LOAD, "$.params.2d", "'2d' is not a valid name"},
    {"bad-name-dash", LOAD, "$.choose.B-r", "'B-r' is not a valid name"},
    {"bad-name-empty", LOAD, "$.count.", "'' is not a valid name"},
    {"duplicate-variable", LOAD, "$.choose.B", "name 'B' is defined twice or shadows a machine constant"},
    {"let-shadows-count", LOAD, "$.let.stages", "name 'stages' is defined twice"},
    {"shadows-machine-constant", LOAD, "$.params.sm_count",
     "name 'sm_count' is defined twice or shadows a machine constant"},
    {"choose-shadows-machine-constant", LOAD, "$.choose.smem_capacity", "shadows a machine constant"},
    /* expressions */
    {"size-syntax-error", LOAD, "$.buffers[0].size", "expected ')' at column 11"},
    {"let-syntax-error", LOAD, "$.let.tile", "expected a number, a name or '(' at column 5"},
    {"count-syntax-error", LOAD, "$.count.stages.max", "unexpected end of expression at column 4"},
    {"align-syntax-error", LOAD, "$.buffers[2].align", "unexpected end of expression at column 7"},
    {"size-unknown-name", LOAD, "$.buffers[1].size", "unknown name 'tile_bytes'"},
    {"let-unknown-name", LOAD, "$.let.tile", "unknown name 'D'"},
    {"count-unknown-name", LOAD, "$.count.stages", "unknown name 'kv_bytes'"},
    {"param-unknown-name", LOAD, "$.params.d", "unknown name 'dd'"},
    /* BUG: bind_all binds size and align together and reports an unknown
     * name in "align" at the buffer's size path ("$.buffers[2].size"). */
    {"align-unknown-name", LOAD, "$.buffers[2].align", "unknown name 'granule'"},
    {"size-too-long", LOAD, "$.buffers[0].size", "longer than 4096 characters"},
    /* require, objective */
    {"require-not-list", LOAD, "$.require", "expected a list of strings"},
    {"require-not-string", LOAD, "$.require[1]", "expected a string"},
    {"require-not-comparison", LOAD, "$.require[0]", "expected a comparison 'EXPR <= EXPR'"},
    {"require-conjunction", BIND, "$.require[1]",
     "not affine in count variable 'stages'"}, /* a condition of a count: two requires */
    {"require-chained", LOAD, "$.require[0]", "comparisons do not chain"},
    {"require-unknown-name", LOAD, "$.require[0]", "unknown name 'used(gmem)'"},
    {"objective-no-direction", LOAD, "$.objective[0]", "expected 'max EXPR' or 'min EXPR', got 'stages'"},
    {"objective-maximize", LOAD, "$.objective[0]", "expected 'max EXPR' or 'min EXPR', got 'maximize stages'"},
    {"objective-empty", LOAD, "$.objective[0]", "unexpected end of expression"},
    {"objective-unknown-name", LOAD, "$.objective[1]", "unknown name 'tiles'"},
    {"objective-not-list", LOAD, "$.objective", "expected a list of strings"},
    /* choose domains */
    {"choose-empty", LOAD, "$.choose.B", "expected a non-empty list of integers"},
    {"choose-repeated", LOAD, "$.choose.B[2]", "value 64 appears twice"},
    {"choose-string", LOAD, "$.choose.B[1]", "expected an integer from"},
    {"choose-fraction", LOAD, "$.choose.B[1]", "expected an integer, got 96.5"},
    {"choose-not-object", LOAD, "$.choose", "expected an object of NAME: domain"},
    {"choose-scalar-domain", LOAD, "$.choose.B", "expected a non-empty list"},
    {"range-step-zero", LOAD, "$.choose.B.step", "expected an integer from 1 to"},
    {"range-backwards", LOAD, "$.choose.B.to", "expected an integer from 256 to"},
    {"range-too-large", LOAD, "$.choose.B", "domain has more than 100000 values"},
    {"range-unknown-key", LOAD, "$.choose.B.by", "unknown key 'by'"},
    {"range-missing-to", LOAD, "$.choose.B", "missing required key 'to'"},
    {"range-fraction", LOAD, "$.choose.B.from", "expected an integer, got 0.5"},
    /* counts */
    {"count-missing-max", LOAD, "$.count.stages", "missing required key 'max'"},
    {"count-unknown-key", LOAD, "$.count.stages.step", "unknown key 'step'"},
    {"count-not-object-value", LOAD, "$.count.stages", "expected an object"},
    {"count-not-object", LOAD, "$.count", "expected an object of NAME"},
    {"too-many-counts", LOAD, "$.count", "at most 8 count variables"},
    /* params, lets */
    {"params-not-object", LOAD, "$.params", "expected an object of NAME: value"},
    {"param-fraction", LOAD, "$.params.d", "expected an integer, got 64.5"},
    {"param-beyond-2-53", LOAD, "$.params.d", "beyond 2^53"},
    /* BUG: 9007199254740993 (2^53 + 1) reads as the double 2^53, passes the
     * `fabs(d) > 2^53` check in tf_json_int and silently becomes d = 2^53. */
    {"param-2-53-plus-1", LOAD, "$.params.d", "beyond 2^53"},
    {"param-wrong-type", LOAD, "$.params.d", "expected an integer or an expression string"},
    {"param-null", LOAD, "$.params.d", "expected an integer or an expression string"},
    {"let-not-object", LOAD, "$.let", "expected an object of NAME: expression"},
    {"show-unknown-let", LOAD, "$.show[0]", "'rign' is not a let of this workset; did you mean 'ring'?"},
    {"show-twice", LOAD, "$.show[1]", "'ring' is shown twice"},
    {"show-not-array", LOAD, "$.show", "expected an array of let names"},
    {"rule-two-lines", LOAD, "$.rule", "one line of text"},
    {"rule-bad-arch", LOAD, "$.rule.hopper", "'hopper' is not an arch pattern"},
    /* found when bound to a machine */
    {"bind-count-squared", BIND, "$.buffers[1].size", "not affine in count variable 'stages'"},
    {"bind-count-max", BIND, "$.buffers[1].size", "not affine in count variable 'stages'"},
    {"bind-count-in-let", BIND, "$.let.ring", "not affine in count variable 'stages'"},
    {"bind-cyclic-params", BIND, "$.params.a", "cyclic definition of param 'a'"},
    {"bind-cyclic-param-self", BIND, "$.params.d", "cyclic definition of param 'd'"},
    {"bind-cyclic-lets", BIND, "$.let.x", "cyclic definition of 'x'"},
    {"bind-param-uses-choose", BIND, "$.params.d2",
     "a param default may use only params and machine constants, not 'B'"},
    {"bind-param-inexact", BIND, "$.params.h", "128 / 3 leaves a remainder"},
    {"bind-count-bound-uses-choose", BIND, "$.count.stages",
     "a count bound may use only params and machine constants, not 'B'"},
    {"bind-count-min-above-max", BIND, "$.count.stages", "min 8 is above max 2"},
    {"bind-used-in-let", BIND, "$.let.room", "may appear only in require and objective"},
    {"bind-used-in-size", BIND, "$.buffers[0].size", "may not size a buffer"},
    {"bind-occupancy-let-in-size", BIND, "$.buffers[0].size", "may not size a buffer"}, /* through a let */
    {"bind-require-ne-count", BIND, "$.require[1]", "'!=' cannot constrain a count variable"},
    {"bind-require-inexact", BIND, "$.require[1]",
     "dividing the coefficient 3 of count 'stages' by 2 leaves a remainder"},
    {"bind-align-uses-choose", BIND, "$.buffers[2].align",
     "an alignment may use only params and machine constants, not 'B'"},
    {"bind-align-zero", BIND, "$.buffers[2].align", "alignment must be at least 1, got 0"},
    {"bind-pin-range", BIND, "$.buffers[0].pin", "pin of q is 2; expected -1 (free), 0 (not rf) or 1 (rf)"},
    {"bind-pin-uses-choose", BIND, "$.buffers[0].pin", "a pin may use only params and machine constants, not 'B'"},
    /* BUG: derived_used() sets no path, so this error names no place in the
     * file (err.path is "").  The require that uses used(smem), or the
     * align of the count-dependent buffer, would do. */
    {"bind-used-aligned-count", BIND, "$.require[0]|$.buffers[1].align",
     "used(smem) is not affine: buffer 'kv' depends on a count and is rounded to 1024"},
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

static int path_matches(const char *got, const char *want) {
  size_t n = strlen(got);
  for (const char *p = want;;) {
    const char *bar = strchr(p, '|');
    size_t k = bar ? (size_t)(bar - p) : strlen(p);
    if (k == n && !strncmp(p, got, n))
      return 1;
    if (!bar)
      return 0;
    p = bar + 1;
  }
}

static tf_machine *load_machine(void) {
  tf_error err;
  tf_error_init(&err);
  tf_machine *m = tf_machine_load(MACHINE, &err);
  ck_assert_msg(m != NULL, MACHINE ": %s", err.msg);
  return m;
}

START_TEST(test_bad_fixture) {
  const struct bad_case *c = &bad[_i];
  char file[256];
  snprintf(file, sizeof file, BAD_DIR "/%s.json", c->fixture);
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load(file, &err);
  tf_machine *m = NULL;
  if (c->stage == LOAD) {
    ck_assert_msg(w == NULL, "%s loaded", file);
  } else {
    ck_assert_msg(w != NULL, "%s: %s: %s", file, err.path, err.msg);
    m = load_machine();
    tf_request req;
    tf_request_init(&req);
    tf_problem *p = tf_problem_new(m, w, &req, &err);
    ck_assert_msg(p == NULL, "%s bound to " MACHINE, file);
    tf_request_release(&req);
  }
  ck_assert_msg(err.code == TF_EINPUT, "%s: code %d (%s)", file, err.code, err.msg);
  ck_assert_str_eq(err.file, file);
  ck_assert_msg(path_matches(err.path, c->path), "%s: path '%s', expected '%s' (%s)", file, err.path, c->path, err.msg);
  ck_assert_msg(strstr(err.msg, c->msg) != NULL, "%s: message '%s' lacks '%s'", file, err.msg, c->msg);
  tf_workset_free(w);
  tf_machine_free(m);
}
END_TEST

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* Every fixture on disk is in the table and every table entry is on disk. */
START_TEST(test_bad_table_complete) {
  DIR *d = opendir(BAD_DIR);
  ck_assert_msg(d != NULL, "cannot open " BAD_DIR " (run from the repository root)");
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (!has_suffix(e->d_name, ".json"))
      continue;
    size_t len = strlen(e->d_name) - 5;
    int known = 0;
    for (int i = 0; i < NBAD && !known; i++)
      known = strlen(bad[i].fixture) == len && !strncmp(bad[i].fixture, e->d_name, len);
    ck_assert_msg(known, BAD_DIR "/%s is not in the test's table", e->d_name);
    n++;
  }
  closedir(d);
  ck_assert_int_eq(n, NBAD);
}
END_TEST

/* -------------------------------------------------- shipped worksets */

#define MAX_SHIPPED 256
static char shipped[MAX_SHIPPED][256];
static int nshipped;

static void find_shipped(void) {
  glob_t g;
  nshipped = 0;
  if (glob(SHIPPED_GLOB, 0, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc && nshipped < MAX_SHIPPED; i++)
      snprintf(shipped[nshipped++], sizeof shipped[0], "%s", g.gl_pathv[i]);
    globfree(&g);
  }
}

START_TEST(test_shipped_exist) {
  ck_assert_msg(nshipped > 0, "no workset matches " SHIPPED_GLOB " (run from the repository root)");
}
END_TEST

START_TEST(test_shipped_loads) {
  const char *file = shipped[_i];
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load(file, &err);
  char buf[900];
  tf_error_format(&err, buf, sizeof buf);
  ck_assert_msg(w != NULL, "%s", buf);
  ck_assert_msg(err.code == TF_OK, "%s", buf);
  ck_assert_str_eq(w->file, file);
  ck_assert_str_ne(w->name, "");
  /* every shipped workset states its upstream source: "owner/repo @ <commit>" */
  const char *at = w->comment ? strstr(w->comment, " @ ") : NULL;
  ck_assert_msg(at && strspn(at + 3, "0123456789abcdef") >= 7, "%s: the comment names no 'repo @ commit'", file);
  ck_assert_uint_gt(w->nbuffers, 0);
  ck_assert_uint_le(w->ncounts, TF_MAX_COUNTS);
  for (size_t b = 0; b < w->nbuffers; b++) {
    ck_assert_int_ge(w->buffers[b].memory, 0);
    ck_assert_int_lt(w->buffers[b].memory, TF_NMEM);
    ck_assert_ptr_nonnull(w->buffers[b].size);
  }
  for (size_t i = 0; i < w->nchoose; i++) {
    ck_assert_uint_gt(w->choose[i].nvalues, 0);
    ck_assert_uint_le(w->choose[i].nvalues, TF_MAX_DOMAIN);
  }
  /* every symbol's name resolves back to it */
  int n = tf_workset_nsymbols(w);
  ck_assert_int_ge(n, (int)(w->nparams + TF_NMC + w->nchoose + w->ncounts + w->nlets) + 2 * TF_NMEM);
  for (int sym = 0; sym < n; sym++) {
    char name[64];
    const char *s = tf_workset_sym_name(w, sym, name, sizeof name);
    ck_assert_msg(tf_workset_resolve(w, s) == sym, "%s: symbol %d '%s' resolves to %d", file, sym, s,
                  tf_workset_resolve(w, s));
  }
  tf_workset_free(w);
}
END_TEST

/* ------------------------------------------------------ in memory */

/* The valid workset the bad fixtures start from. */
#define BASE_JSON(CHOOSE_B)                                                            \
  "{\n"                                                                                \
  "  \"name\": \"fixture\",\n"                                                         \
  "  \"comment\": \"A small valid workset; each bad fixture changes one thing.\",\n"   \
  "  \"params\": {\"d\": 128, \"elem\": 2},\n"                                         \
  "  \"choose\": {\"B\": " CHOOSE_B "},\n"                                             \
  "  \"count\": {\"stages\": {\"min\": 1, \"max\": 8}},\n"                             \
  "  \"let\": {\"tile\": \"B * d * elem\"},\n"                                         \
  "  \"buffers\": [\n"                                                                 \
  "    {\"name\": \"q\", \"memory\": \"smem\", \"size\": \"tile\"},\n"                 \
  "    {\"name\": \"kv\", \"memory\": \"smem\", \"size\": \"stages * tile\"},\n"       \
  "    {\"name\": \"o\", \"memory\": \"smem\", \"size\": \"tile\", \"align\": 1024}\n" \
  "  ],\n"                                                                             \
  "  \"require\": [\"used(smem) <= smem_capacity\"],\n"                                \
  "  \"objective\": [\"max stages\"]\n"                                                \
  "}\n"

static tf_workset *parse_text(const char *text, tf_error *err) {
  tf_error_init(err);
  return tf_workset_parse(text, strlen(text), "<memory>", err);
}

static tf_workset *parse_ok(const char *text) {
  tf_error err;
  tf_workset *w = parse_text(text, &err);
  ck_assert_msg(w != NULL, "%s: %s", err.path, err.msg);
  return w;
}

START_TEST(test_base_workset) {
  tf_workset *w = parse_ok(BASE_JSON("[64, 128]"));
  ck_assert_str_eq(w->name, "fixture");
  ck_assert_str_eq(w->file, "<memory>");
  ck_assert_ptr_nonnull(strstr(w->comment, "valid workset"));
  ck_assert_uint_eq(w->nparams, 2);
  ck_assert_str_eq(w->params[0].name, "d");
  ck_assert_str_eq(w->params[0].path, "$.params.d");
  ck_assert_str_eq(tf_expr_text(w->params[0].expr), "128");
  ck_assert_uint_eq(w->nchoose, 1);
  ck_assert_str_eq(w->choose[0].name, "B");
  ck_assert_uint_eq(w->choose[0].nvalues, 2);
  ck_assert_int_eq(w->choose[0].values[0], 64);
  ck_assert_int_eq(w->choose[0].values[1], 128);
  ck_assert_uint_eq(w->ncounts, 1);
  ck_assert_str_eq(w->counts[0].name, "stages");
  ck_assert_uint_eq(w->nlets, 1);
  ck_assert_str_eq(w->lets[0].path, "$.let.tile");
  ck_assert_uint_eq(w->nbuffers, 3);
  ck_assert_str_eq(w->buffers[1].name, "kv");
  ck_assert_int_eq(w->buffers[1].memory, TF_MEM_SMEM);
  ck_assert_str_eq(w->buffers[1].path, "$.buffers[1].size");
  ck_assert_ptr_null(w->buffers[1].align);
  ck_assert_ptr_nonnull(w->buffers[2].align);
  ck_assert_uint_eq(w->nrequire, 1);
  ck_assert_str_eq(w->require[0].path, "$.require[0]");
  ck_assert_uint_eq(w->nobjective, 1);
  ck_assert_int_eq(w->objective[0].maximize, 1);
  ck_assert_str_eq(w->objective[0].text, "max stages");

  /* symbol layout: params | machine constants | choose | counts | lets | derived */
  ck_assert_int_eq(tf_workset_resolve(w, "d"), 0);
  ck_assert_int_eq(tf_workset_resolve(w, "elem"), 1);
  ck_assert_int_eq(tf_workset_resolve(w, "smem_capacity"), tf_workset_sym_machine(w, TF_MC_smem_capacity));
  ck_assert_int_eq(tf_workset_sym_machine(w, 0), 2);
  ck_assert_int_eq(tf_workset_resolve(w, "B"), tf_workset_sym_choose(w, 0));
  ck_assert_int_eq(tf_workset_sym_choose(w, 0), 2 + TF_NMC);
  ck_assert_int_eq(tf_workset_resolve(w, "stages"), tf_workset_sym_count(w, 0));
  ck_assert_int_eq(tf_workset_resolve(w, "tile"), tf_workset_sym_let(w, 0));
  ck_assert_int_eq(tf_workset_resolve(w, "used(smem)"), tf_workset_sym_derived(w, 0, TF_MEM_SMEM));
  ck_assert_int_eq(tf_workset_resolve(w, "slack(rf)"), tf_workset_sym_derived(w, 1, TF_MEM_RF));
  ck_assert_int_gt(tf_workset_nsymbols(w), tf_workset_sym_derived(w, 1, TF_NMEM - 1));
  ck_assert_int_eq(tf_workset_resolve(w, "nosuch"), -1);
  ck_assert_int_eq(tf_workset_resolve(w, "used(gmem)"), -1);
  char buf[32];
  ck_assert_str_eq(tf_workset_sym_name(w, tf_workset_sym_derived(w, 1, TF_MEM_TMEM), buf, sizeof buf), "slack(tmem)");
  ck_assert_str_eq(tf_workset_sym_name(w, tf_workset_sym_machine(w, TF_MC_sm_count), buf, sizeof buf), "sm_count");
  tf_workset_free(w);
}
END_TEST

/* The bind-* fixtures start from a workset that does bind. */
START_TEST(test_base_binds) {
  tf_workset *w = parse_ok(BASE_JSON("[64, 128]"));
  tf_machine *m = load_machine();
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(m, w, &req, &err);
  ck_assert_msg(p != NULL, "%s: %s", err.path, err.msg);
  ck_assert_int_eq(p->ncounts, 1);
  ck_assert_int_eq(p->count_lo[0], 1);
  ck_assert_int_eq(p->count_hi[0], 8);
  ck_assert_uint_eq(p->ncombos, 2);
  ck_assert_int_eq(p->align[2], 1024);
  tf_problem_free(p);
  tf_request_release(&req);
  tf_machine_free(m);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_range_domains) {
  static const struct {
    const char *domain;
    size_t n;
    int64_t first, last;
  } ranges[] = {
      {"{\"from\": 2, \"to\": 11, \"step\": 3}", 4, 2, 11},
      {"{\"from\": 2, \"to\": 12, \"step\": 3}", 4, 2, 11},
      {"{\"from\": -3, \"to\": -3}", 1, -3, -3},
      {"{\"from\": 1, \"to\": 5, \"step\": 10}", 1, 1, 1},
      {"{\"from\": 64, \"to\": 256, \"step\": 64}", 4, 64, 256},
      {"{\"from\": 1, \"to\": 100000}", 100000, 1, 100000},
      {"[3, 1, 2]", 3, 3, 2},
      {"[-9007199254740991, 9007199254740991]", 2, -9007199254740991LL, 9007199254740991LL},
  };
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
    char text[2048];
    snprintf(text, sizeof text, BASE_JSON("%s"), ranges[i].domain);
    tf_workset *w = parse_ok(text);
    ck_assert_msg(w->choose[0].nvalues == ranges[i].n, "%s: %zu values", ranges[i].domain, w->choose[0].nvalues);
    ck_assert_int_eq(w->choose[0].values[0], ranges[i].first);
    ck_assert_int_eq(w->choose[0].values[ranges[i].n - 1], ranges[i].last);
    tf_workset_free(w);
  }
}
END_TEST

/* A list domain of TF_MAX_DOMAIN values loads and one more is refused (too
 * big for a fixture file).  (tf_read_domain used to look for a repeated
 * value with a quadratic scan; it sorts now.) */
static void list_domain(int extra) {
  int n = TF_MAX_DOMAIN + extra;
  size_t cap = (size_t)n * 8 + 16, k = 0;
  char *list = malloc(cap);
  ck_assert_ptr_nonnull(list);
  list[k++] = '[';
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(list + k, cap - k, "%s%d", i ? "," : "", i);
  list[k++] = ']';
  list[k] = 0;
  size_t size = k + 2048;
  char *text = malloc(size);
  ck_assert_ptr_nonnull(text);
  snprintf(text, size, BASE_JSON("%s"), list);
  tf_error err;
  tf_workset *w = parse_text(text, &err);
  if (extra == 0) {
    ck_assert_msg(w != NULL, "%s: %s", err.path, err.msg);
    ck_assert_uint_eq(w->choose[0].nvalues, (size_t)TF_MAX_DOMAIN);
  } else {
    ck_assert_ptr_null(w);
    tf_test_input_error(&err, "a domain one too long", "<memory>", "$.choose.B", "domain has more than 100000 values");
  }
  tf_workset_free(w);
  free(text);
  free(list);
}

START_TEST(test_list_domain_too_long) { list_domain(1); }
END_TEST

START_TEST(test_list_domain_longest) { list_domain(0); }
END_TEST

/* The first repeated value is the one named, wherever the repeats lie; a
 * repeat before a non-integer is reported first, and after one not. */
static void domain_error(const char *list, const char *path, const char *msg) {
  size_t size = strlen(list) + 2048;
  char *text = malloc(size);
  ck_assert_ptr_nonnull(text);
  snprintf(text, size, BASE_JSON("%s"), list);
  tf_error err;
  tf_workset *w = parse_text(text, &err);
  ck_assert_ptr_null(w);
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_str_eq(err.path, path);
  ck_assert_msg(strstr(err.msg, msg), "%s", err.msg);
  free(text);
}

START_TEST(test_list_domain_repeats) {
  domain_error("[5, 3, 9, 3, 5]", "$.choose.B[3]", "value 3 appears twice");
  domain_error("[5, 3, 9, 5, 3]", "$.choose.B[3]", "value 5 appears twice");
  domain_error("[7, 7, 7]", "$.choose.B[1]", "value 7 appears twice");
  domain_error("[1, 1, \"x\"]", "$.choose.B[1]", "value 1 appears twice");
  domain_error("[1, \"x\", 1]", "$.choose.B[1]", "expected an integer");
  /* the longest list, repeating its first value at the end */
  size_t cap = (size_t)TF_MAX_DOMAIN * 8 + 16, k = 0;
  char *list = malloc(cap);
  ck_assert_ptr_nonnull(list);
  list[k++] = '[';
  for (int i = 0; i < TF_MAX_DOMAIN; i++)
    k += (size_t)snprintf(list + k, cap - k, "%s%d", i ? "," : "",
                          i == TF_MAX_DOMAIN - 1 ? TF_MAX_DOMAIN : TF_MAX_DOMAIN - i);
  snprintf(list + k, cap - k, "]");
  char path[64];
  snprintf(path, sizeof path, "$.choose.B[%d]", TF_MAX_DOMAIN - 1);
  domain_error(list, path, "value 100000 appears twice");
  free(list);
}
END_TEST

/* Many names: each resolves to its own symbol, and a repeat of any kind is
 * found, naming where it is repeated.  (Names are looked up in a hash
 * table, model/core/names.h.) */
#define NLETS 20000
static char *many_lets(const char *last_let, const char *last_buffer) {
  size_t cap = (size_t)NLETS * 96 + 4096, k = 0;
  char *t = malloc(cap);
  ck_assert_ptr_nonnull(t);
  k += (size_t)snprintf(t + k, cap - k, "{\"name\": \"many\", \"params\": {\"p\": 1}, \"let\": {");
  for (int i = 0; i < NLETS; i++)
    k += (size_t)snprintf(t + k, cap - k, "%s\"l%d\": \"%s + 1\"", i ? ", " : "", i, i ? "l0" : "p");
  if (last_let)
    k += (size_t)snprintf(t + k, cap - k, ", \"%s\": 1", last_let);
  k += (size_t)snprintf(t + k, cap - k, "}, \"buffers\": [");
  for (int i = 0; i < NLETS; i++)
    k += (size_t)snprintf(t + k, cap - k, "%s{\"name\": \"b%d\", \"memory\": \"rf\", \"size\": \"l%d\"}", i ? ", " : "",
                          i, i);
  if (last_buffer)
    k += (size_t)snprintf(t + k, cap - k, ", {\"name\": \"%s\", \"memory\": \"rf\", \"size\": 1}", last_buffer);
  snprintf(t + k, cap - k, "]}");
  return t;
}

START_TEST(test_many_names) {
  char *text = many_lets(NULL, NULL);
  tf_workset *w = parse_ok(text);
  free(text);
  ck_assert_uint_eq(w->nlets, NLETS);
  char name[32];
  for (int i = 0; i < NLETS; i++) {
    snprintf(name, sizeof name, "l%d", i);
    ck_assert_int_eq(tf_workset_resolve(w, name), tf_workset_sym_let(w, (size_t)i));
  }
  ck_assert_int_eq(tf_workset_resolve(w, "p"), 0);
  ck_assert_int_eq(tf_workset_resolve(w, "l20000"), -1);
  ck_assert_int_eq(tf_workset_resolve(w, "sm_count"), tf_workset_sym_machine(w, TF_MC_sm_count));
  tf_workset_free(w);
  static const struct {
    const char *let, *buffer, *path, *msg;
  } repeats[] = {
      {"l19999", NULL, "$.let", "duplicate key 'l19999'"},
      {"p", NULL, "$.let.p", "name 'p' is defined twice"},
      {NULL, "b0", "$.buffers[20000].name", "buffer 'b0' is defined twice"},
  };
  for (size_t i = 0; i < sizeof repeats / sizeof *repeats; i++) {
    tf_error err;
    text = many_lets(repeats[i].let, repeats[i].buffer);
    ck_assert_ptr_null(parse_text(text, &err));
    free(text);
    ck_assert_str_eq(err.path, repeats[i].path);
    ck_assert_msg(strstr(err.msg, repeats[i].msg), "%s", err.msg);
  }
}
END_TEST

START_TEST(test_parse_require) {
  tf_workset *w = parse_ok(BASE_JSON("[64, 128]"));
  tf_error err;
  tf_error_init(&err);
  tf_expr *e = tf_workset_parse_require(w, "stages * tile <= slack(smem)", "--require", &err);
  ck_assert_msg(e != NULL, "%s", err.msg);
  const tf_expr *l, *r;
  ck_assert_int_eq(tf_expr_relation(e, &l, &r), TF_REL_LE);
  tf_expr_free(e);
  /* a condition joined by && || ! is the relation (condition) == 1, its text as written */
  static const char *const conditions[] = {"tile == 64 || d >= 256", "!(tile == 64)", "tile >= 64 && d > 0"};
  for (size_t i = 0; i < sizeof conditions / sizeof *conditions; i++) {
    tf_error_init(&err);
    e = tf_workset_parse_require(w, conditions[i], "--require", &err);
    ck_assert_msg(e != NULL, "'%s': %s", conditions[i], err.msg);
    ck_assert_int_eq(tf_expr_relation(e, &l, &r), TF_REL_EQ);
    ck_assert_str_eq(tf_expr_text(e), conditions[i]);
    tf_expr_free(e);
  }

  static const struct {
    const char *text, *msg;
  } refused[] = {
      {"stages",
       "expected a comparison 'EXPR <= EXPR' (or <, >=, >, ==, !=) or a condition joined by &&, || or !, got 'stages'"},
      {"tile + d", "or a condition joined by &&, || or !, got 'tile + d'"},
      {"stages <= nosuch", "unknown name 'nosuch'"},
      {"stages <=", "unexpected end of expression at column 10"},
      {"1 < stages < 4", "comparisons do not chain"},
      {"", "unexpected end of expression"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    tf_error_init(&err);
    ck_assert_ptr_null(tf_workset_parse_require(w, refused[i].text, "--require", &err));
    ck_assert_int_eq(err.code, TF_EINPUT);
    ck_assert_str_eq(err.path, "--require");
    ck_assert_msg(strstr(err.msg, refused[i].msg) != NULL, "'%s': '%s' lacks '%s'", refused[i].text, err.msg,
                  refused[i].msg);
  }
  tf_workset_free(w);
}
END_TEST

START_TEST(test_parse_objective) {
  tf_workset *w = parse_ok(BASE_JSON("[64, 128]"));
  static const struct {
    const char *text;
    int maximize;
    const char *kept; /* the text kept in the objective */
  } ok[] = {
      {"max stages", 1, "max stages"},
      {"  min\tB * tile", 0, "min\tB * tile"},
      {"max   used(smem)", 1, "max   used(smem)"},
      {"min -stages", 0, "min -stages"},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    tf_error err;
    tf_error_init(&err);
    tf_objective o;
    memset(&o, 0, sizeof o);
    ck_assert_msg(tf_workset_parse_objective(w, ok[i].text, "--objective", &o, &err) == 0, "'%s': %s", ok[i].text,
                  err.msg);
    ck_assert_int_eq(o.maximize, ok[i].maximize);
    ck_assert_str_eq(o.text, ok[i].kept);
    tf_objective_release(&o);
    ck_assert_ptr_null(o.expr);
  }
  static const struct {
    const char *text, *msg;
  } refused[] = {
      {"stages", "expected 'max EXPR' or 'min EXPR', got 'stages'"},
      {"maxstages", "expected 'max EXPR' or 'min EXPR'"},
      {"max", "expected 'max EXPR' or 'min EXPR'"},
      {"Max stages", "expected 'max EXPR' or 'min EXPR'"},
      {"", "expected 'max EXPR' or 'min EXPR'"},
      {"max ", "unexpected end of expression"},
      {"min stages +", "unexpected end of expression"},
      {"max stagez", "unknown name 'stagez'"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    tf_error err;
    tf_error_init(&err);
    tf_objective o;
    memset(&o, 0, sizeof o);
    ck_assert_int_eq(tf_workset_parse_objective(w, refused[i].text, "--objective", &o, &err), -1);
    ck_assert_int_eq(err.code, TF_EINPUT);
    ck_assert_str_eq(err.path, "--objective");
    ck_assert_msg(strstr(err.msg, refused[i].msg) != NULL, "'%s': '%s' lacks '%s'", refused[i].text, err.msg,
                  refused[i].msg);
    ck_assert_ptr_null(o.expr);
  }
  tf_workset_free(w);
}
END_TEST

/* place, per-memory sizes, alias, placed(), mma uses and arch as read. */
START_TEST(test_placement_read) {
  tf_workset *w = parse_ok("{\"name\": \"pl\", \"arch\": [\"sm_90\", \"sm_10x\"], \"choose\": {\"B\": [64]},"
                           " \"let\": {\"land\": \"placed(P, rf) * B\"},"
                           " \"mma\": {\"pv\": {\"inst\": \"wgmma\", \"A\": \"P\", \"D\": \"S\"}},"
                           " \"buffers\": ["
                           "  {\"name\": \"S\", \"size\": {\"tmem\": \"B\", \"rf\": \"B / 2\"}},"
                           "  {\"name\": \"P\", \"place\": [\"rf\", \"smem\"], \"alias\": \"S\","
                           "   \"size\": {\"smem\": \"B * 64\", \"rf\": \"B / 4\"}},"
                           "  {\"name\": \"Q\", \"place\": [\"smem\"], \"size\": \"land + 1\"}]}");
  ck_assert_uint_eq(w->narch, 2);
  ck_assert_str_eq(w->arch[1], "sm_10x");
  const tf_buffer *S = &w->buffers[0], *P = &w->buffers[1], *Q = &w->buffers[2];
  ck_assert_int_eq(S->from_table, 1);
  ck_assert_int_eq(S->nplace, 2);
  ck_assert_int_eq(S->place[0], TF_MEM_TMEM);
  ck_assert_int_eq(S->place[1], TF_MEM_RF);
  ck_assert_int_eq(P->from_table, 0);
  ck_assert_int_eq(P->memory, TF_MEM_RF);
  ck_assert_ptr_eq(P->size, P->sizes[TF_MEM_RF]);
  ck_assert_str_eq(tf_expr_text(P->sizes[TF_MEM_SMEM]), "B * 64");
  ck_assert_int_eq(P->alias, 0);
  ck_assert_int_eq(Q->nplace, 1);
  ck_assert_int_eq(Q->alias, -1);
  ck_assert_int_eq(tf_buffer_may_live_in(P, TF_MEM_SMEM), 1);
  ck_assert_int_eq(tf_buffer_may_live_in(P, TF_MEM_TMEM), 0);
  ck_assert_uint_eq(w->nmma, 1);
  ck_assert_int_eq(w->mma[0].operand[0], 1);
  ck_assert_int_eq(w->mma[0].operand[1], -1);
  ck_assert_int_eq(w->mma[0].operand[2], 0);
  int sym = tf_workset_resolve(w, "placed(P,rf)");
  ck_assert_int_eq(sym, tf_workset_sym_placed(w, 1, TF_MEM_RF));
  char buf[64];
  ck_assert_str_eq(tf_workset_sym_name(w, sym, buf, sizeof buf), "placed(P,rf)");
  ck_assert_int_eq(tf_workset_resolve(w, "placed(P,gmem)"), -1);
  tf_workset_free(w);
}
END_TEST

START_TEST(test_memories) {
  ck_assert_int_eq(tf_memory_find("smem"), TF_MEM_SMEM);
  ck_assert_int_eq(tf_memory_find("tmem"), TF_MEM_TMEM);
  ck_assert_int_eq(tf_memory_find("rf"), TF_MEM_RF);
  ck_assert_int_eq(tf_memory_find("SMEM"), -1);
  ck_assert_int_eq(tf_memory_find(""), -1);
  ck_assert_int_eq(tf_memory_find("gmem"), -1);
  ck_assert_str_eq(tf_memory_name(TF_MEM_TMEM), "tmem");
  ck_assert_str_eq(tf_memory_unit(TF_MEM_SMEM), "B");
  ck_assert_str_eq(tf_memory_unit(TF_MEM_TMEM), "columns");
  ck_assert_str_eq(tf_memory_unit(TF_MEM_RF), "registers/thread");
  ck_assert_str_eq(tf_machine_constant_names[TF_MC_smem_capacity], "smem_capacity");
  ck_assert_str_eq(tf_machine_constant_names[TF_MC_exp_per_clk], "exp_per_clk");
  ck_assert_str_eq(tf_machine_constant_names[TF_MC_smem_port_rf_mma], "smem_port_rf_mma");
  ck_assert_str_eq(tf_machine_constant_names[TF_MC_gfx], "gfx");
  ck_assert_str_eq(tf_machine_constant_names[TF_NMC - 1], "mma_f32acc_permille");
}
END_TEST

/* A fragment's lets and requires join the workset's after its own,
 * relative to the workset's folder; a fragment's syntax error names the
 * fragment. */
START_TEST(test_include) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load("tests/data/worksets/include/ok.json", &err);
  ck_assert_msg(w != NULL, "%s: %s", err.path, err.msg);
  ck_assert_uint_eq(w->nlets, 2);
  ck_assert_str_eq(w->lets[0].name, "tile");
  ck_assert_str_eq(w->lets[0].path, "parts/tile.json: $.let.tile");
  ck_assert_str_eq(w->lets[1].name, "half");
  ck_assert_str_eq(tf_expr_text(w->lets[1].expr), "tile / 2");
  /* its requires come after the workset's own, named by the fragment */
  ck_assert_uint_eq(w->nrequire, 2);
  ck_assert_str_eq(w->require[0].path, "$.require[0]");
  ck_assert_str_eq(tf_expr_text(w->require[1].expr), "elem >= 1");
  ck_assert_str_eq(w->require[1].path, "parts/tile.json: $.require[0]");
  tf_workset_free(w);
  const char *bad_file = "tests/data/worksets/include/syntax-error.json";
  ck_assert_ptr_null(tf_workset_load(bad_file, &err));
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_str_eq(err.file, "tests/data/worksets/include/parts/syntax-error.json");
  ck_assert_ptr_nonnull(strstr(err.msg, "malformed JSON"));
}
END_TEST

/* An include that names a FIFO (no writer: opening it waited for ever), a
 * directory or a device is refused at once, naming the include and what
 * the file is. */
START_TEST(test_include_not_regular) {
  char dir[256], path[512], fifo[512];
  tf_test_temp_dir(dir, sizeof dir, "tf-include");
  snprintf(fifo, sizeof fifo, "%s/fifo.json", dir);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  static const struct {
    const char *include, *kind;
  } cases[] = {{"fifo.json", "a FIFO"}, {".", "a directory"}, {"/dev/null", "a device"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"name\": \"w\", \"include\": [\"%s\"], \"choose\": {\"B\": [64]}, \"buffers\": "
             "[{\"name\": \"q\", \"memory\": \"smem\", \"size\": \"B\"}], \"objective\": [\"max B\"]}",
             cases[i].include);
    snprintf(path, sizeof path, "%s/w.json", dir);
    tf_test_write_text(path, text);
    tf_error err;
    tf_error_init(&err);
    ck_assert_ptr_null(tf_workset_load(path, &err));
    ck_assert_int_eq(err.code, TF_EINPUT);
    ck_assert_str_eq(err.path, "$.include[0]");
    char want[128];
    snprintf(want, sizeof want, "cannot read the fragment '%s'", cases[i].include);
    ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, cases[i].kind) && strstr(err.msg, "not a regular file"),
                  "%s", err.msg);
  }
  unlink(fifo);
  unlink(path);
  rmdir(dir);
}
END_TEST

/* A fragment listed twice, and a path too long to name the file it
 * means (cut, it would name another), are refused at their index. */
START_TEST(test_include_twice_or_long) {
  char dir[256], path[512], frag[512], text[8192], name[5000];
  tf_test_temp_dir(dir, sizeof dir, "tf-include");
  snprintf(frag, sizeof frag, "%s/f.json", dir);
  tf_test_write_text(frag, "{\"let\": {\"x\": \"B * 2\"}}");
  memset(name, 'a', sizeof name - 1);
  name[sizeof name - 1] = 0;
  const char *includes[] = {"\"f.json\", \"f.json\"", name};
  const char *msgs[] = {"'f.json' is included twice", "the fragment's path is longer than 4095 bytes"};
  const char *paths[] = {"$.include[1]", "$.include[0]"};
  for (int i = 0; i < 2; i++) {
    snprintf(text, sizeof text,
             "{\"name\": \"w\", \"include\": [%s%s%s], \"choose\": {\"B\": [64]}, \"buffers\": "
             "[{\"name\": \"q\", \"memory\": \"smem\", \"size\": \"x\"}], \"objective\": [\"max B\"]}",
             i ? "\"" : "", includes[i], i ? "\"" : "");
    snprintf(path, sizeof path, "%s/w.json", dir);
    tf_test_write_text(path, text);
    tf_error err;
    tf_error_init(&err);
    ck_assert_ptr_null(tf_workset_load(path, &err));
    tf_test_input_error(&err, text, path, paths[i], msgs[i]);
  }
  tf_test_remove_dir(dir);
}
END_TEST

/* Each shipped fragment is included by a shipped workset. */
START_TEST(test_shipped_fragments_used) {
  glob_t g;
  ck_assert_int_eq(glob("model/worksets/include/*.json", 0, NULL, &g), 0);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *name = g.gl_pathv[i] + strlen("model/worksets/");
    int used = 0;
    for (int k = 0; k < nshipped && !used; k++) {
      tf_error err;
      tf_error_init(&err);
      size_t len;
      char *text = tf_read_file(shipped[k], &len, &err);
      ck_assert_msg(text != NULL, "%s: %s", shipped[k], err.msg);
      used = strstr(text, name) != NULL;
      free(text);
    }
    ck_assert_msg(used, "no shipped workset includes %s", name);
  }
  globfree(&g);
}
END_TEST

START_TEST(test_missing_file) {
  tf_error err;
  tf_error_init(&err);
  const char *file = "model/worksets/no-such-workset.json";
  ck_assert_ptr_null(tf_workset_load(file, &err));
  tf_test_input_error(&err, file, file, "", "cannot read");
  tf_workset_free(NULL);
}
END_TEST

/* The names the roofline, its loads and the shape write (their tables,
 * model/input/let_table.h) are the names a workset with all three has,
 * and the table's texts expand the declaration's expressions. */
START_TEST(test_section_names) {
  static const char *const names[] = {
      "cycles",      "bound_by",         "cycles(mma)",   "bound_by(smem)",  "load_bytes",    "compute_cycles",
      "load_cycles", "iteration_cycles", "stages_needed", "pipeline_stages", "latency_bound", "sm_ctas",
      "waves",       "cta_iterations",   "compute_ns",    "hbm_ns",          "fill_ns",       "time_ns",
      "time_us",     "time_bound_by",    "ideal_ns"};
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_load("model/worksets/cutlass-sm80-gemm.json", &err);
  ck_assert_msg(w != NULL, "%s", err.msg);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    ck_assert_msg(tf_roofline_defines(names[i]) + tf_latency_defines(names[i]) + tf_shape_defines(names[i]) == 1,
                  "%s: defined by one section", names[i]);
    ck_assert_msg(tf_workset_resolve(w, names[i]) >= 0, "%s: not a let of cutlass-sm80-gemm", names[i]);
  }
  static const char *const others[] = {"tile_m", "cycles(tmem)", "cycles(", "time", "bound_byx", "stages"};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    ck_assert_msg(!tf_roofline_defines(others[i]) && !tf_latency_defines(others[i]) && !tf_shape_defines(others[i]),
                  "%s: no section's", others[i]);
  const char *waves = NULL;
  for (size_t i = 0; i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, "waves"))
      waves = tf_expr_text(w->lets[i].expr);
  ck_assert_str_eq(waves, "cdiv(tiles, sm_count * occupancy)"); /* "{0}" is the shape's ctas */
  tf_workset_free(w);
}
END_TEST

Suite *workset_suite(void) {
  Suite *s = suite_create("workset");
  find_shipped();
  TCase *shipped_tc = tcase_create("Shipped");
  tcase_set_timeout(shipped_tc, 60);
  tcase_add_test(shipped_tc, test_shipped_exist);
  tcase_add_loop_test(shipped_tc, test_shipped_loads, 0, nshipped);
  suite_add_tcase(s, shipped_tc);
  TCase *errors = tcase_create("Errors");
  tcase_set_timeout(errors, 60);
  tcase_add_loop_test(errors, test_bad_fixture, 0, NBAD);
  tcase_add_test(errors, test_bad_table_complete);
  tcase_add_test(errors, test_missing_file);
  tcase_add_test(errors, test_include);
  tcase_add_test(errors, test_include_not_regular);
  tcase_add_test(errors, test_include_twice_or_long);
  tcase_add_test(shipped_tc, test_shipped_fragments_used);
  suite_add_tcase(s, errors);
  TCase *core = tcase_create("Core");
  tcase_set_timeout(core, 60);
  tcase_add_test(core, test_base_workset);
  tcase_add_test(core, test_base_binds);
  tcase_add_test(core, test_range_domains);
  tcase_add_test(core, test_list_domain_too_long);
  tcase_add_test(core, test_list_domain_repeats);
  tcase_add_test(core, test_many_names);
  tcase_add_test(core, test_parse_require);
  tcase_add_test(core, test_parse_objective);
  tcase_add_test(core, test_memories);
  tcase_add_test(core, test_placement_read);
  tcase_add_test(core, test_section_names);
  suite_add_tcase(s, core);
  TCase *slow = tcase_create("Slow");
  tcase_set_timeout(slow, 60);
  tcase_add_test(slow, test_list_domain_longest);
  suite_add_tcase(s, slow);
  return s;
}
