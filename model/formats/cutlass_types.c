#include "model/formats/cutlass_types.h"

#include <stdio.h>
#include <string.h>

#include "model/core/text.h"

/* Within a width, the first type is the usual one (the operand a *_bits
 * param alone stands for); the codes never change once shipped. */
static const tf_cl_type types[] = {
    {"void", "void", 0, 1, 0},
    {"e2m1", "cutlass::float_e2m1_t", 4, 401, 1},
    {"s4", "cutlass::int4b_t", 4, 402, 0},
    {"u4", "cutlass::uint4b_t", 4, 403, 0},
    {"e2m3", "cutlass::float_e2m3_t", 6, 601, 1},
    {"e3m2", "cutlass::float_e3m2_t", 6, 602, 1},
    {"e4m3", "cutlass::float_e4m3_t", 8, 801, 1},
    {"e5m2", "cutlass::float_e5m2_t", 8, 802, 1},
    {"s8", "int8_t", 8, 803, 0},
    {"u8", "uint8_t", 8, 804, 0},
    {"ue8m0", "cutlass::float_ue8m0_t", 8, 805, 1},
    {"ue4m3", "cutlass::float_ue4m3_t", 8, 806, 1},
    {"f16", "cutlass::half_t", 16, 1601, 1},
    {"bf16", "cutlass::bfloat16_t", 16, 1602, 1},
    {"tf32", "cutlass::tfloat32_t", 32, 3201, 1},
    {"f32", "float", 32, 3202, 1},
    {"s32", "int32_t", 32, 3203, 0},
    {"f64", "double", 64, 6401, 1},
};
#define NTYPES (sizeof types / sizeof *types)

const tf_cl_type *tf_cl_type_named(const char *name) {
  for (size_t i = 0; i < NTYPES; i++)
    if (!strcmp(types[i].name, name))
      return &types[i];
  return NULL;
}

const tf_cl_type *tf_cl_type_of_code(int64_t code) {
  for (size_t i = 0; i < NTYPES; i++)
    if (types[i].code == code)
      return &types[i];
  return NULL;
}

const tf_cl_type *tf_cl_type_of_bits(int bits) {
  for (size_t i = 0; i < NTYPES; i++)
    if (types[i].bits == bits && types[i].code != 1)
      return &types[i];
  return NULL;
}

/* "a_type" ends in "_type". */
static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  return n > t && !strcmp(s + n - t, tail);
}

int tf_cl_param_symbol(const char *param, const char *text, int64_t *value) {
  if (ends_with(param, "_layout") && (!strcmp(text, "t") || !strcmp(text, "n")))
    return *value = text[0] == 't', 0;
  const tf_cl_type *t = ends_with(param, "_type") ? tf_cl_type_named(text) : NULL;
  if (!t)
    return -1;
  *value = t->code;
  return 0;
}

const char *tf_cl_symbols(const char *param, char *buf, size_t size) {
  tf_strbuf b = tf_strbuf_of(buf, size);
  if (ends_with(param, "_layout"))
    tf_strbuf_item(&b, "", "t (row-major) or n (column-major)");
  else if (ends_with(param, "_type"))
    for (size_t i = 0; i < NTYPES; i++)
      tf_strbuf_item(&b, ", ", "%s", types[i].name);
  return buf;
}

char tf_cl_layout_letter(int64_t value) { return value == 1 ? 't' : value == 0 ? 'n' : 0; }

const char *tf_cl_param_show(const char *param, int64_t value) {
  if (ends_with(param, "_layout"))
    return value == 1 ? "t" : value == 0 ? "n" : NULL;
  const tf_cl_type *t = ends_with(param, "_type") ? tf_cl_type_of_code(value) : NULL;
  return t ? t->name : NULL;
}
