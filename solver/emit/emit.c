#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/core/alloc.h"
#include "model/core/json_out.h"
#include "model/core/text.h"
#include "solver/report.h"
#include "solver/solve.h"

static const struct {
  const char *name;
  int (*write)(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err);
} targets[TF_EMIT_NTARGETS] = {
    {"cutlass", tf_emit_write_cutlass},
    {"cute-dsl", tf_emit_write_cute_dsl},
    {"triton", NULL}, /* tf_emit_write_triton, which takes the keys too */
    {"fa", tf_emit_write_fa},
};

int tf_emit_target(const char *name) {
  for (int t = 0; t < TF_EMIT_NTARGETS; t++)
    if (!strcmp(name, targets[t].name))
      return t;
  return -1;
}

const char *tf_emit_target_name(int target) { return targets[target].name; }

/* Same tile: the same values of the choose variables that are not placements. */
static int same_tile(const tf_problem *p, const tf_answer *x, const tf_answer *y) {
  return !memcmp(x->choose, y->choose, tf_place_nnumeric(p) * sizeof *x->choose);
}

/* Keeps the first (best) answer of each tile among a[0..n-1], moving the
 * kept ones to out[*m...] (up to want) and releasing the rest. */
static void keep_distinct(const tf_problem *p, tf_answer *a, int n, tf_answer *out, int *m, int want) {
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int j = 0; j < *m && !seen; j++)
      seen = same_tile(p, &a[i], &out[j]);
    if (!seen && *m < want)
      out[(*m)++] = a[i];
    else
      tf_answer_release(&a[i]);
  }
}

/* The `want` best distinct tiles: tf_solve_top asked for more each round
 * until there are that many, or no more points. */
static int collect_top(const tf_problem *p, const tf_solve_opts *o, int want, tf_answer *out, int *m, tf_error *err) {
  for (int k = want;; k = k < (1 << 14) ? k * 4 : 1 << 16) {
    tf_answer *a = tf_nalloc((size_t)k, sizeof *a);
    for (int i = 0; i < k; i++)
      tf_answer_init(&a[i], p);
    int n = 0, start;
    if (tf_solve_top(p, o, k, a, &n, err)) {
      for (int i = 0; i < k; i++)
        tf_answer_release(&a[i]);
      free(a);
      return -1;
    }
    for (int i = 0; i < *m; i++) /* each round starts over */
      tf_answer_release(&out[i]);
    *m = 0;
    if (n == 0) { /* infeasible: the first says why */
      out[(*m)++] = a[0];
      start = 1;
    } else {
      keep_distinct(p, a, n, out, m, want);
      start = n;
    }
    for (int i = start; i < k; i++)
      tf_answer_release(&a[i]);
    free(a);
    if (n == 0 || *m >= want || n < k || k >= (1 << 16))
      return 0;
  }
}

static void write_json(FILE *f, int target, const char *text, const tf_problem *p, const tf_answer *a, int n) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "for", targets[target].name);
  tf_json_out_key_string(&w, "text", text ? text : "");
  tf_json_out_key_array(&w, "answers");
  tf_request none;
  tf_request_init(&none);
  for (int i = 0; i < n; i++)
    tf_report_json_write(&w, &none, p, &a[i], 0);
  tf_request_release(&none);
  tf_json_out_end(&w);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
}

static int write_answers(FILE *f, const tf_problem *p, int target, tf_answer *a, int n, int json,
                         const tf_prune_map *keys, tf_error *err) {
  int infeasible = a[0].status == TF_ANSWER_INFEASIBLE || a[0].status == TF_ANSWER_NO_FIT, rc = 0;
  tf_text t;
  FILE *g = json ? tf_text_open(&t) : f;
  if (!infeasible)
    rc =
        target == TF_EMIT_TRITON ? tf_emit_write_triton(g, p, a, n, keys, err) : targets[target].write(g, p, a, n, err);
  if (json) {
    char *text = tf_text_close(&t, NULL);
    if (!rc)
      write_json(f, target, infeasible ? NULL : text, p, a, n);
    free(text);
  }
  return rc;
}

int tf_emit_bind(int target, const tf_problem *p, const tf_request *req, tf_problem **out, tf_error *err) {
  const char *const *extra = target == TF_EMIT_TRITON ? tf_emit_triton_requires(p) : NULL;
  *out = NULL;
  if (!extra)
    return 0;
  tf_request r;
  tf_request_init(&r);
  tf_request_copy(&r, req);
  for (size_t i = 0; extra[i]; i++)
    tf_request_add_require(&r, extra[i], "emit --for triton");
  *out = tf_problem_new_timed(p->machine, p->workset, &r, p->time_limit_s, err);
  tf_request_release(&r);
  return *out ? 0 : -1;
}

int tf_emit_run(FILE *f, const tf_problem *p, const tf_solve_opts *o, int target, int top, int json,
                const tf_prune_map *keys, int *status, tf_error *err) {
  if (keys && keys->n && target != TF_EMIT_TRITON)
    return tf_error_set(err, TF_EINPUT, keys->pairs[0].where, "config keys are Triton's: only --for triton takes them");
  int want = top > 0 ? top : 1, m = 0, rc;
  tf_answer *a = tf_nalloc((size_t)want, sizeof *a);
  if (top > 0) {
    rc = collect_top(p, o, want, a, &m, err);
  } else {
    tf_answer_init(&a[0], p);
    m = 1;
    rc = tf_solve_or_check(p, o, &a[0], err);
  }
  if (!rc) {
    for (int i = 0; i < m; i++)
      a[i].rank = top > 0 ? i + 1 : 0;
    *status = a[0].status;
    rc = write_answers(f, p, target, a, m, json, keys, err);
  }
  for (int i = 0; i < m; i++)
    tf_answer_release(&a[i]);
  free(a);
  return rc;
}
