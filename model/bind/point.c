#include "model/bind/problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/problem_internal.h"
#include "model/core/alloc.h"

/* A concrete point, evaluated from the workset's expressions with the
 * counts as constants: a path independent of the affine forms the ILP and
 * the oracle use, which is what makes it a check of them. */

/* One block for every per-buffer, per-require and per-objective array
 * (size, raw, alloc, require_lhs, require_rhs, objective, then
 * require_ok): a point is made for every "why not" message, and seven
 * allocations were most of its cost. */
void tf_point_init(tf_point *pt, const tf_problem *p) {
  memset(pt, 0, sizeof *pt);
  size_t nb = p->nbuffers, nr = p->nrequire, words = 3 * nb + 2 * nr + p->nobjective;
  int64_t *v = tf_nalloc(words + (nr * sizeof(int) + sizeof(int64_t) - 1) / sizeof(int64_t) + 1, sizeof *v);
  pt->size = v;
  pt->raw = v + nb;
  pt->alloc = v + 2 * nb;
  pt->require_lhs = v + 3 * nb;
  pt->require_rhs = v + 3 * nb + nr;
  pt->objective = v + 3 * nb + 2 * nr;
  pt->require_ok = (int *)(v + words);
}

void tf_point_release(tf_point *pt) {
  free(pt->size);
  memset(pt, 0, sizeof *pt);
}

static int point_buffers(tf_problem *p, const int64_t *choose, tf_point *pt, tf_error *err) {
  const tf_workset *w = p->workset;
  tf_eval_env env = tf_problem_env(p);
  int64_t slots[TF_MEMORY_SLOTS] = {0};
  for (size_t b = 0; b < p->nbuffers; b++)
    if (tf_expr_eval_at(tf_memory_size_expr(p, b, choose), &env, &pt->size[b], err))
      return tf_error_set_path(err, w->buffers[b].path), -1;
  memcpy(pt->raw, pt->size, p->nbuffers * sizeof *pt->raw);
  if (tf_memory_fold_aliases(p, choose, pt->size, 1, err))
    return -1;
  for (size_t b = 0; b < p->nbuffers; b++)
    if (tf_memory_add(p, b, choose, pt->size[b], &pt->alloc[b], slots, err))
      return -1;
  if (tf_memory_total(p, slots, 0, pt->used))
    return tf_error_set(err, TF_EINPUT, NULL, "integer overflow summing a memory's use");
  for (int m = 0; m < TF_NMEM; m++) {
    p->syms[tf_workset_sym_derived(w, 0, m)] = tf_affine_constant(pt->used[m]);
    p->syms[tf_workset_sym_derived(w, 1, m)] = tf_affine_constant(tf_memory_capacity_max(p, m) - pt->used[m]);
  }
  return 0;
}

/* Each require's sides at the point (those the same at every point as
 * binding evaluated them: bind_rows.c, fix_constant_requires), and whether
 * it holds. */
static int point_requires(const tf_problem *p, const tf_eval_env *env, tf_point *pt, tf_error *err) {
  for (size_t r = 0; r < p->nrequire; r++) {
    const tf_expr *l, *rr;
    enum tf_rel rel = tf_expr_relation(p->require[r], &l, &rr);
    if (p->require_fixed && p->require_fixed[r]) {
      pt->require_lhs[r] = p->require_fixed_sides[2 * r];
      pt->require_rhs[r] = p->require_fixed_sides[2 * r + 1];
    } else if (tf_expr_eval_at(l, env, &pt->require_lhs[r], err) ||
               tf_expr_eval_at(rr, env, &pt->require_rhs[r], err)) {
      return tf_error_set_path(err, p->require_where[r]), -1;
    }
    int64_t a = pt->require_lhs[r], b = pt->require_rhs[r];
    pt->require_ok[r] = tf_rel_holds(rel, a, b);
  }
  return 0;
}

int tf_problem_eval_point(const tf_problem *cp, const int64_t *choose, const int64_t *counts, tf_point *pt,
                          tf_error *err) {
  tf_problem *p = (tf_problem *)cp; /* only the scratch symbol array changes */
  memcpy(pt->choose, choose, p->nchoose * sizeof *choose);
  memcpy(pt->counts, counts, (size_t)p->ncounts * sizeof *counts);
  p->lets_valid = 0; /* the counts become constants: every let is evaluated again */
  tf_problem_set_choose(p, choose);
  for (int i = 0; i < p->ncounts; i++)
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(counts[i]);
  int rc = tf_problem_eval_lets_at(p, err) || point_buffers(p, choose, pt, err) ? -1 : 0;
  pt->smem_limit = tf_memory_capacity_at(p, TF_MEM_SMEM, choose);
  pt->occupancy_why[0] = 0;
  if (!rc && p->occupancy >= 0) {
    /* the point's sizes as count-free affine forms, as occupancy_fits reads them */
    size_t stride = tf_problem_stride(p), n = p->nbuffers * stride;
    int64_t small[256], *sizes = n <= 256 ? small : tf_nalloc(n + 1, sizeof *sizes);
    memset(sizes, 0, n * sizeof *sizes);
    for (size_t b = 0; b < p->nbuffers; b++)
      sizes[b * stride] = pt->size[b];
    if (tf_occupancy_fits(p, choose, sizes, pt->occupancy_why, sizeof pt->occupancy_why, err) < 0)
      rc = -1;
    if (sizes != small)
      free(sizes);
  }
  tf_eval_env env = tf_problem_env(p);
  if (!rc)
    rc = point_requires(p, &env, pt, err);
  for (size_t o = 0; o < p->nobjective && !rc; o++)
    if (tf_expr_eval_at(p->objective[o].expr, &env, &pt->objective[o], err)) {
      tf_error_set_path(err, "@objective");
      rc = -1;
    }
  /* restore the symbolic counts for later enumeration, whose lets are
   * then evaluated again */
  p->lets_valid = 0;
  for (int i = 0; i < p->ncounts; i++) {
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)] = tf_affine_constant(0);
    p->syms[tf_workset_sym_count(p->workset, (size_t)i)].k[i] = 1;
  }
  if (rc)
    tf_error_set_file(err, p->workset->file);
  return rc;
}

static int missed(tf_violation *v, int kind) {
  v->kind = kind;
  return 0;
}

/* A memory over its capacity: the engine's capacity rows, which an
 * occupancy lowers for SMEM (pt->smem_limit). */
static int memory_over(const tf_problem *p, const tf_point *pt, tf_violation *v) {
  for (int m = 0; m < TF_NMEM; m++) {
    int lowered = m == TF_MEM_SMEM && pt->smem_limit < tf_memory_capacity_max(p, m);
    int64_t cap = lowered ? pt->smem_limit : tf_memory_capacity_max(p, m);
    if (pt->used[m] <= cap)
      continue;
    v->memory = m, v->needs = pt->used[m], v->capacity = cap, v->occupancy = lowered ? pt->choose[p->occupancy] : 0;
    if (lowered)
      snprintf(v->text, sizeof v->text, "smem needs %lld B; occupancy %lld allows %lld B per CTA, %lld over",
               (long long)v->needs, (long long)v->occupancy, (long long)cap, (long long)(v->needs - cap));
    else
      snprintf(v->text, sizeof v->text, "%s needs %lld %s of %lld, %lld over", tf_memory_name(m), (long long)v->needs,
               tf_memory_unit(m), (long long)cap, (long long)(v->needs - cap));
    return 1;
  }
  return 0;
}

int tf_point_violation(const tf_problem *p, const tf_point *pt, tf_violation *v) {
  memset(v, 0, sizeof *v);
  if (pt->occupancy_why[0])
    return snprintf(v->text, sizeof v->text, "%s", pt->occupancy_why), missed(v, TF_MISS_OCCUPANCY);
  if (memory_over(p, pt, v))
    return missed(v, TF_MISS_MEMORY);
  for (size_t r = 0; r < p->nrequire; r++)
    if (!pt->require_ok[r]) {
      v->index = r, v->lhs = pt->require_lhs[r], v->rhs = pt->require_rhs[r];
      snprintf(v->text, sizeof v->text, "violates '%s' (%lld vs %lld)", tf_expr_text(p->require[r]), (long long)v->lhs,
               (long long)v->rhs);
      return missed(v, TF_MISS_REQUIRE);
    }
  for (int i = 0; i < p->ncounts; i++)
    if (pt->counts[i] < p->count_lo[i] || pt->counts[i] > p->count_hi[i]) {
      v->index = (size_t)i, v->value = pt->counts[i], v->lhs = p->count_lo[i], v->rhs = p->count_hi[i];
      snprintf(v->text, sizeof v->text, "%s = %lld is outside [%lld, %lld]", p->count_names[i], (long long)v->value,
               (long long)v->lhs, (long long)v->rhs);
      return missed(v, TF_MISS_RANGE);
    }
  return 1;
}

int tf_point_fits(const tf_problem *p, const tf_point *pt, char *why, size_t size) {
  tf_violation v;
  int fits = tf_point_violation(p, pt, &v);
  if (why && size) { /* a copy, truncated as snprintf would: this runs for every certified point */
    size_t n = strlen(v.text);
    n = n < size ? n : size - 1;
    memcpy(why, v.text, n);
    why[n] = 0;
  }
  return fits;
}

int tf_problem_violation(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_violation *v) {
  tf_point pt;
  tf_point_init(&pt, p);
  tf_error e;
  tf_error_init(&e);
  int rc;
  if (tf_problem_eval_point(p, choose, counts, &pt, &e)) {
    memset(v, 0, sizeof *v);
    v->kind = TF_MISS_EVAL;
    snprintf(v->text, sizeof v->text, "%s", e.msg);
    rc = -1;
  } else {
    rc = tf_point_violation(p, &pt, v);
  }
  tf_point_release(&pt);
  return rc;
}

int tf_problem_why(const tf_problem *p, const int64_t *choose, const int64_t *counts, char *why, size_t size) {
  tf_violation v;
  int rc = tf_problem_violation(p, choose, counts, &v);
  if (size) {
    size_t n = strlen(v.text);
    n = n < size ? n : size - 1;
    memcpy(why, v.text, n);
    why[n] = 0;
  }
  return rc;
}

const char *tf_miss_name(int kind) {
  static const char *const names[] = {"none", "occupancy", "memory", "require", "range", "unevaluable"};
  return kind >= 0 && kind < (int)(sizeof names / sizeof *names) ? names[kind] : "unknown";
}
