#include "model/formats/cutlass_epilogue.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t gcd64(int64_t a, int64_t b) { return b ? gcd64(b, a % b) : a; }
static int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* SM90: cooperative (min(128, M), gcd(min(32, N), N)); pingpong and plain
 * warp-specialized (min(64, M), gcd(min(N_perf, N), N)) with N_perf 64 for
 * an 8-bit D when N is a multiple of 64, else 32. */
static void tile_sm90(const tf_cutlass_kernel *k, tf_cutlass_epi_tile *t) {
  if (k->sched == TF_CL_SCHED_COOP) {
    t->m = min64(128, k->tile_m);
    t->n = gcd64(min64(32, k->tile_n), k->tile_n);
    return;
  }
  int64_t n_perf = k->d_bits == 8 && k->tile_n % 64 == 0 ? 64 : 32;
  t->m = min64(64, k->tile_m);
  t->n = gcd64(min64(n_perf, k->tile_n), k->tile_n);
}

/* SM100 dense: the CTA tile (M halved for 2SM), a TMEM warp grid of 2x2
 * (2SM with MMA M 128) or 4x1, M_epi = min(CtaM, 32 WarpM), and N from the
 * widths of C and D (sm100_dense_compute_tile_shape_or_override). */
static void tile_sm100(const tf_cutlass_kernel *k, tf_cutlass_epi_tile *t) {
  int64_t cta_m = k->tile_m / k->cta_group, cta_n = k->tile_n;
  int64_t warp_m = k->cta_group == 2 && k->tile_m == 128 ? 2 : 4, warp_n = 4 / warp_m;
  int64_t m = min64(cta_m, 32 * warp_m);
  int wide = k->c_bits > k->d_bits ? k->c_bits : k->d_bits;
  if (k->opclass == TF_CL_BLOCKSCALED && cta_n == 256) {
    t->m = m, t->n = 128;
    return;
  }
  int64_t n_perf;
  if (!k->c_bits)
    n_perf = m > 0 ? (k->d_bits == 4 ? 8192 : 4096) / m : 0; /* m 0: refused by the name's reader */
  else if (wide == 32)
    n_perf = cta_m > 64 && cta_n <= 128 ? 16 : 32;
  else if (wide == 16)
    n_perf = cta_n <= 128 ? 32 : 64;
  else
    n_perf = 64;
  int64_t n_min_c = k->c_bits ? 128 / k->c_bits * warp_n : 8 * warp_n;
  int64_t n_min_d = 128 / k->d_bits * warp_n;
  int64_t n = min64(cta_n, max64(n_perf, max64(n_min_c, n_min_d)));
  t->m = m;
  t->n = cta_n % n ? cta_n : n;
}

/* SM120 dense: 64x32 (128 rows below N 16, N itself below 32). */
static void tile_sm120(const tf_cutlass_kernel *k, tf_cutlass_epi_tile *t) {
  t->m = k->tile_n < 16 ? 128 : 64;
  t->n = k->tile_n < 32 ? k->tile_n : 32;
}

void tf_cutlass_epi_tile_of(const tf_cutlass_kernel *k, tf_cutlass_epi_tile *t) {
  if (k->arch == 90)
    tile_sm90(k, t);
  else if (k->arch == 120)
    tile_sm120(k, t);
  else
    tile_sm100(k, t);
  int64_t cta_m = k->arch == 90 || k->arch == 120 ? k->tile_m : k->tile_m / k->cta_group;
  int64_t tiles = t->m > 0 && t->n > 0 ? (cta_m / t->m) * (k->tile_n / t->n) : 0;
  /* SM100 reuses C's buffers for D whenever C is wider than 8 bits; SM90
   * (and, as read, SM120) only when C and D have the same width. */
  t->reuse = k->arch >= 100 && k->arch < 120 ? k->c_bits > 8 : k->c_bits == k->d_bits && k->d_bits > 8;
  t->stages_d = min64(tiles, 2);
  int64_t c_cap = k->arch == 120 ? 2 : 4;
  if (t->reuse)
    t->stages_c = max64(min64(tiles, c_cap), t->stages_d + 1);
  else
    t->stages_c = k->arch == 120 ? t->stages_d : min64(tiles, 4);
  /* C and D are aligned to their swizzle, which spans the contiguous extent
   * of the epilogue tile: N for row-major ('t'), M for column-major
   * (sm90_builder.inl:91-109, sm100_builder.inl:72-95; layout.hpp:423). */
  int64_t row = (k->layout[2] == 't' ? t->n : t->m) * k->d_bits / 8;
  t->align = row >= 128 ? 1024 : row >= 64 ? 512 : 256;
  /* SM100's M-major 32-bit atom is SW128_32B, 512-byte aligned (sm100_common.inl:89-93) */
  if (k->arch >= 100 && k->arch < 120 && k->layout[2] != 't' && k->d_bits == 32)
    t->align = 512;
}

int64_t tf_cutlass_epilogue_bytes(const tf_cutlass_kernel *k) {
  if (k->epi == TF_CL_EPI_NOSMEM)
    return k->arch == 90 ? 1 : 32;
  tf_cutlass_epi_tile t;
  tf_cutlass_epi_tile_of(k, &t);
  int64_t tile = t.m * t.n;
  int64_t bytes_c = tile * t.stages_c * k->c_bits / 8;
  int64_t bytes_d = tile * (t.reuse ? t.stages_c : t.stages_d) * k->d_bits / 8;
  int64_t shared = t.reuse ? max64(bytes_c, bytes_d) : bytes_c + bytes_d;
  /* +1: the empty FusionCallbacks::SharedStorage still occupies a byte. */
  int64_t tensors = round_up(shared + 1, t.align);
  int64_t pipeline = 16 * t.stages_c; /* PipelineTransactionAsync<StagesC>, even for a void C */
  return round_up(tensors + pipeline, t.align);
}
