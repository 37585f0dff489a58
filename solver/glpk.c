/* The GLPK backend (solver/backend.h): the only file that includes <glpk.h>.
 * GLPK reports misuse by calling abort() unless an error hook takes over;
 * ours frees GLPK's (per-thread) environment and longjmps back, so a GLPK
 * failure becomes TF_ESOLVER with GLPK's own message.  Everything this file
 * allocates while GLPK runs hangs off the guard or the solution, so the
 * longjmp path frees it all. */
#define _GNU_SOURCE /* memfd_create */
#include "solver/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <glpk.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/core/alloc.h"
#include "solver/output.h"

/* State shared with GLPK's hooks, one per solving thread. */
struct guard {
  jmp_buf jmp;
  char last[256]; /* GLPK's last terminal line, for error messages */
  int *ind;       /* row scratch (1-based, as GLPK wants), freed on both paths */
  double *val;
  size_t cap;
  int model_fd; /* --lp/--mps in memory while GLPK writes it, else -1 */
};

/* Room for a row of n entries in the guard's scratch. */
static void scratch(struct guard *g, size_t n) {
  if (n + 1 > g->cap) {
    g->cap = n + 1;
    TF_NREALLOC(g->ind, g->cap);
    TF_NREALLOC(g->val, g->cap);
  }
}

/* Hands GLPK one row of a tf_lin through the guard's scratch. */
static void set_row(glp_prob *lp, struct guard *g, int row, const tf_lin *lin) {
  scratch(g, lin->n);
  for (size_t k = 0; k < lin->n; k++) {
    g->ind[k + 1] = (int)lin->ind[k] + 1;
    g->val[k + 1] = lin->val[k];
  }
  glp_set_mat_row(lp, row, (int)lin->n, g->ind, g->val);
}

static int on_term(void *info, const char *s) {
  struct guard *g = info;
  /* GLPK's error() prints the reason, then "Error detected in file F at
   * line N": keep the reason */
  if (s && *s && strcmp(s, "\n") && strncmp(s, "Error detected in file", 22)) {
    snprintf(g->last, sizeof g->last, "%s", s);
    size_t n = strlen(g->last);
    while (n && (g->last[n - 1] == '\n' || g->last[n - 1] == ' '))
      g->last[--n] = 0;
  }
  return 1; /* never print: stdout carries results only */
}

static void on_error(void *info) {
  struct guard *g = info;
  glp_free_env();
  longjmp(g->jmp, 1);
}

static void install(struct guard *g) {
  g->last[0] = 0;
  glp_term_hook(on_term, g);
  glp_error_hook(on_error, g);
}

static void load(glp_prob *lp, struct guard *g, const tf_ilp *ilp) {
  glp_set_prob_name(lp, "tilefit");
  glp_add_cols(lp, (int)ilp->ncols);
  for (size_t j = 0; j < ilp->ncols; j++) {
    const tf_ilp_col *c = &ilp->cols[j];
    int col = (int)j + 1;
    glp_set_col_name(lp, col, c->name);
    glp_set_col_kind(lp, col, c->kind == TF_COL_BIN ? GLP_BV : GLP_IV);
    if (c->kind != TF_COL_BIN)
      glp_set_col_bnds(lp, col, c->lo == c->hi ? GLP_FX : GLP_DB, c->lo, c->hi);
  }
  if (ilp->nrows)
    glp_add_rows(lp, (int)ilp->nrows);
  for (size_t i = 0; i < ilp->nrows; i++) {
    const tf_ilp_row *r = &ilp->rows[i];
    int row = (int)i + 1;
    glp_set_row_name(lp, row, r->name);
    int type = r->sense == TF_SENSE_LE ? GLP_UP : r->sense == TF_SENSE_GE ? GLP_LO : GLP_FX;
    glp_set_row_bnds(lp, row, type, r->rhs, r->rhs);
    set_row(lp, g, row, &r->lin);
  }
}

static void set_objective(glp_prob *lp, const tf_ilp *ilp, size_t o) {
  for (size_t j = 0; j < ilp->ncols; j++)
    glp_set_obj_coef(lp, (int)j + 1, 0);
  const tf_ilp_obj *ob = &ilp->objs[o];
  glp_set_obj_name(lp, "objective"); /* the text has spaces, which LP and MPS names may not */
  glp_set_obj_dir(lp, ob->maximize ? GLP_MAX : GLP_MIN);
  for (size_t k = 0; k < ob->lin.n; k++)
    glp_set_obj_coef(lp, (int)ob->lin.ind[k] + 1, glp_get_obj_coef(lp, (int)ob->lin.ind[k] + 1) + ob->lin.val[k]);
}

/* Pins an optimum found at one level before the next level is solved.
 * Objectives are integral, so the bound is exact. */
static void fix_objective(glp_prob *lp, struct guard *g, const tf_ilp *ilp, size_t o, double value) {
  const tf_ilp_obj *ob = &ilp->objs[o];
  int row = glp_add_rows(lp, 1);
  char name[64];
  snprintf(name, sizeof name, "level%zu", o + 1);
  glp_set_row_name(lp, row, name);
  set_row(lp, g, row, &ob->lin);
  glp_set_row_bnds(lp, row, ob->maximize ? GLP_LO : GLP_UP, value, value);
}

/* The best bound the branch and bound has proven, recorded from its
 * callback, for the time-limit message. */
struct progress {
  int has_bound;
  double bound;
};

static void on_tree(glp_tree *tree, void *info) {
  struct progress *pr = info;
  int best = glp_ios_best_node(tree);
  if (best) {
    double b = glp_ios_node_bound(tree, best);
    if (fabs(b) < 1e300) /* the root's bound is +-DBL_MAX until its LP is solved */
      pr->bound = b, pr->has_bound = 1;
  }
}

/* Objectives are integral: a bound rounds toward the optimum it bounds. */
static double integral_bound(glp_prob *lp, double b) {
  return glp_get_obj_dir(lp) == GLP_MAX ? floor(b + 1e-6) : ceil(b - 1e-6);
}

/* One MIP solve within limit_s seconds (<= 0: none): 0 optimal, 1
 * infeasible, -1 error. */
static int solve_level(glp_prob *lp, const tf_solve_opts *o, double limit_s, double *value, tf_error *err) {
  glp_iocp parm;
  glp_init_iocp(&parm);
  struct progress pr = {0, 0};
  parm.cb_func = on_tree;
  parm.cb_info = &pr;
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = o->presolve ? GLP_ON : GLP_OFF;
  if (limit_s > 0)
    parm.tm_lim = (int)(limit_s * 1000 > 2e9 ? 2e9 : limit_s * 1000 < 1 ? 1 : limit_s * 1000);
  if (!o->presolve) {
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    int rc = glp_simplex(lp, &sm);
    if (rc == GLP_ENOPFS || glp_get_status(lp) == GLP_NOFEAS)
      return 1;
    if (rc != 0)
      return tf_error_set(err, TF_ESOLVER, NULL, "GLPK simplex failed (code %d)", rc);
  }
  int rc = glp_intopt(lp, &parm);
  int st = glp_mip_status(lp);
  if (rc == GLP_ENOPFS || rc == GLP_ENODFS || (rc == 0 && st == GLP_NOFEAS))
    return 1;
  if (rc == GLP_ETMLIM) {
    char bound[64] = "no bound known";
    if (pr.has_bound)
      snprintf(bound, sizeof bound, "best bound %.0f", integral_bound(lp, pr.bound));
    if (st == GLP_FEAS)
      return tf_error_set(err, TF_ESOLVER, NULL,
                          "time limit of %.3g s reached; best objective found %.0f, %s, not proven optimal",
                          o->time_limit_s, glp_mip_obj_val(lp), bound);
    return tf_error_set(err, TF_ESOLVER, NULL, "time limit of %.3g s reached before any feasible solution; %s",
                        o->time_limit_s, bound);
  }
  if (rc != 0 || st != GLP_OPT)
    return tf_error_set(err, TF_ESOLVER, NULL, "GLPK failed (glp_intopt code %d, status %d)", rc, st);
  *value = glp_mip_obj_val(lp);
  return 0;
}

/* Whether GLPK's text is complete: it ends with the format's last line. */
static int complete(const char *text, size_t len, int mps) {
  const char *last = mps ? "\nENDATA\n" : "\nEnd\n";
  size_t n = strlen(last);
  return len >= n && !memcmp(text + len - n, last, n);
}

/* GLPK writes the model into memory (a memfd, named to GLPK as
 * /proc/self/fd/N), and the text is taken only when it is complete:
 * glp_write_lp and glp_write_mps return 0 even when a write or the close
 * fails (a full disk gave an empty file, a file-size limit a cut one).
 * Returns the text, NULL on failure. */
static char *model_text(glp_prob *lp, struct guard *g, int mps, size_t *len) {
  g->model_fd = memfd_create("tilefit-model", MFD_CLOEXEC);
  if (g->model_fd < 0)
    return NULL;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", g->model_fd);
  tf_write_guard guard; /* a file-size limit on the memfd: EFBIG, not SIGXFSZ */
  tf_write_guard_hold(&guard);
  int rc = mps ? glp_write_mps(lp, GLP_MPS_FILE, NULL, path) : glp_write_lp(lp, NULL, path);
  tf_write_guard_release(&guard);
  struct stat st;
  char *text = NULL;
  if (!rc && !fstat(g->model_fd, &st) && st.st_size > 0) {
    text = tf_nalloc((size_t)st.st_size + 1, 1);
    *len = (size_t)st.st_size;
    if (pread(g->model_fd, text, *len, 0) != (ssize_t)*len || !complete(text, *len, mps)) {
      free(text);
      text = NULL;
    }
  }
  close(g->model_fd);
  g->model_fd = -1;
  return text;
}

/* What one guarded call does with GLPK's problem: a solve or a write. */
struct job {
  const tf_ilp *ilp;
  const tf_solve_opts *o;
  tf_solution *s; /* a solve's, else NULL */
  size_t level;   /* a write's */
  const double *pins;
  const char *file, *where; /* a write's, for messages */
  int mps;
  char **text; /* a write's result */
  size_t *len;
};

/* The model as it stands, as text (*j->text, the caller's to free). */
static int write_model(glp_prob *lp, struct guard *g, const struct job *j, tf_error *err) {
  errno = 0;
  *j->text = model_text(lp, g, j->mps, j->len);
  if (!*j->text)
    return tf_error_set(err, TF_EOUTPUT, j->where, "cannot write %s: %s", j->file,
                        errno ? strerror(errno) : "GLPK's text of the model came back incomplete");
  return 0;
}

static int solve_guarded(glp_prob *lp, struct guard *g, const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s,
                         tf_error *err) {
  load(lp, g, ilp);
  s->objval = tf_nalloc(ilp->nobjs + 1, sizeof *s->objval);
  if (o->fault) /* an invalid column, with the scratch and the solution allocated: GLPK's error path */
    glp_set_col_bnds(lp, (int)ilp->ncols + 7, GLP_FX, 0, 0);
  size_t levels = ilp->nobjs ? ilp->nobjs : 1;
  double t0 = glp_time(); /* the time limit is the whole solve's, every level within it */
  for (size_t i = 0; i < levels; i++) {
    if (ilp->nobjs)
      set_objective(lp, ilp, i);
    double v = 0, left = o->time_limit_s - glp_difftime(glp_time(), t0);
    int rc = solve_level(lp, o, o->time_limit_s > 0 ? (left > 0.001 ? left : 0.001) : 0, &v, err);
    if (rc < 0)
      return -1;
    if (rc == 1) {
      s->status = TF_SOL_INFEASIBLE;
      return 0;
    }
    if (ilp->nobjs) {
      s->objval[i] = round(v);
      s->nobjs = i + 1;
      if (i + 1 < ilp->nobjs)
        fix_objective(lp, g, ilp, i, s->objval[i]);
    }
  }
  s->status = TF_SOL_OPTIMAL;
  s->ncols = ilp->ncols;
  s->x = tf_nalloc(ilp->ncols + 1, sizeof *s->x);
  for (size_t j = 0; j < ilp->ncols; j++)
    s->x[j] = glp_mip_col_val(lp, (int)j + 1);
  return 0;
}

static int write_guarded(glp_prob *lp, struct guard *g, const struct job *j, tf_error *err) {
  load(lp, g, j->ilp);
  if (j->ilp->nobjs)
    set_objective(lp, j->ilp, j->level);
  for (size_t i = 0; i < j->level; i++)
    fix_objective(lp, g, j->ilp, i, j->pins[i]);
  return write_model(lp, g, j, err);
}

static void guard_free(struct guard *g) {
  if (g->model_fd >= 0)
    close(g->model_fd);
  free(g->ind);
  free(g->val);
  free(g);
}

/* Runs a job with GLPK's error hook installed: a GLPK error is
 * TF_ESOLVER with its message, whatever the job had allocated freed. */
static int guarded(const struct job *j, tf_error *err) {
  struct guard *g = tf_nalloc(1, sizeof *g);
  g->model_fd = -1;
  glp_prob *volatile lp = NULL;
  int rc;
  if (setjmp(g->jmp)) {
    /* GLPK's environment, and with it lp, is gone; what we allocated is
     * in g and j->s */
    rc = tf_error_set(err, TF_ESOLVER, NULL, "GLPK error: %s", g->last[0] ? g->last : "unknown");
    if (j->s)
      tf_solution_release(j->s);
    guard_free(g);
    return rc;
  }
  install(g);
  lp = glp_create_prob();
  rc = j->s ? solve_guarded(lp, g, j->ilp, j->o, j->s, err) : write_guarded(lp, g, j, err);
  glp_delete_prob(lp);
  glp_error_hook(NULL, NULL);
  glp_term_hook(NULL, NULL);
  guard_free(g);
  if (rc && j->s)
    tf_solution_release(j->s);
  return rc;
}

static int glpk_solve(const tf_ilp *ilp, const tf_solve_opts *o, tf_solution *s, tf_error *err) {
  memset(s, 0, sizeof *s);
  struct job j = {ilp, o, s, 0, NULL, NULL, NULL, 0, NULL, NULL};
  return guarded(&j, err);
}

static int glpk_text(const tf_ilp *ilp, size_t level, const double *pins, int mps, const char *file, const char *where,
                     char **text, size_t *len, tf_error *err) {
  *text = NULL;
  struct job j = {ilp, NULL, NULL, level, pins, file, where, mps, text, len};
  int rc = guarded(&j, err);
  if (rc) { /* a GLPK error after the text was taken: nothing goes out */
    free(*text);
    *text = NULL;
  }
  return rc;
}

static void glpk_thread_done(void) { glp_free_env(); }

const tf_backend tf_backend_glpk = {"glpk", glpk_solve, glpk_text, glpk_thread_done};
