#include "model/input/memory_kind.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/expr/expr.h"
#include "model/input/machine.h"

/* ----------------------------------------------------- machine rules */

/* a * b for a, b >= 0, saturating at INT64_MAX: past it nothing fits anyway */
static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return tf_checked_mul(a, b, &r) ? INT64_MAX : r;
}

static int64_t smem_per_cta(const tf_machine *m) { return m->smem.capacity; }
static int64_t smem_per_sm(const tf_machine *m) { return m->smem.per_sm; }
static int64_t smem_footprint(const tf_machine *m, int64_t use, int64_t threads) {
  (void)threads;
  int64_t g = m->smem.granule > 0 ? m->smem.granule : 1, t;
  if (tf_checked_add(use, m->smem.reserved_per_cta, &t))
    return INT64_MAX;
  return sat_mul(tf_cdiv(t, g), g);
}

static int64_t tmem_per_cta(const tf_machine *m) { return m->tmem.present ? m->tmem.columns : 0; }
/* a power of two, at least the minimum allocation */
static int64_t tmem_footprint(const tf_machine *m, int64_t use, int64_t threads) {
  (void)threads;
  int64_t alloc = 1;
  while (alloc < use && alloc < ((int64_t)1 << 62))
    alloc *= 2;
  return alloc < m->tmem.min_alloc_columns ? m->tmem.min_alloc_columns : alloc;
}

static int64_t rf_per_cta(const tf_machine *m) { return m->rf.per_thread; }
static int64_t rf_per_sm(const tf_machine *m) { return m->rf.per_sm; }
/* registers are allocated per warp, in units of the warp granule */
static int64_t rf_footprint(const tf_machine *m, int64_t use, int64_t threads) {
  int64_t g = m->rf.warp_granule > 0 ? m->rf.warp_granule : 1;
  return sat_mul(tf_cdiv(threads, 32), sat_mul(tf_cdiv(sat_mul(use, 32), g), g));
}

/* One memory kind's rules, named by its TF_MEMORIES row (which gives its
 * enum value, name and unit) as `rules_kind`.
 *   what            what a person calls it ("tensor memory")
 *   section         the machine file's object for it (machines/README.md)
 *   present         offsetof its "the machine has it" flag in tf_machine,
 *                   for a kind a machine may lack; 0: every machine has it
 *   per_cta         what one CTA may use, before occupancy (0: absent)
 *   per_sm          what one SM holds
 *   footprint       one CTA's charge on an SM when it uses `use` units
 *   at_occupancy    the per-CTA capacity when `ctas` CTAs share an SM;
 *                   NULL: occupancy does not change it, and occupancy
 *                   instead compares ctas x footprint with per_sm
 *   sm_use          that comparison's name for its unit ("registers") */
typedef struct memory_kind {
  const char *what, *section;
  size_t present;
  int64_t (*per_cta)(const tf_machine *m);
  int64_t (*per_sm)(const tf_machine *m);
  int64_t (*footprint)(const tf_machine *m, int64_t use, int64_t threads);
  int64_t (*at_occupancy)(const tf_machine *m, int64_t ctas);
  const char *sm_use;
} memory_kind;

static const memory_kind smem_kind = {
    "shared memory", "smem", 0, smem_per_cta, smem_per_sm, smem_footprint, tf_memory_smem_for_occupancy, NULL};
static const memory_kind tmem_kind = {
    "tensor memory", "tmem", offsetof(tf_machine, tmem.present), tmem_per_cta, tmem_per_cta, tmem_footprint, NULL,
    "TMEM columns"};
static const memory_kind rf_kind = {"registers", "rf", 0, rf_per_cta, rf_per_sm, rf_footprint, NULL, "registers"};

/* The kind table, a row per TF_MEMORIES row: `rules_kind` must exist. */
#define TF_MEM_KIND(e, n, u, r) [TF_MEM_##e] = &r##_kind,
static const memory_kind *const kinds[TF_NMEM] = {TF_MEMORIES(TF_MEM_KIND)};

/* ------------------------------------------------------------- names */

#define TF_MEM_NAME(e, n, u, r) n,
#define TF_MEM_UNIT(e, n, u, r) u,
static const char *const memory_names[TF_NMEM] = {TF_MEMORIES(TF_MEM_NAME)};
static const char *const memory_units[TF_NMEM] = {TF_MEMORIES(TF_MEM_UNIT)};

const char *tf_memory_name(int mem) { return memory_names[mem]; }
const char *tf_memory_unit(int mem) { return memory_units[mem]; }
const char *tf_memory_what(int mem) { return kinds[mem]->what; }
const char *tf_memory_section(int mem) { return kinds[mem]->section; }

int tf_memory_find(const char *name) {
  for (int m = 0; m < TF_NMEM; m++)
    if (!strcmp(name, memory_names[m]))
      return m;
  return -1;
}

const char *tf_memory_list(char *buf, size_t size, const char *last) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  for (int m = 0; m < TF_NMEM; m++)
    tf_strbuf_item(&b, m + 1 == TF_NMEM && m ? last : ", ", "%s", memory_names[m]);
  return buf;
}

const char *tf_memory_sm_use(int mem) { return kinds[mem]->sm_use; }

/* ------------------------------------------------- what a machine has */

int tf_memory_optional(int mem) { return kinds[mem]->present != 0; }

int tf_memory_present(const tf_machine *m, int mem) {
  return !kinds[mem]->present || *(const int *)((const char *)m + kinds[mem]->present);
}

void tf_memory_set_present(tf_machine *m, int mem, int present) {
  if (kinds[mem]->present)
    *(int *)((char *)m + kinds[mem]->present) = present;
}

int tf_memory_section_absent(const tf_machine *m, const char *section) {
  for (int k = 0; k < TF_NMEM; k++)
    if (!strcmp(section, kinds[k]->section) && !tf_memory_present(m, k))
      return 1;
  return 0;
}

int64_t tf_memory_machine_capacity(const tf_machine *m, int mem) { return kinds[mem]->per_cta(m); }

int64_t tf_memory_smem_for_occupancy(const tf_machine *m, int64_t ctas) {
  if (ctas < 1)
    return m->smem.capacity; /* no such occupancy: tf_occupancy_fits says why */
  int64_t g = m->smem.granule > 0 ? m->smem.granule : 1;
  int64_t limit = tf_fdiv(tf_fdiv(m->smem.per_sm, ctas), g) * g - m->smem.reserved_per_cta;
  return limit < m->smem.capacity ? limit : m->smem.capacity;
}

int64_t tf_memory_sm_footprint(const tf_machine *m, int mem, int64_t use, int64_t threads) {
  return kinds[mem]->footprint(m, use, threads);
}

int64_t tf_memory_sm_capacity(const tf_machine *m, int mem) { return kinds[mem]->per_sm(m); }

int tf_memory_occupancy_lowers(int mem) { return kinds[mem]->at_occupancy != NULL; }

int64_t tf_memory_capacity_at_occupancy(const tf_machine *m, int mem, int64_t ctas) {
  return kinds[mem]->at_occupancy ? kinds[mem]->at_occupancy(m, ctas) : kinds[mem]->per_cta(m);
}
