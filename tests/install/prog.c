/* A program outside the tree, built against an installed tilefit:
 *   cc prog.c $(pkg-config --cflags --libs tilefit)
 * FlashAttention-4's K/V pipeline depth on a B200 through the C structures,
 * then the same question through the JSON entry point. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilefit/tilefit.h>

static int fail(const tf_error *err) {
  char buf[1024];
  tf_error_format(err, buf, sizeof buf);
  fprintf(stderr, "prog: %s\n", buf);
  return 2;
}

static int solve_structures(void) {
  tf_error err;
  tf_error_init(&err);
  tf_request req;
  tf_request_init(&req);
  req.machine = strdup("b200");
  req.workset = strdup("fa4-fwd");
  tf_request_add_param(&req, "d", 128, "d");
  tf_request_add_param(&req, "dv", 128, "dv");
  tf_request_add_fix(&req, "B_r", 128, "B_r");
  tf_request_add_fix(&req, "B_c", 128, "B_c");
  tf_request_add_fix(&req, "q_stage", 2, "q_stage");
  tf_request_add_objective(&req, "max stages", "objective");
  tf_loaded l;
  int rc = 2;
  if (tf_load(&req, "machine", "workset", &l, &err)) {
    rc = fail(&err);
  } else {
    tf_problem *p = tf_problem_new(l.machine, l.workset, &req, &err);
    tf_solve_opts o;
    tf_solve_opts_init(&o);
    tf_answer a;
    if (!p) {
      rc = fail(&err);
    } else {
      tf_answer_init(&a, p);
      if (tf_solve(p, &o, NULL, &a, &err)) {
        rc = fail(&err);
      } else {
        printf("%s on %s: %s", p->workset->name, p->machine->name, tf_answer_status_name(a.status));
        for (int k = 0; k < p->ncounts; k++)
          printf(", %s = %lld", p->count_names[k], (long long)a.counts[k]);
        printf(" (smem %lld of %lld B)\n", (long long)a.point.used[TF_MEM_SMEM], (long long)p->capacity[TF_MEM_SMEM]);
        rc = a.status == TF_ANSWER_OPTIMAL ? 0 : 1;
      }
      tf_answer_release(&a);
    }
    tf_problem_free(p);
    tf_loaded_release(&l);
  }
  tf_request_release(&req);
  return rc;
}

static int solve_json(void) {
  int status;
  char *answer = tf_call_json("{\"cmd\": \"solve\", \"problem\": {\"machine\": \"b200\", \"workset\": \"fa4-fwd\","
                              " \"params\": {\"d\": 128, \"dv\": 128}, \"fix\": {\"B_r\": 128, \"B_c\": 128,"
                              " \"q_stage\": 2}, \"objective\": [\"max stages\"]}}",
                              &status);
  const char *values = strstr(answer, "\"values\":");
  printf("tf_call_json: status %d, %.*s\n", status, values ? (int)(strchr(values, '}') - values + 1) : 0,
         values ? values : "");
  tf_free(answer);
  return status;
}

int main(void) {
  int rc = solve_structures();
  return rc ? rc : solve_json();
}
