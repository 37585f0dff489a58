/* validate: each line of a cases file a problem with what a real kernel
 * uses, solved (or checked) and compared with its "expect". */
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/text.h"
#include "model/formats/case.h"
#include "model/input/place.h"
#include "solver/explain.h"
#include "solver/report.h"
#include "solver/solve.h"

enum verdict { AGREE, DIFFER, TUNED };
static const char *const verdict_name[] = {"agree", "differ", "tuned"};

/* The answer's value of a variable, by name; -1 if there is none. */
static int value_of(const tf_problem *p, const tf_answer *a, const char *name, int64_t *v) {
  for (size_t i = 0; i < p->nchoose; i++)
    if (!strcmp(p->choose_names[i], name))
      return *v = a->choose[i], 0;
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], name))
      return *v = a->counts[k], 0;
  return -1;
}

/* Where the answer has buffer `name`: its placement, or its fixed
 * memory; -1 if the workset has no such buffer. */
static int memory_of(const tf_problem *p, const tf_answer *a, const char *name) {
  int b = tf_workset_buffer(p->workset, name);
  return b < 0 ? -1 : tf_memory_of_at(p, (size_t)b, a->choose);
}

/* Puts the expected placements into choose[] (placement variables only);
 * returns 0, or 1 when an expected memory is not among a buffer's
 * candidates (why says so). */
static int put_placements(const tf_case *c, const tf_problem *p, int64_t *choose, char *why, size_t size) {
  for (size_t i = 0; i < c->nexpect_place; i++) {
    int b = tf_workset_buffer(p->workset, c->expect_place[i].buffer), v = b < 0 ? -1 : tf_place_of_buffer(p, (size_t)b);
    int found = v < 0;
    for (size_t k = 0; v >= 0 && k < p->ndomain[v]; k++)
      found |= p->domain[v][k] == c->expect_place[i].mems[0];
    if (!found) {
      snprintf(why, size, "%s in %s is not a candidate here (the mma table, a require pin or --place)",
               c->expect_place[i].buffer, tf_memory_name(c->expect_place[i].mems[0]));
      return 1;
    }
    if (v >= 0)
      choose[v] = c->expect_place[i].mems[0];
  }
  return 0;
}

/* Why the expected placement loses at the answer's tiles and counts. */
static void placement_note(const tf_case *c, const tf_problem *p, const tf_answer *a, char *buf, size_t size) {
  int64_t choose[TF_MAX_CHOOSE];
  memcpy(choose, a->choose, sizeof choose);
  char why[256];
  if (put_placements(c, p, choose, why, sizeof why)) {
    snprintf(buf, size, "%s", why);
    return;
  }
  int fits = tf_problem_why(p, choose, a->counts, why, sizeof why);
  snprintf(buf, size, "the expected placement %s%s",
           fits > 0 ? "fits but loses at an objective level" : "does not fit: ", fits > 0 ? "" : why);
}

static void expected_text(const tf_case *c, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  if (c->expect_fits >= 0)
    tf_strbuf_item(&b, " ", "fits=%s", c->expect_fits ? "yes" : "no");
  for (size_t i = 0; i < c->nexpect; i++)
    tf_strbuf_item(&b, " ", "%s=%lld", c->expect[i].name, (long long)c->expect[i].value);
  for (size_t i = 0; i < c->nexpect_place; i++)
    tf_strbuf_item(&b, " ", "%s:%s", c->expect_place[i].buffer, tf_memory_name(c->expect_place[i].mems[0]));
}

static int derived_placement(const tf_case *c, const tf_problem *p, const tf_answer *a, tf_strbuf *b, int *agrees,
                             tf_error *err) {
  for (size_t i = 0; i < c->nexpect_place; i++) {
    int m = memory_of(p, a, c->expect_place[i].buffer);
    if (m < 0)
      return tf_error_set(err, TF_EINPUT, c->expect_place[i].where, "workset '%s' has no buffer '%s'", p->workset->name,
                          c->expect_place[i].buffer);
    if (!tf_report_has_answer(a)) {
      tf_strbuf_item(b, " ", "%s", a->status == TF_ANSWER_INFEASIBLE ? "infeasible" : "no answer");
      *agrees = 0;
      return 0;
    }
    tf_strbuf_item(b, " ", "%s:%s", c->expect_place[i].buffer, tf_memory_name(m));
    *agrees &= m == c->expect_place[i].mems[0];
  }
  return 0;
}

static int derived_text(const tf_case *c, const tf_problem *p, const tf_answer *a, char *buf, size_t size, int *agrees,
                        tf_error *err) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  *agrees = 1;
  if (c->expect_fits >= 0) {
    int fits = a->status == TF_ANSWER_FITS;
    tf_strbuf_item(&b, " ", "fits=%s", fits ? "yes" : "no");
    *agrees &= fits == c->expect_fits;
  }
  for (size_t i = 0; i < c->nexpect; i++) {
    int64_t v;
    if (value_of(p, a, c->expect[i].name, &v))
      return tf_error_set(err, TF_EINPUT, c->expect[i].where, "workset '%s' has no variable '%s'", p->workset->name,
                          c->expect[i].name);
    if (a->status == TF_ANSWER_INFEASIBLE) {
      tf_strbuf_item(&b, " ", "infeasible");
      *agrees = 0;
      break;
    }
    tf_strbuf_item(&b, " ", "%s=%lld", c->expect[i].name, (long long)v);
    *agrees &= v == c->expect[i].value;
  }
  return derived_placement(c, p, a, &b, agrees, err);
}

/* For a tuned case: the kernel's own pick beside the limit -- its values
 * put into the limit's point and checked there, without binding the
 * problem again -- and what stops the limit from going further.  Returns
 * 1 when the pick fits; 0 (a disagreement: upstream ships a kernel the
 * model rejects) when it does not, or nothing fits at all. */
static int tuned_note(const tf_case *c, const tf_problem *solved, const tf_answer *limit, char *buf, size_t size) {
  if (limit->status != TF_ANSWER_OPTIMAL) {
    snprintf(buf, size, "the kernel's pick does not fit: nothing does (%s)", limit->why);
    return 0;
  }
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
  memcpy(choose, limit->choose, sizeof choose);
  memcpy(counts, limit->counts, sizeof counts);
  int at_limit = 1;
  for (size_t i = 0; i < c->nexpect; i++) {
    const char *name = c->expect[i].name;
    for (size_t j = 0; j < solved->nchoose; j++)
      if (!strcmp(solved->choose_names[j], name))
        at_limit &= choose[j] == c->expect[i].value, choose[j] = c->expect[i].value;
    for (int k = 0; k < solved->ncounts; k++)
      if (!strcmp(solved->count_names[k], name))
        at_limit &= counts[k] == c->expect[i].value, counts[k] = c->expect[i].value;
  }
  char why[256], fit[320], bind[320] = "";
  int64_t derived[TF_MAX_CHOOSE];
  memcpy(derived, choose, sizeof derived);
  if (put_placements(c, solved, choose, why, sizeof why)) {
    snprintf(buf, size, "the kernel's placement: %s", why);
    return 0;
  }
  for (size_t k = 0; k < tf_place_count(solved); k++)
    at_limit &= derived[tf_place_var(solved, k)] == choose[tf_place_var(solved, k)];
  int fits = tf_problem_why(solved, choose, counts, why, sizeof why);
  snprintf(fit, sizeof fit, fits > 0 ? "the kernel's pick fits" : "the kernel's pick does not fit: %s", why);
  for (size_t i = 0; i < c->nexpect && !bind[0]; i++)
    if (tf_explain_next_value(solved, limit, c->expect[i].name, bind, sizeof bind))
      bind[0] = 0;
  snprintf(buf, size, "%s%s%s%s", fit,
           at_limit   ? ", at the limit"
           : fits > 0 ? ", below the limit"
                      : "",
           bind[0] ? "; beyond it, " : "", bind);
  return fits > 0;
}

/* One JSON Lines row: the case, its verdict and its answer. */
static void json_row(FILE *f, const char *id, const tf_case *c, const tf_problem *p, const tf_answer *a, enum verdict v,
                     const char *expected, const char *derived, const char *note) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "id", id);
  tf_json_out_key_string(&w, "kind", tf_case_kind_name(c->kind));
  tf_json_out_key_string(&w, "result", verdict_name[v]);
  tf_json_out_key_string(&w, "expected", expected);
  tf_json_out_key_string(&w, "derived", derived);
  if (note[0])
    tf_json_out_key_string(&w, "note", note);
  tf_json_out_key(&w, "answer");
  tf_report_json_write(&w, &c->req, p, a, 0);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
}

static void print_row(FILE *f, int json, const tf_case *c, const tf_problem *p, const tf_answer *a, enum verdict v,
                      const char *expected, const char *derived, const char *note) {
  const char *id = c->req.id ? c->req.id : "(no id)";
  if (json) {
    json_row(f, id, c, p, a, v, expected, derived, note);
    return;
  }
  fprintf(f, "%-7s %-40s expected %-24s derived %s\n", verdict_name[v], id, expected, derived);
  if (note[0])
    fprintf(f, "        %s\n", note);
  if (v == DIFFER)
    tf_report_text(f, &c->req, p, a, 1);
}

struct run {
  tf_cache *cache;
  const char *file;
  FILE *out;
  int json;
  tf_validate_tally *tally;
  const tf_solve_opts *opts;
};

/* One case; returns 0, or -1 on bad input. */
static int run_case(const struct run *r, const tf_case *c, size_t lineno, tf_error *err) {
  tf_cache *cache = r->cache;
  const char *file = r->file;
  FILE *out = r->out;
  int json = r->json;
  tf_validate_tally *t = r->tally;
  const tf_machine *m;
  const tf_workset *w;
  if (tf_cache_get_case(cache, &c->req, file, lineno, &m, &w, err))
    return -1;
  tf_problem *p = tf_problem_new(m, w, &c->req, err);
  if (!p)
    return -1;
  tf_answer a;
  tf_answer_init(&a, p);
  tf_solve_opts o;
  char swhere[64];
  snprintf(swhere, sizeof swhere, "line %zu: $.solver", lineno);
  int rc = tf_solve_opts_for(r->opts, &c->req, swhere, &o, err);
  if (!rc)
    rc = c->kind == TF_KIND_FITS ? tf_check(p, &a, err) : tf_solve(p, &o, NULL, &a, err);
  char expected[256], derived[256], note[320] = "";
  int agrees = 0;
  if (!rc)
    expected_text(c, expected, sizeof expected), rc = derived_text(c, p, &a, derived, sizeof derived, &agrees, err);
  if (!rc) {
    enum verdict v = c->kind == TF_KIND_TUNED ? TUNED : agrees ? AGREE : DIFFER;
    if (v == TUNED && !tuned_note(c, p, &a, note, sizeof note))
      v = DIFFER;
    else if (v == DIFFER && a.status == TF_ANSWER_INFEASIBLE)
      snprintf(note, sizeof note, "%s", a.why);
    else if (v == DIFFER && c->nexpect_place)
      placement_note(c, p, &a, note, sizeof note);
    print_row(out, json, c, p, &a, v, expected, derived, note);
    *(v == TUNED ? &t->skipped : v == AGREE ? &t->passed : &t->failed) += 1;
  }
  tf_answer_release(&a);
  tf_problem_free(p);
  return rc;
}

/* A measured case: solved and reported (solver/measured.h), counted as
 * measured whatever the model says -- a configuration it says does not
 * fit included: real kernels spill registers (FA2's 256x64 tile at head
 * dim 64, as its launch template says), so that is a report, not a
 * failure. */
static int run_measured(const struct run *r, tf_case *c, size_t lineno, tf_error *err) {
  tf_validate_tally *t = r->tally;
  if (!t->set) {
    char path[64];
    snprintf(path, sizeof path, "line %zu: $.measured", lineno);
    return tf_error_set(err, TF_EINPUT, path, "measured cases are read by tilefit validate");
  }
  if (tf_measured_case(t->set, r->cache, r->opts, c, r->file, lineno, r->out, r->json, err))
    return -1;
  t->measured++;
  return 0;
}

static int run_line(void *ctx, const char *line, size_t len, size_t lineno, tf_error *err) {
  struct run *r = ctx;
  tf_case c;
  tf_case_init(&c);
  int rc = tf_case_parse(line, len, r->file, lineno, &c, err);
  if (!rc && c.kind == TF_KIND_MEASURED)
    rc = run_measured(r, &c, lineno, err);
  else if (!rc)
    rc = run_case(r, &c, lineno, err);
  /* an error in a field of this line (its path starts "line N: "), not of
   * a workset or machine file, is reported against the cases file (even
   * where binding named the workset's file) */
  if (rc && !strncmp(err->path, "line ", 5))
    snprintf(err->file, sizeof err->file, "%s", r->file);
  tf_case_release(&c);
  return rc;
}

int tf_validate_file(tf_cache *cache, const char *file, FILE *out, int json, const tf_solve_opts *o,
                     tf_validate_tally *t, tf_error *err) {
  struct run r = {cache, file, out, json, t, o};
  return tf_jsonl_each(file, run_line, &r, err);
}

int tf_validate_files(char *const *files, size_t n, int json, const tf_solve_opts *o, tf_validate_run *v,
                      tf_error *err) {
  memset(v, 0, sizeof *v);
  tf_measured_set_init(&v->set);
  v->t.set = &v->set;
  tf_cache cache;
  tf_cache_init(&cache);
  tf_text rows;
  FILE *out = tf_text_open(&rows);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++)
    rc = tf_validate_file(&cache, files[i], out, json, o, &v->t, err);
  if (!rc && v->set.n)
    rc = tf_measured_finish(&v->set, &cache, o, err);
  v->rows = tf_text_close(&rows, &v->nrows);
  tf_cache_release(&cache);
  return rc;
}

void tf_validate_run_release(tf_validate_run *v) {
  free(v->rows);
  tf_measured_set_release(&v->set);
  memset(v, 0, sizeof *v);
}
