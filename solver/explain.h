/* --explain: for each lexicographic level of an optimum, the next-better
 * candidate (the smallest improvement of that level that keeps the earlier
 * levels) and the constraint it misses, by how much. */
#ifndef TF_SOLVER_EXPLAIN_H
#define TF_SOLVER_EXPLAIN_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/memory.h"
#include "model/bind/problem.h"
#include "model/input/datapath.h"

#define TF_EXPLAIN_MAX_CANDIDATES 200000 /* larger candidate spaces are not searched */

/* The next-better candidate of one level: the variables where it differs
 * from the answer, the level's value there and the first constraint it
 * violates.  found is 0 when no candidate in the domains does better. */
typedef struct tf_explain_level {
  int found;
  int64_t choose[TF_MAX_CHOOSE];
  int64_t counts[TF_MAX_COUNTS];
  int64_t value;
  tf_violation miss; /* the constraint it violates; miss.text the sentence */
} tf_explain_level;

/* Level `level` (0-based) of an optimal answer. */
void tf_explain_search(const tf_problem *p, const tf_answer *a, size_t level, tf_explain_level *out);

/* ------------------------------------------------ the whole explanation */

/* Why another memory of a placed buffer's place list loses. */
enum tf_alt_verdict {
  TF_ALT_NOT_CANDIDATE, /* the machine's mma table or a pin rules it out */
  TF_ALT_NO_FIT,        /* the answer with the buffer there does not fit (why) */
  TF_ALT_WORSE,         /* it fits and is worse at objective level `level` */
  TF_ALT_TIE            /* as good at every level: the place list's order decides */
};

typedef struct tf_explain_alt {
  int memory, verdict;
  tf_violation miss; /* TF_ALT_NO_FIT: at the answer's counts (text: the sentence) */
  size_t level;      /* TF_ALT_WORSE: the first level that differs, 0-based */
  int64_t value;     /* TF_ALT_WORSE: that level's value there */
  int fewer_counts;  /* TF_ALT_WORSE: at fewer counts than the answer's */
} tf_explain_alt;

/* One term of the roofline (the terms the workset's `cycles` let takes the
 * max of, then `cycles` itself): at the answer and with the buffer in the
 * other memory, counts unchanged; ok when both evaluate. */
#define TF_EXPLAIN_ROOFLINE "cycles"
#define TF_EXPLAIN_MAX_TERMS 8
typedef struct tf_explain_term {
  const char *name; /* the let's (borrowed from the workset) */
  int ok;
  int64_t value, moved;
} tf_explain_term;

enum tf_place_how { TF_PLACE_CHOSEN, TF_PLACE_PINNED, TF_PLACE_MMA_TABLE };

/* A placed buffer: where it is and why, what that memory pays, why each
 * other memory of its place list loses, and the roofline either way. */
typedef struct tf_explain_place {
  size_t var, buffer;
  int memory, how;        /* enum tf_place_how */
  int64_t charged;        /* its allocation (inside its alias: the excess) */
  int inside;             /* the alias it lies inside, or -1 */
  int64_t used, capacity; /* the memory's, at the answer */
  tf_explain_alt alts[TF_NMEM];
  int nalts;
  int other;                                   /* the memory of the roofline comparison, or -1 */
  tf_explain_term terms[TF_EXPLAIN_MAX_TERMS]; /* the last is the roofline itself */
  size_t nterms;                               /* 0: no roofline line */
  int scheduled;                               /* 1: the last term is overlap + serial + overhead, not the max */
} tf_explain_place;

/* Why a count is not one larger: the next value and what it violates
 * (miss.kind TF_MISS_NONE: it also fits, and the objective prefers the
 * answer's value); at_bound when the count is at its upper bound.  text
 * is the sentence: "stages = 5: smem needs 279632 B of 232448, 47184 over". */
typedef struct tf_explain_binding {
  int at_bound;
  int64_t candidate;
  tf_violation miss;
  char text[400];
} tf_explain_binding;

/* What --explain says, computed once and rendered by every writer:
 * why each count is not one larger, each level's next-better candidate,
 * and per placed buffer the placement's reasons; the machine's unmetered
 * datapath edges, by index into its edge table (none when nothing is
 * placed). */
typedef struct tf_explanation {
  tf_explain_binding *binding; /* per count */
  tf_explain_level *levels;    /* per shown objective */
  size_t nlevels;
  tf_explain_place *places; /* per placement variable */
  size_t nplaces;
  int unmetered[TF_MAX_EDGES];
  int nunmetered;
} tf_explanation;

void tf_explain(const tf_problem *p, const tf_answer *a, tf_explanation *x);
void tf_explanation_release(tf_explanation *x);

/* explain_place.c: the placement part of tf_explain. */
void tf_explain_places(const tf_problem *p, const tf_answer *a, tf_explanation *x);

/* Why variable `name` of an answer cannot take its next larger value (the
 * next value of its domain, or one more for a count), other variables as
 * in the answer: "B_c = 208: smem needs 237568 B of 232448, 5120 over".
 * Returns -1 when the variable is unknown or already at its largest. */
int tf_explain_next_value(const tf_problem *p, const tf_answer *a, const char *name, char *buf, size_t size);

/* The same as data: -1 unknown variable or at its largest (b->at_bound). */
int tf_explain_next(const tf_problem *p, const tf_answer *a, const char *name, tf_explain_binding *b);

#endif
