/* The only file left out of the test runner: run the command line, then
 * make sure everything written to stdout reached it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "solver/cli/cli.h"

int main(int argc, char **argv) {
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
