/* Solver vector -> named answer.  The answer keeps the index of the chosen
 * combination, the counts, and (after tf_verify) the point re-evaluated
 * from the workset's expressions. */
#ifndef TF_ENCODE_DECODE_H
#define TF_ENCODE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "encode/build.h"
#include "encode/closed.h"
#include "model/bind/problem.h"
#include "model/core/error.h"

enum tf_answer_status { TF_ANSWER_OPTIMAL, TF_ANSWER_INFEASIBLE, TF_ANSWER_FITS, TF_ANSWER_NO_FIT };

typedef struct tf_answer {
  int status; /* enum tf_answer_status */
  int rank;   /* place in a --top list (1 = best), 0 otherwise */
  size_t combo;
  int64_t choose[TF_MAX_CHOOSE];
  int64_t counts[TF_MAX_COUNTS];
  tf_point point; /* valid after tf_verify / tf_answer_eval */
  tf_closed closed[TF_MAX_COUNTS];
  char why[320]; /* infeasible / does not fit: the reason */
  /* Whose answer this is: NULL, the exact search's; else the ILP solver's
   * name (solver/solve_ilp.c), with its own optimum per level and its
   * solve time, once certified against the exact optimum. */
  const char *solver;
  double *ilp_objval; /* owned; nilp_objval levels */
  size_t nilp_objval;
  double ilp_seconds;
} tf_answer;

void tf_answer_init(tf_answer *a, const tf_problem *p);
void tf_answer_release(tf_answer *a);

/* Reads the chosen combination and the counts from a solution vector. */
int tf_decode(const tf_model *m, const tf_problem *p, const double *x, tf_answer *a, tf_error *err);

#endif
