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

#include "model/core/alloc.h"
#include "model/core/json.h"
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

/* The merge in progress: every part's text and the point lines found. */
struct merge {
  char *const *parts;
  char **texts;
  struct mline *lines;
  size_t n, cap, total;
  int have_total, fmt, format;
  const char *header;
  size_t header_len;
};

/* One point line of part i: where it goes, and that it is of this sweep. */
static int add_line(struct merge *m, size_t i, const char *t, size_t llen, size_t lineno, int csv, tf_error *err) {
  size_t index, tot;
  const char *part = m->parts[i];
  if (tf_sweep_line_position(t, csv, &index, &tot))
    return tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu is not a sweep line", part, lineno);
  if (m->have_total && tot != m->total)
    return tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu belongs to a sweep of %zu points, not %zu", part, lineno,
                        tot, m->total);
  if (index >= tot)
    return tf_error_set(err, TF_EINPUT, NULL, "%s: line %zu has index %zu of %zu", part, lineno, index, tot);
  m->total = tot, m->have_total = 1;
  struct mline ml = {index, t, llen, i};
  TF_PUSH(m->lines, m->n, m->cap, ml);
  return 0;
}

/* Its format must be the others' (or the one asked for). */
static int check_format(struct merge *m, size_t i, int csv, tf_error *err) {
  if (m->fmt == TF_FORMAT_TEXT)
    m->fmt = csv ? TF_FORMAT_CSV : TF_FORMAT_JSONL;
  if (csv == (m->fmt == TF_FORMAT_CSV))
    return 0;
  return tf_error_set(err, TF_EINPUT, NULL, "%s is %s, not %s like the %s", m->parts[i], csv ? "CSV" : "JSONL",
                      m->fmt == TF_FORMAT_CSV ? "CSV" : "JSONL",
                      m->format == TF_FORMAT_TEXT ? "parts before it" : "format asked for");
}

/* Part i: read whole, its lines added (a CSV header kept once). */
static int read_part(struct merge *m, size_t i, tf_error *err) {
  size_t len;
  if (!(m->texts[i] = tf_read_file_limit(m->parts[i], 0, &len, err)))
    return -1;
  const char *t = m->texts[i], *end = t + len;
  if (len && end[-1] != '\n')
    return tf_error_set(err, TF_EINPUT, NULL,
                        "%s: the last line is torn (an interrupted shard: run it again with @{resume} first)",
                        m->parts[i]);
  if (!len)
    return 0; /* a shard with no points */
  int csv = t[0] != '{';
  if (check_format(m, i, csv, err))
    return -1;
  for (size_t lineno = 1; t < end; lineno++) {
    const char *nl = memchr(t, '\n', (size_t)(end - t));
    size_t llen = (size_t)(nl - t) + 1;
    if (csv && lineno == 1 && !m->header) {
      m->header = t, m->header_len = llen;
    } else if (csv && lineno == 1) {
      if (llen != m->header_len || memcmp(t, m->header, llen))
        return tf_error_set(err, TF_EINPUT, NULL, "%s: its CSV header differs from %s's (another sweep?)", m->parts[i],
                            m->parts[0]);
    } else if (add_line(m, i, t, llen, lineno, csv, err)) {
      return -1;
    }
    t = nl + 1;
  }
  return 0;
}

/* Every index from 0 to total - 1 exactly once. */
static int check_complete(struct merge *m, tf_error *err) {
  qsort(m->lines, m->n, sizeof *m->lines, by_index);
  for (size_t k = 0; k < m->n; k++) {
    if (k && m->lines[k].index == m->lines[k - 1].index)
      return tf_error_set(err, TF_EINPUT, NULL, "point %zu appears twice (%s and %s)", m->lines[k].index,
                          m->parts[m->lines[k - 1].part], m->parts[m->lines[k].part]);
    if (m->lines[k].index != k)
      return tf_error_set(err, TF_EINPUT, NULL,
                          "point %zu is missing (%zu of %zu points in the parts): a shard is missing or incomplete", k,
                          m->n, m->total);
  }
  if (m->n != m->total)
    return tf_error_set(err, TF_EINPUT, NULL,
                        "point %zu is missing (%zu of %zu points in the parts): a shard is missing or incomplete", m->n,
                        m->n, m->total);
  return 0;
}

/* The header and the lines in order, in batches of about 1 MiB. */
static int write_lines(const struct merge *m, tf_output *out, tf_error *err) {
  char *buf = NULL;
  size_t len = 0, cap = 0;
  int rc = 0;
  if (m->header) {
    TF_NREALLOC(buf, m->header_len + 1);
    cap = m->header_len + 1;
    memcpy(buf, m->header, m->header_len);
    len = m->header_len;
  }
  for (size_t k = 0; k <= m->n && !rc; k++) {
    if (k == m->n || len + m->lines[k].len > (1u << 20)) {
      rc = tf_output_write(out, buf, len, err);
      len = 0;
    }
    if (k == m->n)
      break;
    if (len + m->lines[k].len > cap) {
      cap = 2 * (len + m->lines[k].len);
      TF_NREALLOC(buf, cap);
    }
    memcpy(buf + len, m->lines[k].text, m->lines[k].len);
    len += m->lines[k].len;
  }
  free(buf);
  return rc;
}

/* To standard output, or to out_file whole. */
static int write_merged(const struct merge *m, const char *out_file, tf_error *err) {
  tf_output out;
  if (tf_output_open(&out, out_file, TF_OUTPUT_WHOLE, "@output", err))
    return -1;
  if (write_lines(m, &out, err)) {
    tf_output_abandon(&out);
    return -1;
  }
  return tf_output_commit(&out, err);
}

int tf_sweep_merge(char *const *parts, size_t nparts, const char *out_file, int format, size_t *nlines, tf_error *err) {
  struct merge m;
  memset(&m, 0, sizeof m);
  m.parts = parts;
  m.texts = tf_nalloc(nparts + 1, sizeof *m.texts);
  m.fmt = m.format = format;
  int rc = 0;
  for (size_t i = 0; i < nparts && !rc; i++)
    rc = read_part(&m, i, err);
  if (!rc)
    rc = check_complete(&m, err);
  if (!rc)
    rc = write_merged(&m, out_file, err);
  if (nlines)
    *nlines = m.n;
  for (size_t i = 0; i < nparts; i++)
    free(m.texts[i]);
  free(m.texts);
  free(m.lines);
  return rc;
}
