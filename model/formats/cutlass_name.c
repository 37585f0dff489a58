#include "model/formats/cutlass_name.h"

#include "model/core/alloc.h"
#include "model/core/text.h"
#include "model/formats/cutlass_epilogue.h"
#include "model/formats/cutlass_types.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHERE "@cutlass_name"
#define MAX_PARTS 48

/* A name split at '_' into parts, read left to right. */
typedef struct parts {
  char buf[512];
  char *p[MAX_PARTS];
  int n, at;
} parts;

/* The name inside a mangled cutlass::device_kernel<NAME> (as nsys and
 * ptxas print it: _ZN7cutlass13device_kernelI<length><NAME>EEvNT_6ParamsE;
 * cutlass_library names each kernel type after its procedural name), or
 * the name itself, or the demangled "void cutlass::device_kernel<NAME>(...)";
 * NULL with *err for another mangled symbol. */
/* The name inside the demangled form nsys and ncu print, "void
 * cutlass::device_kernel<NAME>(T1::Params)" (a namespace before NAME and
 * the parameter list are dropped), or NULL when name is not that form. */
static const char *demangled(const char *name, size_t *len) {
  static const char head[] = "cutlass::device_kernel<";
  const char *at = strstr(name, head);
  if (!at || (at != name && strncmp(name, "void ", 5)) || (at != name && at != name + 5))
    return NULL;
  at += sizeof head - 1;
  const char *close = strchr(at, '>');
  if (!close)
    return NULL;
  for (const char *c; (c = strstr(at, "::")) && c < close;) /* (anonymous namespace)::NAME */
    at = c + 2;
  *len = (size_t)(close - at);
  return at;
}

static const char *demangle(const char *name, size_t *len, tf_error *err) {
  static const char prefix[] = "_ZN7cutlass13device_kernelI";
  const char *inner = demangled(name, len);
  if (inner)
    return inner;
  *len = strlen(name);
  if (strncmp(name, "_Z", 2))
    return name;
  if (strncmp(name, prefix, sizeof prefix - 1) || !isdigit((unsigned char)name[sizeof prefix - 1]))
    return tf_error_set(err, TF_EINPUT, WHERE, "a mangled name of cutlass::device_kernel<NAME> (%s<length><NAME>...)",
                        prefix),
           NULL;
  char *end;
  unsigned long long n = strtoull(name + sizeof prefix - 1, &end, 10);
  if (n == 0 || n > strlen(end))
    return tf_error_set(err, TF_EINPUT, WHERE, "the mangled name's length %llu runs past its end", n), NULL;
  *len = (size_t)n;
  return end;
}

static int split(const char *name, parts *s, tf_error *err) {
  size_t len;
  if (!(name = demangle(name, &len, err)))
    return -1;
  if (len >= sizeof s->buf)
    return tf_error_set(err, TF_EINPUT, WHERE, "a kernel name of at most %zu characters", sizeof s->buf - 1);
  memcpy(s->buf, name, len);
  s->buf[len] = 0;
  s->n = s->at = 0;
  /* By hand, not strtok: the library runs in any number of threads. */
  for (char *t = s->buf; *t;) {
    size_t part = strcspn(t, "_");
    if (part) {
      if (s->n == MAX_PARTS)
        return tf_error_set(err, TF_EINPUT, WHERE, "a kernel name of at most %d parts", MAX_PARTS);
      s->p[s->n++] = t;
    }
    t += part;
    if (*t)
      *t++ = '\0';
  }
  return 0;
}

static const char *next(parts *s) { return s->at < s->n ? s->p[s->at++] : NULL; }

/* What a name's architecture maps to: the machine a name without -m runs
 * on and, per operation class (enum tf_cutlass_opclass: tensorop,
 * bstensorop, sptensorop), the shipped workset, or NULL and why such names
 * are refused; `mixed`, when set, refuses A and B of different widths.
 * The architectures a name may have are this table's. */
typedef struct cl_arch {
  int arch;
  const char *machine;
  const char *workset[3], *refused[3];
  const char *mixed;
} cl_arch;

#define CL_SPARSE(sm) "'sptensorop': sparse kernel names are not mapped; use -w cutlass-" sm "-gemm-sparse"
static const cl_arch arches[] = {
    {90,
     "h100-sxm",
     {"cutlass-sm90-gemm", NULL, NULL},
     {NULL, "'bstensorop': SM90 has no block-scaled kernels", CL_SPARSE("sm90")},
     "A and B of different widths: mixed-input names are not mapped; use -w cutlass-sm90-gemm-mixed"},
    {100,
     "b200",
     {"cutlass-sm100-gemm", "cutlass-sm100-gemm-blockscaled", NULL},
     {NULL, NULL, CL_SPARSE("sm100")},
     NULL},
    {103,
     "b300",
     {"cutlass-sm100-gemm", "cutlass-sm100-gemm-blockscaled", NULL},
     {NULL, NULL, CL_SPARSE("sm100")},
     NULL},
    {120,
     "rtx5090",
     {"cutlass-sm120-gemm", "cutlass-sm120-gemm-blockscaled", NULL},
     {NULL, NULL, CL_SPARSE("sm120")},
     NULL},
};
#define NARCHES (sizeof arches / sizeof *arches)

/* The row of architecture `arch` (every parsed name has one). */
static const cl_arch *arch_row(int arch) {
  for (size_t i = 0; i < NARCHES; i++)
    if (arches[i].arch == arch)
      return &arches[i];
  return NULL;
}

/* "smNN" as the architecture of a row, or 0. */
static int arch_of(const char *t) {
  if (!t || strncmp(t, "sm", 2) || !t[2] || strspn(t + 2, "0123456789") != strlen(t + 2) || strlen(t) > 6)
    return 0;
  return arch_row(atoi(t + 2)) ? atoi(t + 2) : 0;
}

/* "an architecture tilefit models: sm90, sm100, sm103 or sm120", from the table. */
static const char *arch_list(char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  tf_strbuf_item(&b, "", "an architecture tilefit models: ");
  for (size_t i = 0; i < NARCHES; i++)
    tf_strbuf_item(&b, i == 0 ? "" : i + 1 == NARCHES ? " or " : ", ", "sm%d", arches[i].arch);
  return buf;
}

static int expected(const char *got, const char *what, tf_error *err) {
  return tf_error_set(err, TF_EINPUT, WHERE, "'%s' where the name should have %s", got ? got : "(end of name)", what);
}

/* cutlass_library's DataTypeNames, as bit widths; 0 for void, -1 for none. */
static int type_bits(const char *t) {
  const tf_cl_type *x = tf_cl_type_named(t);
  return x ? x->bits : -1;
}

/* "128x128x64" -> three positive numbers. */
static int triple(const char *t, int64_t v[3]) {
  char *end;
  const char *at = t;
  for (int i = 0; i < 3; i++) {
    if (!isdigit((unsigned char)*at))
      return -1;
    long long x = strtoll(at, &end, 10);
    if (x <= 0 || x > 65536 || (i < 2 && *end != 'x') || (i == 2 && *end))
      return -1;
    v[i] = x;
    at = end + 1;
  }
  return 0;
}

/* The older procedural name writes the instruction shape into the kind
 * ("s64x128x16gemm": the math letter, MxNxK, then gemm or spgemm); the
 * shape changes no shared memory, so it is read and dropped.  1 when t is
 * one. */
static int old_form_kind(const char *t, tf_cutlass_kernel *k) {
  size_t n = strlen(t), kind = n >= 6 && !strcmp(t + n - 6, "spgemm") ? 6
                               : n >= 4 && !strcmp(t + n - 4, "gemm") ? 4
                                                                      : 0;
  if (!kind)
    return 0;
  char shape[64];
  size_t letters = strspn(t, "abcdefghijklmnopqrstuvwxyz");
  if (n - kind <= letters || n - kind - letters >= sizeof shape)
    return 0;
  memcpy(shape, t + letters, n - kind - letters);
  shape[n - kind - letters] = 0;
  int64_t v[3];
  if (triple(shape, v))
    return 0;
  if (kind == 6)
    k->opclass = TF_CL_SPARSE;
  return 1;
}

static int read_head(parts *s, tf_cutlass_kernel *k, tf_error *err) {
  const char *t = next(s);
  if (t && !strcmp(t, "cutlass"))
    return tf_error_set(err, TF_EINPUT, WHERE,
                        "a CUTLASS 3.x name (cutlass3x_...): 2.x names carry hand-picked stage counts");
  if (!t || strcmp(t, "cutlass3x"))
    return expected(t, "'cutlass3x'", err);
  t = next(s);
  if (!(k->arch = arch_of(t))) {
    char list[128];
    return expected(t, arch_list(list, sizeof list), err);
  }
  t = next(s);
  if (t && !strcmp(t, "tensorop"))
    k->opclass = TF_CL_TENSOROP;
  else if (t && !strcmp(t, "bstensorop"))
    k->opclass = TF_CL_BLOCKSCALED;
  else if (t && !strcmp(t, "sptensorop"))
    k->opclass = TF_CL_SPARSE;
  else
    return expected(t, "an operation class: tensorop, bstensorop or sptensorop", err);
  t = next(s);
  if (t && !strcmp(t, "spgemm"))
    k->opclass = TF_CL_SPARSE;
  else if (t && old_form_kind(t, k))
    ;
  else if (!t || strcmp(t, "gemm"))
    return expected(t, "the operation kind 'gemm' or 'spgemm' (or the older s64x128x16gemm)", err);
  if (s->at < s->n && !strcmp(s->p[s->at], "grouped"))
    k->grouped = 1, s->at++;
  return 0;
}

/* One operand type; block-scaled names write A and B as SFTYPExTYPE. */
static int read_type(parts *s, const char *what, int scaled, int *bits, int *code, tf_error *err) {
  const char *t = next(s);
  char msg[96];
  snprintf(msg, sizeof msg, "the %s type (f16, bf16, e4m3, ...%s)", what, scaled ? " as ue8m0xe2m1" : "");
  if (!t)
    return expected(t, msg, err);
  const char *x = scaled ? strchr(t, 'x') : NULL;
  if (scaled && (!x || type_bits(x + 1) < 0))
    return expected(t, msg, err);
  *bits = type_bits(x ? x + 1 : t);
  if (*bits < 0)
    return expected(t, msg, err);
  *code = tf_cl_type_named(x ? x + 1 : t)->code;
  return 0;
}

static int read_types(parts *s, tf_cutlass_kernel *k, tf_error *err) {
  int scaled = k->opclass == TF_CL_BLOCKSCALED;
  const char *a = s->at < s->n ? s->p[s->at] : "", *b = s->at + 1 < s->n ? s->p[s->at + 1] : "";
  k->fp8 = (!strcmp(a, "e4m3") || !strcmp(a, "e5m2")) && (!strcmp(b, "e4m3") || !strcmp(b, "e5m2"));
  if (read_type(s, "A", scaled, &k->a_bits, &k->a_type, err) ||
      read_type(s, "B", scaled, &k->b_bits, &k->b_type, err) ||
      read_type(s, "accumulator", 0, &k->acc_bits, &k->acc_type, err) ||
      read_type(s, "C", 0, &k->c_bits, &k->c_type, err))
    return -1;
  const char *t = s->at < s->n ? s->p[s->at] : NULL;
  if (t && strchr(t, 'x') && type_bits(strchr(t, 'x') + 1) >= 0)
    return tf_error_set(err, TF_EINPUT, WHERE,
                        "'%s': an output scale factor (block-scaled D) is not modelled; expected a plain D type", t);
  if (read_type(s, "D", 0, &k->d_bits, &k->d_type, err))
    return -1;
  if (k->a_bits == 0 || k->b_bits == 0 || k->d_bits == 0)
    return tf_error_set(err, TF_EINPUT, WHERE, "A, B and D types must not be void");
  t = s->at < s->n ? s->p[s->at] : NULL;
  if (t && (!strcmp(t, "cvt") || !strcmp(t, "scl") || !strcmp(t, "sclzr")))
    return tf_error_set(err, TF_EINPUT, WHERE,
                        "'%s': mixed-input kernel names are not mapped; use -w cutlass-sm90-gemm-mixed with its params",
                        t);
  return 0;
}

static int read_shape(parts *s, tf_cutlass_kernel *k, tf_error *err) {
  int64_t v[3];
  const char *t = next(s);
  if (!t || triple(t, v))
    return expected(t, "the tile shape MxNxK (e.g. 128x128x64)", err);
  k->tile_m = v[0], k->tile_n = v[1], k->tile_k = v[2];
  t = next(s);
  if (!t || triple(t, v))
    return expected(t, "the cluster shape (e.g. 1x1x1)", err);
  k->cluster_m = v[0], k->cluster_n = v[1], k->cluster_k = v[2];
  t = next(s);
  char *end;
  long long st = t && isdigit((unsigned char)*t) ? strtoll(t, &end, 10) : -1;
  if (st < 0 || *end || st > 1024)
    return expected(t, "the stage count (0 for automatic)", err);
  k->stages = st;
  t = next(s);
  if (!t || strlen(t) != 3 || strspn(t, "tn") != 3)
    return expected(t, "the A, B, C layouts (e.g. tnn)", err);
  memcpy(k->layout, t, 4);
  t = next(s);
  if (!t || strncmp(t, "align", 5) || !isdigit((unsigned char)t[5]) || strspn(t + 5, "0123456789") != strlen(t + 5) ||
      strlen(t + 5) > 4 || atoi(t + 5) < 1)
    return expected(t, "the alignment (e.g. align8)", err);
  k->align = atoi(t + 5);
  return 0;
}

/* The first part of a name that no param carries, for emit to refuse. */
static void uncarried(tf_cutlass_kernel *k, const char *fmt, const char *part) {
  if (!k->uncarried[0])
    snprintf(k->uncarried, sizeof k->uncarried, fmt, part);
}

/* The schedule and epilogue suffixes of KernelScheduleSuffixes and
 * EpilogueScheduleSuffixes.  Parts without an effect on shared memory are
 * accepted and ignored, and noted for emit when no param carries them
 * (the stream-K tile scheduler, the cp.async and unspecialized kernels,
 * prefetch and fast-f32 variants). */
static int read_suffix(parts *s, tf_cutlass_kernel *k, tf_error *err) {
  static const char *const carried[] = {"fp8", "o", "q"}; /* fp8_fastaccum; block-scaled forms */
  static const char *const dropped[] = {"stream", "k", "cpasync", "unspecialized", "nopf", "tmapf", "fastf32", "ultra"};
  for (const char *t; (t = next(s));) {
    int known = 0;
    for (size_t i = 0; i < sizeof carried / sizeof carried[0]; i++)
      known |= !strcmp(t, carried[i]);
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
      if (!strcmp(t, dropped[i]))
        known = 1, uncarried(k, "'%s' (its kernel, tile scheduler or variant is not one tilefit writes)", t);
    if (!strcmp(t, "warpspecialized") && k->sched == TF_CL_SCHED_AUTO)
      k->sched = TF_CL_SCHED_WS, k->sched_named = 1;
    else if (!strcmp(t, "cooperative"))
      k->sched = TF_CL_SCHED_COOP, k->sched_named = 1;
    else if (!strcmp(t, "pingpong"))
      k->sched = TF_CL_SCHED_PINGPONG, k->sched_named = 1;
    else if (!strcmp(t, "fastaccum"))
      k->fastaccum = 1;
    else if (!strcmp(t, "1sm") || !strcmp(t, "2sm"))
      k->cta_group = t[0] - '0', k->sched_named = 1;
    else if (!strcmp(t, "vs16") || !strcmp(t, "vs32"))
      k->sf_vec = atoi(t + 2);
    else if (!strcmp(t, "epi")) {
      const char *e = next(s);
      if (!e || (strcmp(e, "tma") && strcmp(e, "nosmem")))
        return expected(e, "an epilogue schedule after 'epi': tma or nosmem", err);
      k->epi = !strcmp(e, "tma") ? TF_CL_EPI_TMA : TF_CL_EPI_NOSMEM;
      k->epi_named = 1;
    } else if (!known)
      return expected(t,
                      "a kernel or epilogue schedule part (warpspecialized, cooperative, pingpong, 1sm, 2sm, "
                      "epi_tma, epi_nosmem, ...)",
                      err);
  }
  if (k->sched == TF_CL_SCHED_WS && k->arch == 90)
    uncarried(k, "%s",
              "'warpspecialized' without cooperative or pingpong (KernelTmaWarpSpecialized: the schedule "
              "param takes cooperative or pingpong)");
  return 0;
}

/* What the builders do when the name leaves a choice to them. */
static void apply_defaults(tf_cutlass_kernel *k) {
  if (k->arch == 90 && (k->sched == TF_CL_SCHED_AUTO))
    k->sched = k->tile_m == 64 ? TF_CL_SCHED_PINGPONG : TF_CL_SCHED_COOP; /* sm90_gmma_builder.inl:1018-1029 */
  if (k->arch >= 100 && k->arch < 120 && !k->cta_group)
    k->cta_group = k->cluster_m % 2 == 0 ? 2 : 1; /* KernelScheduleAuto: 2SM iff cluster M is even */
  if (!k->cta_group)
    k->cta_group = 1;
  if (k->epi == TF_CL_EPI_AUTO) /* EpilogueScheduleAuto: NoSmem on sm90, TMA on sm100 and sm120 */
    k->epi = k->arch == 90 ? TF_CL_EPI_NOSMEM : TF_CL_EPI_TMA;
  if (k->opclass == TF_CL_BLOCKSCALED && !k->sf_vec)
    k->sf_vec = 32; /* the MX formats (_q_, mxf4): vector size 32 */
}

/* The shape every later division relies on: a CTA pair splits tile M in
 * two, and a TMA epilogue's tile divides the CTA tile. */
static int check_tiles(const tf_cutlass_kernel *k, tf_error *err) {
  if (k->tile_m % k->cta_group)
    return tf_error_set(err, TF_EINPUT, WHERE,
                        "tile M %lld does not split over a CTA pair of %d (2sm): expected a multiple of %d",
                        (long long)k->tile_m, k->cta_group, k->cta_group);
  if (k->epi != TF_CL_EPI_TMA)
    return 0;
  tf_cutlass_epi_tile t;
  tf_cutlass_epi_tile_of(k, &t);
  int64_t cta_m = k->arch == 90 || k->arch == 120 ? k->tile_m : k->tile_m / k->cta_group;
  if (t.m < 1 || t.n < 1 || cta_m % t.m || k->tile_n % t.n)
    return tf_error_set(err, TF_EINPUT, WHERE,
                        "tile %lldx%lld: the builder's epilogue tile %lldx%lld does not divide the CTA tile %lldx%lld",
                        (long long)k->tile_m, (long long)k->tile_n, (long long)t.m, (long long)t.n, (long long)cta_m,
                        (long long)k->tile_n);
  return 0;
}

int tf_cutlass_name_parse(const char *name, tf_cutlass_kernel *k, tf_error *err) {
  parts s;
  memset(k, 0, sizeof *k);
  if (split(name, &s, err) || read_head(&s, k, err) || read_types(&s, k, err) || read_shape(&s, k, err) ||
      read_suffix(&s, k, err))
    return -1;
  apply_defaults(k);
  if (k->cta_group == 2 && (k->arch == 90 || k->arch == 120))
    return tf_error_set(err, TF_EINPUT, WHERE, "'2sm': only SM100-class kernels run on a CTA pair");
  return check_tiles(k, err);
}

/* ------------------------------------------------------------ mapping */

const char *tf_cutlass_machine(const tf_cutlass_kernel *k) { return arch_row(k->arch)->machine; }

const char *tf_cutlass_workset(const tf_cutlass_kernel *k, tf_error *err) {
  const cl_arch *a = arch_row(k->arch);
  if (!a->workset[k->opclass])
    return tf_error_set(err, TF_EINPUT, WHERE, "%s", a->refused[k->opclass]), NULL;
  if (a->mixed && k->a_bits != k->b_bits)
    return tf_error_set(err, TF_EINPUT, WHERE, "%s", a->mixed), NULL;
  return a->workset[k->opclass];
}

/* What the name says of its types, layouts, alignment, cluster and
 * epilogue schedule, as the params of include/cutlass-types.json and
 * include/cutlass-3x-kernel.json (every mapped workset has them). */
static void add_kernel_params(const tf_cutlass_kernel *k, tf_request *req) {
  static const char *const layouts[] = {"a_layout", "b_layout", "c_layout"};
  tf_request_add_param(req, "a_type", k->a_type, WHERE);
  tf_request_add_param(req, "b_type", k->b_type, WHERE);
  tf_request_add_param(req, "c_type", k->c_type, WHERE);
  tf_request_add_param(req, "d_type", k->d_type, WHERE);
  for (int i = 0; i < 3; i++)
    tf_request_add_param(req, layouts[i], k->layout[i] == 't', WHERE);
  tf_request_add_param(req, "align", k->align, WHERE);
  tf_request_add_param(req, "cluster_m", k->cluster_m, WHERE);
  tf_request_add_param(req, "cluster_n", k->cluster_n, WHERE);
  tf_request_add_param(req, "epi_schedule", !k->epi_named ? 0 : k->epi == TF_CL_EPI_TMA ? 1 : 2, WHERE);
  if (k->arch == 90 || k->arch == 120) /* the worksets with an accumulator's registers */
    tf_request_add_param(req, "acc_bits", k->acc_bits, WHERE);
}

static void add_params(const tf_cutlass_kernel *k, tf_request *req) {
  tf_request_add_param(req, "a_bits", k->a_bits, WHERE);
  tf_request_add_param(req, "b_bits", k->b_bits, WHERE);
  tf_request_add_param(req, "out_bits", k->d_bits, WHERE);
  add_kernel_params(k, req);
  tf_request_add_param(req, "epilogue_bytes", tf_cutlass_epilogue_bytes(k), WHERE);
  if (k->arch == 100 || k->arch == 103)
    tf_request_add_param(req, "cta_group", k->cta_group, WHERE);
  /* SM90: who holds the accumulator (cooperative: two consumer warpgroups
   * share a tile; pingpong and plain warp-specialized: one holds it all)
   * and FP8's accumulation mode; SM120 when the name says which */
  if ((k->arch == 90 || k->arch == 120) && k->sched_named)
    tf_request_add_param(req, "schedule", k->sched == TF_CL_SCHED_COOP ? 1 : 2, WHERE);
  if (k->arch == 90 && k->a_bits == 8 && k->b_bits == 8) {
    tf_request_add_param(req, "fp8", k->fp8, WHERE);
    tf_request_add_param(req, "fp8_fastaccum", k->fastaccum, WHERE);
  }
  if (k->opclass == TF_CL_BLOCKSCALED)
    tf_request_add_param(req, "sf_vec", k->sf_vec, WHERE);
  /* Grouped (ptr-array) kernels reserve tensor maps and scheduler stages:
   * 256 + 128 bytes on SM90 (sm90_gmma_builder.inl:268-276), the SM100
   * workset's own `grouped` carveout there. */
  if (k->grouped && k->arch == 90)
    tf_request_add_param(req, "kernel_carveout", 384, WHERE);
  else if (k->grouped && k->opclass == TF_CL_TENSOROP && k->arch != 120)
    tf_request_add_param(req, "grouped", 1, WHERE);
}

int tf_cutlass_name_request(const char *name, tf_request *req, tf_cutlass_kernel *k, tf_error *err) {
  if (tf_cutlass_name_parse(name, k, err))
    return -1;
  const char *w = tf_cutlass_workset(k, err);
  if (!w)
    return -1;
  if (k->grouped && (k->arch == 120 || k->opclass == TF_CL_BLOCKSCALED))
    return tf_error_set(err, TF_EINPUT, WHERE, "'grouped': grouped %s kernels are not mapped",
                        k->arch == 120 ? "SM120" : "block-scaled");
  const tf_cl_type *acc = tf_cl_type_of_code(k->acc_type), *a = tf_cl_type_of_code(k->a_type);
  if (k->cluster_k != 1)
    uncarried(k, "cluster K %s (the cluster params are M and N)", "of more than 1");
  if (k->arch != 90 && k->arch != 120 && (acc->bits != 32 || acc->floating != a->floating))
    uncarried(k, "the accumulator %s (the workset has no acc_bits: f32, or s32 for integer operands)", acc->name);
  free(req->workset);
  req->workset = tf_strdup(w);
  if (!req->machine)
    req->machine = tf_strdup(tf_cutlass_machine(k));
  add_params(k, req);
  tf_request_add_fix(req, "tile_m", k->tile_m, WHERE);
  tf_request_add_fix(req, "tile_n", k->tile_n, WHERE);
  tf_request_add_fix(req, "tile_k", k->tile_k, WHERE);
  if (k->stages)
    tf_request_add_fix(req, "stages", k->stages, WHERE);
  else
    tf_request_add_objective(req, "max stages", WHERE);
  return 0;
}
