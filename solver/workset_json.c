#include "workset_json.h"

#include <errno.h>
#include <stdlib.h>

#include "model/json.h"
#include "model/json_out.h"
#include "model/memory.h"
#include "solver/report.h"

/* An expression: a number when its text is an integer literal, else the text. */
static void expr_value(FILE *f, const tf_expr *e) {
  const char *text = tf_expr_text(e);
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (*text && !*end && !errno)
    fprintf(f, "%lld", v);
  else
    tf_json_write_string(f, text);
}

static void key(FILE *f, size_t i, const char *name) {
  fputs(i ? "," : "", f);
  tf_json_write_string(f, name);
  fputc(':', f);
}

static void named(FILE *f, const char *member, const tf_named_expr *e, size_t n) {
  fprintf(f, ",\"%s\":{", member);
  for (size_t i = 0; i < n; i++)
    key(f, i, e[i].name), expr_value(f, e[i].expr);
  fputc('}', f);
}

static void choose_counts(FILE *f, const tf_workset *w) {
  fputs(",\"choose\":{", f);
  for (size_t i = 0; i < w->nchoose; i++) {
    key(f, i, w->choose[i].name);
    for (size_t k = 0; k < w->choose[i].nvalues; k++)
      fprintf(f, "%s%lld", k ? "," : "[", (long long)w->choose[i].values[k]);
    fputs(w->choose[i].nvalues ? "]" : "[]", f);
  }
  fputs("},\"count\":{", f);
  for (size_t i = 0; i < w->ncounts; i++) {
    key(f, i, w->counts[i].name);
    fputs("{\"min\":", f), expr_value(f, w->counts[i].min);
    fputs(",\"max\":", f), expr_value(f, w->counts[i].max);
    fputc('}', f);
  }
  fputc('}', f);
}

static void buffers(FILE *f, const tf_workset *w) {
  fputs(",\"buffers\":[", f);
  for (size_t i = 0; i < w->nbuffers; i++) {
    const tf_buffer *b = &w->buffers[i];
    fputs(i ? ",{\"name\":" : "{\"name\":", f);
    tf_json_write_string(f, b->name);
    fprintf(f, ",\"memory\":\"%s\",\"place\":[", tf_memory_name(b->memory));
    for (int k = 0; k < b->nplace; k++)
      fprintf(f, "%s\"%s\"", k ? "," : "", tf_memory_name(b->place[k]));
    fputs("],\"size\":", f);
    expr_value(f, b->size);
    fputs(",\"align\":", f);
    b->align ? expr_value(f, b->align) : (void)fputc('1', f);
    fputs(",\"pin\":", f);
    b->pin ? tf_json_write_string(f, tf_expr_text(b->pin)) : (void)fputs("null", f);
    fputs(",\"alias\":", f);
    b->alias_name ? tf_json_write_string(f, b->alias_name) : (void)fputs("null", f);
    fputs(",\"lifetime\":", f);
    b->lifetime_name ? tf_json_write_string(f, b->lifetime_name) : (void)fputs("null", f);
    fputc('}', f);
  }
  fputc(']', f);
}

/* ,"show":["LET",..],"rule":{"ARCH":"LINE",..} (model/show.h) */
static void shown(FILE *f, const tf_workset *w) {
  fputs(",\"show\":[", f);
  for (size_t i = 0; i < w->nshow; i++)
    fputs(i ? "," : "", f), tf_json_write_string(f, w->lets[w->show[i]].name);
  fputs("],\"rule\":{", f);
  for (size_t i = 0; i < w->nrules; i++) {
    fputs(i ? "," : "", f);
    tf_json_write_string(f, w->rule_archs[i]);
    fputc(':', f);
    tf_json_write_string(f, w->rules[i]);
  }
  fputc('}', f);
}

void tf_workset_write_json(FILE *f, const tf_workset *w) {
  fputs("{\"schema\":\"" TF_REPORT_SCHEMA "\",\"name\":", f);
  tf_json_write_string(f, w->name);
  fputs(",\"description\":", f);
  tf_json_write_string(f, w->comment ? w->comment : "");
  fputs(",\"file\":", f);
  tf_json_write_string(f, w->file ? w->file : "");
  fputs(",\"arch\":[", f);
  for (size_t i = 0; i < w->narch; i++)
    fputs(i ? "," : "", f), tf_json_write_string(f, w->arch[i]);
  fputc(']', f);
  named(f, "params", w->params, w->nparams);
  choose_counts(f, w);
  named(f, "let", w->lets, w->nlets);
  buffers(f, w);
  fputs(",\"require\":[", f);
  for (size_t i = 0; i < w->nrequire; i++)
    fputs(i ? "," : "", f), tf_json_write_string(f, tf_expr_text(w->require[i].expr));
  fputs("],\"objective\":[", f);
  for (size_t i = 0; i < w->nobjective; i++)
    fputs(i ? "," : "", f), tf_json_write_string(f, w->objective[i].text);
  fputc(']', f);
  shown(f, w);
  fputc('}', f);
}
