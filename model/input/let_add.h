/* Adding lets to a workset, before it is bound: the lets of a JSON
 * object (the workset's "let", or an included fragment's:
 * model/input/include.h), and the lets the loader writes itself
 * (model/input/roofline.c, let_table.c).  Each let's name becomes a
 * symbol (model/input/symbols.h). */
#ifndef TF_MODEL_LET_ADD_H
#define TF_MODEL_LET_ADD_H

#include "model/core/error.h"
#include "model/input/workset.h"

/* Appends a let parsed from `text` (unbound), named `name`, which need not
 * be an identifier ("cycles(smem)"); its errors name `path`.  For lets the
 * program writes (model/input/roofline.c), before the workset is bound. */
int tf_workset_add_let(tf_workset *w, const char *name, const char *text, const char *path, tf_error *err);

/* Appends the lets of `obj`, a JSON object of NAME: expression (the
 * workset's "let", or an included fragment's: model/input/include.h),
 * unbound; each one's path is `base`.NAME, which its errors name. */
struct cJSON;
int tf_workset_read_lets(tf_workset *w, const struct cJSON *obj, const char *base, tf_error *err);

#endif
