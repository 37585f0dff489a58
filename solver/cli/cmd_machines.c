/* tilefit machines [NAME|FILE]: the shipped machine models, or one in full
 * with the source of every number. */
#include <stdio.h>

#include "model/catalog.h"
#include "model/machine.h"
#include "solver/cli/catalog.h"

static void show_machine(const tf_machine *m) {
  printf("%s: %s (%s)\n", m->name, m->description, m->arch);
  printf("  SMs %lld, clock %lld MHz, HBM %lld GB/s, L2 %lld B\n", (long long)m->sm_count, (long long)m->clock_mhz,
         (long long)m->hbm_gbps, (long long)m->l2_bytes);
  printf("  smem: %lld B per CTA (opt-in), %lld B per SM, %lld B reserved per CTA, granule %lld B\n",
         (long long)m->smem.capacity, (long long)m->smem.per_sm, (long long)m->smem.reserved_per_cta,
         (long long)m->smem.granule);
  printf("  carveouts (KB):");
  for (int i = 0; i < m->smem.ncarveouts; i++)
    printf(" %lld", (long long)m->smem.carveouts_kb[i]);
  printf("\n");
  if (m->tmem.present)
    printf("  tmem: %lld columns x %lld lanes, allocations powers of two >= %lld columns\n",
           (long long)m->tmem.columns, (long long)m->tmem.lanes, (long long)m->tmem.min_alloc_columns);
  else
    printf("  tmem: none\n");
  printf("  rf: %lld registers per SM, %lld per thread, %lld per warp granule\n", (long long)m->rf.per_sm,
         (long long)m->rf.per_thread, (long long)m->rf.warp_granule);
  printf("  limits: %lld threads/SM, %lld CTAs/SM, %lld threads/CTA\n", (long long)m->limits.threads_per_sm,
         (long long)m->limits.ctas_per_sm, (long long)m->limits.threads_per_cta);
  printf("  per SM per clock: %lld f16 / %lld f8 / %lld f4 MMA FLOP, %lld exp2, %lld B smem\n",
         (long long)m->throughput.mma_f16_per_clk, (long long)m->throughput.mma_f8_per_clk,
         (long long)m->throughput.mma_f4_per_clk, (long long)m->throughput.exp_per_clk,
         (long long)m->smem.bytes_per_clk);
  printf("sources (%s):\n", m->file);
  for (size_t i = 0; i < m->nsources; i++)
    printf("  %-26s %s\n", m->sources[i].field, m->sources[i].text);
}

static void line(const char *name, const char *path) {
  tf_error err;
  tf_error_init(&err);
  tf_machine *m = tf_machine_load(path, &err);
  printf("%-14s %s\n", name, m ? m->description : "(does not load)");
  tf_machine_free(m);
}

static int show(const char *path, tf_error *err) {
  tf_machine *m = tf_machine_load(path, err);
  if (m)
    show_machine(m);
  tf_machine_free(m);
  return m ? 0 : -1;
}

static const tf_catalog_view view = {TF_CATALOG_MACHINES, line, show};

static int run(int argc, char **argv) { return tf_cli_catalog(&tf_cmd_machines, &view, argc, argv); }

const tf_command tf_cmd_machines = {
    "machines", TF_CMD_MACHINES, run, "list the shipped machine models, or show one", "[NAME|FILE]", 1,
    "Without NAME, lists the shipped machine models; with one, shows its numbers\n"
    "and where each comes from.\n",
    "0 listed or shown, 2 bad input", 0, NULL};
