/* Helpers shared by the test suites. */
#ifndef TF_TESTS_TESTUTIL_H
#define TF_TESTS_TESTUTIL_H

#include <stddef.h>

#include "model/bind/problem.h"
#include "model/input/machine.h"
#include "model/input/workset.h"
#include "solver/cli/options.h"
#include "solver/solve.h"

/* A machine with the given capacities, not loaded from a file; its
 * strings are static, so do not pass it to tf_machine_free. */
tf_machine tf_test_machine(long smem, long tmem, long rf);

/* Parses a workset from text; fails the test on an error. */
tf_workset *tf_test_workset(const char *json);
/* A workset bound on machine m with the default request; fails the test
 * when it does not bind.  The caller frees the problem. */
tf_problem *tf_test_bind(const tf_machine *m, const tf_workset *w);
/* The same from a workset text; the caller frees the problem and *w. */
tf_problem *tf_test_problem(const tf_machine *m, const char *json, tf_workset **w);

/* `tilefit solve ARGS` in process: argv (argc entries, "solve" first)
 * parsed, the machine and workset loaded and the problem bound; fails the
 * test on an error, naming `what`.  tf_test_bound_release frees it all. */
typedef struct tf_test_bound {
  tf_args args;
  tf_loaded loaded;
  tf_problem *problem;
} tf_test_bound;
void tf_test_bind_args(tf_test_bound *b, int argc, char **argv, const char *what);
void tf_test_bound_release(tf_test_bound *b);

/* Runs the built binary (TILEFIT_BIN, default ./tilefit) with a shell
 * command line after "tilefit "; captures stdout and stderr (each up to
 * `size` bytes) and returns the exit code. */
/* One value of request field `key` (a problem-line key of model/input/request.h's
 * table) as a problem-line member, "\"place\":{\"Q\":\"rf\"}", that
 * differs from a100 / fa2-fwd's defaults and binds there; NULL for a key
 * this list lacks (a test then fails: a new field needs a row). */
const char *tf_test_request_variant(const char *key);

int tf_test_run(const char *args, char *out, size_t outsize, char *errbuf, size_t errsize);

/* Fails the test unless `text` contains every string of the list (NULL
 * ends it), naming the first one missing and showing the text. */
void tf_test_contains(const char *text, ...);
#define TF_TEST_CONTAINS(text, ...) tf_test_contains(text, __VA_ARGS__, (const char *)NULL)

/* Where tests make their temporary files: $TMPDIR, or /tmp when unset. */
const char *tf_test_tmp_root(void);

/* A new directory $TMPDIR/NAME-XXXXXX (TMPDIR unset: /tmp), written to
 * `dir`; fails the test when it cannot be made. */
void tf_test_temp_dir(char *dir, size_t size, const char *name);

/* Writes `len` bytes of `text` to `path` (a new file, or replacing one);
 * fails the test when it cannot.  tf_test_write_text: a C string. */
void tf_test_write(const char *path, const char *text, size_t len);
void tf_test_write_text(const char *path, const char *text);

/* Removes `dir` and the files in it (not subdirectories). */
void tf_test_remove_dir(const char *dir);

/* Fails the test unless `e` is bad input (TF_EINPUT) in `file` at the
 * JSON path `path` with `msg` in its message; `what` names the case. */
void tf_test_input_error(const tf_error *e, const char *what, const char *file, const char *path, const char *msg);

/* The seed of a randomized test: TILEFIT_SEED when it is set, else
 * `fallback`; printed on stdout after `what`, with how to run it again. */
unsigned long long tf_test_seed(const char *what, unsigned long long fallback);
/* TF_TEST_ASAN: built with AddressSanitizer, whose shadow memory does not
 * run under an address-space limit (the out-of-memory tests skip then). */
#if defined(__SANITIZE_ADDRESS__)
#define TF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TF_TEST_ASAN 1
#endif
#endif

/* The process's virtual memory size in bytes (/proc/self/statm), for a
 * limit just above it. */
size_t tf_test_vm_bytes(void);

/* A workset of 10^6 combinations, written to a new directory
 * (tf_test_temp_dir NAME) as big.json, its path in `path`: more memory
 * than the out-of-memory tests allow.  tf_test_remove_dir(dir) after. */
void tf_test_big_workset(char *dir, size_t dirsize, char *path, size_t pathsize, const char *name);

#endif
