/* The one line reader of every line-oriented input (JSON Lines problem
 * lists, validation cases, prune lists, sweep files read by plot and
 * tilefit's library): lines of at most TF_MAX_LINE_BYTES, a longer one an
 * input error (exit 2) naming the line, running out of memory an error
 * (TF_ENOMEM), never taken for the end of the file (docs/reliability.md). */
#ifndef TF_MODEL_LINES_H
#define TF_MODEL_LINES_H

#include <stddef.h>
#include <stdio.h>

#include "model/core/error.h"

#define TF_MAX_LINE_BYTES (16u << 20) /* bytes before the newline: one JSON document, the size of a JSON file */

typedef struct tf_line_reader {
  FILE *f;
  char *buf;
  size_t cap;
  size_t lineno; /* of the line last read, 1-based */
} tf_line_reader;

void tf_line_reader_init(tf_line_reader *r, FILE *f);
void tf_line_reader_release(tf_line_reader *r);

/* The next line, with its newline if it has one, NUL-terminated in the
 * reader's buffer: 1 and *line, *len; 0 at the end of the file, -1 with *err
 * (a line longer than the limit, a read error, no memory). */
int tf_line_read(tf_line_reader *r, const char **line, size_t *len, tf_error *err);

/* The length of the line starting at text (up to and with its newline, or
 * to end): -1 with *err when it exceeds TF_MAX_LINE_BYTES. */
int tf_line_in_text(const char *text, const char *end, size_t lineno, size_t *len, tf_error *err);

#endif
