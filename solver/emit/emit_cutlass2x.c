/* emit --for cutlass on cutlass-sm80-gemm: the CUTLASS 2.x
 * device::GemmUniversal of an answer (NVIDIA/cutlass @
 * 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 :
 * include/cutlass/gemm/device/gemm_universal.h): the threadblock tile, the
 * warp tile of the workset's warp split, the mma.sync instruction of 256
 * bits of K, the stages, the element types and layouts of the params and
 * the epilogue cutlass_library pairs with them (LinearCombination over
 * 128 bits of D, python/cutlass_library/gemm_operation.py:513).
 * cutlass_library's 2.x names are not read by --cutlass-name, so there is
 * no name to read back. */
#include "emit.h"

#include <stdio.h>
#include <string.h>

#include "model/formats/cutlass_types.h"
#include "solver/emit/fragment.h"

static int64_t value(const tf_problem *p, const tf_answer *a, const char *name, int64_t dflt) {
  int64_t v = dflt;
  return tf_fragment_value(p, a, name, &v) ? dflt : v;
}

/* A type param's type, or the usual type of its width (code 0); NULL for
 * none or an integer type (the 2.x integer epilogue is not written). */
static const tf_cl_type *type_of(const tf_problem *p, const tf_answer *a, const char *param, const char *bits) {
  int64_t code = value(p, a, param, 0), width = value(p, a, bits, 16);
  const tf_cl_type *t = code ? tf_cl_type_of_code(code) : tf_cl_type_of_bits((int)width);
  if (t && !code && width == 32)
    t = tf_cl_type_named("tf32"); /* a 32-bit operand of a tensor-op GEMM is tf32 */
  return t && t->floating && t->bits == width ? t : NULL;
}

static const char *layout(const tf_problem *p, const tf_answer *a, const char *param, int dflt) {
  return value(p, a, param, dflt) == 1 ? "cutlass::layout::RowMajor" : "cutlass::layout::ColumnMajor";
}

static void write_one(FILE *f, const tf_problem *p, const tf_answer *a, const tf_cl_type *ta, const tf_cl_type *tb,
                      const tf_cl_type *td) {
  int64_t tm = value(p, a, "tile_m", 0), tn = value(p, a, "tile_n", 0), tk = value(p, a, "tile_k", 0);
  int64_t wm = value(p, a, "warps_m", 1), wn = value(p, a, "warps_n", 1), stages = value(p, a, "stages", 2);
  int64_t align = value(p, a, "align", 0), kbits = ta->bits > tb->bits ? ta->bits : tb->bits;
  int64_t align_a = align ? align : 128 / ta->bits, align_b = ta->bits == tb->bits ? align_a : 128 / tb->bits;
  fprintf(f,
          "// no kernel name: tilefit reads cutlass_library's 3.x names only\n"
          "// A %s, B %s, C and D %s, accumulator f32; alignment %lld; %lld x %lld warps\n",
          ta->name, tb->name, td->name, (long long)align_a, (long long)wm, (long long)wn);
  fprintf(f,
          "using Gemm = cutlass::gemm::device::GemmUniversal<\n    %s, %s,\n    %s, %s,\n    %s, %s,\n"
          "    float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,\n"
          "    cutlass::gemm::GemmShape<%lld, %lld, %lld>,\n    cutlass::gemm::GemmShape<%lld, %lld, %lld>,\n"
          "    cutlass::gemm::GemmShape<16, 8, %lld>,\n"
          "    cutlass::epilogue::thread::LinearCombination<%s, %d, float, float>,\n"
          "    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>,\n    %lld,  // stages\n"
          "    %lld, %lld>;  // alignment of A and B\nusing GemmKernel = Gemm::GemmKernel;\n",
          ta->cxx, layout(p, a, "a_layout", 1), tb->cxx, layout(p, a, "b_layout", 0), td->cxx,
          layout(p, a, "c_layout", 0), (long long)tm, (long long)tn, (long long)tk, (long long)(tm / wm),
          (long long)(tn / wn), (long long)tk, (long long)(256 / kbits), td->cxx, 128 / td->bits, (long long)stages,
          (long long)align_a, (long long)align_b);
}

int tf_emit_write_cutlass2x(FILE *f, const tf_problem *p, const tf_answer *a, int n, tf_error *err) {
  const tf_cl_type *ta = type_of(p, &a[0], "a_type", "a_bits"), *tb = type_of(p, &a[0], "b_type", "b_bits");
  const tf_cl_type *td = type_of(p, &a[0], "d_type", "out_bits");
  if (!ta || !tb || !td)
    return tf_error_set(err, TF_EINPUT, "@for",
                        "cutlass-sm80-gemm: A, B and D must be floating-point types (f16, bf16, tf32, f32 D; the "
                        "integer kernels' epilogue is not written)");
  for (int i = 0; i < n; i++) {
    fputs(i ? "\n" : "", f);
    tf_fragment_provenance(f, "// ", p, &a[i], 1);
    write_one(f, p, &a[i], ta, tb, td);
  }
  return 0;
}
