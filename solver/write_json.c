/* The JSON writer: one object per answer (and the members of one, for
 * callers that frame them: a sweep line, a validation row). */
#include "solver/report.h"

#include "model/json.h"
#include "model/json_out.h"
#include "solver/explain.h"
#include "solver/backend.h"
#include "solver/roofline_view.h"
#include "solver/solve.h"

static void json_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs("\"values\":{", f);
  for (size_t i = 0; i < p->place_first; i++) {
    tf_json_write_string(f, p->choose_names[i]);
    fprintf(f, ":%lld%s", (long long)a->choose[i], i + 1 < p->place_first || p->ncounts ? "," : "");
  }
  for (int k = 0; k < p->ncounts; k++) {
    tf_json_write_string(f, p->count_names[k]);
    fprintf(f, ":%lld%s", (long long)a->counts[k], k + 1 < p->ncounts ? "," : "");
  }
  fputc('}', f);
  if (p->place_first == p->nchoose)
    return;
  fputs(",\"placement\":{", f); /* every placed buffer and where it is */
  for (size_t i = p->place_first; i < p->nchoose; i++) {
    tf_json_write_string(f, p->choose_names[i]);
    fprintf(f, ":\"%s\"%s", tf_memory_name((int)a->choose[i]), i + 1 < p->nchoose ? "," : "");
  }
  fputc('}', f);
}

/* values and placement, then the workset's shown lets */
static void json_values_shown(FILE *f, const tf_problem *p, const tf_answer *a) {
  json_values(f, p, a);
  tf_report_shown_json(f, p, a);
}

static void json_params(FILE *f, const tf_problem *p) {
  fputs("\"params\":{", f);
  for (size_t i = 0; i < p->workset->nparams; i++) {
    tf_json_write_string(f, p->workset->params[i].name);
    fprintf(f, ":%lld%s", (long long)p->param_values[i], i + 1 < p->workset->nparams ? "," : "");
  }
  fputc('}', f);
}

static void json_memories(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs(",\"memories\":{", f);
  int first = 1;
  for (int m = 0; m < TF_NMEM; m++) {
    tf_memory_row r = tf_memory_report(p, m, a->choose, a->point.used);
    if (!r.shown)
      continue;
    fprintf(f, "%s\"%s\":{\"used\":%lld,\"capacity\":%lld,\"slack\":%lld,\"unit\":\"%s\"}", first ? "" : ",",
            tf_memory_name(m), (long long)r.used, (long long)r.capacity, (long long)r.slack, tf_memory_unit(m));
    first = 0;
  }
  fputs("},\"buffers\":[", f);
  for (size_t b = 0; b < p->nbuffers; b++) {
    fputs(b ? ",{\"name\":" : "{\"name\":", f);
    tf_json_write_string(f, p->workset->buffers[b].name);
    fprintf(f, ",\"memory\":\"%s\",\"size\":%lld,\"allocated\":%lld,\"align\":%lld",
            tf_memory_name(tf_memory_of_at(p, b, a->choose)), (long long)a->point.size[b], (long long)a->point.alloc[b],
            (long long)tf_memory_align(p, b));
    if (p->workset->buffers[b].lifetime >= 0) {
      fputs(",\"lifetime\":", f);
      tf_json_write_string(f, p->workset->lifetimes[p->workset->buffers[b].lifetime]);
    }
    fputc('}', f);
  }
  fputc(']', f);
}

static void json_objectives(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs(",\"objectives\":[", f);
  for (size_t o = 0; o < p->nobjective_shown; o++) {
    fputs(o ? ",{\"objective\":" : "{\"objective\":", f);
    tf_json_write_string(f, p->objective[o].text);
    fprintf(f, ",\"value\":%lld}", (long long)a->point.objective[o]);
  }
  fputc(']', f);
}

static void json_closed(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs(",\"closed_form\":{", f);
  int first = 1;
  for (int k = 0; k < p->ncounts; k++) {
    const tf_closed *c = &a->closed[k];
    if (!c->applies)
      continue;
    fprintf(f, "%s", first ? "" : ",");
    tf_json_write_string(f, p->count_names[k]);
    fprintf(f, ":{\"value\":%lld,\"memory\":\"%s\",\"capacity\":%lld,\"resident\":%lld,\"per_stage\":%lld,\"agrees\":%s",
            (long long)c->value, tf_memory_name(c->memory), (long long)c->capacity, (long long)c->resident,
            (long long)c->per_stage, c->agrees ? "true" : "false");
    if (c->capped)
      fprintf(f, ",\"floor\":%lld,\"bound_binds\":true", (long long)c->floor_value);
    if (!c->agrees) {
      fputs(",\"reason\":", f);
      tf_json_write_string(f, c->reason);
    }
    fputc('}', f);
    first = 0;
  }
  fputc('}', f);
}

/* --explain's content, from the explanation (solver/explain.h): what the
 * text prints, as data. */

/* ,"violated":{"kind":"memory","memory":"smem","unit":"B","needs":..,"capacity":..,"over":..}:
 * the numbers of a violation, beside the sentence its caller writes. */
static void json_violated(FILE *f, const tf_problem *p, const tf_violation *v) {
  fprintf(f, ",\"violated\":{\"kind\":\"%s\"", tf_miss_name(v->kind));
  if (v->kind == TF_MISS_MEMORY) {
    fprintf(f, ",\"memory\":\"%s\",\"unit\":\"%s\",\"needs\":%lld,\"capacity\":%lld,\"over\":%lld",
            tf_memory_name(v->memory), tf_memory_unit(v->memory), (long long)v->needs, (long long)v->capacity,
            (long long)(v->needs - v->capacity));
    if (v->occupancy)
      fprintf(f, ",\"occupancy\":%lld", (long long)v->occupancy);
  } else if (v->kind == TF_MISS_REQUIRE) {
    fputs(",\"require\":", f);
    tf_json_write_string(f, tf_expr_text(p->require[v->index]));
    fprintf(f, ",\"lhs\":%lld,\"rhs\":%lld", (long long)v->lhs, (long long)v->rhs);
  } else if (v->kind == TF_MISS_RANGE) {
    fputs(",\"variable\":", f);
    tf_json_write_string(f, p->count_names[v->index]);
    fprintf(f, ",\"value\":%lld,\"lower\":%lld,\"upper\":%lld", (long long)v->value, (long long)v->lhs,
            (long long)v->rhs);
  }
  fputc('}', f);
}
static void json_changes(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explain_level *l) {
  fputs("{\"changes\":{", f); /* the variables where it differs from the answer */
  const char *sep = "";
  for (size_t i = 0; i < p->nchoose; i++)
    if (l->choose[i] != a->choose[i]) {
      fputs(sep, f), tf_json_write_string(f, p->choose_names[i]), sep = ",";
      if (i < p->place_first)
        fprintf(f, ":%lld", (long long)l->choose[i]);
      else
        fprintf(f, ":\"%s\"", tf_memory_name((int)l->choose[i]));
    }
  for (int k = 0; k < p->ncounts; k++)
    if (l->counts[k] != a->counts[k])
      fputs(sep, f), tf_json_write_string(f, p->count_names[k]), fprintf(f, ":%lld", (long long)l->counts[k]), sep = ",";
  fprintf(f, "},\"value\":%lld,\"violation\":", (long long)l->value);
  tf_json_write_string(f, l->miss.text);
  json_violated(f, p, &l->miss);
  fputc('}', f);
}

static void json_levels(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explanation *x) {
  fputs("\"binding\":[", f);
  for (int k = 0; k < p->ncounts; k++) {
    fputs(k ? ",{\"variable\":" : "{\"variable\":", f);
    tf_json_write_string(f, p->count_names[k]);
    const tf_explain_binding *b = &x->binding[k];
    fputs(",\"reason\":", f);
    tf_json_write_string(f, b->text);
    if (b->at_bound)
      fprintf(f, ",\"candidate\":null,\"upper_bound\":%lld", (long long)p->count_hi[k]);
    else
      fprintf(f, ",\"candidate\":%lld", (long long)b->candidate), json_violated(f, p, &b->miss);
    fputc('}', f);
  }
  fputs("],\"levels\":[", f);
  for (size_t o = 0; o < x->nlevels; o++) {
    fprintf(f, "%s{\"level\":%zu,\"objective\":", o ? "," : "", o + 1);
    tf_json_write_string(f, p->objective[o].text);
    fprintf(f, ",\"value\":%lld,\"next_better\":", (long long)a->point.objective[o]);
    if (x->levels[o].found)
      json_changes(f, p, a, &x->levels[o]);
    else
      fputs("null", f);
    fputc('}', f);
  }
  fputc(']', f);
}

static void json_alternative(FILE *f, const tf_problem *p, const tf_explain_alt *alt) {
  static const char *const verdicts[] = {"not_a_candidate", "does_not_fit", "worse", "tie"};
  fprintf(f, "{\"memory\":\"%s\",\"verdict\":\"%s\"", tf_memory_name(alt->memory), verdicts[alt->verdict]);
  if (alt->verdict == TF_ALT_NO_FIT) {
    fputs(",\"reason\":", f);
    tf_json_write_string(f, alt->miss.text);
    json_violated(f, p, &alt->miss);
  }
  if (alt->verdict == TF_ALT_WORSE)
    fprintf(f, ",\"level\":%zu,\"value\":%lld,\"fewer_counts\":%s", alt->level + 1, (long long)alt->value,
            alt->fewer_counts ? "true" : "false");
  fputc('}', f);
}

/* "roofline":{"memory":"smem","terms":[{"name":..,"value":..,"moved":..}]}: the last term is the max. */
static void json_roofline(FILE *f, const tf_explain_place *e) {
  fprintf(f, ",\"roofline\":{\"memory\":\"%s\",\"terms\":[", tf_memory_name(e->other));
  const char *sep = "";
  for (size_t t = 0; t < e->nterms; t++)
    if (e->terms[t].ok) {
      fprintf(f, "%s{\"name\":", sep), sep = ",";
      tf_json_write_string(f, e->terms[t].name);
      fprintf(f, ",\"value\":%lld,\"moved\":%lld}", (long long)e->terms[t].value, (long long)e->terms[t].moved);
    }
  fputs("]}", f);
}

static void json_places(FILE *f, const tf_problem *p, const tf_explanation *x) {
  static const char *const how[] = {"chosen", "pinned", "mma_table"};
  fputs(",\"placement\":[", f);
  for (size_t i = 0; i < x->nplaces; i++) {
    const tf_explain_place *e = &x->places[i];
    fputs(i ? ",{\"buffer\":" : "{\"buffer\":", f);
    tf_json_write_string(f, p->workset->buffers[e->buffer].name);
    fprintf(f, ",\"memory\":\"%s\",\"how\":\"%s\",\"charged\":%lld,\"unit\":\"%s\"", tf_memory_name(e->memory),
            how[e->how], (long long)e->charged, tf_memory_unit(e->memory));
    if (e->inside >= 0)
      fputs(",\"inside\":", f), tf_json_write_string(f, p->workset->buffers[e->inside].name);
    fprintf(f, ",\"used\":%lld,\"capacity\":%lld,\"alternatives\":[", (long long)e->used, (long long)e->capacity);
    for (int k = 0; k < e->nalts; k++)
      fputs(k ? "," : "", f), json_alternative(f, p, &e->alts[k]);
    fputc(']', f);
    if (e->nterms)
      json_roofline(f, e);
    fputc('}', f);
  }
  fputs("],\"unmetered\":[", f); /* the machine's datapath edges no cost term meters */
  for (int i = 0; i < x->nunmetered; i++)
    fputs(i ? "," : "", f), tf_json_write_string(f, p->machine->datapath.edges[x->unmetered[i]].name);
  fputc(']', f);
}

/* ,"explain":{"binding":[...],"levels":[...],"placement":[...],"unmetered":"..."} */
static void json_explain(FILE *f, const tf_problem *p, const tf_answer *a) {
  tf_explanation x;
  tf_explain(p, a, &x);
  fputs(",\"explain\":{", f);
  json_levels(f, p, a, &x);
  json_places(f, p, &x);
  tf_explain_roofline_json(f, p, a->choose, a->counts);
  fputc('}', f);
  tf_explanation_release(&x);
}

/* ,"solver":{"name":"exact"}, or the ILP solver's own level values and
 * solve time: a solve's answer says whose it is. */
static void json_solver(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, ",\"solver\":{\"name\":\"%s\"", a->solver ? a->solver : tf_solver_name(NULL));
  if (a->solver) {
    fputs(",\"objectives\":[", f);
    for (size_t o = 0; o < a->nilp_objval && o < p->nobjective_shown; o++) {
      fputs(o ? ",{\"objective\":" : "{\"objective\":", f);
      tf_json_write_string(f, p->objective[o].text);
      fprintf(f, ",\"value\":%.17g}", a->ilp_objval[o]);
    }
    fprintf(f, "],\"seconds\":%.6f", a->ilp_seconds);
  }
  fputc('}', f);
}

void tf_report_json(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_report_json_object(f, req, p, a);
  fputc('\n', f);
}

void tf_report_json_object(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_report_json_answer(f, req, p, a, 0);
}

void tf_report_json_answer(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain) {
  fputs("{\"schema\":\"" TF_REPORT_SCHEMA "\",", f);
  if (req->id) {
    fputs("\"id\":", f);
    tf_json_write_string(f, req->id);
    fputc(',', f);
  }
  tf_report_json_fields(f, p, a);
  if (explain && a->status == TF_ANSWER_OPTIMAL)
    json_explain(f, p, a);
  fputc('}', f);
}

void tf_report_json_fields(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs("\"machine\":", f);
  tf_json_write_string(f, p->machine->name);
  fputs(",\"workset\":", f);
  tf_json_write_string(f, p->workset->name);
  fprintf(f, ",\"status\":\"%s\",", tf_answer_status_name(a->status));
  if (a->rank)
    fprintf(f, "\"rank\":%d,", a->rank);
  json_params(f, p);
  fprintf(f, ",\"combinations\":{\"candidates\":%zu,\"kept\":%zu}", p->ncandidates, p->ncombos);
  if (a->status != TF_ANSWER_OPTIMAL && a->status != TF_ANSWER_FITS) {
    fputs(",\"reason\":", f);
    tf_json_write_string(f, a->why);
  }
  if (tf_report_has_answer(a)) {
    fputc(',', f);
    json_values_shown(f, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_objectives(f, p, a);
    json_memories(f, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_closed(f, p, a);
    if (a->status == TF_ANSWER_OPTIMAL && a->rank) /* a --top row's estimate, as its text columns */
      tf_estimate_json(f, p, a->choose, a->counts);
  }
  if (a->status == TF_ANSWER_OPTIMAL || a->status == TF_ANSWER_INFEASIBLE)
    json_solver(f, p, a);
}

void tf_report_json_error_fields(FILE *f, const char *machine, const char *workset, const char *msg) {
  if (machine) {
    fputs("\"machine\":", f);
    tf_json_write_string(f, machine);
    fputc(',', f);
  }
  if (workset) {
    fputs("\"workset\":", f);
    tf_json_write_string(f, workset);
    fputc(',', f);
  }
  fputs("\"status\":\"error\",\"error\":", f);
  tf_json_write_string(f, msg);
}
