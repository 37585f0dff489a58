#include "report.h"

#include "solver/explain.h"
#include "solver/solve.h"

#include <string.h>

const char *tf_answer_status_name(int status) {
  static const char *const names[] = {"optimal", "infeasible", "fits", "does_not_fit"};
  return names[status];
}

void tf_json_write_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c == '\t')
      fputs("\\t", f);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static int has_answer(const tf_answer *a) { return a->status != TF_ANSWER_INFEASIBLE; }

static int memory_in_use(const tf_problem *p, int m) {
  for (size_t b = 0; b < p->nbuffers; b++)
    if (p->workset->buffers[b].memory == m)
      return 1;
  return 0;
}

/* ------------------------------------------------------------------ text */

static void text_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (size_t i = 0; i < p->nchoose; i++)
    fprintf(f, "  %-12s %lld\n", p->choose_names[i], (long long)a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, "  %-12s %lld\n", p->count_names[k], (long long)a->counts[k]);
}

static void text_memories(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "memory       %10s %10s %10s\n", "used", "capacity", "slack");
  for (int m = 0; m < TF_NMEM; m++)
    if (memory_in_use(p, m))
      fprintf(f, "  %-10s %10lld %10lld %10lld  %s\n", tf_memory_name(m), (long long)a->point.used[m],
              (long long)p->capacity[m], (long long)(p->capacity[m] - a->point.used[m]), tf_memory_unit(m));
}

static void text_buffers(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "buffer               %-6s %10s %10s %6s\n", "memory", "size", "allocated", "align");
  for (size_t b = 0; b < p->nbuffers; b++)
    fprintf(f, "  %-18s %-6s %10lld %10lld %6lld\n", p->workset->buffers[b].name,
            tf_memory_name(p->workset->buffers[b].memory), (long long)a->point.size[b], (long long)a->point.alloc[b],
            (long long)p->align[b]);
}

static void text_closed(FILE *f, const tf_problem *p, const tf_answer *a) {
  for (int k = 0; k < p->ncounts; k++) {
    const tf_closed *c = &a->closed[k];
    if (!c->applies)
      continue;
    /* a negative resident (triton-matmul's buffer_offset -1) reads as "+ 32768", not "- -32768" */
    int plus = c->resident < 0 && c->resident != INT64_MIN;
    fprintf(f, "closed form  %s = floor((%lld %c %lld) / %lld) = %lld in %s: %s\n", p->count_names[k],
            (long long)c->capacity, plus ? '+' : '-', (long long)(plus ? -c->resident : c->resident),
            (long long)c->per_stage, (long long)c->value, tf_memory_name(c->memory), c->agrees ? "agrees" : "differs");
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
  if (!has_answer(a)) {
    fprintf(f, "  %s\n", a->why);
    return;
  }
  text_values(f, p, a);
  for (size_t o = 0; o < p->nobjective && a->status == TF_ANSWER_OPTIMAL; o++)
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
    }
  }
}

/* ------------------------------------------------------------------ JSON */

static void json_values(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs("\"values\":{", f);
  for (size_t i = 0; i < p->nchoose; i++) {
    tf_json_write_string(f, p->choose_names[i]);
    fprintf(f, ":%lld%s", (long long)a->choose[i], i + 1 < p->nchoose || p->ncounts ? "," : "");
  }
  for (int k = 0; k < p->ncounts; k++) {
    tf_json_write_string(f, p->count_names[k]);
    fprintf(f, ":%lld%s", (long long)a->counts[k], k + 1 < p->ncounts ? "," : "");
  }
  fputc('}', f);
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
    if (!memory_in_use(p, m))
      continue;
    fprintf(f, "%s\"%s\":{\"used\":%lld,\"capacity\":%lld,\"slack\":%lld,\"unit\":\"%s\"}", first ? "" : ",",
            tf_memory_name(m), (long long)a->point.used[m], (long long)p->capacity[m],
            (long long)(p->capacity[m] - a->point.used[m]), tf_memory_unit(m));
    first = 0;
  }
  fputs("},\"buffers\":[", f);
  for (size_t b = 0; b < p->nbuffers; b++) {
    fputs(b ? ",{\"name\":" : "{\"name\":", f);
    tf_json_write_string(f, p->workset->buffers[b].name);
    fprintf(f, ",\"memory\":\"%s\",\"size\":%lld,\"allocated\":%lld,\"align\":%lld}",
            tf_memory_name(p->workset->buffers[b].memory), (long long)a->point.size[b], (long long)a->point.alloc[b],
            (long long)p->align[b]);
  }
  fputc(']', f);
}

static void json_objectives(FILE *f, const tf_problem *p, const tf_answer *a) {
  fputs(",\"objectives\":[", f);
  for (size_t o = 0; o < p->nobjective; o++) {
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
    if (!c->agrees) {
      fputs(",\"reason\":", f);
      tf_json_write_string(f, c->reason);
    }
    fputc('}', f);
    first = 0;
  }
  fputc('}', f);
}

void tf_report_json(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_report_json_object(f, req, p, a);
  fputc('\n', f);
}

void tf_report_json_object(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  fputc('{', f);
  if (req->id) {
    fputs("\"id\":", f);
    tf_json_write_string(f, req->id);
    fputc(',', f);
  }
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
  if (has_answer(a)) {
    fputc(',', f);
    json_values(f, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_objectives(f, p, a);
    json_memories(f, p, a);
    if (a->status == TF_ANSWER_OPTIMAL)
      json_closed(f, p, a);
  }
  fputc('}', f);
}

/* ------------------------------------------------------------------- CSV */

void tf_report_csv_header(FILE *f, const tf_problem *p) {
  fputs("id,machine,workset,status,rank", f);
  for (size_t i = 0; i < p->nchoose; i++)
    fprintf(f, ",%s", p->choose_names[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, ",%s", p->count_names[k]);
  for (int m = 0; m < TF_NMEM; m++)
    if (memory_in_use(p, m))
      fprintf(f, ",%s_used,%s_capacity", tf_memory_name(m), tf_memory_name(m));
  for (size_t o = 0; o < p->nobjective; o++)
    fprintf(f, ",objective%zu", o + 1);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, ",closed_%s,closed_%s_agrees", p->count_names[k], p->count_names[k]);
  fputc('\n', f);
}

void tf_report_csv_row(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "%s,%s,%s,%s,", req->id ? req->id : "", p->machine->name, p->workset->name,
          tf_answer_status_name(a->status));
  if (a->rank)
    fprintf(f, "%d", a->rank);
  int ok = has_answer(a), opt = a->status == TF_ANSWER_OPTIMAL;
  for (size_t i = 0; i < p->nchoose; i++)
    ok ? fprintf(f, ",%lld", (long long)a->choose[i]) : fputs(",", f);
  for (int k = 0; k < p->ncounts; k++)
    ok ? fprintf(f, ",%lld", (long long)a->counts[k]) : fputs(",", f);
  for (int m = 0; m < TF_NMEM; m++)
    if (memory_in_use(p, m))
      ok ? fprintf(f, ",%lld,%lld", (long long)a->point.used[m], (long long)p->capacity[m])
         : fprintf(f, ",,%lld", (long long)p->capacity[m]);
  for (size_t o = 0; o < p->nobjective; o++)
    opt ? fprintf(f, ",%lld", (long long)a->point.objective[o]) : fputs(",", f);
  for (int k = 0; k < p->ncounts; k++)
    opt && a->closed[k].applies ? fprintf(f, ",%lld,%s", (long long)a->closed[k].value, a->closed[k].agrees ? "yes" : "no")
                                : fputs(",,", f);
  fputc('\n', f);
}

void tf_report_top_text(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a, int n) {
  fprintf(f, "%s%s%s on %s: the %d best assignment%s\n", req->id ? req->id : "", req->id ? ": " : "",
          p->workset->name, p->machine->name, n, n == 1 ? "" : "s");
  fprintf(f, "rank");
  for (size_t i = 0; i < p->nchoose; i++)
    fprintf(f, " %10s", p->choose_names[i]);
  for (int k = 0; k < p->ncounts; k++)
    fprintf(f, " %10s", p->count_names[k]);
  for (size_t o = 0; o < p->nobjective; o++)
    fprintf(f, "  %s", p->objective[o].text);
  fprintf(f, "\n");
  for (int r = 0; r < n; r++) {
    fprintf(f, "%4d", a[r].rank);
    for (size_t i = 0; i < p->nchoose; i++)
      fprintf(f, " %10lld", (long long)a[r].choose[i]);
    for (int k = 0; k < p->ncounts; k++)
      fprintf(f, " %10lld", (long long)a[r].counts[k]);
    for (size_t o = 0; o < p->nobjective; o++)
      fprintf(f, "  %*lld", (int)strlen(p->objective[o].text), (long long)a[r].point.objective[o]);
    fprintf(f, "\n");
  }
}

void tf_report_answer(FILE *f, int format, const tf_request *req, const tf_problem *p, const tf_answer *a,
                      int explain) {
  if (format == TF_FORMAT_JSON) {
    tf_report_json(f, req, p, a);
  } else if (format == TF_FORMAT_CSV) {
    tf_report_csv_header(f, p);
    tf_report_csv_row(f, req, p, a);
  } else {
    tf_report_text(f, req, p, a, explain);
  }
}
