
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/expr/expr_internal.h"

/* ---------------------------------------------------------------- parse */

struct parser {
  const char *s;
  size_t pos;
  int depth;
  const char *why; /* first error, static */
  char whybuf[160];
  size_t wherepos;
  char *text;
  struct chunk *arena;
};

static struct tf_expr *node_new(struct parser *p, enum op op, int nargs) {
  struct tf_expr *e = tf_expr_arena_alloc(&p->arena, sizeof *e, 1024);
  e->op = op;
  e->sym = -1;
  e->nargs = nargs;
  if (nargs)
    e->args = tf_expr_arena_alloc(&p->arena, (size_t)nargs * sizeof *e->args, 1024);
  e->text = p->text;
  return e;
}

/* Only a root frees: the rest of a tree lives in the root's arena (a
 * subtree dropped on a parse error goes with the parser's). */
static void node_free(struct tf_expr *e) {
  if (e && e->is_root)
    tf_expr_arena_free(e->arena);
}

/* The C locale's character classes, without a call per character (the
 * program never changes locale, so these are what <ctype.h> answers). */
static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_alnum(char c) { return is_alpha(c) || is_digit(c); }

static void skip_space(struct parser *p) {
  while (is_space(p->s[p->pos]))
    p->pos++;
}

/* The next character after white space, NUL at the end: each level of
 * the grammar looks at it before trying its operators one by one. */
static int next_is(struct parser *p, const char *chars) {
  skip_space(p);
  char c = p->s[p->pos];
  return c && strchr(chars, c);
}

static struct tf_expr *fail(struct parser *p, const char *why) {
  if (!p->why) {
    p->why = why;
    p->wherepos = p->pos;
  }
  return NULL;
}

static int accept(struct parser *p, const char *tok) {
  skip_space(p);
  const char *s = p->s + p->pos;
  size_t n = 0;
  while (tok[n] && s[n] == tok[n]) /* a prefix compare without strlen: parsing tries many tokens */
    n++;
  if (tok[n])
    return 0;
  /* "<" must not match the first half of "<=", "!" not of "!=" */
  if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') && p->s[p->pos + 1] == '=')
    return 0;
  p->pos += n;
  return 1;
}

static struct tf_expr *parse_or(struct parser *p);

static struct tf_expr *binary(struct parser *p, enum op op, struct tf_expr *a, struct tf_expr *b) {
  if (!a || !b)
    return NULL; /* what was parsed stays in the parser's arena */
  struct tf_expr *e = node_new(p, op, 2);
  e->args[0] = a;
  e->args[1] = b;
  return e;
}

static const struct {
  const char *name;
  enum op op;
  int min_args, max_args;
} functions[] = {
    {"cdiv", OP_CDIV, 2, 2}, {"fdiv", OP_FDIV, 2, 2}, {"align", OP_ALIGN, 2, 2}, {"min", OP_MIN, 2, 16},
    {"max", OP_MAX, 2, 16},  {"if", OP_IF, 3, 3},     {"pow2", OP_POW2, 1, 1},
};

/* used(smem), slack(tmem): a derived quantity, bound like any name. */
static int is_derived_form(const char *fn) { return !strcmp(fn, "used") || !strcmp(fn, "slack"); }

static size_t parse_ident(struct parser *p) {
  skip_space(p);
  size_t start = p->pos;
  while (is_alnum(p->s[p->pos]) || p->s[p->pos] == '_')
    p->pos++;
  return p->pos - start;
}

/* placed(BUFFER, MEM): 1 when the buffer is placed in that memory, a name
 * "placed(B,M)" bound like any other. */
static struct tf_expr *parse_placed(struct parser *p) {
  size_t nb = parse_ident(p), b0 = p->pos - nb;
  if (!nb || !accept(p, ","))
    return fail(p, "expected placed(BUFFER, MEMORY)");
  size_t nm = parse_ident(p), m0 = p->pos - nm;
  if (!nm || !accept(p, ")"))
    return fail(p, "expected placed(BUFFER, MEMORY)");
  struct tf_expr *e = node_new(p, OP_NAME, 0);
  e->name = tf_expr_arena_alloc(&p->arena, nb + nm + 10, 1024);
  sprintf(e->name, "placed(%.*s,%.*s)", (int)nb, p->s + b0, (int)nm, p->s + m0);
  return e;
}

/* cycles(TERM), bound_by(TERM): a roofline term (model/input/roofline.h) or an
 * edge "smem->mma", a name "cycles(smem->mma)" bound like any other. */
static struct tf_expr *parse_term(struct parser *p, const char *fn) {
  char term[64];
  size_t n = 0;
  skip_space(p);
  while (is_alnum(p->s[p->pos]) || p->s[p->pos] == '_' || p->s[p->pos] == '-' || p->s[p->pos] == '>' ||
         p->s[p->pos] == ' ')
    if (p->s[p->pos++] != ' ' && n + 1 < sizeof term)
      term[n++] = p->s[p->pos - 1];
  term[n] = 0;
  if (!n || !accept(p, ")"))
    return fail(p, "expected cycles(TERM) or bound_by(TERM): a unit (mma, exp), a port (smem) or an edge (smem->mma)");
  struct tf_expr *e = node_new(p, OP_NAME, 0);
  e->name = tf_expr_arena_alloc(&p->arena, strlen(fn) + n + 3, 1024);
  sprintf(e->name, "%s(%s)", fn, term);
  return e;
}

/* The tables, written as upstream writes them and read as nested if()s:
 *
 *   round_up_to(x, v1, ..., vn)   the first vi >= x (vn past the last):
 *                                 if(x <= v1, v1, if(x <= v2, v2, ... vn))
 *   lookup(x, k1, v1, ..., kn, vn, default)   vi where x == ki, else default:
 *                                 if(x == k1, v1, if(x == k2, v2, ... default))
 *
 * x (and round_up_to's values) appear in several places of the tree, so
 * each is parsed again at every use from where its text starts: the tree
 * stays a tree, and every later pass (binding, compiling, evaluating,
 * bounding) reads plain if()s.  Sets *n and the arguments' starts. */
#define TF_MAX_TABLE_ARGS 33

static int table_args(struct parser *p, size_t *start, int *n) {
  *n = 0;
  do {
    if (*n == TF_MAX_TABLE_ARGS)
      return fail(p, "too many arguments"), -1;
    skip_space(p);
    start[(*n)++] = p->pos;
    if (!parse_or(p))
      return -1;
  } while (accept(p, ","));
  return accept(p, ")") ? 0 : (fail(p, "expected ')'"), -1);
}

/* The argument that starts at `at`, parsed again where the parser was. */
static struct tf_expr *reparse(struct parser *p, size_t at) {
  size_t end = p->pos;
  p->pos = at;
  struct tf_expr *e = parse_or(p);
  p->pos = end;
  return e;
}

static struct tf_expr *parse_table(struct parser *p, int lookup) {
  size_t at[TF_MAX_TABLE_ARGS];
  int n;
  if (table_args(p, at, &n))
    return NULL;
  if (lookup ? n < 4 || n % 2 : n < 2)
    return fail(p, lookup ? "lookup(x, key, value, ..., default) takes x, pairs of a key and a value, and a default"
                          : "round_up_to(x, v1, ..., vn) takes x and at least one value");
  struct tf_expr *acc = reparse(p, at[n - 1]); /* the default, or vn */
  for (int i = lookup ? n - 3 : n - 2; acc && i >= 1; i -= lookup ? 2 : 1) {
    struct tf_expr *cond = binary(p, lookup ? OP_EQ : OP_LE, reparse(p, at[0]), reparse(p, at[i]));
    struct tf_expr *value = reparse(p, at[lookup ? i + 1 : i]), *e = node_new(p, OP_IF, 3);
    if (!cond || !value)
      return NULL;
    e->args[0] = cond, e->args[1] = value, e->args[2] = acc;
    acc = e;
  }
  return acc;
}

static struct tf_expr *parse_call(struct parser *p, char *fn) {
  if (!strcmp(fn, "placed"))
    return parse_placed(p);
  if (!strcmp(fn, "round_up_to") || !strcmp(fn, "lookup"))
    return parse_table(p, !strcmp(fn, "lookup"));
  if (!strcmp(fn, "cycles") || !strcmp(fn, "bound_by"))
    return parse_term(p, fn);
  if (is_derived_form(fn)) {
    skip_space(p);
    size_t start = p->pos;
    while (is_alnum(p->s[p->pos]) || p->s[p->pos] == '_')
      p->pos++;
    size_t len = p->pos - start;
    if (!len || !accept(p, ")"))
      return fail(p, "expected a memory name and ')'");
    struct tf_expr *e = node_new(p, OP_NAME, 0);
    e->name = tf_expr_arena_alloc(&p->arena, strlen(fn) + len + 3, 1024);
    sprintf(e->name, "%s(%.*s)", fn, (int)len, p->s + start);
    return e;
  }
  size_t k = 0, nf = sizeof functions / sizeof *functions;
  while (k < nf && strcmp(functions[k].name, fn))
    k++;
  if (k == nf)
    return fail(p, "unknown function");
  struct tf_expr *args[16];
  int n = 0;
  do {
    if (n == 16)
      return fail(p, "too many arguments");
    struct tf_expr *a = parse_or(p);
    if (!a)
      return NULL;
    args[n++] = a;
  } while (accept(p, ","));
  if (!accept(p, ")") || n < functions[k].min_args || n > functions[k].max_args) {
    snprintf(p->whybuf, sizeof p->whybuf, "%s() takes %d%s argument%s", functions[k].name, functions[k].min_args,
             functions[k].max_args > functions[k].min_args ? " or more" : "", functions[k].min_args == 1 ? "" : "s");
    return fail(p, p->whybuf);
  }
  struct tf_expr *e = node_new(p, functions[k].op, n);
  memcpy(e->args, args, (size_t)n * sizeof *args);
  return e;
}

static struct tf_expr *parse_number(struct parser *p) {
  int64_t v = 0;
  while (is_digit(p->s[p->pos])) {
    int d = p->s[p->pos++] - '0';
    if (tf_checked_mul(v, 10, &v) || tf_checked_add(v, d, &v))
      return fail(p, "integer literal out of the int64 range");
  }
  if (is_alpha(p->s[p->pos]) || p->s[p->pos] == '_' || p->s[p->pos] == '.')
    return fail(p, "expected an integer");
  struct tf_expr *e = node_new(p, OP_NUM, 0);
  e->num = v;
  return e;
}

static struct tf_expr *parse_unary(struct parser *p);

static struct tf_expr *parse_primary(struct parser *p) {
  skip_space(p);
  char c = p->s[p->pos];
  if (is_digit(c))
    return parse_number(p);
  if (is_alpha(c) || c == '_') {
    size_t start = p->pos;
    while (is_alnum(p->s[p->pos]) || p->s[p->pos] == '_')
      p->pos++;
    char *name = tf_expr_arena_strndup(&p->arena, p->s + start, p->pos - start);
    if (accept(p, "("))
      return parse_call(p, name);
    struct tf_expr *e = node_new(p, OP_NAME, 0);
    e->name = name;
    return e;
  }
  if (accept(p, "(")) {
    struct tf_expr *e = parse_or(p);
    if (e && !accept(p, ")"))
      return fail(p, "expected ')'");
    return e;
  }
  return fail(p, c ? "expected a number, a name or '('" : "unexpected end of expression");
}

static struct tf_expr *parse_unary(struct parser *p) {
  if (++p->depth > TF_MAX_EXPR_DEPTH)
    return fail(p, "expression nested too deeply");
  struct tf_expr *e;
  enum op op = OP_COUNT;
  if (!next_is(p, "-!+"))
    ; /* no prefix operator: the usual case, found with one look */
  else if (accept(p, "-"))
    op = OP_NEG;
  else if (accept(p, "!"))
    op = OP_NOT;
  else if (accept(p, "+"))
    op = OP_ADD; /* unary plus: the operand itself */
  if (op == OP_COUNT) {
    e = parse_primary(p);
  } else {
    struct tf_expr *a = parse_unary(p);
    if (!a || op == OP_ADD) {
      e = a;
    } else {
      e = node_new(p, op, 1);
      e->args[0] = a;
    }
  }
  p->depth--;
  return e;
}

static struct tf_expr *parse_mul(struct parser *p) {
  struct tf_expr *e = parse_unary(p);
  for (;;) {
    if (!next_is(p, "*/%"))
      return e;
    enum op op = accept(p, "*") ? OP_MUL : accept(p, "/") ? OP_DIV : accept(p, "%") ? OP_MOD : OP_COUNT;
    if (op == OP_COUNT || !e)
      return e;
    e = binary(p, op, e, parse_unary(p));
  }
}

static struct tf_expr *parse_add(struct parser *p) {
  struct tf_expr *e = parse_mul(p);
  for (;;) {
    if (!next_is(p, "+-"))
      return e;
    enum op op = accept(p, "+") ? OP_ADD : accept(p, "-") ? OP_SUB : OP_COUNT;
    if (op == OP_COUNT || !e)
      return e;
    e = binary(p, op, e, parse_mul(p));
  }
}

static struct tf_expr *parse_cmp(struct parser *p) {
  struct tf_expr *e = parse_add(p);
  static const struct {
    const char *tok;
    enum op op;
  } rel[] = {{"<=", OP_LE}, {">=", OP_GE}, {"==", OP_EQ}, {"!=", OP_NE}, {"<", OP_LT}, {">", OP_GT}};
  for (size_t i = 0; e && next_is(p, "<>=!") && i < sizeof rel / sizeof *rel; i++)
    if (accept(p, rel[i].tok)) {
      e = binary(p, rel[i].op, e, parse_add(p));
      skip_space(p);
      if (e && strchr("<>=!", p->s[p->pos]) && p->s[p->pos] && p->s[p->pos + 1] != '&')
        return fail(p, "comparisons do not chain; use &&");
      break;
    }
  return e;
}

static struct tf_expr *parse_and(struct parser *p) {
  struct tf_expr *e = parse_cmp(p);
  while (e && next_is(p, "&") && accept(p, "&&"))
    e = binary(p, OP_AND, e, parse_cmp(p));
  return e;
}

static struct tf_expr *parse_or(struct parser *p) {
  if (++p->depth > TF_MAX_EXPR_DEPTH)
    return fail(p, "expression nested too deeply");
  struct tf_expr *e = parse_and(p);
  while (e && next_is(p, "|") && accept(p, "||"))
    e = binary(p, OP_OR, e, parse_and(p));
  p->depth--;
  return e;
}

/* `truth`: a top-level &&, || or ! is read as `(...) == 1`, a relation a
 * require can take, its text the one written. */
static tf_expr *parse_root(const char *text, int truth, tf_error *err) {
  size_t len = strlen(text);
  if (len > TF_MAX_EXPR_CHARS) {
    tf_error_set(err, TF_EINPUT, NULL, "expression longer than %d characters", TF_MAX_EXPR_CHARS);
    return NULL;
  }
  struct parser p = {.s = text};
  /* a first chunk in proportion to the text: a node per character or two */
  p.text = tf_expr_arena_alloc(&p.arena, len + 1, 256 + 24 * len);
  memcpy(p.text, text, len);
  struct tf_expr *e = parse_or(&p);
  skip_space(&p);
  if (e && p.s[p.pos])
    e = fail(&p, "unexpected character");
  if (!e) {
    tf_expr_arena_free(p.arena);
    tf_error_set(err, TF_EINPUT, NULL, "in expression '%.120s%s': %s at column %zu", text, len > 120 ? "..." : "",
                 p.why ? p.why : "syntax error", p.wherepos + 1);
    return NULL;
  }
  if (truth && (e->op == OP_AND || e->op == OP_OR || e->op == OP_NOT)) {
    struct tf_expr *one = node_new(&p, OP_NUM, 0);
    one->num = 1;
    e = binary(&p, OP_EQ, e, one);
  }
  e->is_root = 1;
  tf_expr_compile(e, &p.arena);
  e->arena = p.arena;
  return e;
}

tf_expr *tf_expr_parse(const char *text, tf_error *err) { return parse_root(text, 0, err); }

tf_expr *tf_expr_parse_truth(const char *text, tf_error *err) { return parse_root(text, 1, err); }

void tf_expr_free(tf_expr *e) { node_free(e); }

static struct tf_expr *copy_node(const struct tf_expr *e, char *text, struct chunk **arena) {
  struct tf_expr *c = tf_expr_arena_alloc(arena, sizeof *c, 1024);
  *c = *e;
  c->text = text;
  c->is_root = 0;
  c->arena = NULL;
  c->acode = NULL;
  c->name = e->name ? tf_expr_arena_strndup(arena, e->name, strlen(e->name)) : NULL;
  if (e->nargs) {
    c->args = tf_expr_arena_alloc(arena, (size_t)e->nargs * sizeof *c->args, 1024);
    for (int i = 0; i < e->nargs; i++)
      c->args[i] = copy_node(e->args[i], text, arena);
  }
  return c;
}

tf_expr *tf_expr_copy(const tf_expr *e) {
  struct chunk *arena = NULL;
  size_t len = strlen(e->text);
  char *text = tf_expr_arena_alloc(&arena, len + 1, 256 + 24 * len);
  memcpy(text, e->text, len);
  struct tf_expr *c = copy_node(e, text, &arena);
  c->is_root = 1;
  tf_expr_compile(c, &arena);
  c->arena = arena;
  if (e->marked) /* the copy's marks are the original's */
    tf_expr_compile_marked(c);
  return c;
}

const char *tf_expr_text(const tf_expr *e) { return e->text; }

/* ----------------------------------------------------------------- names */

int tf_expr_bind_hint(tf_expr *e, tf_resolve_fn resolve, tf_hint_fn hint, void *ctx, tf_error *err) {
  if (e->op == OP_NAME) {
    e->sym = resolve(ctx, e->name);
    e->code->value = e->sym; /* a name's one step */
    if (e->sym >= 0)
      return 0;
    char tail[256] = "";
    if (hint)
      hint(ctx, e->name, tail, sizeof tail);
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': unknown name '%s'%s", e->text, e->name, tail);
  }
  for (int i = 0; i < e->nargs; i++)
    if (tf_expr_bind_hint(e->args[i], resolve, hint, ctx, err))
      return -1;
  return 0;
}

int tf_expr_bind(tf_expr *e, tf_resolve_fn resolve, void *ctx, tf_error *err) {
  return tf_expr_bind_hint(e, resolve, NULL, ctx, err);
}

static void collect_once(void *ctx, int sym) {
  tf_symbols *s = ctx;
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == sym)
      return;
  TF_PUSH(s->v, s->n, s->cap, sym);
}

void tf_expr_symbols(const tf_expr *e, tf_symbols *s) { tf_expr_each_symbol(e, collect_once, s); }

void tf_symbols_release(tf_symbols *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}

static int mark(tf_expr *e, int (*affine)(void *ctx, int sym), void *ctx) {
  int free_of_counts = e->op != OP_NAME || (e->sym >= 0 && !affine(ctx, e->sym));
  for (int i = 0; i < e->nargs; i++)
    free_of_counts &= mark(e->args[i], affine, ctx);
  e->count_free = free_of_counts;
  return free_of_counts;
}

int tf_expr_mark_count_free(tf_expr *e, int (*affine)(void *ctx, int sym), void *ctx) {
  int free_of_counts = mark(e, affine, ctx);
  if (e->is_root)
    tf_expr_compile_marked(e);
  return free_of_counts;
}

void tf_expr_each_symbol(const tf_expr *e, void (*fn)(void *ctx, int sym), void *ctx) {
  if (e->op == OP_NAME && e->sym >= 0)
    fn(ctx, e->sym);
  for (int i = 0; i < e->nargs; i++)
    tf_expr_each_symbol(e->args[i], fn, ctx);
}
