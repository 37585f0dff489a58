/* Configuration lists for `tilefit prune`: the three input forms, nested
 * kwargs, and what a bad list says. */
#include <check.h>
#include <string.h>

#include "model/formats/configs.h"
#include "tests/suites.h"

static void parse_ok(const char *text, tf_config_list *l) {
  tf_error err;
  tf_error_init(&err);
  tf_configs_init(l);
  ck_assert_msg(tf_configs_parse(text, strlen(text), "c.jsonl", l, &err) == 0, "%s", err.msg);
}

static void parse_fails(const char *text, const char *path, const char *msg) {
  tf_config_list l;
  tf_error err;
  tf_error_init(&err);
  tf_configs_init(&l);
  ck_assert_int_eq(tf_configs_parse(text, strlen(text), "c.jsonl", &l, &err), -1);
  ck_assert_int_eq(err.code, TF_EINPUT);
  ck_assert_msg(strstr(err.path, path) != NULL, "path '%s' lacks '%s'", err.path, path);
  ck_assert_msg(strstr(err.msg, msg) != NULL, "'%s' lacks '%s'", err.msg, msg);
  tf_configs_release(&l);
}

START_TEST(test_lines) {
  tf_config_list l;
  parse_ok("{\"BLOCK_M\": 128, \"BLOCK_N\": 64, \"num_stages\": 4}\n\n  {\"BLOCK_M\": 64, \"num_warps\": 4}  \n", &l);
  ck_assert_int_eq(l.form, TF_CONFIGS_LINES);
  ck_assert_uint_eq(l.n, 2);
  ck_assert_str_eq(l.items[0].text, "{\"BLOCK_M\": 128, \"BLOCK_N\": 64, \"num_stages\": 4}");
  ck_assert_str_eq(l.items[1].where, "line 3");
  ck_assert_int_eq(tf_config_value(&l.items[0], "num_stages")->value, 4);
  ck_assert_str_eq(tf_config_value(&l.items[1], "num_warps")->where, "line 3: $.num_warps");
  ck_assert_ptr_null(tf_config_value(&l.items[1], "BLOCK_N"));
  tf_configs_release(&l);
}
END_TEST

START_TEST(test_array_and_kwargs) {
  tf_config_list l;
  parse_ok("[{\"kwargs\": {\"BLOCK_M\": 32, \"BLOCK_K\": 64}, \"num_stages\": 2, \"num_warps\": 4}, {\"BLOCK_M\": 16}]",
           &l);
  ck_assert_int_eq(l.form, TF_CONFIGS_ARRAY);
  ck_assert_uint_eq(l.n, 2);
  ck_assert_int_eq(tf_config_value(&l.items[0], "BLOCK_K")->value, 64);
  ck_assert_str_eq(tf_config_value(&l.items[0], "BLOCK_M")->where, "$[0].kwargs.BLOCK_M");
  ck_assert_str_eq(l.items[1].where, "$[1]");
  ck_assert_str_eq(l.items[1].text, "{\"BLOCK_M\":16}");
  tf_configs_release(&l);
}
END_TEST

START_TEST(test_names) {
  tf_config_list l;
  parse_ok("# SM90 kernels\ncutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8\n\n", &l);
  ck_assert_int_eq(l.form, TF_CONFIGS_NAMES);
  ck_assert_uint_eq(l.n, 1);
  ck_assert_str_eq(l.items[0].where, "line 2");
  ck_assert_uint_eq(l.items[0].nvalues, 0);
  tf_configs_release(&l);
}
END_TEST

/* A configuration that does not read is an item with its error (path and
 * reason), and the items after it are still read. */
static void item_fails(const char *text, size_t i, const char *path, const char *msg) {
  tf_config_list l;
  parse_ok(text, &l);
  ck_assert_uint_gt(l.n, i);
  ck_assert_msg(l.items[i].error != NULL, "item %zu of '%s' has no error", i, text);
  ck_assert_msg(strstr(l.items[i].error, path) != NULL, "'%s' lacks '%s'", l.items[i].error, path);
  ck_assert_msg(strstr(l.items[i].error, msg) != NULL, "'%s' lacks '%s'", l.items[i].error, msg);
  ck_assert_uint_eq(l.items[i].nvalues, 0);
  tf_configs_release(&l);
}

/* Triton's configs as Python writes them: a list, comments, trailing
 * commas, True, a keyword that is not an integer; the call kept as
 * written, the values as an object. */
START_TEST(test_python) {
  tf_config_list l;
  parse_ok("import triton\n# tuned on an H100\nconfigs = [\n"
           "    triton.Config({'BLOCK_M': 128, \"BLOCK_N\": 256, 'EVEN_K': True}, num_stages=3, num_warps=8),\n"
           "    # triton.Config({'BLOCK_M': 1}, num_stages=1),\n"
           "    Config({'BLOCK_M': 64,}, num_stages=4, pre_hook=init(a, b),),\n]\n",
           &l);
  ck_assert_int_eq(l.form, TF_CONFIGS_PYTHON);
  ck_assert_uint_eq(l.n, 2);
  ck_assert_str_eq(l.items[0].where, "line 4");
  ck_assert_str_eq(l.items[0].source,
                   "triton.Config({'BLOCK_M': 128, \"BLOCK_N\": 256, 'EVEN_K': True}, num_stages=3, num_warps=8)");
  ck_assert_int_eq(tf_config_value(&l.items[0], "BLOCK_N")->value, 256);
  ck_assert_int_eq(tf_config_value(&l.items[0], "EVEN_K")->value, 1);
  ck_assert_int_eq(tf_config_value(&l.items[0], "num_warps")->value, 8);
  ck_assert_str_eq(l.items[1].where, "line 6");
  ck_assert_ptr_null(tf_config_value(&l.items[1], "pre_hook"));
  ck_assert_str_eq(l.items[1].text, "{\"kwargs\":{\"BLOCK_M\":64},\"num_stages\":4}");
  tf_configs_release(&l);
  parse_fails("configs = [triton.Config(num_stages=3)]", "line 1", "a dict of meta-parameters first");
  parse_fails("\n\ntriton.Config({'BLOCK_M': 'big'}, num_stages=3)", "line 3", "key: integer");
  parse_fails("triton.Config({'BLOCK_M': 64} num_stages=3)", "line 1", "',' or ')'");
}
END_TEST

START_TEST(test_errors) {
  item_fails("{\"BLOCK_M\": 12.5}", 0, "line 1: $.BLOCK_M", "integ");
  item_fails("{\"BLOCK_M\": 128}\n{\"BLOCK_M\": \"x\"}", 1, "line 2: $.BLOCK_M", "");
  item_fails("{\"BLOCK_M\": 128}\nnot json\n{\"BLOCK_M\": 64}", 1, "line 2", "");
  item_fails("[1, 2]", 0, "$[0]", "configuration object");
  item_fails("{\"kwargs\": {\"a\": 1}, \"a\": 2}", 0, "line 1: $.a", "twice");
  item_fails("cutlass3x_sm90 x", 0, "line 1", "one CUTLASS kernel name per line");
  parse_fails("  \n# only a comment\n", "", "no configurations");
  parse_fails("[1, 2", "", "");
  /* the line after a bad one is read; a null value is left out and named */
  tf_config_list l;
  parse_ok("{\"BLOCK_M\": 128}\nnot json\n{\"BLOCK_M\": 64, \"maxnreg\": null, \"pre_hook\": null}", &l);
  ck_assert_uint_eq(l.n, 3);
  ck_assert_int_eq(tf_config_value(&l.items[2], "BLOCK_M")->value, 64);
  ck_assert_ptr_null(tf_config_value(&l.items[2], "maxnreg"));
  ck_assert_str_eq(l.items[2].nulls, "maxnreg, pre_hook");
  ck_assert_ptr_null(l.items[2].error);
  tf_configs_release(&l);
}
END_TEST

Suite *configs_suite(void) {
  Suite *s = suite_create("configs");
  TCase *tc = tcase_create("configs");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_lines);
  tcase_add_test(tc, test_array_and_kwargs);
  tcase_add_test(tc, test_names);
  tcase_add_test(tc, test_python);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return s;
}
