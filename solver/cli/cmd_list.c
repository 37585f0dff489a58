#include <stdio.h>
#include <string.h>

#include "model/catalog.h"
#include "model/machine.h"
#include "model/workset.h"
#include "solver/cli/options.h"
#include "solver/cli/cli.h"


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

static void show_workset(const tf_workset *w) {
  printf("%s: %s\n", w->name, w->comment);
  printf("params:\n");
  for (size_t i = 0; i < w->nparams; i++)
    printf("  %-14s = %s\n", w->params[i].name, tf_expr_text(w->params[i].expr));
  printf("choose:\n");
  for (size_t i = 0; i < w->nchoose; i++) {
    printf("  %-14s {", w->choose[i].name);
    for (size_t k = 0; k < w->choose[i].nvalues; k++) {
      if (k == 8 && w->choose[i].nvalues > 10) {
        printf(", ... (%zu values), %lld", w->choose[i].nvalues,
               (long long)w->choose[i].values[w->choose[i].nvalues - 1]);
        break;
      }
      printf("%s%lld", k ? ", " : "", (long long)w->choose[i].values[k]);
    }
    printf("}\n");
  }
  printf("count:\n");
  for (size_t i = 0; i < w->ncounts; i++)
    printf("  %-14s from %s to %s\n", w->counts[i].name, tf_expr_text(w->counts[i].min),
           tf_expr_text(w->counts[i].max));
  if (w->nlets)
    printf("let:\n");
  for (size_t i = 0; i < w->nlets; i++)
    printf("  %-14s = %s\n", w->lets[i].name, tf_expr_text(w->lets[i].expr));
  printf("buffers:\n");
  for (size_t i = 0; i < w->nbuffers; i++)
    printf("  %-14s %-5s %s%s%s\n", w->buffers[i].name, tf_memory_name(w->buffers[i].memory),
           tf_expr_text(w->buffers[i].size), w->buffers[i].align ? "  align " : "",
           w->buffers[i].align ? tf_expr_text(w->buffers[i].align) : "");
  for (size_t i = 0; i < w->nrequire; i++)
    printf("%s  %s\n", i ? "" : "require:\n", tf_expr_text(w->require[i].expr));
  for (size_t i = 0; i < w->nobjective; i++)
    printf("%s  %s\n", i ? "" : "objective:\n", w->objective[i].text);
}

static int list(int kind) {
  size_t n;
  char **names = tf_catalog_list(kind, &n);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    tf_error err;
    tf_error_init(&err);
    if (tf_catalog_find(kind, names[i], "", path, sizeof path, &err))
      continue;
    if (kind == TF_CATALOG_MACHINES) {
      tf_machine *m = tf_machine_load(path, &err);
      printf("%-14s %s\n", names[i], m ? m->description : "(does not load)");
      tf_machine_free(m);
    } else {
      tf_workset *w = tf_workset_load(path, &err);
      printf("%-32s %.100s\n", names[i], w ? w->comment : "(does not load)");
      tf_workset_free(w);
    }
  }
  tf_catalog_list_free(names, n);
  return TF_EXIT_OK;
}

static int list_or_show(int kind, int argc, char **argv, const tf_command *cmd) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(cmd, argc, argv, &a);
  if (rc != TF_CLI_GO) {
    /* --help or a usage error */
  } else if (a.npositional == 0) {
    rc = list(kind);
  } else {
    char path[4096];
    if (tf_catalog_find(kind, a.positional[0], argv[0], path, sizeof path, &err)) {
      rc = tf_cli_fail(&err);
    } else if (kind == TF_CATALOG_MACHINES) {
      tf_machine *m = tf_machine_load(path, &err);
      rc = m ? (show_machine(m), TF_EXIT_OK) : tf_cli_fail(&err);
      tf_machine_free(m);
    } else {
      tf_workset *w = tf_workset_load(path, &err);
      rc = w ? (show_workset(w), TF_EXIT_OK) : tf_cli_fail(&err);
      tf_workset_free(w);
    }
  }
  tf_args_release(&a);
  return rc;
}

static int machines(int argc, char **argv) { return list_or_show(TF_CATALOG_MACHINES, argc, argv, &tf_cmd_machines); }
static int worksets(int argc, char **argv) { return list_or_show(TF_CATALOG_WORKSETS, argc, argv, &tf_cmd_worksets); }

const tf_command tf_cmd_machines = {
    "machines", TF_CMD_MACHINES, machines, "list the shipped machine models, or show one", "[NAME|FILE]", 1,
    "Without NAME, lists the shipped machine models; with one, shows its numbers\n"
    "and where each comes from.\n",
    "0 listed or shown, 2 bad input", 0, NULL};

const tf_command tf_cmd_worksets = {
    "worksets", TF_CMD_WORKSETS, worksets, "list the shipped worksets, or show one", "[NAME|FILE]", 1,
    "Without NAME, lists the shipped worksets; with one, shows its params,\n"
    "variables, buffers, constraints and objectives.\n",
    "0 listed or shown, 2 bad input", 0, NULL};
