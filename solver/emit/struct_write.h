/* A layout (model/bind/layout.h) as code: a C/C++ header whose struct puts
 * every SMEM buffer at the offset tilefit laid it out at, with a
 * static_assert on each offset, each size, the total against the used
 * figure and the total against the capacity (C11 and C++17 alike); TMEM
 * columns and registers per thread as enum constants in their own units,
 * with the same asserts.  And the SMEM struct as CuTe DSL declares shared
 * storage (@cute.struct with cute.struct.MemRange members). */
#ifndef TF_SOLVER_EMIT_STRUCT_WRITE_H
#define TF_SOLVER_EMIT_STRUCT_WRITE_H

#include <stdio.h>

#include "encode/decode.h"
#include "model/bind/layout.h"
#include "model/bind/problem.h"

void tf_struct_write_c(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l);
void tf_struct_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l);

#endif
