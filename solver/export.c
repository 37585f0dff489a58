#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/build.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "solver/backend.h"

int tf_export_level_name(const char *file, size_t level, char *buf, size_t size) {
  if (level == 0)
    return snprintf(buf, size, "%s", file) < (int)size ? 0 : -1;
  const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file, *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - file) : strlen(file);
  int n = snprintf(buf, size, "%.*s.level%zu%s", (int)stem, file, level + 1, file + stem);
  return n >= 0 && n < (int)size ? 0 : -1;
}

static void remove_levels(const char *file, size_t levels) {
  char name[4096];
  for (size_t i = 0; i < levels; i++)
    if (!tf_export_level_name(file, i, name, sizeof name))
      remove(name);
}

/* Writes every level of one format; removes what it wrote on failure. */
static int write_levels(const tf_ilp *ilp, size_t levels, const double *pins, const char *file, int mps,
                        tf_error *err) {
  const char *where = mps ? "--mps" : "--lp";
  char name[4096];
  for (size_t i = 0; i < levels; i++) {
    if (tf_export_level_name(file, i, name, sizeof name))
      return tf_error_set(err, TF_EINPUT, where, "file name too long: '%s'", file);
    if (TF_BACKEND_WRITER->write(ilp, i, pins, name, mps, where, err))
      return remove_levels(file, i), -1;
  }
  return 0;
}

int tf_export_model(const tf_problem *p, const tf_answer *a, const char *lp_file, const char *mps_file,
                    tf_error *err) {
  tf_model m;
  if (tf_model_build(&m, p, err))
    return -1;
  size_t levels = a->status == TF_ANSWER_OPTIMAL && p->nobjective ? p->nobjective : 1;
  double *pins = tf_nalloc(p->nobjective + 1, sizeof *pins);
  int rc = 0;
  for (size_t o = 0; a->status == TF_ANSWER_OPTIMAL && o < p->nobjective && !rc; o++) {
    pins[o] = (double)a->point.objective[o];
    if (a->point.objective[o] > TF_JSON_EXACT || a->point.objective[o] < -TF_JSON_EXACT)
      rc = tf_error_set(err, TF_EINPUT, lp_file ? "--lp" : "--mps",
                        "'%s' is %lld at the optimum, beyond 2^53: a model file cannot pin it exactly",
                        p->objective[o].text, (long long)a->point.objective[o]);
  }
  rc = rc || (lp_file && write_levels(&m.ilp, levels, pins, lp_file, 0, err)) ||
       (mps_file && write_levels(&m.ilp, levels, pins, mps_file, 1, err));
  if (rc && lp_file && mps_file) /* the --mps files failed: the --lp ones go too */
    remove_levels(lp_file, levels);
  free(pins);
  tf_model_release(&m);
  return rc ? -1 : 0;
}
