/* The expression language of worksets, --require and --objective:
 *
 *   integers, names, + - * / %, unary -, comparisons (< <= > >= == !=),
 *   && || !, parentheses, and the functions
 *   cdiv(a,b)  fdiv(a,b)  align(x,a)  min(a,b,...)  max(a,b,...)
 *   if(cond,a,b)  pow2(x) (the least power of two >= x)
 *   round_up_to(x, v1, ..., vn) (the first vi >= x; vn past the last)
 *   lookup(x, k1, v1, ..., kn, vn, default) (vi where x == ki, else default)
 *   and the derived-quantity forms used(MEM), slack(MEM).
 *
 * `/` is exact: a remainder is an error.  Evaluation is in int64 with every
 * operation overflow-checked.  Values are affine in the count variables
 * (tf_affine): a count may be added, subtracted and scaled by something that
 * does not depend on a count; any other use of a count is an error that
 * names the expression.
 *
 * Names are bound to symbol ids once (tf_expr_bind), so evaluation is an
 * array lookup, not a string search. */
#ifndef TF_MODEL_EXPR_H
#define TF_MODEL_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/error.h"
#include "model/expr/relation.h" /* enum tf_rel, tf_expr_relation */

#define TF_MAX_COUNTS 8       /* count variables per workset */
#define TF_MAX_EXPR_DEPTH 200 /* deeper nesting is refused at parse time */
#define TF_MAX_EXPR_CHARS 4096

/* c + sum_i k[i] * count_i */
typedef struct tf_affine {
  int64_t c;
  int64_t k[TF_MAX_COUNTS];
} tf_affine;

typedef struct tf_expr tf_expr;

/* Parses `text`.  Returns an expression owned by the caller (tf_expr_free),
 * or NULL with err->msg saying what is wrong and at which column; the caller
 * adds the file and JSON path. */
tf_expr *tf_expr_parse(const char *text, tf_error *err);
/* The same, but a text whose top level is &&, || or ! ("a == 1 || b <= c")
 * is the relation `(text) == 1`, with the text as written: a require may be
 * a condition. */
tf_expr *tf_expr_parse_truth(const char *text, tf_error *err);
void tf_expr_free(tf_expr *e);
tf_expr *tf_expr_copy(const tf_expr *e);

/* The source text, as given. */
const char *tf_expr_text(const tf_expr *e);

/* Resolves every name to a symbol id; `resolve` returns the id or -1 for
 * an unknown name.  The error names the first unknown name. */
typedef int (*tf_resolve_fn)(void *ctx, const char *name);
int tf_expr_bind(tf_expr *e, tf_resolve_fn resolve, void *ctx, tf_error *err);
/* The same, and an unknown name's error goes on with what hint writes
 * into buf (size bytes; "; did you mean 'X'?", or where the name would
 * come from), nothing when it writes nothing. */
typedef void (*tf_hint_fn)(void *ctx, const char *name, char *buf, size_t size);
int tf_expr_bind_hint(tf_expr *e, tf_resolve_fn resolve, tf_hint_fn hint, void *ctx, tf_error *err);

/* Marks the nodes no count can reach, so that evaluation does them in
 * int64 alone: `affine` says whether a symbol's value may depend on a
 * count.  Returns 1 when the whole expression is count-free.  Optional:
 * an unmarked expression evaluates the same, more slowly. */
int tf_expr_mark_count_free(tf_expr *e, int (*affine)(void *ctx, int sym), void *ctx);

/* Calls `fn` for every symbol id the (bound) expression uses. */
void tf_expr_each_symbol(const tf_expr *e, void (*fn)(void *ctx, int sym), void *ctx);

/* The symbol ids a bound expression uses, each once, in order of first
 * use, appended to a growable list (tf_symbols_release it). */
typedef struct tf_symbols {
  int *v;
  size_t n, cap;
} tf_symbols;
void tf_expr_symbols(const tf_expr *e, tf_symbols *s);
void tf_symbols_release(tf_symbols *s);

typedef struct tf_eval_env {
  const tf_affine *syms; /* value of every symbol id */
  int ncounts;
  const char *const *count_names; /* for error messages */
} tf_eval_env;

int tf_expr_eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err);

/* The same, requiring a value that does not depend on any count. */
int tf_expr_eval_const(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err);

/* The value of e where every symbol in env is a constant (a concrete
 * point: the counts bound to numbers, so every let is one too): the same
 * value and the same errors as tf_expr_eval_const gives there, in checked
 * int64 alone, without carrying the counts' coefficients (all zero) through
 * every node.  A symbol's coefficients are not read: a caller whose env may
 * hold a count-dependent value uses tf_expr_eval_const. */
int tf_expr_eval_at(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err);

/* Affine helpers with overflow checks (return -1 on overflow). */
int tf_affine_add(tf_affine *out, const tf_affine *a, const tf_affine *b, int sign);
int tf_affine_scale(tf_affine *out, const tf_affine *a, int64_t s);
int tf_affine_is_const(const tf_affine *a, int ncounts);
/* a evaluated at concrete counts */
int tf_affine_at(const tf_affine *a, const int64_t *counts, int ncounts, int64_t *out);

/* Integer helpers shared with the encoder and the oracle.  The checked
 * operations are inline: an out-of-line call cost more than the
 * operation in every evaluation's inner loop. */
static inline int tf_checked_add(int64_t a, int64_t b, int64_t *out) {
  return __builtin_add_overflow(a, b, out) ? -1 : 0;
}
static inline int tf_checked_mul(int64_t a, int64_t b, int64_t *out) {
  return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}
int64_t tf_fdiv(int64_t a, int64_t b); /* floor; b != 0 */
int64_t tf_cdiv(int64_t a, int64_t b); /* ceiling; b != 0 */

#endif
