/* tilefit — the public interface of libtilefit: GPU kernel parameters
 * (tile sizes, pipeline stages, buffer placement) from a machine model and
 * a kernel's working set, by integer programming.
 *
 * `make install` installs this file as <tilefit/tilefit.h>, the one
 * installed header, and tilefit.pc:
 *   cc prog.c $(pkg-config --cflags --libs tilefit)
 * libtilefit.so exports exactly the functions declared here
 * (dist/version-script.sh); every type is opaque.  The library's internal
 * headers (solver/tilefit.h and what it includes) are for the tilefit
 * binary, its tests and programs built inside the source tree.
 *
 * Two ways in.  From any language: tf_call_json, a request as JSON text
 * in, the answer as JSON text out (the second half of this file).  From
 * C, opaque handles, the flow `tilefit solve` runs (a whole program:
 * PREFIX/share/tilefit/examples/solve.c, docs/examples/solve.c in the
 * source tree):
 *
 *   tf_error *err = NULL;
 *   tf_machine *m = tf_machine_open("b200", &err);      // a shipped name or a path
 *   tf_workset *w = tf_workset_open("fa4-fwd", &err);
 *   tf_request *r = tf_request_new(&err);
 *   tf_request_param(r, "d", 128, &err);
 *   tf_request_objective(r, "max stages", &err);
 *   tf_problem *p = tf_problem_bind(m, w, r, &err);     // NULL when anything above failed
 *   tf_result *a = tf_problem_solve(p, &err);
 *   tf_report_file(a, TF_REPORT_TEXT, stdout, &err);    // what `tilefit solve` prints
 *   if (err) fprintf(stderr, "%s\n", tf_error_message(err));
 *   tf_result_free(a); tf_problem_free(p); tf_request_free(r);
 *   tf_workset_free(w); tf_machine_free(m); tf_error_free(err);
 *
 * Errors are values.  A function that can fail takes `tf_error **err`
 * last and returns NULL or -1 when it fails; then, when *err is NULL, it
 * sets *err to a new error that the caller frees with tf_error_free (an
 * error already in *err stays: the first wins, so a chain of calls is
 * checked once, at its end).  err may be NULL.  A function handed NULL
 * where it needs an object fails with "no ..." (status 2), so a chain
 * whose first call failed fails through without crashing.  Nothing in the
 * library prints (but the reports, to the FILE * given) or ends the
 * process; running out of memory is an error of status 3 like any other.
 *
 * Ownership: every _open/_new/_bind/_solve/_check has its _free, which
 * accepts NULL.  A tf_problem borrows its machine and workset (free them
 * after it) and copies what it keeps of the request (free that any time).
 * A tf_result borrows its problem.
 *
 * Threads: machines and worksets may be shared read-only by any number of
 * threads; a tf_problem, its results and a tf_request belong to one thread
 * at a time.  tf_call_json and the tf_json_handle functions may run on
 * any number of threads at once. */
#ifndef TF_SOLVER_API_H
#define TF_SOLVER_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; the library's soname carries its major
 * number (libtilefit.so.0). */
#define TF_LIBRARY_VERSION "0.1.0"

/* The version the library was built as: TF_LIBRARY_VERSION then. */
const char *tf_version(void);

/* ---------------------------------------------------------------- errors */

typedef struct tf_error tf_error;

/* What the command would exit with: 2 bad input (an unknown name, a
 * malformed file, a request the workset refuses), 3 a solver, internal or
 * output failure, or memory that ran out. */
int tf_error_status(const tf_error *e);
/* The message alone: "workset 'fa4-fwd' has no param 'dd' (params: ...)". */
const char *tf_error_message(const tf_error *e);
/* The one line the command prints after "tilefit: error: ", with the file
 * and the JSON path or argument when there are: "machines/x.json:
 * $.memories.smem.capacity: ...", cut to fit buf (size >= 1). */
void tf_error_format(const tf_error *e, char *buf, size_t size);
void tf_error_free(tf_error *e);

/* -------------------------------------------------- machines and worksets */

/* A machine model or a kernel's working set, from a shipped name ("b200",
 * "fa4-fwd": `tilefit machines`, `tilefit worksets`) or a path (one with a
 * '/' or ending in ".json").  Names are looked up under $TILEFIT_DATA,
 * beside the library, and in the directory it was installed with.  An
 * unknown name or a bad file: NULL and an error naming the file and the
 * JSON path at fault. */
typedef struct tf_machine tf_machine;
typedef struct tf_workset tf_workset;
tf_machine *tf_machine_open(const char *name, tf_error **err);
/* Its name, "b200"; valid while it is. */
const char *tf_machine_name(const tf_machine *m);
void tf_machine_free(tf_machine *m);
tf_workset *tf_workset_open(const char *name, tf_error **err);
/* Its name, "fa4-fwd"; valid while it is. */
const char *tf_workset_name(const tf_workset *w);
void tf_workset_free(tf_workset *w);

/* -------------------------------------------------------------- requests */

/* What is asked of a workset: params, fixed variables, narrowed domains,
 * extra constraints and objectives, as -p, --fix, --domain, --require and
 * --objective give them (docs/using.md).  Each function copies its
 * arguments and returns 0, or -1 when memory ran out; names and
 * expressions are checked when the request is bound. */
typedef struct tf_request tf_request;
tf_request *tf_request_new(tf_error **err);
int tf_request_param(tf_request *r, const char *name, int64_t value, tf_error **err);
int tf_request_fix(tf_request *r, const char *name, int64_t value, tf_error **err);
int tf_request_domain(tf_request *r, const char *name, const int64_t *values, size_t n, tf_error **err);
int tf_request_require(tf_request *r, const char *constraint, tf_error **err);  /* "stages <= 32" */
int tf_request_objective(tf_request *r, const char *objective, tf_error **err); /* "max stages" */
/* As --any-arch: solve a workset on a machine whose architecture it does
 * not model (flag 1), which binding refuses otherwise. */
int tf_request_any_arch(tf_request *r, int flag, tf_error **err);
void tf_request_free(tf_request *r);

/* --------------------------------------------------- problems and results */

/* A workset bound to a machine and a request: the params given their
 * values, every combination of the choose variables enumerated and
 * filtered.  NULL with the error: a name the workset does not have, an
 * expression that does not parse, a workset the machine's architecture is
 * not modelled for. */
typedef struct tf_problem tf_problem;
tf_problem *tf_problem_bind(const tf_machine *m, const tf_workset *w, const tf_request *r, tf_error **err);
void tf_problem_free(tf_problem *p);

/* The lexicographic optimum under the objectives, exact and certified
 * (as `tilefit solve`), or every variable fixed and checked against the
 * machine (as `tilefit check`, which needs every variable fixed).  An
 * infeasible problem or a point that does not fit is a result, not an
 * error. */
typedef struct tf_result tf_result;
tf_result *tf_problem_solve(const tf_problem *p, tf_error **err);
tf_result *tf_problem_check(const tf_problem *p, tf_error **err);
/* "optimal", "infeasible", "fits" or "does_not_fit", as the JSON's "status". */
const char *tf_result_status(const tf_result *a);
/* Why an infeasible problem or a point that does not fit is so ("smem
 * needs 245760 B of 232448, 13312 over"); "" otherwise. */
const char *tf_result_reason(const tf_result *a);
/* A variable's value (a choose variable or a count: "B_r", "stages") into
 * *value: 0, or -1 when the result has no values (infeasible) or the
 * workset no such variable. */
int tf_result_value(const tf_result *a, const char *name, int64_t *value);
void tf_result_free(tf_result *a);

/* --------------------------------------------------------------- reports */

/* The report of a result, by the command line's own writers:
 * TF_REPORT_TEXT the table `tilefit solve` (or `check`) prints,
 * TF_REPORT_JSON the object `--json` prints, one line. */
#define TF_REPORT_TEXT 0
#define TF_REPORT_JSON 1
/* Into f: 0, or -1 when f could not be written (status 3). */
int tf_report_file(const tf_result *a, int format, FILE *f, tf_error **err);
/* Into buf, as snprintf does: at most size - 1 characters and a '\0'
 * (nothing when size is 0), the whole report's length in *len (when len
 * is not NULL), so a caller whose buffer was short knows the size to
 * retry with.  0, or -1. */
int tf_report_string(const tf_result *a, int format, char *buf, size_t size, size_t *len, tf_error **err);

/* ------------------------------------------------------ the JSON entry point */

/* One function that takes a request as JSON text and answers with JSON
 * text, for programs in any language that can call C (the Python module
 * calls it through ctypes).  Answers are
 * written by the JSON writer the command line uses: a "solve" answer is
 * the object `tilefit solve --json` prints, a sweep point the line
 * `tilefit sweep` writes.
 *
 * "solver": "glpk" has GLPK solve the whole integer program, certified
 * against the exact optimum (docs/solvers.md); a problem's own
 * "solver" takes its place.  "presolve": false turns GLPK's presolver off.
 *
 * Requests, an object with "cmd" and that command's members:
 *   {"cmd": "solve", "problem": PROBLEM, "top": K, "top_points": B, "explain": B,
 *    "solver": "exact"|"glpk", "time_limit": S, "presolve": B}
 *       the `solve --json` object, optimal or infeasible; with "top" an
 *       array of the K best in rank order (an infeasible problem: an array
 *       of one object with "status": "infeasible"); "explain": true adds
 *       the "explain" member `solve --explain --json` writes
 *   {"cmd": "check", "problem": PROBLEM, "solver": ...}   the `check --json` object
 *   {"cmd": "layout", "problem": PROBLEM, "emit": "c" | "cute-dsl", "time_limit": S, "presolve": B}
 *       the `layout --json` object; with "emit" {"text": the header or
 *       struct `layout --emit` writes} (solves when a variable is free)
 *   {"cmd": "emit", "problem": PROBLEM, "for": "cutlass" | "cute-dsl" | "triton" | "fa", "top": K,
 *    "time_limit": S, "presolve": B}
 *       the `emit --json` object: {"for", "text": the fragment, "answers":
 *       [the answers it was written for]}
 *   {"cmd": "plot", "kind": "map", "problem": PROBLEM, "x": VAR, "y": VAR, "color": EXPR,
 *    "scale": "auto"|"linear"|"log"|"rank", "time_limit": S, ...}    `plot map`'s picture: {"text": the SVG, "feasible": B}, status 1
 *       when no cell fits
 *   {"cmd": "plot", "kind": "sweep", "file": PATH, "x": NAME, "y": NAME, "by": NAME, "scale": ...,
 *    "x_scale": ...}
 *       `plot sweep FILE`'s picture: {"text": the SVG, "lines": N, "skipped": K}
 *   {"cmd": "sweep", "spec": SPEC | "file": PATH | "problems": [PROBLEM, ...],
 *    "jobs": N, "memo_max": N, "shard": [I, N], "fd": FD, "solver": "exact"|"glpk", "time_limit": S,
 *    "presolve": B}
 *       {"points": [the sweep's line for each point, in point order],
 *        "warnings": ["...", ...]}; SPEC is a sweep spec (docs/sweeps.md),
 *       PATH a spec or a .jsonl problem list.  With "fd" (an open
 *       descriptor, a pipe's write end, that stays open) the lines are
 *       written there as they are solved, in point order, and the answer
 *       is {"written": N, "warnings": [...]}: a caller reads the pipe on
 *       another thread while the call runs
 *   {"cmd": "validate", "files": [PATH, ...], "solver": ..., "time_limit": S, "presolve": B}
 *       {"cases": [the `validate --json` row of each case, in order],
 *        "passed": P, "failed": F, "skipped": K}; status 1 when F > 0
 *   {"cmd": "prune", "configs": [OBJECT or NAME, ...] | "file": PATH, "machine", "workset",
 *    "params": {...}, "map": {KEY: VAR}, "any_arch": B}     `prune --json`'s array
 *   {"cmd": "machines"} / {"cmd": "worksets"}     the shipped names, sorted
 *   {"cmd": "machine", "name": NAME|PATH}   `tilefit machines NAME --json`'s object
 *   {"cmd": "workset", "name": NAME|PATH}   the workset in full
 *   {"cmd": "version"}                            {"version": "0.1.0"}
 * solve, check, layout, emit and plot map take "cutlass_name": NAME, as
 * --cutlass-name: a CUTLASS library kernel name gives the workset, its
 * params and tile, and the machine unless PROBLEM (then optional, and
 * without a workset) names one; check fixes a name's automatic stage
 * count at the builder's.
 * PROBLEM is a problem as a line of `validate` or `sweep` (docs/validating.md):
 *   {"machine": "b200", "workset": "fa4-fwd", "params": {"d": 128},
 *    "fix": {"B_r": 128}, "domain": {"B_c": [64, 128]},
 *    "require": ["stages <= 32"], "objective": ["max stages"]}
 * Unknown members are errors, as in every input file.
 *
 * *status (when status is not NULL) is what the command would exit with:
 * 0 solved / fits / all agree, 1 infeasible / does not fit / a case
 * differs, 2 bad input, 3 solver or internal failure.  With 2 or 3 the
 * answer is
 *   {"error": "$.problem.params.d: ...", "status": 2, "message": "...",
 *    "path": "$.problem.params.d", "field": "params"}
 * "error" the one line the command line prints after "tilefit: error: ",
 * "message" that line without its file and path, "field" the request
 * member at fault ("" when the fault is in a file), so that a binding can
 * name its own keyword: "fix" with "free": ["B_r", ...] when check finds
 * variables free, "any_arch" when the workset does not model the
 * machine's architecture.
 *
 * The answer is never NULL (when memory runs out it is {"error": "out of
 * memory", "status": 3}) and belongs to the caller: free it with
 * tf_free.  Calls may run at the same time on any number of threads:
 * each has its own state, and each frees its thread's GLPK environment
 * before it returns. */
char *tf_call_json(const char *request, int *status);
/* Frees an answer of tf_call_json or tf_json_handle_*. */
void tf_free(void *p);

/* A handle: one problem's machine and workset loaded and its params bound
 * once, for many calls that cost the search, not the load.
 * tf_json_handle_new takes a PROBLEM object (machine, workset, params,
 * any_arch, and any of fix, domain, require, objective, place, solver as
 * defaults) and returns the handle, or NULL; *answer (when answer is not
 * NULL; free it with tf_free) is {"machine", "workset"} or the error
 * object above, *status 0 or the error's status.
 * tf_json_handle_call runs a solve, check, layout, emit or plot map request on it:
 * the request as above, whose "problem", when given, adds to the
 * handle's: fix, domain and place by key (the call's win), require
 * appended, objective and solver replaced; machine, workset, params and
 * any_arch are the handle's (naming one is bad input).  A handle never
 * changes after it is made: calls on one handle may run on several
 * threads at once; free it once none runs. */
typedef struct tf_json_handle tf_json_handle;
tf_json_handle *tf_json_handle_new(const char *problem, char **answer, int *status);
char *tf_json_handle_call(const tf_json_handle *h, const char *request, int *status);
void tf_json_handle_free(tf_json_handle *h);

#ifdef __cplusplus
}
#endif

#endif
