/* Helpers shared by the test suites. */
#ifndef TF_TESTS_TESTUTIL_H
#define TF_TESTS_TESTUTIL_H

#include <stddef.h>

#include "model/machine.h"
#include "model/problem.h"
#include "model/workset.h"

/* A machine with the given capacities, not loaded from a file; its
 * strings are static, so do not pass it to tf_machine_free. */
tf_machine tf_test_machine(long smem, long tmem, long rf);

/* Parses a workset from text; fails the test on an error. */
tf_workset *tf_test_workset(const char *json);

/* Runs the built binary (TILEFIT_BIN, default ./tilefit) with a shell
 * command line after "tilefit "; captures stdout and stderr (each up to
 * `size` bytes) and returns the exit code. */
int tf_test_run(const char *args, char *out, size_t outsize, char *errbuf, size_t errsize);

#endif
