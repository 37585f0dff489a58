/* The identifiers an emitted layout (struct_write.c) gives its members:
 * one per buffer, one per lifetime, and the members it makes up (a
 * buffer's rounding `NAME_pad_`, an aliased buffer's excess
 * `NAME_extra_`, the lifetimes' union `phases_`, `empty_`).  Every one is
 * a valid identifier in C11, C++17 and Python and no two members of one
 * struct share one (docs/emit.md, "Names"):
 *   - a buffer keeps its name unless that is a keyword of C, C++ or
 *     Python or a macro the header's includes define (`int`, `class`,
 *     `NULL`): then it gets a trailing `_` (`int_`), or `_N` when that is
 *     taken too;
 *   - a made-up member yields to a buffer's name: `A_pad_` is `A_pad1_`
 *     when a buffer is named `A_pad_`; `phases_` is `phases1_`;
 *   - a lifetime's name as an identifier, with `_N` where an earlier
 *     lifetime's, or a keyword, makes the same one. */
#ifndef TF_SOLVER_EMIT_MEMBER_NAMES_H
#define TF_SOLVER_EMIT_MEMBER_NAMES_H

#include "model/bind/problem.h"

#define TF_MEMBER_ID 96

typedef struct tf_member_names {
  char (*buffer)[TF_MEMBER_ID]; /* per workset buffer */
  char (*pad)[TF_MEMBER_ID];    /* its rounding member */
  char (*extra)[TF_MEMBER_ID];  /* its excess over its host */
  char phase[TF_MAX_LIFETIMES][TF_MEMBER_ID];
  char phases[TF_MEMBER_ID], empty[TF_MEMBER_ID];
} tf_member_names;

void tf_member_names_init(tf_member_names *n, const tf_workset *w);
void tf_member_names_release(tf_member_names *n);

/* Is s a keyword (or a macro of stddef.h / assert.h) in C11, C++17 or
 * Python? */
int tf_member_reserved(const char *s);

#endif
