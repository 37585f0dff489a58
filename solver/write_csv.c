/* The CSV writer (RFC 4180): every string cell goes through tf_csv_field,
 * which quotes it when it must.  One row layout for an answer, whichever
 * command writes it (solve, check, sweep, prune): the columns of
 * tf_csv_columns, a union over worksets, so that every row of one output
 * has the same cells.  Commands put their own columns before it: solve
 * and check "id", a sweep "index,total,id", prune the configuration's. */
#include "solver/report.h"

#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/place_bind.h"
#include "model/core/alloc.h"
#include "model/core/text.h"
#include "solver/answer_view.h"

void tf_csv_field(FILE *f, const char *s) {
  if (!s[strcspn(s, ",\"\n\r")]) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void tf_csv_int(FILE *f, int ok, int64_t v) {
  if (ok)
    fprintf(f, ",%lld", (long long)v);
  else
    fputc(',', f);
}

/* ",PREFIXNAMESUFFIX" as one field: "closed_stages_agrees" */
static void name_cell(FILE *f, const char *prefix, const char *name, const char *suffix) {
  tf_text t;
  FILE *g = tf_text_open(&t);
  fprintf(g, "%s%s%s", prefix, name, suffix);
  char *s = tf_text_close(&t, NULL);
  fputc(',', f);
  tf_csv_field(f, s);
  free(s);
}

/* ------------------------------------------------------------- columns */

static void add_name(char ***v, size_t *n, size_t *cap, const char *name) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i], name))
      return;
  char *copy = tf_strdup(name);
  TF_PUSH(*v, *n, *cap, copy);
}

/* place_NAME for each placed buffer, after the counts. */
static void add_places(tf_csv_columns *c, const tf_workset *w) {
  for (size_t b = 0; b < w->nbuffers; b++)
    if (w->buffers[b].nplace) {
      size_t n = strlen(w->buffers[b].name) + 7;
      char *col = tf_nalloc(n, 1);
      snprintf(col, n, "place_%s", w->buffers[b].name);
      add_name(&c->vars, &c->nvars, &c->capvars, col);
      free(col);
    }
}

void tf_csv_columns_add_workset(tf_csv_columns *c, const tf_workset *w, int occupancy) {
  for (size_t k = 0; k < w->nparams; k++)
    add_name(&c->params, &c->nparams, &c->capparams, w->params[k].name);
  for (size_t k = 0; k < w->nchoose; k++)
    add_name(&c->vars, &c->nvars, &c->capvars, w->choose[k].name);
  if (occupancy) /* the problem's choose variable after the workset's (model/bind/problem.h) */
    add_name(&c->vars, &c->nvars, &c->capvars, "occupancy");
  for (size_t k = 0; k < w->ncounts; k++) {
    add_name(&c->vars, &c->nvars, &c->capvars, w->counts[k].name);
    add_name(&c->counts, &c->ncounts, &c->capcounts, w->counts[k].name);
  }
  add_places(c, w);
  for (size_t k = 0; k < w->nshow; k++)
    add_name(&c->shown, &c->nshown, &c->capshown, w->lets[w->show[k]].name);
  for (size_t b = 0; b < w->nbuffers; b++) { /* a memory a buffer may be placed in, too */
    for (int k = 0; k < w->buffers[b].nplace; k++)
      c->mem[w->buffers[b].place[k]] = 1;
    c->mem[w->buffers[b].memory] = 1;
  }
  tf_csv_columns_add_objectives(c, w->nobjective);
}

void tf_csv_columns_add_problem(tf_csv_columns *c, const tf_problem *p) {
  tf_csv_columns_add_workset(c, p->workset, p->occupancy >= 0);
  tf_csv_columns_add_objectives(c, p->nobjective_shown);
}

void tf_csv_columns_add_objectives(tf_csv_columns *c, size_t n) {
  if (n > c->nobjectives)
    c->nobjectives = n;
}

void tf_csv_columns_release(tf_csv_columns *c) {
  char **names[] = {c->params, c->vars, c->counts, c->shown};
  size_t nnames[] = {c->nparams, c->nvars, c->ncounts, c->nshown};
  for (int l = 0; l < 4; l++) {
    for (size_t i = 0; i < nnames[l]; i++)
      free(names[l][i]);
    free(names[l]);
  }
  memset(c, 0, sizeof *c);
}

void tf_csv_columns_write_header(FILE *f, const tf_csv_columns *c) {
  fputs("machine,workset,status,rank,objectives", f);
  for (size_t i = 0; i < c->nparams; i++)
    name_cell(f, "param_", c->params[i], "");
  for (size_t i = 0; i < c->nvars; i++)
    name_cell(f, "", c->vars[i], "");
  for (size_t i = 0; i < c->nshown; i++)
    name_cell(f, "shown_", c->shown[i], "");
  for (int m = 0; m < TF_NMEM; m++)
    if (c->mem[m])
      fprintf(f, ",%s_used,%s_capacity", tf_memory_name(m), tf_memory_name(m));
  for (size_t o = 0; o < c->nobjectives; o++)
    fprintf(f, ",objective%zu", o + 1);
  for (size_t k = 0; k < c->ncounts; k++) {
    name_cell(f, "closed_", c->counts[k], "");
    name_cell(f, "closed_", c->counts[k], "_agrees");
  }
  fputs(",reason\n", f);
}

char *tf_csv_columns_header(const tf_csv_columns *c, const char *prefix) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  fprintf(f, "%s,", prefix);
  tf_csv_columns_write_header(f, c);
  return tf_text_close(&t, NULL);
}

/* ---------------------------------------------------------------- rows */

/* ",d; e" -- the objectives, bound or as the request gives them */
static void objectives_cell(FILE *f, const tf_request *req, const tf_problem *p) {
  tf_text t;
  FILE *g = tf_text_open(&t);
  size_t n = p ? p->nobjective_shown : req->nobjectives;
  for (size_t o = 0; o < n; o++)
    fprintf(g, "%s%s", o ? "; " : "", p ? p->objective[o].text : req->objectives[o].text);
  char *s = tf_text_close(&t, NULL);
  fputc(',', f);
  tf_csv_field(f, s);
  free(s);
}

static void param_cells(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p) {
  for (size_t i = 0; i < c->nparams; i++) {
    int found = 0;
    int64_t v = 0;
    for (size_t k = 0; p && k < p->workset->nparams && !found; k++)
      if (!strcmp(p->workset->params[k].name, c->params[i]))
        found = 1, v = p->param_values[k];
    for (size_t k = 0; !p && k < req->nparams; k++)
      if (!strcmp(req->params[k].name, c->params[i]))
        found = 1, v = req->params[k].value;
    tf_csv_int(f, found, v);
  }
}

/* A place_NAME column's memory at this answer, or NULL. */
static const char *place_cell(const char *col, const tf_problem *p, const tf_answer *a) {
  for (size_t k = 0; k < tf_place_count(p) && !strncmp(col, "place_", 6); k++) {
    size_t i = tf_place_var(p, k);
    if (!strcmp(col + 6, p->choose_names[i]))
      return tf_memory_name(tf_place_memory(p, i, a->choose[i]));
  }
  return NULL;
}

/* The choose variables (occupancy among them), counts and placements. */
static void var_cells(FILE *f, const tf_csv_columns *c, const tf_problem *p, const tf_answer *a) {
  for (size_t i = 0; i < c->nvars; i++) {
    int found = 0;
    int64_t v = 0;
    const char *mem = a ? place_cell(c->vars[i], p, a) : NULL;
    if (mem) {
      fprintf(f, ",%s", mem);
      continue;
    }
    for (size_t k = 0; a && k < tf_place_nnumeric(p) && !found; k++)
      if (!strcmp(p->choose_names[k], c->vars[i]))
        found = 1, v = a->choose[k];
    for (int k = 0; a && k < p->ncounts && !found; k++)
      if (!strcmp(p->count_names[k], c->vars[i]))
        found = 1, v = a->counts[k];
    tf_csv_int(f, found, v);
  }
}

/* The workset's shown lets at the answer (model/input/show.h); empty where one
 * cannot be evaluated. */
static void shown_cells(FILE *f, const tf_csv_columns *c, const tf_problem *p, const tf_answer *a) {
  for (size_t i = 0; i < c->nshown; i++) {
    int64_t v = 0;
    int ok = 0;
    for (size_t k = 0; a && k < p->workset->nshow && !ok; k++)
      if (!strcmp(p->workset->lets[p->workset->show[k]].name, c->shown[i]))
        ok = !tf_report_shown(p, a, k, &v);
    tf_csv_int(f, ok, v);
  }
}

static void closed_value(FILE *f, int ok, const tf_closed *c) {
  if (ok && c->applies)
    fprintf(f, ",%lld,%s", (long long)c->value, c->agrees ? "yes" : "no");
  else
    fputs(",,", f);
}

/* `a` NULL: no values (infeasible, or no answer at all). */
static void result_cells(FILE *f, const tf_csv_columns *c, const tf_problem *p, const tf_answer *a, int opt) {
  var_cells(f, c, p, a);
  shown_cells(f, c, p, a);
  for (int m = 0; m < TF_NMEM; m++) {
    if (!c->mem[m])
      continue;
    tf_memory_row r = {0, 0, 0, 0};
    if (p)
      r = tf_memory_report(p, m, a ? a->choose : NULL, a ? a->point.used : NULL);
    tf_csv_int(f, r.shown && a, r.used);
    tf_csv_int(f, r.shown, r.capacity);
  }
  for (size_t o = 0; o < c->nobjectives; o++)
    tf_csv_int(f, opt && o < p->nobjective_shown, opt && o < p->nobjective_shown ? a->point.objective[o] : 0);
  for (size_t i = 0; i < c->ncounts; i++) {
    int k = -1;
    for (int j = 0; opt && j < p->ncounts; j++)
      if (!strcmp(p->count_names[j], c->counts[i]))
        k = j;
    closed_value(f, k >= 0, k >= 0 ? &a->closed[k] : NULL);
  }
}

static void row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p, const tf_answer *a,
                const char *status, const char *reason) {
  tf_csv_field(f, p ? p->machine->name : req->machine ? req->machine : "");
  fputc(',', f);
  tf_csv_field(f, p ? p->workset->name : req->workset ? req->workset : "");
  fprintf(f, ",%s,", a ? tf_answer_status_name(a->status) : status);
  if (a && a->rank)
    fprintf(f, "%d", a->rank);
  if (a && (a->status == TF_ANSWER_FITS || a->status == TF_ANSWER_NO_FIT))
    fputc(',', f); /* a check: nothing was optimised */
  else
    objectives_cell(f, req, p);
  param_cells(f, c, req, p);
  result_cells(f, c, p, a && tf_report_has_answer(a) ? a : NULL, a && a->status == TF_ANSWER_OPTIMAL);
  fputc(',', f);
  tf_csv_field(f, reason ? reason : "");
  fputc('\n', f);
}

void tf_csv_columns_row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p,
                        const tf_answer *a) {
  int solved = a->status == TF_ANSWER_OPTIMAL || a->status == TF_ANSWER_FITS;
  row(f, c, req, p, a, NULL, solved ? NULL : a->why); /* why it is infeasible or does not fit */
}

void tf_csv_columns_error_row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p,
                              const char *status, const char *msg) {
  row(f, c, req, p, NULL, status, msg);
}
