/* The CSV writer (RFC 4180): every string cell goes through tf_csv_field,
 * which quotes it when it must.  Two row layouts share it: an answer with
 * its problem's own columns (solve, check) and a sweep line with the
 * union of its worksets' columns. */
#include "solver/report.h"

#include <stdlib.h>
#include <string.h>

#include "model/alloc.h"
#include "model/text.h"

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

static void closed_cells(FILE *f, const char *name) {
  name_cell(f, "closed_", name, "");
  name_cell(f, "closed_", name, "_agrees");
}

static void memory_cells(FILE *f, int m) {
  fprintf(f, ",%s_used,%s_capacity", tf_memory_name(m), tf_memory_name(m));
}

/* ------------------------------------------------ an answer's own columns */

void tf_report_csv_header(FILE *f, const tf_problem *p) {
  fputs("id,machine,workset,status,rank", f);
  for (size_t i = 0; i < p->place_first; i++)
    name_cell(f, "", p->choose_names[i], "");
  for (int k = 0; k < p->ncounts; k++)
    name_cell(f, "", p->count_names[k], "");
  for (size_t i = p->place_first; i < p->nchoose; i++) /* after the counts, as a sweep's columns are */
    name_cell(f, "place_", p->choose_names[i], "");
  for (int m = 0; m < TF_NMEM; m++)
    if (tf_memory_in_use(p, m))
      memory_cells(f, m);
  for (size_t o = 0; o < p->nobjective_shown; o++)
    fprintf(f, ",objective%zu", o + 1);
  for (int k = 0; k < p->ncounts; k++)
    closed_cells(f, p->count_names[k]);
  fputs(",reason\n", f);
}

static void closed_value(FILE *f, int ok, const tf_closed *c) {
  if (ok && c->applies)
    fprintf(f, ",%lld,%s", (long long)c->value, c->agrees ? "yes" : "no");
  else
    fputs(",,", f);
}

void tf_report_csv_row(FILE *f, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  tf_csv_field(f, req->id ? req->id : "");
  fputc(',', f);
  tf_csv_field(f, p->machine->name);
  fputc(',', f);
  tf_csv_field(f, p->workset->name);
  fprintf(f, ",%s,", tf_answer_status_name(a->status));
  if (a->rank)
    fprintf(f, "%d", a->rank);
  int ok = tf_report_has_answer(a), opt = a->status == TF_ANSWER_OPTIMAL;
  for (size_t i = 0; i < p->place_first; i++)
    tf_csv_int(f, ok, a->choose[i]);
  for (int k = 0; k < p->ncounts; k++)
    tf_csv_int(f, ok, a->counts[k]);
  for (size_t i = p->place_first; i < p->nchoose; i++)
    fprintf(f, ",%s", ok ? tf_memory_name((int)a->choose[i]) : "");
  for (int m = 0; m < TF_NMEM; m++) {
    tf_memory_row r = tf_memory_report(p, m, ok ? a->choose : NULL, a->point.used);
    if (r.shown) {
      tf_csv_int(f, ok, r.used);
      tf_csv_int(f, 1, r.capacity);
    }
  }
  for (size_t o = 0; o < p->nobjective_shown; o++)
    tf_csv_int(f, opt, a->point.objective[o]);
  for (int k = 0; k < p->ncounts; k++)
    closed_value(f, opt, &a->closed[k]);
  fputc(',', f); /* why it is infeasible or does not fit; empty when it is solved or fits */
  tf_csv_field(f, a->status == TF_ANSWER_OPTIMAL || a->status == TF_ANSWER_FITS ? "" : a->why);
  fputc('\n', f);
}

/* ------------------------------------------------- a sweep's union columns */

static void add_name(char ***v, size_t *n, size_t *cap, const char *name) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i], name))
      return;
  char *copy = tf_strdup(name);
  TF_PUSH(*v, *n, *cap, copy);
}

void tf_csv_columns_add_workset(tf_csv_columns *c, const tf_workset *w) {
  for (size_t k = 0; k < w->nparams; k++)
    add_name(&c->params, &c->nparams, &c->capparams, w->params[k].name);
  for (size_t k = 0; k < w->nchoose; k++)
    add_name(&c->vars, &c->nvars, &c->capvars, w->choose[k].name);
  for (size_t k = 0; k < w->ncounts; k++) {
    add_name(&c->vars, &c->nvars, &c->capvars, w->counts[k].name);
    add_name(&c->counts, &c->ncounts, &c->capcounts, w->counts[k].name);
  }
  for (size_t b = 0; b < w->nbuffers; b++) {
    for (int k = 0; k < w->buffers[b].nplace; k++)
      c->mem[w->buffers[b].place[k]] = 1;
    c->mem[w->buffers[b].memory] = 1;
  }
  for (size_t b = 0; b < w->nbuffers; b++)
    if (w->buffers[b].nplace) { /* place_NAME, as a single answer's header has it */
      size_t n = strlen(w->buffers[b].name) + 7;
      char *col = tf_nalloc(n, 1);
      snprintf(col, n, "place_%s", w->buffers[b].name);
      add_name(&c->vars, &c->nvars, &c->capvars, col);
      free(col);
    }
  tf_csv_columns_add_objectives(c, w->nobjective);
}

void tf_csv_columns_add_objectives(tf_csv_columns *c, size_t n) {
  if (n > c->nobjectives)
    c->nobjectives = n;
}

void tf_csv_columns_release(tf_csv_columns *c) {
  char **names[] = {c->params, c->vars, c->counts};
  size_t nnames[] = {c->nparams, c->nvars, c->ncounts};
  for (int l = 0; l < 3; l++) {
    for (size_t i = 0; i < nnames[l]; i++)
      free(names[l][i]);
    free(names[l]);
  }
  memset(c, 0, sizeof *c);
}

char *tf_csv_columns_header(const tf_csv_columns *c) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  fputs("index,total,id,machine,workset,status,objectives", f);
  for (size_t i = 0; i < c->nparams; i++)
    name_cell(f, "param_", c->params[i], "");
  for (size_t i = 0; i < c->nvars; i++)
    name_cell(f, "", c->vars[i], "");
  for (int m = 0; m < TF_NMEM; m++)
    if (c->mem[m])
      memory_cells(f, m);
  for (size_t o = 0; o < c->nobjectives; o++)
    fprintf(f, ",objective%zu", o + 1);
  for (size_t k = 0; k < c->ncounts; k++)
    closed_cells(f, c->counts[k]);
  fputs(",reason\n", f);
  return tf_text_close(&t, NULL);
}

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
  for (size_t i = p->place_first; i < p->nchoose && !strncmp(col, "place_", 6); i++)
    if (!strcmp(col + 6, p->choose_names[i]))
      return tf_memory_name((int)a->choose[i]);
  return NULL;
}

static void var_cells(FILE *f, const tf_csv_columns *c, const tf_problem *p, const tf_answer *a, int has) {
  for (size_t i = 0; i < c->nvars; i++) {
    int found = 0;
    int64_t v = 0;
    const char *mem = has ? place_cell(c->vars[i], p, a) : NULL;
    if (mem) {
      fprintf(f, ",%s", mem);
      continue;
    }
    for (size_t k = 0; has && k < p->workset->nchoose && !found; k++)
      if (!strcmp(p->workset->choose[k].name, c->vars[i]))
        found = 1, v = a->choose[k];
    for (int k = 0; has && k < p->ncounts && !found; k++)
      if (!strcmp(p->count_names[k], c->vars[i]))
        found = 1, v = a->counts[k];
    tf_csv_int(f, found, v);
  }
}

static void result_cells(FILE *f, const tf_csv_columns *c, const tf_problem *p, const tf_answer *a) {
  int has = a && tf_report_has_answer(a), opt = a && a->status == TF_ANSWER_OPTIMAL;
  var_cells(f, c, p, a, has);
  for (int m = 0; m < TF_NMEM; m++) {
    if (!c->mem[m])
      continue;
    tf_memory_row r = {0, 0, 0, 0};
    if (p)
      r = tf_memory_report(p, m, has ? a->choose : NULL, has ? a->point.used : NULL);
    tf_csv_int(f, r.shown && has, r.used);
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

void tf_csv_columns_row(FILE *f, const tf_csv_columns *c, const tf_request *req, const tf_problem *p,
                        const tf_answer *a, const char *reason) {
  tf_csv_field(f, p ? p->machine->name : req->machine ? req->machine : "");
  fputc(',', f);
  tf_csv_field(f, p ? p->workset->name : req->workset ? req->workset : "");
  fprintf(f, ",%s", a ? tf_answer_status_name(a->status) : "error");
  objectives_cell(f, req, p);
  param_cells(f, c, req, p);
  result_cells(f, c, p, a);
  fputc(',', f);
  tf_csv_field(f, reason ? reason : "");
  fputc('\n', f);
}
