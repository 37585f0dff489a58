/* CUTLASS element types and layouts as workset params.  A type param
 * (a_type, b_type, c_type, d_type) holds a code: the type's width in bits
 * times 100 plus its place among the types of that width (f16 1601, bf16
 * 1602, e4m3 801, e5m2 802, tf32 3202, ...; void 1), so that a workset
 * derives a width as fdiv(code, 100); 0 is "the usual type of the width"
 * (the *_bits param's).  A layout param (a_layout, b_layout, c_layout) is
 * 1 for row-major (cutlass_library's 't') and 0 for column-major ('n').
 * The names are cutlass_library's DataTypeNames and ShortLayoutTypeNames
 * (NVIDIA/cutlass @ 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 :
 * python/cutlass_library/library.py). */
#ifndef TF_MODEL_CUTLASS_TYPES_H
#define TF_MODEL_CUTLASS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef struct tf_cl_type {
  const char *name; /* cutlass_library's: "bf16" */
  const char *cxx;  /* CUTLASS's element type: "cutlass::bfloat16_t" */
  int bits;         /* 0 for void */
  int code;         /* the param value */
  int floating;     /* a floating-point type (not s8, s32, ...) */
} tf_cl_type;

/* The type of a name or of a code; NULL when there is none. */
const tf_cl_type *tf_cl_type_named(const char *name);
const tf_cl_type *tf_cl_type_of_code(int64_t code);

/* The usual type of a width (f16 for 16, e4m3 for 8, tf32 for 32 as an
 * operand: the first of the table), or NULL. */
const tf_cl_type *tf_cl_type_of_bits(int bits);

/* "-p a_type=bf16", "-p b_layout=t": the value of a symbolic param value
 * for a param named *_type or *_layout.  0 and *value set when `text`
 * names one; -1 when it does not (the caller's message lists them: see
 * tf_cl_symbols). */
int tf_cl_param_symbol(const char *param, const char *text, int64_t *value);

/* "f16, bf16, ..." or "t, n": the symbols a param takes ("" for none). */
const char *tf_cl_symbols(const char *param, char *buf, size_t size);

/* The symbol of a param's value ("bf16" for a_type 1602, "t" for
 * a_layout 1), or NULL when the param takes none or the value has none. */
const char *tf_cl_param_show(const char *param, int64_t value);

/* 't' or 'n' of a layout param value (1 or 0); 0 for another value. */
char tf_cl_layout_letter(int64_t value);

#endif
