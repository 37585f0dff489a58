/* libFuzzer entry point: machine JSON (tf_machine_parse).
 * Built and run by `make fuzz`; seeds in tests/fuzz/machine/. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return tf_fuzz_machine(data, size); }
