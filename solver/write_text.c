/* The text writer: answers as tables for people. */
#include "solver/report.h"

#include <stdint.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "solver/answer_view.h"
#include "solver/explain.h"
#include "solver/roofline_view.h"
#include "solver/solve.h"

void tf_report_text_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    fprintf(f, "  %-12s %lld\n", p->choose_names[i], (long long)a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, "  %-12s %lld\n", p->count_names[k], (long long)a->counts[k]);
  size_t nplaces = tf_place_count(p);
  if (nplaces)
    fprintf(f, "placement   ");
  for (size_t k = 0; k < nplaces; k++) {
    size_t i = tf_place_var(p, k);
    fprintf(f, " %s %s%s", p->choose_names[i], tf_memory_name(tf_place_memory(p, i, a->choose[i])),
            k + 1 < nplaces ? "," : "\n");
  }
  tf_report_shown_text(f, p, a);
}

static void text_memories(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "memory       %10s %10s %10s\n", "used", "capacity", "slack");
  for (int m = 0; m < TF_NMEM; m++) {
    tf_memory_row r = tf_memory_report(p, m, a->choose, a->point.used);
    if (r.shown)
      fprintf(f, "  %-10s %10lld %10lld %10lld  %s\n", tf_memory_name(m), (long long)r.used, (long long)r.capacity,
              (long long)r.slack, tf_memory_unit(m));
  }
}

/* The buffer table; a lifetime column where the workset has lifetimes. */
static void text_buffers(FILE *f, const tf_problem *p, const tf_answer *a) {
  const tf_workset *w = p->workset;
  fprintf(f, "buffer               %-6s %10s %10s %6s%s\n", "memory", "size", "allocated", "align",
          w->nlifetimes ? "  lifetime" : "");
  for (size_t b = 0; b < p->nbuffers; b++) {
    fprintf(f, "  %-18s %-6s %10lld %10lld %6lld", w->buffers[b].name, tf_memory_name(tf_memory_of_at(p, b, a->choose)),
            (long long)a->point.size[b], (long long)a->point.alloc[b], (long long)tf_memory_align(p, b));
    if (w->nlifetimes)
      fprintf(f, "  %s", w->buffers[b].lifetime >= 0 ? w->lifetimes[w->buffers[b].lifetime] : "-");
    fputc('\n', f);
  }
}

static void text_closed(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (int k = 0; k < p->ncounts; k++) {
    const tf_closed *c = &a->closed[k];
    if (!c->applies)
      continue;
    /* a negative resident (triton-matmul's buffer_offset -1) reads as "+ 32768", not "- -32768" */
    int plus = c->resident < 0 && c->resident != INT64_MIN;
    fprintf(f, "closed form  %s = floor((%lld %c %lld) / %lld) = %lld in %s", p->count_names[k], (long long)c->capacity,
            plus ? '+' : '-', (long long)(plus ? -c->resident : c->resident), (long long)c->per_stage,
            (long long)c->floor_value, tf_memory_name(c->memory));
    if (c->capped)
      fprintf(f, ", capped at the max %lld of %s (the bound binds, not capacity)", (long long)c->value,
              p->count_names[k]);
    fprintf(f, ": %s\n", c->agrees ? "agrees" : "differs");
    if (!c->agrees)
      fprintf(f, "             %s\n", c->reason);
  }
}

/* --explain's lines, from the explanation (solver/explain.h). */
static void text_changes(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explain_level *c) {
  const char *sep = "";
  for (size_t i = 0; i < p->nchoose; i++)
    if (c->choose[i] != a->choose[i] && !tf_place_is_var(p, i))
      fprintf(f, "%s%s = %lld", sep, p->choose_names[i], (long long)c->choose[i]), sep = ", ";
    else if (c->choose[i] != a->choose[i])
      fprintf(f, "%s%s in %s", sep, p->choose_names[i], tf_memory_name(tf_place_memory(p, i, c->choose[i]))),
          sep = ", ";
  for (int k = 0; k < p->ncounts; k++)
    if (c->counts[k] != a->counts[k])
      fprintf(f, "%s%s = %lld", sep, p->count_names[k], (long long)c->counts[k]), sep = ", ";
}

static void text_levels(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explanation *x) {
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, "binding      %s\n", x->binding[k].text);
  for (size_t level = 0; level < x->nlevels; level++) {
    const tf_explain_level *best = &x->levels[level];
    fprintf(f, "level %zu       %s = %lld: ", level + 1, p->objective[level].text,
            (long long)a->point.objective[level]);
    if (!best->found) {
      fprintf(f, "no candidate in the domains does better%s\n", level ? " at the levels above" : "");
      continue;
    }
    fprintf(f, "next better is ");
    text_changes(f, p, a, best);
    fprintf(f, " (%lld): %s\n", (long long)best->value, best->miss.text);
  }
}

static void text_alternative(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explain_place *e,
                             const tf_explain_alt *alt) {
  const char *buf = p->workset->buffers[e->buffer].name, *mem = tf_memory_name(alt->memory);
  if (alt->verdict == TF_ALT_NOT_CANDIDATE)
    fprintf(f, "  %-6s   not a candidate: the machine's mma table, the workset's pin or a --place rules %s in %s out\n",
            mem, buf, mem);
  else if (alt->verdict == TF_ALT_NO_FIT)
    fprintf(f, "  %-6s   %s in %s: %s\n", mem, buf, mem, alt->miss.text);
  else if (alt->verdict == TF_ALT_WORSE)
    fprintf(f, "  level %zu  %s = %lld; %s in %s: %lld%s\n", alt->level + 1, p->objective[alt->level].text,
            (long long)a->point.objective[alt->level], buf, mem, (long long)alt->value,
            alt->fewer_counts ? " (at fewer counts)" : "");
  else
    fprintf(f, "  tie      %s in %s is as good at every level; the place list's order decides\n", buf, mem);
}

/* "  cycles   mma 2816, smem 1664 (P in smem: 2368), max 2816 either way" */
static void text_roofline(FILE *f, const tf_explain_place *e, const char *buf) {
  const char *mem = tf_memory_name(e->other);
  fprintf(f, "  cycles  ");
  for (size_t t = 0; t + 1 < e->nterms; t++)
    if (e->terms[t].ok) {
      const char *name = e->terms[t].name, *close = strchr(name, ')');
      if (!strncmp(name, "cycles(", 7) && close) /* the program's cycles(TERM): by the term's name */
        fprintf(f, " %.*s %lld", (int)(close - name - 7), name + 7, (long long)e->terms[t].value);
      else
        fprintf(f, " %s %lld", name, (long long)e->terms[t].value);
      if (e->terms[t].moved != e->terms[t].value)
        fprintf(f, " (%s in %s: %lld)", buf, mem, (long long)e->terms[t].moved);
      fputc(',', f);
    }
  const tf_explain_term *top = &e->terms[e->nterms - 1];
  const char *what = e->scheduled ? "cycles" : "max"; /* a schedule adds its serial terms */
  if (top->moved == top->value)
    fprintf(f, " %s %lld either way\n", what, (long long)top->value);
  else
    fprintf(f, " %s %lld (%s in %s: %lld)\n", what, (long long)top->value, buf, mem, (long long)top->moved);
}

static void text_places(FILE *f, const tf_problem *p, const tf_answer *a, const tf_explanation *x) {
  static const char *const how[] = {"", " (pinned)", " (the only memory its MMA can use)"};
  for (size_t i = 0; i < x->nplaces; i++) {
    const tf_explain_place *e = &x->places[i];
    const char *buf = p->workset->buffers[e->buffer].name, *mem = tf_memory_name(e->memory);
    fprintf(f, "placement   %s in %s%s\n", buf, mem, how[e->how]);
    fprintf(f, "  %-6s   %s in %s: %s%lld %s%s%s (%lld of %lld)\n", mem, buf, mem, e->inside >= 0 ? "+" : "",
            (long long)e->charged, tf_memory_unit(e->memory), e->inside >= 0 ? ", inside " : "",
            e->inside >= 0 ? p->workset->buffers[e->inside].name : "", (long long)e->used, (long long)e->capacity);
    for (int k = 0; k < e->nalts; k++)
      text_alternative(f, p, a, e, &e->alts[k]);
    if (e->nterms)
      text_roofline(f, e, buf);
  }
  if (!x->nunmetered)
    return;
  fprintf(f, "edges       unmetered on %s (no term in cycles): ", p->machine->name);
  for (int i = 0; i < x->nunmetered; i++)
    fprintf(f, "%s%s", i ? ", " : "", p->machine->datapath.edges[x->unmetered[i]].name);
  fputc('\n', f);
}

static void text_explain(FILE *f, const tf_problem *p, const tf_answer *a) {
  tf_explanation x;
  tf_explain(p, a, &x);
  text_levels(f, p, a, &x);
  text_places(f, p, a, &x);
  tf_explanation_release(&x);
}

/* --solver glpk: what GLPK reported and that the exact engine certified it
 * (its solve time is in the JSON only, so that the text of a solve is the
 * same every run). */
static void text_solver(FILE *f, const tf_problem *p, const tf_answer *a) {
  if (!a->solver)
    return;
  fprintf(f, "solver       %s:", a->solver);
  size_t shown = 0;
  for (; shown < a->nilp_objval && shown < p->nobjective_shown; shown++)
    fprintf(f, "%s %s = %.17g", shown ? "," : "", p->objective[shown].text, a->ilp_objval[shown]);
  /* GLPK's status is the exact search's once certified: a point with no
   * shown level (none, or only the placement tie-break) is not infeasible */
  const char *none = a->status != TF_ANSWER_OPTIMAL ? " infeasible" : shown ? "" : " no objective";
  fprintf(f, "%s; certified: %s\n", none,
          a->status == TF_ANSWER_OPTIMAL ? "the point fits and equals the exact optimum" : "the exact search agrees");
}

void tf_report_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain) {
  fprintf(f, "%s%s%s on %s: %s\n", req->id ? req->id : "", req->id ? ": " : "", p->workset->name, p->machine->name,
          a->status == TF_ANSWER_NO_FIT ? "does not fit" : tf_answer_status_name(a->status));
  if (!tf_report_has_answer(a)) {
    fprintf(f, "  %s\n", a->why);
    text_solver(f, p, a);
    return;
  }
  tf_report_text_values(f, p, a);
  for (size_t o = 0; o < p->nobjective_shown && a->status == TF_ANSWER_OPTIMAL; o++)
    fprintf(f, "%-12s %s = %lld\n", o < p->nobjective_asked ? "objective" : "tie-break", p->objective[o].text,
            (long long)a->point.objective[o]);
  text_solver(f, p, a);
  text_memories(f, p, a);
  if (a->status == TF_ANSWER_NO_FIT)
    fprintf(f, "does not fit: %s\n", a->why);
  if (explain || a->status != TF_ANSWER_OPTIMAL)
    text_buffers(f, p, a);
  if (a->status == TF_ANSWER_OPTIMAL) {
    text_closed(f, p, a);
    if (explain) {
      text_explain(f, p, a);
      tf_explain_roofline(f, p, a->choose, a->counts);
    }
  }
}

void tf_report_top_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int n) {
  fprintf(f, "%s%s%s on %s: the %d best assignment%s\n", req->id ? req->id : "", req->id ? ": " : "", p->workset->name,
          p->machine->name, n, n == 1 ? "" : "s");
  fprintf(f, "rank");
  for (size_t i = 0; i < p->nchoose; i++)
    fprintf(f, " %10s", p->choose_names[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, " %10s", p->count_names[k]);
  for (size_t o = 0; o < p->nobjective_shown; o++)
    fprintf(f, "  %s", p->objective[o].text);
  tf_estimate_columns(f, p, a[0].choose, a[0].counts, 1);
  fprintf(f, "\n");
  for (int r = 0; r < n; r++) {
    fprintf(f, "%4d", a[r].rank);
    for (size_t i = 0; i < p->nchoose; i++)
      if (!tf_place_is_var(p, i))
        fprintf(f, " %10lld", (long long)a[r].choose[i]);
      else
        fprintf(f, " %10s", tf_memory_name(tf_place_memory(p, i, a[r].choose[i])));
    for (int k = 0; k < p->ncounts; k++)
      fprintf(f, " %10lld", (long long)a[r].counts[k]);
    for (size_t o = 0; o < p->nobjective_shown; o++)
      fprintf(f, "  %*lld", (int)strlen(p->objective[o].text), (long long)a[r].point.objective[o]);
    tf_estimate_columns(f, p, a[r].choose, a[r].counts, 0);
    fprintf(f, "\n");
  }
}
