/* The roofline lets (roofline.h): reading the declarations and writing
 * the lets that compute the terms.  Every error names the JSON path. */
#include "model/input/roofline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/names.h"
#include "model/core/text.h"
#include "model/input/datapath.h"
#include "model/input/json_read.h"
#include "model/input/let_add.h"
#include "model/input/memory_kind.h"

const char *const tf_roofline_terms[TF_ROOFLINE_NTERMS] = {"mma", "exp", "smem", "l2", "alu"};

/* The two lets over the terms (max_lets), each also as NAME(TERM). */
static const char *const max_names[] = {"cycles", "bound_by"};
/* The lets of a schedule with serial terms or an overhead (schedule_lets). */
static const char *const schedule_names[] = {"overlap_cycles", "serial_cycles", "overhead_cycles"};

int tf_roofline_defines(const char *name) {
  for (size_t k = 0; k < sizeof schedule_names / sizeof *schedule_names; k++)
    if (!strcmp(name, schedule_names[k]))
      return 1;
  for (size_t k = 0; k < sizeof max_names / sizeof *max_names; k++) {
    size_t n = strlen(max_names[k]);
    if (strncmp(name, max_names[k], n))
      continue;
    if (!name[n])
      return 1;
    for (int i = 0; name[n] == '(' && i < TF_ROOFLINE_NTERMS; i++)
      if (!strncmp(name + n + 1, tf_roofline_terms[i], strlen(tf_roofline_terms[i])) &&
          !strcmp(name + n + 1 + strlen(tf_roofline_terms[i]), ")"))
        return 1;
  }
  return 0;
}

const char *tf_roofline_term_name(int64_t code) {
  return code == TF_TERM_HBM ? "hbm" : code >= 1 && code <= TF_ROOFLINE_NTERMS ? tf_roofline_terms[code - 1] : NULL;
}

static const char *end_name(int end) {
  return end == TF_END_MMA ? "mma" : end == TF_END_L2 ? "l2" : tf_memory_name(end);
}

static void flow_ends(const tf_flow *f, int mem, int *from, int *to) {
  *from = f->toward ? mem : f->end;
  *to = f->toward ? f->end : mem;
}

int tf_flow_edge(const tf_flow *f, int mem, char *buf, size_t size) {
  int from, to;
  flow_ends(f, mem, &from, &to);
  if (from == to)
    return 0;
  snprintf(buf, size, "%s->%s", end_name(from), end_name(to));
  return 1;
}

/* What the declarations say, as expression texts, until the lets are
 * written. */
struct decl {
  char *iterations; /* NULL: one iteration per tile */
  char **bytes;     /* per flow */
  char **paths;     /* per flow: its JSON path */
  char *mma_ops[8], *mma_bits[8];
  char *mma_acc[8]; /* the accumulator's bits, NULL: not given (the full rate) */
  int mma_sync[8];  /* 1: the entry's "inst" is mma.sync (its own rate) */
  size_t nmma;
  char *exp;
  char *alu;                        /* FP32 ALU operations per iteration, NULL: none */
  char *serial[TF_ROOFLINE_NTERMS]; /* per term: its exposure in per mille, NULL: overlapped */
  char *overhead;                   /* clocks per iteration beside the terms, NULL: none */
};

static void decl_release(struct decl *d, size_t nflows) {
  free(d->iterations);
  for (size_t k = 0; k < nflows; k++)
    free(d->bytes[k]), free(d->paths[k]);
  free(d->bytes);
  free(d->paths);
  for (size_t i = 0; i < d->nmma; i++)
    free(d->mma_ops[i]), free(d->mma_bits[i]), free(d->mma_acc[i]);
  free(d->exp);
  free(d->alu);
  for (int t = 0; t < TF_ROOFLINE_NTERMS; t++)
    free(d->serial[t]);
  free(d->overhead);
}

/* "to" may be the MMA or a memory; "from" a memory or the L2 cache. */
static int read_end(const cJSON *v, const char *path, int toward, int *out, tf_error *err) {
  const char *s;
  if (tf_json_string(v, path, &s, err))
    return -1;
  *out = toward && !strcmp(s, "mma") ? TF_END_MMA : !toward && !strcmp(s, "l2") ? TF_END_L2 : tf_memory_find(s);
  if (*out < 0)
    return tf_error_set(err, TF_EINPUT, path, "unknown endpoint '%.40s' (expected %s%s)", s, toward ? "mma, " : "l2, ",
                        TF_MEMORY_LIST(" or "));
  return 0;
}

static int read_flow(tf_workset *w, struct decl *d, size_t b, const cJSON *t, const char *path, tf_error *err) {
  static const char *const keys[] = {"to", "from", "bytes", "comment", NULL};
  static const char *const req[] = {"bytes", NULL};
  if (tf_json_keys(t, path, keys, req, err))
    return -1;
  const cJSON *to = tf_json_member(t, "to"), *from = tf_json_member(t, "from");
  if (!to == !from)
    return tf_error_set(err, TF_EINPUT, path, "expected exactly one of \"to\" (mma, %s) and \"from\"",
                        TF_MEMORY_LIST(", "));
  char sub[200];
  tf_path_key(sub, sizeof sub, path, to ? "to" : "from");
  tf_flow f = {.buffer = (int)b, .toward = to != NULL};
  if (read_end(to ? to : from, sub, to != NULL, &f.end, err))
    return -1;
  if (w->buffers[b].nplace && !tf_name_is_plain(w->buffers[b].name))
    return tf_error_set(err, TF_EINPUT, path, "a placed buffer with traffic needs a name of letters, digits and _");
  size_t k = w->nflows;
  TF_NREALLOC(w->flows, k + 1);
  TF_NREALLOC(d->bytes, k + 1);
  TF_NREALLOC(d->paths, k + 1);
  d->bytes[k] = NULL;
  tf_path_key(sub, sizeof sub, path, "bytes");
  d->paths[k] = tf_strdup(sub);
  w->flows[k] = f;
  w->nflows++;
  return tf_read_expr_text(tf_json_member(t, "bytes"), sub, &d->bytes[k], err);
}

static int read_traffic(tf_workset *w, struct decl *d, const cJSON *buffers, tf_error *err) {
  size_t b = 0;
  const cJSON *buf;
  cJSON_ArrayForEach(buf, buffers) {
    char path[160];
    tf_path_index(path, sizeof path, "$.buffers", b);
    tf_path_key(path, sizeof path, path, "traffic");
    const cJSON *list = tf_json_member(buf, "traffic");
    if (list && !cJSON_IsArray(list))
      return tf_error_set(err, TF_EINPUT, path, "expected a list of {\"to\" or \"from\", \"bytes\"}");
    size_t i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, list) {
      char sub[200];
      tf_path_index(sub, sizeof sub, path, i++);
      if (read_flow(w, d, b, t, sub, err))
        return -1;
    }
    b++;
  }
  return 0;
}

/* An MMA entry's instruction: "mma.sync" runs at the machine's mma.sync
 * rate (mma_sync_permille of its MMA rate); the asynchronous ones, and an
 * entry that names none, at the full rate. */
static int read_inst(const cJSON *v, const char *path, int *sync, tf_error *err) {
  static const char *const insts[] = {"mma.sync", "wgmma", "tcgen05.mma", "mfma", NULL};
  const char *s;
  *sync = 0;
  if (!v)
    return 0;
  if (tf_json_string(v, path, &s, err))
    return -1;
  for (size_t k = 0; insts[k]; k++)
    if (!strcmp(s, insts[k]))
      return *sync = k == 0, 0;
  return tf_error_set(err, TF_EINPUT, path,
                      "unknown instruction '%.40s' (expected mma.sync, wgmma, tcgen05.mma or mfma)", s);
}

static int read_mma(struct decl *d, const cJSON *list, tf_error *err) {
  if (!list)
    return 0;
  if (!cJSON_IsArray(list) || (size_t)cJSON_GetArraySize(list) > sizeof d->mma_ops / sizeof *d->mma_ops)
    return tf_error_set(err, TF_EINPUT, "$.roofline.mma", "expected a list of at most 8 {\"ops\", \"bits\"}");
  static const char *const keys[] = {"ops", "bits", "inst", "acc_bits", "comment", NULL};
  static const char *const req[] = {"ops", "bits", NULL};
  const cJSON *m;
  cJSON_ArrayForEach(m, list) {
    char path[160], sub[200];
    tf_path_index(path, sizeof path, "$.roofline.mma", d->nmma);
    if (tf_json_keys(m, path, keys, req, err))
      return -1;
    size_t i = d->nmma++;
    tf_path_key(sub, sizeof sub, path, "inst");
    if (read_inst(tf_json_member(m, "inst"), sub, &d->mma_sync[i], err))
      return -1;
    tf_path_key(sub, sizeof sub, path, "ops");
    if (tf_read_expr_text(tf_json_member(m, "ops"), sub, &d->mma_ops[i], err))
      return -1;
    tf_path_key(sub, sizeof sub, path, "bits");
    if (tf_read_expr_text(tf_json_member(m, "bits"), sub, &d->mma_bits[i], err))
      return -1;
    tf_path_key(sub, sizeof sub, path, "acc_bits");
    if (tf_json_member(m, "acc_bits") && tf_read_expr_text(tf_json_member(m, "acc_bits"), sub, &d->mma_acc[i], err))
      return -1;
  }
  return 0;
}

/* "serial": {"TERM": EXPOSURE, ...}: the terms the kernel's schedule does
 * not overlap with the others, each with the per mille of it that adds to
 * the time (1000: all of it).  The MMA is what the others overlap with. */
static int read_serial(struct decl *d, const cJSON *o, tf_error *err) {
  if (!o)
    return 0;
  if (!cJSON_IsObject(o))
    return tf_error_set(err, TF_EINPUT, "$.roofline.serial", "expected an object {\"exp\": PER_MILLE, ...}");
  const cJSON *m;
  cJSON_ArrayForEach(m, o) {
    char path[160];
    tf_path_key(path, sizeof path, "$.roofline.serial", m->string);
    int t = 1;
    while (t < TF_ROOFLINE_NTERMS && strcmp(m->string, tf_roofline_terms[t]))
      t++;
    if (t == TF_ROOFLINE_NTERMS)
      return tf_error_set(err, TF_EINPUT, path,
                          "unknown term '%.40s' (expected exp, smem, l2 or alu: the MMA is what they "
                          "overlap with)",
                          m->string);
    if (d->serial[t])
      return tf_error_set(err, TF_EINPUT, path, "term '%s' given twice", m->string);
    if (tf_read_expr_text(m, path, &d->serial[t], err))
      return -1;
  }
  return 0;
}

static int read_compute(struct decl *d, const cJSON *r, tf_error *err) {
  static const char *const keys[] = {"iterations", "mma",      "exp",     "alu", "loads", /* loads: latency.h */
                                     "serial",     "overhead", "comment", NULL};
  if (!cJSON_IsObject(r))
    return tf_error_set(err, TF_EINPUT, "$.roofline", "expected an object {\"iterations\", \"mma\", \"exp\"}");
  if (tf_json_keys(r, "$.roofline", keys, NULL, err))
    return -1;
  if (tf_json_member(r, "iterations") &&
      tf_read_expr_text(tf_json_member(r, "iterations"), "$.roofline.iterations", &d->iterations, err))
    return -1;
  if (tf_json_member(r, "exp") && tf_read_expr_text(tf_json_member(r, "exp"), "$.roofline.exp", &d->exp, err))
    return -1;
  if (tf_json_member(r, "alu") && tf_read_expr_text(tf_json_member(r, "alu"), "$.roofline.alu", &d->alu, err))
    return -1;
  if (tf_json_member(r, "overhead") &&
      tf_read_expr_text(tf_json_member(r, "overhead"), "$.roofline.overhead", &d->overhead, err))
    return -1;
  return read_mma(d, tf_json_member(r, "mma"), err) || read_serial(d, tf_json_member(r, "serial"), err) ? -1 : 0;
}

/* ------------------------------------------------------------ the lets */

static int add(tf_workset *w, const char *name, tf_text *t, const char *path, tf_error *err) {
  char *text = tf_text_close(t, NULL);
  int r = tf_workset_add_let(w, name, text, path, err);
  free(text);
  return r;
}

/* (ITER) * (X), or X with one iteration per tile. */
static void times_iterations(FILE *f, const struct decl *d, const char *x) {
  if (d->iterations)
    fprintf(f, "(%s) * (%s)", d->iterations, x);
  else
    fprintf(f, "%s", x);
}

static int flow_lets(tf_workset *w, const struct decl *d, tf_error *err) {
  for (size_t k = 0; k < w->nflows; k++) {
    char name[40];
    tf_text t;
    times_iterations(tf_text_open(&t), d, d->bytes[k]);
    snprintf(name, sizeof name, "flow_bytes_%zu", k);
    if (add(w, name, &t, d->paths[k], err))
      return -1;
    w->flows[k].let = w->nlets - 1;
  }
  return 0;
}

/* The memories a buffer may be in: its candidates, or its fixed memory. */
static int memories(const tf_buffer *b, int *out) {
  if (!b->nplace)
    return out[0] = b->memory, 1;
  memcpy(out, b->place, (size_t)b->nplace * sizeof *out);
  return b->nplace;
}

/* edge_bytes_X_Y and cycles(X->Y) when some flow may cross X->Y; 1 then. */
static int edge_lets(tf_workset *w, int x, int y, tf_error *err) {
  tf_text t;
  FILE *f = tf_text_open(&t);
  int n = 0;
  for (size_t k = 0; k < w->nflows; k++) {
    const tf_buffer *b = &w->buffers[w->flows[k].buffer];
    int mems[TF_NMEM];
    for (int i = 0, nm = memories(b, mems); i < nm; i++) {
      int from, to;
      flow_ends(&w->flows[k], mems[i], &from, &to);
      if (from != x || to != y)
        continue;
      fprintf(f, "%s", n++ ? " + " : "");
      if (b->nplace)
        fprintf(f, "placed(%s, %s) * ", b->name, tf_memory_name(mems[i]));
      fprintf(f, "flow_bytes_%zu", k);
    }
  }
  char name[64], cyc[64], *text = tf_text_close(&t, NULL);
  snprintf(name, sizeof name, "edge_bytes_%s_%s", end_name(x), end_name(y));
  int r = 0;
  if (n && !(r = tf_workset_add_let(w, name, text, "$.roofline", err))) {
    snprintf(cyc, sizeof cyc, "cycles(%s->%s)", end_name(x), end_name(y));
    tf_text c;
    fprintf(tf_text_open(&c), "smem_port_%s_%s * cdiv(%s, smem_bytes_per_clk)", end_name(x), end_name(y), name);
    r = add(w, cyc, &c, "$.roofline", err);
  }
  free(text);
  return r ? -1 : n > 0;
}

/* cycles(l2): the bytes read from L2 by every SM at once, over the chip's
 * L2 rate (0, no term, on a machine that gives none).  `sum` is the edges'
 * bytes, "0 + edge_bytes_l2_smem ...". */
static int l2_let(tf_workset *w, const char *sum, tf_error *err) {
  tf_text t;
  fprintf(tf_text_open(&t), "if(l2_bytes_per_clk > 0, cdiv((%s) * sm_count, max(1, l2_bytes_per_clk)), 0)", sum);
  return add(w, "cycles(l2)", &t, "$.roofline", err);
}

/* cycles(smem): the bytes of every edge on the SMEM port, over its rate;
 * and cycles(l2) when a flow comes from L2. */
static int port_lets(tf_workset *w, int *has_smem, int *has_l2, tf_error *err) {
  tf_text t, l2;
  FILE *f = tf_text_open(&t), *fl = tf_text_open(&l2);
  fprintf(f, "cdiv(0");
  fprintf(fl, "0");
  *has_smem = *has_l2 = 0;
  for (int x = 0; x <= TF_END_L2; x++)
    for (int y = 0; y <= TF_END_MMA; y++) {
      if (x == y || x == TF_END_MMA)
        continue;
      int r = edge_lets(w, x, y, err);
      if (r < 0) {
        free(tf_text_close(&t, NULL));
        free(tf_text_close(&l2, NULL));
        return -1;
      }
      if (r)
        fprintf(f, " + smem_port_%s_%s * edge_bytes_%s_%s", end_name(x), end_name(y), end_name(x), end_name(y));
      if (r && x == TF_END_L2)
        fprintf(fl, " + edge_bytes_l2_%s", end_name(y)), *has_l2 = 1;
      *has_smem |= r;
    }
  fprintf(f, ", smem_bytes_per_clk)");
  char *sum = tf_text_close(&l2, NULL);
  int rc = *has_l2 ? l2_let(w, sum, err) : 0;
  free(sum);
  if (!*has_smem || rc)
    return free(tf_text_close(&t, NULL)), rc;
  return add(w, "cycles(smem)", &t, "$.roofline", err);
}

/* The MMA's rate at an operand width: what the machine's throughput table
 * gives for 4, 8 and 16 bits (a wider operand, tf32, at half the 16-bit
 * rate; a width the machine lacks at the next wider one); an mma.sync
 * entry at the machine's mma_sync_permille of it, and one that accumulates
 * in more than 16 bits at its mma_f32acc_permille (the GeForce parts'
 * half rate). */
static void mma_rate(FILE *f, const char *bits, int sync, const char *acc) {
  if (acc)
    fprintf(f, "cdiv(");
  if (sync)
    fprintf(f, "cdiv(");
  fprintf(f,
          "if((%s) <= 4 && mma_f4_per_clk > 0, mma_f4_per_clk, if((%s) <= 8 && mma_f8_per_clk > 0, mma_f8_per_clk, "
          "if((%s) <= 16, mma_f16_per_clk, mma_f16_per_clk / 2)))",
          bits, bits, bits);
  if (sync)
    fprintf(f, " * mma_sync_permille, 1000)");
  if (acc)
    fprintf(f, " * if((%s) > 16, mma_f32acc_permille, 1000), 1000)", acc);
}

/* mma_ops_I, mma_rate_I per MMA entry and cycles(mma) over them;
 * exp_ops and cycles(exp). */
static int mma_lets(tf_workset *w, const struct decl *d, tf_error *err) {
  tf_text c;
  FILE *fc = tf_text_open(&c);
  for (size_t i = 0; i < d->nmma; i++) {
    char ops[32], rate[32];
    snprintf(ops, sizeof ops, "mma_ops_%zu", i);
    snprintf(rate, sizeof rate, "mma_rate_%zu", i);
    tf_text o, r;
    times_iterations(tf_text_open(&o), d, d->mma_ops[i]);
    mma_rate(tf_text_open(&r), d->mma_bits[i], d->mma_sync[i], d->mma_acc[i]);
    w->roofline_sync |= (unsigned)d->mma_sync[i] << i;
    int bad = add(w, ops, &o, "$.roofline.mma", err);
    bad = add(w, rate, &r, "$.roofline.mma", err) || bad; /* each add closes its text */
    if (bad) {
      free(tf_text_close(&c, NULL));
      return -1;
    }
    fprintf(fc, "%scdiv(%s, %s)", i ? " + " : "", ops, rate);
  }
  return add(w, "cycles(mma)", &c, "$.roofline.mma", err);
}

static int compute_lets(tf_workset *w, const struct decl *d, tf_error *err) {
  if (d->nmma && mma_lets(w, d, err))
    return -1;
  if (d->exp) {
    tf_text t, c;
    times_iterations(tf_text_open(&t), d, d->exp);
    fprintf(tf_text_open(&c), "cdiv(exp_ops, exp_per_clk)");
    int bad = add(w, "exp_ops", &t, "$.roofline.exp", err);
    if (add(w, "cycles(exp)", &c, "$.roofline.exp", err) || bad)
      return -1;
  }
  if (d->alu) {
    tf_text t, c;
    times_iterations(tf_text_open(&t), d, d->alu);
    fprintf(tf_text_open(&c), "if(fp32_per_clk > 0, cdiv(alu_ops, max(1, fp32_per_clk)), 0)");
    int bad = add(w, "alu_ops", &t, "$.roofline.alu", err);
    if (add(w, "cycles(alu)", &c, "$.roofline.alu", err) || bad)
      return -1;
  }
  return 0;
}

/* "max(cycles(A), cycles(B))" over the present terms that `pick` keeps
 * (1: overlapped ones, 2: every one), "cycles(A)" for one, "0" for none. */
static void term_max(FILE *f, const struct decl *d, const int *present, int pick) {
  int n = 0;
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    n += present[i] && (pick == 2 || !d->serial[i]);
  fprintf(f, n > 1 ? "max(" : n ? "" : "0");
  for (int i = 0, k = 0; i < TF_ROOFLINE_NTERMS; i++)
    if (present[i] && (pick == 2 || !d->serial[i]))
      fprintf(f, "%scycles(%s)", k++ ? ", " : "", tf_roofline_terms[i]);
  fprintf(f, n > 1 ? ")" : "");
}

/* With a serial term or an overhead: overlap_cycles (the overlapped
 * terms' max), serial_cycles (each serial term's exposed share, summed),
 * overhead_cycles (iterations x the overhead), and cycles their sum. */
static int schedule_lets(tf_workset *w, const struct decl *d, const int *present, tf_error *err) {
  tf_text o, s, h, c;
  term_max(tf_text_open(&o), d, present, 1);
  FILE *fs = tf_text_open(&s);
  fprintf(fs, "0");
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    if (present[i] && d->serial[i]) {
      fprintf(fs, " + cdiv(cycles(%s) * (%s), 1000)", tf_roofline_terms[i], d->serial[i]);
      w->roofline_serial |= 1u << i;
    }
  times_iterations(tf_text_open(&h), d, d->overhead ? d->overhead : "0");
  fprintf(tf_text_open(&c), "overlap_cycles + serial_cycles + overhead_cycles");
  int bad = add(w, "overlap_cycles", &o, "$.roofline", err);
  bad = add(w, "serial_cycles", &s, "$.roofline.serial", err) || bad; /* each add closes its text */
  bad = add(w, "overhead_cycles", &h, "$.roofline.overhead", err) || bad;
  return add(w, max_names[0], &c, "$.roofline", err) || bad ? -1 : 0;
}

/* cycles, bound_by and bound_by(TERM) over the terms present: cycles the
 * largest term, or with a schedule (schedule_lets) the overlapped terms'
 * max plus the rest; bound_by the largest term either way. */
static int max_lets(tf_workset *w, const struct decl *d, const int *present, tf_error *err) {
  int scheduled = d->overhead != NULL, n = 0, last = 0;
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    scheduled |= present[i] && d->serial[i];
  tf_text c, b;
  term_max(tf_text_open(&c), d, present, 2);
  char *largest = tf_text_close(&c, NULL);
  FILE *fb = tf_text_open(&b);
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    if (present[i])
      fprintf(fb, "if(cycles(%s) == %s, %d, ", tf_roofline_terms[i], scheduled ? largest : "cycles", i + 1), n++,
          last = i;
  fprintf(fb, "%d", last + 1);
  for (int i = 0; i < n; i++)
    fputc(')', fb);
  int bad;
  if (scheduled)
    bad = schedule_lets(w, d, present, err);
  else {
    tf_text m;
    fprintf(tf_text_open(&m), "%s", largest);
    bad = add(w, max_names[0], &m, "$.roofline", err);
  }
  free(largest);
  if (add(w, max_names[1], &b, "$.roofline", err) || bad)
    return -1;
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    if (present[i]) {
      char name[40];
      tf_text t;
      fprintf(tf_text_open(&t), "bound_by == %d", i + 1);
      snprintf(name, sizeof name, "bound_by(%s)", tf_roofline_terms[i]);
      if (add(w, name, &t, "$.roofline", err))
        return -1;
    }
  return 0;
}

static int write_lets(tf_workset *w, const struct decl *d, tf_error *err) {
  int present[TF_ROOFLINE_NTERMS] = {d->nmma > 0, d->exp != NULL, 0, 0, d->alu != NULL};
  if (flow_lets(w, d, err) || port_lets(w, &present[2], &present[3], err) || compute_lets(w, d, err))
    return -1;
  if (!present[0] && !present[1] && !present[2])
    return tf_error_set(err, TF_EINPUT, "$.roofline", "declares no MMA, no exponentials and no traffic");
  for (int i = 0; i < TF_ROOFLINE_NTERMS; i++)
    if (d->serial[i] && !present[i])
      return tf_error_set(err, TF_EINPUT, "$.roofline.serial", "term '%s' is serial but the workset has no such term",
                          tf_roofline_terms[i]);
  return max_lets(w, d, present, err);
}

int tf_roofline_read(tf_workset *w, const cJSON *root, tf_error *err) {
  struct decl d;
  memset(&d, 0, sizeof d);
  const cJSON *r = tf_json_member(root, "roofline");
  int rc = (r && read_compute(&d, r, err)) || read_traffic(w, &d, tf_json_member(root, "buffers"), err) ? -1 : 0;
  if (!rc && (r || w->nflows)) {
    w->roofline = 1;
    rc = write_lets(w, &d, err);
  }
  decl_release(&d, w->nflows);
  return rc;
}

/* Edge X->Y on the SMEM port of this machine: its `edges` entry says
 * "port": "smem"; an X->mma the table lacks is read through registers
 * (X->rf: mma.sync loads SMEM operands with ldmatrix). */
int tf_roofline_smem_port(const tf_datapath *dp, int from, int to) {
  char name[32];
  snprintf(name, sizeof name, "%s->%s", end_name(from), end_name(to));
  const tf_edge *e = tf_datapath_edge(dp, name);
  if (!e && to == TF_END_MMA && from != TF_MEM_RF) {
    snprintf(name, sizeof name, "%s->rf", end_name(from));
    e = tf_datapath_edge(dp, name);
  }
  return e && e->kind == TF_EDGE_PORT;
}
