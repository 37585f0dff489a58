/* Running driver code that may crash, abort, hang or exit in a child
 * process, so that it cannot take tilefit (or a program using the
 * library) with it: the child's answer comes back through a pipe as plain
 * bytes, and the parent waits at most a timeout. */
#ifndef TF_SOLVER_PROBE_CHILD_H
#define TF_SOLVER_PROBE_CHILD_H

#include <stddef.h>

#include "model/core/error.h"

/* What the child runs: fills out[0..size) or *err, returns 0 or -1. */
typedef int (*tf_child_fn)(void *ctx, void *out, tf_error *err);

/* Runs fn in a child; out and *err are what it filled.  A child that
 * dies of a signal, exits before answering, or has not answered after
 * timeout_s seconds (killed then) is an error naming `what` (TF_EINPUT,
 * "no GPU: ..."). */
int tf_run_in_child(tf_child_fn fn, void *ctx, void *out, size_t size, double timeout_s, const char *what,
                    tf_error *err);

#endif
