/* Writing results whole: a line reaches its file in full or the caller
 * hears why not. */
#ifndef TF_SOLVER_OUTPUT_H
#define TF_SOLVER_OUTPUT_H

#include <stddef.h>

/* Writes all of buf, retrying short writes and EINTR; -1 with errno set. */
int tf_write_all(int fd, const char *buf, size_t len);

#endif
