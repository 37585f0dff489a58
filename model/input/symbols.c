/* A workset's symbols (symbols.h): the id layout, the names that
 * resolve to ids and back, and adding the workset's own names. */
#include "model/input/symbols.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "model/input/workset.h"

/* The machine constants' names, in the order of enum tf_machine_constant
 * (model/input/workset.h). */
#define MC_FIELD(k, lo, hi, c) #c,
#define MC_SUB(s, k, lo, hi, c) #c,
#define MC_NONE(s, k, lo, hi)
#define MC_PORT(n, from, to) "smem_port_" #n,
#define MC_DERIVED(n) #n,
const char *const tf_machine_constant_names[TF_NMC] = {TF_MACHINE_FIELDS(MC_FIELD, MC_SUB, MC_NONE)
                                                           TF_MACHINE_PORTS(MC_PORT) TF_MACHINE_DERIVED(MC_DERIVED)};

int tf_workset_sym_machine(const tf_workset *w, int c) { return (int)w->nparams + c; }
int tf_workset_sym_choose(const tf_workset *w, size_t i) { return (int)(w->nparams + TF_NMC + i); }
int tf_workset_sym_count(const tf_workset *w, size_t i) { return (int)(w->nparams + TF_NMC + w->nchoose + i); }
int tf_workset_sym_let(const tf_workset *w, size_t i) {
  return (int)(w->nparams + TF_NMC + w->nchoose + w->ncounts + i);
}
int tf_workset_sym_derived(const tf_workset *w, int kind, int mem) {
  return tf_workset_sym_let(w, w->nlets) + kind * TF_NMEM + mem;
}
int tf_workset_sym_occupancy(const tf_workset *w) { return tf_workset_sym_derived(w, 2, 0); }
int tf_workset_sym_placed(const tf_workset *w, size_t b, int mem) {
  return tf_workset_sym_occupancy(w) + 1 + (int)(b * TF_NMEM) + mem;
}
int tf_workset_sym_placement_order(const tf_workset *w) { return tf_workset_sym_placed(w, w->nbuffers, 0); }
int tf_workset_nsymbols(const tf_workset *w) { return tf_workset_sym_placement_order(w) + 1; }

/* Every name an expression may use resolves through two hash tables of
 * (kind, index): the workset's own names, added as they are read, and the
 * fixed ones (machine constants, occupancy, placement_order, used() and
 * slack()), the same for every workset, built once for the process. */
enum name_kind {
  NAME_PARAM,
  NAME_CHOOSE,
  NAME_COUNT,
  NAME_LET,
  NAME_MACHINE,
  NAME_OCCUPANCY,
  NAME_USED,
  NAME_SLACK,
  NAME_PLACEMENT_ORDER
};
#define NAME_KINDS 9

#define TF_MEM_USED(e, n, u, r) "used(" n ")",
#define TF_MEM_SLACK(e, n, u, r) "slack(" n ")",
static const char *const derived_names[2][TF_NMEM] = {{TF_MEMORIES(TF_MEM_USED)}, {TF_MEMORIES(TF_MEM_SLACK)}};

static int add_name(tf_names *t, const char *name, enum name_kind kind, size_t i) {
  return tf_names_put(t, name, (int)(i * NAME_KINDS + kind));
}

static tf_names fixed_names; /* written once, under fixed_once; read-only after */
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void add_fixed_names(void) {
  for (int c = 0; c < TF_NMC; c++)
    add_name(&fixed_names, tf_machine_constant_names[c], NAME_MACHINE, (size_t)c);
  add_name(&fixed_names, "occupancy", NAME_OCCUPANCY, 0);
  add_name(&fixed_names, "placement_order", NAME_PLACEMENT_ORDER, 0);
  for (int m = 0; m < TF_NMEM; m++) {
    add_name(&fixed_names, derived_names[0][m], NAME_USED, (size_t)m);
    add_name(&fixed_names, derived_names[1][m], NAME_SLACK, (size_t)m);
  }
}

static int lookup(const tf_workset *w, const char *name) {
  int v = tf_names_get(&w->symbols, name);
  if (v >= 0)
    return v;
  pthread_once(&fixed_once, add_fixed_names);
  return tf_names_get(&fixed_names, name);
}

int tf_workset_buffer(const tf_workset *w, const char *name) { return tf_names_get(&w->buffer_names, name); }

/* "placed(B,M)" (as the parser writes it) to its symbol, or -1. */
static int placed_resolve(const tf_workset *w, const char *name) {
  const char *comma = strchr(name, ','), *close = strchr(name, ')');
  if (strncmp(name, "placed(", 7) || !comma || !close || close[1])
    return -1;
  char buffer[128], mem[16];
  size_t nb = (size_t)(comma - name - 7), nm = (size_t)(close - comma - 1);
  if (nb >= sizeof buffer || nm >= sizeof mem)
    return -1;
  memcpy(buffer, name + 7, nb), buffer[nb] = 0;
  memcpy(mem, comma + 1, nm), mem[nm] = 0;
  int b = tf_workset_buffer(w, buffer), m = tf_memory_find(mem);
  return b < 0 || m < 0 ? -1 : tf_workset_sym_placed(w, (size_t)b, m);
}

/* The name of a placement symbol: "placed(P,rf)". */
static const char *placed_name(const tf_workset *w, int sym, char *buf, size_t size) {
  int first = tf_workset_sym_placed(w, 0, 0);
  snprintf(buf, size, "placed(%s,%s)", w->buffers[(sym - first) / TF_NMEM].name,
           tf_memory_name((sym - first) % TF_NMEM));
  return buf;
}

int tf_workset_resolve(const tf_workset *w, const char *name) {
  if (!strncmp(name, "placed(", 7))
    return placed_resolve(w, name);
  int v = lookup(w, name);
  if (v < 0)
    return -1;
  size_t i = (size_t)v / NAME_KINDS;
  switch ((enum name_kind)(v % NAME_KINDS)) {
  case NAME_PARAM: return (int)i;
  case NAME_CHOOSE: return tf_workset_sym_choose(w, i);
  case NAME_COUNT: return tf_workset_sym_count(w, i);
  case NAME_LET: return tf_workset_sym_let(w, i);
  case NAME_MACHINE: return tf_workset_sym_machine(w, (int)i);
  case NAME_OCCUPANCY: return tf_workset_sym_occupancy(w);
  case NAME_PLACEMENT_ORDER: return tf_workset_sym_placement_order(w);
  case NAME_USED: return tf_workset_sym_derived(w, 0, (int)i);
  case NAME_SLACK: return tf_workset_sym_derived(w, 1, (int)i);
  }
  return -1; /* not reached: every kind is a case above (-Wswitch says when one is not) */
}

const char *tf_workset_sym_name(const tf_workset *w, int sym, char *buf, size_t size) {
  size_t s = (size_t)sym;
  if (s < w->nparams)
    return w->params[s].name;
  s -= w->nparams;
  if (s < TF_NMC)
    return tf_machine_constant_names[s];
  s -= TF_NMC;
  if (s < w->nchoose)
    return w->choose[s].name;
  s -= w->nchoose;
  if (s < w->ncounts)
    return w->counts[s].name;
  s -= w->ncounts;
  if (s < w->nlets)
    return w->lets[s].name;
  s -= w->nlets;
  if (s == 2 * TF_NMEM)
    return "occupancy";
  if (sym == tf_workset_sym_placement_order(w))
    return "placement_order";
  if (s > 2 * TF_NMEM)
    return placed_name(w, sym, buf, size);
  return derived_names[s >= TF_NMEM][s % TF_NMEM];
}

enum tf_sym_kind tf_workset_sym_kind(const tf_workset *w, int sym) {
  if (sym < tf_workset_sym_machine(w, 0))
    return TF_SYM_PARAM;
  if (sym < tf_workset_sym_choose(w, 0))
    return TF_SYM_MACHINE;
  if (sym < tf_workset_sym_count(w, 0))
    return TF_SYM_CHOOSE;
  if (sym < tf_workset_sym_let(w, 0))
    return TF_SYM_COUNT;
  if (sym < tf_workset_sym_derived(w, 0, 0))
    return TF_SYM_LET;
  if (sym == tf_workset_sym_occupancy(w))
    return TF_SYM_OCCUPANCY;
  return sym > tf_workset_sym_occupancy(w) ? TF_SYM_PLACED : TF_SYM_DERIVED;
}

int tf_workset_add_name(tf_workset *w, const char *name, enum tf_sym_kind kind, size_t i) {
  switch (kind) {
  case TF_SYM_PARAM: return add_name(&w->symbols, name, NAME_PARAM, i);
  case TF_SYM_CHOOSE: return add_name(&w->symbols, name, NAME_CHOOSE, i);
  case TF_SYM_COUNT: return add_name(&w->symbols, name, NAME_COUNT, i);
  case TF_SYM_LET: return add_name(&w->symbols, name, NAME_LET, i);
  case TF_SYM_MACHINE:
  case TF_SYM_DERIVED:
  case TF_SYM_OCCUPANCY:
  case TF_SYM_PLACED: break;
  }
  return -1; /* fixed names (add_fixed_names) or placed(): not the workset's own */
}

static int valid_name(const char *s) {
  if ((!isalpha((unsigned char)*s) && *s != '_') || strlen(s) > TF_MAX_NAME_BYTES)
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return 0;
  return 1;
}

int tf_workset_check_name(const tf_workset *w, const char *name, const char *path, tf_error *err) {
  if (!valid_name(name))
    return tf_error_set(err, TF_EINPUT, path, "'%.64s' is not a valid name (letters, digits, _; at most %d)", name,
                        TF_MAX_NAME_BYTES);
  if (tf_workset_resolve(w, name) >= 0)
    return tf_error_set(err, TF_EINPUT, path, "name '%s' is defined twice or shadows a machine constant", name);
  return 0;
}
