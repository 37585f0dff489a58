#include "model/input/show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/machine.h"

/* The let named `name`, or -1 with the error (and the nearest let's name). */
static int let_index(const tf_workset *w, const char *name, const char *path, tf_error *err) {
  const char **names = tf_nalloc(w->nlets + 1, sizeof *names);
  for (size_t i = 0; i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, name)) {
      free(names);
      return (int)i;
    }
  for (size_t i = 0; i < w->nlets; i++)
    names[i] = w->lets[i].name;
  const char *near = tf_suggest(name, names, w->nlets);
  char shown[72];
  tf_escape(shown, sizeof shown, name);
  if (near)
    tf_error_set(err, TF_EINPUT, path, "'%s' is not a let of this workset; did you mean '%s'?", shown, near);
  else
    tf_error_set(err, TF_EINPUT, path, "'%s' is not a let of this workset (show names lets)", shown);
  free(names);
  return -1;
}

static int read_show(tf_workset *w, const cJSON *show, tf_error *err) {
  if (!cJSON_IsArray(show))
    return tf_error_set(err, TF_EINPUT, "$.show", "expected an array of let names");
  size_t n = (size_t)cJSON_GetArraySize(show);
  w->show = tf_nalloc(n + 1, sizeof *w->show);
  for (size_t i = 0; i < n; i++) {
    char path[48];
    snprintf(path, sizeof path, "$.show[%zu]", i);
    const char *name;
    if (tf_json_string(cJSON_GetArrayItem(show, (int)i), path, &name, err))
      return -1;
    int let = let_index(w, name, path, err);
    if (let < 0)
      return -1;
    for (size_t j = 0; j < w->nshow; j++)
      if (w->show[j] == (size_t)let)
        return tf_error_set(err, TF_EINPUT, path, "'%s' is shown twice", name);
    w->show[w->nshow++] = (size_t)let;
  }
  return 0;
}

static int read_rule(tf_workset *w, const char *arch, const cJSON *v, const char *path, tf_error *err) {
  const char *text;
  if (tf_json_string(v, path, &text, err))
    return -1;
  const char *why = tf_text_unfit(text, 400); /* a line break is a control character */
  if (why)
    return tf_error_set(err, TF_EINPUT, path, "one line of text of at most 400 bytes; this one %s", why);
  if (strcmp(arch, "*") && !tf_arch_pattern_valid(arch))
    return tf_error_set(err, TF_EINPUT, path, "'%.40s' is not an arch pattern (sm_90, sm_80+, sm_10x, gfx942 or *)",
                        arch);
  TF_NREALLOC(w->rules, w->nrules + 1);
  TF_NREALLOC(w->rule_archs, w->nrules + 1);
  w->rules[w->nrules] = tf_strdup(text);
  w->rule_archs[w->nrules++] = tf_strdup(arch);
  return 0;
}

static int read_rules(tf_workset *w, const cJSON *rule, tf_error *err) {
  if (!cJSON_IsObject(rule))
    return read_rule(w, "*", rule, "$.rule", err);
  for (const cJSON *c = rule->child; c; c = c->next) {
    char path[96];
    snprintf(path, sizeof path, "$.rule.%.60s", c->string);
    if (read_rule(w, c->string, c, path, err))
      return -1;
  }
  return 0;
}

int tf_show_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *show = tf_json_member(root, "show"), *rule = tf_json_member(root, "rule");
  if (show && read_show(w, show, err))
    return -1;
  return rule ? read_rules(w, rule, err) : 0;
}

const char *tf_workset_rule(const tf_workset *w, const tf_machine *m) {
  for (size_t i = 0; i < w->nrules; i++)
    if (!strcmp(w->rule_archs[i], "*") || tf_machine_arch_matches(m, w->rule_archs[i]) == 1)
      return w->rules[i];
  return NULL;
}
