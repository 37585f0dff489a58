#include "solve.h"
#include "solver/roofline_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "encode/verify.h"
#include "model/bind/place_bind.h"
#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/input/catalog.h"
#include "solver/explain.h"
#include "solver/export.h"
#include "solver/search/search.h"
#include "solver/solve_ilp.h"

int tf_load_names(const tf_request *req, const char *mwhere, const char *wwhere, tf_error *err) {
  if (!req->machine)
    return tf_error_set(err, TF_EINPUT, mwhere, "a machine is required (a shipped name such as b200, or a path)");
  if (!req->workset)
    return tf_error_set(err, TF_EINPUT, wwhere, "a workset is required (a shipped name such as fa4-fwd, or a path)");
  return 0;
}

int tf_load(const tf_request *req, const char *mwhere, const char *wwhere, tf_loaded *out, tf_error *err) {
  memset(out, 0, sizeof *out);
  if (tf_load_names(req, mwhere, wwhere, err) ||
      !(out->machine = tf_catalog_load(TF_CATALOG_MACHINES, req->machine, mwhere, err)))
    return -1;
  if (!(out->workset = tf_catalog_load(TF_CATALOG_WORKSETS, req->workset, wwhere, err))) {
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
  char v[24];
  for (size_t i = 0; i < p->nchoose; i++)
    tf_strbuf_item(&at, ", ", "%s=%s", p->choose_names[i], tf_problem_value_text(p, i, p->combo[i], v));
  for (int k = 0; k < p->ncounts; k++)
    tf_strbuf_item(&at, ", ", "%s=%lld", p->count_names[k], (long long)p->count_lo[k]);
  buf[0] = 0;
  if (tf_problem_why(p, p->combo, p->count_lo, why, sizeof why) == 0)
    snprintf(buf, size, "; e.g. %s %s", at_text, why);
}

static void infeasible(const tf_problem *p, tf_answer *a) {
  a->status = TF_ANSWER_INFEASIBLE;
  if (p->nkept == 0 && p->hopeless[0]) {
    snprintf(a->why, sizeof a->why, "%s", p->hopeless);
  } else if (p->nkept == 0 && p->pruned_why[0]) {
    snprintf(a->why, sizeof a->why, "no candidate fits: smallest overflow is %s", p->pruned_why);
  } else if (p->nkept == 0) {
    snprintf(a->why, sizeof a->why, "no candidate combination");
  } else {
    char example[300];
    example_violation(p, example, sizeof example);
    snprintf(a->why, sizeof a->why, "no assignment of the %zu candidate combination%s satisfies every constraint%s",
             p->nkept, p->nkept == 1 ? "" : "s", example);
  }
}

/* The answers of an exact search (solver/search/search.h), each certified from
 * the workset's expressions; no point found: infeasible. */
int tf_solve_found(const tf_problem *p, const tf_found *found, size_t n, tf_answer *answers, tf_error *err) {
  if (n == 0) {
    infeasible(p, &answers[0]);
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    tf_answer *a = &answers[i];
    a->status = TF_ANSWER_OPTIMAL;
    a->combo = found[i].combo;
    memcpy(a->choose, p->combo + a->combo * p->nchoose, p->nchoose * sizeof *a->choose);
    memcpy(a->counts, found[i].counts, sizeof a->counts);
    if (tf_certify(p, a, err))
      return -1;
  }
  return 0;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

int tf_solve_opts_for(const tf_solve_opts *o, const tf_request *req, const char *where, tf_solve_opts *out,
                      tf_error *err) {
  *out = *o;
  return req && req->solver ? tf_solver_named(req->solver, where, &out->backend, err) : 0;
}

int tf_solve(const tf_problem *p, const tf_solve_opts *o, const tf_solve_out *out, tf_answer *a, tf_error *err) {
  int want_model = out && (out->lp_file || out->mps_file);
  if (p->on_demand && (o->backend || want_model))
    return tf_error_set(err, TF_EINTERNAL, NULL, "a problem bound on demand has no integer program (bind it whole)");
  if (!p->on_demand && p->ncombos == 0) {
    infeasible(p, a);
    if (want_model)
      return tf_error_set(err, TF_EINPUT, out->lp_file ? "@lp" : "@mps",
                          "no model to write: every combination was ruled out before the ILP (%s)", a->why);
    return 0;
  }
  struct timespec t0 = {0, 0};
  if (o->backend) /* only the ILP solver's share of the limit needs it */
    clock_gettime(CLOCK_MONOTONIC, &t0);
  tf_found found;
  size_t n;
  if (tf_search(p, 1, o->time_limit_s, &found, &n, NULL, err) || tf_solve_found(p, &found, n, a, err))
    return -1;
  /* what binding and the search left of the limit (both wall-clock, as GLPK's own) */
  double left = o->backend && o->time_limit_s > 0 ? o->time_limit_s - p->bind_seconds - seconds_since(&t0) : 0;
  if (o->backend && tf_solve_ilp(p, o, o->time_limit_s > 0 && left < 0.001 ? 0.001 : left, a, err))
    return -1;
  return want_model ? tf_export_model(p, a, out->lp_file, out->mps_file, err) : 0;
}

/* The K best rank by the exact search alone (both rankings: points and
 * configurations). */
static int top_needs_exact(const tf_solve_opts *o, tf_error *err) {
  if (!o->backend)
    return 0;
  return tf_error_set(err, TF_EINPUT, "@top", "the K best come from the exact search; the %s solver finds one optimum",
                      o->backend->name);
}

int tf_solve_top(const tf_problem *p, const tf_solve_opts *o, int k, tf_answer *answers, int *n, tf_error *err) {
  *n = 0;
  if (top_needs_exact(o, err))
    return -1;
  if (!p->on_demand && p->ncombos == 0) {
    infeasible(p, &answers[0]);
    return 0;
  }
  tf_found *found = tf_nalloc((size_t)k, sizeof *found);
  size_t got = 0;
  int rc =
      tf_search(p, (size_t)k, o->time_limit_s, found, &got, NULL, err) || tf_solve_found(p, found, got, answers, err);
  free(found);
  if (!rc)
    *n = (int)got;
  return rc ? -1 : 0;
}

/* The same shown objective values and roofline cycles (docs/cost-model.md,
 * "Ranked configurations")?  A workset without a roofline has no cycles
 * to differ. */
static int same_effect(const tf_problem *p, const tf_point *x, const tf_point *y) {
  for (size_t o = 0; o < p->nobjective_shown; o++)
    if (x->objective[o] != y->objective[o])
      return 0;
  int64_t cx, cy;
  return tf_roofline_value(p, x->choose, x->counts, "cycles", &cx) ||
         tf_roofline_value(p, y->choose, y->counts, "cycles", &cy) || cx == cy;
}

/* Would answer b (ranked after a) fold into a as one configuration?  The
 * same value of every choose variable outside placement, and b's
 * placement either a's or one that decides nothing: b with a's placement
 * at b's own counts fits and changes no shown objective value and no
 * roofline cycle.  Then b is a's configuration at other counts (or at
 * the same ones), so no better than a: b may differ from a in counts and
 * placement at once, which comparing a with b directly missed. */
static int same_config(const tf_problem *p, const tf_answer *a, const tf_answer *b) {
  int same_place = 1;
  int64_t moved[TF_MAX_CHOOSE];
  for (size_t i = 0; i < p->nchoose; i++) {
    if (a->choose[i] != b->choose[i] && !tf_place_is_var(p, i))
      return 0;
    same_place &= a->choose[i] == b->choose[i];
    moved[i] = tf_place_is_var(p, i) ? a->choose[i] : b->choose[i];
  }
  if (same_place)
    return 1;
  tf_point pt;
  tf_point_init(&pt, p);
  tf_error e;
  tf_error_init(&e);
  char why[8];
  int fold = !tf_problem_eval_point(p, moved, b->counts, &pt, &e) && tf_point_fits(p, &pt, why, sizeof why) &&
             same_effect(p, &pt, &b->point);
  tf_point_release(&pt);
  return fold;
}

/* found[0..got) certified; the first of each configuration into keep[],
 * at most k; returns how many. */
static size_t distinct(const tf_problem *p, const tf_answer *all, size_t got, size_t k, size_t *keep) {
  size_t n = 0;
  for (size_t i = 0; i < got && n < k; i++) {
    size_t j = 0;
    while (j < n && !same_config(p, &all[keep[j]], &all[i]))
      j++;
    if (j == n)
      keep[n++] = i;
  }
  return n;
}

/* One round of tf_solve_configs: the `ask` best points; 1 when they hold
 * k configurations or are every point there is (sel/nsel then filled). */
static int configs_round(const tf_problem *p, const tf_solve_opts *o, size_t ask, size_t k, tf_found *sel, size_t *nsel,
                         tf_error *err) {
  tf_found *found = tf_nalloc(ask, sizeof *found);
  tf_answer *all = tf_nalloc(ask, sizeof *all);
  size_t got = 0, *keep = tf_nalloc(k, sizeof *keep);
  int rc = tf_search(p, ask, o->time_limit_s, found, &got, NULL, err);
  for (size_t i = 0; i < got; i++)
    tf_answer_init(&all[i], p);
  if (!rc && !(rc = tf_solve_found(p, found, got, all, err))) {
    *nsel = distinct(p, all, got, k, keep);
    for (size_t i = 0; i < *nsel; i++)
      sel[i] = found[keep[i]];
    rc = *nsel == k || got < ask || ask >= TF_TOP_MAX_POINTS ? 1 : 0;
  }
  for (size_t i = 0; i < got; i++)
    tf_answer_release(&all[i]);
  free(found), free(all), free(keep);
  return rc;
}

int tf_solve_configs(const tf_problem *p, const tf_solve_opts *o, int k, tf_answer *answers, int *n, tf_error *err) {
  *n = 0;
  if (top_needs_exact(o, err))
    return -1;
  if (!p->on_demand && p->ncombos == 0) {
    infeasible(p, &answers[0]);
    return 0;
  }
  tf_found *sel = tf_nalloc((size_t)k, sizeof *sel);
  size_t nsel = 0;
  int r = 0;
  for (size_t ask = (size_t)k; !r; ask = ask * 4 < TF_TOP_MAX_POINTS ? ask * 4 : TF_TOP_MAX_POINTS)
    r = configs_round(p, o, ask, (size_t)k, sel, &nsel, err);
  r = r < 0 || tf_solve_found(p, sel, nsel, answers, err) ? -1 : 0;
  free(sel);
  if (!r)
    *n = (int)nsel;
  return r;
}

size_t tf_check_free_names(const tf_problem *p, const char **names, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < tf_place_nnumeric(p); i++) /* check decides the placements itself */
    if (p->ndomain[i] != 1 && n++ < max)
      names[n - 1] = p->choose_names[i];
  for (int k = 0; k < p->ncounts; k++)
    if (p->count_lo[k] != p->count_hi[k] && n++ < max)
      names[n - 1] = p->count_names[k];
  return n;
}

int tf_check_free_variables(const tf_problem *p, char *buf, size_t size) {
  size_t max = tf_place_nnumeric(p) + (size_t)p->ncounts + 1;
  const char **names = tf_nalloc(max, sizeof *names);
  size_t n = tf_check_free_names(p, names, max);
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (size_t i = 0; i < n; i++)
    tf_strbuf_item(&b, ", ", "%s", names[i]);
  free(names);
  return n > 0;
}

/* Is point x better than point y at the objectives, lexicographically? */
static int better(const tf_problem *p, const tf_point *x, const tf_point *y) {
  for (size_t o = 0; o < p->nobjective; o++)
    if (x->objective[o] != y->objective[o])
      return p->objective[o].maximize ? x->objective[o] > y->objective[o] : x->objective[o] < y->objective[o];
  return 0;
}

/* Do all of pt's requires hold (a placement the model allows, whatever
 * memory it needs)? */
static int requires_hold(const tf_problem *p, const tf_point *pt) {
  for (size_t r = 0; r < p->nrequire; r++)
    if (!pt->require_ok[r])
      return 0;
  return 1;
}

/* check with placed buffers left free: every placement at the fixed
 * tiles, in preference order; fits when one does, and shows the one the
 * objectives pick (the last of which is the placement order), else the
 * first placement whose requires hold (an explanation describes only a
 * point the model allows), else the first placement's breakdown. */
static int check_placements(const tf_problem *p, tf_answer *a, tf_error *err) {
  size_t idx[TF_MAX_CHOOSE] = {0}, total = 1, nplaces = tf_place_count(p);
  for (size_t k = 0; k < nplaces; k++)
    total *= p->ndomain[tf_place_var(p, k)];
  int64_t choose[TF_MAX_CHOOSE];
  memcpy(choose, a->choose, sizeof choose);
  tf_point pt;
  tf_point_init(&pt, p);
  int found = 0, shown = 0, rc = 0; /* shown: 0 nothing, 1 a placement its requires forbid, 2 a legal one */
  for (size_t n = 0; n < total && !rc; n++) {
    for (size_t k = 0; k < nplaces; k++)
      choose[tf_place_var(p, k)] = p->domain[tf_place_var(p, k)][idx[k]];
    for (size_t k = nplaces; k-- > 0 && ++idx[k] == p->ndomain[tf_place_var(p, k)];) /* odometer: the last fastest */
      idx[k] = 0;
    char why[sizeof a->why];
    if ((rc = tf_problem_eval_point(p, choose, a->counts, &pt, err)))
      break;
    int fits = tf_point_fits(p, &pt, why, sizeof why), legal = 1 + requires_hold(p, &pt);
    if (fits ? found && !better(p, &pt, &a->point) : found || legal <= shown)
      continue;
    memcpy(a->choose, choose, sizeof choose);
    rc = tf_problem_eval_point(p, a->choose, a->counts, &a->point, err);
    snprintf(a->why, sizeof a->why, "%s", why);
    found |= fits, shown = legal;
  }
  tf_point_release(&pt);
  a->status = found ? TF_ANSWER_FITS : TF_ANSWER_NO_FIT;
  return rc;
}

/* A require fails at every point (the problem binds nothing): the point
 * is shown when it evaluates, else (the lets that require makes
 * meaningless divide by zero, say) only which require fails. */
static int check_failed_require(const tf_problem *p, tf_answer *a) {
  tf_error e;
  tf_error_init(&e);
  if (p->fixed_lets_ok && !tf_problem_eval_point(p, a->choose, a->counts, &a->point, &e)) {
    a->status = tf_point_fits(p, &a->point, a->why, sizeof a->why) ? TF_ANSWER_FITS : TF_ANSWER_NO_FIT;
    return 0;
  }
  a->status = TF_ANSWER_INFEASIBLE;
  snprintf(a->why, sizeof a->why, "%s", p->hopeless);
  return 0;
}

int tf_check(const tf_problem *p, tf_answer *a, tf_error *err) {
  char list[512];
  if (tf_check_free_variables(p, list, sizeof list))
    return tf_error_set(err, TF_EINPUT, "@fix", "check needs every variable fixed; still free: %s", list);
  for (size_t i = 0; i < p->nchoose; i++)
    a->choose[i] = p->domain[i][0];
  for (int k = 0; k < p->ncounts; k++)
    a->counts[k] = p->count_lo[k];
  if (p->failed_require >= 0)
    return check_failed_require(p, a);
  if (tf_place_count(p))
    return check_placements(p, a, err);
  if (tf_problem_eval_point(p, a->choose, a->counts, &a->point, err))
    return -1;
  a->status = tf_point_fits(p, &a->point, a->why, sizeof a->why) ? TF_ANSWER_FITS : TF_ANSWER_NO_FIT;
  return 0;
}

int tf_solve_or_check(const tf_problem *p, const tf_solve_opts *o, tf_answer *a, tf_error *err) {
  char list[512];
  if (tf_check_free_variables(p, list, sizeof list))
    return tf_solve(p, o, NULL, a, err);
  return tf_check(p, a, err);
}
