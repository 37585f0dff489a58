/* What separates two ranked answers (explain_gap.h). */
#include "solver/explain_gap.h"

#include <string.h>

#include "model/input/machine.h"
#include "model/input/roofline.h"
#include "model/input/workset.h"
#include "solver/roofline_view.h"

static int equal_levels(const tf_problem *p, const tf_answer *a, const tf_answer *b) {
  for (size_t o = 0; o < p->nobjective; o++)
    if (a->point.objective[o] != b->point.objective[o])
      return 0;
  return 1;
}

static void measured_error(const tf_problem *p, tf_gap *g) {
  const tf_workset *w = p->workset;
  g->error_permille = -1;
  for (size_t i = 0; i < w->nmeasured_error; i++)
    if (!strcmp(w->measured_error[i].machine, p->machine->name)) {
      g->error_permille = w->measured_error[i].rms_permille;
      g->error_points = w->measured_error[i].points;
    }
}

static int64_t value_or(const tf_problem *p, const tf_answer *a, const char *name, int64_t dflt) {
  int64_t v;
  return tf_roofline_value(p, a->choose, a->counts, name, &v) ? dflt : v;
}

/* Answer a's time in its parts, ns[k] for part k of names[]: a part per
 * CTA-iteration lets' sum times the SM's CTAs and iterations, at the clock
 * times run at; HBM and the fill as the shape computes them.  0 where the
 * workset has no such part. */
static const char *const part_names[TF_GAP_PARTS] = {"overlapped terms", "serial share", "overhead",
                                                     "CTA I/O",          "HBM",          "fill"};

static void parts_of(const tf_problem *p, const tf_answer *a, int64_t *ns, int64_t *waves, int64_t *iters) {
  int64_t mhz = tf_machine_time_mhz(p->machine);
  *waves = value_or(p, a, "sm_ctas", value_or(p, a, "waves", 1));
  *iters = value_or(p, a, "cta_iterations", 1);
  int64_t cycles = value_or(p, a, "cycles", 0);
  int64_t per_iter[3] = {value_or(p, a, "overlap_cycles", cycles), value_or(p, a, "serial_cycles", 0),
                         value_or(p, a, "overhead_cycles", 0)};
  for (int k = 0; k < 3; k++) /* at most 2^40 clocks a CTA, 2^20 CTAs: no overflow before the division */
    ns[k] = per_iter[k] * *iters * *waves * 1000 / mhz;
  ns[3] = value_or(p, a, "epilogue_cycles", 0) * *waves * 1000 / mhz;
  ns[4] = value_or(p, a, "hbm_ns", 0);
  ns[5] = value_or(p, a, "fill_ns", 0);
}

/* Orders the parts that differ by how much, the largest first. */
static void sort_parts(tf_gap *g) {
  for (size_t i = 1; i < g->nparts; i++)
    for (size_t j = i; j > 0; j--) {
      int64_t dj = g->part[j].ns[1] - g->part[j].ns[0], dk = g->part[j - 1].ns[1] - g->part[j - 1].ns[0];
      if ((dj < 0 ? -dj : dj) <= (dk < 0 ? -dk : dk))
        break;
      tf_gap_part t = g->part[j];
      g->part[j] = g->part[j - 1], g->part[j - 1] = t;
    }
}

void tf_gap_at(const tf_problem *p, const tf_answer *a, const tf_answer *b, tf_gap *g) {
  memset(g, 0, sizeof *g);
  g->tie = equal_levels(p, a, b);
  measured_error(p, g);
  g->timed = !tf_roofline_value(p, a->choose, a->counts, "time_ns", &g->time[0]) &&
             !tf_roofline_value(p, b->choose, b->counts, "time_ns", &g->time[1]);
  if (!g->timed)
    return;
  int64_t pa[TF_GAP_PARTS], pb[TF_GAP_PARTS];
  parts_of(p, a, pa, &g->waves[0], &g->iters[0]);
  parts_of(p, b, pb, &g->waves[1], &g->iters[1]);
  g->bound[0] = tf_roofline_term_name(value_or(p, a, "bound_by", 0));
  g->bound[1] = tf_roofline_term_name(value_or(p, b, "bound_by", 0));
  /* HBM is a part where it binds one of the two, the rest where compute does */
  int hbm = value_or(p, a, "time_bound_by", 0) == TF_TERM_HBM || value_or(p, b, "time_bound_by", 0) == TF_TERM_HBM;
  int compute = value_or(p, a, "time_bound_by", 0) != TF_TERM_HBM || value_or(p, b, "time_bound_by", 0) != TF_TERM_HBM;
  for (int k = 0; k < TF_GAP_PARTS; k++)
    if (pa[k] != pb[k] && (k == 4 ? hbm : k == 5 || compute)) {
      g->part[g->nparts].name = part_names[k];
      g->part[g->nparts].ns[0] = pa[k];
      g->part[g->nparts++].ns[1] = pb[k];
    }
  sort_parts(g);
}

/* "+0.10%" from the two times, in hundredths of a percent. */
static void percent(FILE *f, const tf_gap *g) {
  int64_t d = g->time[0] > 0 ? (g->time[1] - g->time[0]) * 10000 / g->time[0] : 0, m = d < 0 ? -d : d;
  fprintf(f, "%c%lld.%02lld%%", d < 0 ? '-' : '+', (long long)(m / 100), (long long)(m % 100));
}

static void text_error(FILE *f, const tf_problem *p, const tf_gap *g) {
  if (g->error_permille < 0) {
    fprintf(f, "; no published time of %s on %s measures the model's error\n", p->workset->name, p->machine->name);
    return;
  }
  int64_t d = g->time[0] > 0 ? (g->time[1] - g->time[0]) * 1000 / g->time[0] : 0;
  fprintf(f, "; %s the model's error on %s on %s (%lld per mille rms over %lld published times)\n",
          (d < 0 ? -d : d) < g->error_permille ? "inside" : "beyond", p->workset->name, p->machine->name,
          (long long)g->error_permille, (long long)g->error_points);
}

static void text_parts(FILE *f, const tf_gap *g) {
  for (size_t i = 0; i < g->nparts; i++)
    fprintf(f, "%s%s %+lld ns", i ? ", " : ": ", g->part[i].name, (long long)(g->part[i].ns[1] - g->part[i].ns[0]));
  if (g->waves[0] != g->waves[1] || g->iters[0] != g->iters[1])
    fprintf(f, " (%lld CTAs an SM of %lld main-loop iteration%s, against %lld of %lld)", (long long)g->waves[1],
            (long long)g->iters[1], g->iters[1] == 1 ? "" : "s", (long long)g->waves[0], (long long)g->iters[0]);
  if (g->bound[0] && g->bound[1] && strcmp(g->bound[0], g->bound[1]))
    fprintf(f, "; bound by %s, against %s", g->bound[1], g->bound[0]);
}

void tf_gap_text(FILE *f, const tf_problem *p, const tf_answer *a, const tf_answer *b) {
  tf_gap g;
  tf_gap_at(p, a, b, &g);
  fprintf(f, "rank %-7d ", b->rank);
  if (!g.timed) {
    fprintf(f,
            g.tie ? "ties rank %d at every objective level\n"
                  : "follows rank %d at an objective level (the workset gives no time)\n",
            a->rank);
    return;
  }
  if (g.tie)
    fprintf(f, "ties rank %d at every objective level", a->rank);
  else if (g.time[0] != g.time[1]) {
    fprintf(f, "%+lld ns (", (long long)(g.time[1] - g.time[0]));
    percent(f, &g);
    fprintf(f, ") after rank %d", a->rank);
  }
  if (!g.tie && g.time[0] == g.time[1])
    fprintf(f, "takes rank %d's time; a later objective level decides", a->rank);
  if (!g.nparts && g.time[0] == g.time[1]) {
    fprintf(f, "%s the same in every part of the time\n", g.tie ? ":" : ",");
    return;
  }
  text_parts(f, &g);
  text_error(f, p, &g);
}

void tf_gap_json(tf_json_out *w, const tf_problem *p, const tf_answer *a, const tf_answer *b) {
  tf_gap g;
  tf_gap_at(p, a, b, &g);
  tf_json_out_key_object(w, "gap");
  tf_json_out_key_int(w, "after_rank", a->rank);
  tf_json_out_key_bool(w, "tie", g.tie);
  if (g.timed) {
    tf_json_out_key_int(w, "gap_ns", g.time[1] - g.time[0]);
    tf_json_out_key_array(w, "parts");
    for (size_t i = 0; i < g.nparts; i++) {
      tf_json_out_object(w);
      tf_json_out_key_string(w, "name", g.part[i].name);
      tf_json_out_key_int(w, "ns", g.part[i].ns[1]);
      tf_json_out_key_int(w, "rank_ns", g.part[i].ns[0]);
      tf_json_out_end(w);
    }
    tf_json_out_end(w);
  }
  if (g.error_permille >= 0) {
    tf_json_out_key_int(w, "error_permille", g.error_permille);
    tf_json_out_key_int(w, "error_points", g.error_points);
  }
  tf_json_out_end(w);
}
