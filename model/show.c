#include "show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json.h"
#include "suggest.h"
#include "text.h"

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

int tf_show_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *show = tf_json_member(root, "show"), *rule = tf_json_member(root, "rule");
  if (show && read_show(w, show, err))
    return -1;
  if (!rule)
    return 0;
  const char *text;
  if (tf_json_string(rule, "$.rule", &text, err))
    return -1;
  const char *why = tf_text_unfit(text, 400); /* a line break is a control character */
  if (why)
    return tf_error_set(err, TF_EINPUT, "$.rule", "one line of text of at most 400 bytes; this one %s", why);
  w->rule = tf_strdup(text);
  return 0;
}
