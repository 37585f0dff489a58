/* The only file left out of the test runner: run the command line, then
 * make sure everything written to stdout reached it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "solver/cli/cli.h"

int main(int argc, char **argv) {
  int rc = tf_cli_main(argc, argv);
  int bad = ferror(stdout);
  if (fclose(stdout) != 0 || bad) {
    fprintf(stderr, "tilefit: error: writing output failed: %s\n", strerror(errno ? errno : EIO));
    return TF_EXIT_INTERNAL;
  }
  return rc;
}
