/* The JSON writer (model/core/json_out.h): nesting and commas, string escapes
 * (control characters, non-ASCII, bytes that are not UTF-8), int64
 * extremes, doubles, raw values, records, and misuse reported instead of
 * written.  Every output that should be JSON is parsed back. */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/json.h"
#include "model/core/json_out.h"
#include "tests/suites.h"

/* A writer over memory: out() closes it and returns the text written. */
struct mem {
  FILE *f;
  char *buf;
  size_t len;
};

static void mem_open(struct mem *m, tf_json_out *w) {
  m->buf = NULL;
  m->f = open_memstream(&m->buf, &m->len);
  ck_assert_ptr_nonnull(m->f);
  tf_json_out_init(w, m->f);
}

static char *out(struct mem *m) {
  fclose(m->f);
  return m->buf;
}

/* text parses as JSON (tf_json_parse: also no duplicate keys) */
static void assert_json(const char *text) {
  tf_error err;
  tf_error_init(&err);
  cJSON *root = tf_json_parse(text, strlen(text), "mem", &err);
  ck_assert_msg(root != NULL, "not JSON: %s (%s)", text, err.msg);
  cJSON_Delete(root);
}

START_TEST(test_nesting) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_object(&w);
  tf_json_out_key_int(&w, "a", 1);
  tf_json_out_key_array(&w, "b");
  tf_json_out_int(&w, 2);
  tf_json_out_object(&w);
  tf_json_out_end(&w);
  tf_json_out_array(&w);
  tf_json_out_end(&w);
  tf_json_out_string(&w, "x");
  tf_json_out_end(&w);
  tf_json_out_key_object(&w, "c");
  tf_json_out_key_bool(&w, "t", 1);
  tf_json_out_key_bool(&w, "f", 0);
  tf_json_out_key(&w, "n");
  tf_json_out_null(&w);
  tf_json_out_key_string(&w, "s", NULL);
  tf_json_out_end(&w);
  tf_json_out_end(&w);
  ck_assert_ptr_null(tf_json_out_error(&w));
  char *text = out(&m);
  ck_assert_str_eq(text, "{\"a\":1,\"b\":[2,{},[],\"x\"],\"c\":{\"t\":true,\"f\":false,\"n\":null,\"s\":null}}");
  assert_json(text);
  free(text);
}
END_TEST

/* the deepest nesting allowed, then one more level: refused */
START_TEST(test_depth) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  for (int i = 0; i < TF_JSON_OUT_DEPTH; i++)
    tf_json_out_array(&w);
  ck_assert_ptr_null(tf_json_out_error(&w));
  tf_json_out_array(&w);
  ck_assert_ptr_nonnull(tf_json_out_error(&w));
  char *text = out(&m);
  ck_assert_uint_eq(strlen(text), TF_JSON_OUT_DEPTH);
  free(text);
}
END_TEST

static const struct {
  const char *in, *want;
} escapes[] = {
    {"plain", "\"plain\""},
    {"q\"b\\", "\"q\\\"b\\\\\""},
    {"n\nt\tr\r", "\"n\\nt\\tr\\u000d\""},
    {"\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\""},
    {"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80\""}, /* UTF-8 as it is */
    {"bad\xff", "\"bad\\ufffd\""},                                                                  /* not UTF-8 */
    {"cut\xc3", "\"cut\\ufffd\""},      /* a sequence cut short */
    {"\xc0\xaf", "\"\\ufffd\\ufffd\""}, /* an overlong form */
    {"", "\"\""},
};
#define NESCAPES (sizeof escapes / sizeof *escapes)

START_TEST(test_escapes) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_string(&w, escapes[_i].in);
  char *text = out(&m);
  ck_assert_str_eq(text, escapes[_i].want);
  assert_json(text);
  free(text);
  mem_open(&m, &w); /* a key is escaped the same way */
  tf_json_out_object(&w);
  tf_json_out_key_int(&w, escapes[_i].in, 0);
  tf_json_out_end(&w);
  text = out(&m);
  ck_assert_int_eq(strncmp(text + 1, escapes[_i].want, strlen(escapes[_i].want)), 0);
  assert_json(text);
  free(text);
}
END_TEST

/* The members' one-write paths (key_int, key_string) against what the
 * escapes table wants, with a comma between: every escape, a NULL value,
 * the extreme integers, and a key longer than the one-write buffer. */
static void assert_members(const char *key, const char *want_key, const char *value, const char *want_value) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_object(&w);
  tf_json_out_key_int(&w, key, INT64_MIN);
  tf_json_out_key_string(&w, key, value);
  tf_json_out_key_string(&w, key, NULL);
  tf_json_out_key(&w, key);
  tf_json_out_int(&w, INT64_MAX);
  tf_json_out_end(&w);
  char *text = out(&m);
  size_t size = 4 * strlen(want_key) + strlen(want_value) + 128;
  char *want = malloc(size);
  snprintf(want, size, "{%s:-9223372036854775808,%s:%s,%s:null,%s:9223372036854775807}", want_key, want_key, want_value,
           want_key, want_key);
  ck_assert_str_eq(text, want);
  free(want);
  free(text);
}

START_TEST(test_members) {
  assert_members(escapes[_i].in, escapes[_i].want, escapes[_i].in, escapes[_i].want);
  assert_members("k", "\"k\"", escapes[_i].in, escapes[_i].want);
  char key[301], want[304];
  memset(key, 'k', 300);
  key[300] = 0;
  snprintf(want, sizeof want, "\"%s\"", key);
  assert_members(key, want, escapes[_i].in, escapes[_i].want);
  assert_members("k", "\"k\"", key, want);
}
END_TEST

START_TEST(test_numbers) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_array(&w);
  tf_json_out_int(&w, INT64_MAX);
  tf_json_out_int(&w, INT64_MIN);
  tf_json_out_int(&w, 0);
  tf_json_out_int(&w, -1);
  tf_json_out_double(&w, 0.1);
  tf_json_out_double(&w, 1.0 / 0.0);
  tf_json_out_fixed(&w, 1.5, 6);
  tf_json_out_end(&w);
  char *text = out(&m);
  ck_assert_str_eq(text, "[9223372036854775807,-9223372036854775808,0,-1,0.10000000000000001,null,1.500000]");
  free(text);
}
END_TEST

START_TEST(test_raw_and_records) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  const char *line = "{\"machine\": \"b200\"}  trailing";
  tf_json_out_object(&w);
  tf_json_out_key(&w, "config");
  tf_json_out_raw(&w, line, 19);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
  tf_json_out_array(&w);
  tf_json_out_raw(&w, "1", 1);
  tf_json_out_raw(&w, "[2]", 3);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
  ck_assert_ptr_null(tf_json_out_error(&w));
  char *text = out(&m);
  ck_assert_str_eq(text, "{\"config\":{\"machine\": \"b200\"}}\n[1,[2]]\n");
  free(text);
}
END_TEST

/* an array with an element a line: "[\n" E ",\n" E "\n]", empty "[\n]" */
START_TEST(test_array_lines) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_object(&w);
  tf_json_out_key_array_lines(&w, "rows");
  for (int i = 0; i < _i; i++) {
    tf_json_out_object(&w);
    tf_json_out_key_int(&w, "i", i);
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
  ck_assert_ptr_null(tf_json_out_error(&w));
  char *text = out(&m);
  static const char *const want[] = {"{\"rows\":[\n]}\n", "{\"rows\":[\n{\"i\":0}\n]}\n",
                                     "{\"rows\":[\n{\"i\":0},\n{\"i\":1}\n]}\n"};
  ck_assert_str_eq(text, want[_i]);
  assert_json(text);
  free(text);
}
END_TEST

/* members written into an object (array) a caller opened */
START_TEST(test_inside) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  tf_json_out_inside(&w, m.f, TF_JSON_OUT_OBJECT, _i);
  tf_json_out_key_int(&w, "k", 1);
  tf_json_out_key_array(&w, "a");
  tf_json_out_end(&w);
  tf_json_out_end(&w); /* the caller's object is not the writer's to close */
  ck_assert_ptr_nonnull(tf_json_out_error(&w));
  char *text = out(&m);
  ck_assert_str_eq(text, _i ? ",\"k\":1,\"a\":[]" : "\"k\":1,\"a\":[]");
  free(text);
  mem_open(&m, &w);
  tf_json_out_inside(&w, m.f, TF_JSON_OUT_ARRAY, _i);
  tf_json_out_int(&w, 3);
  tf_json_out_int(&w, 4);
  text = out(&m);
  ck_assert_str_eq(text, _i ? ",3,4" : "3,4");
  free(text);
}
END_TEST

/* Each misuse: what was written before it stays, nothing of it or after
 * it is written, and the error names it. */
static void misuse_key_outside(tf_json_out *w) {
  tf_json_out_array(w);
  tf_json_out_key(w, "k");
}
static void misuse_key_top(tf_json_out *w) { tf_json_out_key(w, "k"); }
static void misuse_value_no_key(tf_json_out *w) {
  tf_json_out_object(w);
  tf_json_out_int(w, 1);
}
static void misuse_two_keys(tf_json_out *w) {
  tf_json_out_object(w);
  tf_json_out_key(w, "a");
  tf_json_out_key(w, "b");
}
static void misuse_end_after_key(tf_json_out *w) {
  tf_json_out_object(w);
  tf_json_out_key(w, "a");
  tf_json_out_end(w);
}
static void misuse_end_nothing(tf_json_out *w) { tf_json_out_end(w); }
static void misuse_two_top(tf_json_out *w) {
  tf_json_out_int(w, 1);
  tf_json_out_int(w, 2);
}
static void misuse_line_open(tf_json_out *w) {
  tf_json_out_object(w);
  tf_json_out_line(w);
}

static const struct {
  void (*run)(tf_json_out *w);
  const char *written, *error;
} misuses[] = {
    {misuse_key_outside, "[", "a key outside an object"},
    {misuse_key_top, "", "a key outside an object"},
    {misuse_value_no_key, "{", "a value in an object without its key"},
    {misuse_two_keys, "{\"a\":", "a key after a key"},
    {misuse_end_after_key, "{\"a\":", "closing an object after a key without its value"},
    {misuse_end_nothing, "", "closing a value that is not open"},
    {misuse_two_top, "1", "a second value at the top level of a record"},
    {misuse_line_open, "{", "a record ends before its value does"},
};
#define NMISUSES (sizeof misuses / sizeof *misuses)

START_TEST(test_misuse) {
  struct mem m;
  tf_json_out w;
  mem_open(&m, &w);
  misuses[_i].run(&w);
  ck_assert_ptr_nonnull(tf_json_out_error(&w));
  ck_assert_str_eq(tf_json_out_error(&w), misuses[_i].error);
  /* later calls are no-ops, and the first error is kept */
  tf_json_out_end(&w);
  tf_json_out_string(&w, "after");
  tf_json_out_key(&w, "after");
  ck_assert_str_eq(tf_json_out_error(&w), misuses[_i].error);
  char *text = out(&m);
  ck_assert_str_eq(text, misuses[_i].written);
  free(text);
}
END_TEST

Suite *json_out_suite(void) {
  Suite *s = suite_create("json_out");
  TCase *write = tcase_create("Write");
  tcase_set_timeout(write, 30);
  tcase_add_test(write, test_nesting);
  tcase_add_test(write, test_depth);
  tcase_add_loop_test(write, test_escapes, 0, NESCAPES);
  tcase_add_loop_test(write, test_members, 0, NESCAPES);
  tcase_add_test(write, test_numbers);
  tcase_add_test(write, test_raw_and_records);
  tcase_add_loop_test(write, test_array_lines, 0, 3);
  tcase_add_loop_test(write, test_inside, 0, 2);
  suite_add_tcase(s, write);
  TCase *bad = tcase_create("Misuse");
  tcase_set_timeout(bad, 30);
  tcase_add_loop_test(bad, test_misuse, 0, NMISUSES);
  suite_add_tcase(s, bad);
  return s;
}
