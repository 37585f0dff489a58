/* --resume: what an earlier run of the same sweep wrote is checked line by
 * line against the points it must be, and the run continues after it. */
#include "solver/batch/sweep_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "model/core/alloc.h"
#include "model/core/text.h"
#include "solver/output.h"
#include "solver/report.h"

struct scan {
  const tf_sweep *s;
  int format;
  const size_t *todo;
  size_t ntodo;
  const char *file;
  char **last; /* the last point line read, a copy */
};

/* A JSON line that does not parse (a byte flipped, two runs' writes
 * interleaved) would be kept as it is: the resumed file would not be the
 * one an uninterrupted run writes. */
static int whole_json(const struct scan *x, const char *line, size_t len, size_t lineno, tf_error *err) {
  cJSON *j = x->format == TF_FORMAT_CSV ? NULL : cJSON_ParseWithLength(line, len);
  int ok = !memchr(line, 0, len) && (x->format == TF_FORMAT_CSV || cJSON_IsObject(j)); /* cJSON reads past a NUL */
  cJSON_Delete(j);
  return ok ? 0
            : tf_error_set(err, TF_EINPUT, NULL,
                           "%s: line %zu is not a whole JSON line (damaged?); not resuming (remove the file to start "
                           "over)",
                           x->file, lineno);
}

/* Is line `lineno`, the done-th point line, the point this sweep has
 * there?  Counts it in *done. */
static int check_line(const struct scan *x, const char *line, size_t len, size_t lineno, size_t *done, tf_error *err) {
  if (x->format == TF_FORMAT_CSV && lineno == 1)
    return strcmp(line, x->s->csv_header) ? tf_error_set(err, TF_EINPUT, NULL,
                                                         "%s: line 1 is not this sweep's CSV header; not resuming "
                                                         "(remove the file to start over)",
                                                         x->file)
                                          : 0;
  if (*done >= x->ntodo)
    return tf_error_set(err, TF_EINPUT, NULL, "%s has more lines than this sweep has points (%zu); not resuming",
                        x->file, x->ntodo);
  size_t i = x->todo[(*done)++], plen;
  char *id = tf_sweep_id(x->s, i);
  tf_text t;
  tf_json_out w;
  tf_sweep_line_prefix(&w, tf_text_open(&t), x->format, i, x->s->npoints, id);
  char *want = tf_text_close(&t, &plen);
  int rc = 0;
  int json = x->format != TF_FORMAT_CSV; /* the prefix's object goes on: its next member follows */
  if (len < plen + json || memcmp(line, want, plen) || (json && line[plen] != ','))
    rc = tf_error_set(err, TF_EINPUT, NULL,
                      "%s: line %zu is not point %zu (%s) of this sweep; not resuming (wrong spec, shard or "
                      "format? remove the file to start over)",
                      x->file, lineno, i, id);
  free(want);
  free(id);
  if (!rc)
    rc = whole_json(x, line, len - 1, lineno, err);
  if (!rc) {
    free(*x->last);
    *x->last = tf_strdup(line);
  }
  return rc;
}

/* Reads what an earlier run wrote: every complete line must be the next
 * point of this sweep; a torn last line is cut off.  Leaves the file
 * offset after the last complete line and returns how many points it has. */
int tf_sweep_resume_scan(const tf_sweep *s, int format, const size_t *todo, size_t ntodo, int fd, const char *file,
                         size_t *done, size_t *torn, char **last, tf_error *err) {
  struct scan x = {s, format, todo, ntodo, file, last};
  *done = 0;
  *torn = 0;
  *last = NULL;
  /* held while this process has the file open: a second run resuming the
   * same file at once would append the same points again */
  if (flock(fd, LOCK_EX | LOCK_NB))
    return tf_error_set(err, TF_EINPUT, "@resume", "%s: %s", file,
                        errno == EWOULDBLOCK ? "another tilefit is writing it (a second @{resume} of the same file)"
                                             : strerror(errno));
  int fd2 = dup(fd);
  FILE *f = fd2 >= 0 ? fdopen(fd2, "r") : NULL;
  if (!f) {
    if (fd2 >= 0)
      close(fd2);
    return tf_error_set(err, TF_EINPUT, NULL, "cannot read %s to resume: %s", file, strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  off_t good = 0;
  ssize_t len;
  int rc = 0;
  while (!rc && (len = getline(&line, &cap, f)) >= 0) {
    if (line[len - 1] != '\n') {
      *torn = (size_t)len; /* a torn last line: the run was killed while writing it */
      break;
    }
    rc = check_line(&x, line, (size_t)len, ++lineno, done, err);
    good += len;
  }
  if (!rc && ferror(f))
    rc = tf_error_set(err, TF_EINPUT, NULL, "cannot read %s to resume: %s", file, strerror(errno));
  free(line);
  fclose(f);
  if (rc)
    return -1;
  if (*torn && ftruncate(fd, good))
    return tf_error_set(err, TF_EOUTPUT, "@output", "cannot cut the torn last line of %s: %s", file, strerror(errno));
  if (lseek(fd, good, SEEK_SET) < 0)
    return tf_error_set(err, TF_EINTERNAL, NULL, "cannot seek in %s: %s", file, strerror(errno));
  if (format == TF_FORMAT_CSV && good == 0 && tf_write_all(fd, s->csv_header, strlen(s->csv_header)))
    return tf_error_set(err, TF_EOUTPUT, "@output", "cannot write %s: %s", file, strerror(errno));
  return 0;
}
