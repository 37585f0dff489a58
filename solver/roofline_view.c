/* Evaluating and printing the roofline of a point (roofline_view.h). */
#include "roofline_view.h"

#include <stdint.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/bind/value.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/input/datapath.h"
#include "model/input/machine.h"
#include "model/input/workset.h"

int tf_roofline_value(const tf_problem *p, const int64_t *choose, const int64_t *counts, const char *name,
                      int64_t *out) {
  const tf_workset *w = p->workset;
  int sym = tf_workset_resolve(w, name);
  if (sym < 0 || tf_workset_sym_kind(w, sym) != TF_SYM_LET)
    return -1;
  tf_error e;
  tf_error_init(&e);
  return tf_problem_value(p, choose, counts, w->lets[sym - tf_workset_sym_let(w, 0)].expr, out, &e) ? -1 : 0;
}

/* How the machine charges an edge: its table's word for it. */
static const char *charge_of(const tf_problem *p, const char *edge) {
  const tf_datapath *dp = &p->machine->datapath;
  const tf_edge *e = tf_datapath_edge(dp, edge);
  const char *arrow = strstr(edge, "->");
  if (!e && arrow && !strcmp(arrow, "->mma") && strncmp(edge, "rf->", 4)) {
    char via[32];
    snprintf(via, sizeof via, "%.*s->rf", (int)(arrow - edge), edge);
    const tf_edge *r = tf_datapath_edge(dp, via);
    if (r)
      return r->kind == TF_EDGE_PORT ? "through registers (ldmatrix), smem port" : "through registers, unmetered";
  }
  if (!e)
    return "not in the machine's edges table: unmetered";
  return e->kind == TF_EDGE_PORT        ? "smem port"
         : e->kind == TF_EDGE_UNMETERED ? "unmetered"
                                        : "own rate: not a term yet";
}

/* mma_ops_0 + mma_ops_1 + ...: -1 when there is none. */
static int64_t mma_ops(const tf_problem *p, const int64_t *choose, const int64_t *counts) {
  int64_t total = -1, v;
  for (int i = 0; i < 8; i++) {
    char name[32];
    snprintf(name, sizeof name, "mma_ops_%d", i);
    if (tf_roofline_value(p, choose, counts, name, &v))
      break;
    total = (total < 0 ? 0 : total) + v;
  }
  return total;
}

static void flows_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_roofline_view *v) {
  const tf_workset *w = p->workset;
  for (size_t k = 0; k < w->nflows && v->nflows < TF_VIEW_MAX_FLOWS; k++) {
    const tf_flow *fl = &w->flows[k];
    int mem = tf_memory_of_at(p, (size_t)fl->buffer, choose);
    size_t i = v->nflows++;
    v->flow[i].buffer = w->buffers[fl->buffer].name;
    v->flow[i].edge[0] = 0;
    v->flow[i].charge = "no edge: it stays in its memory";
    if (tf_flow_edge(fl, mem, v->flow[i].edge, sizeof v->flow[i].edge))
      v->flow[i].charge = charge_of(p, v->flow[i].edge);
    char name[32];
    snprintf(name, sizeof name, "flow_bytes_%zu", k);
    if (tf_roofline_value(p, choose, counts, name, &v->flow[i].bytes))
      v->flow[i].bytes = -1;
  }
}

void tf_roofline_view_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_roofline_view *v) {
  memset(v, 0, sizeof *v);
  if (!p->workset->roofline || tf_roofline_value(p, choose, counts, "cycles", &v->cycles) ||
      tf_roofline_value(p, choose, counts, "bound_by", &v->bound_by))
    return;
  for (int t = 0; t < TF_ROOFLINE_NTERMS; t++) {
    char name[32];
    snprintf(name, sizeof name, "cycles(%s)", tf_roofline_terms[t]);
    v->has[t] = !tf_roofline_value(p, choose, counts, name, &v->term[t]);
  }
  v->scheduled = !tf_roofline_value(p, choose, counts, "overlap_cycles", &v->overlap) &&
                 !tf_roofline_value(p, choose, counts, "serial_cycles", &v->serial) &&
                 !tf_roofline_value(p, choose, counts, "overhead_cycles", &v->overhead);
  v->mma_ops = mma_ops(p, choose, counts);
  if (tf_roofline_value(p, choose, counts, "exp_ops", &v->exp_ops))
    v->exp_ops = -1;
  flows_at(p, choose, counts, v);
  v->ok = 1;
}

static int64_t port_bytes(const tf_roofline_view *v) {
  int64_t b = 0;
  for (size_t i = 0; i < v->nflows; i++)
    if (strstr(v->flow[i].charge, "smem port") && v->flow[i].bytes > 0)
      b += v->flow[i].bytes;
  return b;
}

/* The bytes of the flows that come from L2 (edge "l2->..."). */
static int64_t l2_bytes(const tf_roofline_view *v) {
  int64_t b = 0;
  for (size_t i = 0; i < v->nflows; i++)
    if (!strncmp(v->flow[i].edge, "l2->", 4) && v->flow[i].bytes > 0)
      b += v->flow[i].bytes;
  return b;
}

static void term_lines(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts,
                       const tf_roofline_view *v) {
  int64_t rate;
  if (v->has[0] && v->mma_ops >= 0 && !tf_roofline_value(p, choose, counts, "mma_rate_1", &rate))
    fprintf(f, "  mma        %lld ops over several operand widths = %lld\n", (long long)v->mma_ops,
            (long long)v->term[0]);
  else if (v->has[0] && !tf_roofline_value(p, choose, counts, "mma_rate_0", &rate) && (p->workset->roofline_sync & 1) &&
           p->machine->mma_sync.present)
    fprintf(f, "  mma        %lld ops / %lld per clk (mma.sync: %lld per mille of the machine's MMA rate) = %lld\n",
            (long long)v->mma_ops, (long long)rate, (long long)p->machine->mma_sync.rate_permille,
            (long long)v->term[0]);
  else if (v->has[0] && !tf_roofline_value(p, choose, counts, "mma_rate_0", &rate))
    fprintf(f, "  mma        %lld ops / %lld per clk (the machine's MMA rate at this width) = %lld\n",
            (long long)v->mma_ops, (long long)rate, (long long)v->term[0]);
  if (v->has[1])
    fprintf(f, "  exp        %lld / %lld per clk (exp_per_clk) = %lld\n", (long long)v->exp_ops,
            (long long)p->machine->throughput.exp_per_clk, (long long)v->term[1]);
  if (v->has[2])
    fprintf(f, "  smem       %lld B / %lld B/clk (smem.bytes_per_clk) = %lld\n", (long long)port_bytes(v),
            (long long)p->machine->smem.bytes_per_clk, (long long)v->term[2]);
  if (v->has[3] && p->machine->l2.present)
    fprintf(f, "  l2         %lld B x %lld SMs / %lld B/clk (l2.bytes_per_clk) = %lld\n", (long long)l2_bytes(v),
            (long long)p->machine->sm_count, (long long)p->machine->l2.bytes_per_clk, (long long)v->term[3]);
  else if (v->has[3])
    fprintf(f, "  l2         %lld B from L2, not charged: the machine gives no l2.bytes_per_clk\n",
            (long long)l2_bytes(v));
  int64_t alu;
  if (v->has[4] && !tf_roofline_value(p, choose, counts, "alu_ops", &alu)) {
    if (p->machine->alu.present)
      fprintf(f, "  alu        %lld / %lld per clk (alu.fp32_per_clk) = %lld\n", (long long)alu,
              (long long)p->machine->alu.fp32_per_clk, (long long)v->term[4]);
    else
      fprintf(f, "  alu        %lld FP32 operations, not charged: the machine gives no alu.fp32_per_clk\n",
              (long long)alu);
  }
}

/* The latency lets (model/input/roofline.h) at a point; 0 when the workset
 * declares no loads.  v[]: load_bytes, load_cycles, iteration_cycles,
 * stages_needed, pipeline_stages, latency_bound, compute_cycles. */
static const char *const latency_names[] = {"load_bytes",      "load_cycles",   "iteration_cycles", "stages_needed",
                                            "pipeline_stages", "latency_bound", "compute_cycles"};
#define NLATENCY (sizeof latency_names / sizeof *latency_names)

static int latency_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, int64_t *v) {
  for (size_t i = 0; i < NLATENCY; i++)
    if (tf_roofline_value(p, choose, counts, latency_names[i], &v[i]))
      return 0;
  return 1;
}

static void latency_lines(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts,
                          const tf_roofline_view *rv) {
  int64_t v[NLATENCY];
  if (!latency_at(p, choose, counts, v))
    return;
  const tf_machine *m = p->machine;
  int64_t lat = m->latency.present ? m->latency.hbm_clk : 0;
  fprintf(
      f,
      "  latency    stages_needed %lld = 1 + cdiv(%lld clk latency.hbm_clk, %lld clk per iteration); %lld stages%s\n",
      (long long)v[3], (long long)lat, (long long)v[2], (long long)v[4], v[5] ? ": latency-bound" : ", enough");
  int64_t hbm_ns;
  fprintf(f, "  iteration  %lld clk = max(compute %lld (cycles %lld over the iterations), loads %lld", (long long)v[2],
          (long long)v[6], (long long)rv->cycles, (long long)v[1]);
  if (!tf_roofline_value(p, choose, counts, "hbm_ns", &hbm_ns))
    fprintf(f, " (hbm_ns %lld at %lld MHz over each SM's iterations: the shape's HBM bytes))\n", (long long)hbm_ns,
            (long long)tf_machine_time_mhz(m));
  else
    fprintf(f, " (%lld B x %lld SMs x %lld MHz / (%lld GB/s x 1000): every byte from HBM))\n", (long long)v[0],
            (long long)m->sm_count, (long long)tf_machine_time_mhz(m), (long long)m->hbm_gbps);
}

/* The shape's time lets (model/input/shape.h) at a point; 0 without a
 * shape.  v[]: time_ns, compute_ns, hbm_ns, waves, fill_ns; v[4] is -1
 * when the shape declares no fill. */
static const char *const time_names[] = {"time_ns", "compute_ns", "hbm_ns", "waves", "fill_ns", "epilogue_cycles"};
#define NTIME (sizeof time_names / sizeof *time_names)

static void roofline_values(const tf_problem *p, const int64_t *choose, const int64_t *counts, const char *const *names,
                            size_t n, int64_t *v, int *failed);

static int time_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, int64_t *v) {
  int failed[NTIME];
  roofline_values(p, choose, counts, time_names, NTIME, v, failed);
  if (failed[4])
    v[4] = -1;
  if (failed[5])
    v[5] = -1;
  return !failed[0] && !failed[1] && !failed[2] && !failed[3];
}

static void time_line(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts) {
  int64_t v[NTIME];
  if (!time_at(p, choose, counts, v))
    return;
  fprintf(f, "  time       %lld ns = max(compute %lld, hbm %lld)", (long long)v[0], (long long)v[1], (long long)v[2]);
  if (v[4] >= 0 && p->occupancy >= 0)
    fprintf(f, " + fill %lld at occupancy %lld (%s)", (long long)v[4], (long long)choose[p->occupancy],
            choose[p->occupancy] > 1 ? "hidden behind a second CTA but for the first wave" : "every wave waits");
  if (p->machine->kernel.present)
    fprintf(f, " + fixed %lld (kernel.fixed_ns)", (long long)p->machine->kernel.fixed_ns);
  fprintf(f, "; %lld waves", (long long)v[3]);
  if (v[5] >= 0)
    fprintf(f, "; compute with an epilogue of %lld clk a tile", (long long)v[5]);
  fputc('\n', f);
}

/* "max(mma 2816, smem 1664)" over the terms `serial` says (0: the
 * overlapped ones, 1: the serial ones), or every term with `all`. */
static void terms_list(FILE *f, const tf_problem *p, const tf_roofline_view *v, int serial, int all) {
  const char *sep = "";
  for (int t = 0; t < TF_ROOFLINE_NTERMS; t++)
    if (v->has[t] && (all || !!(p->workset->roofline_serial & (1u << t)) == serial))
      fprintf(f, "%s%s %lld", sep, tf_roofline_terms[t], (long long)v->term[t]), sep = ", ";
}

/* A schedule's cycles: the overlapped terms' max, then what adds to it. */
static void schedule_line(FILE *f, const tf_problem *p, const tf_roofline_view *v) {
  fprintf(f, "roofline     per tile: cycles %lld = max(", (long long)v->cycles);
  terms_list(f, p, v, 0, 0);
  fprintf(f, ") %lld + serial %lld (", (long long)v->overlap, (long long)v->serial);
  terms_list(f, p, v, 1, 0);
  fprintf(f, ", the exposed share) + overhead %lld, largest term %s\n", (long long)v->overhead,
          tf_roofline_term_name(v->bound_by));
}

void tf_explain_roofline(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts) {
  tf_roofline_view v;
  tf_roofline_view_at(p, choose, counts, &v);
  if (!v.ok)
    return;
  if (v.scheduled)
    schedule_line(f, p, &v);
  else {
    fprintf(f, "roofline     per tile: cycles %lld = max(", (long long)v.cycles);
    terms_list(f, p, &v, 0, 1);
    fprintf(f, "), bound by %s", tf_roofline_term_name(v.bound_by));
    for (int t = (int)v.bound_by; t < TF_ROOFLINE_NTERMS; t++)
      if (v.has[t] && v.term[t] == v.cycles)
        fprintf(f, " (%s ties)", tf_roofline_terms[t]);
    fputc('\n', f);
  }
  term_lines(f, p, choose, counts, &v);
  latency_lines(f, p, choose, counts, &v);
  time_line(f, p, choose, counts);
  for (size_t i = 0; i < v.nflows; i++)
    if (v.flow[i].edge[0])
      fprintf(f, "  traffic    %s %lld B %s (%s)\n", v.flow[i].buffer, (long long)v.flow[i].bytes, v.flow[i].edge,
              v.flow[i].charge);
    else
      fprintf(f, "  traffic    %s %lld B (%s)\n", v.flow[i].buffer, (long long)v.flow[i].bytes, v.flow[i].charge);
}

void tf_explain_roofline_json(tf_json_out *w, const tf_problem *p, const int64_t *choose, const int64_t *counts) {
  tf_roofline_view v;
  tf_roofline_view_at(p, choose, counts, &v);
  if (!v.ok)
    return;
  tf_json_out_key_object(w, "roofline");
  tf_json_out_key_int(w, "cycles", v.cycles);
  tf_json_out_key_string(w, "bound_by", tf_roofline_term_name(v.bound_by));
  if (v.scheduled) {
    tf_json_out_key_object(w, "schedule");
    tf_json_out_key_int(w, "overlap_cycles", v.overlap);
    tf_json_out_key_int(w, "serial_cycles", v.serial);
    tf_json_out_key_int(w, "overhead_cycles", v.overhead);
    tf_json_out_end(w);
  }
  tf_json_out_key_object(w, "terms");
  for (int t = 0; t < TF_ROOFLINE_NTERMS; t++)
    if (v.has[t])
      tf_json_out_key_int(w, tf_roofline_terms[t], v.term[t]);
  tf_json_out_end(w);
  tf_json_out_key_array(w, "traffic");
  for (size_t i = 0; i < v.nflows; i++) {
    tf_json_out_object(w);
    tf_json_out_key_string(w, "buffer", v.flow[i].buffer);
    tf_json_out_key_int(w, "bytes", v.flow[i].bytes);
    tf_json_out_key_string(w, "edge", v.flow[i].edge);
    tf_json_out_key_string(w, "charge", v.flow[i].charge);
    tf_json_out_end(w);
  }
  tf_json_out_end(w); /* traffic */
  int64_t l[NLATENCY];
  if (latency_at(p, choose, counts, l)) {
    tf_json_out_key_object(w, "latency");
    for (size_t i = 0; i < NLATENCY; i++)
      tf_json_out_key_int(w, latency_names[i], l[i]);
    tf_json_out_key_int(w, "latency_clk", p->machine->latency.present ? p->machine->latency.hbm_clk : 0);
    tf_json_out_end(w);
  }
  int64_t t[NTIME];
  if (time_at(p, choose, counts, t)) {
    tf_json_out_key_object(w, "time");
    for (size_t i = 0; i < NTIME; i++)
      if (t[i] >= 0)
        tf_json_out_key_int(w, time_names[i], t[i]);
    tf_json_out_end(w);
  }
  tf_json_out_end(w); /* roofline */
}

/* tf_roofline_value of the n (at most 8) names at one point, the point
 * evaluated once (tf_problem_values); failed[k] where v[k] is not set. */
static void roofline_values(const tf_problem *p, const int64_t *choose, const int64_t *counts, const char *const *names,
                            size_t n, int64_t *v, int *failed) {
  const tf_workset *w = p->workset;
  const tf_expr *e[8];
  size_t at[8], m = 0;
  for (size_t k = 0; k < n && k < 8; k++) {
    int sym = tf_workset_resolve(w, names[k]);
    failed[k] = sym < 0 || tf_workset_sym_kind(w, sym) != TF_SYM_LET;
    if (!failed[k])
      e[m] = w->lets[sym - tf_workset_sym_let(w, 0)].expr, at[m++] = k;
  }
  int64_t got[8];
  int bad[8];
  if (!m)
    return;
  tf_problem_values(p, choose, counts, e, m, got, bad);
  for (size_t j = 0; j < m; j++)
    if (!(failed[at[j]] = bad[j]))
      v[at[j]] = got[j];
}

/* One evaluation of the point for the four values (a --top row's). */
void tf_estimate_at(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_estimate *e) {
  static const char *const names[] = {"time_ns", "waves", "time_bound_by", "ideal_ns"};
  int64_t v[4];
  int failed[4];
  memset(e, 0, sizeof *e);
  roofline_values(p, choose, counts, names, 4, v, failed);
  if (failed[0] || failed[1] || failed[2])
    return;
  e->time_ns = v[0];
  e->waves = v[1];
  e->bound_by = v[2];
  e->ideal_ns = failed[3] ? -1 : v[3];
  e->ok = 1;
}

/* ideal / time in tenths of a percent; -1 without an ideal. */
static int64_t permille(const tf_estimate *e) {
  if (e->ideal_ns < 0 || e->time_ns <= 0 || e->ideal_ns > INT64_MAX / 1000)
    return -1;
  return e->ideal_ns * 1000 / e->time_ns;
}

void tf_estimate_columns(FILE *f, const tf_problem *p, const int64_t *choose, const int64_t *counts, int header) {
  tf_estimate e;
  tf_estimate_at(p, choose, counts, &e);
  if (!e.ok)
    return;
  if (header) {
    fprintf(f, "  %12s  %-5s  %6s  %6s", "time_us", "bound", "waves", "peak");
    return;
  }
  int64_t pm = permille(&e);
  fprintf(f, "  %8lld.%03lld  %-5s  %6lld", (long long)(e.time_ns / 1000), (long long)(e.time_ns % 1000),
          tf_roofline_term_name(e.bound_by), (long long)e.waves);
  if (pm >= 0)
    fprintf(f, "  %4lld.%lld%%", (long long)(pm / 10), (long long)(pm % 10));
}

void tf_estimate_json(tf_json_out *w, const tf_problem *p, const int64_t *choose, const int64_t *counts) {
  tf_estimate e;
  tf_estimate_at(p, choose, counts, &e);
  if (!e.ok)
    return;
  tf_json_out_key_object(w, "estimate");
  tf_json_out_key_int(w, "time_ns", e.time_ns);
  tf_json_out_key_string(w, "bound_by", tf_roofline_term_name(e.bound_by));
  tf_json_out_key_int(w, "waves", e.waves);
  int64_t pm = permille(&e);
  if (pm >= 0)
    tf_json_out_key_int(w, "efficiency_permille", pm);
  tf_json_out_end(w);
}
