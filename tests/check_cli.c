/* The command line in-process: a table of (expected exit code, arguments),
 * as kissat's testusage.c does.  stdout and stderr go to /dev/null; the
 * end-to-end suite checks what they say. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/error.h"
#include "model/core/text.h"
#include "model/input/request.h"
#include "solver/cli/cli.h"
#include "solver/tilefit.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define MINI "-m b200 -w tests/data/worksets/fa4-mini.json"
static const struct {
  int code;
  const char *args;
} cases[] = {
    {2, ""},
    {0, "--help"},
    {0, "--version"},
    {2, "frobnicate"},
    {0, "solve --help"},
    {0, "check --help"},
    {0, "machines --help"},
    {0, "machines"},
    {0, "machines b200"},
    {2, "machines nosuch"},
    {2, "machines b200 extra"},
    {0, "worksets tests/data/worksets/fa4-mini.json"},
    {0, "solve " MINI},
    {0, "solve " MINI " --json"},
    {0, "solve " MINI " --csv"},
    {0, "solve " MINI " --explain"},
    {0, "solve " MINI " -p d=64 --fix B_c=128 --fix q_stage=2"},
    {0, "solve " MINI " --objective=max|stages --fix=B_c=64"},
    {2, "solve -m b200"},
    {2, "solve -w tests/data/worksets/fa4-mini.json"},
    {2, "solve -m nosuch -w tests/data/worksets/fa4-mini.json"},
    {2, "solve -m b200 -w nosuch"},
    {2, "solve -m b200 -w /nonexistent/w.json"},
    {2, "solve " MINI " -p d"},
    {2, "solve " MINI " -p d=x"},
    {2, "solve " MINI " -p nosuch=1"},
    {2, "solve " MINI " --fix nosuch=1"},
    {2, "solve " MINI " --fix B_c=64 --fix B_c=128"},
    {2, "solve " MINI " --domain B_c="},
    {2, "solve " MINI " --domain stages=1,2"},
    {2, "solve " MINI " --require stages"},
    {2, "solve " MINI " --objective stages"},
    {2, "solve " MINI " --frobnicate"},
    {2, "solve " MINI " --time-limit 0"},
    {2, "solve " MINI " extra"},
    {1, "solve " MINI " --require stages>=70"},
    {1, "solve -m a100 -w tests/data/worksets/fa4-mini.json"},
    {0, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=3"},
    {1, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=4"},
    {2, "check " MINI " --fix B_c=128"},
    /* options of another command are usage errors, not ignored */
    {2, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=3 --objective max|stages"},
    {2, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=3 --explain"},
    {2, "check " MINI " --fix B_c=128 --fix q_stage=2 --fix stages=3 --top 2"},
    {2, "validate --csv tests/data/validate/flashattention.jsonl"},
    {0, "machines --json"},
    {2, "machines --csv"},
    {0, "worksets --json"},
    {2, "worksets --csv"},
    {2, "merge --resume x"},
    {2, "sweep x.json -p d=64"},
};

/* Splits a command line on spaces; '|' inside an argument stands for a space. */
static int split(char *line, char **argv, int max) {
  int n = 0;
  argv[n++] = "tilefit";
  for (char *tok = strtok(line, " "); tok && n < max - 1; tok = strtok(NULL, " ")) {
    for (char *c = tok; *c; c++)
      if (*c == '|')
        *c = ' ';
    argv[n++] = tok;
  }
  argv[n] = NULL;
  return n;
}

START_TEST(test_exit_codes) {
  char line[1024];
  snprintf(line, sizeof line, "%s", cases[_i].args);
  char *argv[64];
  int argc = split(line, argv, 64);
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));
  int rc = tf_cli_main(argc, argv);
  ck_assert_msg(rc == cases[_i].code, "'tilefit %s' exited %d, expected %d", cases[_i].args, rc, cases[_i].code);
}
END_TEST

/* --help is generated from the option table: a command lists exactly the
 * options it takes, and rejecting one names the option and the command. */
START_TEST(test_help_from_table) {
  static const struct {
    const char *cmd, *option;
    int listed;
  } rows[] = {
      {"solve", "--objective", 1},
      {"solve", "--explain", 1},
      {"solve", "--top K", 1},
      {"solve", "--jobs", 0},
      {"check", "--objective", 0},
      {"check", "--explain", 0},
      {"check", "--fix", 1},
      {"check", "--csv", 1},
      {"validate", "--json", 1},
      {"validate", "--csv", 0},
      {"sweep", "--shard", 1},
      {"sweep", "--fix", 1},
      {"merge", "--output", 1},
      {"merge", "--jobs", 0},
      {"machines", "--help", 1},
      {"machines", "--csv", 0},
      {"worksets", "--json", 1},
      {"worksets", "--csv", 0},
      {"machines", "--unconfirmed", 1},
      {"solve", "--output", 1},
      {"check", "--jsonl", 1},
  };
  static char out[1 << 14], err[1 << 12];
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char args[128];
    snprintf(args, sizeof args, "%s --help", rows[i].cmd);
    ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(!strncmp(out, "usage: tilefit ", 15), "%s: %s", args, out);
    ck_assert_msg(!strstr(out, rows[i].option) == !rows[i].listed, "%s: '%s' %s listed:\n%s", args, rows[i].option,
                  rows[i].listed ? "not" : "", out);
    if (rows[i].listed)
      continue;
    char opt[64];
    snprintf(opt, sizeof opt, "%s", rows[i].option);
    opt[strcspn(opt, " ")] = 0;
    snprintf(args, sizeof args, "%s %s%s", rows[i].cmd, opt, strcmp(opt, "--jobs") && strcmp(opt, "--fix") ? "" : " 1");
    ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
    char want[160];
    snprintf(want, sizeof want, "tilefit: error: %s: unknown option for '%s'", opt, rows[i].cmd);
    ck_assert_msg(!strncmp(err, want, strlen(want)) && strchr(err, '\n') == err + strlen(err) - 1,
                  "%s: stderr '%s' is not one line starting '%s'", args, err, want);
  }
}
END_TEST

/* 'tilefit help CMD' prints what 'tilefit CMD --help' prints, as git's
 * help does; 'help' alone is the top-level usage; an unknown command is
 * exit 2 with a suggestion. */
START_TEST(test_help_command) {
  static char out[1 << 14], err[1 << 12], want[1 << 14];
  static const char *const pairs[][2] = {
      {"help solve", "solve --help"},
      {"help check", "check --help"},
      {"help plot map", "plot map --help"},
      {"help sweep", "sweep --help"},
      {"help", "--help"},
      {"help completion", "completion --help"},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    ck_assert_int_eq(tf_test_run(pairs[i][1], want, sizeof want, err, sizeof err), 0);
    ck_assert_int_eq(tf_test_run(pairs[i][0], out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(!strcmp(out, want), "'%s' differs from '%s':\n%s", pairs[i][0], pairs[i][1], out);
  }
  ck_assert_int_eq(tf_test_run("help solv", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "did you mean 'solve'?") != NULL, "%s", err);
  /* help and completion describe themselves (help completion was "unknown command") */
  ck_assert_int_eq(tf_test_run("help completion", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(!strncmp(out, "usage: tilefit completion [COMMAND [KIND]]\n", 43), "%s", out);
  ck_assert_int_eq(tf_test_run("help help", out, sizeof out, err, sizeof err), 0);
  ck_assert_msg(!strncmp(out, "usage: tilefit help [COMMAND [KIND]]\n", 37), "%s", out);
  ck_assert_int_eq(tf_test_run("help completion map", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "'completion' has no kinds") != NULL, "%s", err);
  /* an empty name says so (it was "tilefit: error: : unknown command") */
  static const char *const empty[] = {"''", "help ''"};
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(tf_test_run(empty[i], out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(err, "tilefit: error: '': an empty command name (see 'tilefit --help')\n");
  }
}
END_TEST

/* 'tilefit completion CMD' is the option table as --help shows it: each
 * command's options are exactly the "--long" spellings its --help lists,
 * an option takes a value in --help ("--top K") exactly when its kind is
 * not "none", and fixed words are the help's "a|b" spelling. */
static void completion_matches_help(const char *cmd) {
  static char table[1 << 14], help[1 << 14], err[1 << 12];
  char args[64];
  snprintf(args, sizeof args, "completion %s", cmd);
  ck_assert_int_eq(tf_test_run(args, table, sizeof table, err, sizeof err), 0);
  snprintf(args, sizeof args, "%s --help", cmd);
  ck_assert_int_eq(tf_test_run(args, help, sizeof help, err, sizeof err), 0);
  size_t in_help = 0, in_table = 0;
  for (const char *h = strstr(help, "\noptions:\n"); h && (h = strchr(h + 1, '\n'));) /* "  -m, --x" or "      --y" */
    in_help += !strncmp(h, "\n  -", 4) || !strncmp(h, "\n      --", 9);
  char *save = NULL;
  for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char lng[48], sht[8], kind[16];
    if (strncmp(line, "option ", 7))
      continue;
    ck_assert_int_eq(sscanf(line, "option %47s %7s %15s", lng, sht, kind), 3);
    in_table++;
    char spelt[96]; /* "--top K" or "-o, --output FILE" as --help writes it */
    const char *at = strstr(help, "\noptions:\n"), *end;
    while (at && (at = strstr(at + 1, lng)) &&
           (end = at + strlen(lng), at[-7] != '\n' || (*end != ' ' && *end != '\n')))
      ; /* the spelling column: "  -m, --long" and "      --long" put it at column 6 */
    ck_assert_msg(at != NULL, "%s: %s not in --help's options", cmd, lng);
    snprintf(spelt, sizeof spelt, "%.*s", (int)strcspn(at, "\n"), at);
    int has_value = spelt[strlen(lng)] == ' ' && spelt[strlen(lng) + 1] != ' ';
    ck_assert_msg(has_value == !!strcmp(kind, "none"), "%s: %s is '%s' but --help says '%s'", cmd, lng, kind, spelt);
    if (!strcmp(kind, "words"))
      ck_assert_msg(strchr(spelt, '|') != NULL, "%s: %s has words but --help says '%s'", cmd, lng, spelt);
  }
  ck_assert_msg(in_table == in_help && in_table > 0, "%s: completion lists %zu options, --help %zu", cmd, in_table,
                in_help);
}

START_TEST(test_completion_from_table) {
  static const char *const cmds[] = {"solve", "check", "layout", "emit",  "machines", "worksets",  "validate",
                                     "sweep", "merge", "prune",  "probe", "plot map", "plot sweep"};
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
    completion_matches_help(cmds[i]);
  static char out[1 << 12], err[1 << 12];
  ck_assert_int_eq(tf_test_run("completion", out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "command solve\n", "command plot\n");
  ck_assert_int_eq(tf_test_run("completion plot", out, sizeof out, err, sizeof err), 0);
  TF_TEST_CONTAINS(out, "kind map\nkind sweep\n", "operands kinds\n");
  ck_assert_int_eq(tf_test_run("completion solv", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "did you mean 'solve'?") != NULL, "%s", err);
  ck_assert_int_eq(tf_test_run("completion plot mapp", out, sizeof out, err, sizeof err), 2);
}
END_TEST

/* 'tilefit worksets' lines up every description after the longest name
 * and cuts long ones at a word boundary: the shown prefix is followed by
 * a space (or punctuation) in the workset's full comment. */
START_TEST(test_worksets_listing_columns) {
  static char out[1 << 16], err[1 << 12], full[1 << 16];
  ck_assert_int_eq(tf_test_run("worksets", out, sizeof out, err, sizeof err), 0);
  size_t column = 0;
  for (char *line = out, *end; (end = strchr(line, '\n')); line = end + 1) {
    *end = 0;
    size_t name = strcspn(line, " ");
    size_t desc = name + strspn(line + name, " ");
    ck_assert_msg(desc >= name + 2, "'%s': name and description run together", line);
    if (!column)
      column = desc;
    ck_assert_msg(desc == column, "'%s': description at column %zu, not %zu", line, desc, column);
    size_t n = strlen(line);
    if (n < 3 || strcmp(line + n - 3, "..."))
      continue;
    char args[128];
    snprintf(args, sizeof args, "worksets %.*s", (int)name, line);
    ck_assert_int_eq(tf_test_run(args, full, sizeof full, err, sizeof err), 0);
    const char *comment = full + name + 2, *shown = line + desc;
    size_t k = n - 3 - desc;
    ck_assert_msg(!strncmp(comment, shown, k) && strchr(" ,:;@(", comment[k]), "'%s' cut mid-word", line);
  }
}
END_TEST

/* Every request field with a command-line flag (model/input/request.h's table)
 * is an option of solve. */
START_TEST(test_every_request_flag) {
  static char out[1 << 15], err[1 << 12];
  ck_assert_int_eq(tf_test_run("solve --help", out, sizeof out, err, sizeof err), 0);
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    char flag[64];
    if (!*tf_request_fields[i].flag)
      continue;
    snprintf(flag, sizeof flag, "--%s ", tf_request_fields[i].flag);
    ck_assert_msg(strstr(out, flag), "solve has no %s", flag);
  }
}
END_TEST

/* One version string: the library's, which --version prints. */
START_TEST(test_version_is_the_library_version) {
  static char out[256], err[256];
  ck_assert_int_eq(tf_test_run("--version", out, sizeof out, err, sizeof err), 0);
  ck_assert_str_eq(out, "tilefit " TF_LIBRARY_VERSION "\n");
}
END_TEST

/* Whether s is valid UTF-8 without control characters. */
static int clean(const char *s) { return tf_text_unfit(s, 1 << 20) == NULL; }

/* An error message cut by its buffer in the middle of a character gave
 * Python a UnicodeDecodeError; control characters and bytes that are not
 * UTF-8 reached the terminal raw. */
START_TEST(test_messages_are_clean_text) {
  tf_error err;
  tf_error_init(&err);
  char name[400];
  for (size_t i = 0; i + 2 < sizeof name; i += 2)
    memcpy(name + i, "\xc3\xa9", 2); /* e-acute, two bytes each, so some cut falls inside one */
  name[sizeof name - 1 - (sizeof name - 1) % 2] = 0;
  for (int shift = 0; shift < 3; shift++) {
    tf_error_init(&err);
    tf_error_set(&err, TF_EINPUT, "$.name", "%.*sunknown '%s'", shift, "ab", name);
    char buf[1024];
    tf_error_format(&err, buf, sizeof buf);
    ck_assert_msg(clean(buf), "shift %d: not clean UTF-8: %s", shift, buf);
  }
  tf_error_init(&err);
  tf_error_set(&err, TF_EINPUT, "$.a\x1b[31m", "bad \xff\xfe key '\x07\n'");
  char buf[256];
  tf_error_format(&err, buf, sizeof buf);
  ck_assert_str_eq(buf, "$.a\\x1b[31m: bad \\xff\\xfe key '\\x07\\n'");
  /* a buffer that ends inside a character or an escape stops before it */
  char small[6];
  size_t n = 0;
  tf_escape_put(small, sizeof small, &n, "ab\xc3\xa9\x07");
  ck_assert_str_eq(small, "ab\xc3\xa9");
  ck_assert_str_eq(tf_escape(buf, 12, "0123456789abcdef"), "01234567...");
}
END_TEST

/* The command line's own messages: an unknown command name is escaped and
 * cut; a workset name is at most 64 bytes of text. */
START_TEST(test_unknown_command_escaped) {
  static char out[4096], err[4096];
  ck_assert_int_eq(tf_test_run("\"$(printf 'sol\\033[2Jve')\"", out, sizeof out, err, sizeof err), 2);
  err[strcspn(err, "\n")] = 0; /* the one line, without its newline */
  ck_assert_msg(strstr(err, "sol\\x1b[2Jve: unknown command") && clean(err), "%s", err);
  char args[600];
  memset(args, 'x', 500);
  args[500] = 0;
  ck_assert_int_eq(tf_test_run(args, out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strlen(err) < 200 && strstr(err, "...: unknown command"), "%s", err);
}
END_TEST

Suite *cli_suite(void) {
  Suite *s = suite_create("cli");
  TCase *tc = tcase_create("Exit codes");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_exit_codes, 0, sizeof cases / sizeof *cases);
  suite_add_tcase(s, tc);
  TCase *help = tcase_create("Help");
  tcase_set_timeout(help, 120); /* a few dozen in-process runs: seconds on a loaded machine */
  tcase_add_test(help, test_help_from_table);
  tcase_add_test(help, test_version_is_the_library_version);
  tcase_add_test(help, test_help_command);
  tcase_add_test(help, test_completion_from_table);
  tcase_add_test(help, test_every_request_flag);
  tcase_add_test(help, test_worksets_listing_columns);
  suite_add_tcase(s, help);
  TCase *msg = tcase_create("Messages");
  tcase_set_timeout(msg, 30);
  tcase_add_test(msg, test_messages_are_clean_text);
  tcase_add_test(msg, test_unknown_command_escaped);
  suite_add_tcase(s, msg);
  return s;
}
