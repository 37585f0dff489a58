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

/* The length (1-4) of the valid UTF-8 character at s, at most avail bytes
 * long, or 0 when the bytes there are not one (a stray continuation, an
 * overlong form, a surrogate, a cut sequence). */
size_t tf_utf8_char(const char *s, size_t avail);

/* Appends s at buf[*n] (size bytes in all, kept NUL-terminated) fit for a
 * terminal and for any UTF-8 reader: control characters as "\n", "\t",
 * "\x07", bytes that are not UTF-8 as "\xff"; stops short rather than cut
 * a character or an escape in two.  The one escaper of every message.
 * Returns how many bytes of s it took. */
size_t tf_escape_put(char *buf, size_t size, size_t *n, const char *s);

/* Why s cannot be a name or description that reaches a terminal (longer
 * than max bytes, a control character, not UTF-8), or NULL when it can. */
const char *tf_text_unfit(const char *s, size_t max);

/* snprintf(dst, size, "%s", src) that never cuts a UTF-8 character in two. */
void tf_copy_text(char *dst, size_t size, const char *src);

/* s escaped as above into buf, with "..." when it had to be cut. */
const char *tf_escape(char *buf, size_t size, const char *s);

/* Text built through a FILE *: tf_text_open, write, tf_text_close. */
typedef struct tf_text {
  struct tf_text_buf *b; /* the stream's state, on the heap: a stream an allocation failure
                            abandons (model/core/alloc.h) never writes into a dead stack frame */
  FILE *f;
} tf_text;

FILE *tf_text_open(tf_text *t);
/* Returns the text (the caller frees it) and its length in *len (may be NULL). */
char *tf_text_close(tf_text *t, size_t *len);
/* The text so far (the stream flushed), still the stream's; its length in
 * *len.  Valid until the next write. */
const char *tf_text_peek(tf_text *t, size_t *len);

#endif
