/* tilefit — the library behind the `tilefit` command, in full: every
 * module's header, for the binary, the tests, the benchmarks and programs
 * built inside the tree (-I. and build/libtilefit.a -lglpk -lcjson -lm
 * -pthread).  Not installed: `make install` installs the small public
 * header solver/api.h as <tilefit/tilefit.h> (opaque handles and the JSON
 * entry point), and libtilefit.so exports only what that declares.
 *
 * Derives GPU kernel parameters (tile sizes, pipeline stages, buffer
 * placement) from a machine model and a kernel's working set, by integer
 * programming: an exact search in integers finds the lexicographic
 * optimum (the default); with tf_solve_opts.backend = &tf_backend_glpk
 * GLPK solves the same integer program and its answer is certified
 * against the exact optimum (solver/solve_ilp.h); solver/export.h writes
 * the program for other solvers.
 *
 * Three ways in.  From any language: tf_call_json (solver/api.h), a
 * request as JSON text in, the answer as JSON text out.  From C outside
 * the tree, the opaque handles of solver/api.h (solver/api.c wraps the
 * calls below).  Inside it, the structures themselves, the flow as
 * `tilefit solve` runs it:
 *
 *   tf_error err;          tf_error_init(&err);
 *   tf_request req;        tf_request_init(&req);
 *   req.machine = strdup("b200");   req.workset = strdup("fa4-fwd");
 *   tf_request_add_param(&req, "d", 128, "-p d");
 *   tf_request_add_objective(&req, "max stages", "--objective");
 *
 *   tf_loaded l;                                   // machine + workset files
 *   if (tf_load(&req, "-m", "-w", &l, &err)) ...   // err names file and JSON path
 *   tf_problem *p = tf_problem_new(l.machine, l.workset, &req, &err);
 *   tf_solve_opts o;       tf_solve_opts_init(&o);
 *   tf_answer a;           tf_answer_init(&a, p);
 *   if (tf_solve(p, &o, NULL, &a, &err)) ...       // TF_ESOLVER / TF_EINTERNAL
 *   // a.status: TF_ANSWER_OPTIMAL or TF_ANSWER_INFEASIBLE (with a.why)
 *   // a.choose[i] (p->choose_names[i]), a.counts[k] (p->count_names[k]),
 *   // a.point: every buffer's size and rounded allocation, every memory's use,
 *   // a.closed[k]: the closed-form depth and whether it agrees
 *   tf_report_json(stdout, &req, p, &a);
 *
 *   tf_answer_release(&a); tf_problem_free(p); tf_loaded_release(&l);
 *   tf_request_release(&req);
 *
 * Ownership: every _new/_load has its _free (which accepts NULL), every
 * _init its _release.  A tf_problem borrows its machine and workset, which
 * must outlive it; what it keeps of the request (constraints, objectives,
 * the `where` strings that name them in errors) it copies.  Errors are
 * values: a failing function returns -1 (or NULL) and fills the tf_error
 * handed to it; nothing in the library prints
 * (except tf_report_* to the FILE * given) or exits.  GLPK failures never
 * abort: they come back as TF_ESOLVER.  Threads: one tf_problem per thread;
 * machines and worksets may be shared read-only; call tf_backend_thread_done()
 * before a solving thread ends.
 *
 * The headers, one concern each:
 *   model/core/error.h     tf_error, status codes
 *   model/expr/expr.h      the expression language (int64, overflow-checked)
 *   model/input/machine.h   machine models            model/input/workset.h  worksets
 *   model/bind/problem.h   requests and bound problems, points
 *   model/bind/memory.h    every memory rule: capacity, charge, which buffers
 *   model/input/lets.h      a workset's lets: order, uses, what a point evaluates
 *   model/formats/case.h      a problem as one JSON line (validate, sweep)
 *   model/input/catalog.h   shipped names -> files
 *   encode/build.h    problem -> ILP             encode/oracle.h  exhaustive search
 *   encode/verify.h   exact verification         encode/closed.h  closed-form depth
 *   solver/backend.h  the solver interface       solver/solve.h   the pipeline
 *   solver/solve_ilp.h --solver glpk, certified  solver/export.h  --lp / --mps files
 *   solver/report.h   the writers: text, JSON, CSV    solver/explain.h why not better
 *   solver/api.h      the public header: tf_call_json (solver/api_json.c), for
 *                     any language, and opaque handles (solver/api.c)
 *
 * The batch engine (sweeps, resume, memo, merge) is solver/batch/; a sweep
 * spec is read in model/formats/spec.c.  Where to add a command, an option,
 * a format, a backend, a memory kind or a machine field: docs/design.md,
 * "Where to add X" (the one place that says).
 */
#ifndef TF_SOLVER_TILEFIT_H
#define TF_SOLVER_TILEFIT_H

#include "encode/build.h"
#include "encode/closed.h"
#include "encode/decode.h"
#include "encode/oracle.h"
#include "encode/verify.h"
#include "model/bind/problem.h"
#include "model/core/error.h"
#include "model/expr/expr.h"
#include "model/formats/case.h"
#include "model/input/catalog.h"
#include "model/input/machine.h"
#include "model/input/workset.h"
#include "solver/api.h"
#include "solver/backend.h"
#include "solver/explain.h"
#include "solver/export.h"
#include "solver/report.h"
#include "solver/solve.h"
#include "solver/solve_ilp.h"

#endif
