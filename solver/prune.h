/* The pre-launch check of a list of configurations (`tilefit prune`): for
 * one machine and workset, does each configuration fit, and if not, by how
 * much in which memory -- the numbers Triton's "out of resource: shared
 * memory, Required: X, Hardware limit: Y" would print, before compiling.
 *
 * A configuration's keys map onto the workset by name, or through a map
 * (BLOCK_M=tile_m): a key naming a choose or count variable fixes it, one
 * naming a param sets it, and any other key (num_warps on a workset without
 * warps) is ignored and reported.  A CUTLASS kernel name binds its own
 * workset, types and tile (model/formats/cutlass_name.h); stage count 0 is the
 * builder's automatic count. */
#ifndef TF_SOLVER_PRUNE_H
#define TF_SOLVER_PRUNE_H

#include <stdio.h>

#include "model/formats/configs.h"
#include "model/formats/cutlass_name.h"
#include "solver/solve.h"

typedef struct tf_prune_pair {
  char *from, *to;
  char where[64]; /* "--map", "$.map.BM": the place an unknown `to` is blamed on */
} tf_prune_pair;
typedef struct tf_prune_map { /* --map FROM=TO,... */
  tf_prune_pair *pairs;
  size_t n, cap;
} tf_prune_map;

void tf_prune_map_release(tf_prune_map *m);

/* Triton's tutorial spelling of a block-size variable ("BLOCK_M" ->
 * "BLOCK_SIZE_M", python/tutorials/03-matrix-multiplication.py), which
 * prune reads as the variable; NULL for any other name. */
const char *tf_prune_triton_spelling(const char *variable);
/* Adds "BLOCK_M=tile_m,BLOCK_N=tile_n"; `where` names the option. */
int tf_prune_map_parse(tf_prune_map *m, const char *text, const char *where, tf_error *err);

typedef struct tf_pruned { /* one configuration's verdict */
  tf_loaded loaded;        /* a name's own machine and workset; empty for objects */
  tf_problem *problem;     /* owned */
  tf_answer answer;        /* TF_ANSWER_FITS or TF_ANSWER_NO_FIT */
  int answered;            /* answer initialised */
  char ignored[256];       /* keys that name nothing in the workset, "num_warps, num_ctas" */
  char error[512];         /* not empty: this line could not be checked, and why (no problem, no answer) */
  int skipped;             /* a kernel name for another architecture than -m's: not checked */
} tf_pruned;

void tf_pruned_release(tf_pruned *x);

/* Checks one object configuration against a loaded machine and workset;
 * `req` holds the command line's params and requires (its fixes grow and
 * shrink back during the call). */
int tf_prune_object(const tf_loaded *l, tf_request *req, const tf_config *cfg, const tf_prune_map *map, tf_pruned *out,
                    tf_error *err);

/* Checks one CUTLASS kernel name; `machine` (may be NULL) overrides the
 * name's architecture's machine. */
int tf_prune_name(const char *name, const char *machine, double time_limit, tf_pruned *out, tf_error *err);

int tf_pruned_fits(const tf_pruned *v);

/* A whole list checked: its configurations, their verdicts, the keys that
 * named nothing (each once). */
typedef struct tf_prune_batch {
  tf_config_list list; /* parsed by the caller (tf_configs_parse) */
  tf_loaded loaded;    /* the machine and workset objects are checked against */
  tf_pruned *verdicts; /* one per configuration */
  size_t nfit, nerror, nskipped;
  char ignored[256];
} tf_prune_batch;

void tf_prune_batch_init(tf_prune_batch *b);
void tf_prune_batch_release(tf_prune_batch *b);

/* Checks every configuration of b->list: objects against req's machine
 * and workset ("-m"/"-w" name them in errors), each kernel name against
 * its own (req's machine, when given, overriding; a name for another
 * architecture is skipped and counted).  A line that cannot be checked
 * gets its error, with its line, and the list goes on; -1 only for what
 * no line can get past (no machine or workset for objects, a map onto a
 * name that is neither a variable nor a param of the workset). */
int tf_prune_batch_run(tf_prune_batch *b, tf_request *req, const tf_prune_map *map, double time_limit, tf_error *err);

/* What `prune --json` prints: one array, an element per configuration
 * with its "where", the "config" itself, "fits" and check's fields;
 * no newline after it. */
void tf_prune_batch_json(FILE *f, const tf_prune_batch *b);

/* A name with stage count 0: the builder's count is the largest that fits
 * (its formula is what the workset encodes), so solve for it and rebind
 * *p with stages fixed there -- at the smallest count the kernel accepts
 * when none fits, so that the report shows by how much. */
int tf_fix_builder_stages(tf_request *req, const tf_loaded *l, const tf_solve_opts *opts, tf_problem **p,
                          tf_error *err);

#endif
