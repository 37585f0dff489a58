/* emit --for cute-dsl, triton and fa: the arguments of the kernels the
 * CuTe DSL, Triton and FlashAttention worksets model, in the form their
 * sources take them.  Which workset a writer takes is a row of its table. */
#include "emit.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind/place_bind.h"
#include "model/core/alloc.h"
#include "model/core/suggest.h"
#include "solver/emit/fragment.h"

static int64_t v(const tf_problem *p, const tf_answer *a, const char *name) {
  int64_t x = 0;
  tf_fragment_value(p, a, name, &x);
  return x;
}

/* Is placed buffer `buf` in memory `mem` ("rf") in the answer? */
static int placed_in(const tf_problem *p, const tf_answer *a, const char *buf, const char *mem) {
  for (size_t k = 0; k < tf_place_count(p); k++) {
    size_t i = tf_place_var(p, k);
    if (!strcmp(p->choose_names[i], buf))
      return !strcmp(tf_memory_name(tf_place_memory(p, i, a->choose[i])), mem);
  }
  return 0;
}

static const char *py_bool(int b) { return b ? "True" : "False"; }
static const char *cxx_bool(int b) { return b ? "true" : "false"; }

/* The workset a writer takes, named in the error when it is not. */
static int expect(const tf_problem *p, const char *target, const char *const *names, tf_error *err) {
  char list[256] = "";
  for (size_t i = 0; names[i]; i++) {
    if (!strcmp(p->workset->name, names[i]))
      return (int)i;
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
  }
  return tf_error_set(err, TF_EINPUT, "@for", "%s writes for the worksets %s; '%s' is not one of them", target, list,
                      p->workset->name);
}

/* ------------------------------------------------------------ CuTe DSL */

static const char *dtype_of(int64_t bits) {
  return bits == 16   ? "cutlass.Float16"
         : bits == 8  ? "cutlass.Float8E4M3FN"
         : bits == 32 ? "cutlass.TFloat32"
                      : "cutlass.Float16";
}

static void cute_sm90(FILE *f, const tf_problem *p, const tf_answer *a) {
  int persistent = v(p, a, "persistent") != 0;
  fprintf(f, "# examples/python/CuTeDSL/cute/hopper/kernel/dense_gemm/%s.py (a_dtype %s)\n",
          persistent ? "dense_gemm_persistent" : "dense_gemm", dtype_of(v(p, a, "ab_bits")));
  fprintf(f,
          "kwargs = dict(\n    acc_dtype=cutlass.Float32,\n    tile_shape_mn=(%lld, %lld),\n"
          "    cluster_shape_mn=(1, 1),\n)\n",
          (long long)v(p, a, "tile_m"), (long long)v(p, a, "tile_n"));
  fprintf(f, "# what the example's _compute_stages derives at this tile (tile K %lld)\nstages = dict(ab_stage=%lld)\n",
          (long long)v(p, a, "tile_k"), (long long)v(p, a, "ab_stage"));
}

static void cute_sm100(FILE *f, const tf_problem *p, const tf_answer *a) {
  int persistent = v(p, a, "persistent") != 0, two = v(p, a, "cta_group") == 2;
  fprintf(f, "# examples/python/CuTeDSL/cute/blackwell/kernel/dense_gemm/%s.py: %s (a_dtype %s)\n",
          persistent ? "dense_gemm_persistent" : "dense_gemm",
          persistent ? "PersistentDenseGemmKernel" : "DenseGemmKernel", dtype_of(v(p, a, "ab_bits")));
  fprintf(f,
          "kwargs = dict(\n    acc_dtype=cutlass.Float32,\n    use_2cta_instrs=%s,\n    mma_tiler_mn=(%lld, %lld),\n"
          "    cluster_shape_mn=(%d, 1),\n    use_tma_store=True,\n)\n",
          py_bool(two), (long long)v(p, a, "mma_m"), (long long)v(p, a, "mma_n"), two ? 2 : 1);
  fprintf(
      f,
      "# what the example's _compute_stages derives at this tile\nstages = dict(num_ab_stage=%lld, num_c_stage=%lld)\n",
      (long long)v(p, a, "ab_stage"), (long long)v(p, a, "c_stage"));
}

static void cute_sm120(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "# examples/python/CuTeDSL/cute/blackwell_geforce/kernel/dense_gemm/dense_gemm.py (a_dtype %s)\n",
          dtype_of(v(p, a, "ab_bits")));
  fprintf(f, "kwargs = dict(\n    acc_dtype=cutlass.Float32,\n    tile_shape_mnk=(%lld, %lld, %lld),\n)\n",
          (long long)v(p, a, "tile_m"), (long long)v(p, a, "tile_n"), (long long)v(p, a, "tile_k"));
  fprintf(f, "# what the example's _compute_stages derives at this tile\nstages = dict(ab_stage=%lld)\n",
          (long long)v(p, a, "ab_stage"));
}

int tf_emit_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err) {
  static const char *const names[] = {"cutedsl-sm90-gemm", "cutedsl-sm100-gemm", "cutedsl-sm120-gemm", NULL};
  static void (*const write[])(FILE *, const tf_problem *, const tf_answer *) = {cute_sm90, cute_sm100, cute_sm120};
  int w = expect(p, "cute-dsl", names, err);
  if (w < 0)
    return -1;
  for (int i = 0; i < n; i++) {
    fputs(i ? "\n" : "", f);
    tf_fragment_provenance(f, "# ", p, &a[i], 1);
    fputs(i ? "" : "import cutlass\n\n", f);
    write[w](f, p, &a[i]);
  }
  return 0;
}

/* --------------------------------------------------------------- Triton */

/* What emit --for triton solves under for triton-matmul, beyond fitting:
 * no more stages than the K loop has iterations (k_iters, the kernel's
 * cdiv(K, BLOCK_K)), and nothing early_config_prune's estimate would drop
 * (prune_estimate: (BLOCK_M + BLOCK_N) x BLOCK_K x num_stages x bytes
 * against max_shared_mem; the workset cites it).  Its second step keeps,
 * per tile and num_warps, the two stage counts nearest a latency optimum:
 * one config per tile, as written here, is always kept. */
static const char *const triton_requires[] = {"num_stages <= k_iters", "prune_estimate <= smem_capacity", NULL};

const char *const *tf_emit_triton_requires(const tf_problem *p) {
  return !strcmp(p->workset->name, "triton-matmul") ? triton_requires : NULL;
}

/* One key of a config's dict: a choose variable's value (var >= 0) or a
 * constant. */
typedef struct triton_key {
  char name[64];
  long var;
  int64_t value;
} triton_key;

/* The tutorial's matmul_kernel takes GROUP_SIZE_M, 8 in each of its CUDA
 * configs (triton-lang/triton @ 7649d87cce6c12361bb9da234b9b227b2880b499,
 * python/tutorials/03-matrix-multiplication.py, get_cuda_autotune_config);
 * its block sizes are prune's BLOCK_SIZE_* spellings (solver/prune.h).
 * A workset param of that name (triton-matmul's, which its time reads)
 * gives the value instead. */
static triton_key tutorial_group(const tf_problem *p) {
  triton_key k = {"GROUP_SIZE_M", -1, 8};
  for (size_t i = 0; i < p->workset->nparams; i++)
    if (!strcmp(p->workset->params[i].name, k.name))
      k.value = p->param_values[i];
  return k;
}

/* A name a constant key may take: one the workset does not define, or
 * one of its params (the key then carries a value the kernel reads). */
static int free_for_constant(const tf_problem *p, const char *name) {
  int sym = tf_workset_resolve(p->workset, name);
  return sym < 0 || tf_workset_sym_kind(p->workset, sym) == TF_SYM_PARAM;
}

/* triton.Config's own keywords: a kwargs key of one of these names would
 * collide with them in Config.all_kwargs. */
static const char *const config_keywords[] = {"num_stages", "num_warps",   "num_ctas", "maxnreg",
                                              "pre_hook",   "ir_override", NULL};

static int is_identifier(const char *s) {
  if (!*s || strlen(s) >= sizeof((triton_key *)0)->name || isdigit((unsigned char)*s))
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return 0;
  return 1;
}

static long choose_index(const tf_problem *p, const char *name) {
  for (size_t i = 0; i < tf_place_nnumeric(p); i++)
    if (!strcmp(p->choose_names[i], name))
      return (long)i;
  return -1;
}

/* VAR=KEY renames a variable, KEY=INTEGER adds a constant key. */
static int apply_key(const tf_problem *p, const tf_prune_pair *k, triton_key *out, int *n, tf_error *err) {
  long var = choose_index(p, k->from);
  char *end;
  errno = 0;
  long long x = strtoll(k->to, &end, 10);
  if (var >= 0 && is_identifier(k->to)) {
    snprintf(out[var].name, sizeof out[var].name, "%s", k->to);
    return 0;
  }
  if (var < 0 && !*end && end != k->to && !errno && is_identifier(k->from) && free_for_constant(p, k->from)) {
    triton_key c = {"", -1, x};
    snprintf(c.name, sizeof c.name, "%s", k->from);
    out[(*n)++] = c;
    return 0;
  }
  if (var >= 0)
    return tf_error_set(err, TF_EINPUT, k->where, "%s=%s: expected a Python identifier for %s's key", k->from, k->to,
                        k->from);
  const char *names[64] = {NULL};
  size_t nnames = tf_place_nnumeric(p) < 64 ? tf_place_nnumeric(p) : 64;
  for (size_t i = 0; i < nnames; i++)
    names[i] = p->choose_names[i];
  const char *near = tf_suggest(k->from, names, nnames);
  return tf_error_set(err, TF_EINPUT, k->where,
                      "%s=%s: '%s' is not a choose variable of %s%s%s%s (VAR=KEY writes a variable as KEY, "
                      "NEWKEY=INTEGER adds a constant key)",
                      k->from, k->to, k->from, p->workset->name, near ? "; did you mean '" : "", near ? near : "",
                      near ? "'?" : "");
}

/* The keys every config of the list has, in order: the choose variables
 * (tutorial spellings, or as --key renames them), then the constants. */
static int triton_keys(const tf_problem *p, const tf_prune_map *keys, triton_key *out, int *n, tf_error *err) {
  int tutorial = !keys || !keys->n;
  *n = (int)tf_place_nnumeric(p);
  for (size_t i = 0; i < tf_place_nnumeric(p); i++) {
    const char *t = tutorial ? tf_prune_triton_spelling(p->choose_names[i]) : NULL;
    snprintf(out[i].name, sizeof out[i].name, "%s", t ? t : p->choose_names[i]);
    out[i].var = (long)i;
  }
  if (tutorial)
    out[(*n)++] = tutorial_group(p);
  for (size_t i = 0; !tutorial && i < keys->n; i++)
    if (apply_key(p, &keys->pairs[i], out, n, err))
      return -1;
  for (int i = 0; i < *n; i++) {
    for (size_t j = 0; config_keywords[j]; j++)
      if (!strcmp(out[i].name, config_keywords[j]))
        return tf_error_set(err, TF_EINPUT, keys ? keys->pairs[0].where : "@key",
                            "'%s' is triton.Config's own keyword, not a key of its dict", out[i].name);
    for (int j = 0; j < i; j++)
      if (!strcmp(out[i].name, out[j].name))
        return tf_error_set(err, TF_EINPUT, keys ? keys->pairs[0].where : "@key", "key '%s' written twice",
                            out[i].name);
  }
  return 0;
}

/* One triton.Config: its dict, num_stages and num_warps as its keywords
 * (num_warps: the workset's own, else 4, Triton's default; no shipped
 * workset constrains it). */
static void triton_config(FILE *f, const tf_problem *p, const tf_answer *a, const triton_key *k, int n) {
  fputs("    triton.Config({", f);
  for (int i = 0; i < n; i++)
    fprintf(f, "%s'%s': %lld", i ? ", " : "", k[i].name, (long long)(k[i].var >= 0 ? a->choose[k[i].var] : k[i].value));
  int64_t warps = 4;
  tf_fragment_value(p, a, "num_warps", &warps);
  fprintf(f, "}, num_stages=%lld, num_warps=%lld),  # ", (long long)v(p, a, "num_stages"), (long long)warps);
  tf_fragment_bytes(f, p, a);
  fputc('\n', f);
}

/* Under the provenance: whose keys these are, and how prune reads them
 * back when they are not the tutorial's. */
static void triton_keys_comment(FILE *f, const tf_problem *p, const triton_key *k, int n, int tutorial) {
  if (tutorial) {
    fputs("# keys: the tutorial's matmul_kernel (python/tutorials/03-matrix-multiplication.py); "
          "--key VAR=KEY for your kernel's\n",
          f);
    return;
  }
  int renamed = 0;
  for (int i = 0; i < n; i++)
    if (k[i].var >= 0 && strcmp(k[i].name, p->choose_names[k[i].var]) && !renamed++)
      fputs("# read back: tilefit prune --map ", f);
  for (int i = 0, j = 0; renamed && i < n; i++)
    if (k[i].var >= 0 && strcmp(k[i].name, p->choose_names[k[i].var]))
      fprintf(f, "%s%s=%s", j++ ? "," : "", k[i].name, p->choose_names[k[i].var]);
  if (renamed)
    fputc('\n', f);
}

int tf_emit_write_triton(FILE *f, const tf_problem *p, const tf_answer *a, int n, const tf_prune_map *keys,
                         tf_error *err) {
  static const char *const names[] = {"triton-matmul", NULL};
  if (expect(p, "triton", names, err) < 0)
    return -1;
  triton_key *k = tf_nalloc(tf_place_nnumeric(p) + (keys ? keys->n : 0) + 1, sizeof *k);
  int nk = 0;
  if (triton_keys(p, keys, k, &nk, err)) {
    free(k);
    return -1;
  }
  tf_fragment_provenance(f, "# ", p, a, n);
  triton_keys_comment(f, p, k, nk, !keys || !keys->n);
  int64_t warps;
  if (tf_fragment_value(p, a, "num_warps", &warps))
    fputs("# num_warps: 4, Triton's default; the workset does not constrain it\n", f);
  fputs("import triton\n\nconfigs = [\n", f);
  for (int i = 0; i < n; i++)
    triton_config(f, p, &a[i], k, nk);
  fputs("]\n", f);
  free(k);
  return 0;
}

/* ------------------------------------------------------- FlashAttention */

static void fa2(FILE *f, const tf_problem *p, const tf_answer *a) {
  int q_regs = placed_in(p, a, "Q", "rf");
  int64_t share = q_regs; /* the workset's own switch when it has one */
  tf_fragment_value(p, a, "share_q_k_smem", &share);
  fprintf(f, "// csrc/flash_attn/src/kernel_traits.h: <kHeadDim, kBlockM, kBlockN, kNWarps, Is_Q_in_regs, "
             "Share_Q_K_smem, elem_type>\n");
  fprintf(f, "using Kernel_traits = Flash_fwd_kernel_traits<%lld, %lld, %lld, %lld, %s, %s, %s>;\n",
          (long long)v(p, a, "d_pad"), (long long)v(p, a, "B_r"), (long long)v(p, a, "B_c"),
          (long long)(v(p, a, "threads") / 32), cxx_bool(q_regs), cxx_bool(share != 0),
          v(p, a, "in_bits") == 16 ? "cutlass::half_t" : "cutlass::float_e4m3_t");
}

static void fa3(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f,
          "// hopper/tile_size.h tile_size_fwd_sm90 -> {kBlockM, kBlockN, MmaPV_is_RS, IntraWGOverlap}; "
          "kStages %lld\n",
          (long long)v(p, a, "stages"));
  fprintf(f, "return {%lld, %lld, %s, %s};\n", (long long)v(p, a, "B_r"), (long long)v(p, a, "B_c"),
          cxx_bool(placed_in(p, a, "P", "rf")), cxx_bool(v(p, a, "intra_wg_overlap") != 0));
}

static void fa4(FILE *f, const tf_problem *p, const tf_answer *a) {
  fprintf(f, "# flash_attn/cute/flash_fwd_sm100.py FlashAttentionForwardSm100\n");
  fprintf(f,
          "kwargs = dict(\n    head_dim=%lld,\n    head_dim_v=%lld,\n    m_block_size=%lld,\n    n_block_size=%lld,\n"
          "    q_stage=%lld,\n    use_2cta_instrs=%s,\n)\n",
          (long long)v(p, a, "d"), (long long)v(p, a, "dv"), (long long)v(p, a, "B_r"), (long long)v(p, a, "B_c"),
          (long long)v(p, a, "q_stage"), py_bool(v(p, a, "cta_group") == 2));
  fprintf(f, "# the K/V ring _setup_attributes derives at this tile\nkv_stage = %lld\n", (long long)v(p, a, "stages"));
}

int tf_emit_write_fa(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err) {
  static const char *const names[] = {"fa2-fwd", "fa3-fwd", "fa4-fwd", NULL};
  static void (*const write[])(FILE *, const tf_problem *, const tf_answer *) = {fa2, fa3, fa4};
  int w = expect(p, "fa", names, err);
  if (w < 0)
    return -1;
  for (int i = 0; i < n; i++) {
    fputs(i ? "\n" : "", f);
    tf_fragment_provenance(f, w == 2 ? "# " : "// ", p, &a[i], 1);
    write[w](f, p, &a[i]);
  }
  return 0;
}
