#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/memory.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/json_out.h"
#include "model/core/text.h"
#include "model/formats/configs.h"
#include "model/input/show.h"
#include "solver/cli/command.h"
#include "solver/cli/fail.h"
#include "solver/cli/frame.h"
#include "solver/cli/options.h"
#include "solver/prune.h"
#include "solver/report.h"

static int run(int argc, char **argv);

const tf_command tf_cmd_prune = {"prune",
                                 TF_CMD_PRUNE,
                                 run,
                                 "which configurations of a list fit, and by how much the others do not",
                                 "-m MACHINE -w WORKSET CONFIGS",
                                 1,
                                 "Checks every configuration of CONFIGS before launch: JSON Lines or a JSON\n"
                                 "array of objects such as {\"BLOCK_M\": 128, \"BLOCK_N\": 256, \"BLOCK_K\": 64,\n"
                                 "\"num_stages\": 4} (Triton's autotune configs; a nested \"kwargs\" is read as\n"
                                 "flat), Python triton.Config({...}, num_stages=N, num_warps=W) calls as an\n"
                                 "autotune list writes them (emit --for triton), or CUTLASS library kernel\n"
                                 "names, one a line (each binds its own workset; -w is not needed; the older\n"
                                 "s64x128x16gemm form and the mangled _ZN7cutlass13device_kernelI... are read\n"
                                 "too; with -m, a name for another architecture is skipped and counted).  Keys\n"
                                 "map onto the workset's variables and params by name, or through --map;\n"
                                 "other keys are ignored and listed.\n"
                                 "Prints for each whether it fits and, if not, how many bytes over in which\n"
                                 "memory: what Triton's \"Required: X, Hardware limit: Y\" would say.  A line\n"
                                 "that cannot be checked is an error line with its line number; the list goes on.\n"
                                 "--keep prints only the configurations that fit, in the input's own form.\n",
                                 "0 the list was read (whatever fits), 2 bad input, 3 internal failure",
                                 1,
                                 "a CONFIGS file",
                                 TF_OPERANDS_FILES};

typedef struct prune_run {
  tf_args args;
  tf_prune_map map;
  tf_prune_batch batch;
  tf_error err;
} prune_run;

static int fits(const tf_pruned *v) { return !v->error[0] && tf_pruned_fits(v); }

/* The memory to report: the first that overflows, else SMEM when the
 * workset uses it, else the first in use; its row as every writer shows
 * it (tf_memory_report). */
static tf_memory_row shown_memory(const tf_pruned *v, int *mem) {
  const tf_problem *p = v->problem;
  const tf_point *pt = &v->answer.point;
  int m = tf_memory_over(p, pt->choose, pt->used);
  for (int k = 0; k < TF_NMEM && m < 0; k++)
    if (tf_memory_in_use(p, k) && (k == TF_MEM_SMEM || !tf_memory_in_use(p, TF_MEM_SMEM)))
      m = k;
  *mem = m < 0 ? TF_MEM_SMEM : m;
  return tf_memory_report(p, *mem, pt->choose, pt->used);
}

/* "fits    smem  230496 of 232448 B" and the overflow, if any. */
static void text_verdict(FILE *f, const tf_pruned *v) {
  int m;
  tf_memory_row r = shown_memory(v, &m);
  char over[48] = "";
  if (r.slack < 0)
    snprintf(over, sizeof over, ", %lld over", (long long)(r.used - r.capacity));
  fprintf(f, "%-7s %s %7lld of %lld %s%-14s", fits(v) ? "fits" : "no fit", tf_memory_name(m), (long long)r.used,
          (long long)r.capacity, tf_memory_unit(m), over);
}

/* "mma_version 3, ab_buffers 3  ": the workset's shown lets (model/input/show.h). */
static void text_shown(FILE *f, const tf_pruned *v) {
  if (!v->problem->workset->nshow)
    return;
  tf_report_shown_list(f, v->problem, &v->answer);
  fputc(' ', f); /* the configuration follows after one more */
}

/* A kernel name's line also says what it bound and the stage count. */
static void text_binding(FILE *f, const tf_pruned *v) {
  const tf_problem *p = v->problem;
  for (int k = 0; k < p->ncounts; k++)
    if (!strcmp(p->count_names[k], "stages"))
      fprintf(f, "stages %-3lld ", (long long)v->answer.point.counts[k]);
  fprintf(f, "%s/%s  ", p->workset->name, p->machine->name);
}

/* "(1 error, 2 skipped: architecture)" after the header's count. */
static void text_counts(FILE *f, const tf_prune_batch *b) {
  if (b->nerror && b->nskipped)
    fprintf(f, " (%zu error%s, %zu skipped: architecture)", b->nerror, b->nerror == 1 ? "" : "s", b->nskipped);
  else if (b->nerror)
    fprintf(f, " (%zu error%s)", b->nerror, b->nerror == 1 ? "" : "s");
  else if (b->nskipped)
    fprintf(f, " (%zu skipped: architecture)", b->nskipped);
  fputc('\n', f);
}

static void write_text(FILE *f, const prune_run *r) {
  const tf_prune_batch *b = &r->batch;
  int names = b->list.form == TF_CONFIGS_NAMES;
  if (names)
    fprintf(f, "CUTLASS kernels: %zu of %zu fit", b->nfit, b->list.n);
  else
    fprintf(f, "%s on %s: %zu of %zu configurations fit", b->loaded.workset->name, b->loaded.machine->name, b->nfit,
            b->list.n);
  text_counts(f, b);
  const char *rule = names ? NULL : tf_workset_rule(b->loaded.workset, b->loaded.machine);
  if (rule)
    fprintf(f, "rule: %s\n", rule);
  for (size_t i = 0; i < b->list.n; i++) {
    const tf_pruned *v = &b->verdicts[i];
    fprintf(f, "  %-9s ", b->list.items[i].where);
    if (v->error[0]) {
      fprintf(f, "%-7s %s\n  %-9s %s\n", v->skipped ? "skipped" : "error", b->list.items[i].text, "", v->error);
      continue;
    }
    text_verdict(f, v);
    text_shown(f, v);
    if (names)
      text_binding(f, v);
    fprintf(f, " %s\n", b->list.items[i].text);
    int m;
    if (!fits(v) && v->answer.why[0] && shown_memory(v, &m).slack >= 0)
      fprintf(f, "  %-9s %s\n", "", v->answer.why);
  }
  char keys[sizeof b->ignored];
  if (b->ignored[0])
    fprintf(stderr, "tilefit: prune: ignored keys that name no variable or param of %s: %s\n",
            names ? "their worksets" : b->loaded.workset->name, tf_escape(keys, sizeof keys, b->ignored));
}

/* The keys of the configurations, each once, in the order they first
 * appear (kwargs flattened): one CSV column each. */
static const char **csv_keys(const tf_config_list *l, size_t *n) {
  size_t cap = 1;
  for (size_t i = 0; i < l->n; i++)
    cap += l->items[i].nvalues;
  const char **keys = tf_nalloc(cap, sizeof *keys);
  *n = 0;
  for (size_t i = 0; i < l->n; i++)
    for (size_t j = 0; j < l->items[i].nvalues; j++) {
      const char *k = l->items[i].values[j].name;
      size_t seen = 0;
      while (seen < *n && strcmp(keys[seen], k))
        seen++;
      if (seen == *n)
        keys[(*n)++] = k;
    }
  return keys;
}

static void csv_key_cells(FILE *f, const tf_config *c, const char **keys, size_t nkeys) {
  for (size_t k = 0; k < nkeys; k++) {
    const tf_assign *a = tf_config_value(c, keys[k]);
    if (a)
      fprintf(f, ",%lld", (long long)a->value);
    else
      fputc(',', f);
  }
}

/* The answer columns of every configuration's problem (solver/report.h):
 * kernel names bind worksets of their own. */
static void csv_columns(const prune_run *r, tf_csv_columns *c) {
  memset(c, 0, sizeof *c);
  if (r->batch.loaded.workset)
    tf_csv_columns_add_workset(c, r->batch.loaded.workset, 0);
  for (size_t i = 0; i < r->batch.list.n; i++)
    if (r->batch.verdicts[i].problem)
      tf_csv_columns_add_problem(c, r->batch.verdicts[i].problem);
}

/* ",config_KEY": distinct from the answer's variable columns of the same name. */
static void name_cell(FILE *f, const char *key) {
  tf_text t;
  FILE *g = tf_text_open(&t);
  fprintf(g, "config_%s", key);
  char *s = tf_text_close(&t, NULL);
  fputc(',', f);
  tf_csv_field(f, s);
  free(s);
}

/* where,config,config_KEY...,fits, then the answer's row as solve --csv writes it
 * after its id (an error line: status error or skipped, the reason why). */
static void write_csv(FILE *f, const prune_run *r) {
  size_t nkeys;
  const char **keys = csv_keys(&r->batch.list, &nkeys);
  tf_csv_columns c;
  csv_columns(r, &c);
  fputs("where,config", f);
  for (size_t k = 0; k < nkeys; k++)
    name_cell(f, keys[k]);
  fputs(",fits,", f);
  tf_csv_columns_write_header(f, &c);
  for (size_t i = 0; i < r->batch.list.n; i++) {
    const tf_pruned *v = &r->batch.verdicts[i];
    tf_csv_field(f, r->batch.list.items[i].where);
    fputc(',', f);
    tf_csv_field(f, r->batch.list.items[i].text);
    csv_key_cells(f, &r->batch.list.items[i], keys, nkeys);
    fprintf(f, ",%s,", fits(v) ? "yes" : "no");
    if (v->error[0])
      tf_csv_columns_error_row(f, &c, &r->args.req, v->problem, v->skipped ? "skipped" : "error", v->error);
    else
      tf_csv_columns_row(f, &c, &r->args.req, v->problem, &v->answer);
  }
  tf_csv_columns_release(&c);
  free(keys);
}

/* The configurations that fit, in the input's own form. */
static void write_kept(FILE *f, const prune_run *r) {
  int array = r->batch.list.form == TF_CONFIGS_ARRAY;
  if (r->batch.list.form == TF_CONFIGS_PYTHON) { /* the calls as written, in a list */
    fputs("import triton\n\nconfigs = [\n", f);
    for (size_t i = 0; i < r->batch.list.n; i++)
      if (fits(&r->batch.verdicts[i]))
        fprintf(f, "    %s,\n", r->batch.list.items[i].source);
    fputs("]\n", f);
    return;
  }
  tf_json_out w; /* a JSON array: the objects that fit, as written, in one */
  tf_json_out_init(&w, f);
  if (array)
    tf_json_out_array(&w);
  for (size_t i = 0; i < r->batch.list.n; i++) {
    const char *text = r->batch.list.items[i].text;
    if (!fits(&r->batch.verdicts[i]))
      continue;
    if (array)
      tf_json_out_raw(&w, text, strlen(text));
    else
      fprintf(f, "%s\n", text); /* a line of the list, as written */
  }
  if (array) {
    tf_json_out_end(&w);
    tf_json_out_line(&w);
  }
}

static int read_list(prune_run *r) {
  const char *file = r->args.positional[0];
  size_t len;
  char *text = tf_read_file(file, &len, &r->err);
  if (!text)
    return -1;
  int rc = tf_configs_parse(text, len, file, &r->batch.list, &r->err);
  free(text);
  if (!rc && r->batch.list.form == TF_CONFIGS_NAMES && r->args.req.workset)
    rc = tf_error_set(&r->err, TF_EINPUT, "-w", "cannot be combined with kernel names, which name their worksets");
  for (int i = 0; !rc && i < r->args.nmaps; i++)
    rc = tf_prune_map_parse(&r->map, r->args.maps[i], "--map", &r->err);
  return rc;
}

static void write_results(FILE *f, const prune_run *r) {
  if (r->args.keep)
    write_kept(f, r);
  else if (r->args.format == TF_FORMAT_JSON)
    tf_prune_batch_json(f, &r->batch), fputc('\n', f); /* the array's line ends */
  else if (r->args.format == TF_FORMAT_CSV)
    write_csv(f, r);
  else if (r->batch.list.n)
    write_text(f, r);
}

static int run(int argc, char **argv) {
  prune_run r;
  memset(&r, 0, sizeof r);
  tf_args_init(&r.args);
  tf_error_init(&r.err);
  tf_prune_batch_init(&r.batch);
  int rc = tf_cli_start(&tf_cmd_prune, argc, argv, &r.args);
  if (rc == TF_CLI_GO) {
    int bad = read_list(&r);
    if (!bad && (bad = tf_prune_batch_run(&r.batch, &r.args.req, &r.map, r.args.time_limit, &r.err)) &&
        !strncmp(r.err.path, "line ", 5))
      tf_error_set_file(&r.err, r.args.positional[0]); /* a configuration's line: in the list's file */
    rc = bad ? tf_cli_fail(&r.err) : TF_EXIT_OK;
    if (rc == TF_EXIT_OK) {
      write_results(tf_cli_out(&r.args), &r);
      rc = tf_cli_finish(&r.args, rc);
    }
  }
  tf_prune_batch_release(&r.batch);
  tf_prune_map_release(&r.map);
  tf_args_release(&r.args);
  return rc;
}
