/* Shipped machines and worksets by name.  A name with a '/' or ending in
 * ".json" is a path ("-": standard input); anything else is looked up, in order, under
 *   $TILEFIT_DATA/, the library's tree (<its directory>/.., a source
 *   tree's root for build/libtilefit.so), <its directory>/../share/tilefit
 *   (an installed PREFIX/lib/libtilefit.so) and <its directory>/../..
 *   (a build in a subdirectory of build/), the executable's directory,
 *   <executable's directory>/../share/tilefit/, and the directory the
 *   library was built for ($(PREFIX)/share/tilefit, compiled in),
 * as machines/NAME.json or model/worksets/NAME.json. */
#ifndef TF_MODEL_CATALOG_H
#define TF_MODEL_CATALOG_H

#include <stddef.h>

#include "model/core/error.h"

enum tf_catalog_kind { TF_CATALOG_MACHINES, TF_CATALOG_WORKSETS };

/* Resolves `name` to a file path in `path`.  `where` names the argument
 * ("-m", "$.machine") in the error for an unknown name. */
int tf_catalog_find(int kind, const char *name, const char *where, char *path, size_t size, tf_error *err);

/* The one loader of machines and worksets by name: tf_catalog_find, then
 * tf_machine_load or tf_workset_load; NULL with *err.  The caller frees
 * the result (tf_machine_free, tf_workset_free).  `tf_load` (one
 * request's pair), the batch cache and the library's "machine" and
 * "workset" requests all load through it. */
void *tf_catalog_load(int kind, const char *name, const char *where, tf_error *err);

/* The shipped names, sorted; the caller frees each and the array. */
char **tf_catalog_list(int kind, size_t *n);
void tf_catalog_list_free(char **names, size_t n);

#endif
