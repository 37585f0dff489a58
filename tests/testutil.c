#include "tests/testutil.h"

#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/cli/cli.h"

tf_machine tf_test_machine(long smem, long tmem, long rf) {
  tf_machine m;
  memset(&m, 0, sizeof m);
  m.name = "test";
  m.description = "test machine";
  m.arch = "sm_100";
  m.file = "test";
  m.sm_count = 100;
  m.clock_mhz = 1000;
  m.smem.capacity = smem;
  m.smem.per_sm = smem + 1024;
  m.smem.reserved_per_cta = 1024;
  m.smem.granule = 128;
  m.tmem.present = tmem > 0;
  m.tmem.columns = tmem;
  m.tmem.lanes = 128;
  m.tmem.min_alloc_columns = 32;
  m.rf.per_sm = 65536;
  m.rf.per_thread = rf;
  m.rf.warp_granule = 256;
  m.limits.threads_per_sm = 2048;
  m.limits.ctas_per_sm = 32;
  m.limits.threads_per_cta = 1024;
  return m;
}

tf_workset *tf_test_workset(const char *json) {
  tf_error err;
  tf_error_init(&err);
  tf_workset *w = tf_workset_parse(json, strlen(json), "test.json", &err);
  ck_assert_msg(w != NULL, "workset does not load: %s: %s\n%s", err.path, err.msg, json);
  return w;
}

tf_problem *tf_test_bind(const tf_machine *m, const tf_workset *w) {
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  tf_problem *p = tf_problem_new(m, w, &req, &err);
  ck_assert_msg(p != NULL, "%s %s", err.path, err.msg);
  tf_request_release(&req);
  return p;
}

tf_problem *tf_test_problem(const tf_machine *m, const char *json, tf_workset **w) {
  *w = tf_test_workset(json);
  return tf_test_bind(m, *w);
}

void tf_test_bind_args(tf_test_bound *b, int argc, char **argv, const char *what) {
  tf_error e;
  tf_error_init(&e);
  tf_args_init(&b->args);
  ck_assert_msg(tf_args_parse(argc, argv, &tf_cmd_solve, &b->args, &e) == 0, "%s: %s", what, e.msg);
  ck_assert_msg(tf_load(&b->args.req, "-m", "-w", &b->loaded, &e) == 0, "%s: %s", what, e.msg);
  b->problem = tf_problem_new(b->loaded.machine, b->loaded.workset, &b->args.req, &e);
  ck_assert_msg(b->problem != NULL, "%s: %s", what, e.msg);
}

void tf_test_bound_release(tf_test_bound *b) {
  tf_problem_free(b->problem);
  tf_loaded_release(&b->loaded);
  tf_args_release(&b->args);
}

const char *tf_test_tmp_root(void) {
  const char *t = getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

void tf_test_temp_dir(char *dir, size_t size, const char *name) {
  ck_assert((size_t)snprintf(dir, size, "%s/%s-XXXXXX", tf_test_tmp_root(), name) < size);
  ck_assert_msg(mkdtemp(dir) != NULL, "cannot make %s", dir);
}

void tf_test_write(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot write %s", path);
  ck_assert_uint_eq(fwrite(text, 1, len, f), len);
  ck_assert_msg(fclose(f) == 0, "cannot write %s", path);
}

void tf_test_write_text(const char *path, const char *text) { tf_test_write(path, text, strlen(text)); }

void tf_test_remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d));) {
    char path[4096];
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
        (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path)
      unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

unsigned long long tf_test_seed(const char *what, unsigned long long fallback) {
  const char *v = getenv("TILEFIT_SEED");
  unsigned long long seed = v && *v ? strtoull(v, NULL, 10) : fallback;
  printf("%s: seed %llu (TILEFIT_SEED=%llu repeats it)\n", what, seed, seed);
  fflush(stdout);
  return seed;
}

static void slurp(FILE *f, char *buf, size_t size) {
  size_t n = f ? fread(buf, 1, size - 1, f) : 0;
  buf[n] = 0;
}

int tf_test_run(const char *args, char *out, size_t outsize, char *errbuf, size_t errsize) {
  const char *bin = getenv("TILEFIT_BIN");
  char outpath[] = "/tmp/tf_test_outXXXXXX", errpath[] = "/tmp/tf_test_errXXXXXX";
  int fo = mkstemp(outpath), fe = mkstemp(errpath);
  ck_assert(fo >= 0 && fe >= 0);
  close(fo);
  close(fe);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", bin && *bin ? bin : "./tilefit", args, outpath, errpath);
  int status = system(cmd);
  FILE *f = fopen(outpath, "r");
  slurp(f, out, outsize);
  if (f)
    fclose(f);
  f = fopen(errpath, "r");
  slurp(f, errbuf, errsize);
  if (f)
    fclose(f);
  unlink(outpath);
  unlink(errpath);
  ck_assert_msg(WIFEXITED(status), "'%s' did not exit normally", cmd);
  return WEXITSTATUS(status);
}

const char *tf_test_request_variant(const char *key) {
  static const struct {
    const char *key, *member;
  } variant[] = {
      {"id", "\"id\":\"other\""},
      {"machine", "\"machine\":\"h100-sxm\""},
      {"workset", "\"workset\":\"fa2-bwd\""},
      {"params", "\"params\":{\"d\":64}"},
      {"fix", "\"fix\":{\"B_r\":64}"},
      {"domain", "\"domain\":{\"B_c\":[64]}"},
      {"require", "\"require\":[\"B_c <= 64\"]"},
      {"objective", "\"objective\":[\"max stages\"]"},
      {"place", "\"place\":{\"Q\":\"rf\"}"},
      {"any_arch", "\"any_arch\":true"},
      {"solver", "\"solver\":\"glpk\""},
  };
  for (size_t v = 0; v < sizeof variant / sizeof *variant; v++)
    if (!strcmp(variant[v].key, key))
      return variant[v].member;
  return NULL;
}

size_t tf_test_vm_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    fclose(f);
  }
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

void tf_test_big_workset(char *dir, size_t dirsize, char *path, size_t pathsize, const char *name) {
  tf_test_temp_dir(dir, dirsize, name);
  ck_assert((size_t)snprintf(path, pathsize, "%s/big.json", dir) < pathsize);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"name\": \"big\", \"choose\": {", f);
  for (int i = 0; i < 6; i++)
    fprintf(f, "%s\"c%d\": {\"from\": 1, \"to\": 10}", i ? ", " : "", i);
  fputs("}, \"count\": {\"stages\": {\"min\": 1, \"max\": 8}}, \"buffers\": [{\"name\": \"KV\", \"memory\": "
        "\"smem\", \"size\": \"stages * (c0 + c1 + c2 + c3 + c4 + c5) * 16\"}], \"objective\": [\"max stages\"]}\n",
        f);
  fclose(f);
}

void tf_test_input_error(const tf_error *e, const char *what, const char *file, const char *path, const char *msg) {
  ck_assert_msg(e->code == TF_EINPUT, "%s: code %d (%s), want bad input", what, e->code, e->msg);
  ck_assert_msg(!strcmp(e->file, file), "%s: file '%s', want '%s' (%s)", what, e->file, file, e->msg);
  ck_assert_msg(!strcmp(e->path, path), "%s: path '%s', want '%s' (%s)", what, e->path, path, e->msg);
  ck_assert_msg(strstr(e->msg, msg) != NULL, "%s: message '%s' lacks '%s'", what, e->msg, msg);
}

void tf_test_contains(const char *text, ...) {
  va_list ap;
  va_start(ap, text);
  for (const char *part; (part = va_arg(ap, const char *)) != NULL;)
    ck_assert_msg(strstr(text, part) != NULL, "no '%s' in\n%s", part, text);
  va_end(ap);
}
