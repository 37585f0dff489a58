/* Every output file tilefit writes goes through here (docs/reliability.md,
 * "Output files"):
 *   - a regular file (or a new one) is written whole or not at all: to an
 *     unguessable temporary name in the target's directory, created with
 *     O_EXCL|O_NOFOLLOW and no longer than the directory's NAME_MAX, given
 *     the target's mode, renamed over the target once every write and the
 *     close succeeded, and removed on any failure;
 *   - a symbolic link is followed: the file it names is replaced, the link
 *     stays;
 *   - anything else (a FIFO, /dev/null, a device) is written through in
 *     place, never replaced;
 *   - "-" or NULL is standard output.
 * A failure is TF_EOUTPUT (exit 3) naming the option and the file. */
#ifndef TF_SOLVER_OUTPUT_H
#define TF_SOLVER_OUTPUT_H

#include <signal.h>
#include <stddef.h>

#include "model/core/error.h"

/* SIGPIPE and SIGXFSZ blocked in the calling thread around writes, and the
 * ones those writes raised taken before the thread's mask is restored: a
 * reader gone and a file-size limit are EPIPE and EFBIG, never the death
 * of the caller's process (every write below does this; GLPK's writes of
 * a model, solver/glpk.c, hold it too). */
typedef struct tf_write_guard {
  sigset_t set, old;
  int pending[2]; /* pending before the writes: the caller's, left as they were */
} tf_write_guard;

void tf_write_guard_hold(tf_write_guard *g);
void tf_write_guard_release(tf_write_guard *g);

typedef struct tf_output {
  int fd;            /* -1 once closed */
  int how;           /* enum in output.c */
  char *target;      /* the file replaced or written (a link resolved) */
  char *tmp;         /* the temporary name while writing whole, else NULL */
  const char *name;  /* as the user gave it, for messages */
  const char *where; /* "-o", "--lp", ... */
} tf_output;

/* TF_OUTPUT_RESUME: a regular target is opened in place for reading and
 * appending (sweep --resume: the file is its own checkpoint). */
#define TF_OUTPUT_WHOLE 0
#define TF_OUTPUT_RESUME 1

int tf_output_open(tf_output *o, const char *file, int flags, const char *where, tf_error *err);
/* An open descriptor the caller owns (a pipe, a socket), written through
 * in place: a duplicate of it is written and closed, `fd` stays open. */
int tf_output_open_fd(tf_output *o, int fd, const char *where, tf_error *err);
/* Every byte or an error. */
int tf_output_write(tf_output *o, const void *buf, size_t len, tf_error *err);
/* Closes and, when writing whole, renames over the target; on failure
 * nothing is left and the target is as it was. */
int tf_output_commit(tf_output *o, tf_error *err);
/* o[0..n): every file closed, and only when every close succeeded is
 * each renamed over its target, so that a failure leaves every target as
 * it was (short of a rename failing after others succeeded, which needs
 * the directory to change under us); on failure the temporary files are
 * removed.  Each o[i] is released either way. */
int tf_output_commit_all(tf_output *o, size_t n, tf_error *err);
/* Closes and removes what was written (whole) or leaves it (in place). */
void tf_output_abandon(tf_output *o);

/* Writes all of buf, retrying short writes and EINTR; -1 with errno set.
 * A reader that went away is EPIPE, never SIGPIPE, whatever the caller's
 * disposition of it (the signal is blocked in the writing thread for the
 * call and the one the write raised is consumed); so is every write of
 * this module. */
int tf_write_all(int fd, const char *buf, size_t len);

/* open, write, commit: `text` to `file` ("-" or NULL: standard output). */
int tf_write_file_whole(const char *file, const char *text, size_t len, const char *where, tf_error *err);

/* 1 when `out` names the file `in` names (after links; "-" is standard
 * output for out and standard input for in), else 0. */
int tf_output_is(const char *out, const char *in);

#endif
