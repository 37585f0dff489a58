/* Measured cases, one point at a time: the point's problem with its
 * configuration fixed, solved under min TF_MEASURED_TIME_LET, and the
 * measured best's rank in the model's whole space (solver/measured.h). */
#include "solver/measured.h"

#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/input/roofline.h"
#include "solver/report.h"
#include "solver/roofline_view.h"
#include "solver/search/search.h"
#include "solver/solve.h"

void tf_measured_set_init(tf_measured_set *s) { memset(s, 0, sizeof *s); }

void tf_measured_set_release(tf_measured_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    tf_mpoint *p = &s->p[i];
    free(p->id), free(p->machine), free(p->workset), free(p->file);
    tf_measured_release(&p->m);
    tf_request_release(&p->base);
    for (size_t k = 0; k < p->nfix; k++)
      free(p->fix[k].name), free(p->fix[k].where);
    free(p->fix);
  }
  free(s->p);
  for (size_t i = 0; i < s->ng; i++)
    free(s->g[i].points);
  free(s->g);
  free(s->f);
  tf_measured_set_init(s);
}

/* Is `name` a symbol of kind k (or, with k2 >= 0, of kind k2) of w? */
static int sym_is(const tf_workset *w, const char *name, int k, int k2) {
  int sym = tf_workset_resolve(w, name);
  int kind = sym < 0 ? -1 : (int)tf_workset_sym_kind(w, sym);
  return sym >= 0 && (kind == k || kind == k2);
}

/* A config value outside its choose variable's domain is fixed all the
 * same (as --fix does); the row says so. */
static void outside_note(tf_mpoint *pt, const tf_workset *w, const tf_assign *a) {
  for (size_t i = 0; i < w->nchoose; i++) {
    const tf_choose *c = &w->choose[i];
    int in = strcmp(c->name, a->name) != 0;
    for (size_t k = 0; k < c->nvalues && !in; k++)
      in = c->values[k] == a->value;
    if (!in && !pt->why[0])
      snprintf(pt->why, sizeof pt->why, "%s = %lld is outside %s's domain (fixed all the same)", a->name,
               (long long)a->value, w->name);
  }
}

/* The point's params and config in the workset's terms: base (params, and
 * the config's params) and fix (its variables); a name the workset does
 * not take makes the point not representable (why says which). */
static void resolve(tf_mpoint *pt, const tf_case *c, const tf_workset *w) {
  tf_request_copy(&pt->base, &c->req);
  tf_strbuf b = tf_strbuf_of(pt->config, sizeof pt->config);
  for (size_t i = 0; i < c->req.nparams && pt->status == TF_MP_OK; i++)
    if (!sym_is(w, c->req.params[i].name, TF_SYM_PARAM, -1))
      pt->status = TF_MP_UNREPRESENTABLE,
      snprintf(pt->why, sizeof pt->why, "%s takes no param '%s'", w->name, c->req.params[i].name);
  for (size_t i = 0; i < pt->m.nconfig; i++) { /* the case's measured, moved into pt */
    const tf_assign *a = &pt->m.config[i];
    tf_strbuf_item(&b, " ", "%s=%lld", a->name, (long long)a->value);
    if (sym_is(w, a->name, TF_SYM_CHOOSE, TF_SYM_COUNT)) {
      outside_note(pt, w, a);
      TF_NREALLOC(pt->fix, pt->nfix + 1);
      pt->fix[pt->nfix++] = (tf_assign){tf_strdup(a->name), a->value, tf_strdup(a->where)};
    } else if (sym_is(w, a->name, TF_SYM_PARAM, -1))
      tf_request_add_param(&pt->base, a->name, a->value, a->where);
    else if (pt->status == TF_MP_OK)
      pt->status = TF_MP_UNREPRESENTABLE,
      snprintf(pt->why, sizeof pt->why, "%s has no variable or param '%s' (config)", w->name, a->name);
  }
  if (pt->status == TF_MP_OK && !sym_is(w, TF_MEASURED_TIME_LET, TF_SYM_LET, -1))
    pt->status = TF_MP_UNREPRESENTABLE,
    snprintf(pt->why, sizeof pt->why, "%s has no time (no let %s)", w->name, TF_MEASURED_TIME_LET);
}

/* base + the objective, and the config's fixes when `fixed`. */
static void point_request(const tf_mpoint *pt, int fixed, tf_request *req) {
  tf_request_init(req);
  tf_request_copy(req, &pt->base);
  for (size_t k = 0; fixed && k < pt->nfix; k++)
    tf_request_add_fix(req, pt->fix[k].name, pt->fix[k].value, pt->fix[k].where);
  tf_request_add_objective(req, "min " TF_MEASURED_TIME_LET, "the measured case's objective");
}

/* The predicted time and binding term at the answer. */
static void read_time(tf_mpoint *pt, const tf_problem *p, const tf_answer *a) {
  int64_t code;
  if (tf_roofline_value(p, a->choose, a->counts, TF_MEASURED_TIME_LET, &pt->predicted))
    pt->status = TF_MP_UNREPRESENTABLE,
    snprintf(pt->why, sizeof pt->why, "%s does not evaluate at the point", TF_MEASURED_TIME_LET);
  snprintf(pt->bound, sizeof pt->bound, "%s",
           tf_roofline_value(p, a->choose, a->counts, "time_bound_by", &code) ? "-" : tf_roofline_term_name(code));
}

/* "206.363 us" of a time in ns, 3 decimals. */
static void format_us(char *buf, size_t size, double ns) { snprintf(buf, size, "%.3f us", ns / 1000); }

static double predicted_ns(const tf_mpoint *pt) { return (double)pt->predicted / TF_MEASURED_UNITS_PER_NS; }

/* The row's "expected" (what was measured) and "derived" (the model's). */
static void row_texts(const tf_mpoint *pt, char *expected, size_t esize, char *derived, size_t dsize) {
  char t[64];
  if (pt->m.measure == TF_MEASURE_RELATIVE)
    snprintf(expected, esize, "relative_time %.3f", pt->m.value);
  else
    format_us(t, sizeof t, pt->measured_ns), snprintf(expected, esize, "measured %s", t);
  if (pt->status != TF_MP_OK) {
    snprintf(derived, dsize, "%s", pt->status == TF_MP_NO_FIT ? "does not fit" : "not representable");
    return;
  }
  format_us(t, sizeof t, predicted_ns(pt));
  if (pt->measured_ns > 0)
    snprintf(derived, dsize, "predicted %s ratio %.3f %s", t, predicted_ns(pt) / pt->measured_ns, pt->bound);
  else
    snprintf(derived, dsize, "predicted %s %s", t, pt->bound);
}

static const char *result_name(const tf_mpoint *pt) {
  return pt->status == TF_MP_OK ? "measured" : pt->status == TF_MP_NO_FIT ? "no_fit" : "unrepresentable";
}

static void json_row(FILE *f, const tf_mpoint *pt, const tf_request *req, const tf_problem *p, const tf_answer *a,
                     const char *expected, const char *derived) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_string(&w, "id", pt->id);
  tf_json_out_key_string(&w, "kind", "measured");
  tf_json_out_key_string(&w, "result", result_name(pt));
  tf_json_out_key_string(&w, "expected", expected);
  tf_json_out_key_string(&w, "derived", derived);
  if (pt->why[0])
    tf_json_out_key_string(&w, "note", pt->why);
  tf_json_out_key_string(&w, "group", pt->m.group);
  tf_json_out_key_string(&w, "config", pt->config);
  tf_json_out_key(&w, "measured");
  tf_json_out_object(&w);
  tf_json_out_key(&w, tf_measure_name(pt->m.measure));
  tf_json_out_double(&w, pt->m.value);
  tf_json_out_end(&w);
  if (pt->status == TF_MP_OK) {
    tf_json_out_key_int(&w, "predicted_ns", pt->predicted / TF_MEASURED_UNITS_PER_NS);
    tf_json_out_key_string(&w, "bound_by", pt->bound);
  }
  if (p) { /* bound: the answer, an infeasible one included */
    tf_json_out_key(&w, "answer");
    tf_report_json_write(&w, req, p, a, 0);
  }
  tf_json_out_end(&w);
  tf_json_out_line(&w);
}

static void print_row(FILE *f, int json, const tf_mpoint *pt, const tf_request *req, const tf_problem *p,
                      const tf_answer *a) {
  char expected[128], derived[160];
  row_texts(pt, expected, sizeof expected, derived, sizeof derived);
  if (json) {
    json_row(f, pt, req, p, a, expected, derived);
    return;
  }
  fprintf(f, "%-8s %-44s %-30s %-24s %s\n", "measured", pt->id, pt->config, expected, derived);
  if (pt->why[0])
    fprintf(f, "         %s\n", pt->why);
}

/* A group's points share a machine, a workset and absolute or relative
 * times: -1 naming the line that breaks it. */
static int same_group(const tf_measured_set *s, const tf_mpoint *pt, tf_error *err) {
  for (size_t i = 0; i < s->n; i++) {
    const tf_mpoint *q = &s->p[i];
    if (strcmp(q->m.group, pt->m.group))
      continue;
    int rel_q = q->m.measure == TF_MEASURE_RELATIVE, rel_p = pt->m.measure == TF_MEASURE_RELATIVE;
    char path[64];
    snprintf(path, sizeof path, "line %zu: $.group", pt->line);
    if (strcmp(q->machine, pt->machine) || strcmp(q->workset, pt->workset))
      return tf_error_set(err, TF_EINPUT, path, "group '%s' is %s %s (%s line %zu), this point %s %s", pt->m.group,
                          q->machine, q->workset, q->file, q->line, pt->machine, pt->workset);
    if (rel_q != rel_p)
      return tf_error_set(err, TF_EINPUT, path,
                          "group '%s' mixes relative_time (comparable within its group only) with absolute times "
                          "(%s line %zu)",
                          pt->m.group, q->file, q->line);
    return 0;
  }
  return 0;
}

/* Binds and solves a representable point with its config fixed. */
static int solve_point(tf_mpoint *pt, const tf_machine *m, const tf_workset *w, const tf_solve_opts *o, FILE *out,
                       int json, tf_error *err) {
  tf_request req;
  point_request(pt, 1, &req);
  tf_problem *p = tf_problem_new(m, w, &req, err);
  tf_answer a;
  int rc = p ? 0 : -1;
  if (p) {
    tf_answer_init(&a, p);
    tf_solve_opts so;
    char where[64];
    snprintf(where, sizeof where, "line %zu: $.solver", pt->line);
    rc = tf_solve_opts_for(o, &req, where, &so, err) || tf_solve(p, &so, NULL, &a, err) ? -1 : 0;
    if (!rc && a.status == TF_ANSWER_INFEASIBLE)
      pt->status = TF_MP_NO_FIT, snprintf(pt->why, sizeof pt->why, "the model says it does not fit: %s", a.why);
    else if (!rc)
      read_time(pt, p, &a);
    if (!rc)
      print_row(out, json, pt, &req, p, &a);
    tf_answer_release(&a);
    tf_problem_free(p);
  }
  tf_request_release(&req);
  return rc;
}

int tf_measured_case(tf_measured_set *s, tf_cache *cache, const tf_solve_opts *o, tf_case *c, const char *file,
                     size_t line, FILE *out, int json, tf_error *err) {
  const tf_machine *m;
  const tf_workset *w;
  if (tf_cache_get_case(cache, &c->req, file, line, &m, &w, err))
    return -1;
  tf_mpoint pt;
  memset(&pt, 0, sizeof pt);
  tf_request_init(&pt.base);
  pt.id = tf_strdup(c->req.id ? c->req.id : "(no id)");
  pt.machine = tf_strdup(c->req.machine), pt.workset = tf_strdup(c->req.workset), pt.file = tf_strdup(file);
  pt.line = line;
  pt.m = c->measured;
  tf_measured_init(&c->measured); /* moved */
  pt.measured_ns = tf_measured_ns(&pt.m);
  TF_PUSH(s->p, s->n, s->cap, pt); /* owned by the set from here, whatever follows */
  tf_mpoint *q = &s->p[s->n - 1];
  if (same_group(s, q, err))
    return -1;
  resolve(q, c, w);
  if (q->status != TF_MP_OK) {
    print_row(out, json, q, NULL, NULL, NULL);
    return 0;
  }
  return solve_point(q, m, w, o, out, json, err);
}

/* ------------------------------------------------- the whole-space rank */

/* Where each fixed variable of pt is in p: choose index, or -1 - count. */
static void key_slots(const tf_problem *p, const tf_mpoint *pt, int *slot) {
  for (size_t k = 0; k < pt->nfix; k++) {
    slot[k] = TF_MAX_CHOOSE; /* not found: cannot happen once bound */
    for (size_t i = 0; i < p->nchoose; i++)
      if (!strcmp(p->choose_names[i], pt->fix[k].name))
        slot[k] = (int)i;
    for (int i = 0; i < p->ncounts; i++)
      if (!strcmp(p->count_names[i], pt->fix[k].name))
        slot[k] = -1 - i;
  }
}

/* A row of a configuration's key values then its time, with its width
 * (qsort passes no context). */
typedef struct rowref {
  const int64_t *r;
  size_t w;
} rowref;

/* By key, then by time. */
static int cmp_rows(const void *a, const void *b) {
  const rowref *x = a, *y = b;
  for (size_t i = 0; i <= x->w; i++)
    if (x->r[i] != y->r[i])
      return x->r[i] < y->r[i] ? -1 : 1;
  return 0;
}

/* Each configuration once, at its best time (the rows sorted): faster and
 * tied than the best's, and whether the best's own is among them. */
static void tally_configs(const tf_mpoint *b, const rowref *rows, size_t n, tf_mgroup *g) {
  size_t w = b->nfix;
  int self = 0;
  for (size_t i = 0; i < n; i++) {
    const int64_t *r = rows[i].r;
    if (i && !memcmp(r, rows[i - 1].r, w * sizeof *r))
      continue; /* the same configuration at a time no better */
    int mine = 1;
    for (size_t k = 0; k < w; k++)
      mine &= r[k] == b->fix[k].value;
    self |= mine && r[w] == b->predicted;
    g->faster += !mine && r[w] < b->predicted;
    g->tied += !mine && r[w] == b->predicted;
  }
  g->ranked = self ? 1 : -1;
}

/* The found points' configurations, each at its best time, against the
 * best's key and time: faster, tied and whether the best's own is there. */
static int count_configs(const tf_problem *p, const tf_mpoint *b, const tf_found *found, size_t n, tf_mgroup *g,
                         tf_error *err) {
  int slot[TF_MAX_CHOOSE + TF_MAX_COUNTS];
  size_t w = b->nfix;
  key_slots(p, b, slot);
  int64_t *rows = tf_nalloc(n ? n * (w + 1) : 1, sizeof *rows);
  tf_answer a;
  tf_answer_init(&a, p);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    int64_t *r = rows + i * (w + 1);
    rc = tf_solve_found(p, &found[i], 1, &a, err); /* certified, as every answer */
    for (size_t k = 0; k < w && !rc; k++)
      r[k] = slot[k] >= 0 ? a.choose[slot[k]] : a.counts[-1 - slot[k]];
    if (!rc && tf_roofline_value(p, a.choose, a.counts, TF_MEASURED_TIME_LET, &r[w]))
      rc = tf_error_set(err, TF_EINTERNAL, b->id, "%s does not evaluate at a ranked point", TF_MEASURED_TIME_LET);
  }
  tf_answer_release(&a);
  rowref *refs = tf_nalloc(n ? n : 1, sizeof *refs);
  for (size_t i = 0; i < n; i++)
    refs[i] = (rowref){rows + i * (w + 1), w};
  if (!rc) {
    qsort(refs, n, sizeof *refs, cmp_rows);
    tally_configs(b, refs, n, g);
  }
  free(refs);
  free(rows);
  return rc;
}

/* The most points the rank's search keeps (found[] of this many). */
#define RANK_MAX_POINTS ((size_t)1 << 18)

/* The measured best of g (its first point) in the model's whole space:
 * its problem with the config's variables free, under the same objective,
 * restricted to points no slower than its own predicted time. */
int tf_measured_rank(tf_measured_set *s, tf_mgroup *g, tf_cache *cache, const tf_solve_opts *o, tf_error *err) {
  const tf_mpoint *b = &s->p[g->points[0]];
  tf_request req;
  char rq[96];
  point_request(b, 0, &req);
  snprintf(rq, sizeof rq, "%s <= %lld", TF_MEASURED_TIME_LET, (long long)b->predicted);
  tf_request_add_require(&req, rq, "the measured best's time");
  const tf_machine *m;
  const tf_workset *w;
  tf_problem *p = NULL;
  int rc = tf_cache_get(cache, &req, "$.machine", "$.workset", &m, &w, err) || !(p = tf_problem_new(m, w, &req, err))
               ? -1
               : 0;
  tf_found *found = NULL;
  size_t k = 4096, n = 0;
  for (; !rc; k *= 8) {
    found = tf_nrealloc(found, k, sizeof *found);
    if (p->ncombos && (rc = tf_search(p, k, o->time_limit_s, found, &n, NULL, err)))
      break;
    if (n < k || k >= RANK_MAX_POINTS)
      break;
  }
  g->at_least = !rc && n == k;
  g->faster = g->tied = 0;
  if (!rc)
    rc = count_configs(p, b, found, p->ncombos ? n : 0, g, err);
  free(found);
  tf_problem_free(p);
  tf_request_release(&req);
  return rc;
}
