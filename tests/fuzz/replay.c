/* A fuzz target's libFuzzer entry point run without libFuzzer: linked with
 * one tests/fuzz/fuzz_NAME.c, `replay DIR...` calls LLVMFuzzerInitialize
 * (when the target has one) and then LLVMFuzzerTestOneInput once on every
 * file of the directories given.  `make check` replays each seed corpus
 * tests/fuzz/NAME/ and the crash reproducers tests/fuzz/regress/NAME/ this
 * way (`make fuzz-replay`).
 *
 * The target runs with TMPDIR at a new directory of the driver's own
 * (under $TMPDIR or /tmp), removed at the end, so what it writes there
 * (fuzz_cli's scratch directory) is private to this run.  A crash, a
 * sanitizer's report or an input that takes over INPUT_SECONDS names the
 * input on the driver's own stderr, which the target may have swapped. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUT_SECONDS 60
#define INPUT_BYTES (1 << 20)
#define STR_(x) #x
#define STR(x) STR_(x)

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static int report_fd = 2;      /* the driver's stderr, kept before the target swaps it */
static char current[PATH_MAX]; /* the input being run */

static void say(const char *a, const char *b) {
  if (write(report_fd, a, strlen(a)) < 0 || write(report_fd, b, strlen(b)) < 0 || write(report_fd, "\n", 1) < 0)
    return;
}

static void on_death(void) { say("replay: the target failed on ", current); }

static void on_signal(int sig) {
  say(sig == SIGALRM ? "replay: no answer within " STR(INPUT_SECONDS) " s on " : "replay: killed by a signal on ",
      current);
  signal(sig, SIG_DFL);
  raise(sig);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static char scratch[PATH_MAX];
static void remove_scratch(void) { nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* Every file of `dir` through the target; returns how many, -1 on an error. */
static int replay_dir(const char *dir) {
  static uint8_t data[INPUT_BYTES];
  DIR *d = opendir(dir);
  if (!d)
    return say("replay: cannot open ", dir), -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(current, sizeof current, "%s/%s", dir, e->d_name);
    FILE *f = fopen(current, "rb");
    if (!f)
      return closedir(d), say("replay: cannot read ", current), -1;
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    alarm(INPUT_SECONDS);
    LLVMFuzzerTestOneInput(data, len);
    alarm(0);
    n++;
  }
  closedir(d);
  return n;
}

int main(int argc, char **argv) {
  char here[PATH_MAX], (*dirs)[PATH_MAX] = calloc((size_t)argc, PATH_MAX);
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/tilefit-replay-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!dirs || !getcwd(here, sizeof here) || !mkdtemp(scratch))
    return perror("replay"), 2;
  atexit(remove_scratch);
  for (int i = 1; i < argc; i++) /* absolute: the target may change directory */
    snprintf(dirs[i], PATH_MAX, "%s%s%s", argv[i][0] == '/' ? "" : here, argv[i][0] == '/' ? "" : "/", argv[i]);
  setenv("TMPDIR", scratch, 1);
  report_fd = dup(2);
  int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    signal(sigs[i], on_signal);
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(on_death);
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  int total = 0;
  for (int i = 1; i < argc; i++) {
    int n = replay_dir(dirs[i]);
    if (n < 0)
      return 2;
    total += n;
  }
  free(dirs);
  dprintf(report_fd, "%s: %d inputs replayed\n", argv[0], total);
  return 0;
}
