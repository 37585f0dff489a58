/* The names a workset gives the engine's roles (roles.h). */
#include "model/input/roles.h"

#include <stdio.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/suggest.h"

static const char *const role_names[TF_NROLES] = {"threads", "cta_registers"};

/* The role's name must be one the workset defines: a param or a let
 * (threads), a let (cta_registers). */
static int check_name(const tf_workset *w, int role, const char *name, const char *path, tf_error *err) {
  for (size_t i = 0; i < w->nlets; i++)
    if (!strcmp(w->lets[i].name, name))
      return 0;
  for (size_t i = 0; role == TF_ROLE_THREADS && i < w->nparams; i++)
    if (!strcmp(w->params[i].name, name))
      return 0;
  return tf_error_set(err, TF_EINPUT, path, "'%.64s' is not %s of this workset", name,
                      role == TF_ROLE_THREADS ? "a param or a let" : "a let");
}

int tf_roles_read(tf_workset *w, const cJSON *root, tf_error *err) {
  const cJSON *o = tf_json_member(root, "roles"), *m;
  if (!o)
    return 0;
  if (!cJSON_IsObject(o))
    return tf_error_set(err, TF_EINPUT, "$.roles", "expected an object {\"threads\": NAME, \"cta_registers\": NAME}");
  cJSON_ArrayForEach(m, o) {
    char path[160];
    const char *name;
    tf_path_key(path, sizeof path, "$.roles", m->string);
    int role = 0;
    while (role < TF_NROLES && strcmp(role_names[role], m->string))
      role++;
    if (role == TF_NROLES) {
      const char *near = tf_suggest(m->string, role_names, TF_NROLES);
      return tf_error_set(err, TF_EINPUT, path, "unknown role '%.64s'%s%s%s (the roles: threads, cta_registers)",
                          m->string, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    if (tf_json_string(m, path, &name, err) || check_name(w, role, name, path, err))
      return -1;
    w->roles[role] = tf_strdup(name);
  }
  return 0;
}
