#include "child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "solver/output.h"

/* What travels back: the return code, the error, the answer. */
struct reply {
  int rc;
  tf_error err;
};

/* The fatal signals die as signals in the child, whatever handlers the
 * host installed (a sanitizer's turns SIGSEGV into exit 1): the parent
 * reports the driver's crash by its name. */
static void default_fatal_signals(void) {
  static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
    signal(fatal[i], SIG_DFL);
}

static void child(tf_child_fn fn, void *ctx, void *out, size_t size, int fd) {
  struct reply r = {0, {0}};
  default_fatal_signals();
  tf_error_init(&r.err);
  r.rc = fn(ctx, out, &r.err);
  int bad = tf_write_all(fd, (const char *)&r, sizeof r) || tf_write_all(fd, out, size);
  _exit(bad ? 1 : 0); /* no atexit handlers of the parent's program */
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Reads exactly len bytes before the deadline; the count read. */
static size_t read_until(int fd, char *buf, size_t len, double deadline) {
  size_t got = 0;
  while (got < len) {
    double left = deadline - now_s();
    struct pollfd p = {fd, POLLIN, 0};
    int k = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    ssize_t n = read(fd, buf + got, len - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  return got;
}

static const char *signal_name(int sig, char *buf, size_t size) {
  static const struct {
    int sig;
    const char *name;
  } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
               {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].sig == sig)
      return names[i].name;
  snprintf(buf, size, "signal %d", sig);
  return buf;
}

/* Why the child gave no whole answer, from how it ended. */
static int no_answer(pid_t pid, int timed_out, const char *what, tf_error *err) {
  int status = 0;
  if (timed_out)
    kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (timed_out)
    return tf_error_set(err, TF_EINPUT, NULL, "no GPU: %s did not answer in time (killed)", what);
  char sig[32];
  if (WIFSIGNALED(status))
    return tf_error_set(err, TF_EINPUT, NULL, "no GPU: %s crashed (%s)", what,
                        signal_name(WTERMSIG(status), sig, sizeof sig));
  return tf_error_set(err, TF_EINPUT, NULL, "no GPU: %s ended the process (exit status %d) before answering", what,
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int tf_run_in_child(tf_child_fn fn, void *ctx, void *out, size_t size, double timeout_s, const char *what,
                    tf_error *err) {
  int fds[2];
  if (pipe(fds))
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot run %s apart: pipe: %s", what, strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot run %s apart: fork: %s", what, strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    child(fn, ctx, out, size, fds[1]);
  }
  close(fds[1]);
  struct reply r;
  double deadline = now_s() + timeout_s;
  size_t got = read_until(fds[0], (char *)&r, sizeof r, deadline);
  if (got == sizeof r)
    got += read_until(fds[0], out, size, deadline);
  int timed_out = got < sizeof r + size && now_s() >= deadline;
  close(fds[0]);
  if (got < sizeof r + size)
    return no_answer(pid, timed_out, what, err);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
    ;
  if (r.rc)
    *err = r.err;
  return r.rc ? -1 : 0;
}
