#include "model/bind/problem.h"
#include "model/bind/box.h"
#include "model/bind/memory.h"
#include "model/bind/place_bind.h"
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

/* ------------------------------------------------------ machine constants */

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
  tf_problem_symbols_of(w->params[i].expr, &s);
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
 * occupancy: the param or let its "threads" role names (a let when the
 * CTA size depends on the tile, FA2's 4 or 8 warps); and the let its
 * "cta_registers" role names: the registers a CTA holds while it runs,
 * when its warpgroups hold different counts (a setmaxnreg split), which
 * occupancy then charges instead of the per-thread use times threads
 * (model/input/roles.h). */
static void find_threads(tf_problem *p) {
  const tf_workset *w = p->workset;
  const char *threads = w->roles[TF_ROLE_THREADS], *regs = w->roles[TF_ROLE_CTA_REGISTERS];
  p->threads_sym = p->cta_regs_sym = -1;
  for (size_t i = 0; regs && i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, regs))
      p->cta_regs_sym = tf_workset_sym_let(w, i);
  for (size_t i = 0; threads && i < w->nparams; i++)
    if (!strcmp(w->params[i].name, threads))
      p->threads = p->param_values[i];
  for (size_t i = 0; threads && i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, threads))
      p->threads_sym = tf_workset_sym_let(w, i);
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
    if (tf_problem_only_params(p, w->counts[i].min, path, "a count bound", err) ||
        tf_problem_only_params(p, w->counts[i].max, path, "a count bound", err) ||
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
      return tf_error_set(err, TF_EINPUT, d->where, "'%s' is a count variable; bound it with @{fix} or @{require}",
                          d->name);
    char near[160];
    return tf_error_set(err, TF_EINPUT, d->where, "workset '%s' has no choose variable '%s'%s (variables: %s)", w->name,
                        d->name, near_name(w, d->name, 0, near, sizeof near), variable_list(w, buf, sizeof buf));
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
      return tf_error_set(err, TF_EINPUT, path,
                          "bounds [%lld, %lld] reach beyond 2^53, which the solver cannot represent exactly",
                          (long long)p->count_lo[i], (long long)p->count_hi[i]);
    }
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
  double start = tf_problem_now_s();
  tf_problem *p = tf_nalloc(1, sizeof *p);
  p->started = start;
  p->time_limit_s = time_limit_s;
  p->machine = m;
  p->workset = w;
  p->syms = tf_nalloc((size_t)tf_workset_nsymbols(w), sizeof *p->syms);
  p->occupancy = -1;
  p->failed_require = -1;
  set_machine_constants(p);
  tf_problem_mark_occupancy_request(p, req);
  if (tf_place_check_machine(m, w, req->any_arch, err) || bind_params(p, req, err) || bind_counts(p, err) ||
      tf_problem_bind_requires(p, req, err) || tf_problem_bind_objectives(p, req, err) || bind_domains(p, req, err) ||
      tf_place_bind(p, req, err) || tf_problem_bind_lets_and_buffers(p, err) ||
      tf_problem_enumerate(p, start, from, err)) {
    tf_error_set_file(err, w->file);
    tf_problem_free(p);
    return NULL;
  }
  p->bind_seconds = tf_problem_now_s() - start;
  if (!p->ncombos && !p->on_demand && p->failed_require < 0) /* a memory the machine lacks says so, not "160 over 0" */
    tf_place_missing_memory(m, w, p->hopeless, sizeof p->hopeless);
  return p;
}

int tf_problem_shape_of(const tf_workset *w, const tf_request *req, tf_problem_shape *shape, tf_error *err) {
  tf_problem *p = tf_nalloc(1, sizeof *p);
  p->workset = w;
  p->occupancy = -1;
  tf_problem_mark_occupancy_request(p, req);
  int rc = tf_problem_bind_requires(p, req, err) || tf_problem_bind_objectives(p, req, err) ? -1 : 0;
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
  tf_place_bind_release(p);
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
