/* Measured cases, all together: the groups in measured order, the pairs
 * the model orders right, wrong or ties, Kendall's tau-b pooled over the
 * groups, the measured best's rank and the predicted/measured ratios by
 * family; as text and as JSON (solver/measured.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "solver/measured.h"

/* What a point is compared by within its group: its time in ns, or its
 * relative time. */
static double mval(const tf_mpoint *p) { return p->measured_ns > 0 ? p->measured_ns : p->m.value; }

static double ratio(const tf_mpoint *p) { return (double)p->predicted / TF_MEASURED_UNITS_PER_NS / p->measured_ns; }

/* The group named like point i, added when new. */
static tf_mgroup *group_of(tf_measured_set *s, size_t i) {
  for (size_t k = 0; k < s->ng; k++)
    if (!strcmp(s->g[k].name, s->p[i].m.group))
      return &s->g[k];
  TF_NREALLOC(s->g, s->ng + 1);
  tf_mgroup *g = &s->g[s->ng++];
  memset(g, 0, sizeof *g);
  g->name = s->p[i].m.group;
  g->points = tf_nalloc(s->n, sizeof *g->points);
  return g;
}

/* Each group's points that fit, in measured order (input order on ties),
 * and the totals of points; -1 for a relative time alone in its group. */
static int build_groups(tf_measured_set *s, tf_error *err) {
  for (size_t i = 0; i < s->n; i++) {
    tf_mgroup *g = group_of(s, i);
    g->nall++;
    s->t.unrepresentable += s->p[i].status == TF_MP_UNREPRESENTABLE;
    s->t.no_fit += s->p[i].status == TF_MP_NO_FIT;
    if (s->p[i].status != TF_MP_OK)
      continue;
    size_t j = g->npoints++;
    for (; j > 0 && mval(&s->p[g->points[j - 1]]) > mval(&s->p[i]); j--)
      g->points[j] = g->points[j - 1];
    g->points[j] = i;
  }
  for (size_t i = 0; i < s->n; i++) {
    const tf_mpoint *p = &s->p[i];
    if (p->m.measure == TF_MEASURE_RELATIVE && group_of(s, i)->nall < 2) {
      char path[64];
      snprintf(path, sizeof path, "line %zu: $.measured.relative_time", p->line);
      tf_error_set(err, TF_EINPUT, path, "group '%s' has no other point to compare a relative time with", p->m.group);
      return tf_error_set_file(err, p->file), -1;
    }
  }
  s->t.points = s->n;
  s->t.groups = s->ng;
  return 0;
}

/* Every pair of a group's points: the pairs at least TF_MEASURED_APART
 * apart (right, wrong, tied by the model) and tau-b's counts. */
static void count_pairs(const tf_measured_set *s, const tf_mgroup *g, tf_mtotals *t) {
  for (size_t i = 0; i < g->npoints; i++)
    for (size_t j = i + 1; j < g->npoints; j++) {
      const tf_mpoint *a = &s->p[g->points[i]], *b = &s->p[g->points[j]]; /* mval(a) <= mval(b) */
      int mtie = mval(a) == mval(b), ptie = a->predicted == b->predicted;
      t->pairs++;
      t->ties_measured += mtie;
      t->ties_model += ptie;
      t->concordant += !mtie && !ptie && a->predicted < b->predicted;
      t->discordant += !mtie && !ptie && a->predicted > b->predicted;
      if (mval(b) >= TF_MEASURED_APART * mval(a)) {
        t->right += a->predicted < b->predicted;
        t->wrong += a->predicted > b->predicted;
        t->tied += ptie;
      }
    }
}

/* tau-b = (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)), n0 the
 * pairs, n1 those tied in measured time, n2 those tied in the model. */
static void tau(tf_mtotals *t) {
  double d = ((double)t->pairs - (double)t->ties_measured) * ((double)t->pairs - (double)t->ties_model);
  t->has_tau = d > 0;
  t->tau_b = d > 0 ? ((double)t->concordant - (double)t->discordant) / sqrt(d) : 0;
}

static int64_t rank_of(const tf_mgroup *g) { return 1 + g->faster + g->tied; }

static void count_top(const tf_mgroup *g, tf_mtotals *t) {
  if (!g->ranked)
    return;
  int in1 = g->ranked > 0 && rank_of(g) <= 1, in3 = g->ranked > 0 && rank_of(g) <= 3;
  t->ranked++, t->all_top1 += in1, t->all_top3 += in3;
  if (g->npoints >= 2)
    t->several++, t->top1 += in1, t->top3 += in3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Family f's ratios (machine and workset): n, median, min, max. */
static void family_stats(const tf_measured_set *s, tf_mfamily *f) {
  double *r = tf_nalloc(s->n, sizeof *r);
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++) {
    const tf_mpoint *p = &s->p[i];
    char name[sizeof f->name];
    snprintf(name, sizeof name, "%s %s", p->machine, p->workset);
    if (p->status == TF_MP_OK && p->measured_ns > 0 && !strcmp(name, f->name))
      r[n++] = ratio(p);
  }
  qsort(r, n, sizeof *r, cmp_double);
  f->n = n;
  f->min = n ? r[0] : 0, f->max = n ? r[n - 1] : 0;
  f->median = !n ? 0 : n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
  free(r);
}

/* The families of the points with an absolute time, in input order. */
static void families(tf_measured_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    const tf_mpoint *p = &s->p[i];
    char name[sizeof s->f->name];
    snprintf(name, sizeof name, "%s %s", p->machine, p->workset);
    int seen = p->status != TF_MP_OK || p->measured_ns <= 0;
    for (size_t k = 0; k < s->nf && !seen; k++)
      seen = !strcmp(s->f[k].name, name);
    if (seen)
      continue;
    TF_NREALLOC(s->f, s->nf + 1);
    memset(&s->f[s->nf], 0, sizeof *s->f);
    snprintf(s->f[s->nf].name, sizeof s->f->name, "%s", name);
    family_stats(s, &s->f[s->nf++]);
  }
}

int tf_measured_finish(tf_measured_set *s, tf_cache *cache, const tf_solve_opts *o, tf_error *err) {
  if (build_groups(s, err))
    return -1;
  for (size_t k = 0; k < s->ng; k++) {
    tf_mgroup *g = &s->g[k];
    if (g->npoints && tf_measured_rank(s, g, cache, o, err))
      return -1;
    count_pairs(s, g, &s->t);
    count_top(g, &s->t);
  }
  tau(&s->t);
  families(s);
  return 0;
}

/* ---------------------------------------------------------------- text */

/* "relative_time 1.180" or "206.363 us". */
static void measured_text(const tf_mpoint *p, char *buf, size_t size) {
  if (p->measured_ns > 0)
    snprintf(buf, size, "%.3f us", p->measured_ns / 1000);
  else
    snprintf(buf, size, "relative_time %.3f", p->m.value);
}

/* The config's variables, freed for the rank ("B_r B_c"). */
static void free_names(const tf_mpoint *p, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = 0;
  for (size_t k = 0; k < p->nfix && at < size; k++)
    at += (size_t)snprintf(buf + at, size - at, "%s%s", k ? " " : "", p->fix[k].name);
}

static void rank_text(FILE *f, const tf_measured_set *s, const tf_mgroup *g) {
  char names[160];
  if (!g->ranked)
    return;
  free_names(&s->p[g->points[0]], names, sizeof names);
  if (g->ranked < 0)
    fprintf(f, "  measured best: outside the model's space (%s free: its config is outside the workset's domains)\n",
            names);
  else
    fprintf(f, "  measured best: rank %s%lld of the model's whole space (%lld faster, %lld tied; %s free)\n",
            g->at_least ? "at least " : "", (long long)rank_of(g), (long long)g->faster, (long long)g->tied, names);
}

static void group_text(FILE *f, const tf_measured_set *s, const tf_mgroup *g) {
  const tf_mpoint *first = NULL;
  for (size_t i = 0; i < s->n && !first; i++)
    first = !strcmp(s->p[i].m.group, g->name) ? &s->p[i] : NULL;
  fprintf(f, "group %s (%s %s): %zu point%s, by measured time\n", g->name, first->machine, first->workset, g->nall,
          g->nall == 1 ? "" : "s");
  for (size_t i = 0; i < g->npoints; i++) {
    const tf_mpoint *p = &s->p[g->points[i]];
    char m[64];
    measured_text(p, m, sizeof m);
    fprintf(f, "  %2zu  %-44s %-30s %-22s predicted %.3f us %s\n", i + 1, p->id, p->config, m,
            (double)p->predicted / TF_MEASURED_UNITS_PER_NS / 1000, p->bound);
  }
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->p[i].m.group, g->name) && s->p[i].status != TF_MP_OK)
      fprintf(f, "   -  %-44s %-30s %s\n", s->p[i].id, s->p[i].config,
              s->p[i].status == TF_MP_NO_FIT ? "does not fit" : "not representable");
  rank_text(f, s, g);
}

static void totals_text(FILE *f, const tf_mtotals *t) {
  fprintf(f, "measured: %zu points in %zu groups; %zu not representable, %zu do not fit\n", t->points, t->groups,
          t->unrepresentable, t->no_fit);
  fprintf(f, "pairs at least %d%% apart in measured time: %zu right, %zu wrong, %zu tied by the model\n",
          (int)lround((TF_MEASURED_APART - 1) * 100), t->right, t->wrong, t->tied);
  if (t->has_tau)
    fprintf(f, "Kendall tau-b pooled over groups: %+.3f", t->tau_b);
  else
    fprintf(f, "Kendall tau-b pooled over groups: none");
  fprintf(f, " (%zu pairs; %zu tied in measured time, %zu in the model)\n", t->pairs, t->ties_measured, t->ties_model);
  fprintf(f,
          "measured best strictly in the model's top 3: %zu of %zu groups of several configurations (top 1: %zu); "
          "%zu of %zu groups (top 1: %zu)\n",
          t->top3, t->several, t->top1, t->all_top3, t->ranked, t->all_top1);
}

void tf_measured_write_text(FILE *f, const tf_measured_set *s) {
  if (!s->n)
    return;
  for (size_t k = 0; k < s->ng; k++)
    group_text(f, s, &s->g[k]);
  totals_text(f, &s->t);
  fprintf(f, "%-32s %6s %7s %7s %7s\n", "predicted/measured by family", "points", "median", "min", "max");
  for (size_t k = 0; k < s->nf; k++)
    fprintf(f, "%-32s %6zu %7.3f %7.3f %7.3f\n", s->f[k].name, s->f[k].n, s->f[k].median, s->f[k].min, s->f[k].max);
}

/* ---------------------------------------------------------------- JSON */

static void point_json(tf_json_out *w, const tf_mpoint *p) {
  tf_json_out_object(w);
  tf_json_out_key_string(w, "id", p->id);
  tf_json_out_key_string(w, "config", p->config);
  tf_json_out_key_string(w, "result",
                         p->status == TF_MP_OK       ? "measured"
                         : p->status == TF_MP_NO_FIT ? "no_fit"
                                                     : "unrepresentable");
  tf_json_out_key(w, tf_measure_name(p->m.measure));
  tf_json_out_double(w, p->m.value);
  if (p->measured_ns > 0) {
    tf_json_out_key(w, "measured_ns");
    tf_json_out_fixed(w, p->measured_ns, 3);
  }
  if (p->status == TF_MP_OK) {
    tf_json_out_key_int(w, "predicted_ns", p->predicted / TF_MEASURED_UNITS_PER_NS);
    tf_json_out_key_string(w, "bound_by", p->bound);
    if (p->measured_ns > 0) {
      tf_json_out_key(w, "ratio");
      tf_json_out_fixed(w, ratio(p), 3);
    }
  }
  tf_json_out_end(w);
}

static void rank_json(tf_json_out *w, const tf_measured_set *s, const tf_mgroup *g) {
  char names[160];
  tf_json_out_key(w, "rank");
  if (g->ranked > 0)
    tf_json_out_int(w, rank_of(g));
  else
    tf_json_out_null(w);
  if (!g->ranked)
    return;
  free_names(&s->p[g->points[0]], names, sizeof names);
  tf_json_out_key_bool(w, "in_space", g->ranked > 0);
  tf_json_out_key_int(w, "faster", g->faster);
  tf_json_out_key_int(w, "tied", g->tied);
  tf_json_out_key_bool(w, "at_least", g->at_least);
  tf_json_out_key_string(w, "free", names);
}

static void group_json(tf_json_out *w, const tf_measured_set *s, const tf_mgroup *g) {
  const tf_mpoint *first = NULL;
  for (size_t i = 0; i < s->n && !first; i++)
    first = !strcmp(s->p[i].m.group, g->name) ? &s->p[i] : NULL;
  tf_json_out_object(w);
  tf_json_out_key_string(w, "group", g->name);
  tf_json_out_key_string(w, "machine", first->machine);
  tf_json_out_key_string(w, "workset", first->workset);
  tf_json_out_key_array(w, "points"); /* in measured order, then those the model cannot take */
  for (size_t i = 0; i < g->npoints; i++)
    point_json(w, &s->p[g->points[i]]);
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->p[i].m.group, g->name) && s->p[i].status != TF_MP_OK)
      point_json(w, &s->p[i]);
  tf_json_out_end(w);
  rank_json(w, s, g);
  tf_json_out_end(w);
}

static void key_size(tf_json_out *w, const char *key, size_t v) { tf_json_out_key_int(w, key, (int64_t)v); }

static void totals_json(tf_json_out *w, const tf_mtotals *t) {
  tf_json_out_key_object(w, "totals");
  key_size(w, "points", t->points), key_size(w, "groups", t->groups);
  key_size(w, "unrepresentable", t->unrepresentable), key_size(w, "no_fit", t->no_fit);
  key_size(w, "right", t->right), key_size(w, "wrong", t->wrong), key_size(w, "tied", t->tied);
  key_size(w, "pairs", t->pairs), key_size(w, "ties_measured", t->ties_measured);
  key_size(w, "ties_model", t->ties_model);
  tf_json_out_key(w, "tau_b");
  if (t->has_tau)
    tf_json_out_fixed(w, t->tau_b, 3);
  else
    tf_json_out_null(w);
  key_size(w, "several", t->several), key_size(w, "top1", t->top1), key_size(w, "top3", t->top3);
  key_size(w, "ranked", t->ranked), key_size(w, "all_top1", t->all_top1), key_size(w, "all_top3", t->all_top3);
  tf_json_out_end(w);
}

void tf_measured_write_json(tf_json_out *w, const tf_measured_set *s) {
  if (!s->n)
    return;
  tf_json_out_key_object(w, "measured");
  tf_json_out_key_array(w, "groups");
  for (size_t k = 0; k < s->ng; k++)
    group_json(w, s, &s->g[k]);
  tf_json_out_end(w);
  totals_json(w, &s->t);
  tf_json_out_key_array(w, "families");
  for (size_t k = 0; k < s->nf; k++) {
    const tf_mfamily *f = &s->f[k];
    tf_json_out_object(w);
    tf_json_out_key_string(w, "family", f->name);
    key_size(w, "points", f->n);
    tf_json_out_key(w, "median"), tf_json_out_fixed(w, f->median, 3);
    tf_json_out_key(w, "min"), tf_json_out_fixed(w, f->min, 3);
    tf_json_out_key(w, "max"), tf_json_out_fixed(w, f->max, 3);
    tf_json_out_end(w);
  }
  tf_json_out_end(w);
  tf_json_out_end(w);
}
