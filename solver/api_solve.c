/* The JSON API's solve and check (api_solve.h): the call's problem bound
 * (api_request.h), solved or checked, and answered with the report's JSON
 * (solver/report.h). */
#include "solver/api_solve.h"

#include <stdio.h>
#include <string.h>

#include "model/core/json_out.h"
#include "solver/prune.h"
#include "solver/report.h"
#include "solver/run.h"
#include "solver/solve.h"

/* The answers as the call frames them: one solve object, or with "top"
 * an array of them in rank order (a single infeasible one when nothing
 * fits).  API_OK, or API_NO when nothing is optimal. */
static int write_answers(FILE *out, const bound *b, const tf_ranked *r, int top, int explain) {
  if (!top) {
    tf_report_json_answer(out, &b->c->req, b->p, &r->a[0], explain);
    return r->a[0].status == TF_ANSWER_OPTIMAL ? API_OK : API_NO;
  }
  tf_json_out w;
  tf_json_out_init(&w, out);
  tf_json_out_array(&w);
  tf_report_json_ranked(&w, &b->c->req, b->p, r->a, r->n ? r->n : 1, explain);
  tf_json_out_end(&w);
  return r->n ? API_OK : API_NO;
}

int tf_api_solve(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  const tf_command_args *a = &x->args;
  int top = (int)a->top;
  tf_solve_opts o;
  if (tf_api_read_solve_opts(a, &o, err))
    return -1;
  bound b;
  int rc = tf_api_bind_problem(req, x, &b, err);
  if (!rc)
    rc = tf_solve_opts_for(&o, &b.c->req, "$.problem.solver", &o, err);
  tf_ranked r = {0};
  if (!rc)
    rc = tf_run_solve(b.p, &o, NULL, top, a->top_points, &r, err) ? -1 : write_answers(out, &b, &r, top, a->explain);
  tf_ranked_release(&r);
  tf_api_bound_release(&b);
  return rc;
}

/* check needs every variable fixed (tf_check says which are not, an error
 * about fix): the free ones, each a name, for the answer's "free". */
static void free_variables(const tf_problem *p, api_ctx *x) {
  const char *names[API_MAX_FREE];
  size_t n = tf_check_free_names(p, names, API_MAX_FREE);
  for (x->nfree = 0; x->nfree < n && x->nfree < API_MAX_FREE; x->nfree++)
    snprintf(x->free_vars[x->nfree], sizeof x->free_vars[0], "%s", names[x->nfree]);
}

int tf_api_check(const cJSON *req, FILE *out, api_ctx *x) {
  tf_error *err = &x->err;
  bound b;
  tf_solve_opts o;
  int rc = tf_api_bind_problem(req, x, &b, err) || tf_api_read_solve_opts(&x->args, &o, err) ? -1 : 0;
  if (!rc && b.auto_stages) /* as check --cutlass-name: the largest stage count that fits */
    rc = tf_fix_builder_stages(&b.own.req, &b.run.loaded, &o, &b.run.problem, err), b.p = b.run.problem;
  if (!rc) {
    tf_answer a;
    tf_answer_init(&a, b.p);
    rc = tf_check(b.p, &a, err) ? -1 : a.status == TF_ANSWER_FITS ? API_OK : API_NO;
    if (rc >= 0)
      tf_report_json_object(out, &b.c->req, b.p, &a);
    else if (!strcmp(err->at, "fix"))
      free_variables(b.p, x);
    tf_answer_release(&a);
  }
  tf_api_bound_release(&b);
  return rc;
}
