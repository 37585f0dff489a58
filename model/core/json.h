/* JSON input for machines, worksets and problems: cJSON stays behind this
 * header's functions, and no cJSON pointer outlives a loader.  Every getter
 * takes the JSON path of the value it reads ("$.smem.capacity") so that an
 * error names it.  The path may be NULL: a hot loop then formats it only
 * when the getter fails and adds it with tf_error_set_path, so that no
 * path is formatted for a value that is fine. */
#ifndef TF_MODEL_JSON_H
#define TF_MODEL_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/core/error.h"

#define TF_MAX_FILE_BYTES (16u << 20) /* larger input files are refused */
#define TF_JSON_EXACT ((int64_t)1 << 53)

/* Reads and parses a whole file.  Rejects syntax errors (with line and
 * column), trailing garbage, duplicate keys, numbers with a leading zero
 * and \u0000 in any string or key (it would cut the C string; the error
 * names its JSON path).  The caller owns the result
 * (cJSON_Delete).  On failure returns NULL with err->file set. */
cJSON *tf_json_load(const char *file, tf_error *err);

/* The same for text in memory; `file` only names it in errors. */
cJSON *tf_json_parse(const char *text, size_t len, const char *file, tf_error *err);

/* tf_json_parse of line `line` of `file` (a JSON Lines record): a syntax
 * error's "line L, column C" is the file's ("line 2, column 28: ..."),
 * not the record's own "line 1". */
cJSON *tf_json_parse_line(const char *text, size_t len, const char *file, size_t line, tf_error *err);

/* Reads a whole file into a NUL-terminated buffer the caller frees. */
char *tf_read_file(const char *file, size_t *len, tf_error *err);

/* tf_read_file of a regular file only: a FIFO, a directory or a device is
 * refused at once ("cannot read: a FIFO, not a regular file"), never
 * waited on (a FIFO without a writer would block the open for ever). */
char *tf_read_regular_file(const char *file, size_t *len, tf_error *err);

/* The same with another size limit; 0: none (sweep outputs merged by
 * `tilefit merge` can be far larger than any input). */
char *tf_read_file_limit(const char *file, size_t max, size_t *len, tf_error *err);

/* Calls fn for every line of a JSON Lines file that is not blank, with its
 * 1-based number, and stops at the first non-zero return, which it
 * returns.  A file that cannot be opened or read (a directory, say) is
 * TF_EINPUT naming the file. */
typedef int (*tf_line_fn)(void *ctx, const char *line, size_t len, size_t lineno, tf_error *err);
int tf_jsonl_each(const char *file, tf_line_fn fn, void *ctx, tf_error *err);
/* The same over text already in memory (standard input read whole). */
int tf_jsonl_each_text(const char *text, size_t len, tf_line_fn fn, void *ctx, tf_error *err);

/* Case-sensitive member lookup (cJSON's default lookup ignores case). */
const cJSON *tf_json_member(const cJSON *obj, const char *key);

/* Requires `obj` to be an object whose keys are all in `allowed` (a NULL
 * terminated list) and that has every key in `required` (may be NULL). */
int tf_json_keys(const cJSON *obj, const char *path, const char *const *allowed, const char *const *required,
                 tf_error *err);

/* An integral number within [lo, hi] (and within +-2^53, where doubles are
 * exact).  A boolean is not a number (true is not 1); tf_json_parse has
 * already refused leading zeros. */
int tf_json_int(const cJSON *v, const char *path, int64_t lo, int64_t hi, int64_t *out, tf_error *err);

/* A string; *out borrows from the cJSON tree. */
int tf_json_string(const cJSON *v, const char *path, const char **out, tf_error *err);

/* Path building: "$.a" + "b" -> "$.a.b";  "$.a" + 3 -> "$.a[3]". */
void tf_path_key(char *buf, size_t size, const char *parent, const char *key);
void tf_path_index(char *buf, size_t size, const char *parent, size_t index);

#endif
