/* The JSON entry point (solver/api.h): the same JSON as the command
 * line for the same problem, exit-code statuses, one-line errors naming the
 * request's field, and concurrent calls from several threads. */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/input/request.h"
#include "solver/api.h"
#include "solver/cli/cli.h"
#include "solver/cli/options.h"
#include "solver/command_options.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define FA4_PROBLEM                                                                                              \
  "{\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"d\": 128, \"dv\": 128}, \"fix\": {\"B_r\": " \
  "128, \"B_c\": 128, \"q_stage\": 2}, \"objective\": [\"max stages\"]}"
#define FA4_CLI \
  "-m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --objective 'max stages'"

/* Calls the entry point; checks the status and that the answer is JSON. */
static char *call(const char *request, int want_status) {
  int status = -1;
  char *answer = tf_call_json(request, &status);
  ck_assert_ptr_nonnull(answer);
  ck_assert_msg(status == want_status, "status %d, not %d, for %s: %s", status, want_status, request, answer);
  cJSON *parsed = cJSON_Parse(answer);
  ck_assert_msg(parsed != NULL, "not JSON: %s", answer);
  cJSON_Delete(parsed);
  return answer;
}

/* The command line's stdout, without its final newline. */
static void cli_json(const char *args, int want_rc, char *out, size_t size) {
  char err[4096];
  ck_assert_int_eq(tf_test_run(args, out, size, err, sizeof err), want_rc);
  size_t n = strlen(out);
  ck_assert_msg(n > 0 && out[n - 1] == '\n', "no output line from %s: %s", args, err);
  out[n - 1] = 0;
}

/* The entry point's problem object takes every request field (it is a
 * problem line, read by model/input/request.h's table). */
START_TEST(every_request_field) {
  for (size_t i = 0; i < TF_NREQUEST_FIELDS; i++) {
    const char *key = tf_request_fields[i].key, *member = tf_test_request_variant(key);
    ck_assert_msg(member != NULL, "request field '%s' has no variant", key);
    int mach = !strcmp(key, "machine"), work = !strcmp(key, "workset");
    char request[512];
    snprintf(request, sizeof request, "{\"cmd\": \"solve\", \"problem\": {%s,%s%s%s}}",
             mach ? member : "\"machine\":\"a100\"", work ? member : "\"workset\":\"fa2-fwd\"", mach || work ? "" : ",",
             mach || work ? "" : member);
    free(call(request, 0));
  }
}
END_TEST

START_TEST(solve_is_the_command_lines_json) {
  static char want[16384];
  cli_json("solve " FA4_CLI " --json", 0, want, sizeof want);
  char *got = call("{\"cmd\": \"solve\", \"problem\": " FA4_PROBLEM "}", 0);
  ck_assert_str_eq(got, want);
  ck_assert_ptr_nonnull(strstr(got, "\"stages\":3}"));
  tf_free(got);
}
END_TEST

START_TEST(infeasible_and_no_fit_are_status_1) {
  static char want[16384];
  cli_json("solve " FA4_CLI " --require 'stages >= 40' --json", 1, want, sizeof want);
  char *got = call("{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": "
                   "{\"d\": 128, \"dv\": 128}, \"fix\": {\"B_r\": 128, \"B_c\": 128, \"q_stage\": 2}, \"require\": "
                   "[\"stages >= 40\"], \"objective\": [\"max stages\"]}}",
                   1);
  ck_assert_str_eq(got, want);
  tf_free(got);
  cli_json("check -m b200 -w fa4-fwd -p d=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 --fix stages=4 --json", 1,
           want, sizeof want);
  got = call("{\"cmd\": \"check\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": "
             "{\"d\": 128}, \"fix\": {\"B_r\": 128, \"B_c\": 128, \"q_stage\": 2, \"stages\": 4}}}",
             1);
  ck_assert_str_eq(got, want);
  ck_assert_ptr_nonnull(strstr(got, "\"status\":\"does_not_fit\""));
  tf_free(got);
}
END_TEST

START_TEST(top_is_an_array_in_rank_order) {
  char *got =
      call("{\"cmd\": \"solve\", \"top\": 3, \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\"}}", 0);
  cJSON *a = cJSON_Parse(got);
  ck_assert_int_eq(cJSON_GetArraySize(a), 3);
  for (int i = 0; i < 3; i++)
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(a, i), "rank")->valueint, i + 1);
  cJSON_Delete(a);
  tf_free(got);
}
END_TEST

/* Bad requests: status 2 and {"error": one line, "status": 2}. */
static void refused(const char *request, const char *text) {
  char *got = call(request, 2);
  cJSON *a = cJSON_Parse(got);
  const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(a, "error"));
  ck_assert_ptr_nonnull(msg);
  ck_assert_msg(strstr(msg, text) != NULL, "'%s' not in '%s' for %s", text, msg, request);
  ck_assert_ptr_null(strchr(msg, '\n'));
  ck_assert_int_eq(cJSON_GetObjectItem(a, "status")->valueint, 2);
  cJSON_Delete(a);
  tf_free(got);
}

START_TEST(bad_requests_name_the_field) {
  refused(NULL, "no request");
  refused("", "malformed");
  refused("[1]", "expected a request object");
  refused("{\"cmd\": 3}", "$.cmd");
  refused("{\"cmd\": \"slove\"}", "unknown command 'slove'");
  refused("{\"cmd\": \"solve\"}", "$.problem");
  refused("{\"cmd\": \"solve\", \"cmd\": \"check\"}", "duplicate");
  refused("{\"cmd\": \"machines\", \"name\": \"b200\"}", "name");
  refused("{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b2000\", \"workset\": \"fa4-fwd\"}}",
          "$.problem.machine: unknown machine 'b2000'");
  refused(
      "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"dd\": 1}}}",
      "$.problem.params.dd: workset 'fa4-fwd' has no param 'dd'");
  refused(
      "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"fix\": {\"B_r\": 1.5}}}",
      "$.problem.fix.B_r");
  refused("{\"cmd\": \"solve\", \"top\": 0, \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\"}}", "$.top");
  refused("{\"cmd\": \"solve\", \"time_limit\": -1, \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\"}}",
          "$.time_limit");
  refused("{\"cmd\": \"sweep\", \"jobs\": 2}", "exactly one of");
  refused("{\"cmd\": \"sweep\", \"problems\": [" FA4_PROBLEM ", {\"machine\": \"b200\"}]}",
          "$.problems[1]: missing required key 'workset'");
  refused("{\"cmd\": \"sweep\", \"file\": \"/nonexistent/spec.json\"}", "/nonexistent/spec.json");
}
END_TEST

/* Hostile JSON: nesting 10^5 deep, numbers past int64 and past double,
 * bytes that are not UTF-8 in a key and a value, \u0000 in a key, a lone
 * surrogate, 2 * 10^5 keys: each a one-line error (status 2) in an answer
 * that is valid JSON, at once. */
START_TEST(hostile_json_is_refused) {
  enum { DEEP = 100000, KEYS = 200000 };
  char *deep = malloc(2 * DEEP + 64), *keys = malloc((size_t)KEYS * 16 + 64);
  size_t n = (size_t)sprintf(deep, "{\"cmd\": \"solve\", \"x\": ");
  memset(deep + n, '[', DEEP), n += DEEP;
  memset(deep + n, ']', DEEP), n += DEEP;
  strcpy(deep + n, "}");
  refused(deep, "malformed JSON");
  n = (size_t)sprintf(keys, "{\"cmd\": \"solve\"");
  for (int i = 0; i < KEYS; i++)
    n += (size_t)sprintf(keys + n, ", \"k%d\": 1", i);
  strcpy(keys + n, "}");
  refused(keys, "$.k0: unknown key 'k0'");
  free(deep);
  free(keys);
#define PROBLEM_WITH(x) "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"h100-sxm\", \"workset\": \"fa3-fwd\"" x "}}"
  refused(PROBLEM_WITH(", \"params\": {\"d\": 1e400}"), "$.problem.params.d: expected an integer");
  refused(PROBLEM_WITH(", \"params\": {\"d\": 123456789012345678901234567890}"), "beyond 2^53");
  refused(PROBLEM_WITH(", \"par\xff\xfems\": {}"), "$.problem.par\\xff\\xfems: unknown key");
  refused("{\"cmd\": \"solve\", \"problem\": {\"machine\": \"h100\xc3\", \"workset\": \"fa3-fwd\"}}",
          "unknown machine 'h100\\xc3'");
  refused(PROBLEM_WITH(", \"params\": {\"d\\u0000x\": 64}"), "$.problem.params: a key holds \\u0000");
  refused(PROBLEM_WITH(", \"params\": {\"\\ud800\": 64}"), "malformed JSON");
#undef PROBLEM_WITH
}
END_TEST

/* An error answer's member `key` as a string ("" when absent). */
static void error_member(const char *request, const char *key, const char *want) {
  char *got = call(request, 2);
  cJSON *a = cJSON_Parse(got);
  const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(a, key));
  ck_assert_msg(v && !strcmp(v, want), "%s: '%s', not '%s', in %s", key, v ? v : "(none)", want, got);
  cJSON_Delete(a);
  tf_free(got);
}

/* "field" names the request member at fault, for a binding to name its
 * keyword; check's free variables come as a list. */
START_TEST(errors_name_the_request_field) {
  const char *fa3 = "\"machine\": \"h100-sxm\", \"workset\": \"fa3-fwd\"";
  char request[512];
  snprintf(request, sizeof request, "{\"cmd\": \"check\", \"problem\": {%s, \"fix\": {\"B_r\": 128}}}", fa3);
  error_member(request, "field", "fix");
  error_member(request, "message", "check needs every variable fixed; still free: B_c");
  char *got = call(request, 2);
  ck_assert_ptr_nonnull(strstr(got, "\"free\":[\"B_c\"]"));
  tf_free(got);
  snprintf(request, sizeof request,
           "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"h100-sxm\", \"workset\": \"fa4-fwd\"}}");
  error_member(request, "field", "any_arch");
  error_member(request, "message", "fa4-fwd models sm_10x; h100-sxm is sm_90");
  snprintf(request, sizeof request, "{\"cmd\": \"solve\", \"problem\": {%s, \"params\": {\"d\": true}}}", fa3);
  error_member(request, "field", "params");
  error_member(request, "path", "$.problem.params.d");
  snprintf(request, sizeof request, "{\"cmd\": \"solve\", \"top\": 0, \"problem\": {%s}}", fa3);
  error_member(request, "field", "top");
  snprintf(request, sizeof request, "{\"cmd\": \"solve\", \"explain\": 1, \"problem\": {%s}}", fa3);
  error_member(request, "field", "explain");
}
END_TEST

/* solve "explain": true is `solve --explain --json`. */
START_TEST(explain_is_the_command_lines) {
  static char want[65536];
  cli_json("solve -m h100-sxm -w fa3-fwd -p d=128 --explain --json", 0, want, sizeof want);
  char *got = call("{\"cmd\": \"solve\", \"explain\": true, \"problem\": {\"machine\": \"h100-sxm\", \"workset\": "
                   "\"fa3-fwd\", \"params\": {\"d\": 128}}}",
                   0);
  ck_assert_str_eq(got, want);
  ck_assert_ptr_nonnull(strstr(got, "\"explain\":{"));
  tf_free(got);
}
END_TEST

static char *on_handle(const tf_json_handle *h, const char *request, int want_status) {
  int status = -1;
  char *got = tf_json_handle_call(h, request, &status);
  ck_assert_msg(status == want_status, "status %d, not %d, for %s: %s", status, want_status, request, got);
  return got;
}

/* A handle's calls answer as the same calls without one; a call's
 * problem adds to the handle's; what the handle bound cannot change. */
START_TEST(handle_calls_are_plain_calls) {
  char *answer = NULL;
  int status = -1;
  tf_json_handle *h = tf_json_handle_new(FA4_PROBLEM, &answer, &status);
  ck_assert_ptr_nonnull(h);
  ck_assert_int_eq(status, 0);
  ck_assert_str_eq(answer, "{\"schema\":\"tilefit/1\",\"machine\":\"b200\",\"workset\":\"fa4-fwd\"}");
  tf_free(answer);
  char *want = call("{\"cmd\": \"solve\", \"problem\": " FA4_PROBLEM "}", 0);
  for (int i = 0; i < 3; i++) { /* the bound problem is reused, unchanged */
    char *got = on_handle(h, "{\"cmd\": \"solve\"}", 0);
    ck_assert_str_eq(got, want);
    tf_free(got);
  }
  tf_free(want);
  want = call("{\"cmd\": \"check\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": "
              "{\"d\": 128, \"dv\": 128}, \"fix\": {\"B_r\": 128, \"B_c\": 64, \"q_stage\": 2, \"stages\": 2}}}",
              0);
  char *got = on_handle(h, "{\"cmd\": \"check\", \"problem\": {\"fix\": {\"B_c\": 64, \"stages\": 2}}}", 0);
  ck_assert_str_eq(got, want);
  tf_free(got), tf_free(want);
  got = on_handle(h, "{\"cmd\": \"solve\", \"problem\": {\"params\": {\"d\": 64}}}", 2);
  ck_assert_ptr_nonnull(strstr(got, "\"field\":\"params\""));
  tf_free(got);
  got = on_handle(h, "{\"cmd\": \"sweep\", \"spec\": {}}", 2);
  ck_assert_ptr_nonnull(strstr(got, "on a handle"));
  tf_free(got);
  tf_json_handle_free(h);
  h = tf_json_handle_new("{\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"dd\": 1}}", &answer,
                         &status);
  ck_assert_ptr_null(h);
  ck_assert_int_eq(status, 2);
  ck_assert_ptr_nonnull(strstr(answer, "\"path\":\"$.params.dd\""));
  tf_free(answer);
  tf_json_handle_free(NULL);
}
END_TEST

/* "cutlass_name" is --cutlass-name: the same answer; with check, the
 * builder's stage count when the name has none. */
START_TEST(cutlass_name_is_the_command_lines) {
  static char want[65536];
  const char *name = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_"
                     "cooperative_epi_tma";
  const char *cmds[] = {"solve", "check"};
  for (int i = 0; i < 2; i++) {
    char args[512], request[512];
    snprintf(args, sizeof args, "%s --cutlass-name %s -m h100-sxm --json", cmds[i], name);
    cli_json(args, 0, want, sizeof want);
    snprintf(request, sizeof request,
             "{\"cmd\": \"%s\", \"cutlass_name\": \"%s\", \"problem\": {\"machine\": \"h100-sxm\"}}", cmds[i], name);
    char *got = call(request, 0);
    ck_assert_str_eq(got, want);
    tf_free(got);
  }
  refused("{\"cmd\": \"solve\", \"cutlass_name\": \"x\", \"problem\": {\"workset\": \"fa3-fwd\"}}",
          "$.problem.workset: cannot be combined with cutlass_name");
  error_member("{\"cmd\": \"solve\", \"cutlass_name\": \"cutlass3x_nope\"}", "field", "cutlass_name");
}
END_TEST

/* "plot" "map" is `plot map`'s SVG, on a handle too. */
START_TEST(plot_map_is_the_command_lines_svg) {
  static char want[1 << 17];
  char err[4096];
  ck_assert_int_eq(
      tf_test_run("plot map -m h100-sxm -w fa3-fwd -p d=128 --x B_r --y B_c", want, sizeof want, err, sizeof err), 0);
  const char *req = "{\"cmd\": \"plot\", \"kind\": \"map\", \"x\": \"B_r\", \"y\": \"B_c\"%s}";
  char request[512];
  snprintf(request, sizeof request, req,
           ", \"problem\": {\"machine\": \"h100-sxm\", \"workset\": \"fa3-fwd\", "
           "\"params\": {\"d\": 128}}");
  char *got = call(request, 0);
  cJSON *a = cJSON_Parse(got);
  ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "text")), want);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(a, "feasible")));
  cJSON_Delete(a);
  tf_free(got);
  int status = -1;
  tf_json_handle *h = tf_json_handle_new(
      "{\"machine\": \"h100-sxm\", \"workset\": \"fa3-fwd\", \"params\": {\"d\": 128}}", NULL, &status);
  ck_assert_ptr_nonnull(h);
  snprintf(request, sizeof request, req, "");
  got = on_handle(h, request, 0);
  a = cJSON_Parse(got);
  ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "text")), want);
  cJSON_Delete(a);
  tf_free(got);
  tf_json_handle_free(h);
  refused("{\"cmd\": \"plot\", \"kind\": \"map\", \"x\": \"B_q\", \"y\": \"B_c\", \"problem\": {\"machine\": "
          "\"h100-sxm\", \"workset\": \"fa3-fwd\"}}",
          "$.x: 'B_q'");
}
END_TEST

/* "fd": the lines written to a pipe while the call runs, the same lines
 * "points" holds. */
START_TEST(sweep_to_a_descriptor) {
  const char *spec =
      "\"spec\": {\"machines\": [\"h100-sxm\"], \"worksets\": [\"fa3-fwd\"], \"params\": {\"d\": [64, 128]}}";
  char request[512];
  snprintf(request, sizeof request, "{\"cmd\": \"sweep\", %s}", spec);
  char *whole = call(request, 0);
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  snprintf(request, sizeof request, "{\"cmd\": \"sweep\", \"fd\": %d, %s}", fds[1], spec);
  char *got = call(request, 0); /* two lines fit the pipe's buffer */
  ck_assert_str_eq(got, "{\"written\":2,\"warnings\":[]}");
  close(fds[1]);
  static char lines[65536];
  size_t n = 0;
  ssize_t k;
  while ((k = read(fds[0], lines + n, sizeof lines - 1 - n)) > 0)
    n += (size_t)k;
  close(fds[0]);
  lines[n] = 0;
  cJSON *w = cJSON_Parse(whole), *p = cJSON_GetObjectItem(w, "points");
  char *first = cJSON_PrintUnformatted(cJSON_GetArrayItem(p, 0)),
       *second = cJSON_PrintUnformatted(cJSON_GetArrayItem(p, 1));
  char *nl = strchr(lines, '\n');
  ck_assert_ptr_nonnull(nl);
  *nl = 0;
  ck_assert_str_eq(lines, first);
  ck_assert_ptr_nonnull(strstr(nl + 1, second));
  free(first), free(second);
  cJSON_Delete(w);
  tf_free(whole), tf_free(got);
}
END_TEST

/* A reader that went away: with SIGPIPE at its default action (which
 * kills the process) the call answers an error and the process lives; the
 * SIGPIPE the write raised is not left pending, and the caller's mask is
 * as it was.  A descriptor that is not open is refused naming $.fd. */
START_TEST(sweep_to_a_closed_pipe) {
  signal(SIGPIPE, SIG_DFL);
  const char *spec =
      "\"spec\": {\"machines\": [\"h100-sxm\"], \"worksets\": [\"fa3-fwd\"], \"params\": {\"d\": [64, 128]}}";
  char request[512];
  for (int jobs = 1; jobs <= 2; jobs++) {
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    close(fds[0]);
    snprintf(request, sizeof request, "{\"cmd\": \"sweep\", \"jobs\": %d, \"fd\": %d, %s}", jobs, fds[1], spec);
    int status = -1;
    char *got = tf_call_json(request, &status);
    ck_assert_int_eq(status, 3);
    ck_assert_msg(strstr(got, "$.fd: cannot write the output descriptor: Broken pipe") != NULL, "%s", got);
    tf_free(got);
    close(fds[1]);
    sigset_t pending, mask;
    ck_assert_int_eq(sigpending(&pending), 0);
    ck_assert_msg(!sigismember(&pending, SIGPIPE), "a SIGPIPE was left pending");
    ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, NULL, &mask), 0);
    ck_assert_msg(!sigismember(&mask, SIGPIPE), "SIGPIPE was left blocked");
  }
  snprintf(request, sizeof request, "{\"cmd\": \"sweep\", \"fd\": 1000000, %s}", spec);
  refused(request, "$.fd: descriptor 1000000 is not open");
  error_member(request, "field", "fd");
  error_member(request, "path", "$.fd");
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  snprintf(request, sizeof request, "{\"cmd\": \"sweep\", \"fd\": %d, %s}", fds[0], spec);
  refused(request, "is not open for writing");
  close(fds[0]), close(fds[1]);
}
END_TEST

/* A library caller under a file-size limit with SIGXFSZ at its default
 * action (which kills): a sweep to its descriptor past the limit answers
 * status 3 "File too large", the process goes on, nothing is left pending
 * or blocked.  In a child, whose limit and disposition the test can set. */
START_TEST(sweep_past_a_file_size_limit) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    char dir[256], file[300];
    tf_test_temp_dir(dir, sizeof dir, "tf-api-fsize");
    snprintf(file, sizeof file, "%s/out.jsonl", dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    struct rlimit rl = {1000, RLIM_INFINITY};
    signal(SIGXFSZ, SIG_DFL);
    if (fd < 0 || getrlimit(RLIMIT_FSIZE, &rl) || (rl.rlim_cur = 1000, setrlimit(RLIMIT_FSIZE, &rl)))
      _exit(2);
    char request[512];
    snprintf(request, sizeof request,
             "{\"cmd\": \"sweep\", \"jobs\": 2, \"fd\": %d, \"spec\": {\"machines\": "
             "[\"h100-sxm\"], \"worksets\": [\"fa3-fwd\"], \"params\": {\"d\": [64, 128]}}}",
             fd);
    int status = -1;
    char *got = tf_call_json(request, &status);
    sigset_t pending, mask;
    int ok = status == 3 && strstr(got, "File too large") && !sigpending(&pending) && !sigismember(&pending, SIGXFSZ) &&
             !pthread_sigmask(SIG_BLOCK, NULL, &mask) && !sigismember(&mask, SIGXFSZ);
    tf_free(got);
    close(fd);
    unlink(file);
    rmdir(dir);
    _exit(ok ? 0 : 1);
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the caller %s %d",
                WIFSIGNALED(status) ? "died of signal" : "exited",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}
END_TEST

/* A sweep's answer is built in memory: no file is written, none made in
 * $TMPDIR (a temporary problem list and output file were before).  Run
 * with TMPDIR a fresh directory and no file allowed to grow (RLIMIT_FSIZE
 * 0, which binds root too), then the directory must still be empty. */
START_TEST(sweep_writes_no_file) {
  static const char *const requests[] = {
      "{\"cmd\": \"sweep\", \"jobs\": 2, \"problems\": [" FA4_PROBLEM ", {\"machine\": \"h100-sxm\", \"workset\": "
      "\"fa3-fwd\"}, {\"machine\": \"b200\", \"workset\": \"no-such-workset\"}]}",
      "{\"cmd\": \"sweep\", \"spec\": {\"machines\": [\"h100-sxm\"], \"worksets\": [\"fa3-fwd\"], \"params\": {\"d\": "
      "[64, 128]}}}",
  };
  char dir[256];
  tf_test_temp_dir(dir, sizeof dir, "tf-api-tmpdir");
  const char *old = getenv("TMPDIR");
  char *saved = old ? strdup(old) : NULL;
  char *want[2];
  for (int i = 0; i < 2; i++)
    want[i] = call(requests[i], 0);
  setenv("TMPDIR", dir, 1);
  struct rlimit was, none;
  ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
  none = was;
  none.rlim_cur = 0;
  void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails (EFBIG), it does not kill */
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &none), 0);
  char *got[2];
  int status[2];
  for (int i = 0; i < 2; i++)
    got[i] = tf_call_json(requests[i], &status[i]);
  setrlimit(RLIMIT_FSIZE, &was);
  signal(SIGXFSZ, xfsz);
  saved ? setenv("TMPDIR", saved, 1) : unsetenv("TMPDIR");
  free(saved);
  for (int i = 0; i < 2; i++) {
    ck_assert_msg(status[i] == 0, "status %d: %s", status[i], got[i]);
    ck_assert_str_eq(got[i], want[i]);
    tf_free(got[i]), tf_free(want[i]);
  }
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  for (struct dirent *e; (e = readdir(d));)
    ck_assert_msg(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."), "%s/%s was made", dir, e->d_name);
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A bad problem of a sweep's list: the whole answer, its path in the
 * request, as it was when the list went through a file. */
START_TEST(sweep_bad_problem_answers) {
  static const char *const bad[][2] = {
      {"{\"machine\": \"b200\"}",
       "{\"error\":\"$.problems[1]: missing required key 'workset'\",\"status\":2,\"message\":\"missing required key "
       "'workset'\",\"path\":\"$.problems[1]\",\"field\":\"problems\"}"},
      {"{\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"d\": true}}",
       "{\"error\":\"$.problems[1].params.d: expected an integer from -9007199254740992 to 9007199254740992, got "
       "true\",\"status\":2,\"message\":\"expected an integer from -9007199254740992 to 9007199254740992, got "
       "true\",\"path\":\"$.problems[1].params.d\",\"field\":\"problems\"}"},
      {"3", "{\"error\":\"$.problems[1]: expected an object\",\"status\":2,\"message\":\"expected an "
            "object\",\"path\":\"$.problems[1]\",\"field\":\"problems\"}"},
      {"{\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"fixx\": {}}",
       "{\"error\":\"$.problems[1].fixx: unknown key 'fixx'; did you mean 'fix'?\",\"status\":2,\"message\":\"unknown "
       "key 'fixx'; did you mean 'fix'?\",\"path\":\"$.problems[1].fixx\",\"field\":\"problems\"}"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char request[512];
    snprintf(request, sizeof request, "{\"cmd\": \"sweep\", \"problems\": [" FA4_PROBLEM ", %s]}", bad[i][0]);
    char *got = call(request, 2);
    ck_assert_str_eq(got, bad[i][1]);
    tf_free(got);
  }
  char *got = call("{\"cmd\": \"sweep\", \"problems\": {}}", 2);
  ck_assert_str_eq(got, "{\"error\":\"$.problems: expected an array of problem objects\",\"status\":2,\"message\":"
                        "\"expected an array of problem objects\",\"path\":\"$.problems\",\"field\":\"problems\"}");
  tf_free(got);
  got = call("{\"cmd\": \"sweep\", \"problems\": []}", 0);
  ck_assert_str_eq(got, "{\"points\":[],\"warnings\":[]}");
  tf_free(got);
  /* a problem that binding refuses is an error point named by its place in the list */
  got = call("{\"cmd\": \"sweep\", \"problems\": [" FA4_PROBLEM ", {\"machine\": \"b200\", \"workset\": "
             "\"fa4-fwd\", \"fix\": {\"B_q\": 1}}]}",
             0);
  ck_assert_msg(strstr(got, "\"error\":\"$.problems[1].fix.B_q: workset 'fa4-fwd' has no variable 'B_q'"), "%s", got);
  tf_free(got);
}
END_TEST

/* "machine" is `machines NAME --json`; "workset" is `worksets NAME --json`
 * and names its params. */
START_TEST(machine_and_workset_in_full) {
  static char want[65536];
  cli_json("machines h100-sxm --json", 0, want, sizeof want);
  char *got = call("{\"cmd\": \"machine\", \"name\": \"h100-sxm\"}", 0);
  size_t n = strlen(got);
  ck_assert_msg(n && got[n - 1] == '\n', "no newline: %s", got);
  got[n - 1] = 0;
  ck_assert_str_eq(got, want);
  tf_free(got);
  got = call("{\"cmd\": \"workset\", \"name\": \"fa3-fwd\"}", 0);
  cli_json("worksets fa3-fwd --json", 0, want, sizeof want);
  ck_assert_msg(!strcmp(got, want), "the library's workset differs from worksets --json:\n%.300s\n%.300s", got, want);
  ck_assert_ptr_nonnull(strstr(got, "\"params\":{\"d\":128,\"dv\":\"d\","));
  ck_assert_ptr_nonnull(strstr(got, "\"choose\":{\"B_r\":[64,128,192],"));
  tf_free(got);
  refused("{\"cmd\": \"workset\", \"name\": \"fa9-fwd\"}", "$.name: unknown workset 'fa9-fwd'");
}
END_TEST

START_TEST(prune_is_the_command_lines_array) {
  static char want[65536];
  cli_json("prune -m rtx4090 -w triton-matmul --json tests/data/prune/triton-configs.jsonl", 0, want, sizeof want);
  char *got = call("{\"cmd\": \"prune\", \"machine\": \"rtx4090\", \"workset\": \"triton-matmul\", "
                   "\"file\": \"tests/data/prune/triton-configs.jsonl\"}",
                   0);
  ck_assert_str_eq(got, want);
  tf_free(got);
  got = call("{\"cmd\": \"prune\", \"machine\": \"rtx4090\", \"workset\": \"triton-matmul\", \"map\": {\"BM\": "
             "\"BLOCK_M\"}, \"configs\": [{\"BM\": 128, \"BLOCK_N\": 128, \"BLOCK_K\": 64, \"num_stages\": 5}]}",
             0);
  ck_assert_ptr_nonnull(strstr(got, "\"fits\":false"));
  tf_free(got);
  got = call("{\"cmd\": \"prune\", \"workset\": \"triton-matmul\", \"configs\": [{\"BLOCK_M\": 64}]}", 2);
  ck_assert_ptr_nonnull(strstr(got, "$.machine: is needed"));
  tf_free(got);
  got = call("{\"cmd\": \"prune\", \"machine\": \"rtx4090\", \"workset\": \"triton-matmul\"}", 2);
  ck_assert_ptr_nonnull(strstr(got, "exactly one of"));
  tf_free(got);
}
END_TEST

START_TEST(sweep_points_in_order) {
  char *got = call("{\"cmd\": \"sweep\", \"jobs\": 2, \"spec\": {\"machines\": [\"b200\", \"h100-sxm\"], \"worksets\": "
                   "[\"fa3-fwd\", \"fa4-fwd\"], \"params\": {\"d\": [64, 128]}}}",
                   0);
  cJSON *a = cJSON_Parse(got), *points = cJSON_GetObjectItem(a, "points");
  /* fa3-fwd on b200 and fa4-fwd on h100-sxm are skipped (architecture), and say so in one warning */
  ck_assert_int_eq(cJSON_GetArraySize(points), 4);
  for (int i = 0; i < 4; i++)
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(points, i), "index")->valueint, i);
  cJSON *warnings = cJSON_GetObjectItem(a, "warnings");
  ck_assert_int_eq(cJSON_GetArraySize(warnings), 1);
  ck_assert_ptr_nonnull(strstr(cJSON_GetArrayItem(warnings, 0)->valuestring, "4 points skipped: architecture"));
  cJSON_Delete(a);
  tf_free(got);
}
END_TEST

START_TEST(validate_counts_as_the_command_line) {
  char out[64], err[4096];
  static char rows[1 << 20];
  ck_assert_int_eq(tf_test_run("validate tests/data/validate/flashattention.jsonl", rows, sizeof rows, err, sizeof err),
                   0);
  char *tally = strrchr(rows, '\n');
  *tally = 0;
  tally = strrchr(rows, '\n') + 1; /* the closing line: "N passed, M failed, K skipped" */
  char *got = call("{\"cmd\": \"validate\", \"files\": [\"tests/data/validate/flashattention.jsonl\"]}", 0);
  cJSON *a = cJSON_Parse(got);
  snprintf(out, sizeof out, "%d passed, %d failed, %d skipped", cJSON_GetObjectItem(a, "passed")->valueint,
           cJSON_GetObjectItem(a, "failed")->valueint, cJSON_GetObjectItem(a, "skipped")->valueint);
  ck_assert_str_eq(out, tally);
  ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(a, "cases")), 0);
  cJSON_Delete(a);
  tf_free(got);
  refused("{\"cmd\": \"validate\", \"files\": []}", "$.files");
  refused("{\"cmd\": \"validate\", \"files\": [\"tests/data/validate/flashattention.jsonl\", 7]}", "$.files[1]");
}
END_TEST

/* The library's validate carries the measured cases' groups and totals
 * as the command line's --json does. */
START_TEST(validate_measured_as_the_command_line) {
  static char doc[1 << 16];
  char err[4096];
  ck_assert_int_eq(
      tf_test_run("validate --json tests/data/measured-fixture/toy.jsonl", doc, sizeof doc, err, sizeof err), 0);
  char *got = call("{\"cmd\": \"validate\", \"files\": [\"tests/data/measured-fixture/toy.jsonl\"]}", 0);
  cJSON *a = cJSON_Parse(got), *b = cJSON_Parse(doc);
  char *x = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, "measured")),
       *y = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, "measured"));
  ck_assert_ptr_nonnull(x);
  ck_assert_str_eq(x, y);
  ck_assert_int_eq(cJSON_GetObjectItem(a, "measured_cases")->valueint, 9);
  cJSON_free(x), cJSON_free(y);
  cJSON_Delete(a), cJSON_Delete(b);
  tf_free(got);
}
END_TEST

START_TEST(names_and_version) {
  char *got = call("{\"cmd\": \"machines\"}", 0);
  ck_assert_ptr_nonnull(strstr(got, "\"b200\""));
  tf_free(got);
  got = call("{\"cmd\": \"worksets\"}", 0);
  ck_assert_ptr_nonnull(strstr(got, "\"fa4-fwd\""));
  tf_free(got);
  got = call("{\"cmd\": \"version\"}", 0);
  ck_assert_ptr_nonnull(strstr(got, "\"version\":\"0."));
  tf_free(got);
  ck_assert_ptr_nonnull(got = tf_call_json("{\"cmd\": \"version\"}", NULL)); /* status may be NULL */
  tf_free(got);
}
END_TEST

/* Four threads solve the same requests at once; every answer must be the
 * one a single thread gets. */
#define NREQ 12
static char requests[NREQ][512];
static char *sequential[NREQ];

static void *solve_all(void *arg) {
  int *bad = arg;
  for (int r = 0; r < NREQ; r++) {
    char *got = tf_call_json(requests[r], NULL);
    *bad += strcmp(got, sequential[r]) != 0;
    tf_free(got);
  }
  return NULL;
}

START_TEST(threads_get_the_sequential_answers) {
  static const char *const machines[] = {"b200", "h100-sxm", "a100"};
  static const char *const kernels[] = {"fa4-fwd", "fa3-fwd", "fa2-fwd"}; /* each the architecture it models */
  static const int dims[] = {64, 96, 128, 256};
  for (int r = 0; r < NREQ; r++) {
    snprintf(requests[r], sizeof requests[r],
             "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"%s\", \"workset\": \"%s\", \"params\": {\"d\": %d}}}",
             machines[r % 3], kernels[r % 3], dims[r / 3]);
    sequential[r] = call(requests[r], 0);
  }
  pthread_t t[4];
  int bad[4] = {0};
  for (int i = 0; i < 4; i++)
    ck_assert_int_eq(pthread_create(&t[i], NULL, solve_all, &bad[i]), 0);
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    ck_assert_int_eq(bad[i], 0);
  }
  for (int r = 0; r < NREQ; r++)
    tf_free(sequential[r]);
}
END_TEST

/* Every command of the entry point, run by 16 threads at once, each
 * answer byte for byte the sequential one.  prune reads CUTLASS names,
 * whose parser shared strtok's hidden state between threads before (3 of
 * 1,600 answers wrong). */
#define NCMD 9
#define NTHREADS 16
static const char *every[NCMD] = {
    "{\"cmd\": \"solve\", \"problem\": " FA4_PROBLEM "}",
    "{\"cmd\": \"check\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\", \"params\": {\"d\": "
    "128, \"dv\": 128}, \"fix\": {\"B_r\": 128, \"B_c\": 128, \"q_stage\": 2, \"stages\": 3}}}",
    "{\"cmd\": \"sweep\", \"jobs\": 2, \"spec\": {\"machines\": [\"b200\", \"h100-sxm\"], \"worksets\": "
    "[\"fa3-fwd\", \"fa4-fwd\"], \"params\": {\"d\": [64, 128]}}}",
    "{\"cmd\": \"validate\", \"files\": [\"tests/data/validate/flashmla.jsonl\"]}",
    "{\"cmd\": \"machines\"}",
    "{\"cmd\": \"worksets\"}",
    "{\"cmd\": \"version\"}",
    NULL, /* prune of CUTLASS names: built by names_request */
    "{\"cmd\": \"prune\", \"machine\": \"rtx4090\", \"workset\": \"triton-matmul\", "
    "\"file\": \"tests/data/prune/triton-configs.jsonl\"}",
};
static char *every_want[NCMD];
static const char *const cutlass_names[] = {
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_256x128x64_2x1x1_0_tnn_align8_2sm_epi_tma",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f32_f32_128x128x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm120_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x1x1_0_tnn_align16",
    "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_0_tnn_align8_1sm",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_void_f16_64x128x64_1x1x1_0_tnn_align8_warpspecialized_pingpong_epi_tma",
};

/* 60 names in one prune request: many parses per call.  Written once,
 * before the threads start, which only read it. */
static char names_buf[65536];
static const char *names_request(void) {
  size_t n = (size_t)snprintf(names_buf, sizeof names_buf, "{\"cmd\": \"prune\", \"configs\": [");
  for (int i = 0; i < 60; i++)
    n += (size_t)snprintf(names_buf + n, sizeof names_buf - n, "%s\"%s\"", i ? ", " : "", cutlass_names[i % 6]);
  snprintf(names_buf + n, sizeof names_buf - n, "]}");
  return names_buf;
}

static void *run_every(void *arg) {
  int *bad = arg;
  for (int round = 0; round < 4; round++)
    for (int r = 0; r < NCMD; r++) {
      int k = (r + round) % NCMD; /* threads at different commands at once */
      char *got = tf_call_json(every[k] ? every[k] : names_buf, NULL);
      *bad += strcmp(got, every_want[k]) != 0;
      tf_free(got);
    }
  return NULL;
}

START_TEST(every_command_from_16_threads) {
  for (int r = 0; r < NCMD; r++)
    every_want[r] = call(every[r] ? every[r] : names_request(), 0);
  pthread_t t[NTHREADS];
  int bad[NTHREADS] = {0};
  for (int i = 0; i < NTHREADS; i++)
    ck_assert_int_eq(pthread_create(&t[i], NULL, run_every, &bad[i]), 0);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < NTHREADS; i++)
    ck_assert_msg(bad[i] == 0, "thread %d: %d answers differ from the sequential ones", i, bad[i]);
  for (int r = 0; r < NCMD; r++)
    tf_free(every_want[r]);
}
END_TEST

/* tf_call_json(request) with `headroom` bytes of address space beyond what
 * the process maps now (the library's one-time setup done before): it
 * must answer status 3 with `want` in its text, and the process go on to
 * answer the next request. */
static void out_of_memory_answers(const char *request, size_t headroom, const char *want) {
  char *warm = call("{\"cmd\": \"version\"}", 0);
  tf_free(warm);
  struct rlimit old, low;
  ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
  low = old;
  low.rlim_cur = tf_test_vm_bytes() + headroom;
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &low), 0);
  int status = -1;
  char *got = tf_call_json(request, &status);
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
  ck_assert_int_eq(status, 3);
  ck_assert_msg(strstr(got, want) != NULL, "%s", got);
  tf_free(got);
  got = call("{\"cmd\": \"version\"}", 0);
  tf_free(got);
}

/* Out of memory in the library killed the host process (abort).  Under an
 * address-space limit a solve that needs more is an answer, status 3, and
 * the process goes on to answer the next request. */
START_TEST(out_of_memory_is_an_answer) {
#ifdef TF_TEST_ASAN
  return;
#endif
  char dir[256], path[300], request[1024];
  tf_test_big_workset(dir, sizeof dir, path, sizeof path, "tf-api-oom");
  snprintf(request, sizeof request, "{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b200\", \"workset\": \"%s\"}}",
           path);
  /* the combinations alone need more than 24 MiB */
  out_of_memory_answers(request, 24u << 20, "{\"error\":\"out of memory\",\"status\":3}");
  tf_test_remove_dir(dir);
}
END_TEST

/* The same in a sweep's worker threads, which have no caller to answer:
 * the worker stops the sweep, the writer says so, status 3, and the process
 * goes on (it exited with the worker's "out of memory" before). */
START_TEST(out_of_memory_in_a_sweep_worker) {
#ifdef TF_TEST_ASAN
  return;
#endif
  char dir[256], path[300], request[1024];
  tf_test_big_workset(dir, sizeof dir, path, sizeof path, "tf-api-oom");
  snprintf(request, sizeof request,
           "{\"cmd\": \"sweep\", \"jobs\": 2, \"problems\": [{\"machine\": \"b200\", \"workset\": \"%s\"}, "
           "{\"machine\": \"b200\", \"workset\": \"%s\", \"params\": {}}]}",
           path, path);
  /* two worker stacks, and less than the combinations need */
  out_of_memory_answers(request, 48u << 20, "out of memory in a worker");
  tf_test_remove_dir(dir);
}
END_TEST

/* The class behind the strtok race, closed by a scan of the library's
 * sources (also `make lint`): no libc call with state kept between calls,
 * no static local that is not const. */
START_TEST(no_hidden_state_in_the_library) {
  int status = system("sh tests/lint/hidden_state.sh >&2");
  ck_assert_msg(status == 0, "tests/lint/hidden_state.sh found hidden state (exit %d)", status);
}
END_TEST

/* An error's field or option, named by the library by its key, is spelled
 * by each front end its own way: the command line's option, the JSON
 * entry point's member (a binding takes "field"), never the other's. */
START_TEST(errors_spelled_by_each_front_end) {
  tf_error e;
  tf_error_init(&e);
  tf_error_set(&e, TF_EINPUT, "@top", "bound it with @{fix} or @{require}; @{nosuch} stays");
  tf_error cli = e, plain = e;
  tf_error_spell(&cli, tf_cli_spelling);
  ck_assert_str_eq(cli.path, "--top");
  ck_assert_str_eq(cli.msg, "bound it with --fix or --require; nosuch stays");
  char buf[256];
  tf_error_format(&plain, buf, sizeof buf);
  ck_assert_str_eq(buf, "top: bound it with fix or require; nosuch stays");
  tf_error_init(&e);
  tf_error_set(&e, TF_EINPUT, "@machine", "x");
  tf_error_spell(&e, tf_cli_spelling);
  ck_assert_str_eq(e.path, "-m");
  /* the same mistake through both front ends */
  char *got = call("{\"cmd\": \"solve\", \"top\": 2, \"solver\": \"glpk\", \"problem\": {\"machine\": \"a100\", "
                   "\"workset\": \"fa2-fwd\"}}",
                   2);
  TF_TEST_CONTAINS(got,
                   "\"error\":\"$.top: the K best come from the exact search; the glpk solver finds one "
                   "optimum\"",
                   "\"path\":\"$.top\",\"field\":\"top\"");
  ck_assert_ptr_null(strstr(got, "--"));
  tf_free(got);
  char out[256], err[1024];
  ck_assert_int_eq(tf_test_run("solve -m a100 -w fa2-fwd --top 2 --solver glpk", out, sizeof out, err, sizeof err), 2);
  ck_assert_msg(strstr(err, "error: --top: the K best come from the exact search; --solver glpk finds one optimum"),
                "%s", err);
  got = call("{\"cmd\": \"plot\", \"kind\": \"map\", \"x\": \"B_q\", \"y\": \"B_c\", \"problem\": {\"machine\": "
             "\"h100-sxm\", \"workset\": \"fa3-fwd\"}}",
             2);
  ck_assert_msg(strstr(got, "\"path\":\"$.x\",\"field\":\"x\"") && !strstr(got, "--x"), "%s", got);
  tf_free(got);
}
END_TEST

/* A handle call's problem (and a CUTLASS name's) over the problem it adds
 * to: keyed lists by key, the later item last; requires appended;
 * objectives and strings replaced; what it leaves empty stays. */
START_TEST(overlay_is_a_later_problem_object) {
  tf_request base, call;
  tf_request_init(&base);
  tf_request_init(&call);
  tf_request_add_fix(&base, "B_r", 64, "$.fix.B_r");
  tf_request_add_fix(&base, "B_c", 128, "$.fix.B_c");
  tf_request_add_require(&base, "stages <= 4", "$.require[0]");
  tf_request_add_objective(&base, "max stages", "$.objective[0]");
  base.solver = strdup("glpk");
  tf_request_add_fix(&call, "B_r", 128, "$.problem.fix.B_r");
  tf_request_add_require(&call, "B_c <= 128", "$.problem.require[0]");
  tf_request_add_objective(&call, "max B_r", "$.problem.objective[0]");
  tf_request_add_objective(&call, "max B_c", "$.problem.objective[1]");
  tf_request_overlay(&base, &call);
  ck_assert_int_eq(base.nfixes, 2);
  ck_assert_str_eq(base.fixes[0].name, "B_c");
  ck_assert_str_eq(base.fixes[1].name, "B_r");
  ck_assert_int_eq(base.fixes[1].value, 128);
  ck_assert_str_eq(base.fixes[1].where, "$.problem.fix.B_r");
  ck_assert_int_eq(base.nrequires, 2);
  ck_assert_str_eq(base.requires[1].text, "B_c <= 128");
  ck_assert_int_eq(base.nobjectives, 2);
  ck_assert_str_eq(base.objectives[0].text, "max B_r");
  ck_assert_str_eq(base.solver, "glpk"); /* the call left it empty */
  tf_request_release(&base);
  tf_request_release(&call);
}
END_TEST

/* ------------------------------------------------ the command-option table */

/* A value of the kind, as the command line spells it (NULL: it takes none)
 * and as JSON; whether it is valid does not matter, only that the option
 * is known. */
static const char *cli_value(int kind) {
  static const char *const v[] = {"1", "1", NULL, NULL, "x", "x", "A=B", "1/2", "x"};
  return v[kind];
}
static const char *json_value(int kind, const char *key) {
  static const char *const v[] = {"1", "1", "true", "true", "\"x\"", "\"x\"", "{}", "[1, 2]", "\"x\""};
  return kind == TF_OPTK_OPERAND && strcmp(key, "file") ? (strcmp(key, "kind") ? "{}" : "\"map\"") : v[kind];
}

/* The command line takes exactly the table's rows for each command: a
 * row's flag is an option of its commands (not "unknown option") and of
 * no other. */
static void cli_takes_the_table(unsigned bit) {
  const tf_command *cmd = tf_cli_command(bit);
  ck_assert_ptr_nonnull(cmd);
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++) {
    const tf_command_option *o = &tf_command_options[i];
    if (!(o->fronts & TF_FRONT_CLI))
      continue;
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", o->flag);
    char *argv[] = {(char *)cmd->name, flag, (char *)cli_value(o->kind), NULL};
    tf_args a;
    tf_args_init(&a);
    tf_error e;
    tf_error_init(&e);
    int rc = tf_args_parse(argv[2] ? 3 : 2, argv, cmd, &a, &e);
    int unknown = rc && strstr(e.msg, "unknown option") != NULL;
    ck_assert_msg(unknown == !(o->commands & bit), "%s %s: %s", cmd->name, flag, rc ? e.msg : "taken");
    tf_args_release(&a);
  }
}

/* The JSON API's command `name` (plot's kind `kind`) takes exactly the
 * rows of the commands `bits`. */
static void json_takes_the_table(const char *name, const char *kind, unsigned bits) {
  for (size_t i = 0; i < TF_NCOMMAND_OPTIONS; i++) {
    const tf_command_option *o = &tf_command_options[i];
    if (!(o->fronts & TF_FRONT_JSON) || (kind && !strcmp(o->key, "kind")))
      continue;
    char request[256];
    snprintf(request, sizeof request, "{\"cmd\": \"%s\", \"%s\": %s%s%s%s}", name, o->key, json_value(o->kind, o->key),
             kind ? ", \"kind\": \"" : "", kind ? kind : "", kind ? "\"" : "");
    int status = -1;
    char *answer = tf_call_json(request, &status);
    char unknown[96];
    snprintf(unknown, sizeof unknown, "\"path\":\"$.%s\"", o->key);
    int refused = status == 2 && strstr(answer, "unknown key") && strstr(answer, unknown);
    ck_assert_msg(refused == !(o->commands & bits), "%s: %s", request, answer);
    tf_free(answer);
  }
}

/* Every front end takes exactly the options of solver/command_options.h's
 * table for each command: the command line and the JSON API here, Python
 * in tests/python (Request.test_exactly_the_options_of_the_table). */
START_TEST(every_front_end_takes_the_table) {
  static const struct {
    const char *json, *kind;
    unsigned bit;
  } cmds[] = {
      {"solve", NULL, TF_CMD_SOLVE}, {"check", NULL, TF_CMD_CHECK},    {"layout", NULL, TF_CMD_LAYOUT},
      {"emit", NULL, TF_CMD_EMIT},   {"sweep", NULL, TF_CMD_SWEEP},    {"validate", NULL, TF_CMD_VALIDATE},
      {"prune", NULL, TF_CMD_PRUNE}, {"plot", "map", TF_CMD_PLOT_MAP}, {"plot", "sweep", TF_CMD_PLOT_SWEEP},
      {NULL, NULL, TF_CMD_MACHINES}, {NULL, NULL, TF_CMD_WORKSETS},    {NULL, NULL, TF_CMD_MERGE},
      {NULL, NULL, TF_CMD_PROBE},
  };
  for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
    cli_takes_the_table(cmds[c].bit);
    if (cmds[c].json) /* one JSON plot takes both kinds' keys */
      json_takes_the_table(cmds[c].json, cmds[c].kind,
                           cmds[c].kind ? TF_CMD_PLOT_MAP | TF_CMD_PLOT_SWEEP : cmds[c].bit);
  }
  /* every command's name is the table's: the option parser names the
   * commands that take an option by tf_command_name */
  for (unsigned bit = 1; bit <= TF_CMD_LAST; bit <<= 1) {
    ck_assert_ptr_nonnull(tf_cli_command(bit));
    ck_assert_str_eq(tf_cli_command(bit)->name, tf_command_name(bit));
  }
  /* each read by its kind: a FLAG is true or false (top_points took 0 or 1, and Python's True failed) */
  free(call("{\"cmd\": \"solve\", \"top\": 2, \"top_points\": true, \"problem\": {\"machine\": \"a100\", "
            "\"workset\": \"fa2-fwd\"}}",
            0));
  char *answer = call("{\"cmd\": \"options\"}", 0);
  ck_assert_msg(strstr(answer, "{\"key\":\"time_limit\",\"flag\":\"time-limit\",\"kind\":\"seconds\"") != NULL, "%s",
                answer);
  tf_free(answer);
}
END_TEST

Suite *api_suite(void) {
  Suite *s = suite_create("api");
  TCase *tc = tcase_create("json");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, solve_is_the_command_lines_json);
  tcase_add_test(tc, every_request_field);
  tcase_add_test(tc, every_front_end_takes_the_table);
  tcase_add_test(tc, errors_spelled_by_each_front_end);
  tcase_add_test(tc, overlay_is_a_later_problem_object);
  tcase_add_test(tc, infeasible_and_no_fit_are_status_1);
  tcase_add_test(tc, top_is_an_array_in_rank_order);
  tcase_add_test(tc, bad_requests_name_the_field);
  tcase_add_test(tc, hostile_json_is_refused);
  tcase_add_test(tc, sweep_points_in_order);
  tcase_add_test(tc, prune_is_the_command_lines_array);
  tcase_add_test(tc, validate_counts_as_the_command_line);
  tcase_add_test(tc, validate_measured_as_the_command_line);
  tcase_add_test(tc, names_and_version);
  tcase_add_test(tc, no_hidden_state_in_the_library);
  tcase_add_test(tc, out_of_memory_is_an_answer);
  tcase_add_test(tc, errors_name_the_request_field);
  tcase_add_test(tc, explain_is_the_command_lines);
  tcase_add_test(tc, handle_calls_are_plain_calls);
  tcase_add_test(tc, sweep_to_a_descriptor);
  tcase_add_test(tc, sweep_to_a_closed_pipe);
  tcase_add_test(tc, sweep_past_a_file_size_limit);
  tcase_add_test(tc, sweep_writes_no_file);
  tcase_add_test(tc, sweep_bad_problem_answers);
  tcase_add_test(tc, machine_and_workset_in_full);
  tcase_add_test(tc, plot_map_is_the_command_lines_svg);
  tcase_add_test(tc, cutlass_name_is_the_command_lines);
  tcase_add_test(tc, out_of_memory_in_a_sweep_worker);
  suite_add_tcase(s, tc);
  /* its own case: `make tsan` runs it alone under ThreadSanitizer */
  TCase *threads = tcase_create("threads");
  tcase_set_timeout(threads, 120);
  tcase_add_test(threads, threads_get_the_sequential_answers);
  tcase_add_test(threads, every_command_from_16_threads);
  suite_add_tcase(s, threads);
  return s;
}
