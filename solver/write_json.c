/* The JSON writer: one object per answer (and the members of one, for
 * callers that frame them: a sweep line, a validation row), written
 * through model/core/json_out.h. */
#include "solver/report.h"

#include "model/bind/place_bind.h"
#include "model/core/json_out.h"
#include "solver/answer_view.h"
#include "solver/backend.h"
#include "solver/explain.h"
#include "solver/explain_gap.h"
#include "solver/roofline_view.h"
#include "solver/solve.h"

static void json_values(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_object(w, "values");
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    tf_json_out_key_int(w, p->choose_names[i], a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    tf_json_out_key_int(w, p->count_names[k], a->counts[k]);
  tf_json_out_end(w);
  if (!tf_place_count(p))
    return;
  tf_json_out_key_object(w, "placement"); /* every placed buffer and where it is */
  for (size_t k = 0; k < tf_place_count(p); k++) {
    size_t i = tf_place_var(p, k);
    tf_json_out_key_string(w, p->choose_names[i], tf_memory_name(tf_place_memory(p, i, a->choose[i])));
  }
  tf_json_out_end(w);
}

static void json_params(tf_json_out *w, const tf_problem *p) {
  tf_json_out_key_object(w, "params");
  for (size_t i = 0; i < p->workset->nparams; i++)
    tf_json_out_key_int(w, p->workset->params[i].name, p->param_values[i]);
  tf_json_out_end(w);
}

static void json_memories(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_object(w, "memories");
  for (int m = 0; m < TF_NMEM; m++) {
    tf_memory_row r = tf_memory_report(p, m, a->choose, a->point.used);
    if (!r.shown)
      continue;
    tf_json_out_key_object(w, tf_memory_name(m));
    tf_json_out_key_int(w, "used", r.used);
    tf_json_out_key_int(w, "capacity", r.capacity);
    tf_json_out_key_int(w, "slack", r.slack);
    tf_json_out_key_string(w, "unit", tf_memory_unit(m));
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
  tf_json_out_key_array(w, "buffers");
  for (size_t b = 0; b < p->nbuffers; b++) {
    tf_json_out_object(w);
    tf_json_out_key_string(w, "name", p->workset->buffers[b].name);
    tf_json_out_key_string(w, "memory", tf_memory_name(tf_memory_of_at(p, b, a->choose)));
    tf_json_out_key_int(w, "size", a->point.size[b]);
    tf_json_out_key_int(w, "allocated", a->point.alloc[b]);
    tf_json_out_key_int(w, "align", tf_memory_align(p, b));
    if (p->workset->buffers[b].lifetime >= 0)
      tf_json_out_key_string(w, "lifetime", p->workset->lifetimes[p->workset->buffers[b].lifetime]);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

static void json_objectives(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_array(w, "objectives");
  for (size_t o = 0; o < p->nobjective_shown; o++) {
    tf_json_out_object(w);
    tf_json_out_key_string(w, "objective", p->objective[o].text);
    tf_json_out_key_int(w, "value", a->point.objective[o]);
    if (o >= p->nobjective_asked)
      tf_json_out_key_bool(w, "tie_break", 1);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

static void json_closed(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_object(w, "closed_form");
  for (int k = 0; k < p->ncounts; k++) {
    const tf_closed *c = &a->closed[k];
    if (!c->applies)
      continue;
    tf_json_out_key_object(w, p->count_names[k]);
    tf_json_out_key_int(w, "value", c->value);
    tf_json_out_key_string(w, "memory", tf_memory_name(c->memory));
    tf_json_out_key_int(w, "capacity", c->capacity);
    tf_json_out_key_int(w, "resident", c->resident);
    tf_json_out_key_int(w, "per_stage", c->per_stage);
    tf_json_out_key_bool(w, "agrees", c->agrees);
    if (c->capped) {
      tf_json_out_key_int(w, "floor", c->floor_value);
      tf_json_out_key_bool(w, "bound_binds", 1);
    }
    if (!c->agrees)
      tf_json_out_key_string(w, "reason", c->reason);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

/* --explain's content, from the explanation (solver/explain.h): what the
 * text prints, as data. */

/* "violated":{"kind":"memory","memory":"smem","unit":"B","needs":..,"capacity":..,"over":..}:
 * the numbers of a violation, beside the sentence its caller writes. */
static void json_violated(tf_json_out *w, const tf_problem *p, const tf_violation *v) {
  tf_json_out_key_object(w, "violated");
  tf_json_out_key_string(w, "kind", tf_miss_name(v->kind));
  if (v->kind == TF_MISS_MEMORY) {
    tf_json_out_key_string(w, "memory", tf_memory_name(v->memory));
    tf_json_out_key_string(w, "unit", tf_memory_unit(v->memory));
    tf_json_out_key_int(w, "needs", v->needs);
    tf_json_out_key_int(w, "capacity", v->capacity);
    tf_json_out_key_int(w, "over", v->needs - v->capacity);
    if (v->occupancy)
      tf_json_out_key_int(w, "occupancy", v->occupancy);
  } else if (v->kind == TF_MISS_REQUIRE) {
    tf_json_out_key_string(w, "require", tf_expr_text(p->require[v->index]));
    tf_json_out_key_int(w, "lhs", v->lhs);
    tf_json_out_key_int(w, "rhs", v->rhs);
  } else if (v->kind == TF_MISS_RANGE) {
    tf_json_out_key_string(w, "variable", p->count_names[v->index]);
    tf_json_out_key_int(w, "value", v->value);
    tf_json_out_key_int(w, "lower", v->lhs);
    tf_json_out_key_int(w, "upper", v->rhs);
  }
  tf_json_out_end(w);
}

static void json_changes(tf_json_out *w, const tf_problem *p, const tf_answer *a, const tf_explain_level *l) {
  tf_json_out_object(w);
  tf_json_out_key_object(w, "changes"); /* the variables where it differs from the answer */
  for (size_t i = 0; i < p->nchoose; i++)
    if (l->choose[i] != a->choose[i]) {
      if (!tf_place_is_var(p, i))
        tf_json_out_key_int(w, p->choose_names[i], l->choose[i]);
      else
        tf_json_out_key_string(w, p->choose_names[i], tf_memory_name(tf_place_memory(p, i, l->choose[i])));
    }
  for (int k = 0; k < p->ncounts; k++)
    if (l->counts[k] != a->counts[k])
      tf_json_out_key_int(w, p->count_names[k], l->counts[k]);
  tf_json_out_end(w);
  tf_json_out_key_int(w, "value", l->value);
  tf_json_out_key_string(w, "violation", l->miss.text);
  json_violated(w, p, &l->miss);
  tf_json_out_end(w);
}

static void json_binding(tf_json_out *w, const tf_problem *p, const tf_explanation *x) {
  tf_json_out_key_array(w, "binding");
  for (int k = 0; k < p->ncounts; k++) {
    const tf_explain_binding *b = &x->binding[k];
    tf_json_out_object(w);
    tf_json_out_key_string(w, "variable", p->count_names[k]);
    tf_json_out_key_string(w, "reason", b->text);
    tf_json_out_key(w, "candidate");
    if (b->at_bound) {
      tf_json_out_null(w);
      tf_json_out_key_int(w, "upper_bound", p->count_hi[k]);
    } else {
      tf_json_out_int(w, b->candidate);
      json_violated(w, p, &b->miss);
    }
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

static void json_levels(tf_json_out *w, const tf_problem *p, const tf_answer *a, const tf_explanation *x) {
  json_binding(w, p, x);
  tf_json_out_key_array(w, "levels");
  for (size_t o = 0; o < x->nlevels; o++) {
    tf_json_out_object(w);
    tf_json_out_key_int(w, "level", (int64_t)o + 1);
    tf_json_out_key_string(w, "objective", p->objective[o].text);
    tf_json_out_key_int(w, "value", a->point.objective[o]);
    tf_json_out_key(w, "next_better");
    if (x->levels[o].found)
      json_changes(w, p, a, &x->levels[o]);
    else
      tf_json_out_null(w);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

static void json_alternative(tf_json_out *w, const tf_problem *p, const tf_explain_alt *alt) {
  static const char *const verdicts[] = {"not_a_candidate", "does_not_fit", "worse", "tie"};
  tf_json_out_object(w);
  tf_json_out_key_string(w, "memory", tf_memory_name(alt->memory));
  tf_json_out_key_string(w, "verdict", verdicts[alt->verdict]);
  if (alt->verdict == TF_ALT_NO_FIT) {
    tf_json_out_key_string(w, "reason", alt->miss.text);
    json_violated(w, p, &alt->miss);
  }
  if (alt->verdict == TF_ALT_WORSE) {
    tf_json_out_key_int(w, "level", (int64_t)alt->level + 1);
    tf_json_out_key_int(w, "value", alt->value);
    tf_json_out_key_bool(w, "fewer_counts", alt->fewer_counts);
  }
  tf_json_out_end(w);
}

/* "roofline":{"memory":"smem","terms":[{"name":..,"value":..,"moved":..}]}: the last term is the max. */
static void json_roofline(tf_json_out *w, const tf_explain_place *e) {
  tf_json_out_key_object(w, "roofline");
  tf_json_out_key_string(w, "memory", tf_memory_name(e->other));
  tf_json_out_key_array(w, "terms");
  for (size_t t = 0; t < e->nterms; t++)
    if (e->terms[t].ok) {
      tf_json_out_object(w);
      tf_json_out_key_string(w, "name", e->terms[t].name);
      tf_json_out_key_int(w, "value", e->terms[t].value);
      tf_json_out_key_int(w, "moved", e->terms[t].moved);
      tf_json_out_end(w);
    }
  tf_json_out_end(w);
  tf_json_out_end(w);
}

static void json_place(tf_json_out *w, const tf_problem *p, const tf_explain_place *e) {
  static const char *const how[] = {"chosen", "pinned", "mma_table"};
  tf_json_out_object(w);
  tf_json_out_key_string(w, "buffer", p->workset->buffers[e->buffer].name);
  tf_json_out_key_string(w, "memory", tf_memory_name(e->memory));
  tf_json_out_key_string(w, "how", how[e->how]);
  tf_json_out_key_int(w, "charged", e->charged);
  tf_json_out_key_string(w, "unit", tf_memory_unit(e->memory));
  if (e->inside >= 0)
    tf_json_out_key_string(w, "inside", p->workset->buffers[e->inside].name);
  tf_json_out_key_int(w, "used", e->used);
  tf_json_out_key_int(w, "capacity", e->capacity);
  tf_json_out_key_array(w, "alternatives");
  for (int k = 0; k < e->nalts; k++)
    json_alternative(w, p, &e->alts[k]);
  tf_json_out_end(w);
  if (e->nterms)
    json_roofline(w, e);
  tf_json_out_end(w);
}

static void json_places(tf_json_out *w, const tf_problem *p, const tf_explanation *x) {
  tf_json_out_key_array(w, "placement");
  for (size_t i = 0; i < x->nplaces; i++)
    json_place(w, p, &x->places[i]);
  tf_json_out_end(w);
  tf_json_out_key_array(w, "unmetered"); /* the machine's datapath edges no cost term meters */
  for (int i = 0; i < x->nunmetered; i++)
    tf_json_out_string(w, p->machine->datapath.edges[x->unmetered[i]].name);
  tf_json_out_end(w);
}

/* "explain":{"binding":[...],"levels":[...],"placement":[...],"unmetered":[...]} */
static void json_explain(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_explanation x;
  tf_explain(p, a, &x);
  tf_json_out_key_object(w, "explain");
  json_levels(w, p, a, &x);
  json_places(w, p, &x);
  tf_explain_roofline_json(w, p, a->choose, a->counts);
  tf_json_out_end(w);
  tf_explanation_release(&x);
}

/* "solver":{"name":"exact"}, or the ILP solver's own level values and
 * solve time: a solve's answer says whose it is. */
static void json_solver(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_object(w, "solver");
  tf_json_out_key_string(w, "name", a->solver ? a->solver : tf_solver_name(NULL));
  if (a->solver) {
    tf_json_out_key_array(w, "objectives");
    for (size_t o = 0; o < a->nilp_objval && o < p->nobjective_shown; o++) {
      tf_json_out_object(w);
      tf_json_out_key_string(w, "objective", p->objective[o].text);
      tf_json_out_key(w, "value");
      tf_json_out_double(w, a->ilp_objval[o]);
      tf_json_out_end(w);
    }
    tf_json_out_end(w);
    tf_json_out_key(w, "seconds");
    tf_json_out_fixed(w, a->ilp_seconds, 6);
  }
  tf_json_out_end(w);
}

void tf_report_json(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_report_json_object(f, req, p, a);
  fputc('\n', f);
}

void tf_report_json_object(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_report_json_answer(f, req, p, a, 0);
}

void tf_report_json_answer(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_report_json_write(&w, req, p, a, explain);
}

/* One answer's object; with `explain`, its explanation and, after the
 * answer ranked before it (`prev`, NULL for none), the gap to it. */
static void json_answer(tf_json_out *w, const tf_request *req, const tf_problem *p, const tf_answer *a,
                        const tf_answer *prev, int explain) {
  tf_json_out_object(w);
  tf_json_out_key_string(w, "schema", TF_REPORT_SCHEMA);
  if (req->id)
    tf_json_out_key_string(w, "id", req->id);
  tf_report_json_members(w, p, a);
  if (explain && a->status == TF_ANSWER_OPTIMAL)
    json_explain(w, p, a);
  if (explain && prev && prev->status == TF_ANSWER_OPTIMAL && a->status == TF_ANSWER_OPTIMAL)
    tf_gap_json(w, p, prev, a);
  tf_json_out_end(w);
}

void tf_report_json_write(tf_json_out *w, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain) {
  json_answer(w, req, p, a, NULL, explain);
}

void tf_report_json_ranked(tf_json_out *w, const tf_request *req, const tf_problem *p, const tf_answer *a, int n,
                           int explain) {
  for (int i = 0; i < n; i++)
    json_answer(w, req, p, &a[i], i ? &a[i - 1] : NULL, explain);
}

void tf_report_json_members(tf_json_out *w, const tf_problem *p, const tf_answer *a) {
  tf_json_out_key_string(w, "machine", p->machine->name);
  tf_json_out_key_string(w, "workset", p->workset->name);
  tf_json_out_key_string(w, "status", tf_answer_status_name(a->status));
  if (a->rank)
    tf_json_out_key_int(w, "rank", a->rank);
  json_params(w, p);
  tf_json_out_key_object(w, "combinations");
  tf_json_out_key_int(w, "candidates", (int64_t)p->ncandidates);
  if (p->kept_known)
    tf_json_out_key_int(w, "kept", (int64_t)p->nkept);
  if (p->on_demand) { /* what the search over boxes of combinations counted (docs/design.md) */
    tf_json_out_key_int(w, "visited", (int64_t)p->space.visited);
    tf_json_out_key_int(w, "pruned_bound", (int64_t)p->space.pruned_bound);
    tf_json_out_key_int(w, "pruned_infeasible", (int64_t)p->space.pruned_infeasible);
  }
  tf_json_out_end(w);
  if (a->status != TF_ANSWER_OPTIMAL && a->status != TF_ANSWER_FITS)
    tf_json_out_key_string(w, "reason", a->why);
  if (tf_report_has_answer(a)) {
    json_values(w, p, a);
    tf_report_shown_json(w, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_objectives(w, p, a);
    json_memories(w, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_closed(w, p, a);
    if (a->status == TF_ANSWER_OPTIMAL && a->rank) /* a --top row's estimate, as its text columns */
      tf_estimate_json(w, p, a->choose, a->counts);
  }
  if (a->status == TF_ANSWER_OPTIMAL || a->status == TF_ANSWER_INFEASIBLE)
    json_solver(w, p, a);
}

void tf_report_json_error_members(tf_json_out *w, const char *machine, const char *workset, const char *msg) {
  if (machine)
    tf_json_out_key_string(w, "machine", machine);
  if (workset)
    tf_json_out_key_string(w, "workset", workset);
  tf_json_out_key_string(w, "status", "error");
  tf_json_out_key_string(w, "error", msg);
}
