/* Writing results whole: a line reaches its file in full or the caller
 * hears why not. */
#ifndef TF_SOLVER_OUTPUT_H
#define TF_SOLVER_OUTPUT_H

#include <stddef.h>

#include "model/error.h"

/* Writes all of buf, retrying short writes and EINTR; -1 with errno set. */
int tf_write_all(int fd, const char *buf, size_t len);

/* Writes `text` to `file` ("-" or NULL: standard output) whole or not at
 * all: to FILE.tmp.PID, then renamed over FILE.  `where` names the option
 * ("-o") in errors. */
int tf_write_file_whole(const char *file, const char *text, size_t len, const char *where, tf_error *err);

#endif
