/* The memory kinds a machine declares, and their machine-level rules:
 * each kind's name, unit, machine section, whether a machine may lack it,
 * its capacity per CTA, per SM and at an occupancy, and one CTA's
 * footprint on an SM.  What a problem's buffers charge to these memories
 * at a combination is model/bind/memory.h, built on this. */
#ifndef TF_MODEL_MEMORY_KIND_H
#define TF_MODEL_MEMORY_KIND_H

#include <stddef.h>
#include <stdint.h>

/* One row per kind: X(ENUM, name, unit, rules).  Bytes of shared memory
 * per CTA, 32-bit columns of tensor memory, registers per thread.  `rules`
 * names the kind's rules in memory_kind.c, the struct `rules_kind` (what a
 * person calls it, its machine section, its capacities and footprint): the
 * kind table is built from these rows, so a row whose rules are not
 * written does not compile (tests/compile/memory_row.sh tries one). */
#define TF_MEMORIES(X)             \
  X(SMEM, "smem", "B", smem)       \
  X(TMEM, "tmem", "columns", tmem) \
  X(RF, "rf", "registers/thread", rf)
#define TF_MEM_ENUM(e, n, u, r) TF_MEM_##e,
enum tf_memory { TF_MEMORIES(TF_MEM_ENUM) TF_NMEM };

const char *tf_memory_name(int mem);
const char *tf_memory_unit(int mem);
int tf_memory_find(const char *name); /* -1 if unknown */

struct tf_machine;

/* What a person calls it ("tensor memory"), and its machine section. */
const char *tf_memory_what(int mem);
const char *tf_memory_section(int mem);
/* The memory names as a list, "smem, tmem or rf" (last: " or "), in buf;
 * TF_MEMORY_LIST(last) in a compound literal, for one message. */
const char *tf_memory_list(char *buf, size_t size, const char *last);
#define TF_MEMORY_LIST(last) tf_memory_list((char[96]){0}, 96, last)
/* What occupancy calls the kind's per-SM unit ("registers"); NULL for a
 * kind whose per-CTA capacity occupancy lowers instead. */
const char *tf_memory_sm_use(int mem);

/* ------------------------------------------------------ machine rules */

/* May a machine lack it; does this one have it; sets it (the loader). */
int tf_memory_optional(int mem);
int tf_memory_present(const struct tf_machine *m, int mem);
void tf_memory_set_present(struct tf_machine *m, int mem, int present);
/* Is `section` the section of a memory this machine lacks (whose fields
 * it therefore does not have)? */
int tf_memory_section_absent(const struct tf_machine *m, const char *section);

int64_t tf_memory_machine_capacity(const struct tf_machine *m, int mem);

/* The most SMEM one CTA may use so that `ctas` CTAs fit on one SM:
 * ctas * align(used + reserved, granule) <= SMEM per SM, capped at the
 * per-CTA capacity.  An occupancy below 1 gets the capacity (the
 * occupancy check rejects it, with a reason). */
int64_t tf_memory_smem_for_occupancy(const struct tf_machine *m, int64_t ctas);

/* One CTA's footprint on an SM when it uses `use` units of memory `mem`
 * (TMEM and RF; `threads` is the CTA's size, for RF), and what an SM
 * holds.  Saturates at INT64_MAX: past it nothing fits anyway. */
int64_t tf_memory_sm_footprint(const struct tf_machine *m, int mem, int64_t use, int64_t threads);
int64_t tf_memory_sm_capacity(const struct tf_machine *m, int mem);

/* Does occupancy lower this kind's per-CTA capacity (SMEM), rather than
 * compare CTAs x footprint with what an SM holds? */
int tf_memory_occupancy_lowers(int mem);
/* Its per-CTA capacity when `ctas` CTAs share an SM (the machine's
 * per-CTA capacity for a kind occupancy does not lower). */
int64_t tf_memory_capacity_at_occupancy(const struct tf_machine *m, int mem, int64_t ctas);

#endif
