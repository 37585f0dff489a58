/* Errors travel up as values.  A tf_error is filled once, by the first
 * failure, and printed only by the front ends (the command line's
 * solver/cli/fail.c, the JSON API's error answer in solver/api_json.c).
 * Reporting an error never allocates: the fields are fixed buffers. */
#ifndef TF_MODEL_ERROR_H
#define TF_MODEL_ERROR_H

#include <stddef.h>

enum tf_status {
  TF_OK = 0,
  TF_EINPUT,    /* bad input or usage: exit 2 */
  TF_ESOLVER,   /* the solver failed or ran out of time: exit 3 */
  TF_EINTERNAL, /* a broken invariant, e.g. an answer failed verification: exit 3 */
  TF_EOUTPUT,   /* an output that cannot be written (full disk, closed stdout): exit 3 */
  TF_ENOMEM,    /* out of memory: exit 3 */
};

/* Where an error is: `file` and `path` (a JSON path, "line 3: $.params.d"),
 * or `at`, the request field or command option it is in, by its key
 * ("top", "fix", "machine": model/input/request.h's and
 * solver/command_options.h's tables), which each front end spells in its
 * own terms (the command line --top, the JSON API $.top, Python top).  The
 * library names no command-line flag: a path "@KEY" handed to
 * tf_error_set or tf_error_set_path (or kept as a request item's `where`,
 * to become one) is stored as `at`, and a message names one as "@{KEY}"
 * ("bound it with @{fix} or @{require}"), which tf_error_spell spells. */
typedef struct tf_error {
  int code;       /* enum tf_status */
  char file[256]; /* "model/worksets/fa4-fwd.json", or "" */
  char path[160]; /* "$.buffers[3].size", or "" */
  char at[32];    /* "top", or "": see above */
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
/* Names the request field or option `key` as what the error is about
 * (where `path` is elsewhere: the workset's "$.arch" for any_arch), when
 * nothing is named yet. */
void tf_error_set_at(tf_error *err, const char *key);

/* A front end's spelling of a field or option by its key ("top" ->
 * "--top"), written to buf; NULL when it has none (the key stands). */
typedef const char *(*tf_error_speller)(const char *key, char *buf, size_t size);
/* Spells err's field or option the front end's way: `at` becomes the path
 * when there is none, and each "@{KEY}" of the message its spelling
 * (spell NULL: the key itself). */
void tf_error_spell(tf_error *err, tf_error_speller spell);

/* "file: path: msg" with empty parts left out, on one line: control
 * characters (a raw newline in a key of the input) are escaped; `at` and
 * "@{KEY}" in the message, unless a front end spelled them first
 * (tf_error_spell), stand as the key ("top: ..."). */
void tf_error_format(const tf_error *err, char *buf, size_t size);

#endif
