#include "layout_write.h"

#include "model/core/json_out.h"
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
  fprintf(f, "%-20s %10s %10s %10s %6s %10s  (%s)\n", tf_memory_name(m), "offset", "size", "allocated", "align", "end",
          tf_memory_unit(m));
  int unioned = 0;
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != m)
      continue;
    if (s->lifetime >= 0 && !unioned)
      text_union(f, p, l, m), unioned = 1;
    int64_t end = s->host >= 0 ? s->offset + s->size : s->offset + s->allocated;
    fprintf(f, "  %-18s %10lld %10lld %10lld %6lld %10lld", p->workset->buffers[s->buffer].name, (long long)s->offset,
            (long long)s->size, (long long)s->allocated, (long long)s->align, (long long)end);
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

static void json_slot(tf_json_out *w, const tf_problem *p, const tf_layout_slot *s) {
  tf_json_out_object(w);
  tf_json_out_key_string(w, "name", p->workset->buffers[s->buffer].name);
  tf_json_out_key_int(w, "offset", s->offset);
  tf_json_out_key_int(w, "size", s->size);
  tf_json_out_key_int(w, "allocated", s->allocated);
  tf_json_out_key_int(w, "align", s->align);
  tf_json_out_key_bool(w, "aligned", s->aligned);
  if (s->host >= 0) {
    tf_json_out_key_string(w, "shares", p->workset->buffers[s->host].name);
    tf_json_out_key_int(w, "extra_offset", s->extra_offset);
  }
  tf_json_out_key_string(w, "lifetime", s->lifetime >= 0 ? p->workset->lifetimes[s->lifetime] : NULL);
  tf_json_out_end(w);
}

/* "union":{"offset","size","lifetimes":[{"name","size"}]} */
static void json_union(tf_json_out *w, const tf_problem *p, const tf_layout *l, int m) {
  tf_json_out_key_object(w, "union");
  tf_json_out_key_int(w, "offset", l->phase_base[m]);
  tf_json_out_key_int(w, "size", union_size(p, l, m));
  tf_json_out_key_array(w, "lifetimes");
  for (int q = 0; q < (int)p->workset->nlifetimes; q++) {
    tf_json_out_object(w);
    tf_json_out_key_string(w, "name", p->workset->lifetimes[q]);
    tf_json_out_key_int(w, "size", l->phase_size[m][q]);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
  tf_json_out_end(w);
}

void tf_layout_json_value(tf_json_out *w, const tf_problem *p, const tf_layout *l) {
  tf_json_out_object(w);
  for (int m = 0; m < TF_NMEM; m++) {
    if (!l->shown[m])
      continue;
    tf_json_out_key_object(w, tf_memory_name(m));
    tf_json_out_key_string(w, "unit", tf_memory_unit(m));
    tf_json_out_key_int(w, "total", l->end[m]);
    tf_json_out_key_int(w, "capacity", l->capacity[m]);
    tf_json_out_key_array(w, "buffers");
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == m)
        json_slot(w, p, &l->slots[i]);
    tf_json_out_end(w);
    if (l->phased[m])
      json_union(w, p, l, m);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
}

void tf_layout_write_json(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_report_json_members(&w, p, a);
  if (l) {
    tf_json_out_key(&w, "layout");
    tf_layout_json_value(&w, p, l);
  }
  tf_json_out_end(&w);
  tf_json_out_line(&w);
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
