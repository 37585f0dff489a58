#include "solve.h"

#include <stdio.h>
#include <string.h>

#include "encode/build.h"
#include "encode/verify.h"
#include "model/catalog.h"
#include "solver/explain.h"
#include "model/text.h"

int tf_load(const tf_request *req, const char *mwhere, const char *wwhere, tf_loaded *out, tf_error *err) {
  char path[4096];
  memset(out, 0, sizeof *out);
  if (!req->machine)
    return tf_error_set(err, TF_EINPUT, mwhere, "a machine is required (a shipped name such as b200, or a path)");
  if (!req->workset)
    return tf_error_set(err, TF_EINPUT, wwhere, "a workset is required (a shipped name such as fa4-fwd, or a path)");
  if (tf_catalog_find(TF_CATALOG_MACHINES, req->machine, mwhere, path, sizeof path, err) ||
      !(out->machine = tf_machine_load(path, err)))
    return -1;
  if (tf_catalog_find(TF_CATALOG_WORKSETS, req->workset, wwhere, path, sizeof path, err) ||
      !(out->workset = tf_workset_load(path, err))) {
    tf_loaded_release(out);
    return -1;
  }
  return 0;
}

void tf_loaded_release(tf_loaded *l) {
  tf_machine_free(l->machine);
  tf_workset_free(l->workset);
  memset(l, 0, sizeof *l);
}

/* What the first kept combination violates at its smallest counts: an
 * example of why no assignment is feasible. */
static void example_violation(const tf_problem *p, char *buf, size_t size) {
  char why[256], at_text[256];
  tf_strbuf at = tf_strbuf_of(at_text, sizeof at_text);
  for (size_t i = 0; i < p->nchoose; i++)
    tf_strbuf_item(&at, ", ", "%s=%lld", p->choose_names[i], (long long)p->combo[i]);
  for (int k = 0; k < p->ncounts; k++)
    tf_strbuf_item(&at, ", ", "%s=%lld", p->count_names[k], (long long)p->count_lo[k]);
  buf[0] = 0;
  if (tf_problem_why(p, p->combo, p->count_lo, why, sizeof why) == 0)
    snprintf(buf, size, "; e.g. %s %s", at_text, why);
}

static void infeasible(const tf_problem *p, tf_answer *a) {
  a->status = TF_ANSWER_INFEASIBLE;
  if (p->ncombos == 0 && p->pruned_why[0]) {
    snprintf(a->why, sizeof a->why, "no candidate fits: smallest overflow is %s", p->pruned_why);
  } else if (p->ncombos == 0) {
    snprintf(a->why, sizeof a->why, "no candidate combination");
  } else {
    char example[300];
    example_violation(p, example, sizeof example);
    snprintf(a->why, sizeof a->why, "no assignment of the %zu candidate combination%s satisfies every constraint%s",
             p->ncombos, p->ncombos == 1 ? "" : "s", example);
  }
}

int tf_solve(const tf_problem *p, const tf_solve_opts *o, const tf_solve_out *out, tf_answer *a, tf_error *err) {
  if (p->ncombos == 0) {
    infeasible(p, a);
    if (out && (out->lp_file || out->mps_file))
      return tf_error_set(err, TF_EINPUT, out->lp_file ? "--lp" : "--mps",
                          "no model to write: every combination was ruled out before the ILP (%s)", a->why);
    return 0;
  }
  tf_model m;
  if (tf_model_build_reduced(&m, p, err))
    return -1;
  tf_solve_opts opts = *o;
  if (out)
    opts.lp_file = out->lp_file, opts.mps_file = out->mps_file;
  tf_solution s;
  int rc = tf_backend_solve(&m.ilp, &opts, &s, err);
  if (!rc)
    rc = tf_solve_answer(&m, p, &s, a, err);
  tf_solution_release(&s);
  tf_model_release(&m);
  return rc;
}

int tf_solve_answer(const tf_model *m, const tf_problem *p, const tf_solution *s, tf_answer *a, tf_error *err) {
  if (s->status == TF_SOL_INFEASIBLE) {
    infeasible(p, a);
    return 0;
  }
  return tf_decode(m, p, s->x, a, err) || tf_verify(p, a, s->objval, err) ? -1 : 0;
}

/* Cuts off exactly one assignment (combination c, counts v): either c is
 * not picked, or some count k differs from v_k, by binaries below_k
 * (count <= v_k - 1) and above_k (count >= v_k + 1). */
static void exclude(tf_model *m, const tf_problem *p, const tf_answer *a, int rank) {
  char name[64];
  snprintf(name, sizeof name, "exclude%d", rank);
  size_t c = a->combo, one = tf_ilp_add_row(&m->ilp, name, TF_SENSE_GE, 0);
  tf_lin_add(&m->ilp.rows[one].lin, m->pick[c], -1);
  for (int k = 0; k < p->ncounts; k++) {
    size_t s = m->count_col[c * (size_t)p->ncounts + (size_t)k];
    double v = (double)a->counts[k], lo = (double)p->count_lo[k];
    double top = (double)m->count_top[c * (size_t)p->ncounts + (size_t)k];
    snprintf(name, sizeof name, "exclude%d_below_%s", rank, p->count_names[k]);
    size_t below = tf_ilp_add_col(&m->ilp, name, TF_COL_BIN, 0, 1);
    snprintf(name, sizeof name, "exclude%d_above_%s", rank, p->count_names[k]);
    size_t above = tf_ilp_add_col(&m->ilp, name, TF_COL_BIN, 0, 1);
    size_t r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_LE, 0); /* s <= top*pick - (top - v + 1)*below */
    tf_lin_add(&m->ilp.rows[r].lin, s, 1);
    tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -top);
    tf_lin_add(&m->ilp.rows[r].lin, below, top - v + 1);
    r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_GE, 0); /* s >= lo*pick + (v + 1 - lo)*above */
    tf_lin_add(&m->ilp.rows[r].lin, s, 1);
    tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -lo);
    tf_lin_add(&m->ilp.rows[r].lin, above, -(v + 1 - lo));
    tf_lin_add(&m->ilp.rows[one].lin, below, 1);
    tf_lin_add(&m->ilp.rows[one].lin, above, 1);
  }
}

int tf_solve_top(const tf_problem *p, const tf_solve_opts *o, int k, tf_answer *answers, int *n, tf_error *err) {
  *n = 0;
  if (p->ncombos == 0) {
    infeasible(p, &answers[0]);
    return 0;
  }
  tf_model m;
  if (tf_model_build(&m, p, err))
    return -1;
  int rc = 0;
  while (!rc && *n < k) {
    tf_solution s;
    rc = tf_backend_solve(&m.ilp, o, &s, err);
    if (!rc && s.status == TF_SOL_INFEASIBLE) {
      if (*n == 0)
        infeasible(p, &answers[0]);
      tf_solution_release(&s);
      break;
    }
    if (!rc)
      rc = tf_decode(&m, p, s.x, &answers[*n], err) || tf_verify(p, &answers[*n], s.objval, err) ? -1 : 0;
    tf_solution_release(&s);
    if (!rc) {
      exclude(&m, p, &answers[*n], *n + 1);
      ++*n;
    }
  }
  tf_model_release(&m);
  return rc;
}

static int free_variables(const tf_problem *p, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (size_t i = 0; i < p->nchoose; i++)
    if (p->ndomain[i] != 1)
      tf_strbuf_item(&b, ", ", "%s", p->choose_names[i]);
  for (int k = 0; k < p->ncounts; k++)
    if (p->count_lo[k] != p->count_hi[k])
      tf_strbuf_item(&b, ", ", "%s", p->count_names[k]);
  return b.len > 0;
}

int tf_check(const tf_problem *p, tf_answer *a, tf_error *err) {
  char list[512];
  if (free_variables(p, list, sizeof list))
    return tf_error_set(err, TF_EINPUT, "--fix", "check needs every variable fixed; still free: %s", list);
  for (size_t i = 0; i < p->nchoose; i++)
    a->choose[i] = p->domain[i][0];
  for (int k = 0; k < p->ncounts; k++)
    a->counts[k] = p->count_lo[k];
  if (tf_problem_eval_point(p, a->choose, a->counts, &a->point, err))
    return -1;
  a->status = tf_point_fits(p, &a->point, a->why, sizeof a->why) ? TF_ANSWER_FITS : TF_ANSWER_NO_FIT;
  return 0;
}

void tf_binding(const tf_problem *p, const tf_answer *a, int k, char *buf, size_t size) {
  if (tf_explain_next_value(p, a, p->count_names[k], buf, size))
    snprintf(buf, size, "%s is at its upper bound %lld", p->count_names[k], (long long)p->count_hi[k]);
}
