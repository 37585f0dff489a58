/* The text writer: answers as tables for people. */
#include "solver/report.h"

#include <stdint.h>
#include <string.h>

#include "solver/explain.h"
#include "solver/solve.h"

static void text_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (size_t i = 0; i < p->place_first; i++)
    fprintf(f, "  %-12s %lld\n", p->choose_names[i], (long long)a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, "  %-12s %lld\n", p->count_names[k], (long long)a->counts[k]);
  if (p->place_first < p->nchoose) {
    fprintf(f, "placement   ");
    for (size_t i = p->place_first; i < p->nchoose; i++)
      fprintf(f, " %s %s%s", p->choose_names[i], tf_memory_name((int)a->choose[i]), i + 1 < p->nchoose ? "," : "\n");
  }
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

static void text_buffers(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "buffer               %-6s %10s %10s %6s\n", "memory", "size", "allocated", "align");
  for (size_t b = 0; b < p->nbuffers; b++)
    fprintf(f, "  %-18s %-6s %10lld %10lld %6lld\n", p->workset->buffers[b].name,
            tf_memory_name(tf_memory_of_at(p, b, a->choose)), (long long)a->point.size[b], (long long)a->point.alloc[b],
            (long long)tf_memory_align(p, b));
}

static void text_closed(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (int k = 0; k < p->ncounts; k++) {
    const tf_closed *c = &a->closed[k];
    if (!c->applies)
      continue;
    /* a negative resident (triton-matmul's buffer_offset -1) reads as "+ 32768", not "- -32768" */
    int plus = c->resident < 0 && c->resident != INT64_MIN;
    fprintf(f, "closed form  %s = floor((%lld %c %lld) / %lld) = %lld in %s", p->count_names[k],
            (long long)c->capacity, plus ? '+' : '-', (long long)(plus ? -c->resident : c->resident),
            (long long)c->per_stage, (long long)c->floor_value, tf_memory_name(c->memory));
    if (c->capped)
      fprintf(f, ", capped at the max %lld of %s (the bound binds, not capacity)", (long long)c->value,
              p->count_names[k]);
    fprintf(f, ": %s\n", c->agrees ? "agrees" : "differs");
    if (!c->agrees)
      fprintf(f, "             %s\n", c->reason);
  }
}

/* Why not one more of each count: the constraint that binds. */
static void text_binding(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (int k = 0; k < p->ncounts; k++) {
    char buf[400];
    tf_binding(p, a, k, buf, sizeof buf);
    fprintf(f, "binding      %s\n", buf);
  }
}

void tf_report_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int explain) {
  fprintf(f, "%s%s%s on %s: %s\n", req->id ? req->id : "", req->id ? ": " : "", p->workset->name, p->machine->name,
          a->status == TF_ANSWER_NO_FIT ? "does not fit" : tf_answer_status_name(a->status));
  if (!tf_report_has_answer(a)) {
    fprintf(f, "  %s\n", a->why);
    return;
  }
  text_values(f, p, a);
  for (size_t o = 0; o < p->nobjective_shown && a->status == TF_ANSWER_OPTIMAL; o++)
    fprintf(f, "objective    %s = %lld\n", p->objective[o].text, (long long)a->point.objective[o]);
  text_memories(f, p, a);
  if (a->status == TF_ANSWER_NO_FIT)
    fprintf(f, "does not fit: %s\n", a->why);
  if (explain || a->status != TF_ANSWER_OPTIMAL)
    text_buffers(f, p, a);
  if (a->status == TF_ANSWER_OPTIMAL) {
    text_closed(f, p, a);
    if (explain) {
      text_binding(f, p, a);
      tf_explain_levels(f, p, a);
      tf_explain_placement(f, p, a);
    }
  }
}

void tf_report_top_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int n) {
  fprintf(f, "%s%s%s on %s: the %d best assignment%s\n", req->id ? req->id : "", req->id ? ": " : "",
          p->workset->name, p->machine->name, n, n == 1 ? "" : "s");
  fprintf(f, "rank");
  for (size_t i = 0; i < p->nchoose; i++)
    fprintf(f, " %10s", p->choose_names[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, " %10s", p->count_names[k]);
  for (size_t o = 0; o < p->nobjective_shown; o++)
    fprintf(f, "  %s", p->objective[o].text);
  fprintf(f, "\n");
  for (int r = 0; r < n; r++) {
    fprintf(f, "%4d", a[r].rank);
    for (size_t i = 0; i < p->nchoose; i++)
      if (i < p->place_first)
        fprintf(f, " %10lld", (long long)a[r].choose[i]);
      else
        fprintf(f, " %10s", tf_memory_name((int)a[r].choose[i]));
    for (int k = 0; k < p->ncounts; k++)
      fprintf(f, " %10lld", (long long)a[r].counts[k]);
    for (size_t o = 0; o < p->nobjective_shown; o++)
      fprintf(f, "  %*lld", (int)strlen(p->objective[o].text), (long long)a[r].point.objective[o]);
    fprintf(f, "\n");
  }
}

