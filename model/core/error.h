/* Errors travel up as values.  A tf_error is filled once, by the first
 * failure, and printed only by the front end (solver/cli/cli.c).  Reporting an
 * error never allocates: the fields are fixed buffers. */
#ifndef TF_MODEL_ERROR_H
#define TF_MODEL_ERROR_H

#include <stddef.h>

enum tf_status {
  TF_OK = 0,
  TF_EINPUT,     /* bad input or usage: exit 2 */
  TF_ESOLVER,    /* the solver failed or ran out of time: exit 3 */
  TF_EINTERNAL,  /* a broken invariant, e.g. an answer failed verification: exit 3 */
  TF_EOUTPUT,    /* an output that cannot be written (full disk, closed stdout): exit 3 */
  TF_ENOMEM,     /* out of memory: exit 3 */
};

typedef struct tf_error {
  int code;        /* enum tf_status */
  char file[256];  /* "model/worksets/fa4-fwd.json", or "" */
  char path[160];  /* "$.buffers[3].size", "--fix", or "" */
  char msg[640];
} tf_error;

void tf_error_init(tf_error *err);

/* Fills *err unless it already holds an error (the first error wins) and
 * returns -1, so that a call site reads `return tf_error_set(...)`.
 * `path` may be NULL.  A NULL err is allowed and ignored. */
int tf_error_set(tf_error *err, int code, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Adds the file name, or a path, where the field is still empty: the
 * loader knows the file, the leaf validator does not. */
void tf_error_set_file(tf_error *err, const char *file);
void tf_error_set_path(tf_error *err, const char *path);

/* "file: path: msg" with empty parts left out, on one line: control
 * characters (a raw newline in a key of the input) are escaped. */
void tf_error_format(const tf_error *err, char *buf, size_t size);

#endif
