/* Exact verification: an answer is re-evaluated from the workset's
 * expressions in integers, and must fit every memory, satisfy every
 * constraint, and reach the objective values the solver reported.  A
 * failure is TF_EINTERNAL: such an answer is never printed. */
#ifndef TF_ENCODE_VERIFY_H
#define TF_ENCODE_VERIFY_H

#include "encode/decode.h"

/* objval: the solver's optimum per objective (NULL to skip that check). */
int tf_verify(const tf_problem *p, tf_answer *a, const double *objval, tf_error *err);

/* For the exact search's answers (search.h): the point fits, and each
 * objective, evaluated from the workset's expressions, equals the value of
 * the stored affine form the search ranked it by. */
int tf_certify(const tf_problem *p, tf_answer *a, tf_error *err);

/* Evaluates the answer's point and, for every count, its closed form. */
int tf_answer_eval(const tf_problem *p, tf_answer *a, tf_error *err);

#endif
