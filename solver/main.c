/* The only file left out of the test runner: run the command line, then
 * make sure everything written to stdout reached it. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "solver/cli/cli.h"

int main(int argc, char **argv) {
  /* A reader that went away (`tilefit sweep ... | head -1`) is an error
   * to report, exit 3, not a signal: the library's own writes never raise
   * one (solver/output.h), and this covers what goes through stdio. */
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f`: a write fails with EFBIG, exit 3, as on a full disk */
  int rc = tf_cli_main(argc, argv);
  int bad = ferror(stdout);
  errno = 0;
  if (fclose(stdout) != 0 || bad) {
    /* One line per failure: a command that already failed (a write to
     * standard output among its reasons) has said why. */
    if (rc == TF_EXIT_OK || rc == TF_EXIT_NO)
      fprintf(stderr, "tilefit: error: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
    return rc == TF_EXIT_OK || rc == TF_EXIT_NO ? TF_EXIT_INTERNAL : rc;
  }
  return rc;
}
