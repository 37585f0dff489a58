/* A list of kernel configurations (`tilefit prune`), whichever form it
 * was read from (model/formats/configs.h): each configuration's values,
 * its own text, and why it did not read.  An object holds integers
 * (booleans as 0/1); one nested "kwargs" object, as Triton's Config keeps
 * its meta-parameters, is read as if it were flat.  A null value (Triton's
 * maxnreg: None, pre_hook: None) carries nothing and is left out; its key
 * is kept in `nulls`. */
#ifndef TF_MODEL_CONFIG_LIST_H
#define TF_MODEL_CONFIG_LIST_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "model/core/error.h"
#include "model/input/request.h" /* tf_assign */

enum tf_configs_form { TF_CONFIGS_LINES, TF_CONFIGS_ARRAY, TF_CONFIGS_NAMES, TF_CONFIGS_PYTHON };

typedef struct tf_config {
  char *text;        /* the object as one line of JSON, or the kernel name */
  char *source;      /* the Python form: the call as written; else NULL */
  char where[48];    /* "line 3" or "$[2]", for messages */
  tf_assign *values; /* key -> value, each with its JSON path */
  size_t nvalues, capvalues;
  char nulls[256]; /* keys given null, "maxnreg, pre_hook" */
  char *error;     /* not NULL: this configuration did not read, and why */
} tf_config;

typedef struct tf_config_list {
  int form; /* enum tf_configs_form */
  tf_config *items;
  size_t n, cap;
} tf_config_list;

void tf_configs_init(tf_config_list *l);
void tf_configs_release(tf_config_list *l);

/* A new configuration at the end of the list, named `where` in messages. */
tf_config *tf_configs_add(tf_config_list *l, const char *where);

/* Reads a configuration object's integers (a nested "kwargs" as flat)
 * into c; its text becomes the object as one line of JSON. */
int tf_configs_read_object(tf_config *c, const cJSON *obj, const char *path, tf_error *err);

/* The value of `key` in a configuration, or NULL. */
const tf_assign *tf_config_value(const tf_config *c, const char *key);

#endif
