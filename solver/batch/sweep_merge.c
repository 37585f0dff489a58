/* tilefit merge: shard outputs joined into the file one run writes.  Each
 * line carries its global index and the sweep's total, so the parts need
 * no spec and may come in any order; a missing, torn or duplicated line is
 * refused. */
#include "sweep.h"

#include "solver/batch/sweep_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/alloc.h"
#include "model/json.h"
#include "solver/output.h"
#include "solver/report.h"

struct mline {
  size_t index;
  const char *text;
  size_t len;
  size_t part;
};

static int by_index(const void *a, const void *b) {
  const struct mline *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

int tf_sweep_merge(char *const *parts, size_t nparts, const char *out_file, int format, size_t *nlines,
                   tf_error *err) {
  char **texts = tf_nalloc(nparts + 1, sizeof *texts);
  struct mline *lines = NULL;
  size_t n = 0, cap = 0, total = 0;
  int have_total = 0, fmt = format, rc = 0;
  const char *header = NULL;
  size_t header_len = 0;
  for (size_t i = 0; i < nparts && !rc; i++) {
    size_t len;
    if (!(texts[i] = tf_read_file_limit(parts[i], 0, &len, err))) {
      rc = -1;
      break;
    }
    const char *t = texts[i], *end = t + len;
    if (len && end[-1] != '\n') {
      rc = tf_error_set(err, TF_EINPUT, NULL, "%s: the last line is torn (an interrupted shard: run it again with "
                        "--resume first)", parts[i]);
      break;
    }
    if (!len)
      continue; /* a shard with no points */
    int csv = t[0] != '{';
    if (fmt == TF_FORMAT_TEXT)
      fmt = csv ? TF_FORMAT_CSV : TF_FORMAT_JSON;
    if (csv != (fmt == TF_FORMAT_CSV)) {
      rc = tf_error_set(err, TF_EINPUT, NULL, "%s is %s, not %s like the %s", parts[i], csv ? "CSV" : "JSONL",
                        fmt == TF_FORMAT_CSV ? "CSV" : "JSONL", format == TF_FORMAT_TEXT ? "parts before it" : "--format");
      break;
    }
    size_t lineno = 0;
    while (t < end && !rc) {
      const char *nl = memchr(t, '\n', (size_t)(end - t));
      size_t llen = (size_t)(nl - t) + 1;
      lineno++;
      if (csv && lineno == 1) {
        if (!header)
          header = t, header_len = llen;
        else if (llen != header_len || memcmp(t, header, llen))
          rc = tf_error_set(err, TF_EINPUT, NULL, "%s: its CSV header differs from %s's (another sweep?)", parts[i],
                            parts[0]);
        t = nl + 1;
        continue;
      }
      size_t index, tot;
      if (tf_sweep_line_position(t, csv, &index, &tot)) {
        rc = tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu is not a sweep line", parts[i], lineno);
        break;
      }
      if (have_total && tot != total) {
        rc = tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu belongs to a sweep of %zu points, not %zu", parts[i],
                          lineno, tot, total);
        break;
      }
      if (index >= tot) {
        rc = tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu has index %zu of %zu", parts[i], lineno, index, tot);
        break;
      }
      total = tot, have_total = 1;
      struct mline m = {index, t, llen, i};
      TF_PUSH(lines, n, cap, m);
      t = nl + 1;
    }
  }
  if (!rc) {
    qsort(lines, n, sizeof *lines, by_index);
    for (size_t k = 0; k < n && !rc; k++) {
      if (k && lines[k].index == lines[k - 1].index)
        rc = tf_error_set(err, TF_EINPUT, NULL, "point %zu appears twice (%s and %s)", lines[k].index,
                          parts[lines[k - 1].part], parts[lines[k].part]);
      else if (lines[k].index != k)
        rc = tf_error_set(err, TF_EINPUT, NULL,
                          "point %zu is missing (%zu of %zu points in the parts): a shard is missing or incomplete", k,
                          n, total);
    }
    if (!rc && n != total)
      rc = tf_error_set(err, TF_EINPUT, NULL,
                        "point %zu is missing (%zu of %zu points in the parts): a shard is missing or incomplete", n,
                        n, total);
  }
  if (!rc) {
    char tmp[4200];
    int fd = 1;
    if (out_file) {
      snprintf(tmp, sizeof tmp, "%s.tmp%ld", out_file, (long)getpid());
      fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (fd < 0)
        rc = tf_error_set(err, TF_EINPUT, "-o", "cannot write %s: %s", tmp, strerror(errno));
    } else {
      fflush(stdout);
    }
    /* write in batches of about 1 MiB */
    char *buf = NULL;
    size_t len = 0, bcap = 0;
    if (!rc && header) {
      TF_NREALLOC(buf, header_len + 1);
      bcap = header_len + 1;
      memcpy(buf, header, header_len);
      len = header_len;
    }
    for (size_t k = 0; k <= n && !rc; k++) {
      if (k == n || len + lines[k].len > (1u << 20)) {
        if (tf_write_all(fd, buf, len))
          rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", out_file ? tmp : "standard output",
                            strerror(errno));
        len = 0;
      }
      if (k == n)
        break;
      if (len + lines[k].len > bcap) {
        bcap = 2 * (len + lines[k].len);
        TF_NREALLOC(buf, bcap);
      }
      memcpy(buf + len, lines[k].text, lines[k].len);
      len += lines[k].len;
    }
    free(buf);
    if (out_file && fd >= 0) {
      if (close(fd) && !rc)
        rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot write %s: %s", tmp, strerror(errno));
      if (!rc && rename(tmp, out_file))
        rc = tf_error_set(err, TF_EINPUT, "-o", "cannot write %s: %s", out_file, strerror(errno));
      if (rc)
        unlink(tmp);
    }
  }
  if (nlines)
    *nlines = n;
  for (size_t i = 0; i < nparts; i++)
    free(texts[i]);
  free(texts);
  free(lines);
  return rc;
}
