/* FlashAttention-4's K/V pipeline depth on a B200 through the installed
 * header alone (docs/library.md):
 *   cc solve.c $(pkg-config --cflags --libs tilefit) -o solve
 * Load, bind, solve, report; then an error as a value; then the same
 * library through its JSON entry point. */
#include <stdint.h>
#include <stdio.h>

#include <tilefit/tilefit.h>

int main(void) {
  tf_error *err = NULL; /* the first failure of the chain, checked once */
  tf_machine *m = tf_machine_open("b200", &err);
  tf_workset *w = tf_workset_open("fa4-fwd", &err);
  tf_request *r = tf_request_new(&err);
  tf_request_param(r, "d", 128, &err);
  tf_request_param(r, "dv", 128, &err);
  tf_request_fix(r, "B_r", 128, &err);
  tf_request_fix(r, "B_c", 128, &err);
  tf_request_fix(r, "q_stage", 2, &err);
  tf_request_objective(r, "max stages", &err);
  tf_problem *p = tf_problem_bind(m, w, r, &err);
  tf_result *a = tf_problem_solve(p, &err);
  int64_t stages;
  if (!tf_result_value(a, "stages", &stages))
    printf("%s on %s: %s, stages = %lld\n", tf_workset_name(w), tf_machine_name(m), tf_result_status(a),
           (long long)stages);
  tf_report_file(a, TF_REPORT_TEXT, stdout, &err);
  char json[256];
  size_t len;
  if (!tf_report_string(a, TF_REPORT_JSON, json, sizeof json, &len, &err))
    printf("JSON, %zu bytes: %.72s...\n", len, json);
  int status = err ? tf_error_status(err) : 0;
  if (err)
    fprintf(stderr, "solve: %s\n", tf_error_message(err));
  tf_result_free(a);
  tf_problem_free(p);
  tf_request_free(r);
  tf_workset_free(w);
  tf_machine_free(m);
  tf_error_free(err);

  /* An error is a value: a status and the line the command would print. */
  tf_error *bad = NULL;
  if (!tf_workset_open("fa5-fwd", &bad)) {
    char line[512];
    tf_error_format(bad, line, sizeof line);
    printf("status %d: %s\n", tf_error_status(bad), line);
  }
  tf_error_free(bad);

  char *answer = tf_call_json("{\"cmd\": \"version\"}", NULL);
  printf("tilefit %s, tf_call_json: %s\n", tf_version(), answer);
  tf_free(answer);
  return status;
}
