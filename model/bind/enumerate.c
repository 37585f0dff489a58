/* Evaluating and enumerating a problem's choose combinations (problem.h):
 * binding each kept combination's forms, whole or on demand. */
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

/* ------------------------------------------------------------ evaluation */

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

static int require_violation(tf_problem *p, size_t r, const int64_t *choose, const tf_affine *lhs, const tf_affine *rhs,
                             struct pruning *pr) {
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
static uint32_t near(const uint32_t *ix, size_t n, size_t c, size_t k) { return c ? ix[(c - 1) * n + k] : UINT32_MAX; }

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
    p->buf_ix[c * p->nbuffers + b] =
        tf_forms_add_near(&p->forms, forms + b * stride, near(p->buf_ix, p->nbuffers, c, b));
  }
  return 1;
}

/* Require r at the combination in slot c, stored as a row normalised to
 * form {<=, >=, ==} 0; 1 keep, 0 violated whatever the counts, -1 error. */
static int enumerate_row(tf_problem *p, size_t c, size_t r, const int64_t *choose, const tf_eval_env *env, tf_reuse *ru,
                         struct pruning *pr, tf_error *err) {
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
  if (size_mul(forms, stride, &per) || per > SIZE_MAX - (p->nchoose + 1) || size_mul(cap, per + p->nchoose + 1, &n) ||
      n > TF_MAX_STORED)
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

double tf_problem_now_s(void) {
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
  if (p->time_limit_s <= 0 || n % 1024 || tf_problem_now_s() - start <= p->time_limit_s)
    return 0;
  return tf_error_set(err, TF_ESOLVER, NULL, "time limit of %g s reached while binding, after %zu of %zu combinations",
                      p->time_limit_s, n, p->ncandidates);
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
int tf_problem_enumerate(tf_problem *p, double start, size_t from, tf_error *err) {
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
