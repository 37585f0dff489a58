/* A workset's symbols: every name its expressions may use, and the id
 * each is bound to (model/expr/expr.h, tf_expr_bind).  Ids are laid out
 * in this order, which model/bind/problem.c relies on:
 *   params | machine constants | choose | counts | lets | derived | occupancy
 *   | placed(B, MEM) per buffer and memory | placement_order
 * The workset's own names (params, choose variables, counts, lets) are
 * added as they are read; the rest are the same for every workset.
 * model/input/workset.h includes this header. */
#ifndef TF_MODEL_SYMBOLS_H
#define TF_MODEL_SYMBOLS_H

#include <stddef.h>

#include "model/core/error.h"

struct tf_workset;

/* Symbol ids (see the layout above). */
int tf_workset_nsymbols(const struct tf_workset *w);
int tf_workset_sym_machine(const struct tf_workset *w, int constant);
int tf_workset_sym_choose(const struct tf_workset *w, size_t i);
int tf_workset_sym_count(const struct tf_workset *w, size_t i);
int tf_workset_sym_let(const struct tf_workset *w, size_t i);
int tf_workset_sym_derived(const struct tf_workset *w, int used_or_slack, int mem); /* 0 used, 1 slack */
int tf_workset_sym_occupancy(const struct tf_workset *w);                           /* "occupancy": CTAs per SM */
int tf_workset_sym_placed(const struct tf_workset *w, size_t b, int mem);           /* placed(B, MEM): 0 or 1 */
/* "placement_order": 0 when every placed buffer is in its first candidate,
 * growing with the place-list order, buffers in workset order (the
 * tie-break; docs/placement.md). */
int tf_workset_sym_placement_order(const struct tf_workset *w);
const char *tf_workset_sym_name(const struct tf_workset *w, int sym, char *buf, size_t size);
enum tf_sym_kind {
  TF_SYM_PARAM,
  TF_SYM_MACHINE,
  TF_SYM_CHOOSE,
  TF_SYM_COUNT,
  TF_SYM_LET,
  TF_SYM_DERIVED,
  TF_SYM_OCCUPANCY,
  TF_SYM_PLACED
};
enum tf_sym_kind tf_workset_sym_kind(const struct tf_workset *w, int sym);

int tf_workset_resolve(const struct tf_workset *w, const char *name); /* -1 if unknown */

/* The buffer named `name`, or -1. */
int tf_workset_buffer(const struct tf_workset *w, const char *name);

/* Before a workset's own name is added: it is a valid name (letters,
 * digits, _) that no symbol has yet; else TF_EINPUT at `path`. */
int tf_workset_check_name(const struct tf_workset *w, const char *name, const char *path, tf_error *err);
/* Adds the workset's own name `name` (kept, not copied: the workset owns
 * it) as its param, choose variable, count or let number i (`kind`);
 * -1 for another kind, whose names are not the workset's. */
int tf_workset_add_name(struct tf_workset *w, const char *name, enum tf_sym_kind kind, size_t i);

#endif
