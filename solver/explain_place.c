/* --explain for placed buffers: per placed buffer the chosen memory, and
 * for each other memory of its place list the first reason it loses --
 * not a candidate here, does not fit, or worse at an objective level --
 * then the edges the machine leaves unmetered.  Per placed buffer also
 * what the chosen memory pays and the roofline terms (the lets the
 * workset's `cycles` takes the max of) with the buffer in its other
 * memory.  Data only: the writers render it. */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/bind/value.h"
#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/input/roofline.h"
#include "model/input/workset.h"

/* The answer's placement with variable v moved to memory m, at the
 * answer's counts or, when those do not fit there, the most of the one
 * count that does.  1 fits (pt holds it), 0 not (*miss), -1 no evaluation. */
static int moved(const tf_problem *p, const tf_answer *a, size_t v, int m, tf_point *pt, tf_violation *miss) {
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
  memcpy(choose, a->choose, sizeof choose);
  memcpy(counts, a->counts, sizeof counts);
  choose[v] = m;
  tf_error e;
  tf_error_init(&e);
  for (;;) {
    if (tf_problem_eval_point(p, choose, counts, pt, &e)) {
      memset(miss, 0, sizeof *miss);
      miss->kind = TF_MISS_EVAL;
      return snprintf(miss->text, sizeof miss->text, "%s", e.msg), -1;
    }
    tf_violation w;
    if (tf_point_violation(p, pt, &w))
      return 1;
    if (counts[0] == a->counts[0])
      *miss = w; /* the reason at the answer's counts */
    if (p->ncounts != 1 || counts[0] <= p->count_lo[0])
      return 0;
    counts[0]--;
  }
}

static void alternative(const tf_problem *p, const tf_answer *a, size_t v, int m, tf_point *pt, tf_explain_alt *alt) {
  memset(alt, 0, sizeof *alt);
  alt->memory = m;
  alt->verdict = TF_ALT_NOT_CANDIDATE;
  int candidate = 0;
  for (size_t k = 0; k < p->ndomain[v]; k++)
    candidate |= p->domain[v][k] == m;
  if (!candidate)
    return;
  alt->verdict = TF_ALT_NO_FIT;
  if (moved(p, a, v, m, pt, &alt->miss) <= 0)
    return;
  alt->verdict = TF_ALT_TIE;
  for (size_t o = 0; o < p->nobjective_shown; o++)
    if (pt->objective[o] != a->point.objective[o]) {
      alt->verdict = TF_ALT_WORSE;
      alt->level = o;
      alt->value = pt->objective[o];
      alt->fewer_counts = p->ncounts == 1 && pt->counts[0] != a->counts[0];
      return;
    }
}

/* What the chosen memory pays; an aliased buffer in its alias's memory
 * pays only what exceeds it. */
static void chosen_cost(const tf_problem *p, const tf_answer *a, tf_explain_place *e) {
  const tf_buffer *buf = &p->workset->buffers[e->buffer];
  int m = e->memory;
  e->inside = buf->alias >= 0 && tf_memory_of(p, (size_t)buf->alias, a->combo) == m ? buf->alias : -1;
  e->charged = a->point.alloc[e->buffer];
  e->used = a->point.used[m];
  e->capacity = tf_memory_capacity(p, m, a->combo);
}

/* The roofline's terms: its cycles(TERM) lets in the terms' order
 * (model/input/roofline.h), then `cycles`; their lets' indexes into idx[]. */
static size_t roofline_lets(const tf_workset *w, size_t *idx) {
  size_t top = w->nlets, n = 0;
  for (size_t i = 0; i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, TF_EXPLAIN_ROOFLINE))
      top = i;
  if (top == w->nlets)
    return 0;
  for (int t = 0; t < TF_ROOFLINE_NTERMS; t++) {
    char name[32];
    snprintf(name, sizeof name, "cycles(%s)", tf_roofline_terms[t]);
    for (size_t i = 0; i < w->nlets && n + 1 < TF_EXPLAIN_MAX_TERMS; i++)
      if (!strcmp(w->lets[i].name, name))
        idx[n++] = i;
  }
  idx[n++] = top;
  return n;
}

/* The roofline at the answer and with buffer v in memory m, counts
 * unchanged (a term is evaluated whether or not that point fits). */
static void roofline(const tf_problem *p, const tf_answer *a, tf_explain_place *e, int m) {
  size_t idx[TF_EXPLAIN_MAX_TERMS], n = roofline_lets(p->workset, idx);
  int64_t choose[TF_MAX_CHOOSE];
  memcpy(choose, a->choose, sizeof choose);
  choose[e->var] = m;
  for (size_t t = 0; t < n; t++) {
    tf_explain_term *term = &e->terms[t];
    const tf_expr *x = p->workset->lets[idx[t]].expr;
    tf_error err;
    tf_error_init(&err);
    term->name = p->workset->lets[idx[t]].name;
    term->ok = !tf_problem_value(p, a->choose, a->counts, x, &term->value, &err) &&
               !tf_problem_value(p, choose, a->counts, x, &term->moved, &err);
  }
  e->nterms = n && e->terms[n - 1].ok ? n : 0; /* no line without the roofline itself */
  e->scheduled = tf_workset_resolve(p->workset, "serial_cycles") >= 0;
}

static void unmetered(const tf_problem *p, tf_explanation *x) {
  const tf_datapath *dp = &p->machine->datapath;
  for (int i = 0; i < dp->nedges; i++)
    if (dp->edges[i].kind == TF_EDGE_UNMETERED)
      x->unmetered[x->nunmetered++] = i;
}

static void explain_one(const tf_problem *p, const tf_answer *a, size_t v, tf_point *pt, tf_explain_place *e) {
  memset(e, 0, sizeof *e);
  e->var = v;
  for (size_t i = 0; i < p->nbuffers; i++)
    if (tf_place_of_buffer(p, i) == (int)v)
      e->buffer = i;
  const tf_buffer *buf = &p->workset->buffers[e->buffer];
  e->memory = tf_place_memory(p, v, a->choose[v]);
  e->how = buf->from_table ? TF_PLACE_MMA_TABLE : p->ndomain[v] == 1 ? TF_PLACE_PINNED : TF_PLACE_CHOSEN;
  chosen_cost(p, a, e);
  e->other = -1;
  for (int k = 0; k < buf->nplace; k++)
    if (buf->place[k] != e->memory && !buf->from_table) {
      alternative(p, a, v, buf->place[k], pt, &e->alts[e->nalts++]);
      e->other = e->other < 0 ? buf->place[k] : e->other;
    }
  if (e->other >= 0)
    roofline(p, a, e, e->other);
}

void tf_explain_places(const tf_problem *p, const tf_answer *a, tf_explanation *x) {
  x->nplaces = tf_place_count(p);
  x->places = tf_nalloc(x->nplaces + 1, sizeof *x->places);
  if (!x->nplaces)
    return;
  tf_point pt;
  tf_point_init(&pt, p);
  for (size_t k = 0; k < x->nplaces; k++)
    explain_one(p, a, tf_place_var(p, k), &pt, &x->places[k]);
  tf_point_release(&pt);
  unmetered(p, x);
}
