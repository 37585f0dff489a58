#include "workset_json.h"

#include <errno.h>
#include <stdlib.h>

#include "model/bind/memory.h"
#include "model/core/json_out.h"
#include "solver/report.h"

/* An expression: a number when its text is an integer literal, else the text. */
static void expr_value(tf_json_out *o, const tf_expr *e) {
  const char *text = tf_expr_text(e);
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (*text && !*end && !errno)
    tf_json_out_int(o, v);
  else
    tf_json_out_string(o, text);
}

static void named(tf_json_out *o, const char *member, const tf_named_expr *e, size_t n) {
  tf_json_out_key_object(o, member);
  for (size_t i = 0; i < n; i++) {
    tf_json_out_key(o, e[i].name);
    expr_value(o, e[i].expr);
  }
  tf_json_out_end(o);
}

static void choose_counts(tf_json_out *o, const tf_workset *w) {
  tf_json_out_key_object(o, "choose");
  for (size_t i = 0; i < w->nchoose; i++) {
    tf_json_out_key_array(o, w->choose[i].name);
    for (size_t k = 0; k < w->choose[i].nvalues; k++)
      tf_json_out_int(o, w->choose[i].values[k]);
    tf_json_out_end(o);
  }
  tf_json_out_end(o);
  tf_json_out_key_object(o, "count");
  for (size_t i = 0; i < w->ncounts; i++) {
    tf_json_out_key_object(o, w->counts[i].name);
    tf_json_out_key(o, "min");
    expr_value(o, w->counts[i].min);
    tf_json_out_key(o, "max");
    expr_value(o, w->counts[i].max);
    tf_json_out_end(o);
  }
  tf_json_out_end(o);
}

static void buffer(tf_json_out *o, const tf_buffer *b) {
  tf_json_out_object(o);
  tf_json_out_key_string(o, "name", b->name);
  tf_json_out_key_string(o, "memory", tf_memory_name(b->memory));
  tf_json_out_key_array(o, "place");
  for (int k = 0; k < b->nplace; k++)
    tf_json_out_string(o, tf_memory_name(b->place[k]));
  tf_json_out_end(o);
  tf_json_out_key(o, "size");
  expr_value(o, b->size);
  tf_json_out_key(o, "align");
  if (b->align)
    expr_value(o, b->align);
  else
    tf_json_out_int(o, 1);
  tf_json_out_key_string(o, "pin", b->pin ? tf_expr_text(b->pin) : NULL); /* NULL: null */
  tf_json_out_key_string(o, "alias", b->alias_name);
  tf_json_out_key_string(o, "lifetime", b->lifetime_name);
  tf_json_out_end(o);
}

/* "show":["LET",..],"rule":{"ARCH":"LINE",..} (model/input/show.h) */
static void shown(tf_json_out *o, const tf_workset *w) {
  tf_json_out_key_array(o, "show");
  for (size_t i = 0; i < w->nshow; i++)
    tf_json_out_string(o, w->lets[w->show[i]].name);
  tf_json_out_end(o);
  tf_json_out_key_object(o, "rule");
  for (size_t i = 0; i < w->nrules; i++)
    tf_json_out_key_string(o, w->rule_archs[i], w->rules[i]);
  tf_json_out_end(o);
}

static void lists(tf_json_out *o, const tf_workset *w) {
  tf_json_out_key_array(o, "require");
  for (size_t i = 0; i < w->nrequire; i++)
    tf_json_out_string(o, tf_expr_text(w->require[i].expr));
  tf_json_out_end(o);
  tf_json_out_key_array(o, "objective");
  for (size_t i = 0; i < w->nobjective; i++)
    tf_json_out_string(o, w->objective[i].text);
  tf_json_out_end(o);
}

void tf_workset_write_json(FILE *f, const tf_workset *w) {
  tf_json_out o;
  tf_json_out_init(&o, f);
  tf_json_out_object(&o);
  tf_json_out_key_string(&o, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&o, "name", w->name);
  tf_json_out_key_string(&o, "description", w->comment ? w->comment : "");
  tf_json_out_key_string(&o, "file", w->file ? w->file : "");
  tf_json_out_key_array(&o, "arch");
  for (size_t i = 0; i < w->narch; i++)
    tf_json_out_string(&o, w->arch[i]);
  tf_json_out_end(&o);
  named(&o, "params", w->params, w->nparams);
  choose_counts(&o, w);
  named(&o, "let", w->lets, w->nlets);
  tf_json_out_key_array(&o, "buffers");
  for (size_t i = 0; i < w->nbuffers; i++)
    buffer(&o, &w->buffers[i]);
  tf_json_out_end(&o);
  lists(&o, w);
  shown(&o, w);
  tf_json_out_end(&o);
}
