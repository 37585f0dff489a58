/* The output-file module (solver/output.c) and every command that writes
 * through it: whole or nothing, the mode kept, links followed and kept,
 * FIFOs and devices written in place, temporary names nobody can plant,
 * a full disk (RLIMIT_FSIZE) never exit 0 and never an existing file lost,
 * an input never overwritten, one error line per failure. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/output.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define SOLVE "solve -m b200 -w fa4-fwd -p d=128 -p dv=128"
#define SMALL "tests/data/sweep/small.json"

static char dir[256];
static char errbuf[1 << 14];

static void setup(void) { tf_test_temp_dir(dir, sizeof dir, "tf-output"); }

/* rm -rf: tests here leave links and FIFOs in dir */
static void teardown(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  (void)!system(cmd);
}

static const char *tmp(const char *name) {
  static char buf[8][PATH_MAX];
  static int k;
  char *p = buf[k++ % 8];
  snprintf(p, PATH_MAX, "%s/%s", dir, name);
  return p;
}

static const char *bin(void) {
  const char *b = getenv("TILEFIT_BIN");
  return b && *b ? b : "./tilefit";
}

/* Names planted in the child, with its PID (the one tilefit will have,
 * exec keeping it): "%d" in `plant` becomes the PID; each is made a
 * symbolic link to `victim`. */
struct spawn {
  long fsize; /* RLIMIT_FSIZE, 0: none */
  const char *plant[4];
  const char *victim;
  int closed_pipe;  /* 1: stdout a pipe nobody reads, SIGPIPE at its default */
  int xfsz_default; /* with fsize: SIGXFSZ at its default action (killing), not ignored */
};

static void child(const struct spawn *sp, const char *script, int errfd) {
  if (dup2(errfd, 2) < 0) /* a pipe: RLIMIT_FSIZE limits files only */
    _exit(126);
  for (int i = 0; i < 4 && sp->plant[i]; i++) {
    char name[PATH_MAX];
    snprintf(name, sizeof name, sp->plant[i], (int)getpid());
    if (symlink(sp->victim, name))
      _exit(125);
  }
  if (sp->closed_pipe) {
    int p[2];
    if (pipe(p) || close(p[0]) || dup2(p[1], 1) < 0)
      _exit(123);
    signal(SIGPIPE, SIG_DFL);
  }
  if (sp->fsize) {
    struct rlimit rl = {(rlim_t)sp->fsize, (rlim_t)sp->fsize};
    signal(SIGXFSZ, sp->xfsz_default ? SIG_DFL : SIG_IGN); /* ignored: writes past the limit fail with EFBIG */
    if (setrlimit(RLIMIT_FSIZE, &rl))
      _exit(124);
  }
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "exec %s", script);
  execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
  _exit(127);
}

/* Runs "tilefit ARGS" (shell words; redirections allowed) with sp; stderr
 * into errbuf; the exit code. */
static int run(const struct spawn *sp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(const struct spawn *sp, const char *fmt, ...) {
  char args[4096], script[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(script, sizeof script, "%s %s", bin(), args);
  static const struct spawn none;
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    child(sp ? sp : &none, script, fds[1]);
  }
  close(fds[1]);
  size_t n = 0;
  for (ssize_t k; n + 1 < sizeof errbuf && (k = read(fds[0], errbuf + n, sizeof errbuf - 1 - n)) > 0;)
    n += (size_t)k;
  errbuf[n] = 0;
  close(fds[0]);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status), "'%s' died of signal %d", script, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  ck_assert_msg(WEXITSTATUS(status) < 124, "'%s': the child could not start (%d)", script, WEXITSTATUS(status));
  return WEXITSTATUS(status);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* The file is there and holds `text`. */
static int same(const char *path, const char *text) {
  const char *got = slurp(path);
  return got && !strcmp(got, text);
}

static int lines(const char *s) {
  int n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}

/* Nothing but `keep` (NULL-terminated names) in the directory: no
 * temporary file left behind. */
static void only(const char *const *keep) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
  FILE *p = popen(cmd, "r");
  char name[512];
  while (fgets(name, sizeof name, p)) {
    name[strcspn(name, "\n")] = 0;
    int known = 0;
    for (size_t i = 0; keep[i]; i++)
      known |= !strcmp(name, keep[i]);
    ck_assert_msg(known, "left behind in the directory: %s", name);
  }
  pclose(p);
}

START_TEST(test_mode_kept) {
  tf_test_write_text(tmp("out.json"), "old\n");
  ck_assert_int_eq(chmod(tmp("out.json"), 0600), 0);
  ck_assert_int_eq(run(NULL, SOLVE " --json -o %s", tmp("out.json")), 0);
  struct stat st;
  ck_assert_int_eq(stat(tmp("out.json"), &st), 0);
  ck_assert_int_eq(st.st_mode & 07777, 0600);
  ck_assert_ptr_nonnull(strstr(slurp(tmp("out.json")), "\"status\""));
  only((const char *const[]){"out.json", NULL});
}
END_TEST

START_TEST(test_symlink_followed_and_kept) {
  tf_test_write_text(tmp("real.json"), "old\n");
  ck_assert_int_eq(symlink("real.json", tmp("link.json")), 0);
  ck_assert_int_eq(run(NULL, SOLVE " --json -o %s", tmp("link.json")), 0);
  struct stat st;
  ck_assert_int_eq(lstat(tmp("link.json"), &st), 0);
  ck_assert_msg(S_ISLNK(st.st_mode), "the link was replaced by a file");
  ck_assert_ptr_nonnull(strstr(slurp(tmp("real.json")), "\"status\""));
  /* a dangling link is not replaced either */
  ck_assert_int_eq(symlink("nowhere/x.json", tmp("dangling.json")), 0);
  ck_assert_int_eq(run(NULL, SOLVE " -o %s", tmp("dangling.json")), 3);
  ck_assert_int_eq(lstat(tmp("dangling.json"), &st), 0);
  ck_assert(S_ISLNK(st.st_mode));
}
END_TEST

/* The names the old code used (FILE.tmp.PID, FILE.tmp for --lp, merge's
 * FILE.tmpPID) planted as links to a victim: none is ever followed. */
START_TEST(test_planted_temporary_names) {
  tf_test_write_text(tmp("victim"), "precious\n");
  char p1[PATH_MAX], p2[PATH_MAX], p3[PATH_MAX];
  snprintf(p1, sizeof p1, "%s/out.json.tmp.%%d", dir);
  snprintf(p2, sizeof p2, "%s/m.lp.tmp", dir);
  snprintf(p3, sizeof p3, "%s/merged.jsonl.tmp%%d", dir);
  struct spawn sp = {.plant = {p1, p2}, .victim = tmp("victim")};
  ck_assert_int_eq(run(&sp, SOLVE " -o %s --lp %s", tmp("out.json"), tmp("m.lp")), 0);
  ck_assert_str_eq(slurp(tmp("victim")), "precious\n");
  ck_assert_ptr_nonnull(strstr(slurp(tmp("m.lp")), "Subject To"));
  ck_assert_int_eq(run(NULL, "sweep " SMALL " -q -o %s", tmp("part.jsonl")), 0);
  struct spawn sm = {.plant = {p3}, .victim = tmp("victim")};
  ck_assert_int_eq(run(&sm, "merge %s -o %s", tmp("part.jsonl"), tmp("merged.jsonl")), 0);
  ck_assert_str_eq(slurp(tmp("victim")), "precious\n");
}
END_TEST

/* A FIFO and /dev/null are written through, never replaced by a file
 * (as root the old code renamed a regular file over /dev/null). */
START_TEST(test_fifo_and_dev_null) {
  ck_assert_int_eq(mkfifo(tmp("fifo"), 0600), 0);
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "cat '%s' > '%s'", tmp("fifo"), tmp("got.json"));
  pid_t reader = fork();
  ck_assert_int_ge(reader, 0);
  if (reader == 0) {
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  ck_assert_int_eq(run(NULL, SOLVE " --json -o %s", tmp("fifo")), 0);
  int status;
  waitpid(reader, &status, 0);
  struct stat st;
  ck_assert_int_eq(lstat(tmp("fifo"), &st), 0);
  ck_assert_msg(S_ISFIFO(st.st_mode), "the FIFO was replaced");
  ck_assert_ptr_nonnull(strstr(slurp(tmp("got.json")), "\"status\""));
  ck_assert_int_eq(run(NULL, SOLVE " -o /dev/null --lp /dev/null"), 0);
  ck_assert_int_eq(lstat("/dev/null", &st), 0);
  ck_assert_msg(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
}
END_TEST

/* A full disk (writes past RLIMIT_FSIZE fail with EFBIG): exit 3, one
 * line, the existing file as it was, nothing left behind; GLPK's --lp and
 * --mps returned 0 there and replaced the model by an empty file. */
START_TEST(test_full_disk) {
  static const char *const outs[] = {"-o", "--lp", "--mps"};
  struct spawn sp = {.fsize = 64};
  for (size_t i = 0; i < 3; i++) {
    tf_test_write_text(tmp("keep.txt"), "an earlier result\n");
    ck_assert_int_eq(run(&sp, SOLVE " %s %s >/dev/null", outs[i], tmp("keep.txt")), 3);
    ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, outs[i]) && strstr(errbuf, "File too large"), "%s: %s", outs[i],
                  errbuf);
    ck_assert_str_eq(slurp(tmp("keep.txt")), "an earlier result\n");
  }
  /* sweep -o: the earlier result is not truncated at the start */
  struct spawn big = {.fsize = 4096};
  ck_assert_int_eq(run(&big, "sweep " SMALL " -q -o %s", tmp("keep.txt")), 3);
  ck_assert_int_eq(lines(errbuf), 1);
  ck_assert_str_eq(slurp(tmp("keep.txt")), "an earlier result\n");
  ck_assert_int_eq(run(NULL, "sweep " SMALL " -q -o %s", tmp("part.jsonl")), 0);
  ck_assert_int_eq(run(&big, "merge %s -o %s", tmp("part.jsonl"), tmp("keep.txt")), 3);
  ck_assert_str_eq(slurp(tmp("keep.txt")), "an earlier result\n");
  only((const char *const[]){"keep.txt", "part.jsonl", NULL});
  /* standard output full: one line, exit 3, for every command */
  ck_assert_int_eq(run(NULL, SOLVE " >/dev/full"), 3);
  ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, "cannot write standard output"), "%s", errbuf);
  ck_assert_int_eq(run(NULL, "machines >&-"), 3);
  ck_assert_msg(lines(errbuf) == 1, "%s", errbuf);
  ck_assert_int_eq(run(NULL, "sweep " SMALL " -q >/dev/full"), 3);
  ck_assert_msg(lines(errbuf) == 1, "%s", errbuf);
  /* SIGXFSZ at its default action, as under a shell's `ulimit -f`: still
   * one line and exit 3, never killed by the signal (it was: exit 153) */
  struct spawn dfl = {.fsize = 64, .xfsz_default = 1}, dfl_big = {.fsize = 4096, .xfsz_default = 1};
  for (size_t i = 0; i < 3; i++) {
    ck_assert_int_eq(run(&dfl, SOLVE " %s %s >/dev/null", outs[i], tmp("keep.txt")), 3);
    ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, "File too large"), "%s: %s", outs[i], errbuf);
  }
  ck_assert_int_eq(run(&dfl_big, "sweep " SMALL " -q -o %s", tmp("keep.txt")), 3);
  ck_assert_int_eq(run(&dfl_big, "sweep " SMALL " -q >%s", tmp("keep.txt")), 3);
  ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, "cannot write standard output: File too large"), "%s", errbuf);
}
END_TEST

/* --lp and --mps write several files (m.lp, m.level2.lp, ... and the same
 * for --mps): a write that fails at any of them leaves every one as it
 * was.  The limit lets m.lp (82 kB) and m.mps (75 kB) through and stops
 * m.level2.lp (87 kB); each level was renamed as it was written and the
 * failure then removed the earlier ones, the old model with them. */
START_TEST(test_full_disk_levels) {
  static const char *const names[] = {"m.lp", "m.level2.lp", "m.level3.lp", "m.mps", "m.level2.mps", "m.level3.mps"};
  for (size_t i = 0; i < 6; i++)
    tf_test_write_text(tmp(names[i]), "an earlier model\n");
  struct spawn sp = {.fsize = 84000};
  ck_assert_int_eq(run(&sp, SOLVE " --lp %s --mps %s >/dev/null", tmp("m.lp"), tmp("m.mps")), 3);
  ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, "--lp: cannot write") && strstr(errbuf, "m.level2.lp") &&
                    strstr(errbuf, "File too large"),
                "%s", errbuf);
  for (size_t i = 0; i < 6; i++)
    ck_assert_msg(same(tmp(names[i]), "an earlier model\n"), "%s was replaced or removed", names[i]);
  /* the third --mps level failing (81 kB) leaves the first two (75 and 80 kB) */
  struct spawn mid = {.fsize = 80500};
  ck_assert_int_eq(run(&mid, SOLVE " --mps %s >/dev/null", tmp("m.mps")), 3);
  for (size_t i = 0; i < 6; i++)
    ck_assert_msg(same(tmp(names[i]), "an earlier model\n"), "%s was replaced or removed", names[i]);
  only((const char *const[]){"m.lp", "m.level2.lp", "m.level3.lp", "m.mps", "m.level2.mps", "m.level3.mps", NULL});
  /* without a limit every file is replaced */
  ck_assert_int_eq(run(NULL, SOLVE " --lp %s --mps %s >/dev/null", tmp("m.lp"), tmp("m.mps")), 0);
  for (size_t i = 0; i < 6; i++)
    ck_assert_msg(slurp(tmp(names[i])) && strstr(slurp(tmp(names[i])), i < 3 ? "Subject To" : "ROWS"), "%s not written",
                  names[i]);
}
END_TEST

/* Standard output a pipe whose reader went away (`tilefit ... | head -1`
 * once head has exited), SIGPIPE at its default action: one line, exit 3,
 * never killed by the signal (run() fails on a signal). */
START_TEST(test_closed_pipe) {
  static const char *const commands[] = {"sweep " SMALL " -q",
                                         "sweep " SMALL " -q -j 2 --format csv",
                                         SOLVE,
                                         SOLVE " --json",
                                         "machines",
                                         "layout -m b200 -w fa4-fwd -p d=128 -p dv=128 --emit c"};
  struct spawn sp = {.closed_pipe = 1};
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    ck_assert_int_eq(run(&sp, "%s", commands[i]), 3);
    ck_assert_msg(lines(errbuf) == 1 && strstr(errbuf, "cannot write standard output: Broken pipe"), "%s: %s",
                  commands[i], errbuf);
  }
}
END_TEST

/* Does the directory hold a name that starts with `prefix`? */
static int has_entry(const char *prefix) {
  DIR *d = opendir(dir);
  int found = 0;
  for (struct dirent *e; d && !found && (e = readdir(d));)
    found = !strncmp(e->d_name, prefix, strlen(prefix));
  if (d)
    closedir(d);
  return found;
}

/* A signal mid-sweep (SIGTERM, SIGINT, SIGHUP at their default actions
 * in the parent): the process dies of it, the old file is as it was, and
 * the temporary file is gone (it was left behind, 1-8 MB each time). */
START_TEST(test_signal_mid_sweep) {
  static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
  for (size_t i = 0; i < 3; i++) {
    tf_test_write_text(tmp("keep.jsonl"), "an earlier result\n");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      for (size_t k = 0; k < 3; k++)
        signal(sigs[k], SIG_DFL);
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
      execl(bin(), bin(), "sweep", "tests/data/sweep/slurm.json", "-q", "-o", tmp("keep.jsonl"), (char *)NULL);
      _exit(127);
    }
    int waited = 0;
    while (!has_entry(".keep.jsonl.") && waited++ < 20000) /* 20 s at most: it appears once the spec is read */
      usleep(1000);
    ck_assert_msg(has_entry(".keep.jsonl."), "no temporary file appeared");
    usleep(50000); /* well inside the 16,000 points */
    ck_assert_int_eq(kill(pid, sigs[i]), 0);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i], "signal %d: status %#x", sigs[i], status);
    ck_assert_str_eq(slurp(tmp("keep.jsonl")), "an earlier result\n");
    only((const char *const[]){"keep.jsonl", NULL});
  }
}
END_TEST

START_TEST(test_output_is_an_input) {
  char *list = strdup(slurp("tests/data/sweep/problems.jsonl"));
  tf_test_write_text(tmp("list.jsonl"), list);
  ck_assert_int_eq(run(NULL, "sweep %s -q -o %s", tmp("list.jsonl"), tmp("list.jsonl")), 2);
  ck_assert_msg(strstr(errbuf, "-o: ") && strstr(errbuf, "also an input"), "%s", errbuf);
  ck_assert_str_eq(slurp(tmp("list.jsonl")), list);
  free(list);
  char *cases = strdup(slurp("tests/data/validate/triton.jsonl"));
  tf_test_write_text(tmp("cases.jsonl"), cases);
  ck_assert_int_eq(run(NULL, "validate %s -o %s", tmp("cases.jsonl"), tmp("cases.jsonl")), 2);
  ck_assert_str_eq(slurp(tmp("cases.jsonl")), cases);
  free(cases);
}
END_TEST

/* A valid 250-byte name: the temporary name is cut to fit NAME_MAX. */
START_TEST(test_long_name) {
  char name[256];
  memset(name, 'a', 250);
  strcpy(name + 245, ".json");
  ck_assert_int_eq(run(NULL, SOLVE " -o %s", tmp(name)), 0);
  ck_assert_ptr_nonnull(slurp(tmp(name)));
  only((const char *const[]){name, NULL});
}
END_TEST

/* The module itself: abandon leaves nothing and the target as it was. */
/* -o FILE takes the whole output: check --cutlass-name's binding lines go
 * to the file before the report, as they go to stdout without -o. */
START_TEST(test_check_name_to_file) {
  static const char name[] = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_"
                             "warpspecialized_cooperative_epi_tma";
  static char out[1 << 14], alone[1 << 14], err[4096];
  char args[1024];
  snprintf(args, sizeof args, "check --cutlass-name %s", name);
  ck_assert_int_eq(tf_test_run(args, alone, sizeof alone, err, sizeof err), 0);
  ck_assert_msg(!strncmp(alone, name, strlen(name)), "%s", alone);
  snprintf(args, sizeof args, "check --cutlass-name %s -o '%s'", name, tmp("check.txt"));
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(!*out, "stdout with -o: %s", out);
  ck_assert_msg(same(tmp("check.txt"), alone), "the file is not what stdout was:\n%s", slurp(tmp("check.txt")));
}
END_TEST

START_TEST(test_abandon_and_commit) {
  tf_output o;
  tf_error err;
  tf_error_init(&err);
  tf_test_write_text(tmp("t.txt"), "before\n");
  ck_assert_int_eq(tf_output_open(&o, tmp("t.txt"), TF_OUTPUT_WHOLE, "-o", &err), 0);
  ck_assert_int_eq(tf_output_write(&o, "after\n", 6, &err), 0);
  ck_assert_str_eq(slurp(tmp("t.txt")), "before\n");
  tf_output_abandon(&o);
  ck_assert_str_eq(slurp(tmp("t.txt")), "before\n");
  only((const char *const[]){"t.txt", NULL});
  ck_assert_int_eq(tf_output_open(&o, tmp("t.txt"), TF_OUTPUT_WHOLE, "-o", &err), 0);
  ck_assert_int_eq(tf_output_write(&o, "after\n", 6, &err), 0);
  ck_assert_int_eq(tf_output_commit(&o, &err), 0);
  ck_assert_str_eq(slurp(tmp("t.txt")), "after\n");
  only((const char *const[]){"t.txt", NULL});
  ck_assert_int_eq(tf_output_open(&o, tmp("nodir/t.txt"), TF_OUTPUT_WHOLE, "-o", &err), -1);
  ck_assert_int_eq(err.code, TF_EOUTPUT);
  ck_assert_str_eq(err.path, "-o");
}
END_TEST

Suite *output_suite(void) {
  Suite *s = suite_create("output");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_mode_kept);
  tcase_add_test(tc, test_symlink_followed_and_kept);
  tcase_add_test(tc, test_planted_temporary_names);
  tcase_add_test(tc, test_full_disk);
  tcase_add_test(tc, test_full_disk_levels);
  tcase_add_test(tc, test_closed_pipe);
  tcase_add_test(tc, test_signal_mid_sweep);
  tcase_add_test(tc, test_output_is_an_input);
  tcase_add_test(tc, test_long_name);
  tcase_add_test(tc, test_abandon_and_commit);
  tcase_add_test(tc, test_check_name_to_file);
  suite_add_tcase(s, tc);
  TCase *dev = tcase_create("devices"); /* apart: never run it against an old binary as root */
  tcase_add_checked_fixture(dev, setup, teardown);
  tcase_set_timeout(dev, 60);
  tcase_add_test(dev, test_fifo_and_dev_null);
  suite_add_tcase(s, dev);
  return s;
}
