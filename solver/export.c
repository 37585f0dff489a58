#include "export.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "encode/build.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "solver/backend.h"
#include "solver/output.h"

int tf_export_level_name(const char *file, size_t level, char *buf, size_t size) {
  if (level == 0)
    return snprintf(buf, size, "%s", file) < (int)size ? 0 : -1;
  const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file, *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - file) : strlen(file);
  int n = snprintf(buf, size, "%.*s.level%zu%s", (int)stem, file, level + 1, file + stem);
  return n >= 0 && n < (int)size ? 0 : -1;
}

/* The files of one call, open on their temporary names until every one
 * is written (solver/output.h). */
struct files {
  tf_output *out;
  size_t n, cap;
};

/* Writes every level of one format to a new output of f. */
static int write_levels(const tf_ilp *ilp, size_t levels, const double *pins, const char *file, int mps,
                        struct files *f, tf_error *err) {
  const char *where = mps ? "@mps" : "@lp";
  char name[4096];
  for (size_t i = 0; i < levels; i++) {
    if (tf_export_level_name(file, i, name, sizeof name))
      return tf_error_set(err, TF_EINPUT, where, "file name too long: '%s'", file);
    char *text;
    size_t len;
    if (TF_BACKEND_WRITER->text(ilp, i, pins, mps, name, where, &text, &len, err))
      return -1;
    tf_output o;
    int rc = tf_output_open(&o, name, TF_OUTPUT_WHOLE, where, err);
    if (!rc && tf_output_write(&o, text, len, err))
      tf_output_abandon(&o), rc = -1;
    free(text);
    if (rc)
      return -1;
    TF_PUSH(f->out, f->n, f->cap, o);
  }
  return 0;
}

/* The optimum of each level, the pins of the levels after it. */
static int level_pins(const tf_problem *p, const tf_answer *a, const char *where, double *pins, tf_error *err) {
  for (size_t o = 0; a->status == TF_ANSWER_OPTIMAL && o < p->nobjective; o++) {
    pins[o] = (double)a->point.objective[o];
    if (a->point.objective[o] > TF_JSON_EXACT || a->point.objective[o] < -TF_JSON_EXACT)
      return tf_error_set(err, TF_EINPUT, where,
                          "'%s' is %lld at the optimum, beyond 2^53: a model file cannot pin it exactly",
                          p->objective[o].text, (long long)a->point.objective[o]);
  }
  return 0;
}

/* Where a name leads: its folder's real path and its base name (the folder
 * must exist to be written in), so "./m.lp" and "m.lp" are one file. */
static void place_of(const char *name, char *out, size_t size) {
  const char *slash = strrchr(name, '/');
  char dir[4096], real[PATH_MAX];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - name) : 1, slash ? (slash == name ? "/" : name) : ".");
  if (!realpath(dir, real))
    snprintf(real, sizeof real, "%s", dir);
  snprintf(out, size, "%s/%s", real, slash ? slash + 1 : name);
}

/* Is file a (an existing one, through links) the same as file b? */
static int same_file(const char *a, const char *b) {
  char pa[PATH_MAX + 256], pb[PATH_MAX + 256];
  struct stat sa, sb;
  if (!stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
    return 1;
  place_of(a, pa, sizeof pa);
  place_of(b, pb, sizeof pb);
  return !strcmp(pa, pb);
}

/* The --lp and --mps files of every level, before anything is solved
 * into them: one file written twice would keep only the format written
 * last (--lp m.lp --mps m.lp, or --lp m --mps m.level2, whose level 2 is
 * --mps's level 1). */
static int names_apart(const char *lp_file, const char *mps_file, size_t levels, tf_error *err) {
  if ((lp_file && !*lp_file) || (mps_file && !*mps_file))
    return tf_error_set(err, TF_EINPUT, lp_file && !*lp_file ? "@lp" : "@mps", "expected a file name");
  char a[4096], b[4096];
  for (size_t i = 0; lp_file && mps_file && i < levels; i++)
    for (size_t j = 0; j < levels; j++)
      if (!tf_export_level_name(lp_file, i, a, sizeof a) && !tf_export_level_name(mps_file, j, b, sizeof b) &&
          same_file(a, b))
        return tf_error_set(err, TF_EINPUT, "@mps",
                            "%s is also @{lp}'s file of level %zu (%s): give the two "
                            "formats names apart",
                            b, i + 1, a);
  return 0;
}

/* Every file of both formats is written to its temporary name first; only
 * when all are whole is any renamed over its target, so that a full disk
 * at the last level leaves every earlier model file as it was. */
int tf_export_model(const tf_problem *p, const tf_answer *a, const char *lp_file, const char *mps_file, tf_error *err) {
  size_t levels = a->status == TF_ANSWER_OPTIMAL && p->nobjective ? p->nobjective : 1;
  tf_model m;
  if (names_apart(lp_file, mps_file, levels, err) || tf_model_build(&m, p, err))
    return -1;
  double *pins = tf_nalloc(p->nobjective + 1, sizeof *pins);
  struct files f = {NULL, 0, 0};
  int rc = level_pins(p, a, lp_file ? "@lp" : "@mps", pins, err) ||
           (lp_file && write_levels(&m.ilp, levels, pins, lp_file, 0, &f, err)) ||
           (mps_file && write_levels(&m.ilp, levels, pins, mps_file, 1, &f, err));
  if (rc)
    for (size_t i = 0; i < f.n; i++)
      tf_output_abandon(&f.out[i]);
  else
    rc = tf_output_commit_all(f.out, f.n, err);
  free(f.out);
  free(pins);
  tf_model_release(&m);
  return rc ? -1 : 0;
}
