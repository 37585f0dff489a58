#include "solver/run.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/input/place.h"

int tf_run_arch_check(const tf_machine *m, const tf_workset *w, const tf_request *req, const char *where,
                      const char *hint, tf_error *err) {
  tf_error e;
  tf_error_init(&e);
  if (!tf_place_check_machine(m, w, req->any_arch, &e))
    return 0;
  tf_error_set(err, TF_EINPUT, where, "%s%s", e.msg, hint ? hint : "");
  tf_error_set_at(err, e.at);
  return -1;
}

static int bind(const tf_request *req, const char *mwhere, const char *wwhere, const char *arch_where,
                double time_limit_s, int on_demand, tf_run *r, tf_error *err) {
  memset(r, 0, sizeof *r);
  if (tf_load(req, mwhere, wwhere, &r->loaded, err) ||
      (arch_where && tf_run_arch_check(r->loaded.machine, r->loaded.workset, req, arch_where, NULL, err)))
    return -1;
  r->problem = on_demand ? tf_problem_new_on_demand(r->loaded.machine, r->loaded.workset, req, time_limit_s, err)
                         : tf_problem_new_timed(r->loaded.machine, r->loaded.workset, req, time_limit_s, err);
  return r->problem ? 0 : -1;
}

int tf_run_bind(const tf_request *req, const char *mwhere, const char *wwhere, const char *arch_where,
                double time_limit_s, tf_run *r, tf_error *err) {
  return bind(req, mwhere, wwhere, arch_where, time_limit_s, 0, r, err);
}

int tf_run_bind_on_demand(const tf_request *req, const char *mwhere, const char *wwhere, const char *arch_where,
                          double time_limit_s, tf_run *r, tf_error *err) {
  return bind(req, mwhere, wwhere, arch_where, time_limit_s, 1, r, err);
}

void tf_run_release(tf_run *r) {
  tf_problem_free(r->problem);
  tf_loaded_release(&r->loaded);
  memset(r, 0, sizeof *r);
}

int tf_run_solve(const tf_problem *p, const tf_solve_opts *o, const tf_solve_out *out, int top, int points,
                 tf_ranked *r, tf_error *err) {
  r->cap = top > 0 ? top : 1, r->n = 0;
  r->a = tf_nalloc((size_t)r->cap, sizeof *r->a);
  for (int i = 0; i < r->cap; i++)
    tf_answer_init(&r->a[i], p);
  if (top <= 0) {
    r->n = 1;
    return tf_solve(p, o, out, &r->a[0], err) ? -1 : 0;
  }
  if ((points ? tf_solve_top : tf_solve_configs)(p, o, top, r->a, &r->n, err))
    return -1;
  for (int i = 0; i < r->n; i++)
    r->a[i].rank = i + 1;
  return 0;
}

void tf_ranked_release(tf_ranked *r) {
  for (int i = 0; r->a && i < r->cap; i++)
    tf_answer_release(&r->a[i]);
  free(r->a);
  memset(r, 0, sizeof *r);
}
