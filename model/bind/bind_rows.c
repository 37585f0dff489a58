/* Binding a problem's requires, objectives, lets and buffers (problem.h),
 * the steps of tf_problem_new after its params, counts and domains. */
#include "model/bind/box.h"
#include "model/bind/memory.h"
#include "model/bind/place_bind.h"
#include "model/bind/problem.h"
#include "model/bind/reuse.h"
#include "model/input/place.h"
#include "model/input/roofline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/bind/problem_internal.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"
#include "model/core/text.h"

/* ------------------------------------------------- requires, objectives */

static void mark_derived(tf_problem *p, const tf_expr *e, const char *where) {
  tf_symbols s;
  tf_problem_symbols_of(e, &s);
  for (size_t k = 0; k < s.n; k++) {
    if (tf_workset_sym_kind(p->workset, s.v[k]) == TF_SYM_DERIVED) {
      int m = (s.v[k] - tf_workset_sym_derived(p->workset, 0, 0)) % TF_NMEM;
      if (!p->uses_derived[m])
        p->derived_where[m] = tf_strdup(where);
      p->uses_derived[m] = 1;
    }
    if (tf_problem_reads_occupancy(p->workset, s.v[k]))
      p->occupancy = 0; /* placed by bind_domains */
  }
  tf_symbols_release(&s);
}

void tf_problem_mark_occupancy_request(tf_problem *p, const tf_request *req) {
  for (size_t i = 0; i < req->nfixes; i++)
    if (!strcmp(req->fixes[i].name, "occupancy"))
      p->occupancy = 0;
  for (size_t i = 0; i < req->ndomains; i++)
    if (!strcmp(req->domains[i].name, "occupancy"))
      p->occupancy = 0;
}

int tf_problem_bind_requires(tf_problem *p, const tf_request *req, tf_error *err) {
  const tf_workset *w = p->workset;
  size_t n = w->nrequire + req->nrequires;
  p->require = tf_nalloc(n + 1, sizeof *p->require);
  p->require_where = tf_nalloc(n + 1, sizeof *p->require_where);
  p->require_owned = tf_nalloc(n + 1, sizeof *p->require_owned);
  p->row_kind = tf_nalloc(n + 1, sizeof *p->row_kind);
  for (size_t i = 0; i < w->nrequire; i++) {
    p->require[p->nrequire] = w->require[i].expr;
    p->require_where[p->nrequire++] = w->require[i].path;
  }
  for (size_t i = 0; i < req->nrequires; i++) {
    tf_expr *e = tf_workset_parse_require(w, req->requires[i].text, req->requires[i].where, err);
    if (!e)
      return -1;
    p->require_owned[p->nrequire] = 1;
    p->require[p->nrequire] = e;
    p->require_where[p->nrequire++] = tf_strdup(req->requires[i].where);
  }
  for (size_t i = 0; i < p->nrequire; i++) {
    const tf_expr *l, *r;
    enum tf_rel rel = tf_expr_relation(p->require[i], &l, &r);
    p->row_kind[i] = rel == TF_REL_LE || rel == TF_REL_LT ? TF_ROW_LE : rel == TF_REL_EQ ? TF_ROW_EQ : TF_ROW_GE;
    mark_derived(p, p->require[i], p->require_where[i]);
  }
  return 0;
}

/* 1 when objective `o` is `text` ("min time_us"): the same direction and
 * the same expression text, blanks aside. */
static int same_objective(const tf_objective *o, int maximize, const char *text) {
  const char *a = tf_expr_text(o->expr), *b = text;
  if (o->maximize != maximize)
    return 0;
  for (;; a++, b++) {
    while (*a == ' ')
      a++;
    while (*b == ' ')
      b++;
    if (*a != *b)
      return 0;
    if (!*a)
      return 1;
  }
}

/* The levels after the asked objectives: "min time_ns" when one of them
 * is time_us in whole microseconds (ties within a microsecond broken by
 * the nanoseconds), then the workset's tie-breaks, less any that repeats
 * an objective already asked (it would decide nothing). */
static int tie_break_texts(const tf_problem *p, const char **out) {
  const tf_workset *w = p->workset;
  int n = 0, us = -1;
  for (size_t i = 0; i < p->nobjective; i++)
    if (same_objective(&p->objective[i], 0, "time_us") || same_objective(&p->objective[i], 1, "time_us"))
      us = us < 0 ? p->objective[i].maximize : us;
  if (us >= 0 && tf_workset_resolve(w, "time_ns") >= 0)
    out[n++] = us ? "max time_ns" : "min time_ns";
  for (size_t t = 0; t < w->ntie_break; t++) {
    int asked = 0;
    for (size_t i = 0; i < p->nobjective && !asked; i++)
      asked = same_objective(&p->objective[i], w->tie_break[t].maximize, tf_expr_text(w->tie_break[t].expr));
    if (!asked)
      out[n++] = w->tie_break[t].text;
  }
  return n;
}

/* The request's objectives (else the workset's), then the tie-breaks
 * (tie_break_texts). */
int tf_problem_bind_objectives(tf_problem *p, const tf_request *req, tf_error *err) {
  const tf_workset *w = p->workset;
  size_t n = req->nobjectives ? req->nobjectives : w->nobjective;
  p->objective = tf_nalloc(n + w->ntie_break + 2, sizeof *p->objective);
  for (size_t i = 0; i < n; i++) {
    const char *text = req->nobjectives ? req->objectives[i].text : w->objective[i].text;
    const char *where = req->nobjectives ? req->objectives[i].where : "$.objective";
    if (tf_workset_parse_objective(w, text, where, &p->objective[i], err))
      return -1;
    p->nobjective++;
    mark_derived(p, p->objective[i].expr, where);
  }
  p->nobjective_asked = n;
  const char **ties = tf_nalloc(w->ntie_break + 1, sizeof *ties);
  int nt = tie_break_texts(p, ties), rc = 0;
  for (int t = 0; t < nt && !rc; t++) {
    char where[64];
    tf_path_index(where, sizeof where, "$.tie_break", (size_t)t);
    rc = tf_workset_parse_objective(w, ties[t], where, &p->objective[p->nobjective], err);
    if (!rc)
      mark_derived(p, p->objective[p->nobjective++].expr, where);
  }
  free((void *)ties);
  return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- lets */

/* The lets' order is the workset's (model/input/lets.h), found when it loaded;
 * what kept it from having one is reported now, as binding always has. */
static int order_lets(tf_problem *p, tf_error *err) {
  const tf_let_graph *g = &p->workset->let_graph;
  if (!g->order) {
    if (err && err->code == TF_OK)
      *err = g->error;
    return -1;
  }
  p->let_order = g->order;
  return 0;
}

/* Marks every let an expression uses. */
struct reach {
  const tf_workset *w;
  unsigned char *let;
};
static void mark_let(void *ctx, int sym) {
  struct reach *r = ctx;
  if (tf_workset_sym_kind(r->w, sym) == TF_SYM_LET)
    r->let[sym - tf_workset_sym_let(r->w, 0)] = 1;
}

/* The lets a point must evaluate: those its buffers, requires and
 * objectives reach, directly or through other lets, in dependency order,
 * less the fixed ones (the same at every point: evaluated once, by
 * fix_constant_lets).  A let nothing asks for (a traffic or time estimate
 * the request does not use) is never evaluated.  Found once per problem:
 * walking the order from the end, a let is reached before the lets it
 * uses. */
static void find_reached_lets(tf_problem *p) {
  const tf_workset *w = p->workset;
  const tf_let_graph *g = &w->let_graph;
  struct reach r = {w, tf_nalloc(w->nlets + 1, 1)};
  for (size_t b = 0; b < w->nbuffers; b++) {
    tf_expr *sizes[TF_NMEM];
    for (int k = 0, n = tf_buffer_sizes(&w->buffers[b], sizes); k < n; k++)
      tf_expr_each_symbol(sizes[k], mark_let, &r);
  }
  for (size_t i = 0; i < p->nrequire; i++)
    tf_expr_each_symbol(p->require[i], mark_let, &r);
  for (size_t o = 0; o < p->nobjective; o++)
    tf_expr_each_symbol(p->objective[o].expr, mark_let, &r);
  if (p->threads_sym >= 0) /* occupancy reads these by name (find_threads) */
    mark_let(&r, p->threads_sym);
  if (p->cta_regs_sym >= 0)
    mark_let(&r, p->cta_regs_sym);
  for (size_t k = w->nlets; k-- > 0;) {
    size_t i = (size_t)g->order[k];
    for (size_t u = g->use_start[i]; r.let[i] && u < g->use_start[i] + g->use_count[i]; u++)
      r.let[g->use[u]] = 1;
  }
  p->let_eval = tf_nalloc(w->nlets + 1, sizeof *p->let_eval);
  p->let_fixed = tf_nalloc(w->nlets + 1, sizeof *p->let_fixed);
  for (size_t k = 0; k < w->nlets; k++) {
    int i = g->order[k];
    if (r.let[i] && g->fixed[i])
      p->let_fixed[p->nlet_fixed++] = i;
    else if (r.let[i])
      p->let_eval[p->nlet_eval++] = i;
  }
  free(r.let);
}

/* Evaluates, at the point now in p->syms, every let that `e` reaches
 * (directly or through other lets), in dependency order: what a value
 * outside the problem's own buffers, requires and objectives needs
 * (plot --color, --explain's cycle terms), since a point evaluates only
 * the lets those reach. */
int tf_problem_eval_lets_of(tf_problem *p, const tf_expr *e, tf_error *err) {
  const tf_workset *w = p->workset;
  const tf_let_graph *g = &w->let_graph;
  struct reach r = {w, tf_nalloc(w->nlets + 1, 1)};
  tf_expr_each_symbol(e, mark_let, &r);
  for (size_t k = w->nlets; k-- > 0;) {
    size_t i = (size_t)g->order[k];
    for (size_t u = g->use_start[i]; r.let[i] && u < g->use_start[i] + g->use_count[i]; u++)
      r.let[g->use[u]] = 1;
  }
  tf_eval_env env = tf_problem_env(p);
  int rc = 0;
  for (size_t k = 0; k < w->nlets && !rc; k++) {
    size_t i = (size_t)g->order[k];
    if (r.let[i] && tf_expr_eval(w->lets[i].expr, &env, &p->syms[tf_workset_sym_let(w, i)], err))
      rc = tf_problem_let_failed(p, i, err);
  }
  free(r.let);
  return rc;
}

/* Evaluates, once, the reached lets that are the same at every point. */
static int fix_constant_lets(tf_problem *p, tf_error *err) {
  return tf_problem_eval_let_list(p, p->let_fixed, p->nlet_fixed, ~(uint64_t)0, err);
}

/* Does e read only params, machine constants and fixed lets: is it the
 * same at every point? */
static int reads_only_fixed(const tf_problem *p, const tf_expr *e) {
  const tf_workset *w = p->workset;
  tf_symbols s;
  tf_problem_symbols_of(e, &s);
  int fixed = 1;
  for (size_t k = 0; k < s.n && fixed; k++) {
    enum tf_sym_kind kind = tf_workset_sym_kind(w, s.v[k]);
    fixed = kind == TF_SYM_PARAM || kind == TF_SYM_MACHINE ||
            (kind == TF_SYM_LET && w->let_graph.fixed[s.v[k] - tf_workset_sym_let(w, 0)]);
  }
  tf_symbols_release(&s);
  return fixed;
}

/* The sides of each require that is the same at every point, evaluated
 * once, as a point evaluates them (tf_expr_eval_at) and from the same
 * values: params, machine constants and the fixed lets (fix_constant_lets)
 * never change after binding.  A point copies them (model/bind/point.c):
 * most of a small problem's requires are of this kind, and evaluating them
 * again was a third of certifying its answer.  One whose evaluation fails
 * stays unfixed, so the error comes where it always did. */
static void fix_constant_requires(tf_problem *p) {
  p->require_fixed = tf_nalloc(p->nrequire + 1, sizeof *p->require_fixed);
  p->require_fixed_sides = tf_nalloc(2 * p->nrequire + 1, sizeof *p->require_fixed_sides);
  tf_eval_env env = tf_problem_env(p);
  for (size_t r = 0; r < p->nrequire; r++) {
    const tf_expr *l, *rr;
    tf_error e;
    tf_error_init(&e);
    if (tf_expr_relation(p->require[r], &l, &rr) == TF_REL_NONE || !reads_only_fixed(p, p->require[r]))
      continue;
    int64_t *side = p->require_fixed_sides + 2 * r;
    p->require_fixed[r] = !tf_expr_eval_at(l, &env, &side[0], &e) && !tf_expr_eval_at(rr, &env, &side[1], &e);
  }
  p->live_row = tf_nalloc(p->nrequire + 1, sizeof *p->live_row);
  for (size_t r = 0; r < p->nrequire; r++)
    if (!p->require_fixed[r])
      p->live_row[p->nlive_row++] = (uint32_t)r;
}

static int bind_buffers(tf_problem *p, tf_error *err) {
  const tf_workset *w = p->workset;
  p->nbuffers = w->nbuffers;
  p->align = tf_nalloc(w->nbuffers, sizeof *p->align);
  p->count_dependent = tf_nalloc(w->nbuffers, sizeof *p->count_dependent);
  for (size_t b = 0; b < w->nbuffers; b++) {
    tf_expr *sizes[TF_NMEM];
    for (int k = 0, n = tf_buffer_sizes(&w->buffers[b], sizes); k < n; k++)
      if (tf_problem_first_other(w, sizes[k], ~(1u << TF_SYM_DERIVED | 1u << TF_SYM_OCCUPANCY)) >= 0 ||
          tf_problem_expr_reads_occupancy(w, sizes[k])) /* through a let */
        return tf_error_set(err, TF_EINPUT, w->buffers[b].path, "used(), slack() and occupancy may not size a buffer");
    p->align[b] = 1;
    if (w->buffers[b].align) {
      char path[160];
      snprintf(path, sizeof path, "%.140s", w->buffers[b].path);
      char *dot = strrchr(path, '.');
      if (dot)
        strcpy(dot, ".align");
      if (tf_problem_param_const(p, w->buffers[b].align, path, "an alignment", &p->align[b], err))
        return -1;
      if (p->align[b] < 1)
        return tf_error_set(err, TF_EINPUT, path, "alignment must be at least 1, got %lld", (long long)p->align[b]);
    }
  }
  return 0;
}

/* A require that reads only params and machine constants (or, once the
 * fixed lets are evaluated, those too) holds at every point or at none.
 * One that fails says so in p->hopeless before any combination is bound:
 * the lets it rules out may not even evaluate there (a width of 0 that a
 * let divides by).  One whose evaluation fails is left to binding, whose
 * error names it.  Returns 1 when one fails. */
static int fixed_require_fails(tf_problem *p, int with_lets) {
  tf_eval_env env = tf_problem_env(p);
  for (size_t r = 0; r < p->nrequire; r++) {
    const tf_expr *l, *rr;
    enum tf_rel rel = tf_expr_relation(p->require[r], &l, &rr);
    int fixed = with_lets
                    ? reads_only_fixed(p, p->require[r])
                    : tf_problem_first_other(p->workset, p->require[r], 1u << TF_SYM_PARAM | 1u << TF_SYM_MACHINE) < 0;
    int64_t a, b;
    tf_error e;
    tf_error_init(&e);
    if (rel == TF_REL_NONE || !fixed || tf_expr_eval_at(l, &env, &a, &e) || tf_expr_eval_at(rr, &env, &b, &e) ||
        tf_rel_holds(rel, a, b))
      continue;
    snprintf(p->hopeless, sizeof p->hopeless, "'%s' fails at every point: %lld %s %lld (%s)",
             tf_expr_text(p->require[r]), (long long)a, tf_rel_text(rel), (long long)b, p->require_where[r]);
    p->failed_require = (long)r;
    return 1;
  }
  return 0;
}

int tf_problem_bind_lets_and_buffers(tf_problem *p, tf_error *err) {
  if (order_lets(p, err) || bind_buffers(p, err))
    return -1;
  find_reached_lets(p);
  /* when one fails, no combination is bound, and a let it makes
   * meaningless is no error: check still shows the point where it can */
  int fails = fixed_require_fails(p, 0);
  tf_error ignored;
  tf_error_init(&ignored);
  if (fix_constant_lets(p, fails ? &ignored : err))
    return fails ? 0 : -1;
  p->fixed_lets_ok = 1;
  fix_constant_requires(p);
  if (!fails)
    fixed_require_fails(p, 1);
  return 0;
}
