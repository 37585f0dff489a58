/* --explain for placed buffers (../shared/reference/placement.md §8): per
 * placed buffer the chosen memory, and for each other memory of its place
 * list the first reason it loses -- not a candidate here, does not fit,
 * or worse at an objective level -- then the edges the machine leaves
 * unmetered.  Per placed buffer also what the chosen memory pays and the
 * roofline terms with the buffer in its other memory. */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "model/text.h"
#include "model/value.h"
#include "model/workset.h"

/* The answer's placement with variable v moved to memory m, at the
 * answer's counts or, when those do not fit there, the most of the one
 * count that does.  1 fits (pt holds it), 0 not (why), -1 no evaluation. */
static int moved(const tf_problem *p, const tf_answer *a, size_t v, int m, tf_point *pt, char *why, size_t size) {
  int64_t choose[TF_MAX_CHOOSE], counts[TF_MAX_COUNTS];
  memcpy(choose, a->choose, sizeof choose);
  memcpy(counts, a->counts, sizeof counts);
  choose[v] = m;
  tf_error e;
  tf_error_init(&e);
  for (;;) {
    if (tf_problem_eval_point(p, choose, counts, pt, &e))
      return snprintf(why, size, "%s", e.msg), -1;
    char w[256];
    if (tf_point_fits(p, pt, w, sizeof w))
      return 1;
    if (counts[0] == a->counts[0])
      snprintf(why, size, "%s", w); /* the reason at the answer's counts */
    if (p->ncounts != 1 || counts[0] <= p->count_lo[0])
      return 0;
    counts[0]--;
  }
}

static void alternative(FILE *f, const tf_problem *p, const tf_answer *a, size_t v, int m, tf_point *pt) {
  const char *buf = p->choose_names[v], *mem = tf_memory_name(m);
  int candidate = 0;
  for (size_t k = 0; k < p->ndomain[v]; k++)
    candidate |= p->domain[v][k] == m;
  if (!candidate) {
    fprintf(f, "  %-6s   not a candidate: the machine's mma table or a --place pin rules %s in %s out\n", mem, buf, mem);
    return;
  }
  char why[256] = "";
  int fits = moved(p, a, v, m, pt, why, sizeof why);
  if (fits <= 0) {
    fprintf(f, "  %-6s   %s in %s: %s\n", mem, buf, mem, why);
    return;
  }
  for (size_t o = 0; o < p->nobjective_shown; o++)
    if (pt->objective[o] != a->point.objective[o]) {
      fprintf(f, "  level %zu  %s = %lld; %s in %s: %lld%s\n", o + 1, p->objective[o].text,
              (long long)a->point.objective[o], buf, mem, (long long)pt->objective[o],
              p->ncounts == 1 && pt->counts[0] != a->counts[0] ? " (at fewer counts)" : "");
      return;
    }
  fprintf(f, "  tie      %s in %s is as good at every level; the place list's order decides\n", buf, mem);
}

/* What the chosen memory pays: "rf  P in rf: 44 registers/thread (235 of
 * 255)"; an aliased buffer in its alias's memory pays only what exceeds it. */
static void chosen_cost(FILE *f, const tf_problem *p, const tf_answer *a, int b, int m) {
  const tf_buffer *buf = &p->workset->buffers[b];
  int inside = buf->alias >= 0 && tf_memory_of(p, (size_t)buf->alias, a->combo) == m;
  fprintf(f, "  %-6s   %s in %s: %s%lld %s%s%s (%lld of %lld)\n", tf_memory_name(m), buf->name, tf_memory_name(m),
          inside ? "+" : "", (long long)a->point.alloc[b], tf_memory_unit(m), inside ? ", inside " : "",
          inside ? p->workset->buffers[buf->alias].name : "", (long long)a->point.used[m],
          (long long)tf_memory_capacity(p, m, a->combo));
}

/* The roofline per placement (placement.md §8's cycles line): the terms
 * the worksets name (tile_mma_cycles, tile_exp_cycles, tile_smem_cycles)
 * and their max `cycles`, at the answer and with buffer v in memory m,
 * counts unchanged (a term is evaluated whether or not that point fits). */
static const char *const cycle_terms[] = {"tile_mma_cycles", "tile_exp_cycles", "tile_smem_cycles", "cycles"};
#define NTERMS (sizeof cycle_terms / sizeof *cycle_terms)

static int term_values(const tf_problem *p, const int64_t *choose, const int64_t *counts, int64_t *out, int *has) {
  for (size_t t = 0; t < NTERMS; t++) {
    char text[64];
    tf_objective o;
    tf_error e;
    tf_error_init(&e);
    memset(&o, 0, sizeof o);
    snprintf(text, sizeof text, "max %s", cycle_terms[t]);
    has[t] = !tf_workset_parse_objective(p->workset, text, "--explain", &o, &e) &&
             !tf_problem_value(p, choose, counts, o.expr, &out[t], &e);
    tf_objective_release(&o);
  }
  return has[NTERMS - 1];
}

static void cycles_line(FILE *f, const tf_problem *p, const tf_answer *a, size_t v, int m) {
  int64_t now[NTERMS], alt[NTERMS], choose[TF_MAX_CHOOSE];
  int has[NTERMS], has_alt[NTERMS];
  memcpy(choose, a->choose, sizeof choose);
  choose[v] = m;
  if (!term_values(p, a->choose, a->counts, now, has) || !term_values(p, choose, a->counts, alt, has_alt))
    return;
  fprintf(f, "  cycles  ");
  for (size_t t = 0; t + 1 < NTERMS; t++)
    if (has[t] && has_alt[t]) {
      fprintf(f, " %s %lld", cycle_terms[t] + 5, (long long)now[t]);
      if (alt[t] != now[t])
        fprintf(f, " (%s in %s: %lld)", p->choose_names[v], tf_memory_name(m), (long long)alt[t]);
      fputc(',', f);
    }
  if (alt[NTERMS - 1] == now[NTERMS - 1])
    fprintf(f, " max %lld either way\n", (long long)now[NTERMS - 1]);
  else
    fprintf(f, " max %lld (%s in %s: %lld)\n", (long long)now[NTERMS - 1], p->choose_names[v], tf_memory_name(m),
            (long long)alt[NTERMS - 1]);
}

static void unmetered(FILE *f, const tf_problem *p) {
  const tf_datapath *dp = &p->machine->datapath;
  char list[256];
  tf_strbuf b = tf_strbuf_of(list, sizeof list);
  for (int i = 0; i < dp->nedges; i++)
    if (dp->edges[i].kind == TF_EDGE_UNMETERED)
      tf_strbuf_item(&b, ", ", "%s", dp->edges[i].name);
  if (b.len)
    fprintf(f, "edges       unmetered on %s (no term in cycles): %s\n", p->machine->name, list);
}

void tf_explain_placement(FILE *f, const tf_problem *p, const tf_answer *a) {
  if (p->place_first == p->nchoose)
    return;
  tf_point pt;
  tf_point_init(&pt, p);
  for (size_t v = p->place_first; v < p->nchoose; v++) {
    int b = -1;
    for (size_t i = 0; i < p->nbuffers && b < 0; i++)
      if (p->place_var[i] == (int)v)
        b = (int)i;
    const tf_buffer *buf = &p->workset->buffers[b];
    fprintf(f, "placement   %s in %s%s\n", buf->name, tf_memory_name((int)a->choose[v]),
            buf->from_table ? " (the only memory its MMA can use)" : p->ndomain[v] == 1 ? " (pinned)" : "");
    chosen_cost(f, p, a, b, (int)a->choose[v]);
    int other = -1;
    for (int k = 0; k < buf->nplace; k++)
      if (buf->place[k] != (int)a->choose[v] && !buf->from_table) {
        alternative(f, p, a, v, buf->place[k], &pt);
        other = other < 0 ? buf->place[k] : other;
      }
    if (other >= 0)
      cycles_line(f, p, a, v, other);
  }
  tf_point_release(&pt);
  unmetered(f, p);
}
