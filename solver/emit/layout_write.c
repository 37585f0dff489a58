#include "layout_write.h"

#include "model/json.h"
#include "model/json_out.h"
#include "solver/emit/struct_write.h"
#include "solver/report.h"
#include "solver/solve.h"

/* "shares S", "shares S, +64 at 512", "unaligned" */
static void slot_note(FILE *f, const tf_problem *p, const tf_layout_slot *s) {
  const char *sep = "  ";
  if (s->host >= 0) {
    fprintf(f, "%sshares %s's space", sep, p->workset->buffers[s->host].name);
    if (s->allocated > 0)
      fprintf(f, ", adds %lld at %lld", (long long)s->allocated, (long long)s->extra_offset);
    sep = "; ";
  }
  if (!s->aligned)
    fprintf(f, "%soffset not a multiple of %lld", sep, (long long)s->align), sep = "; ";
  if (s->lifetime >= 0)
    fprintf(f, "%slifetime %s", sep, p->workset->lifetimes[s->lifetime]);
}

/* The size of memory m's union: its largest phase's. */
static int64_t union_size(const tf_problem *p, const tf_layout *l, int m) {
  int64_t most = 0;
  for (int q = 0; q < (int)p->workset->nlifetimes; q++)
    most = l->phase_size[m][q] > most ? l->phase_size[m][q] : most;
  return most;
}

/* The union of the phases: where each starts, and each one's size. */
static void text_union(FILE *f, const tf_problem *p, const tf_layout *l, int m) {
  int64_t size = union_size(p, l, m);
  fprintf(f, "  %-18s %10lld %10lld %10lld %6d %10lld  lifetimes overlaid here:", "(union)",
          (long long)l->phase_base[m], (long long)size, (long long)size, 1, (long long)(l->phase_base[m] + size));
  const char *sep = " ";
  for (int q = 0; q < (int)p->workset->nlifetimes; q++) {
    fprintf(f, "%s%s %lld", sep, p->workset->lifetimes[q], (long long)l->phase_size[m][q]);
    sep = ", ";
  }
  fputc('\n', f);
}

static void text_memory(FILE *f, const tf_problem *p, const tf_layout *l, int m) {
  fprintf(f, "%-20s %10s %10s %10s %6s %10s  (%s)\n", tf_memory_name(m), "offset", "size", "allocated", "align",
          "end", tf_memory_unit(m));
  int unioned = 0;
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != m)
      continue;
    if (s->lifetime >= 0 && !unioned)
      text_union(f, p, l, m), unioned = 1;
    int64_t end = s->host >= 0 ? s->offset + s->size : s->offset + s->allocated;
    fprintf(f, "  %-18s %10lld %10lld %10lld %6lld %10lld", p->workset->buffers[s->buffer].name,
            (long long)s->offset, (long long)s->size, (long long)s->allocated, (long long)s->align, (long long)end);
    slot_note(f, p, s);
    fputc('\n', f);
  }
  fprintf(f, "  total %lld of %lld %s, slack %lld\n", (long long)l->end[m], (long long)l->capacity[m],
          tf_memory_unit(m), (long long)(l->capacity[m] - l->end[m]));
}

void tf_layout_write_text(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  fprintf(f, "%s on %s: %s\n", p->workset->name, p->machine->name,
          a->status == TF_ANSWER_NO_FIT ? "does not fit" : tf_answer_status_name(a->status));
  tf_report_text_values(f, p, a);
  if (a->status == TF_ANSWER_NO_FIT)
    fprintf(f, "does not fit: %s\n", a->why);
  for (int m = 0; m < TF_NMEM; m++)
    if (l->shown[m])
      text_memory(f, p, l, m);
}

static void json_slot(FILE *f, const tf_problem *p, const tf_layout_slot *s) {
  fputs("{\"name\":", f);
  tf_json_write_string(f, p->workset->buffers[s->buffer].name);
  fprintf(f, ",\"offset\":%lld,\"size\":%lld,\"allocated\":%lld,\"align\":%lld,\"aligned\":%s", (long long)s->offset,
          (long long)s->size, (long long)s->allocated, (long long)s->align, s->aligned ? "true" : "false");
  if (s->host >= 0) {
    fputs(",\"shares\":", f);
    tf_json_write_string(f, p->workset->buffers[s->host].name);
    fprintf(f, ",\"extra_offset\":%lld", (long long)s->extra_offset);
  }
  fputs(",\"lifetime\":", f);
  if (s->lifetime >= 0)
    tf_json_write_string(f, p->workset->lifetimes[s->lifetime]);
  else
    fputs("null", f);
  fputc('}', f);
}

/* ,"union":{"offset","size","lifetimes":[{"name","size"}]} */
static void json_union(FILE *f, const tf_problem *p, const tf_layout *l, int m) {
  int64_t size = union_size(p, l, m);
  fprintf(f, ",\"union\":{\"offset\":%lld,\"size\":%lld,\"lifetimes\":[", (long long)l->phase_base[m],
          (long long)size);
  for (int q = 0; q < (int)p->workset->nlifetimes; q++) {
    fputs(q ? ",{\"name\":" : "{\"name\":", f);
    tf_json_write_string(f, p->workset->lifetimes[q]);
    fprintf(f, ",\"size\":%lld}", (long long)l->phase_size[m][q]);
  }
  fputs("]}", f);
}

void tf_layout_write_json_value(FILE *f, const tf_problem *p, const tf_layout *l) {
  fputc('{', f);
  const char *sep = "";
  for (int m = 0; m < TF_NMEM; m++) {
    if (!l->shown[m])
      continue;
    fprintf(f, "%s\"%s\":{\"unit\":\"%s\",\"total\":%lld,\"capacity\":%lld,\"buffers\":[", sep, tf_memory_name(m),
            tf_memory_unit(m), (long long)l->end[m], (long long)l->capacity[m]);
    const char *bsep = "";
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == m) {
        fputs(bsep, f);
        json_slot(f, p, &l->slots[i]);
        bsep = ",";
      }
    fputc(']', f);
    if (l->phased[m])
      json_union(f, p, l, m);
    fputc('}', f);
    sep = ",";
  }
  fputc('}', f);
}

void tf_layout_write_json(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  fputs("{\"schema\":\"" TF_REPORT_SCHEMA "\",", f);
  tf_report_json_fields(f, p, a);
  if (l) {
    fputs(",\"layout\":", f);
    tf_layout_write_json_value(f, p, l);
  }
  fputs("}\n", f);
}

int tf_layout_run(FILE *f, const tf_problem *p, const tf_solve_opts *o, int form, tf_answer *a, tf_error *err) {
  if (tf_solve_or_check(p, o, a, err))
    return -1;
  if (a->status == TF_ANSWER_INFEASIBLE) {
    if (form == TF_LAYOUT_JSON)
      tf_layout_write_json(f, p, a, NULL);
    return 0;
  }
  tf_layout l;
  if (tf_layout_of(p, &a->point, &l, err))
    return -1;
  if (form == TF_LAYOUT_C)
    tf_struct_write_c(f, p, a, &l);
  else if (form == TF_LAYOUT_CUTE_DSL)
    tf_struct_write_cute_dsl(f, p, a, &l);
  else if (form == TF_LAYOUT_JSON)
    tf_layout_write_json(f, p, a, &l);
  else
    tf_layout_write_text(f, p, a, &l);
  tf_layout_release(&l);
  return 0;
}
