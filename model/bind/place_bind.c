/* Placement variables of a problem (place_bind.h). */
#include "model/bind/place_bind.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/problem_internal.h"
#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/input/datapath.h"
#include "model/input/place.h"

/* "rf, smem" */
static void mem_list(unsigned mask, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (int m = 0; m < TF_NMEM; m++)
    if (mask & (1u << m))
      tf_strbuf_item(&b, ", ", "%s", tf_memory_name(m));
  if (!b.len)
    tf_strbuf_item(&b, "", "nothing");
}

/* The memories every MMA that reads or writes buffer b accepts for its
 * operand; an instruction the machine lacks (--any-arch) narrows nothing. */
static unsigned legal_mask(const tf_problem *p, size_t b, const tf_mma_use **why, int *why_op) {
  const tf_workset *w = p->workset;
  unsigned mask = (1u << TF_NMEM) - 1;
  *why = NULL;
  for (size_t u = 0; u < w->nmma; u++) {
    const tf_mma_inst *inst = tf_datapath_mma(&p->machine->datapath, w->mma[u].inst);
    for (int k = 0; inst && k < TF_MMA_OPERANDS; k++)
      if (w->mma[u].operand[k] == (int)b && (mask & ~inst->sources[k])) {
        mask &= inst->sources[k];
        *why = &w->mma[u], *why_op = k;
      }
  }
  return mask;
}

/* Buffer b's candidates after legality, in preference order, into out[]. */
static int legal_candidates(const tf_problem *p, size_t b, int *out, int *n, tf_error *err) {
  const tf_buffer *buf = &p->workset->buffers[b];
  const tf_mma_use *why;
  int op = 0;
  unsigned mask = legal_mask(p, b, &why, &op);
  const int *list = buf->nplace ? buf->place : &buf->memory;
  int nlist = buf->nplace ? buf->nplace : 1;
  *n = 0;
  for (int k = 0; k < nlist; k++)
    if (mask & (1u << list[k]))
      out[(*n)++] = list[k];
  if (*n)
    return 0;
  char reads[64], has[64];
  unsigned own = 0;
  for (int k = 0; k < nlist; k++)
    own |= 1u << list[k];
  mem_list(mask, reads, sizeof reads);
  mem_list(own, has, sizeof has);
  return tf_error_set(err, TF_EINPUT, why->path, "%s on %s takes %s from %s only; buffer %s may be in %s", why->inst,
                      p->machine->name, tf_mma_operand_names[op], reads, buf->name, has);
}

/* Narrows candidates by one pin; the pin must leave at least one. */
static int apply_pin(const tf_problem *p, const tf_place_req *pin, size_t b, int *cand, int *n, tf_error *err) {
  int kept = 0;
  unsigned own = 0, want = 0;
  for (int k = 0; k < pin->nmems; k++)
    want |= 1u << pin->mems[k];
  for (int k = 0; k < *n; k++) {
    own |= 1u << cand[k];
    if (want & (1u << cand[k]))
      cand[kept++] = cand[k];
  }
  if (!kept) {
    char has[64];
    mem_list(own, has, sizeof has);
    return tf_error_set(err, TF_EINPUT, pin->where, "%s may be in %s only (its place list and %s's mma table)",
                        p->workset->buffers[b].name, has, p->machine->name);
  }
  *n = kept;
  return 0;
}

/* The workset's own pin of buffer b (its `pin` expression over params):
 * -1 leaves the candidates, 1 keeps rf, 0 the others. */
static int apply_param_pin(const tf_problem *p, size_t b, int *cand, int *n, tf_error *err) {
  const tf_buffer *buf = &p->workset->buffers[b];
  char path[160];
  int64_t v;
  snprintf(path, sizeof path, "%.140s", buf->path);
  char *dot = strrchr(path, '.');
  if (dot)
    strcpy(dot, ".pin");
  if (tf_problem_param_const(p, buf->pin, path, "a pin", &v, err))
    return -1;
  if (v < -1 || v > 1)
    return tf_error_set(err, TF_EINPUT, path, "pin of %s is %lld; expected -1 (free), 0 (not rf) or 1 (rf)", buf->name,
                        (long long)v);
  int kept = 0;
  for (int k = 0; k < *n; k++)
    if (v < 0 || (cand[k] == TF_MEM_RF) == (v == 1))
      cand[kept++] = cand[k];
  if (!kept)
    return tf_error_set(err, TF_EINPUT, path, "pin of %s is %lld, which leaves it no memory", buf->name, (long long)v);
  *n = kept;
  return 0;
}

static int check_pins(const tf_problem *p, const tf_request *req, tf_error *err) {
  for (size_t k = 0; k < req->nplaces; k++)
    if (tf_workset_buffer(p->workset, req->places[k].buffer) < 0)
      return tf_error_set(err, TF_EINPUT, req->places[k].where, "workset '%s' has no buffer '%s'", p->workset->name,
                          req->places[k].buffer);
  return 0;
}

/* One placement variable for buffer b over cand[0..n). */
static int add_variable(tf_problem *p, size_t b, const int *cand, int n, tf_error *err) {
  if (p->nchoose == TF_MAX_CHOOSE)
    return tf_error_set(err, TF_EINPUT, "$.buffers", "at most %d choose variables, placed buffers included",
                        TF_MAX_CHOOSE);
  size_t i = p->nchoose++;
  p->domain = tf_nrealloc(p->domain, p->nchoose + 1, sizeof *p->domain);
  p->ndomain = tf_nrealloc(p->ndomain, p->nchoose + 1, sizeof *p->ndomain);
  p->choose_names[i] = p->workset->buffers[b].name;
  p->choose_sym[i] = -1;
  p->ndomain[i] = (size_t)n;
  p->domain[i] = tf_nalloc((size_t)n, sizeof *p->domain[i]);
  for (int k = 0; k < n; k++)
    p->domain[i][k] = cand[k];
  p->place_var[b] = (int)i;
  return 0;
}

/* placement_order's weights: buffers in workset order, the first most
 * significant; and the tie-break level when there is a choice. */
static int add_tie_break(tf_problem *p, tf_error *err) {
  int64_t w = 1;
  for (size_t i = p->nchoose; i-- > p->place_first;) {
    p->place_weight[i] = w;
    w *= (int64_t)p->ndomain[i]; /* at most 3^32: no overflow */
  }
  if (w == 1)
    return 0;
  p->objective = tf_nrealloc(p->objective, p->nobjective + 2, sizeof *p->objective);
  if (tf_workset_parse_objective(p->workset, "min placement_order", "placement", &p->objective[p->nobjective], err))
    return -1;
  p->nobjective++;
  return 0;
}

int tf_place_bind(tf_problem *p, const tf_request *req, tf_error *err) {
  const tf_workset *w = p->workset;
  p->place_first = p->nchoose;
  p->nobjective_shown = p->nobjective;
  p->place_var = tf_nalloc(w->nbuffers + 1, sizeof *p->place_var);
  if (check_pins(p, req, err))
    return -1;
  for (size_t b = 0; b < w->nbuffers; b++) {
    int cand[TF_NMEM], n;
    p->place_var[b] = -1;
    if (legal_candidates(p, b, cand, &n, err))
      return -1;
    int pinned = 0;
    for (size_t k = 0; k < req->nplaces; k++)
      if (!strcmp(req->places[k].buffer, w->buffers[b].name) && (pinned = 1) &&
          apply_pin(p, &req->places[k], b, cand, &n, err))
        return -1;
    if (w->buffers[b].pin && !pinned && apply_param_pin(p, b, cand, &n, err))
      return -1;
    if (w->buffers[b].nplace && add_variable(p, b, cand, n, err))
      return -1;
  }
  return add_tie_break(p, err);
}

/* Called for every combination: placed() of a buffer with a fixed memory
 * never changes, so it is written on the first call only (every buffer
 * times every memory per combination was a fifth of a sweep's time). */
void tf_place_set_symbols(tf_problem *p, const int64_t *choose) {
  const tf_workset *w = p->workset;
  int64_t order = 0;
  for (size_t b = 0; b < w->nbuffers; b++) {
    int v = p->place_var[b];
    if (v < 0 && p->placed_fixed_set) /* a fixed buffer's symbols are set once */
      continue;
    int mem = tf_memory_of_at(p, b, choose);
    for (int m = 0; m < TF_NMEM; m++)
      p->syms[tf_workset_sym_placed(w, b, m)] = tf_affine_constant(m == mem);
    for (size_t k = 0; v >= 0 && k < p->ndomain[v]; k++)
      if (p->domain[v][k] == mem)
        order += (int64_t)k * p->place_weight[v];
  }
  p->syms[tf_workset_sym_placement_order(w)] = tf_affine_constant(order);
  p->placed_fixed_set = 1;
}

void tf_place_text(const tf_problem *p, const int64_t *choose, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (size_t i = p->place_first; i < p->nchoose; i++)
    tf_strbuf_item(&b, ", ", "%s %s", p->choose_names[i], tf_memory_name((int)choose[i]));
}

const char *tf_problem_value_text(const tf_problem *p, size_t i, int64_t v, char *buf) {
  if (i >= p->place_first && v >= 0 && v < TF_NMEM)
    return tf_memory_name((int)v);
  snprintf(buf, 24, "%lld", (long long)v);
  return buf;
}

/* Placements are the last choose variables, from place_first on (set by
 * tf_place_bind), and a placement's value is the memory id itself. */
size_t tf_place_nnumeric(const tf_problem *p) { return p->place_first; }

size_t tf_place_count(const tf_problem *p) { return p->nchoose - p->place_first; }

size_t tf_place_var(const tf_problem *p, size_t k) { return p->place_first + k; }

int tf_place_is_var(const tf_problem *p, size_t i) { return i >= p->place_first && i < p->nchoose; }

void tf_place_bind_release(tf_problem *p) {
  free(p->place_var);
  p->place_var = NULL;
}

int tf_place_memory(const tf_problem *p, size_t i, int64_t v) {
  (void)p, (void)i; /* the value is the memory id, not its index in the domain */
  return (int)v;
}
