/* libFuzzer entry point: requests to the JSON entry point (tf_call_json).
 * Built and run by `make fuzz` from the top of the tree, whose machines
 * and worksets it uses (TILEFIT_DATA, unless set); seeds in tests/fuzz/api/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/fuzz/targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  char here[4096];
  if (getcwd(here, sizeof here))
    setenv("TILEFIT_DATA", here, 0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return tf_fuzz_api(data, size); }
