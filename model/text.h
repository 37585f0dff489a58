/* Building text in memory, two ways: appending to a fixed buffer without
 * ever pointing past its end (messages), and a growing buffer behind a
 * FILE * (whole output lines, so the writers can write into them). */
#ifndef TF_MODEL_TEXT_H
#define TF_MODEL_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A fixed buffer being filled: text stays NUL-terminated and is cut at
 * size - 1; len never passes size - 1. */
typedef struct tf_strbuf {
  char *buf;
  size_t size, len;
} tf_strbuf;

/* buf[0] = 0; size must be at least 1. */
tf_strbuf tf_strbuf_of(char *buf, size_t size);
void tf_strbuf_printf(tf_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same without printf, for text built for every column and every
 * member read, most never shown (names, JSON paths): a string, a number. */
void tf_strbuf_put(tf_strbuf *b, const char *s);
void tf_strbuf_put_int(tf_strbuf *b, int64_t v);
/* Appends sep first unless the buffer is empty. */
void tf_strbuf_item(tf_strbuf *b, const char *sep, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Text built through a FILE *: tf_text_open, write, tf_text_close. */
typedef struct tf_text {
  char *buf;
  size_t len, cap;
  FILE *f;
} tf_text;

FILE *tf_text_open(tf_text *t);
/* Returns the text (the caller frees it) and its length in *len (may be NULL). */
char *tf_text_close(tf_text *t, size_t *len);

#endif
