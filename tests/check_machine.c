/* Machine models: every shipped file loads and says what its sources say;
 * every bad fixture fails with TF_EINPUT, its file and the JSON path at
 * fault.  Paths are relative to the repository root (tests run from it). */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/input/machine.h"
#include "tests/testutil.h"

#define MACHINES_DIR "machines"
#define BAD_DIR "tests/data/machines/bad"

static const char *const shipped[] = {
    "a100", "a10",  "rtx3090", "l40s", "rtx4090", "h100-sxm",     "h100-pcie",
    "h200", "b200", "gb200",   "b300", "rtx5090", "rtx-pro-6000",
};
#define NSHIPPED ((int)(sizeof shipped / sizeof shipped[0]))
static const char *const shipped_amd[] = {"mi300x", "mi355x"};
#define NSHIPPED_AMD ((int)(sizeof shipped_amd / sizeof shipped_amd[0]))

/* Bad fixture, the JSON path its error must name ("" for errors about the
 * whole text), and a piece of the message that shows which check fired. */
static const struct bad_case {
  const char *fixture;
  const char *path;
  const char *msg;
} bad[] = {
    {"malformed", "", "malformed JSON"},
    {"empty", "", "malformed JSON"},
    {"trailing-garbage", "", "trailing characters"},
    {"duplicate-key", "$.smem", "duplicate key 'granule'"},
    {"not-an-object", "$", "expected an object"},
    {"unknown-key", "$.smem.banks", "unknown key 'banks'"},
    {"unknown-root-key", "$.l1_bytes", "unknown key 'l1_bytes'"},
    {"missing-field", "$.smem.capacity", "missing required field"},
    {"missing-section", "$.rf", "missing required object"},
    {"section-wrong-type", "$.limits", "expected an object"},
    {"wrong-type", "$.sm_count", "got a string"},
    {"bool-as-integer", "$.throughput.mma_f8_per_clk", "got a boolean"},
    {"fractional", "$.clock_mhz", "expected an integer, got 2407.5"},
    {"negative-size", "$.l2_bytes", "expected an integer from 1"},
    {"beyond-2-53", "$.hbm_gbps", "beyond 2^53"},
    {"bad-name", "$.name", "[a-z0-9][a-z0-9._-]*"},
    {"bad-arch", "$.arch", "sm_[0-9]+[a-z]* or gfx[0-9a-f]+"},
    {"missing-source", "$.sources['rf.per_thread']", "missing source"},
    {"missing-sources", "$.sources", "missing required object"},
    {"unknown-source", "$.sources['tmem.columns']", "not a numeric field"},
    {"untagged-source", "$.sources['sm_count']", "[derived]"},
    {"source-wrong-type", "$.sources['sm_count']", "expected a string"},
    {"carveout-order", "$.smem.carveouts_kb[3]", "strictly ascending"},
    {"carveout-top", "$.smem.carveouts_kb[4]", "largest carveout"},
    {"carveout-fraction", "$.smem.carveouts_kb[2]", "expected an integer, got 16.5"},
    {"too-many-carveouts", "$.smem.carveouts_kb", "1 to 16"},
    {"capacity-over-per-sm", "$.smem.capacity", "exceeds per_sm"},
    {"granule-not-pow2", "$.smem.granule", "power of two"},
    {"per-thread-256", "$.rf.per_thread", "from 1 to 255 on an sm_ arch"},
    {"per-thread-513", "$.rf.per_thread", "from 1 to 512"},
    {"bad-gfx-arch", "$.arch", "gfx[0-9a-f]+"},
    {"threads-per-cta", "$.limits.threads_per_cta", "exceeds threads_per_sm"},
    {"tmem-min-alloc", "$.tmem.min_alloc_columns", "power of two"},
    {"tmem-missing-lanes", "$.tmem.lanes", "missing required field"},
    {"mma-unknown-memory", "$.mma.wgmma.D[0]", "unknown memory 'l1'"},
    {"mma-tmem-no-tmem", "$.mma.wgmma.A[0]", "no 'tmem' object"},
    {"mma-missing-key", "$.mma.wgmma", "'M'"},
    {"mma-missing-source", "$.sources['mma.wgmmx']", "not a numeric field or table entry"},
    {"edge-bad-name", "$.edges['rf->l1']", "FROM->TO"},
    {"edge-rate-and-port", "$.edges['smem->rf']", "exactly one of"},
    {"edge-bad-rate", "$.edges['l2->smem'].bytes_per_clk", "\"derived\" or \"unmetered\""},
    {"latency-string", "$.latency.hbm_clk", "got a string"},
    {"latency-zero", "$.latency.hbm_clk", "expected an integer from 1 to 1000000"},
    {"latency-unknown-key", "$.latency.l2_clk", "unknown key 'l2_clk'"},
    {"latency-missing-source", "$.sources['latency.hbm_clk']", "missing source"},
    {"latency-source-without-field", "$.sources['latency.hbm_clk']", "not a numeric field"},
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

static tf_machine *load_named(const char *name, tf_error *err) {
  char file[256];
  snprintf(file, sizeof file, MACHINES_DIR "/%s.json", name);
  tf_error_init(err);
  return tf_machine_load(file, err);
}

static tf_machine *load_ok(const char *name) {
  tf_error err;
  tf_machine *m = load_named(name, &err);
  char buf[800];
  tf_error_format(&err, buf, sizeof buf);
  ck_assert_msg(m != NULL, "%s: %s", name, buf);
  ck_assert_int_eq(err.code, TF_OK);
  return m;
}

START_TEST(test_shipped_loads) {
  const char *name = shipped[_i];
  tf_machine *m = load_ok(name);
  char file[256];
  snprintf(file, sizeof file, MACHINES_DIR "/%s.json", name);
  ck_assert_str_eq(m->name, name); /* file stem = name */
  ck_assert_str_eq(m->file, file);
  ck_assert_ptr_nonnull(strstr(m->description, "NVIDIA"));
  ck_assert_int_eq(m->smem.capacity + m->smem.reserved_per_cta, m->smem.per_sm);
  ck_assert_int_eq(m->smem.reserved_per_cta, 1024);
  ck_assert_int_eq(m->smem.granule, 128);
  ck_assert_int_eq(m->smem.carveouts_kb[0], 0);
  int tcgen05 = !strcmp(m->arch, "sm_100") || !strcmp(m->arch, "sm_103");
  ck_assert_int_eq(m->tmem.present, tcgen05);
  ck_assert_int_eq(m->rf.per_sm, 65536);
  ck_assert_int_eq(m->rf.per_thread, 255);
  ck_assert_int_eq(m->throughput.exp_per_clk, 16);
  tf_machine_free(m);
}
END_TEST

/* AMD: LDS is one fixed array per CU (one "carveout", all of it, no
 * reserve), allocated in 512-byte granules; VGPRs up to 512 per lane. */
START_TEST(test_amd_loads) {
  tf_machine *m = load_ok(shipped_amd[_i]);
  ck_assert_ptr_nonnull(strstr(m->description, "AMD"));
  ck_assert_int_eq(strncmp(m->arch, "gfx9", 4), 0);
  ck_assert_int_eq(m->smem.capacity, m->smem.per_sm);
  ck_assert_int_eq(m->smem.reserved_per_cta, 0);
  ck_assert_int_eq(m->smem.granule, 512);
  ck_assert_int_eq(m->smem.ncarveouts, 1);
  ck_assert_int_eq(m->smem.carveouts_kb[0] * 1024, m->smem.per_sm);
  ck_assert_int_eq(m->tmem.present, 0);
  ck_assert_int_eq(m->rf.per_sm, 131072);
  ck_assert_int_eq(m->rf.per_thread, 512);
  ck_assert_int_eq(m->limits.threads_per_sm, 2048);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_mi300x_mi355x) {
  static const struct {
    const char *name, *arch;
    int64_t cus, lds, f16, f4;
  } want[] = {{"mi300x", "gfx942", 304, 65536, 2048, 0}, {"mi355x", "gfx950", 256, 163840, 4096, 16384}};
  tf_machine *m = load_ok(want[_i].name);
  ck_assert_str_eq(m->arch, want[_i].arch);
  ck_assert_int_eq(m->sm_count, want[_i].cus);
  ck_assert_int_eq(m->smem.capacity, want[_i].lds);
  ck_assert_int_eq(m->throughput.mma_f16_per_clk, want[_i].f16);
  ck_assert_int_eq(m->throughput.mma_f4_per_clk, want[_i].f4);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_b200) {
  tf_machine *m = load_ok("b200");
  ck_assert_str_eq(m->arch, "sm_100");
  ck_assert_int_eq(m->sm_count, 148);
  ck_assert_int_eq(m->clock_mhz, 1856); /* the datasheet peak's clock */
  ck_assert_int_eq(m->l2_bytes, 132644864);
  ck_assert_int_eq(m->smem.capacity, 232448);
  ck_assert_int_eq(m->smem.per_sm, 233472);
  ck_assert_int_eq(m->smem.ncarveouts, 10);
  ck_assert_int_eq(m->smem.carveouts_kb[9], 228);
  ck_assert_int_eq(m->smem.bytes_per_clk, 128);
  ck_assert_int_eq(m->tmem.present, 1);
  ck_assert_int_eq(m->tmem.columns, 512);
  /* the sources are kept: one per numeric field (and arch), in file order */
  ck_assert_uint_ge(m->nsources, 20);
  ck_assert_str_eq(m->sources[0].field, "arch");
  int found = 0;
  for (size_t i = 0; i < m->nsources; i++)
    if (!strcmp(m->sources[i].field, "smem.capacity"))
      found = strstr(m->sources[i].text, "232448") != NULL;
  ck_assert_msg(found, "the smem.capacity source names 232448");
  ck_assert_int_eq(m->tmem.lanes, 128);
  ck_assert_int_eq(m->tmem.min_alloc_columns, 32);
  ck_assert_int_eq(m->throughput.mma_f16_per_clk, 8192);
  ck_assert_int_eq(m->throughput.mma_f4_per_clk, 32768);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_a100) {
  tf_machine *m = load_ok("a100");
  ck_assert_str_eq(m->arch, "sm_80");
  ck_assert_int_eq(m->smem.capacity, 166912);
  ck_assert_int_eq(m->smem.ncarveouts, 8);
  ck_assert_int_eq(m->smem.carveouts_kb[7], 164);
  ck_assert_int_eq(m->tmem.present, 0);
  ck_assert_int_eq(m->limits.threads_per_sm, 2048);
  ck_assert_int_eq(m->throughput.mma_f16_per_clk, 2048);
  ck_assert_int_eq(m->throughput.mma_f8_per_clk, 0);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_rtx5090) {
  tf_machine *m = load_ok("rtx5090");
  ck_assert_str_eq(m->arch, "sm_120");
  ck_assert_int_eq(m->smem.capacity, 101376);
  ck_assert_int_eq(m->smem.ncarveouts, 6);
  ck_assert_int_eq(m->tmem.present, 0);
  ck_assert_int_eq(m->tmem.columns, 0);
  ck_assert_int_eq(m->limits.ctas_per_sm, 24);
  tf_machine_free(m);
}
END_TEST

START_TEST(test_h100_sxm) {
  tf_machine *m = load_ok("h100-sxm");
  ck_assert_int_eq(m->smem.capacity, 232448);
  ck_assert_int_eq(m->tmem.present, 0);
  ck_assert_int_eq(m->sm_count, 132);
  const tf_mma_inst *wg = tf_datapath_mma(&m->datapath, "wgmma");
  ck_assert_ptr_nonnull(wg);
  ck_assert_int_eq(wg->m, 64);
  ck_assert_uint_eq(wg->sources[TF_MMA_B], 1u << TF_MEM_SMEM);
  ck_assert_uint_eq(wg->sources[TF_MMA_A], (1u << TF_MEM_SMEM) | (1u << TF_MEM_RF));
  ck_assert_ptr_null(tf_datapath_mma(&m->datapath, "tcgen05"));
  ck_assert_int_eq(tf_datapath_edge(&m->datapath, "smem->mma")->kind, TF_EDGE_PORT);
  ck_assert_int_eq(tf_datapath_edge(&m->datapath, "rf->mma")->kind, TF_EDGE_UNMETERED);
  ck_assert_int_eq(tf_datapath_edge(&m->datapath, "hbm->smem")->kind, TF_EDGE_DERIVED);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_90"), 1);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_90a"), 1);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_80+"), 1);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_100+"), 0);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_9x"), 1);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_10x"), 0);
  ck_assert_int_eq(tf_machine_arch_matches(m, "gfx942"), 0);
  ck_assert_int_eq(tf_machine_arch_matches(m, "sm_9-"), -1);
  ck_assert_int_eq(tf_arch_pattern_valid("sm_"), 0);
  tf_machine_free(m);
}
END_TEST

/* Every sm_ machine has the mma table its architecture's kernels name. */
START_TEST(test_mma_tables) {
  tf_machine *m = load_ok(shipped[_i]);
  ck_assert_ptr_nonnull(tf_datapath_mma(&m->datapath, "mma.sync"));
  int sm90 = tf_machine_arch_matches(m, "sm_90") == 1, sm100 = tf_machine_arch_matches(m, "sm_10x") == 1;
  ck_assert_int_eq(tf_datapath_mma(&m->datapath, "wgmma") != NULL, sm90);
  ck_assert_int_eq(tf_datapath_mma(&m->datapath, "tcgen05") != NULL, sm100);
  ck_assert_int_eq(tf_datapath_edge(&m->datapath, "smem->mma") != NULL, sm90 || sm100);
  tf_machine_free(m);
}
END_TEST

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* Counts the .json files in `dir`; each stem must be `known`. */
static int scan_json(const char *dir, int (*known)(const char *stem)) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s (run from the repository root)", dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (!has_suffix(e->d_name, ".json"))
      continue;
    char stem[256];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(e->d_name) - 5), e->d_name);
    ck_assert_msg(known(stem), "%s/%s is not in the test's table", dir, e->d_name);
    n++;
  }
  closedir(d);
  return n;
}

static int is_shipped(const char *stem) {
  for (int i = 0; i < NSHIPPED; i++)
    if (!strcmp(stem, shipped[i]))
      return 1;
  for (int i = 0; i < NSHIPPED_AMD; i++)
    if (!strcmp(stem, shipped_amd[i]))
      return 1;
  return 0;
}

static int is_bad(const char *stem) {
  for (int i = 0; i < NBAD; i++)
    if (!strcmp(stem, bad[i].fixture))
      return 1;
  return 0;
}

START_TEST(test_tables_complete) {
  ck_assert_int_eq(scan_json(MACHINES_DIR, is_shipped), NSHIPPED + NSHIPPED_AMD);
  ck_assert_int_eq(scan_json(BAD_DIR, is_bad), NBAD);
}
END_TEST

START_TEST(test_bad_fixture) {
  const struct bad_case *c = &bad[_i];
  char file[256];
  snprintf(file, sizeof file, BAD_DIR "/%s.json", c->fixture);
  tf_error err;
  tf_error_init(&err);
  tf_machine *m = tf_machine_load(file, &err);
  ck_assert_msg(m == NULL, "%s loaded", file);
  tf_test_input_error(&err, file, file, c->path, c->msg);
}
END_TEST

START_TEST(test_missing_file) {
  tf_error err;
  tf_machine *m = load_named("no-such-gpu", &err);
  ck_assert_ptr_null(m);
  tf_test_input_error(&err, "no-such-gpu", MACHINES_DIR "/no-such-gpu.json", "", "cannot read");
}
END_TEST

/* In-memory parsing names the given label, and the machine outlives the text. */
START_TEST(test_parse_memory) {
  FILE *f = fopen(MACHINES_DIR "/b300.json", "rb");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  ck_assert_uint_lt(len, sizeof text - 1);
  tf_error err;
  tf_error_init(&err);
  tf_machine *m = tf_machine_parse(text, len, "<memory>", &err);
  ck_assert_ptr_nonnull(m);
  memset(text, 0, sizeof text);
  ck_assert_str_eq(m->file, "<memory>");
  ck_assert_str_eq(m->name, "b300");
  ck_assert_str_eq(m->arch, "sm_103");
  ck_assert_int_eq(m->tmem.present, 1);
  tf_machine_free(m);

  const char *broken = "{\"name\": \"x\"}";
  tf_error_init(&err);
  ck_assert_ptr_null(tf_machine_parse(broken, strlen(broken), "<memory>", &err));
  ck_assert_str_eq(err.file, "<memory>");
  ck_assert_str_eq(err.path, "$.smem");
}
END_TEST

START_TEST(test_free_null) { tf_machine_free(NULL); }
END_TEST

Suite *machine_suite(void) {
  Suite *s = suite_create("machine");
  TCase *core = tcase_create("Core");
  tcase_set_timeout(core, 60);
  tcase_add_loop_test(core, test_shipped_loads, 0, NSHIPPED);
  tcase_add_loop_test(core, test_amd_loads, 0, NSHIPPED_AMD);
  tcase_add_loop_test(core, test_mi300x_mi355x, 0, 2);
  tcase_add_test(core, test_b200);
  tcase_add_test(core, test_a100);
  tcase_add_test(core, test_rtx5090);
  tcase_add_test(core, test_h100_sxm);
  tcase_add_loop_test(core, test_mma_tables, 0, NSHIPPED);
  tcase_add_test(core, test_tables_complete);
  tcase_add_test(core, test_parse_memory);
  tcase_add_test(core, test_free_null);
  suite_add_tcase(s, core);
  TCase *errors = tcase_create("Errors");
  tcase_set_timeout(errors, 60);
  tcase_add_loop_test(errors, test_bad_fixture, 0, NBAD);
  tcase_add_test(errors, test_missing_file);
  suite_add_tcase(s, errors);
  return s;
}
