/* libFuzzer entry point: command-line argument vectors, one argument per
 * input line, through tf_cli_main in-process.  Built and run by
 * `make fuzz`; seeds in tests/fuzz/cli/.
 *
 * The target runs in a scratch directory (TF_FUZZ_SCRATCH, default a new
 * $TMPDIR/tilefit-fuzz-cli-XXXXXX) holding small fixtures, with TILEFIT_DATA at the
 * directory it was started from, so shipped names resolve.  tilefit's
 * stdout and stderr are pointed at /dev/null by swapping the stdio
 * streams, not the file descriptors: libFuzzer and the sanitizers keep
 * reporting on the real stderr. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/fuzz/targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  char here[4096];
  if (!getcwd(here, sizeof here))
    abort();
  const char *scratch = getenv("TF_FUZZ_SCRATCH"), *tmp = getenv("TMPDIR");
  static char dir[4096];
  snprintf(dir, sizeof dir, "%s/tilefit-fuzz-cli-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!(scratch && *scratch) && !mkdtemp(dir))
    abort();
  if (tf_fuzz_cli_scratch(scratch && *scratch ? scratch : dir, here))
    abort();
  FILE *null_out = fopen("/dev/null", "w"), *null_err = fopen("/dev/null", "w");
  FILE *null_in = fopen("/dev/null", "r");
  if (!null_out || !null_err || !null_in)
    abort();
  stdout = null_out;
  stderr = null_err;
  stdin = null_in;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return tf_fuzz_cli(data, size); }
