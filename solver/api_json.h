/* The library's JSON entry point: one function that takes a request as
 * JSON text and answers with JSON text, for programs in any language that
 * can call C (the Python module calls it through ctypes).  Answers are
 * written by the JSON writer the command line uses: a "solve" answer is
 * the object `tilefit solve --json` prints, a sweep point the line
 * `tilefit sweep` writes.
 *
 * "solver": "glpk" has GLPK solve the whole integer program, certified
 * against the exact optimum (solver/solve_ilp.h); a problem's own
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
 *        "warnings": ["...", ...]}; SPEC is a sweep spec (solver/sweep.h),
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
 *   {"cmd": "workset", "name": NAME|PATH}   the workset in full (solver/workset_json.h)
 *   {"cmd": "version"}                            {"version": "0.1.0"}
 * solve, check, layout, emit and plot map take "cutlass_name": NAME, as
 * --cutlass-name: a CUTLASS library kernel name gives the workset, its
 * params and tile, and the machine unless PROBLEM (then optional, and
 * without a workset) names one; check fixes a name's automatic stage
 * count at the builder's.
 * PROBLEM is a problem as a line of `validate` or `sweep` (model/case.h):
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
 * The answer is never NULL (running out of memory stops the process, as
 * everywhere in the library) and belongs to the caller: free it with
 * tf_free.  Calls may run at the same time on any number of threads:
 * each has its own state, and each frees its thread's GLPK environment
 * before it returns. */
#ifndef TF_SOLVER_API_JSON_H
#define TF_SOLVER_API_JSON_H

char *tf_call_json(const char *request, int *status);
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

#endif
