/* A bound problem: machine + workset + the user's request (param values,
 * fixes, narrowed domains, extra constraints, objectives), with every
 * combination of choose variables enumerated and filtered.
 *
 * For each surviving combination c the problem stores, as affine forms in
 * the count variables (stride 1 + ncounts: constant, then coefficients):
 *   - every buffer's unaligned size,
 *   - every constraint row, normalised to  form {<=, >=, ==} 0,
 *   - every objective.
 * encode/ builds the ILP and the oracle from these; verify re-evaluates the
 * workset's expressions at a concrete point (tf_problem_eval_point), a path
 * independent of the stored forms. */
#ifndef TF_MODEL_PROBLEM_H
#define TF_MODEL_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "model/bind/forms.h"
#include "model/core/error.h"
#include "model/expr/expr.h"
#include "model/input/machine.h"
#include "model/input/request.h"
#include "model/input/workset.h"

#define TF_MAX_COMBINATIONS 1000000 /* choose combinations a problem bound whole may have */
#define TF_ON_DEMAND_FROM 4096      /* combinations from which a solve binds on demand (tf_problem_new_on_demand) */
#define TF_MAX_STORED (1 << 27)     /* int64 coefficients a problem stores (1 GiB) */

/* ---------------------------------------------------------------- problem */

enum tf_row_kind { TF_ROW_LE, TF_ROW_GE, TF_ROW_EQ };

typedef struct tf_problem {
  const tf_machine *machine; /* borrowed: must outlive the problem */
  const tf_workset *workset; /* borrowed */

  int64_t capacity[TF_NMEM];    /* the machine's, before occupancy: ask tf_memory_capacity */
  int64_t *param_values;        /* bound value of every workset param */
  int uses_derived[TF_NMEM];    /* used(MEM) / slack(MEM) appear in a row or objective */
  char *derived_where[TF_NMEM]; /* the first that does, for errors (owned) */

  size_t nchoose; /* the workset's, plus "occupancy" when used */
  const char *choose_names[TF_MAX_CHOOSE];
  int choose_sym[TF_MAX_CHOOSE];
  int occupancy;    /* index of the occupancy variable, or -1 */
  int64_t threads;  /* the workset's "threads" param, or 0 */
  int threads_sym;  /* or its "threads" let (a size per combination): its symbol, else -1 */
  int cta_regs_sym; /* its "cta_registers" let (what a CTA holds at launch), else -1 */
  /* Placement (model/bind/place_bind.c): each placed buffer is one more choose
   * variable, after the workset's and occupancy, whose values are memory
   * ids in preference order; choose_sym is -1 for them.  Outside
   * place_bind.c, read placements through its accessor (place_bind.h:
   * tf_place_nnumeric, tf_place_var, tf_place_of_buffer, ...), never these
   * two fields. */
  size_t place_first;                  /* the first placement variable (== nchoose: none) */
  int *place_var;                      /* per buffer: its placement variable, or -1 (fixed memory) */
  int placed_fixed_set;                /* placed() of the fixed-memory buffers is in syms (set once) */
  int64_t place_weight[TF_MAX_CHOOSE]; /* per placement variable, in placement_order */
  int64_t **domain;                    /* after --fix / --domain */
  size_t *ndomain;

  int ncounts;
  int64_t count_lo[TF_MAX_COUNTS], count_hi[TF_MAX_COUNTS];
  const char *count_names[TF_MAX_COUNTS];

  size_t nbuffers;
  int64_t *align;       /* per buffer, >= 1 */
  int *count_dependent; /* per buffer: size depends on a count in some combination */

  size_t nrequire;            /* workset requires, then the request's */
  tf_expr **require;          /* borrowed (workset) or owned (request) */
  const char **require_where; /* borrowed (workset) or owned copies (request) */
  int *require_owned;
  int *row_kind; /* enum tf_row_kind, per require */
  /* The requires whose rows may differ from the zero form: those
   * fix_constant_requires did not fix (a fixed one holds at every point
   * once binding goes on, and its row is zero_form).  The search and the
   * oracle read only these rows. */
  uint32_t *live_row;
  size_t nlive_row;
  uint32_t zero_form;
  unsigned char *require_fixed; /* per require: it reads only params, machine constants and fixed lets */
  int64_t *require_fixed_sides; /* 2 per require: such a one's sides, evaluated once when bound */

  size_t nobjective;
  tf_objective *objective; /* owned copies */
  size_t nobjective_shown; /* the first ones; a last "min placement_order" breaks placement ties */
  size_t nobjective_asked; /* the first ones again: the request's (or workset's) objectives, before
                                 * the workset's tie_break levels */

  size_t ncandidates; /* combinations before filtering */
  size_t nkept;       /* combinations kept, when kept_known */
  int kept_known;     /* bound whole, or counted (tf_problem_count_kept) */
  /* Binding on demand (tf_problem_new_on_demand): the exact search binds
   * single combinations as it reaches them (solver/search/space.c), so the
   * slots below hold those it bound and kept, not every kept one; rank is
   * each slot's index among the candidates in enumeration order, what the
   * search's ties are broken by (tf_problem_rank). */
  int on_demand;
  uint64_t *rank;               /* per slot, on demand; NULL when bound whole (rank = slot) */
  size_t slot_mark;             /* the forms' mark before the last slot was bound */
  size_t slot_cap;              /* slots the tables have room for */
  double started;               /* CLOCK_MONOTONIC seconds when binding began (the time limit's start) */
  struct tf_reuse *reuse;       /* binding's values carried between combinations, on demand */
  struct tf_box_scratch *box;   /* the bounds of a box of combinations (model/bind/box.c) */
  struct tf_space_stats {       /* what the search over boxes of combinations counted */
    uint64_t visited;           /* combinations bound one by one */
    uint64_t pruned_bound;      /* in boxes dropped because their bound could not win */
    uint64_t pruned_infeasible; /* in boxes no point of which fits */
    uint64_t boxes;             /* boxes bounded */
  } space;
  double time_limit_s; /* the request's, binding included; 0: none */
  double bind_seconds; /* what binding took of it */
  size_t ncombos;      /* combinations kept */
  int64_t *combo;      /* ncombos x nchoose */
  /* The kept combinations' forms (model/bind/forms.h): each distinct
   * form once in `forms`, and per combination an index into it. */
  tf_forms forms;
  uint32_t *buf_ix; /* ncombos x nbuffers */
  uint32_t *row_ix; /* ncombos x nrequire */
  uint32_t *obj_ix; /* ncombos x nobjective */
  int64_t *scratch; /* nbuffers x stride: the combination being bound's sizes */

  /* Why the smallest candidate was dropped, for an infeasible report. */
  char pruned_why[256];
  /* Why nothing can fit whatever the candidates: a memory the machine
   * lacks ("h100-sxm has no tensor memory; ..."), or "". */
  char hopeless[192];
  /* The require that fails at every point (it reads no choose variable or
   * count), -1 when none: then nothing is bound and hopeless says which. */
  long failed_require;
  int fixed_lets_ok; /* the lets the same at every point evaluated (they may not be then) */

  tf_affine *syms;                /* scratch symbol values */
  const int *let_order;           /* lets in dependency order (the workset's) */
  int *let_eval;                  /* the lets a point evaluates: those its buffers, */
  size_t nlet_eval;               /* requires and objectives reach, in that order */
  int *let_fixed;                 /* the reached lets that are the same at every */
  size_t nlet_fixed;              /* point, evaluated once when bound */
  int lets_valid;                 /* the let values in syms are those at lets_at */
  int64_t lets_at[TF_MAX_CHOOSE]; /* the choose values they were evaluated at */
  uint64_t choose_changed;        /* the workset's choose variables that differ from lets_at */
} tf_problem;

/* Binds and enumerates.  Returns a problem owned by the caller
 * (tf_problem_free); errors name the request field or workset path.  The
 * machine and workset must outlive the problem; the request need not: what
 * the problem keeps of it (constraints, objectives, where they came from)
 * it copies. */
/* The time the request's limit leaves the search after binding: 0 (none)
 * without a limit, else at least a millisecond. */
double tf_problem_time_left(const tf_problem *p, double limit_s);

/* tf_problem_new with --time-limit counted from the start of binding:
 * past it (checked every 1,024 combinations) TF_ESOLVER, exit 3.
 * tf_problem_new binds without a limit. */
tf_problem *tf_problem_new_timed(const tf_machine *m, const tf_workset *w, const tf_request *req, double time_limit_s,
                                 tf_error *err);

tf_problem *tf_problem_new(const tf_machine *m, const tf_workset *w, const tf_request *req, tf_error *err);
void tf_problem_free(tf_problem *p);

/* tf_problem_new_timed, but a problem of more than TF_ON_DEMAND_FROM
 * combinations is bound on demand: every combination-independent part
 * as always, and no combination until the exact search binds one
 * (tf_problem_bind_combo).  Only the exact search (tf_search) takes such
 * a problem; its kept count is unknown until tf_problem_count_kept. */
tf_problem *tf_problem_new_on_demand(const tf_machine *m, const tf_workset *w, const tf_request *req,
                                     double time_limit_s, tf_error *err);
/* The same past `from` candidates (0: always), what tests hold the
 * search over boxes to the exhaustive oracle with. */
tf_problem *tf_problem_new_on_demand_from(const tf_machine *m, const tf_workset *w, const tf_request *req,
                                          double time_limit_s, size_t from, tf_error *err);

/* On demand: binds the combination of domain indices idx into the next
 * slot: 1 kept there (*slot), 0 dropped as binding drops it, -1 error
 * (binding's own).  tf_problem_unbind_last drops the last slot again. */
int tf_problem_bind_combo(tf_problem *p, const uint32_t *idx, size_t *slot, tf_error *err);
void tf_problem_unbind_last(tf_problem *p);

/* On demand: binds every candidate in enumeration order, keeping none but
 * the first kept (slot 0), to count the kept ones (nkept, kept_known) and
 * find why none fits as binding whole finds it (pruned_why): what an
 * infeasible answer or `kept` needs.  Past the time limit TF_ESOLVER. */
int tf_problem_count_kept(tf_problem *p, tf_error *err);

/* The slot's place in the total order's ties: its candidate index. */
static inline uint64_t tf_problem_rank(const tf_problem *p, size_t c) { return p->rank ? p->rank[c] : c; }

/* What binding `req` to `w` makes of an answer's columns, found by the
 * binder's own steps without a machine or an enumeration: whether
 * occupancy becomes a choose variable (a fix or domain names it, or a
 * require or objective reads it, itself or through lets) and how many
 * objectives an answer shows (the request's, else the workset's, then its
 * tie-breaks: nobjective_shown).  A CSV header written before any point
 * is bound (a sweep's) asks this.  0, or -1 with *err when a require or
 * objective of the request does not parse. */
typedef struct tf_problem_shape {
  int occupancy;
  size_t nobjectives;
} tf_problem_shape;
int tf_problem_shape_of(const tf_workset *w, const tf_request *req, tf_problem_shape *shape, tf_error *err);

static inline size_t tf_problem_stride(const tf_problem *p) { return 1 + (size_t)p->ncounts; }
static inline const int64_t *tf_problem_buf(const tf_problem *p, size_t c, size_t b) {
  return tf_forms_at(&p->forms, p->buf_ix[c * p->nbuffers + b]);
}
static inline const int64_t *tf_problem_row(const tf_problem *p, size_t c, size_t r) {
  return tf_forms_at(&p->forms, p->row_ix[c * p->nrequire + r]);
}
static inline const int64_t *tf_problem_obj(const tf_problem *p, size_t c, size_t o) {
  return tf_forms_at(&p->forms, p->obj_ix[c * p->nobjective + o]);
}

/* The value of a stored form (a buffer, row or objective of a kept
 * combination) at concrete counts: 0 ok, -1 on overflow. */
static inline int tf_problem_form_at(const tf_problem *p, const int64_t *a, const int64_t *counts, int64_t *out) {
  int64_t v = a[0], t;
  for (int i = 0; i < p->ncounts; i++)
    if (tf_checked_mul(a[1 + i], counts[i], &t) || tf_checked_add(v, t, &v))
      return -1;
  *out = v;
  return 0;
}

/* Choose variable i's value v as text: the memory's name for a placement
 * variable, else the integer (in buf, room for 24). */
const char *tf_problem_value_text(const tf_problem *p, size_t i, int64_t v, char *buf);

/* A concrete point, evaluated from the workset's expressions. */
typedef struct tf_point {
  int64_t choose[TF_MAX_CHOOSE];
  int64_t counts[TF_MAX_COUNTS];
  int64_t *size;  /* per buffer, unaligned; an aliased buffer's what it adds to its host */
  int64_t *raw;   /* per buffer, its own size before aliasing (== size when it aliases none) */
  int64_t *alloc; /* per buffer, aligned */
  int64_t used[TF_NMEM];
  int64_t smem_limit;                 /* capacity, or less when an occupancy is asked for */
  char occupancy_why[160];            /* set when a count-free occupancy limit fails */
  int64_t *require_lhs, *require_rhs; /* per require */
  int *require_ok;
  int64_t *objective; /* per objective */
} tf_point;

void tf_point_init(tf_point *pt, const tf_problem *p);
void tf_point_release(tf_point *pt);

/* Evaluates every buffer, constraint and objective at (choose, counts).
 * Returns -1 with *err on an evaluation error (overflow, remainder). */
int tf_problem_eval_point(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_point *pt,
                          tf_error *err);

/* Evaluates a point only to say whether it fits: 1 it does, 0 it does not
 * (`why`: the first violation), -1 it cannot be evaluated (`why`: the
 * error).  What every "why not this point" message is built on. */
int tf_problem_why(const tf_problem *p, const int64_t *choose, const int64_t *counts, char *why, size_t size);

/* Does a point satisfy everything?  Fills `why` with the first violation. */
int tf_point_fits(const tf_problem *p, const tf_point *pt, char *why, size_t size);

/* The first violation of a point as data, for reports that print numbers
 * (explain's JSON) beside the sentence tf_point_fits writes (`text`). */
enum tf_miss {
  TF_MISS_NONE,      /* the point fits */
  TF_MISS_OCCUPANCY, /* a count-free occupancy limit (CTAs, threads, per-SM use): text only */
  TF_MISS_MEMORY,    /* memory needs more than capacity (the per-CTA limit when occupancy lowers it) */
  TF_MISS_REQUIRE,   /* require `index` does not hold: lhs against rhs */
  TF_MISS_RANGE,     /* count `index` is outside its bounds: value against [lhs, rhs] */
  TF_MISS_EVAL       /* the point cannot be evaluated: text is the error */
};
typedef struct tf_violation {
  int kind;                /* enum tf_miss */
  int memory;              /* TF_MISS_MEMORY */
  int64_t needs, capacity; /* TF_MISS_MEMORY: over is needs - capacity */
  int64_t occupancy;       /* TF_MISS_MEMORY: the occupancy that lowered capacity, else 0 */
  size_t index;            /* TF_MISS_REQUIRE, TF_MISS_RANGE */
  int64_t value, lhs, rhs; /* TF_MISS_REQUIRE: lhs, rhs; TF_MISS_RANGE: value, lhs..rhs */
  char text[256];
} tf_violation;

/* Returns 1 when the point fits (kind TF_MISS_NONE), else 0 with *v. */
int tf_point_violation(const tf_problem *p, const tf_point *pt, tf_violation *v);

/* tf_problem_why as data: 1 fits, 0 does not, -1 cannot be evaluated (TF_MISS_EVAL). */
int tf_problem_violation(const tf_problem *p, const int64_t *choose, const int64_t *counts, tf_violation *v);

/* The kind's name as reports write it: "memory", "occupancy", ... */
const char *tf_miss_name(int kind);

#endif
