/* A list of kernel configurations to check before launch (`tilefit prune`):
 *   - JSON Lines, one object a line:  {"BLOCK_M": 128, "num_stages": 4, ...}
 *   - a JSON array of such objects:   [{"BLOCK_M": 128, ...}, ...]
 *   - plain lines of CUTLASS kernel names (cutlass3x_sm90_...), '#' comments
 *   - Python: triton.Config({'BLOCK_M': 128, ...}, num_stages=4) calls
 *     (model/formats/configs_py.h)
 * Objects are read as model/formats/config_list.h says.  A line or element
 * that does not read is kept with its `error` (the list goes on).
 * Each configuration keeps its own text so that the ones that fit can be
 * written back in the input's own form. */
#ifndef TF_MODEL_CONFIGS_H
#define TF_MODEL_CONFIGS_H

#include <stddef.h>

#include "model/core/error.h"
#include "model/formats/config_list.h"

/* Reads text in any of the four forms (a Python list that does not read
 * fails whole); `file` names it in errors.  Fails
 * only when the text as a whole does not read (an array that does not
 * parse, nothing in it); a bad line is an item with its error. */
int tf_configs_parse(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err);
/* An array of configuration objects already parsed (the library's
 * "configs"), each named where[i]; not written out as text again. */
struct cJSON;
int tf_configs_read_array(const struct cJSON *array, const char *where, tf_config_list *l, tf_error *err);

#endif
