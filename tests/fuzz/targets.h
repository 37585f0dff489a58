/* The fuzz targets' bodies, one function per input kind.  Each fuzz_X.c is
 * libFuzzer's entry point around one of them; tests/check_limits.c runs
 * the same functions on every crash reproducer in tests/fuzz/regress/, so
 * a crash found once stays a regression test of `make check`/`make asan`. */
#ifndef TF_TESTS_FUZZ_TARGETS_H
#define TF_TESTS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Machine JSON: tf_machine_parse. */
int tf_fuzz_machine(const uint8_t *data, size_t size);

/* Workset JSON: tf_workset_parse, then (when it loads and has few
 * combinations) binding on a B200-like machine, the ILP build, the
 * exhaustive oracle, one exact point evaluation, and for at most 16
 * combinations a whole solve (GLPK, decode, verification).  With
 * TF_FUZZ_STRICT set, an answer that fails exact verification aborts. */
int tf_fuzz_workset(const uint8_t *data, size_t size);

/* One expression: parse, bind against a fixed symbol table (two counts),
 * evaluate symbolically and at concrete counts; the two must agree. */
int tf_fuzz_expr(const uint8_t *data, size_t size);

/* One problem line: tf_case_parse. */
int tf_fuzz_case(const uint8_t *data, size_t size);

/* A command line, one argument per input line: tf_cli_main in-process.
 * Inputs with an argument holding '/' are skipped, so that files the
 * command writes (--lp, --mps, -o) stay in the current directory, and so
 * are --top values above 20 (slow, not wrong).  The caller has pointed
 * stdout and stderr at /dev/null. */
int tf_fuzz_cli(const uint8_t *data, size_t size);

/* A request to the library's JSON entry point (tf_call_json): the answer
 * must be JSON, the status 0..3, an error one line.  Requests naming
 * files ("file", "files") are skipped, so nothing outside the scratch
 * space is read, and so is "top" (slow, not wrong).  TILEFIT_DATA must
 * point at the tree for shipped names. */
int tf_fuzz_api(const uint8_t *data, size_t size);

/* For fuzz_cli's set-up and the regression tests: a scratch directory
 * holding small fixtures (mini.json, cases.jsonl, bad.json), made the
 * current directory; TILEFIT_DATA is set to `data_dir` when unset. */
int tf_fuzz_cli_scratch(const char *dir, const char *data_dir);

#endif
