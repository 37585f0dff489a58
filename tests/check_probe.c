/* tilefit probe against a stub CUDA driver (tests/stub/cuda_h200.c, built
 * by make as $TILEFIT_CUDA_STUB) that answers like an H200: the machine it
 * writes must equal the shipped machines/h200.json number for number, say
 * where each number came from, and load back as a machine. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/input/machine.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static char out[1 << 16], err[1 << 14], text[1 << 16], dir[256], file[300];

static void setup(void) {
  tf_test_temp_dir(dir, sizeof dir, "tf-probe");
  snprintf(file, sizeof file, "%s/h200-probed.json", dir);
  const char *stub = getenv("TILEFIT_CUDA_STUB");
  ck_assert_msg(stub && access(stub, R_OK) == 0,
                "TILEFIT_CUDA_STUB names no stub driver (make check builds build/tests/stub/libcuda-h200.so)");
  setenv("TILEFIT_CUDA_LIB", stub, 1);
}

static void teardown(void) {
  unsetenv("TILEFIT_CUDA_LIB");
  unsetenv("TILEFIT_STUB_FAIL");
  unlink(file);
  rmdir(dir);
}

static void probe_ok(void) {
  char args[512];
  snprintf(args, sizeof args, "probe -o %s", file);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "");
}

START_TEST(test_equals_shipped_h200) {
  probe_ok();
  tf_error e;
  tf_error_init(&e);
  char shipped[512];
  snprintf(shipped, sizeof shipped, "%s/machines/h200.json", getenv("TILEFIT_DATA") ? getenv("TILEFIT_DATA") : ".");
  tf_machine *p = tf_machine_load(file, &e), *h = tf_machine_load(shipped, &e);
  ck_assert_msg(p && h, "%s", e.msg);
  ck_assert_str_eq(p->name, "h200-probed");
  ck_assert_str_eq(p->arch, h->arch);
  /* The probe reads the device's boost ceiling (the stub's 1980 MHz); the
   * shipped machine gives the clock behind the datasheet's peak, 1830 MHz
   * (docs/probe.md). */
  ck_assert_int_eq(p->clock_mhz, 1980);
  ck_assert_int_eq(h->clock_mhz, 1830);
  const int64_t got[] = {p->sm_count,
                         p->hbm_gbps,
                         p->l2_bytes,
                         p->smem.capacity,
                         p->smem.per_sm,
                         p->smem.reserved_per_cta,
                         p->smem.granule,
                         p->smem.ncarveouts,
                         p->smem.bytes_per_clk,
                         p->tmem.present,
                         p->rf.per_sm,
                         p->rf.per_thread,
                         p->rf.warp_granule,
                         p->limits.threads_per_sm,
                         p->limits.ctas_per_sm,
                         p->limits.threads_per_cta,
                         p->throughput.mma_f16_per_clk,
                         p->throughput.mma_f8_per_clk,
                         p->throughput.mma_f4_per_clk,
                         p->throughput.exp_per_clk};
  const int64_t want[] = {h->sm_count,
                          h->hbm_gbps,
                          h->l2_bytes,
                          h->smem.capacity,
                          h->smem.per_sm,
                          h->smem.reserved_per_cta,
                          h->smem.granule,
                          h->smem.ncarveouts,
                          h->smem.bytes_per_clk,
                          h->tmem.present,
                          h->rf.per_sm,
                          h->rf.per_thread,
                          h->rf.warp_granule,
                          h->limits.threads_per_sm,
                          h->limits.ctas_per_sm,
                          h->limits.threads_per_cta,
                          h->throughput.mma_f16_per_clk,
                          h->throughput.mma_f8_per_clk,
                          h->throughput.mma_f4_per_clk,
                          h->throughput.exp_per_clk};
  for (size_t i = 0; i < sizeof got / sizeof *got; i++)
    ck_assert_msg(got[i] == want[i], "field %zu: probed %lld, shipped %lld", i, (long long)got[i], (long long)want[i]);
  for (int i = 0; i < h->smem.ncarveouts; i++)
    ck_assert_int_eq(p->smem.carveouts_kb[i], h->smem.carveouts_kb[i]);
  tf_machine_free(p);
  tf_machine_free(h);
}
END_TEST

START_TEST(test_sources) {
  probe_ok();
  FILE *f = fopen(file, "r");
  ck_assert(f);
  text[fread(text, 1, sizeof text - 1, f)] = 0;
  fclose(f);
  static const char *const want[] = {
      "\"sm_count\":\t\"[dev] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) on NVIDIA H200 = "
      "132\"",
      "\"smem.capacity\":\t\"[dev] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) "
      "on "
      "NVIDIA H200 = 232448\"",
      "\"smem.reserved_per_cta\":\t\"[dev] probe: "
      "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)",
      "\"clock_mhz\":\t\"[dev] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) on NVIDIA H200 = 1980000 "
      "kHz\"",
      "\"hbm_gbps\":\t\"[derived] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) on NVIDIA H200",
      "\"arch\":\t\"[dev] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, _MINOR) on NVIDIA "
      "H200 = 9.0\"",
      "\"smem.granule\":\t\"[doc] from machines/h200.json, the shipped sm_90 model (the CUDA driver does not report "
      "it)",
      "\"throughput.mma_f16_per_clk\":\t\"[derived] from machines/h200.json, the shipped sm_90 model",
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    ck_assert_msg(strstr(text, want[i]), "no %s in\n%s", want[i], text);
}
END_TEST

START_TEST(test_loads_back) {
  probe_ok();
  char args[512], a[1 << 12];
  snprintf(args, sizeof args, "machines %s", file);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "h200-probed: NVIDIA H200 (probed by tilefit probe"), "%s", out);
  /* solving on the probed machine gives what the shipped one gives */
  const char *q =
      "-w cutlass-sm90-gemm --fix tile_m=128 --fix tile_n=128 --fix tile_k=64 --objective 'max stages' --csv";
  snprintf(args, sizeof args, "solve -m %s %s", file, q);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  snprintf(a, sizeof a, "%s", strchr(out, '\n') + 1); /* the row, past the header */
  snprintf(args, sizeof args, "solve -m h200 %s", q);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  /* the rows agree past the id and machine columns */
  ck_assert_str_eq(strchr(strchr(a, ',') + 1, ','), strchr(strchr(strchr(out, '\n') + 1, ',') + 1, ','));
}
END_TEST

START_TEST(test_stdout_named_by_device) {
  ck_assert_int_eq(tf_test_run("probe", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "\"name\":\t\"nvidia-h200\""), "%s", out);
}
END_TEST

static const struct {
  const char *lib, *fail, *want;
} no_gpu[] = {
    {"/nonexistent/libcuda.so.1", NULL,
     "tilefit: error: no GPU: the CUDA driver cannot be loaded: /nonexistent/libcuda.so.1"},
    {NULL, "init", "tilefit: error: no GPU: cuInit failed: CUDA_ERROR_NO_DEVICE (100)\n"},
    {NULL, "count", "tilefit: error: no GPU: the CUDA driver sees no device\n"},
    /* a driver that crashes, aborts, hangs or exits took tilefit with it */
    {NULL, "crash", "tilefit: error: no GPU: the CUDA driver crashed (SIGSEGV)\n"},
    {NULL, "abort", "tilefit: error: no GPU: the CUDA driver crashed (SIGABRT)\n"},
    {NULL, "exit", "tilefit: error: no GPU: the CUDA driver ended the process (exit status 0) before answering\n"},
    {NULL, "hang", "tilefit: error: no GPU: the CUDA driver did not answer in time (killed)\n"},
};

START_TEST(test_no_gpu) {
  if (no_gpu[_i].lib)
    setenv("TILEFIT_CUDA_LIB", no_gpu[_i].lib, 1);
  if (no_gpu[_i].fail)
    setenv("TILEFIT_STUB_FAIL", no_gpu[_i].fail, 1);
  setenv("TILEFIT_PROBE_TIMEOUT", "1", 1);
  char args[512];
  snprintf(args, sizeof args, "probe -o %s", file);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  ck_assert_int_eq(rc, 2);
  ck_assert_msg(!strncmp(err, no_gpu[_i].want, strlen(no_gpu[_i].want)), "want '%s', got '%s'", no_gpu[_i].want, err);
  ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "one line: %s", err);
  ck_assert_str_eq(out, "");
  ck_assert_msg(access(file, F_OK) != 0, "wrote %s", file);
}
END_TEST

/* A device name that is not UTF-8 (and holds ESC) made JSON nothing could
 * read: it becomes '?' and the machine loads. */
START_TEST(test_device_name_not_utf8) {
  setenv("TILEFIT_STUB_FAIL", "name", 1);
  char args[512];
  snprintf(args, sizeof args, "probe -o %s", file);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  snprintf(args, sizeof args, "machines %s", file);
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(strstr(out, "NVIDIA ??? H200"), "%s", out);
}
END_TEST

Suite *probe_suite(void) {
  Suite *s = suite_create("probe");
  TCase *core = tcase_create("core");
  tcase_set_timeout(core, 60);
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_add_test(core, test_equals_shipped_h200);
  tcase_add_test(core, test_sources);
  tcase_add_test(core, test_loads_back);
  tcase_add_test(core, test_stdout_named_by_device);
  tcase_add_loop_test(core, test_no_gpu, 0, sizeof no_gpu / sizeof *no_gpu);
  tcase_add_test(core, test_device_name_not_utf8);
  suite_add_tcase(s, core);
  return s;
}
