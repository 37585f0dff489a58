/* The readers of model pieces from parsed JSON (cJSON trees) that several
 * loaders share: worksets, machines, problem lines and sweep specs.  Not
 * part of the installed header, which has no cJSON in it; each is
 * implemented beside the piece it reads (workset.c, datapath.c). */
#ifndef TF_MODEL_JSON_READ_H
#define TF_MODEL_JSON_READ_H

#include "model/core/error.h"
#include "model/input/datapath.h"
#include "model/input/workset.h"

struct cJSON;

/* A choose domain as JSON: a list of distinct integers or {"from", "to",
 * "step"}; shared with problem lines and sweep specs, which take the
 * same form.  c->values is owned by the caller. */
int tf_read_domain(tf_choose *c, const struct cJSON *v, const char *path, tf_error *err);

/* An expression in JSON: a string, or an integer written as a number;
 * unbound.  NULL with *err naming `path`. */
tf_expr *tf_read_expr(const struct cJSON *v, const char *path, tf_error *err);

/* The same read as its source text (the caller frees *out), checked to
 * parse: for lets a loader writes from declared expressions. */
int tf_read_expr_text(const struct cJSON *v, const char *path, char **out, tf_error *err);

/* Reads the root's optional "mma" and "edges" objects into *dp (zeroed by
 * the caller).  Errors name the JSON path.  Memory names are the
 * memory module's (smem, tmem, rf); `has_tmem` 0 refuses tmem in the table. */
int tf_datapath_read(const struct cJSON *root, int has_tmem, tf_datapath *dp, tf_error *err);

#endif
