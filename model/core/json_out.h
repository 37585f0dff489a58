/* The JSON writer: every JSON output of tilefit is written through it
 * (but `tilefit probe`'s machine file, which the JSON parser's own
 * printer writes, indented, from the tree the probe builds).  A
 * tf_json_out over a FILE * tracks nesting and commas itself, so that no
 * caller writes a brace, bracket, comma, colon or quote by hand.  Output
 * is compact (no white space), as every JSON output has always been, but
 * for an array opened with tf_json_out_array_lines, which puts each
 * element on a line of its own ("[\n" E ",\n" E "\n]"; empty "[\n]"):
 * --top's answers, validate's cases.
 *
 *   tf_json_out w;
 *   tf_json_out_init(&w, f);
 *   tf_json_out_object(&w);
 *   tf_json_out_key_int(&w, "stages", 4);      // "stages":4
 *   tf_json_out_key(&w, "names");
 *   tf_json_out_array(&w);
 *   tf_json_out_string(&w, "K");               // ["K"
 *   tf_json_out_end(&w);                       // ]
 *   tf_json_out_end(&w);                       // }
 *   if (tf_json_out_error(&w)) ...              // a misuse, named
 *
 * Misuse (a key outside an object, a value in an object without its key,
 * a second key, closing what is not open, nesting deeper than
 * TF_JSON_OUT_DEPTH) writes nothing and sets an error the caller reads
 * with tf_json_out_error; the first misuse is kept and every later call
 * is a no-op, so the output ends where it went wrong and is never
 * silently invalid.  The writer never aborts.  Write errors of the FILE
 * are the stream's own (ferror).
 *
 * A producer that writes the members of an object (or the elements of an
 * array) someone else opened starts with tf_json_out_inside: the writer
 * then stands in that value, knows whether members come before, and never
 * closes it. */
#ifndef TF_MODEL_JSON_OUT_H
#define TF_MODEL_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TF_JSON_OUT_DEPTH 32

typedef struct tf_json_out {
  FILE *f;
  int depth;                                  /* open values; 0: top level */
  int floor;                                  /* depth the writer may not close below */
  int key;                                    /* a key was written, its value is due */
  char kind[TF_JSON_OUT_DEPTH + 1];           /* per level: 'o' object, 'a' array, 'l' lines */
  unsigned char count[TF_JSON_OUT_DEPTH + 1]; /* per level: a member came (1) or not (0) */
  const char *error;                          /* the first misuse; NULL: none */
} tf_json_out;

enum { TF_JSON_OUT_OBJECT = 'o', TF_JSON_OUT_ARRAY = 'a' };

/* A writer at the top level of f: one value, then tf_json_out_line for
 * the next of a JSON Lines output. */
void tf_json_out_init(tf_json_out *w, FILE *f);

/* A writer inside an object (TF_JSON_OUT_OBJECT) or array someone else
 * opened in f; `before`: members (elements) were written before, so the
 * first one written here starts with a comma. */
void tf_json_out_inside(tf_json_out *w, FILE *f, int kind, int before);

/* The first misuse, as a sentence ("a key outside an object"), or NULL. */
const char *tf_json_out_error(const tf_json_out *w);

/* Opens an object or array (a value: in an object, after its key). */
void tf_json_out_object(tf_json_out *w);
void tf_json_out_array(tf_json_out *w);
void tf_json_out_array_lines(tf_json_out *w);

/* Closes the innermost open object or array. */
void tf_json_out_end(tf_json_out *w);

/* A member's key, in an object; the next call writes its value. */
void tf_json_out_key(tf_json_out *w, const char *key);

/* Values.  A string is escaped as tf_json_write_string does; NULL is
 * written as null. */
void tf_json_out_string(tf_json_out *w, const char *s);
void tf_json_out_int(tf_json_out *w, int64_t v);
void tf_json_out_bool(tf_json_out *w, int v);
void tf_json_out_null(tf_json_out *w);

/* A double as "%.17g" (exact); NaN and infinities, which JSON lacks, as
 * null.  tf_json_out_fixed: with `places` decimals ("%.6f" seconds). */
void tf_json_out_double(tf_json_out *w, double v);
void tf_json_out_fixed(tf_json_out *w, double v, int places);

/* A value that is already JSON (a configuration line as it was written),
 * the n bytes at json, copied as they are.  The caller vouches for it. */
void tf_json_out_raw(tf_json_out *w, const char *json, size_t n);

/* Key and value in one call. */
void tf_json_out_key_string(tf_json_out *w, const char *key, const char *s);
void tf_json_out_key_int(tf_json_out *w, const char *key, int64_t v);
void tf_json_out_key_bool(tf_json_out *w, const char *key, int v);
void tf_json_out_key_object(tf_json_out *w, const char *key);
void tf_json_out_key_array(tf_json_out *w, const char *key);
void tf_json_out_key_array_lines(tf_json_out *w, const char *key);

/* Ends a JSON Lines record: at the top level, after a whole value, a
 * newline; the next value starts the next record. */
void tf_json_out_line(tf_json_out *w);

/* Writes s as a JSON string literal (the writer's strings, and the one
 * string writer of every JSON output), escaped: '"' and '\' with a
 * backslash, newline and tab as \n and \t, other control characters as
 * \u00XX, bytes that are not UTF-8 as \ufffd (JSON must be UTF-8); valid
 * UTF-8 as it is. */
void tf_json_write_string(FILE *f, const char *s);

#endif
