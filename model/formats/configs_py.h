/* The fourth form of a configuration list (model/formats/configs.h): Triton's
 * autotune configs as Python writes them,
 *     triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256}, num_stages=3, num_warps=8),
 * anywhere in the text (a configs = [...] list, a decorator), '#'
 * comments skipped.  The dict's entries and the integer keywords are the
 * configuration's values (True/False as 1/0); other keywords (pre_hook=)
 * are left out.  Each configuration's text is its JSON object, its source
 * the call as written, for `prune --keep`. */
#ifndef TF_MODEL_CONFIGS_PY_H
#define TF_MODEL_CONFIGS_PY_H

#include <stddef.h>

#include "model/core/error.h"
#include "model/formats/config_list.h"

/* Does the text hold a Config( call outside comments? */
int tf_configs_is_python(const char *text, size_t len);

/* Appends each Config(...) call as a configuration whose values
 * tf_configs_read_object reads from the object the call builds. */
int tf_configs_parse_python(const char *text, size_t len, const char *file, tf_config_list *l, tf_error *err);

#endif
