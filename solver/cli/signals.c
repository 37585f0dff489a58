#include "signals.h"

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static const int fatal[] = {SIGTERM, SIGINT, SIGHUP};
#define NFATAL (sizeof fatal / sizeof *fatal)

static struct sigaction saved[NFATAL];
static int installed[NFATAL];
static char tmp_path[PATH_MAX];
/* 1 while tmp_path holds a whole name: set after the copy, cleared
 * before the next, so the handler (in whichever thread) never reads a
 * name half written.  Lock-free, so safe in a handler. */
static atomic_int armed;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler reads armed: it must be lock-free");

static void on_fatal(int sig) {
  if (atomic_load(&armed))
    unlink(tmp_path);
  /* the default action, delivered when the handler returns (sig is
   * blocked while it runs): the process ends as the signal's */
  signal(sig, SIG_DFL);
  raise(sig);
}

void tf_cli_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NFATAL; i++)
    sigaddset(&sa.sa_mask, fatal[i]); /* one handler at a time */
  for (size_t i = 0; i < NFATAL; i++) {
    struct sigaction old;
    if (installed[i] || sigaction(fatal[i], NULL, &old) || old.sa_handler == SIG_IGN)
      continue;
    installed[i] = !sigaction(fatal[i], &sa, &saved[i]);
  }
}

void tf_cli_signals_restore(void) {
  atomic_store(&armed, 0);
  for (size_t i = 0; i < NFATAL; i++)
    if (installed[i]) {
      sigaction(fatal[i], &saved[i], NULL);
      installed[i] = 0;
    }
}

void tf_cli_signals_tmp(void *ctx, const char *path) {
  (void)ctx;
  atomic_store(&armed, 0);
  if (!path || strlen(path) >= sizeof tmp_path)
    return;
  memcpy(tmp_path, path, strlen(path) + 1);
  atomic_store(&armed, 1);
}
