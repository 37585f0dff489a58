/* libFuzzer entry point: expressions (parse, bind, symbolic and concrete evaluation).
 * Built and run by `make fuzz`; seeds in tests/fuzz/expr/. */
#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return tf_fuzz_expr(data, size); }
