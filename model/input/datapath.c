/* The machine's `mma` and `edges` tables (datapath.h).  Strict like the
 * rest of the machine loader: unknown keys, wrong types, unknown memories
 * and duplicate names are errors with the JSON path. */
#include "model/input/datapath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/input/json_read.h"
#include "model/input/memory_kind.h"

const char *const tf_mma_operand_names[TF_MMA_NOPERANDS] = {"A", "B", "D"};

static const char *const mma_keys[] = {"M", "A", "B", "D", "k_major_only_below_bits", "smem_operands", NULL};
static const char *const mma_required[] = {"M", "A", "B", "D", NULL};
static const char *const edge_keys[] = {"bytes_per_clk", "port", NULL};
/* The ends an edge may join: the memories, and the places bytes come from
 * or go to that are not a CTA's memory. */
/* An edge's ends: HBM, L2, each memory kind (TF_MEMORIES) and the MMA unit. */
#define EDGE_END(e, n, u, r) n,
static const char *const edge_ends[] = {"hbm", "l2", TF_MEMORIES(EDGE_END) "mma", NULL};

/* $.TABLE.KEY, or $.TABLE['KEY'] when the key is not an identifier
 * ("mma.sync", "hbm->smem"), as the sources' paths are written. */
static void entry_path(char *buf, size_t size, const char *table, const char *key) {
  int plain = 1;
  for (const char *k = key; *k; k++)
    plain &= (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_';
  snprintf(buf, size, plain ? "$.%s.%.64s" : "$.%s['%.64s']", table, key);
}

/* [a-z0-9._]+, at most 31 characters: an instruction's name. */
static int good_name(const char *s) {
  size_t n = strlen(s);
  if (!n || n > 31)
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '.' || *s == '_'))
      return 0;
  return 1;
}

/* A non-empty array of memory names, each at most once, into a bit set. */
static int read_sources(const cJSON *a, const char *path, int has_tmem, unsigned *out, tf_error *err) {
  if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
    return tf_error_set(err, TF_EINPUT, path, "expected a non-empty array of memories (%s)", TF_MEMORY_LIST(", "));
  const cJSON *v;
  size_t i = 0;
  *out = 0;
  cJSON_ArrayForEach(v, a) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, i++);
    const char *s;
    if (tf_json_string(v, sub, &s, err))
      return -1;
    int m = tf_memory_find(s);
    if (m < 0)
      return tf_error_set(err, TF_EINPUT, sub, "unknown memory '%.40s' (expected %s)", s, TF_MEMORY_LIST(" or "));
    if (m == TF_MEM_TMEM && !has_tmem)
      return tf_error_set(err, TF_EINPUT, sub, "tmem, but this machine has no 'tmem' object");
    if (*out & (1u << m))
      return tf_error_set(err, TF_EINPUT, sub, "'%s' listed twice", s);
    *out |= 1u << m;
  }
  return 0;
}

static int read_mma(const cJSON *e, const char *path, int has_tmem, tf_mma_inst *inst, tf_error *err) {
  if (tf_json_keys(e, path, mma_keys, mma_required, err))
    return -1;
  char sub[160];
  tf_path_key(sub, sizeof sub, path, "M");
  if (tf_json_int(tf_json_member(e, "M"), sub, 1, 1024, &inst->m, err))
    return -1;
  for (int k = 0; k < TF_MMA_NOPERANDS; k++) {
    tf_path_key(sub, sizeof sub, path, tf_mma_operand_names[k]);
    if (read_sources(tf_json_member(e, tf_mma_operand_names[k]), sub, has_tmem, &inst->sources[k], err))
      return -1;
  }
  const cJSON *km = tf_json_member(e, "k_major_only_below_bits");
  tf_path_key(sub, sizeof sub, path, "k_major_only_below_bits");
  if (km && tf_json_int(km, sub, 1, 64, &inst->k_major_only_below_bits, err))
    return -1;
  const cJSON *so = tf_json_member(e, "smem_operands");
  const char *s;
  tf_path_key(sub, sizeof sub, path, "smem_operands");
  return so ? tf_json_string(so, sub, &s, err) : 0;
}

static int read_mma_table(const cJSON *t, int has_tmem, tf_datapath *dp, tf_error *err) {
  if (!cJSON_IsObject(t))
    return tf_error_set(err, TF_EINPUT, "$.mma", "expected an object of instructions");
  const cJSON *e;
  cJSON_ArrayForEach(e, t) {
    char path[160];
    entry_path(path, sizeof path, "mma", e->string);
    if (!good_name(e->string))
      return tf_error_set(err, TF_EINPUT, path, "instruction names match [a-z0-9._]{1,31}");
    if (dp->nmma == TF_MAX_MMA)
      return tf_error_set(err, TF_EINPUT, path, "at most %d instructions", TF_MAX_MMA);
    tf_mma_inst *inst = &dp->mma[dp->nmma];
    if (read_mma(e, path, has_tmem, inst, err))
      return -1;
    inst->name = tf_strdup(e->string);
    dp->nmma++;
  }
  return 0;
}

/* "X->Y" with both ends in edge_ends and X != Y except smem->smem (DSMEM). */
static int good_edge(const char *s) {
  const char *arrow = strstr(s, "->");
  if (!arrow)
    return 0;
  int from = 0, to = 0;
  for (const char *const *e = edge_ends; *e; e++) {
    size_t n = strlen(*e);
    from |= n == (size_t)(arrow - s) && !strncmp(s, *e, n);
    to |= !strcmp(arrow + 2, *e);
  }
  return from && to;
}

static int read_edge(const cJSON *e, const char *path, tf_edge *edge, tf_error *err) {
  if (tf_json_keys(e, path, edge_keys, NULL, err))
    return -1;
  const cJSON *rate = tf_json_member(e, "bytes_per_clk"), *port = tf_json_member(e, "port");
  if (!rate == !port)
    return tf_error_set(err, TF_EINPUT, path, "expected exactly one of 'bytes_per_clk' and 'port'");
  char sub[160];
  if (port) {
    tf_path_key(sub, sizeof sub, path, "port");
    if (!cJSON_IsString(port) || strcmp(port->valuestring, "smem"))
      return tf_error_set(err, TF_EINPUT, sub, "expected \"smem\" (the one shared port)");
    edge->kind = TF_EDGE_PORT;
    return 0;
  }
  tf_path_key(sub, sizeof sub, path, "bytes_per_clk");
  if (cJSON_IsString(rate) && !strcmp(rate->valuestring, "derived")) {
    edge->kind = TF_EDGE_DERIVED;
    return 0;
  }
  if (cJSON_IsString(rate) && !strcmp(rate->valuestring, "unmetered")) {
    edge->kind = TF_EDGE_UNMETERED;
    return 0;
  }
  if (!cJSON_IsNumber(rate))
    return tf_error_set(err, TF_EINPUT, sub, "expected a positive integer, \"derived\" or \"unmetered\"");
  edge->kind = TF_EDGE_RATE;
  return tf_json_int(rate, sub, 1, (int64_t)1 << 40, &edge->bytes_per_clk, err);
}

static int read_edge_table(const cJSON *t, tf_datapath *dp, tf_error *err) {
  if (!cJSON_IsObject(t))
    return tf_error_set(err, TF_EINPUT, "$.edges", "expected an object of edges");
  const cJSON *e;
  cJSON_ArrayForEach(e, t) {
    char path[160];
    entry_path(path, sizeof path, "edges", e->string);
    if (!good_edge(e->string))
      return tf_error_set(err, TF_EINPUT, path, "expected an edge FROM->TO over hbm, l2, smem, tmem, rf, mma");
    if (!strncmp(e->string, "hbm->", 5) && strcmp(e->string, "hbm->smem"))
      return tf_error_set(err, TF_EINPUT, path, "HBM feeds SMEM only (hbm->smem)");
    if (dp->nedges == TF_MAX_EDGES)
      return tf_error_set(err, TF_EINPUT, path, "at most %d edges", TF_MAX_EDGES);
    tf_edge *edge = &dp->edges[dp->nedges];
    if (read_edge(e, path, edge, err))
      return -1;
    if (edge->kind == TF_EDGE_DERIVED && strcmp(e->string, "hbm->smem"))
      return tf_error_set(err, TF_EINPUT, path, "only hbm->smem has a derived rate (from hbm_gbps)");
    edge->name = tf_strdup(e->string);
    dp->nedges++;
  }
  return 0;
}

int tf_datapath_read(const cJSON *root, int has_tmem, tf_datapath *dp, tf_error *err) {
  const cJSON *mma = tf_json_member(root, "mma"), *edges = tf_json_member(root, "edges");
  if (mma && read_mma_table(mma, has_tmem, dp, err))
    return -1;
  return edges ? read_edge_table(edges, dp, err) : 0;
}

const tf_mma_inst *tf_datapath_mma(const tf_datapath *dp, const char *name) {
  for (int i = 0; i < dp->nmma; i++)
    if (!strcmp(dp->mma[i].name, name))
      return &dp->mma[i];
  return NULL;
}

const tf_edge *tf_datapath_edge(const tf_datapath *dp, const char *name) {
  for (int i = 0; i < dp->nedges; i++)
    if (!strcmp(dp->edges[i].name, name))
      return &dp->edges[i];
  return NULL;
}

int tf_datapath_names_source(const tf_datapath *dp, const char *dotted) {
  if (!strncmp(dotted, "mma.", 4))
    return tf_datapath_mma(dp, dotted + 4) != NULL;
  if (!strncmp(dotted, "edges.", 6))
    return tf_datapath_edge(dp, dotted + 6) != NULL;
  return 0;
}

int tf_datapath_unsourced(const tf_datapath *dp, int (*has)(const void *ctx, const char *dotted), const void *ctx,
                          char *buf, size_t size) {
  for (int i = 0; i < dp->nmma; i++) {
    snprintf(buf, size, "mma.%s", dp->mma[i].name);
    if (!has(ctx, buf))
      return 1;
  }
  for (int i = 0; i < dp->nedges; i++) {
    snprintf(buf, size, "edges.%s", dp->edges[i].name);
    if (!has(ctx, buf))
      return 1;
  }
  return 0;
}

void tf_datapath_release(tf_datapath *dp) {
  for (int i = 0; i < dp->nmma; i++)
    free(dp->mma[i].name);
  for (int i = 0; i < dp->nedges; i++)
    free(dp->edges[i].name);
  dp->nmma = dp->nedges = 0;
}
