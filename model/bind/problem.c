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

/* ---------------------------------------------------------------- symbols */

tf_eval_env tf_problem_env(const tf_problem *p) {
  tf_eval_env env = {p->syms, p->ncounts, p->count_names};
  return env;
}

/* The machine constants (workset.h): a field's value, each edge's SMEM
 * port (model/input/roofline.h), and the derived ones, mc_NAME. */
static int64_t mc_cc(const tf_machine *m) { return tf_machine_arch_number(m, "sm_"); }
static int64_t mc_gfx(const tf_machine *m) { return tf_machine_arch_number(m, "gfx"); }
static int64_t mc_sustained_mhz(const tf_machine *m) { return tf_machine_time_mhz(m); }
static int64_t mc_mma_sync_permille(const tf_machine *m) {
  return m->mma_sync.present ? m->mma_sync.rate_permille : 1000;
}
static int64_t mc_mma_f32acc_permille(const tf_machine *m) {
  return m->mma_f32acc.present ? m->mma_f32acc.rate_permille : 1000;
}

static void set_machine_constants(tf_problem *p) {
  const tf_machine *m = p->machine;
  int64_t v[TF_NMC], f[TF_MACHINE_NFIELDS];
  size_t field = 0; /* the row of TF_MACHINE_FIELDS, in its order */
  tf_machine_field_values(m, f);
#define FIELD(k, lo, hi, c) v[TF_MC_##c] = f[field++];
#define SUB(s, k, lo, hi, c) FIELD(k, lo, hi, c)
#define NONE(s, k, lo, hi) field++;
#define PORT(n, from, to) v[TF_MC_smem_port_##n] = tf_roofline_smem_port(&m->datapath, from, to);
#define DERIVED(n) v[TF_MC_##n] = mc_##n(m);
  TF_MACHINE_FIELDS(FIELD, SUB, NONE)
  TF_MACHINE_PORTS(PORT)
  TF_MACHINE_DERIVED(DERIVED)
#undef FIELD
#undef SUB
#undef NONE
#undef PORT
#undef DERIVED
  for (int c = 0; c < TF_NMC; c++)
    p->syms[tf_workset_sym_machine(p->workset, c)] = tf_affine_constant(v[c]);
  tf_memory_bind_capacities(p);
}

/* The symbols an expression uses, each once, in order of first use. */
static void symbols_of(const tf_expr *e, tf_symbols *s) {
  memset(s, 0, sizeof *s);
  tf_expr_symbols(e, s);
}

/* The first symbol of e whose kind is not in `allowed` (a bit per enum
 * sym_kind), or -1. */
static int first_other(const tf_workset *w, const tf_expr *e, unsigned allowed) {
  tf_symbols s;
  symbols_of(e, &s);
  int found = -1;
  for (size_t k = 0; k < s.n && found < 0; k++)
    if (!(allowed & (1u << tf_workset_sym_kind(w, s.v[k]))))
      found = s.v[k];
  tf_symbols_release(&s);
  return found;
}

/* Does symbol `sym` read "occupancy", itself or through lets?  A require
 * or objective that does makes it a variable of the problem. */
static int reads_occupancy(const tf_workset *w, int sym) {
  enum tf_sym_kind kind = tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_LET)
    return (w->let_graph.choose[sym - tf_workset_sym_let(w, 0)] & TF_LETS_OCCUPANCY) != 0;
  return kind == TF_SYM_OCCUPANCY;
}

static int expr_reads_occupancy(const tf_workset *w, const tf_expr *e) {
  tf_symbols s;
  symbols_of(e, &s);
  int found = 0;
  for (size_t k = 0; k < s.n && !found; k++)
    found = reads_occupancy(w, s.v[k]);
  tf_symbols_release(&s);
  return found;
}

/* ----------------------------------------------------------------- params */

struct param_state {
  tf_problem *p;
  const tf_request *req;
  int *state; /* 0 new, 1 in progress, 2 done */
};

static int eval_param(struct param_state *st, size_t i, tf_error *err);

static int param_deps(struct param_state *st, size_t i, tf_error *err) {
  const tf_workset *w = st->p->workset;
  tf_symbols s;
  symbols_of(w->params[i].expr, &s);
  int rc = 0;
  for (size_t k = 0; k < s.n && !rc; k++) {
    enum tf_sym_kind kind = tf_workset_sym_kind(w, s.v[k]);
    if (kind == TF_SYM_PARAM) {
      rc = eval_param(st, (size_t)s.v[k], err);
    } else if (kind != TF_SYM_MACHINE) {
      char buf[32];
      rc = tf_error_set(err, TF_EINPUT, w->params[i].path,
                        "a param default may use only params and machine constants, not '%s'",
                        tf_workset_sym_name(w, s.v[k], buf, sizeof buf));
    }
  }
  tf_symbols_release(&s);
  return rc;
}

static int eval_param(struct param_state *st, size_t i, tf_error *err) {
  tf_problem *p = st->p;
  const tf_workset *w = p->workset;
  if (st->state[i] == 2)
    return 0;
  if (st->state[i] == 1)
    return tf_error_set(err, TF_EINPUT, w->params[i].path, "cyclic definition of param '%s'", w->params[i].name);
  st->state[i] = 1;
  int64_t v = 0;
  int overridden = 0;
  for (size_t k = 0; k < st->req->nparams; k++)
    if (!strcmp(st->req->params[k].name, w->params[i].name)) {
      v = st->req->params[k].value;
      overridden = 1;
    }
  if (!overridden) {
    tf_eval_env env = tf_problem_env(p);
    if (param_deps(st, i, err) || tf_expr_eval_const(w->params[i].expr, &env, &v, err))
      return tf_error_set_path(err, w->params[i].path), -1;
  }
  p->param_values[i] = v;
  p->syms[i] = tf_affine_constant(v);
  st->state[i] = 2;
  return 0;
}

/* The workset's CTA size, for the register and thread limits of
 * occupancy: a "threads" param, or a "threads" let when the CTA size
 * depends on the tile (FA2's 4 or 8 warps); and a "cta_registers" let:
 * the registers a CTA holds while it runs, when its warpgroups hold
 * different counts (a setmaxnreg split), which occupancy then charges
 * instead of the per-thread use times threads. */
static void find_threads(tf_problem *p) {
  p->threads_sym = p->cta_regs_sym = -1;
  for (size_t i = 0; i < p->workset->nlets; i++)
    if (!strcmp(p->workset->lets[i].name, "cta_registers"))
      p->cta_regs_sym = tf_workset_sym_let(p->workset, i);
  for (size_t i = 0; i < p->workset->nparams; i++)
    if (!strcmp(p->workset->params[i].name, "threads"))
      p->threads = p->param_values[i];
  for (size_t i = 0; i < p->workset->nlets; i++)
    if (!strcmp(p->workset->lets[i].name, "threads"))
      p->threads_sym = tf_workset_sym_let(p->workset, i);
}

/* "; did you mean 'num_stages'?" when one of the workset's params (or
 * choose and count variables) is near `name`, else "". */
static const char *near_name(const tf_workset *w, const char *name, int params, char *buf, size_t size) {
  size_t n = params ? w->nparams : w->nchoose + w->ncounts, k = 0;
  const char **names = tf_nalloc(n + 1, sizeof *names);
  for (size_t i = 0; params && i < w->nparams; i++)
    names[k++] = w->params[i].name;
  for (size_t i = 0; !params && i < w->nchoose; i++)
    names[k++] = w->choose[i].name;
  for (size_t i = 0; !params && i < w->ncounts; i++)
    names[k++] = w->counts[i].name;
  const char *near = tf_suggest(name, names, n);
  buf[0] = 0;
  if (near)
    snprintf(buf, size, "; did you mean '%s'?", near);
  free(names);
  return buf;
}

/* "d, dv, in_bits" */
static const char *param_list(const tf_workset *w, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (size_t i = 0; i < w->nparams; i++)
    tf_strbuf_item(&b, ", ", "%s", w->params[i].name);
  return buf;
}

static int bind_params(tf_problem *p, const tf_request *req, tf_error *err) {
  const tf_workset *w = p->workset;
  for (size_t k = 0; k < req->nparams; k++) {
    int sym = tf_workset_resolve(w, req->params[k].name);
    if (sym < 0 || tf_workset_sym_kind(w, sym) != TF_SYM_PARAM) {
      char near[160], list[512];
      return tf_error_set(err, TF_EINPUT, req->params[k].where, "workset '%s' has no param '%s'%s (params: %s)",
                          w->name, req->params[k].name, near_name(w, req->params[k].name, 1, near, sizeof near),
                          w->nparams ? param_list(w, list, sizeof list) : "none");
    }
    for (size_t j = 0; j < k; j++)
      if (!strcmp(req->params[j].name, req->params[k].name) && req->params[j].value != req->params[k].value)
        return tf_error_set(err, TF_EINPUT, req->params[k].where, "param '%s' given twice with different values",
                            req->params[k].name);
  }
  p->param_values = tf_nalloc(w->nparams, sizeof *p->param_values);
  struct param_state st = {p, req, tf_nalloc(w->nparams, sizeof(int))};
  int rc = 0;
  for (size_t i = 0; i < w->nparams && !rc; i++)
    rc = eval_param(&st, i, err);
  free(st.state);
  if (!rc)
    find_threads(p);
  return rc;
}

/* ---------------------------------------------------- counts and domains */

static int only_params(const tf_problem *p, const tf_expr *e, const char *where, const char *what,
                       tf_error *err) {
  int other = first_other(p->workset, e, 1u << TF_SYM_PARAM | 1u << TF_SYM_MACHINE);
  if (other < 0)
    return 0;
  char buf[32];
  return tf_error_set(err, TF_EINPUT, where, "%s may use only params and machine constants, not '%s'", what,
                      tf_workset_sym_name(p->workset, other, buf, sizeof buf));
}

int tf_problem_param_const(const tf_problem *p, const tf_expr *e, const char *where, const char *what, int64_t *out,
                           tf_error *err) {
  tf_eval_env env = tf_problem_env(p);
  if (only_params(p, e, where, what, err) || tf_expr_eval_const(e, &env, out, err))
    return tf_error_set_path(err, where), -1;
  return 0;
}

static int bind_counts(tf_problem *p, tf_error *err) {
  const tf_workset *w = p->workset;
  p->ncounts = (int)w->ncounts;
  tf_eval_env env = tf_problem_env(p);
  for (size_t i = 0; i < w->ncounts; i++) {
    char path[160];
    snprintf(path, sizeof path, "$.count.%s", w->counts[i].name);
    p->count_names[i] = w->counts[i].name;
    p->syms[tf_workset_sym_count(w, i)] = tf_affine_constant(0);
    p->syms[tf_workset_sym_count(w, i)].k[i] = 1;
    if (only_params(p, w->counts[i].min, path, "a count bound", err) ||
        only_params(p, w->counts[i].max, path, "a count bound", err) ||
        tf_expr_eval_const(w->counts[i].min, &env, &p->count_lo[i], err) ||
        tf_expr_eval_const(w->counts[i].max, &env, &p->count_hi[i], err))
      return tf_error_set_path(err, path), -1;
    if (p->count_lo[i] > p->count_hi[i])
      return tf_error_set(err, TF_EINPUT, path, "min %lld is above max %lld", (long long)p->count_lo[i],
                          (long long)p->count_hi[i]);
  }
  return 0;
}

static const char *variable_list(const tf_workset *w, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (size_t i = 0; i < w->nchoose && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", w->choose[i].name);
  if (n < size)
    n += (size_t)snprintf(buf + n, size - n, "%soccupancy", n ? ", " : "");
  for (size_t i = 0; i < w->ncounts && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", w->counts[i].name);
  return buf;
}

static int apply_fix(tf_problem *p, const tf_assign *fix, const tf_request *req, size_t k, tf_error *err) {
  const tf_workset *w = p->workset;
  for (size_t j = 0; j < k; j++)
    if (!strcmp(req->fixes[j].name, fix->name) && req->fixes[j].value != fix->value)
      return tf_error_set(err, TF_EINPUT, fix->where, "contradictory values for '%s': %lld and %lld", fix->name,
                          (long long)req->fixes[j].value, (long long)fix->value);
  int sym = tf_workset_resolve(w, fix->name);
  enum tf_sym_kind kind = sym < 0 ? TF_SYM_DERIVED : tf_workset_sym_kind(w, sym);
  if (kind == TF_SYM_COUNT) {
    size_t i = (size_t)(sym - tf_workset_sym_count(w, 0));
    p->count_lo[i] = p->count_hi[i] = fix->value;
    return 0;
  }
  if (kind == TF_SYM_CHOOSE || (kind == TF_SYM_OCCUPANCY && p->occupancy >= 0)) {
    size_t i = kind == TF_SYM_OCCUPANCY ? (size_t)p->occupancy : (size_t)(sym - tf_workset_sym_choose(w, 0));
    p->ndomain[i] = 1;
    p->domain[i][0] = fix->value;
    return 0;
  }
  char buf[512], near[160];
  return tf_error_set(err, TF_EINPUT, fix->where, "workset '%s' has no variable '%s'%s (variables: %s)", w->name,
                      fix->name, near_name(w, fix->name, 0, near, sizeof near), variable_list(w, buf, sizeof buf));
}

static int apply_domain(tf_problem *p, const tf_domain_req *d, tf_error *err) {
  const tf_workset *w = p->workset;
  int sym = tf_workset_resolve(w, d->name);
  int occ = sym >= 0 && tf_workset_sym_kind(w, sym) == TF_SYM_OCCUPANCY && p->occupancy >= 0;
  if (!occ && (sym < 0 || tf_workset_sym_kind(w, sym) != TF_SYM_CHOOSE)) {
    char buf[512];
    if (sym >= 0 && tf_workset_sym_kind(w, sym) == TF_SYM_COUNT)
      return tf_error_set(err, TF_EINPUT, d->where,
                          "'%s' is a count variable; bound it with @{fix} or @{require}", d->name);
    char near[160];
    return tf_error_set(err, TF_EINPUT, d->where, "workset '%s' has no choose variable '%s'%s (variables: %s)",
                        w->name, d->name, near_name(w, d->name, 0, near, sizeof near), variable_list(w, buf, sizeof buf));
  }
  if (d->nvalues == 0)
    return tf_error_set(err, TF_EINPUT, d->where, "empty domain for '%s'", d->name);
  size_t i = occ ? (size_t)p->occupancy : (size_t)(sym - tf_workset_sym_choose(w, 0));
  free(p->domain[i]);
  p->domain[i] = tf_nalloc(d->nvalues, sizeof *p->domain[i]);
  memcpy(p->domain[i], d->values, d->nvalues * sizeof *d->values);
  p->ndomain[i] = d->nvalues;
  return 0;
}

/* "occupancy" becomes one more choose variable, 1 .. CTAs per SM, so that
 * max occupancy is exact: each value is a combination with its own SMEM
 * bound (tf_memory_capacity). */
static void add_occupancy_variable(tf_problem *p) {
  size_t i = p->nchoose++;
  int64_t n = p->machine->limits.ctas_per_sm > 0 ? p->machine->limits.ctas_per_sm : 1;
  p->occupancy = (int)i;
  p->choose_names[i] = "occupancy";
  p->choose_sym[i] = tf_workset_sym_occupancy(p->workset);
  p->ndomain[i] = (size_t)n;
  p->domain[i] = tf_nalloc((size_t)n, sizeof *p->domain[i]);
  for (int64_t v = 0; v < n; v++)
    p->domain[i][v] = v + 1;
}

static int bind_domains(tf_problem *p, const tf_request *req, tf_error *err) {
  const tf_workset *w = p->workset;
  p->nchoose = w->nchoose;
  p->domain = tf_nalloc(w->nchoose + 2, sizeof *p->domain);
  p->ndomain = tf_nalloc(w->nchoose + 2, sizeof *p->ndomain);
  for (size_t i = 0; i < w->nchoose; i++) {
    p->choose_names[i] = w->choose[i].name;
    p->choose_sym[i] = tf_workset_sym_choose(w, i);
    p->ndomain[i] = w->choose[i].nvalues;
    p->domain[i] = tf_nalloc(w->choose[i].nvalues, sizeof *p->domain[i]);
    memcpy(p->domain[i], w->choose[i].values, w->choose[i].nvalues * sizeof *p->domain[i]);
  }
  if (p->occupancy >= 0)
    add_occupancy_variable(p);
  else /* a let that reads it (a shape's waves) sees one CTA per SM */
    p->syms[tf_workset_sym_occupancy(w)] = tf_affine_constant(1);
  for (size_t k = 0; k < req->ndomains; k++)
    if (apply_domain(p, &req->domains[k], err))
      return -1;
  for (size_t k = 0; k < req->nfixes; k++)
    if (apply_fix(p, &req->fixes[k], req, k, err))
      return -1;
  /* count bounds become the solver's column bounds, doubles */
  for (int i = 0; i < p->ncounts; i++)
    if (p->count_lo[i] < -((int64_t)1 << 53) || p->count_hi[i] > ((int64_t)1 << 53)) {
      char path[160];
      snprintf(path, sizeof path, "$.count.%s", p->count_names[i]);
      for (size_t k = 0; k < req->nfixes; k++) /* a fix sets both bounds: name it */
        if (!strcmp(req->fixes[k].name, p->count_names[i]))
          snprintf(path, sizeof path, "%s", req->fixes[k].where);
      return tf_error_set(err, TF_EINPUT, path, "bounds [%lld, %lld] reach beyond 2^53, which the solver cannot represent exactly",
                          (long long)p->count_lo[i], (long long)p->count_hi[i]);
    }
  return 0;
}

/* ------------------------------------------------- requires, objectives */

static void mark_derived(tf_problem *p, const tf_expr *e, const char *where) {
  tf_symbols s;
  symbols_of(e, &s);
  for (size_t k = 0; k < s.n; k++) {
    if (tf_workset_sym_kind(p->workset, s.v[k]) == TF_SYM_DERIVED) {
      int m = (s.v[k] - tf_workset_sym_derived(p->workset, 0, 0)) % TF_NMEM;
      if (!p->uses_derived[m])
        p->derived_where[m] = tf_strdup(where);
      p->uses_derived[m] = 1;
    }
    if (reads_occupancy(p->workset, s.v[k]))
      p->occupancy = 0; /* placed by bind_domains */
  }
  tf_symbols_release(&s);
}

static void mark_occupancy_request(tf_problem *p, const tf_request *req) {
  for (size_t i = 0; i < req->nfixes; i++)
    if (!strcmp(req->fixes[i].name, "occupancy"))
      p->occupancy = 0;
  for (size_t i = 0; i < req->ndomains; i++)
    if (!strcmp(req->domains[i].name, "occupancy"))
      p->occupancy = 0;
}

static int bind_requires(tf_problem *p, const tf_request *req, tf_error *err) {
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
    p->row_kind[i] = rel == TF_REL_LE || rel == TF_REL_LT ? TF_ROW_LE
                     : rel == TF_REL_EQ                   ? TF_ROW_EQ
                                                          : TF_ROW_GE;
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
static int bind_objectives(tf_problem *p, const tf_request *req, tf_error *err) {
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

/* A let that failed: the error gets the let's path in the workset, unless
 * it is the roofline's MMA term dividing by a rate of 0.  A machine may
 * give mma_f16_per_clk 0 ("unsupported", machines/README.md), and the
 * roofline's rate at every width falls back to it, so then the machine's
 * file and field are at fault, not the workset. */
static int let_failed(const tf_problem *p, size_t i, tf_error *err) {
  const tf_workset *w = p->workset;
  if (p->machine->throughput.mma_f16_per_clk || strncmp(w->lets[i].path, "$.roofline.mma", 14) ||
      !strstr(err->msg, "division by zero"))
    return tf_error_set_path(err, w->lets[i].path), -1;
  tf_error m;
  tf_error_init(&m);
  tf_error_set(&m, TF_EINPUT, "$.throughput.mma_f16_per_clk",
               "0 (no 16-bit tensor-core rate), but %s's roofline divides by the MMA rate (%s: %s)", w->name,
               w->lets[i].path, err->msg);
  tf_error_set_file(&m, p->machine->file);
  *err = m;
  return -1;
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
      rc = let_failed(p, i, err);
  }
  free(r.let);
  return rc;
}

/* Evaluates lets[list[0..n)] in that order into their symbols, those
 * whose choose variables are in `changed` (all: ~0). */
static int eval_lets(tf_problem *p, const int *list, size_t n, uint64_t changed, tf_error *err) {
  const tf_workset *w = p->workset;
  tf_eval_env env = tf_problem_env(p);
  for (size_t k = 0; k < n; k++) {
    size_t i = (size_t)list[k];
    if (!(w->let_graph.choose[i] & changed) && changed != ~(uint64_t)0)
      continue; /* the value from the last combination still holds */
    if (tf_expr_eval(w->lets[i].expr, &env, &p->syms[tf_workset_sym_let(w, i)], err))
      return let_failed(p, i, err);
  }
  return 0;
}

/* Evaluates, once, the reached lets that are the same at every point. */
static int fix_constant_lets(tf_problem *p, tf_error *err) {
  return eval_lets(p, p->let_fixed, p->nlet_fixed, ~(uint64_t)0, err);
}

/* Does e read only params, machine constants and fixed lets: is it the
 * same at every point? */
static int reads_only_fixed(const tf_problem *p, const tf_expr *e) {
  const tf_workset *w = p->workset;
  tf_symbols s;
  symbols_of(e, &s);
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
      if (first_other(w, sizes[k], ~(1u << TF_SYM_DERIVED | 1u << TF_SYM_OCCUPANCY)) >= 0 ||
          expr_reads_occupancy(w, sizes[k])) /* through a let */
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
    int fixed = with_lets ? reads_only_fixed(p, p->require[r])
                          : first_other(p->workset, p->require[r], 1u << TF_SYM_PARAM | 1u << TF_SYM_MACHINE) < 0;
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

static int bind_lets_and_buffers(tf_problem *p, tf_error *err) {
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

/* ------------------------------------------------------------ evaluation */

/* Evaluates the lets a point needs (find_reached_lets) for the choose
 * values and counts now in p->syms. */
int tf_problem_eval_lets(tf_problem *p, tf_error *err) {
  p->lets_valid = 0; /* until they all are */
  if (eval_lets(p, p->let_eval, p->nlet_eval, p->choose_changed, err))
    return -1;
  p->lets_valid = 1;
  return 0;
}

int tf_problem_eval_lets_at(tf_problem *p, tf_error *err) {
  const tf_workset *w = p->workset;
  tf_eval_env env = tf_problem_env(p);
  p->lets_valid = 0;
  for (size_t k = 0; k < p->nlet_eval; k++) {
    size_t i = (size_t)p->let_eval[k];
    int64_t v;
    if (tf_expr_eval_at(w->lets[i].expr, &env, &v, err))
      return let_failed(p, i, err);
    p->syms[tf_workset_sym_let(w, i)] = tf_affine_constant(v);
  }
  return 0;
}

uint64_t tf_problem_var_bit(const tf_problem *p, size_t i) {
  if (i < p->workset->nchoose)
    return (uint64_t)1 << i;
  return (int)i == p->occupancy ? TF_LETS_OCCUPANCY : TF_LETS_PLACED;
}

/* Also notes which of the workset's choose variables changed since the
 * lets were last evaluated, so that eval_lets redoes only the lets that
 * depend on one (combinations come in odometer order: most lets keep
 * their value from one combination to the next). */
void tf_problem_set_choose(tf_problem *p, const int64_t *choose) {
  p->choose_changed = 0;
  for (size_t i = 0; i < p->nchoose; i++) {
    if (p->choose_sym[i] >= 0) /* placement variables have none: placed() reads them */
      p->syms[p->choose_sym[i]] = tf_affine_constant(choose[i]);
    if (!p->lets_valid || choose[i] != p->lets_at[i])
      p->choose_changed |= tf_problem_var_bit(p, i);
    p->lets_at[i] = choose[i];
  }
  if (!p->lets_valid)
    p->choose_changed = ~(uint64_t)0;
  tf_place_set_symbols(p, choose);
}

static int set_derived(tf_problem *p, const int64_t *choose, const tf_affine *sizes, tf_error *err) {
  for (int m = 0; m < TF_NMEM; m++) {
    if (!p->uses_derived[m])
      continue;
    tf_affine used, cap = tf_affine_constant(tf_memory_capacity_max(p, m)), slack;
    if (tf_memory_used_form(p, m, choose, sizes, &used, err))
      return tf_error_set_path(err, p->derived_where[m]), -1;
    if (tf_affine_add(&slack, &cap, &used, -1))
      return tf_error_set(err, TF_EINPUT, NULL, "integer overflow in slack(%s)", tf_memory_name(m));
    p->syms[tf_workset_sym_derived(p->workset, 0, m)] = used;
    p->syms[tf_workset_sym_derived(p->workset, 1, m)] = slack;
  }
  return 0;
}

static void combo_text(const tf_problem *p, const int64_t *choose, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  char v[24];
  for (size_t i = 0; i < p->nchoose && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", i ? ", " : "", p->choose_names[i],
                          tf_problem_value_text(p, i, choose[i], v));
}

static void store(int64_t *dst, const tf_affine *a, int ncounts) {
  dst[0] = a->c;
  for (int i = 0; i < ncounts; i++)
    dst[1 + i] = a->k[i];
}

struct pruning {
  int64_t best_excess;
};

/* A memory over its capacity at the smallest counts. */
struct overflow {
  int memory;
  int64_t used, cap, excess;
};

/* A memory that cannot fit even at the smallest counts rules the
 * combination out before any ILP is built: returns 0 with what overflows
 * (overflow_text says it), else 1. */
static int fits_at_minimum(tf_problem *p, size_t c, const int64_t *choose, struct overflow *ov) {
  int64_t least[TF_NMEM];
  if (tf_memory_least_use(p, c, p->count_lo, p->count_hi, least))
    return 1; /* let the ILP and the verifier decide */
  for (int m = 0; m < TF_NMEM; m++) {
    int64_t used = least[m], cap = tf_memory_capacity_at(p, m, choose);
    if (used <= cap)
      continue;
    ov->memory = m, ov->used = used, ov->cap = cap, ov->excess = used - cap;
    return 0;
  }
  return 1;
}

/* Formatted only for the overflow a message names (most combinations of
 * a large workset overflow; formatting each was a sixth of a sweep). */
static void overflow_text(const tf_problem *p, const int64_t *choose, const struct overflow *ov, char *why,
                          size_t size) {
  char combo[160];
  combo_text(p, choose, combo, sizeof combo);
  snprintf(why, size, "%s needs %lld %s of %s at the smallest counts, %lld over %lld", combo[0] ? combo : "the workset",
           (long long)ov->used, tf_memory_unit(ov->memory), tf_memory_name(ov->memory), (long long)ov->excess,
           (long long)ov->cap);
}

static int require_violation(tf_problem *p, size_t r, const int64_t *choose, const tf_affine *lhs,
                             const tf_affine *rhs, struct pruning *pr) {
  (void)lhs;
  (void)rhs;
  if (pr->best_excess == INT64_MAX && !p->pruned_why[0]) {
    char combo[160];
    combo_text(p, choose, combo, sizeof combo);
    snprintf(p->pruned_why, sizeof p->pruned_why, "%s%sviolates '%s'", combo, combo[0] ? " " : "",
             tf_expr_text(p->require[r]));
  }
  return 0;
}

/* The form index in place k of the last kept combination before slot c
 * (n places a combination), to try first; UINT32_MAX when there is none. */
static uint32_t near(const uint32_t *ix, size_t n, size_t c, size_t k) {
  return c ? ix[(c - 1) * n + k] : UINT32_MAX;
}

/* Buffer sizes of the combination in slot c, stored; 1 or -1 on error. */
static int enumerate_buffers(tf_problem *p, size_t c, const int64_t *choose, const tf_eval_env *env, tf_reuse *ru,
                             tf_affine *sz, tf_error *err) {
  const tf_workset *w = p->workset;
  size_t stride = tf_problem_stride(p);
  int64_t *forms = p->scratch; /* folded, then stored */
  for (size_t b = 0; b < p->nbuffers; b++) {
    const tf_affine *v;
    if (tf_reuse_eval(ru, tf_reuse_buffer(b), tf_memory_size_expr(p, b, choose), env, &v, err))
      return tf_error_set_path(err, w->buffers[b].path), -1;
    sz[b] = *v; /* folded below */
    if (!tf_affine_is_const(&sz[b], p->ncounts))
      p->count_dependent[b] = 1;
    else if (sz[b].c < 0) /* one that is negative only at some counts does not fit there */
      return tf_error_set(err, TF_EINPUT, w->buffers[b].path, "buffer '%s' has negative size %lld", w->buffers[b].name,
                          (long long)sz[b].c);
    store(forms + b * stride, &sz[b], p->ncounts);
  }
  if (tf_memory_fold_aliases(p, choose, forms, stride, err))
    return -1;
  for (size_t b = 0; b < p->nbuffers; b++) {
    sz[b].c = forms[b * stride];
    p->buf_ix[c * p->nbuffers + b] = tf_forms_add_near(&p->forms, forms + b * stride, near(p->buf_ix, p->nbuffers, c, b));
  }
  return 1;
}

/* Require r at the combination in slot c, stored as a row normalised to
 * form {<=, >=, ==} 0; 1 keep, 0 violated whatever the counts, -1 error. */
static int enumerate_row(tf_problem *p, size_t c, size_t r, const int64_t *choose, const tf_eval_env *env,
                         tf_reuse *ru, struct pruning *pr, tf_error *err) {
  if (p->require_fixed[r]) { /* holds everywhere (fixed_require_fails): no row */
    p->row_ix[c * p->nrequire + r] = p->zero_form;
    return 1;
  }
  const tf_expr *l, *rr;
  enum tf_rel rel = tf_expr_relation(p->require[r], &l, &rr);
  const tf_affine *lhs, *rhs;
  tf_affine d;
  int rc = 1;
  if (tf_reuse_eval(ru, tf_reuse_side(p, r, 0), l, env, &lhs, err) ||
      tf_reuse_eval(ru, tf_reuse_side(p, r, 1), rr, env, &rhs, err))
    return tf_error_set_path(err, p->require_where[r]), -1;
  if (tf_affine_add(&d, lhs, rhs, -1))
    return tf_error_set(err, TF_EINPUT, p->require_where[r], "integer overflow in '%s'", tf_expr_text(p->require[r]));
  if (tf_affine_is_const(&d, p->ncounts)) {
    if (!tf_rel_holds(rel, d.c, 0))
      rc = require_violation(p, r, choose, lhs, rhs, pr);
    d = tf_affine_constant(0); /* satisfied: the row is empty */
  } else if (rel == TF_REL_NE) {
    return tf_error_set(err, TF_EINPUT, p->require_where[r], "'!=' cannot constrain a count variable: '%s'",
                        tf_expr_text(p->require[r]));
  } else if (rel == TF_REL_LT) {
    d.c += 1; /* a < b  <=>  a - b + 1 <= 0 over the integers */
  } else if (rel == TF_REL_GT) {
    d.c -= 1;
  }
  int64_t form[1 + TF_MAX_COUNTS];
  store(form, &d, p->ncounts);
  p->row_ix[c * p->nrequire + r] = tf_forms_add_near(&p->forms, form, near(p->row_ix, p->nrequire, c, r));
  return rc;
}

/* The count-free occupancy limits: 1 keep, 0 drop (noting why), -1 error. */
static int enumerate_occupancy(tf_problem *p, size_t c, const int64_t *choose, tf_error *err) {
  char why[160];
  (void)c;
  int ok = tf_occupancy_fits(p, choose, p->scratch, why, sizeof why, err); /* enumerate_buffers' sizes */
  if (ok == 0 && !p->pruned_why[0])
    snprintf(p->pruned_why, sizeof p->pruned_why, "%s", why);
  return ok;
}

/* Evaluates the combination in the next slot symbolically; returns 1 to
 * keep it, 0 to drop it, -1 on error. */
static int enumerate_one(tf_problem *p, const int64_t *choose, tf_reuse *ru, struct pruning *pr, tf_error *err) {
  size_t c = p->ncombos, mark = tf_forms_mark(&p->forms);
  tf_problem_set_choose(p, choose);
  tf_reuse_next(ru, p, choose);
  if (tf_problem_eval_lets(p, err))
    return -1;
  tf_eval_env env = tf_problem_env(p);
  tf_affine sizes[256];
  tf_affine *sz = p->nbuffers <= 256 ? sizes : tf_nalloc(p->nbuffers, sizeof *sz);
  int rc = enumerate_buffers(p, c, choose, &env, ru, sz, err);
  if (rc == 1 && p->occupancy >= 0)
    rc = enumerate_occupancy(p, c, choose, err);
  struct overflow ov = {0, 0, 0, 0};
  int over = rc == 1 && !fits_at_minimum(p, c, choose, &ov);
  if (rc == 1 && set_derived(p, choose, sz, err))
    rc = -1;
  for (size_t r = 0; r < p->nrequire && rc == 1; r++)
    rc = enumerate_row(p, c, r, choose, &env, ru, pr, err);
  if (over && rc == 1) { /* the smallest overflow names a combination its requires allow */
    if (ov.excess < pr->best_excess)
      overflow_text(p, choose, &ov, p->pruned_why, sizeof p->pruned_why), pr->best_excess = ov.excess;
    rc = 0;
  }
  for (size_t o = 0; o < p->nobjective && rc == 1; o++) {
    const tf_affine *v;
    if (tf_reuse_eval(ru, tf_reuse_objective(p, o), p->objective[o].expr, &env, &v, err)) {
      tf_error_set_path(err, "@objective");
      rc = -1;
      break;
    }
    int64_t form[1 + TF_MAX_COUNTS];
    store(form, v, p->ncounts);
    p->obj_ix[c * p->nobjective + o] = tf_forms_add_near(&p->forms, form, near(p->obj_ix, p->nobjective, c, o));
  }
  if (rc != 1) /* dropped: its slot is the next candidate's, and its new forms go */
    tf_forms_rollback(&p->forms, mark);
  if (sz != sizes)
    free(sz);
  return rc;
}

/* n = a * b, or 1 when it overflows. */
static int size_mul(size_t a, size_t b, size_t *n) {
  if (a && b > SIZE_MAX / a)
    return 1;
  *n = a * b;
  return 0;
}

/* Room for `cap` combinations in the problem's tables.  The sizes are
 * checked before anything is allocated: a problem that would store more
 * than TF_MAX_STORED coefficients is an input error, not an allocation
 * that runs the process out of memory. */
static int reserve(tf_problem *p, size_t cap, tf_error *err) {
  size_t stride = tf_problem_stride(p), forms = p->nbuffers + p->nrequire + p->nobjective + 3, per, n;
  if (size_mul(forms, stride, &per) || per > SIZE_MAX - (p->nchoose + 1) ||
      size_mul(cap, per + p->nchoose + 1, &n) || n > TF_MAX_STORED)
    return tf_error_set(err, TF_EINPUT, "$.choose",
                        "%zu combinations of %zu buffers, %zu constraints and %zu objectives would store more than "
                        "%zu coefficients; narrow the domains with @{domain} or @{fix}",
                        cap, p->nbuffers, p->nrequire, p->nobjective, (size_t)TF_MAX_STORED);
  p->combo = tf_nrealloc(p->combo, cap * (p->nchoose + 1), sizeof *p->combo);
  p->buf_ix = tf_nrealloc(p->buf_ix, cap * (p->nbuffers + 1), sizeof *p->buf_ix);
  p->row_ix = tf_nrealloc(p->row_ix, cap * (p->nrequire + 1), sizeof *p->row_ix);
  p->obj_ix = tf_nrealloc(p->obj_ix, cap * (p->nobjective + 1), sizeof *p->obj_ix);
  if (!p->scratch) {
    tf_forms_init(&p->forms, stride);
    int64_t zero[1 + TF_MAX_COUNTS] = {0}; /* before any combination's: no rollback removes it */
    p->zero_form = tf_forms_add(&p->forms, zero);
    p->scratch = tf_nalloc(p->nbuffers + 1, stride * sizeof *p->scratch);
  }
  return 0;
}

/* The candidates: the product of the domains.  A problem bound whole may
 * have at most TF_MAX_COMBINATIONS (its tables, the ILP and the oracle
 * grow with them); one bound on demand any number size_t holds. */
static int count_candidates(tf_problem *p, int on_demand, tf_error *err) {
  size_t total = 1, most = on_demand ? SIZE_MAX : TF_MAX_COMBINATIONS;
  for (size_t i = 0; i < p->nchoose; i++) {
    if (p->ndomain[i] && total > most / p->ndomain[i]) {
      if (on_demand)
        return tf_error_set(err, TF_EINPUT, "$.choose", "the choose domains have more than %zu combinations", most);
      return tf_error_set(err, TF_EINPUT, "$.choose",
                          "the choose domains have more than %d combinations, the most a problem bound whole may "
                          "have (@{solver}, @{lp}, @{mps}, @{explain}, sweeps); narrow them with @{domain} or @{fix}, "
                          "or solve with the exact search alone, which takes any number",
                          TF_MAX_COMBINATIONS);
    }
    total *= p->ndomain[i];
  }
  p->ncandidates = total;
  return 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double tf_problem_time_left(const tf_problem *p, double limit_s) {
  if (limit_s <= 0)
    return 0;
  double left = limit_s - p->bind_seconds;
  return left > 0.001 ? left : 0.001;
}

/* --time-limit counts binding too: checked every 1,024 candidates. */
static int out_of_time(const tf_problem *p, double start, size_t n, tf_error *err) {
  if (p->time_limit_s <= 0 || n % 1024 || now_s() - start <= p->time_limit_s)
    return 0;
  return tf_error_set(err, TF_ESOLVER, NULL,
                      "time limit of %g s reached while binding, after %zu of %zu combinations", p->time_limit_s, n,
                      p->ncandidates);
}

/* Every candidate in odometer order (the last variable fastest), each
 * bound in the next slot and kept there when it may fit. */
static int walk_candidates(tf_problem *p, double start, size_t cap, tf_reuse *ru, tf_error *err) {
  size_t total = p->ncandidates, idx[TF_MAX_CHOOSE] = {0};
  int64_t choose[TF_MAX_CHOOSE];
  struct pruning pr = {INT64_MAX};
  for (size_t n = 0; n < total; n++) {
    if (out_of_time(p, start, n, err))
      return -1;
    for (size_t i = 0; i < p->nchoose; i++)
      choose[i] = p->domain[i][idx[i]];
    if (p->ncombos == cap && reserve(p, cap = cap < total / 2 ? 2 * cap : total, err))
      return -1;
    /* the candidate takes the next slot; kept, it stays there */
    memcpy(p->combo + p->ncombos * p->nchoose, choose, p->nchoose * sizeof *choose);
    int keep = enumerate_one(p, p->combo + p->ncombos * p->nchoose, ru, &pr, err);
    if (keep < 0)
      return -1;
    p->ncombos += keep ? 1 : 0;
    for (size_t i = p->nchoose; i-- > 0;) {
      if (++idx[i] < p->ndomain[i])
        break;
      idx[i] = 0;
    }
  }
  return 0;
}

/* Binding on demand: the tables start small, and binding's reuse and
 * the boxes' symbols live with the problem. */
static void start_on_demand(tf_problem *p) {
  p->on_demand = 1;
  p->rank = tf_nalloc(p->slot_cap, sizeof *p->rank);
  p->reuse = tf_nalloc(1, sizeof *p->reuse);
  tf_reuse_init(p->reuse, p);
}

/* from: bind on demand past this many candidates (SIZE_MAX: never). */
static int enumerate(tf_problem *p, double start, size_t from, tf_error *err) {
  if (count_candidates(p, from != SIZE_MAX, err))
    return -1;
  int on_demand = p->ncandidates > from && p->failed_require < 0;
  size_t cap = on_demand ? 64 : p->ncandidates < 1024 ? p->ncandidates : 1024;
  if (reserve(p, cap, err))
    return -1;
  p->slot_cap = cap;
  if (on_demand) {
    start_on_demand(p);
    return 0;
  }
  p->kept_known = 1;
  if (p->failed_require >= 0) /* nothing can fit (fixed_require_fails) */
    return 0;
  tf_reuse ru; /* the candidates' values, reused while what they read stays */
  tf_reuse_init(&ru, p);
  int rc = walk_candidates(p, start, cap, &ru, err);
  tf_reuse_release(&ru);
  p->nkept = p->ncombos;
  return rc;
}

static int bind_slot(tf_problem *p, const uint32_t *idx, size_t *slot, struct pruning *pr, tf_error *err) {
  int64_t choose[TF_MAX_CHOOSE];
  uint64_t rank = 0;
  for (size_t i = 0; i < p->nchoose; i++) {
    choose[i] = p->domain[i][idx[i]];
    rank = rank * p->ndomain[i] + idx[i];
  }
  if (p->ncombos == p->slot_cap) {
    if (reserve(p, 2 * p->slot_cap, err))
      return -1;
    p->slot_cap *= 2;
    p->rank = tf_nrealloc(p->rank, p->slot_cap, sizeof *p->rank);
  }
  p->slot_mark = tf_forms_mark(&p->forms);
  memcpy(p->combo + p->ncombos * p->nchoose, choose, p->nchoose * sizeof *choose);
  int keep = enumerate_one(p, p->combo + p->ncombos * p->nchoose, p->reuse, pr, err);
  if (keep <= 0)
    return keep;
  p->rank[p->ncombos] = rank;
  *slot = p->ncombos++;
  return 1;
}

int tf_problem_bind_combo(tf_problem *p, const uint32_t *idx, size_t *slot, tf_error *err) {
  struct pruning pr = {INT64_MAX};
  return bind_slot(p, idx, slot, &pr, err);
}

void tf_problem_unbind_last(tf_problem *p) {
  p->ncombos--;
  tf_forms_rollback(&p->forms, p->slot_mark);
}

int tf_problem_count_kept(tf_problem *p, tf_error *err) {
  if (p->kept_known)
    return 0;
  uint32_t idx[TF_MAX_CHOOSE] = {0};
  size_t slot, n = 0, first = SIZE_MAX;
  struct pruning pr = {INT64_MAX}; /* the smallest overflow over every candidate, as binding whole finds it */
  p->pruned_why[0] = 0;
  for (size_t k = 0; k < p->ncandidates; k++) {
    if (out_of_time(p, p->started, k, err))
      return -1;
    int rc = bind_slot(p, idx, &slot, &pr, err);
    if (rc < 0)
      return -1;
    if (rc && first == SIZE_MAX)
      first = slot; /* kept: the example an infeasible answer names */
    else if (rc)
      tf_problem_unbind_last(p);
    n += (size_t)rc;
    for (size_t i = p->nchoose; i-- > 0;) {
      if (++idx[i] < p->ndomain[i])
        break;
      idx[i] = 0;
    }
  }
  p->nkept = n;
  p->kept_known = 1;
  if (!n) /* a memory the machine lacks says so, as binding whole does */
    tf_place_missing_memory(p->machine, p->workset, p->hopeless, sizeof p->hopeless);
  return 0;
}

static tf_problem *problem_new(const tf_machine *m, const tf_workset *w, const tf_request *req, double time_limit_s,
                               size_t from, tf_error *err);

tf_problem *tf_problem_new_on_demand(const tf_machine *m, const tf_workset *w, const tf_request *req,
                                     double time_limit_s, tf_error *err) {
  return problem_new(m, w, req, time_limit_s, TF_ON_DEMAND_FROM, err);
}

tf_problem *tf_problem_new_on_demand_from(const tf_machine *m, const tf_workset *w, const tf_request *req,
                                          double time_limit_s, size_t from, tf_error *err) {
  return problem_new(m, w, req, time_limit_s, from, err);
}

tf_problem *tf_problem_new(const tf_machine *m, const tf_workset *w, const tf_request *req, tf_error *err) {
  return tf_problem_new_timed(m, w, req, 0, err);
}

tf_problem *tf_problem_new_timed(const tf_machine *m, const tf_workset *w, const tf_request *req, double time_limit_s,
                                 tf_error *err) {
  return problem_new(m, w, req, time_limit_s, SIZE_MAX, err);
}

static tf_problem *problem_new(const tf_machine *m, const tf_workset *w, const tf_request *req, double time_limit_s,
                               size_t from, tf_error *err) {
  double start = now_s();
  tf_problem *p = tf_nalloc(1, sizeof *p);
  p->started = start;
  p->time_limit_s = time_limit_s;
  p->machine = m;
  p->workset = w;
  p->syms = tf_nalloc((size_t)tf_workset_nsymbols(w), sizeof *p->syms);
  p->occupancy = -1;
  p->failed_require = -1;
  set_machine_constants(p);
  mark_occupancy_request(p, req);
  if (tf_place_check_machine(m, w, req->any_arch, err) || bind_params(p, req, err) || bind_counts(p, err) || bind_requires(p, req, err) ||
      bind_objectives(p, req, err) || bind_domains(p, req, err) || tf_place_bind(p, req, err) ||
      bind_lets_and_buffers(p, err) ||
      enumerate(p, start, from, err)) {
    tf_error_set_file(err, w->file);
    tf_problem_free(p);
    return NULL;
  }
  p->bind_seconds = now_s() - start;
  if (!p->ncombos && !p->on_demand && p->failed_require < 0) /* a memory the machine lacks says so, not "160 over 0" */
    tf_place_missing_memory(m, w, p->hopeless, sizeof p->hopeless);
  return p;
}

int tf_problem_shape_of(const tf_workset *w, const tf_request *req, tf_problem_shape *shape, tf_error *err) {
  tf_problem *p = tf_nalloc(1, sizeof *p);
  p->workset = w;
  p->occupancy = -1;
  mark_occupancy_request(p, req);
  int rc = bind_requires(p, req, err) || bind_objectives(p, req, err) ? -1 : 0;
  shape->occupancy = p->occupancy >= 0;
  shape->nobjectives = p->nobjective;
  tf_problem_free(p);
  return rc;
}

void tf_problem_free(tf_problem *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->nchoose; i++)
    free(p->domain[i]);
  free(p->domain);
  free(p->ndomain);
  for (size_t i = 0; i < p->nrequire; i++)
    if (p->require_owned[i]) {
      tf_expr_free(p->require[i]);
      free((char *)p->require_where[i]);
    }
  for (int m = 0; m < TF_NMEM; m++)
    free(p->derived_where[m]);
  free(p->require);
  free(p->require_where);
  free(p->require_owned);
  free(p->row_kind);
  free(p->require_fixed);
  free(p->require_fixed_sides);
  free(p->live_row);
  for (size_t i = 0; i < p->nobjective; i++)
    tf_objective_release(&p->objective[i]);
  free(p->objective);
  free(p->param_values);
  free(p->align);
  free(p->place_var);
  free(p->count_dependent);
  free(p->combo);
  free(p->rank);
  if (p->reuse)
    tf_reuse_release(p->reuse);
  free(p->reuse);
  tf_cbox_scratch_free(p);
  tf_forms_release(&p->forms);
  free(p->buf_ix);
  free(p->row_ix);
  free(p->obj_ix);
  free(p->scratch);
  free(p->syms);
  free(p->let_eval);
  free(p->let_fixed);
  free(p);
}

