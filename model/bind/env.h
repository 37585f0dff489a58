/* A bound problem's symbols (model/bind/problem.h): their values as an
 * evaluation environment, an expression over params and machine
 * constants checked and evaluated, and which symbols an expression
 * reads.  What every step of binding asks; model/bind/problem_internal.h
 * includes it. */
#ifndef TF_MODEL_ENV_H
#define TF_MODEL_ENV_H

#include "model/bind/problem.h"

/* The problem's symbol values (p->syms) as expressions read them. */
tf_eval_env tf_problem_env(const tf_problem *p);

/* TF_EINPUT at `where` when e uses a symbol other than params and
 * machine constants ("`what` may use only params and machine constants,
 * not 'X'"); else 0. */
int tf_problem_only_params(const tf_problem *p, const tf_expr *e, const char *where, const char *what, tf_error *err);
/* e's value where it may use only params and machine constants (an
 * alignment, a count bound, a placement pin); the error names `where`. */
int tf_problem_param_const(const tf_problem *p, const tf_expr *e, const char *where, const char *what, int64_t *out,
                           tf_error *err);

/* The symbols an expression uses; the first whose kind is not in
 * `allowed` (a bit per enum tf_sym_kind), or -1; whether a symbol or an
 * expression reads occupancy, itself or through lets. */
void tf_problem_symbols_of(const tf_expr *e, tf_symbols *s);
int tf_problem_first_other(const tf_workset *w, const tf_expr *e, unsigned allowed);
int tf_problem_reads_occupancy(const tf_workset *w, int sym);
int tf_problem_expr_reads_occupancy(const tf_workset *w, const tf_expr *e);

#endif
