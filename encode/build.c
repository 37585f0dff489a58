#include "build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"

static int exact(int64_t v, const char *what, tf_error *err) {
  if (v > TF_JSON_EXACT || v < -TF_JSON_EXACT)
    return tf_error_set(err, TF_EINPUT, NULL,
                        "%s has a coefficient %lld beyond 2^53, which the solver cannot represent exactly", what,
                        (long long)v);
  return 0;
}

/* "pick(B_r_128,B_c_64)": a column's name, for GLPK (built for every
 * column, so without snprintf); "lo_" + a column's name for its rows. */
static void prefixed(char *buf, size_t size, const char *prefix, const char *name) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  tf_strbuf_put(&b, prefix);
  tf_strbuf_put(&b, name);
}

static void combo_name(const tf_problem *p, size_t c, const char *prefix, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  tf_strbuf_put(&b, prefix);
  tf_strbuf_put(&b, "(");
  for (size_t i = 0; i < p->nchoose; i++) {
    tf_strbuf_put(&b, i ? "," : "");
    tf_strbuf_put(&b, p->choose_names[i]);
    tf_strbuf_put(&b, "_");
    char v[24];
    tf_strbuf_put(&b, tf_problem_value_text(p, i, p->combo[c * p->nchoose + i], v)); /* a placement's memory by name */
  }
  tf_strbuf_put(&b, ")");
}

/* An upper bound on count k at combination c that every feasible point
 * meets: in a memory where k's coefficient is positive and no coefficient
 * is negative, count k can grow only until the sizes fill the memory
 * (the k-dependent ones unrounded: rounding only adds).  A tight bound makes the LP relaxation, and
 * so the branch and bound, smaller. */
static int64_t tight_hi(const tf_problem *p, size_t c, int k) {
  int64_t hi = p->count_hi[k];
  size_t *in = tf_nalloc(p->nbuffers + 1, sizeof *in);
  for (int mr = 0; mr < TF_NMEM * tf_memory_nrows(p); mr++) {
    int mem = mr / tf_memory_nrows(p), r = mr % tf_memory_nrows(p); /* each row of each memory */
    size_t n = tf_memory_buffers(p, mem, c, in);
    int usable = n > 0;
    for (size_t i = 0; i < n && usable; i++)
      for (int j = 0; j < p->ncounts && usable; j++)
        usable = tf_problem_buf(p, c, in[i])[1 + j] >= 0;
    int64_t fixed, coef, room;
    if (!usable || tf_memory_line(p, c, mem, r, p->count_lo, k, &fixed, &coef) || coef <= 0)
      continue;
    if (fixed == INT64_MIN || tf_checked_add(tf_memory_capacity(p, mem, c), -fixed, &room))
      continue; /* no bound from this memory */
    int64_t bound = tf_fdiv(room, coef);
    if (bound < hi)
      hi = bound;
  }
  free(in);
  return hi < p->count_lo[k] ? p->count_lo[k] : hi;
}

/* Is buffer b charged to memory `mem` at some combination? */
static int charged_to(const tf_problem *p, size_t b, int mem) {
  for (size_t c = 0; c < p->ncombos; c++)
    if (tf_memory_of(p, b, c) == mem)
      return 1;
  return 0;
}

/* units(b) for a rounded count-dependent buffer, one per memory it may be
 * in: a placed buffer's granules in SMEM are not charged to the register
 * file at the combinations that put it there (one column for both had
 * charged them to both).  "units(B)" when the buffer has one memory,
 * "units(B,MEM)" when placement gives it several. */
static void add_units_col(tf_model *m, const tf_problem *p, size_t b, int mem) {
  m->units_col[b * TF_NMEM + (size_t)mem] = TF_NO_COL;
  if (tf_memory_align(p, b) <= 1 || !p->count_dependent[b] || !charged_to(p, b, mem))
    return;
  int nmem = 0;
  for (int k = 0; k < TF_NMEM; k++)
    nmem += charged_to(p, b, k);
  char name[256];
  if (nmem > 1)
    snprintf(name, sizeof name, "units(%s,%s)", p->workset->buffers[b].name, tf_memory_name(mem));
  else
    snprintf(name, sizeof name, "units(%s)", p->workset->buffers[b].name);
  /* at a point that fits, every charge is >= 0, so one buffer's is at most
   * its memory's capacity (the machine's, before occupancy, is the most at
   * any combination): a tight bound, where 1e15 made GLPK's search explode */
  double top = (double)(tf_memory_capacity_max(p, mem) / tf_memory_align(p, b));
  m->units_col[b * TF_NMEM + (size_t)mem] = tf_ilp_add_col(&m->ilp, name, TF_COL_INT, 0, top);
}

static void add_columns(tf_model *m, const tf_problem *p) {
  char name[256];
  for (size_t c = 0; c < p->ncombos; c++) {
    combo_name(p, c, "pick", name, sizeof name);
    m->pick[c] = tf_ilp_add_col(&m->ilp, name, TF_COL_BIN, 0, 1);
  }
  for (size_t c = 0; c < p->ncombos; c++)
    for (int k = 0; k < p->ncounts; k++) {
      combo_name(p, c, p->count_names[k], name, sizeof name);
      int64_t top = tight_hi(p, c, k);
      double lo = (double)(p->count_lo[k] < 0 ? p->count_lo[k] : 0);
      double hi = (double)(top > 0 ? top : 0);
      m->count_col[c * (size_t)p->ncounts + (size_t)k] = tf_ilp_add_col(&m->ilp, name, TF_COL_INT, lo, hi);
      m->count_top[c * (size_t)p->ncounts + (size_t)k] = top;
    }
  for (size_t b = 0; b < p->nbuffers; b++)
    for (int mem = 0; mem < TF_NMEM; mem++)
      add_units_col(m, p, b, mem);
}

/* Links each count column to its combination's pick column. */
static void add_count_links(tf_model *m, const tf_problem *p) {
  char name[256];
  for (size_t c = 0; c < p->ncombos; c++)
    for (int k = 0; k < p->ncounts; k++) {
      size_t s = m->count_col[c * (size_t)p->ncounts + (size_t)k];
      if (p->count_lo[k] == p->count_hi[k]) {
        prefixed(name, sizeof name, "fix_", m->ilp.cols[s].name);
        size_t r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_EQ, 0);
        tf_lin_add(&m->ilp.rows[r].lin, s, 1);
        tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -(double)p->count_lo[k]);
        continue;
      }
      prefixed(name, sizeof name, "lo_", m->ilp.cols[s].name);
      size_t r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_GE, 0);
      tf_lin_add(&m->ilp.rows[r].lin, s, 1);
      tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -(double)p->count_lo[k]);
      prefixed(name, sizeof name, "hi_", m->ilp.cols[s].name);
      r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_LE, 0);
      tf_lin_add(&m->ilp.rows[r].lin, s, 1);
      tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -(double)m->count_top[c * (size_t)p->ncounts + (size_t)k]);
    }
}

/* One affine form per combination, to be added to a row or objective:
 * sum_c (a0_c pick[c] + sum_k ak_c count[k][c]) * sign, over the kept
 * combinations (only those where buffer `which` is charged to `mem`, when
 * mem >= 0), the count-free part charged as the memory module rounds it
 * when `charge` is set. */
struct term {
  const int64_t *(*form)(const tf_problem *, size_t, size_t);
  size_t which;
  double sign;
  int mem;
  int charge;
  const char *what;
};

static int add_term(tf_model *m, const tf_problem *p, tf_lin *lin, const struct term *t, tf_error *err) {
  for (size_t c = 0; c < p->ncombos; c++) {
    if (t->mem >= 0 && tf_memory_of(p, t->which, c) != t->mem)
      continue;
    const int64_t *a = t->form(p, c, t->which);
    int64_t a0 = a[0];
    if (exact(a0, t->what, err))
      return -1;
    if (t->charge && (tf_memory_charge(p, t->which, a0, &a0) || exact(a0, t->what, err)))
      return tf_error_set(
          err, TF_EINPUT, NULL,
          "%s rounded up to a multiple of %lld is beyond 2^53, which the solver cannot represent exactly", t->what,
          (long long)tf_memory_align(p, t->which));
    tf_lin_add(lin, m->pick[c], t->sign * (double)a0);
    for (int k = 0; k < p->ncounts; k++) {
      if (exact(a[1 + k], t->what, err))
        return -1;
      tf_lin_add(lin, m->count_col[c * (size_t)p->ncounts + (size_t)k], t->sign * (double)a[1 + k]);
    }
  }
  return 0;
}

/* capacity(MEM): the memory's rounded total <= its capacity; with
 * lifetimes, capacity(MEM,PHASE) for each row of the memory (model/bind/memory.h:
 * the use is the largest row, so each row <= capacity is the max's).  When
 * the capacity depends on the combination (SMEM under an occupancy), it
 * moves to the left: total - sum_c limit(c) pick(c) <= 0. */
static size_t add_capacity_row(tf_model *m, const tf_problem *p, int mem, int row) {
  char name[160];
  const char *phase = tf_memory_row_name(p, row);
  snprintf(name, sizeof name, "capacity(%s%s%s)", tf_memory_name(mem), phase ? "," : "", phase ? phase : "");
  if (!tf_memory_capacity_varies(p, mem))
    return tf_ilp_add_row(&m->ilp, name, TF_SENSE_LE, (double)tf_memory_capacity_max(p, mem));
  size_t r = tf_ilp_add_row(&m->ilp, name, TF_SENSE_LE, 0);
  for (size_t c = 0; c < p->ncombos; c++)
    tf_lin_add(&m->ilp.rows[r].lin, m->pick[c], -(double)tf_memory_capacity(p, mem, c));
  return r;
}

/* Buffer b's part of capacity row r.  A rounded count-dependent buffer
 * counts align * units(b, mem), with align * units >= its size at the
 * combinations that put it in mem (that row added once, with `round`). */
static int add_buffer_charge(tf_model *m, const tf_problem *p, size_t b, int mem, size_t r, int round, tf_error *err) {
  const char *bname = p->workset->buffers[b].name;
  char what[160], name[256];
  snprintf(what, sizeof what, "buffer '%s'", bname);
  double align = (double)tf_memory_align(p, b);
  size_t units = m->units_col[b * TF_NMEM + (size_t)mem];
  if (units == TF_NO_COL) {
    struct term t = {tf_problem_buf, b, 1, mem, 1, what};
    return add_term(m, p, &m->ilp.rows[r].lin, &t, err);
  }
  if (round) {
    prefixed(name, sizeof name, "round", m->ilp.cols[units].name + strlen("units")); /* round(B) or round(B,MEM) */
    size_t g = tf_ilp_add_row(&m->ilp, name, TF_SENSE_GE, 0);
    tf_lin_add(&m->ilp.rows[g].lin, units, align);
    struct term t = {tf_problem_buf, b, -1, mem, 0, what};
    if (add_term(m, p, &m->ilp.rows[g].lin, &t, err))
      return -1;
  }
  tf_lin_add(&m->ilp.rows[r].lin, units, align);
  return 0;
}

/* One capacity row per needed row of each memory (tf_memory_row_needed),
 * each charging the buffers the row holds; an always-live buffer is in
 * every row of its memory, its round row added with the first. */
static int add_capacity_rows(tf_model *m, const tf_problem *p, tf_error *err) {
  for (int mem = 0; mem < TF_NMEM; mem++) {
    int rounded = 0;
    for (int row = 0; row < tf_memory_nrows(p); row++) {
      if (!tf_memory_row_needed(p, mem, row))
        continue;
      size_t r = TF_NO_COL;
      for (size_t b = 0; b < p->nbuffers; b++) {
        if (!charged_to(p, b, mem) || !tf_memory_in_row(p, b, row))
          continue;
        if (r == TF_NO_COL)
          r = add_capacity_row(m, p, mem, row);
        int round = !rounded || p->workset->buffers[b].lifetime >= 0;
        if (add_buffer_charge(m, p, b, mem, r, round, err))
          return tf_error_set_path(err, p->workset->buffers[b].path), -1;
      }
      rounded |= r != TF_NO_COL;
    }
  }
  return 0;
}

static int add_require_rows(tf_model *m, const tf_problem *p, tf_error *err) {
  static const int sense[] = {[TF_ROW_LE] = TF_SENSE_LE, [TF_ROW_GE] = TF_SENSE_GE, [TF_ROW_EQ] = TF_SENSE_EQ};
  char name[64];
  for (size_t i = 0; i < p->nrequire; i++) {
    snprintf(name, sizeof name, "require%zu", i + 1);
    size_t r = tf_ilp_add_row(&m->ilp, name, sense[p->row_kind[i]], 0);
    struct term t = {tf_problem_row, i, 1, -1, 0, tf_expr_text(p->require[i])};
    if (add_term(m, p, &m->ilp.rows[r].lin, &t, err))
      return tf_error_set_path(err, p->require_where[i]), -1;
    if (m->ilp.rows[r].lin.n == 0) { /* satisfied by every kept combination */
      free(m->ilp.rows[r].name);
      m->ilp.nrows--;
    }
  }
  return 0;
}

static int add_objectives(tf_model *m, const tf_problem *p, tf_error *err) {
  for (size_t o = 0; o < p->nobjective; o++) {
    size_t j = tf_ilp_add_obj(&m->ilp, p->objective[o].text, p->objective[o].maximize);
    struct term t = {tf_problem_obj, o, 1, -1, 0, p->objective[o].text};
    if (add_term(m, p, &m->ilp.objs[j].lin, &t, err))
      return -1;
  }
  return 0;
}

int tf_model_build(tf_model *m, const tf_problem *p, tf_error *err) {
  memset(m, 0, sizeof *m);
  tf_ilp_init(&m->ilp);
  m->ncombos = p->ncombos;
  m->ncounts = p->ncounts;
  m->pick = tf_nalloc(p->ncombos + 1, sizeof *m->pick);
  m->count_col = tf_nalloc(p->ncombos * (size_t)p->ncounts + 1, sizeof *m->count_col);
  for (size_t c = 0; c < p->ncombos; c++)
    m->pick[c] = TF_NO_COL;
  for (size_t c = 0; c < p->ncombos * (size_t)p->ncounts; c++)
    m->count_col[c] = TF_NO_COL;
  m->count_top = tf_nalloc(p->ncombos * (size_t)p->ncounts + 1, sizeof *m->count_top);
  m->units_col = tf_nalloc(p->nbuffers * TF_NMEM + 1, sizeof *m->units_col);
  add_columns(m, p);
  size_t one = tf_ilp_add_row(&m->ilp, "one_combination", TF_SENSE_EQ, 1);
  for (size_t c = 0; c < p->ncombos; c++)
    tf_lin_add(&m->ilp.rows[one].lin, m->pick[c], 1);
  add_count_links(m, p);
  if (add_capacity_rows(m, p, err) || add_require_rows(m, p, err) || add_objectives(m, p, err)) {
    tf_error_set_file(err, p->workset->file);
    tf_model_release(m);
    return -1;
  }
  tf_ilp_compact(&m->ilp);
  tf_ilp_fit_names(&m->ilp);
  return 0;
}

void tf_model_add_search_order(tf_model *m, const tf_problem *p) {
  size_t j = tf_ilp_add_obj(&m->ilp, "min combination", 0);
  for (size_t c = 0; c < p->ncombos; c++)
    tf_lin_add(&m->ilp.objs[j].lin, m->pick[c], (double)c);
  for (int k = 0; k < p->ncounts; k++) {
    j = tf_ilp_add_obj(&m->ilp, p->count_names[k], 0);
    for (size_t c = 0; c < p->ncombos; c++)
      tf_lin_add(&m->ilp.objs[j].lin, m->count_col[c * (size_t)p->ncounts + (size_t)k], 1);
  }
}

void tf_model_release(tf_model *m) {
  tf_ilp_release(&m->ilp);
  free(m->pick);
  free(m->count_col);
  free(m->count_top);
  free(m->units_col);
  memset(m, 0, sizeof *m);
}
