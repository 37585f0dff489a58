/* libFuzzer entry point: workset JSON (tf_workset_parse, then binding, the ILP build and the oracle).
 * Built and run by `make fuzz`; seeds in tests/fuzz/workset/. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return tf_fuzz_workset(data, size); }
