#include "solve_ilp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "encode/build.h"
#include "encode/verify.h"
#include "model/core/alloc.h"
#include "model/core/text.h"

/* "max stages = 6, min placement_order = 0" */
static void put_levels(tf_strbuf *b, const tf_problem *p, const double *v, size_t n) {
  char text[320];
  tf_strbuf l = tf_strbuf_of(text, sizeof text);
  for (size_t o = 0; o < n; o++)
    tf_strbuf_item(&l, ", ", "%s = %.17g", p->objective[o].text, v[o]);
  tf_strbuf_put(b, n ? text : "no objective");
}

/* " at B_r=128, B_c=64, stages=3" */
static void put_point(tf_strbuf *b, const tf_problem *p, const tf_answer *a) {
  char text[320], v[24];
  tf_strbuf l = tf_strbuf_of(text, sizeof text);
  for (size_t i = 0; i < p->nchoose; i++)
    tf_strbuf_item(&l, ", ", "%s=%s", p->choose_names[i], tf_problem_value_text(p, i, a->choose[i], v));
  for (int k = 0; k < p->ncounts; k++)
    tf_strbuf_item(&l, ", ", "%s=%lld", p->count_names[k], (long long)a->counts[k]);
  tf_strbuf_put(b, " at ");
  tf_strbuf_put(b, text);
}

/* "exact optimum: max stages = 7 at ..." or "exact: infeasible" */
static void put_exact(tf_strbuf *b, const tf_problem *p, const tf_answer *a) {
  if (a->status != TF_ANSWER_OPTIMAL) {
    tf_strbuf_put(b, "exact: infeasible");
    return;
  }
  double *v = tf_nalloc(p->nobjective + 1, sizeof *v);
  for (size_t o = 0; o < p->nobjective; o++)
    v[o] = (double)a->point.objective[o];
  tf_strbuf_put(b, "exact optimum: ");
  put_levels(b, p, v, p->nobjective);
  put_point(b, p, a);
  free(v);
}

/* TF_ESOLVER: "glpk: WHAT; exact optimum: ..." */
static int disagree(const tf_problem *p, const tf_solve_opts *o, const char *what, const tf_answer *exact,
                    tf_error *err) {
  char text[sizeof err->msg];
  tf_strbuf b = tf_strbuf_of(text, sizeof text);
  put_exact(&b, p, exact);
  return tf_error_set(err, TF_ESOLVER, "@solver", "%s: %s; %s (the answer fails certification)",
                      tf_solver_name(o->backend), what, text);
}

/* The backend's point, decoded and re-evaluated into *g; what it is (and
 * why it fails, when it does) in what. */
static int decode_point(const tf_model *m, const tf_problem *p, const tf_solution *s, tf_answer *g, char *what,
                        size_t size) {
  tf_strbuf b = tf_strbuf_of(what, size);
  put_levels(&b, p, s->objval, s->nobjs < p->nobjective ? s->nobjs : p->nobjective); /* not the search order's */
  tf_error e;
  tf_error_init(&e);
  if (tf_decode(m, p, s->x, g, &e)) {
    tf_strbuf_put(&b, ", but ");
    tf_strbuf_put(&b, e.msg);
    return -1;
  }
  put_point(&b, p, g);
  if (tf_verify(p, g, s->objval, &e)) {
    tf_strbuf_put(&b, ": ");
    tf_strbuf_put(&b, e.msg);
    return -1;
  }
  return 0;
}

static int same_levels(const tf_problem *p, const tf_answer *x, const tf_answer *y) {
  for (size_t o = 0; o < p->nobjective; o++)
    if (x->point.objective[o] != y->point.objective[o])
      return 0;
  return 1;
}

/* The same point: with the search order's levels (tf_model_add_search_order)
 * the backend's optimum is the exact search's point, not another of the
 * same values. */
static int same_point(const tf_problem *p, const tf_answer *x, const tf_answer *y) {
  for (size_t i = 0; i < p->nchoose; i++)
    if (x->choose[i] != y->choose[i])
      return 0;
  for (int k = 0; k < p->ncounts; k++)
    if (x->counts[k] != y->counts[k])
      return 0;
  return 1;
}

/* The backend's answer passed: it replaces the exact one in *a. */
static void adopt(const tf_problem *p, const tf_solve_opts *o, const tf_solution *s, double seconds, tf_answer *g,
                  tf_answer *a) {
  if (s->status == TF_SOL_OPTIMAL) {
    a->combo = g->combo;
    memcpy(a->choose, g->choose, sizeof a->choose);
    memcpy(a->counts, g->counts, sizeof a->counts);
    tf_point_release(&a->point);
    a->point = g->point;
    tf_point_init(&g->point, p);
    memcpy(a->closed, g->closed, sizeof a->closed);
  }
  a->solver = o->backend->name;
  free(a->ilp_objval);
  size_t n = s->nobjs < p->nobjective ? s->nobjs : p->nobjective; /* the problem's levels, not the search order's */
  a->ilp_objval = tf_nalloc(n + 1, sizeof *a->ilp_objval);
  memcpy(a->ilp_objval, s->objval, n * sizeof *s->objval);
  a->nilp_objval = n;
  a->ilp_seconds = seconds;
}

/* what with s after it (cut to size). */
static const char *appended(char *what, size_t size, const char *s) {
  size_t n = strlen(what);
  snprintf(what + n, size - n, "%s", s);
  return what;
}

/* Solves m with the backend and certifies its answer against *a, `spent`
 * seconds of an earlier solve added to its time.  Returns 1 when the
 * backend's point has the exact optimum's values but is another point and
 * m does not end with the search's order (`ordered` 0): a tie that no
 * level decides, for the caller to solve again with those levels. */
static int certify(const tf_model *m, const tf_problem *p, const tf_solve_opts *o, int ordered, double spent,
                   tf_answer *a, tf_error *err) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tf_solution s;
  tf_error e;
  tf_error_init(&e);
  if (tf_backend_solve(&m->ilp, o, &s, &e))
    return disagree(p, o, e.msg, a, err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = spent + (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  char what[sizeof err->msg];
  tf_answer g;
  tf_answer_init(&g, p);
  int rc = 0;
  if (s.status == TF_SOL_INFEASIBLE && a->status == TF_ANSWER_OPTIMAL)
    rc = disagree(p, o, "infeasible", a, err);
  else if (s.status == TF_SOL_OPTIMAL && decode_point(m, p, &s, &g, what, sizeof what))
    rc = disagree(p, o, what, a, err);
  else if (s.status == TF_SOL_OPTIMAL && (a->status != TF_ANSWER_OPTIMAL || !same_levels(p, &g, a)))
    rc = disagree(p, o, what, a, err);
  else if (s.status == TF_SOL_OPTIMAL && !same_point(p, &g, a))
    rc = ordered ? disagree(p, o, appended(what, sizeof what, ", another point of the same values"), a, err) : 1;
  else
    adopt(p, o, &s, seconds, &g, a);
  tf_answer_release(&g);
  tf_solution_release(&s);
  return rc;
}

int tf_solve_ilp(const tf_problem *p, const tf_solve_opts *o, double limit_s, tf_answer *a, tf_error *err) {
  tf_model m;
  tf_error e;
  tf_error_init(&e);
  if (tf_model_build(&m, p, &e)) /* a coefficient GLPK cannot hold exactly */
    return disagree(p, o, e.msg, a, err);
  tf_solve_opts opts = *o;
  opts.time_limit_s = limit_s;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = certify(&m, p, &opts, 0, 0, a, err);
  if (rc == 1) { /* a tie no level decides: again, with the search's order as the last levels */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double spent = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    opts.time_limit_s = limit_s > 0 ? (limit_s - spent > 0.001 ? limit_s - spent : 0.001) : limit_s;
    tf_model_add_search_order(&m, p);
    rc = certify(&m, p, &opts, 1, spent, a, err);
  }
  tf_model_release(&m);
  return rc;
}
