/* tilefit machines [NAME|FILE...]: the shipped machine models; one in
 * full with the source of every number; several side by side, differences
 * marked; or, with --unconfirmed, every number whose source says
 * UNCONFIRMED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/json_out.h"
#include "model/input/catalog.h"
#include "model/input/machine.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/machine_json.h"
#include "solver/report.h"

/* ------------------------------------------------------------ one machine */

/* The optional rates the time reads (docs/cost-model.md): the ALU, the
 * mma.sync path, the fixed time a kernel, the sustained clock, L2. */
static void time_rates(FILE *f, const tf_machine *m) {
  fprintf(f, "  time:");
  if (m->alu.present)
    fprintf(f, " %lld FP32 per SM per clock;", (long long)m->alu.fp32_per_clk);
  if (m->mma_sync.present)
    fprintf(f, " mma.sync at %lld per mille of the MMA rate;", (long long)m->mma_sync.rate_permille);
  if (m->l2.present)
    fprintf(f, " L2 %lld B per clock;", (long long)m->l2.bytes_per_clk);
  if (m->sustained.present)
    fprintf(f, " sustained clock %lld MHz;", (long long)m->sustained.clock_mhz);
  fprintf(f, " fixed %lld ns a kernel\n", (long long)(m->kernel.present ? m->kernel.fixed_ns : 0));
}
static void show_text(FILE *f, const tf_machine *m) {
  fprintf(f, "%s: %s (%s)\n", m->name, m->description, m->arch);
  fprintf(f, "  SMs %lld, clock %lld MHz, HBM %lld GB/s, L2 %lld B\n", (long long)m->sm_count, (long long)m->clock_mhz,
          (long long)m->hbm_gbps, (long long)m->l2_bytes);
  fprintf(f, "  smem: %lld B per CTA (opt-in), %lld B per SM, %lld B reserved per CTA, granule %lld B\n",
          (long long)m->smem.capacity, (long long)m->smem.per_sm, (long long)m->smem.reserved_per_cta,
          (long long)m->smem.granule);
  fprintf(f, "  carveouts (KB):");
  for (int i = 0; i < m->smem.ncarveouts; i++)
    fprintf(f, " %lld", (long long)m->smem.carveouts_kb[i]);
  fprintf(f, "\n");
  if (m->tmem.present)
    fprintf(f, "  tmem: %lld columns x %lld lanes, allocations powers of two >= %lld columns\n",
            (long long)m->tmem.columns, (long long)m->tmem.lanes, (long long)m->tmem.min_alloc_columns);
  else
    fprintf(f, "  tmem: none\n");
  fprintf(f, "  rf: %lld registers per SM, %lld per thread, %lld per warp granule\n", (long long)m->rf.per_sm,
          (long long)m->rf.per_thread, (long long)m->rf.warp_granule);
  fprintf(f, "  limits: %lld threads/SM, %lld CTAs/SM, %lld threads/CTA\n", (long long)m->limits.threads_per_sm,
          (long long)m->limits.ctas_per_sm, (long long)m->limits.threads_per_cta);
  fprintf(f, "  per SM per clock: %lld f16 / %lld f8 / %lld f4 MMA FLOP, %lld exp2, %lld B smem\n",
          (long long)m->throughput.mma_f16_per_clk, (long long)m->throughput.mma_f8_per_clk,
          (long long)m->throughput.mma_f4_per_clk, (long long)m->throughput.exp_per_clk,
          (long long)m->smem.bytes_per_clk);
  if (m->latency.present)
    fprintf(f, "  latency: %lld clocks per global-memory load\n", (long long)m->latency.hbm_clk);
  else
    fprintf(f, "  latency: none given\n");
  time_rates(f, m);
  fprintf(f, "sources (%s):\n", m->file);
  for (size_t i = 0; i < m->nsources; i++)
    fprintf(f, "  %-26s %s\n", m->sources[i].field, m->sources[i].text);
  char path[4200];
  if (tf_machine_sources_file(m, path, sizeof path))
    fprintf(f, "the source keys (S1, S9, ...) are listed in %s\n", path);
}

/* ------------------------------------------------------- several machines */

/* Every field a row, every machine a column; '*' marks a field whose
 * values differ. */
static void compare_text(FILE *f, tf_machine *const *m, size_t n) {
  static tf_machine_row r[16]
                         [TF_MACHINE_ROWS_MAX]; /* n <= 16: the command's max_operands; static, too big for a stack */
  size_t rows = 0;
  for (size_t k = 0; k < n; k++)
    rows = tf_machine_rows(m[k], r[k]); /* the same fields, in the same order, for every machine */
  fprintf(f, "  %-28s", "field");
  for (size_t k = 0; k < n; k++)
    fprintf(f, " %16s", m[k]->name);
  fputc('\n', f);
  for (size_t i = 0; i < rows; i++) {
    int differs = 0;
    for (size_t k = 1; k < n; k++)
      differs |= strcmp(r[k][i].text, r[0][i].text) != 0;
    fprintf(f, "%c %-28s", differs ? '*' : ' ', r[0][i].field);
    for (size_t k = 0; k < n; k++)
      fprintf(f, " %16s", r[k][i].text);
    fputc('\n', f);
  }
  fputs("* the machines differ in this field\n", f);
}

static void compare_json(FILE *f, tf_machine *const *m, size_t n) {
  static tf_machine_row r[16][TF_MACHINE_ROWS_MAX];
  size_t rows = 0;
  for (size_t k = 0; k < n; k++)
    rows = tf_machine_rows(m[k], r[k]);
  tf_json_out w;
  tf_json_out_init(&w, f);
  tf_json_out_object(&w);
  tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
  tf_json_out_key_array(&w, "machines");
  for (size_t k = 0; k < n; k++)
    tf_json_out_string(&w, m[k]->name);
  tf_json_out_end(&w);
  tf_json_out_key_array(&w, "fields");
  for (size_t i = 0; i < rows; i++) {
    int differs = 0;
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "field", r[0][i].field);
    tf_json_out_key_array(&w, "values");
    for (size_t k = 0; k < n; k++) {
      differs |= strcmp(r[k][i].text, r[0][i].text) != 0;
      tf_machine_row_value(&w, &r[k][i]);
    }
    tf_json_out_end(&w);
    tf_json_out_key_bool(&w, "differs", differs);
    tf_json_out_end(&w);
  }
  tf_json_out_end(&w);
  tf_json_out_end(&w);
  tf_json_out_line(&w);
}

/* Every source that says UNCONFIRMED, machine by machine. */
static void unconfirmed(FILE *f, int json, tf_machine *const *m, size_t n) {
  size_t count = 0;
  tf_json_out w;
  tf_json_out_init(&w, f);
  if (json) {
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
    tf_json_out_key_array(&w, "unconfirmed");
  }
  for (size_t k = 0; k < n; k++)
    for (size_t i = 0; i < m[k]->nsources; i++) {
      const tf_machine_source *s = &m[k]->sources[i];
      if (!strstr(s->text, "UNCONFIRMED"))
        continue;
      if (!json) {
        fprintf(f, "%-14s %-28s %s\n", m[k]->name, s->field, s->text);
      } else {
        tf_json_out_object(&w);
        tf_json_out_key_string(&w, "machine", m[k]->name);
        tf_json_out_key_string(&w, "field", s->field);
        tf_json_out_key_string(&w, "source", s->text);
        tf_json_out_end(&w);
      }
      count++;
    }
  if (json) {
    tf_json_out_end(&w);
    tf_json_out_end(&w);
    tf_json_out_line(&w);
  } else
    fprintf(f, "%zu unconfirmed number%s in %zu machine%s\n", count, count == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- command */

static void list(FILE *f, int json, tf_machine *const *m, char *const *names, size_t n) {
  tf_json_out w;
  tf_json_out_init(&w, f);
  if (json) {
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "schema", TF_REPORT_SCHEMA);
    tf_json_out_key_array(&w, "machines");
  }
  for (size_t i = 0; i < n; i++) {
    if (!json) {
      fprintf(f, "%-14s %s\n", names[i], m[i] ? m[i]->description : "(does not load)");
      continue;
    }
    tf_json_out_object(&w);
    tf_json_out_key_string(&w, "name", names[i]);
    tf_json_out_key_string(&w, "description", m[i] ? m[i]->description : NULL);
    tf_json_out_end(&w);
  }
  if (json) {
    tf_json_out_end(&w);
    tf_json_out_end(&w);
    tf_json_out_line(&w);
  }
}

/* Loads the machines named (all shipped ones when none is); on bad input
 * returns -1 with err set.  A shipped one that does not load is NULL in
 * the list, and an error anywhere else. */
static int load_all(const tf_args *a, tf_machine **m, char **names, size_t n, tf_error *err) {
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    const char *name = a->npositional ? a->positional[i] : names[i];
    if (tf_catalog_find(TF_CATALOG_MACHINES, name, "machines", path, sizeof path, err))
      return -1;
    m[i] = tf_machine_load(path, err);
    if (!m[i] && (a->npositional || a->unconfirmed))
      return -1;
  }
  return 0;
}

static int run(int argc, char **argv);

const tf_command tf_cmd_machines = {"machines",
                                    TF_CMD_MACHINES,
                                    run,
                                    "list the shipped machine models, show one, or compare several",
                                    "[NAME|FILE...]",
                                    16,
                                    "Without NAME, lists the shipped machine models; with one, shows its numbers\n"
                                    "and where each comes from (the source keys are listed in machines/SOURCES.md);\n"
                                    "with several, shows them side by side, every number, differences marked '*'.\n"
                                    "--unconfirmed lists every number whose source says UNCONFIRMED.\n",
                                    "0 listed or shown, 2 bad input",
                                    0,
                                    NULL,
                                    TF_OPERANDS_MACHINES};

static int run(int argc, char **argv) {
  tf_args a;
  tf_error err;
  tf_args_init(&a);
  tf_error_init(&err);
  int rc = tf_cli_start(&tf_cmd_machines, argc, argv, &a);
  if (rc == TF_CLI_GO) {
    size_t nshipped = 0, n;
    char **names = a.npositional ? NULL : tf_catalog_list(TF_CATALOG_MACHINES, &nshipped);
    n = a.npositional ? (size_t)a.npositional : nshipped;
    tf_machine **m = calloc(n + 1, sizeof *m);
    FILE *f = tf_cli_out(&a);
    int json = a.format == TF_FORMAT_JSON;
    if (!m || load_all(&a, m, names, n, &err))
      rc = m ? tf_cli_fail(&err) : TF_EXIT_INTERNAL;
    else if (a.unconfirmed)
      unconfirmed(f, json, m, n), rc = TF_EXIT_OK;
    else if (!a.npositional)
      list(f, json, m, names, n), rc = TF_EXIT_OK;
    else if (n == 1)
      (json ? tf_machine_write_json : show_text)(f, m[0]), rc = TF_EXIT_OK;
    else
      (json ? compare_json : compare_text)(f, m, n), rc = TF_EXIT_OK;
    rc = tf_cli_finish(&a, rc);
    for (size_t i = 0; m && i < n; i++)
      tf_machine_free(m[i]);
    free(m);
    tf_catalog_list_free(names, nshipped);
  }
  tf_args_release(&a);
  return rc;
}
