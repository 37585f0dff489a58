
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/expr/expr_internal.h"

#define TF_OP_TEXT(n, s) s,
static const char *const op_text[] = {TF_OPS(TF_OP_TEXT)};

/* One step of a compiled expression: a number or a bound name pushed
 * (`value`: the number, or the symbol id, -1 before binding), a node
 * applied to the values its arguments left on the stack, or an if()'s
 * branch (pop; when zero, skip `value` steps) or jump (skip `value`
 * steps).  `op` is the node's operator or one of the three below; `e`
 * the node, for its arity and its error text.  INSN_CONST appears only in
 * a program over affine values: the count-free subtree `e`, evaluated in
 * int64 and pushed as a constant. */
enum { INSN_BRANCH = OP_COUNT, INSN_JUMP, INSN_CONST };
struct insn {
  int op;
  int64_t value;
  const struct tf_expr *e;
};

/* An expression's nodes, argument lists, names and text come from one
 * arena that its root owns: a parse makes a handful of allocations instead
 * of three per node, and freeing the tree frees the chunks.  Memory from
 * a chunk is zeroed and never handed out twice. */
struct chunk {
  struct chunk *next;
  size_t used, cap;
  max_align_t data[];
};

static void *arena_alloc(struct chunk **arena, size_t size, size_t hint) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!*arena || (*arena)->cap - (*arena)->used < size) {
    size_t cap = size > hint ? size : hint;
    struct chunk *c = tf_nalloc(1, sizeof *c + cap);
    c->cap = cap;
    c->next = *arena;
    *arena = c;
  }
  void *r = (char *)(*arena)->data + (*arena)->used;
  (*arena)->used += size;
  return r;
}

static void arena_free(struct chunk *c) {
  while (c) {
    struct chunk *next = c->next;
    free(c);
    c = next;
  }
}

static char *arena_strndup(struct chunk **arena, const char *s, size_t n) {
  char *d = arena_alloc(arena, n + 1, 1024);
  memcpy(d, s, n);
  return d;
}

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
  struct tf_expr *e = arena_alloc(&p->arena, sizeof *e, 1024);
  e->op = op;
  e->sym = -1;
  e->nargs = nargs;
  if (nargs)
    e->args = arena_alloc(&p->arena, (size_t)nargs * sizeof *e->args, 1024);
  e->text = p->text;
  return e;
}

/* Only a root frees: the rest of a tree lives in the root's arena (a
 * subtree dropped on a parse error goes with the parser's). */
static void node_free(struct tf_expr *e) {
  if (e && e->is_root)
    arena_free(e->arena);
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
  if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') &&
      p->s[p->pos + 1] == '=')
    return 0;
  p->pos += n;
  return 1;
}

static struct tf_expr *parse_or(struct parser *p);

static struct tf_expr *binary(struct parser *p, enum op op, struct tf_expr *a,
                              struct tf_expr *b) {
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
    {"cdiv", OP_CDIV, 2, 2}, {"fdiv", OP_FDIV, 2, 2}, {"align", OP_ALIGN, 2, 2},
    {"min", OP_MIN, 2, 16},  {"max", OP_MAX, 2, 16},  {"if", OP_IF, 3, 3},
    {"pow2", OP_POW2, 1, 1},
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
  e->name = arena_alloc(&p->arena, nb + nm + 10, 1024);
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
  e->name = arena_alloc(&p->arena, strlen(fn) + n + 3, 1024);
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
    e->name = arena_alloc(&p->arena, strlen(fn) + len + 3, 1024);
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
    snprintf(p->whybuf, sizeof p->whybuf, "%s() takes %d%s argument%s", functions[k].name,
             functions[k].min_args, functions[k].max_args > functions[k].min_args ? " or more" : "",
             functions[k].min_args == 1 ? "" : "s");
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
    char *name = arena_strndup(&p->arena, p->s + start, p->pos - start);
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

static void compile(struct tf_expr *root, struct chunk **arena);
static void compile_marked(struct tf_expr *root);

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
  p.text = arena_alloc(&p.arena, len + 1, 256 + 24 * len);
  memcpy(p.text, text, len);
  struct tf_expr *e = parse_or(&p);
  skip_space(&p);
  if (e && p.s[p.pos])
    e = fail(&p, "unexpected character");
  if (!e) {
    arena_free(p.arena);
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
  compile(e, &p.arena);
  e->arena = p.arena;
  return e;
}

tf_expr *tf_expr_parse(const char *text, tf_error *err) { return parse_root(text, 0, err); }

tf_expr *tf_expr_parse_truth(const char *text, tf_error *err) { return parse_root(text, 1, err); }

void tf_expr_free(tf_expr *e) { node_free(e); }

static struct tf_expr *copy_node(const struct tf_expr *e, char *text, struct chunk **arena) {
  struct tf_expr *c = arena_alloc(arena, sizeof *c, 1024);
  *c = *e;
  c->text = text;
  c->is_root = 0;
  c->arena = NULL;
  c->acode = NULL;
  c->name = e->name ? arena_strndup(arena, e->name, strlen(e->name)) : NULL;
  if (e->nargs) {
    c->args = arena_alloc(arena, (size_t)e->nargs * sizeof *c->args, 1024);
    for (int i = 0; i < e->nargs; i++)
      c->args[i] = copy_node(e->args[i], text, arena);
  }
  return c;
}

tf_expr *tf_expr_copy(const tf_expr *e) {
  struct chunk *arena = NULL;
  size_t len = strlen(e->text);
  char *text = arena_alloc(&arena, len + 1, 256 + 24 * len);
  memcpy(text, e->text, len);
  struct tf_expr *c = copy_node(e, text, &arena);
  c->is_root = 1;
  compile(c, &arena);
  c->arena = arena;
  if (e->marked) /* the copy's marks are the original's */
    compile_marked(c);
  return c;
}

const char *tf_expr_text(const tf_expr *e) { return e->text; }

/* ------------------------------------------------------------- compiling */

/* Every node's subtree as a postfix program (struct insn), written once per
 * tree into its arena: the root's program holds each subtree's as a
 * contiguous range, since a subtree's steps are consecutive, and an if()'s
 * skips are relative.  Evaluating a count-free subtree is then a loop, not
 * a call per node (run). */
static int count_insns(const struct tf_expr *e) {
  int n = e->op == OP_IF ? 2 : 1; /* an if() is its branch and jump; any other node one step */
  for (int i = 0; i < e->nargs; i++)
    n += count_insns(e->args[i]);
  return n;
}

static int max_int(int a, int b) { return a > b ? a : b; }

/* Writes e's steps at code[*n] on, and sets its range and its stack depth:
 * an argument's values stack on those of the arguments before it. */
static void emit(struct tf_expr *e, struct insn *code, int *n) {
  int start = *n, depth = 1;
  if (e->op == OP_IF) {
    emit(e->args[0], code, n);
    int branch = (*n)++;
    emit(e->args[1], code, n);
    int jump = (*n)++;
    emit(e->args[2], code, n);
    code[branch] = (struct insn){INSN_BRANCH, jump - branch, e}; /* zero: past the jump, to the else */
    code[jump] = (struct insn){INSN_JUMP, *n - jump - 1, e};     /* past the else */
    for (int i = 0; i < 3; i++)
      depth = max_int(depth, e->args[i]->nstack);
  } else {
    for (int i = 0; i < e->nargs; i++) {
      emit(e->args[i], code, n);
      depth = max_int(depth, i + e->args[i]->nstack);
    }
    code[(*n)++] = (struct insn){(int)e->op, e->op == OP_NUM ? e->num : e->sym, e};
  }
  e->code = code + start;
  e->ncode = *n - start;
  e->nstack = depth;
}

static void compile(struct tf_expr *root, struct chunk **arena) {
  int n = 0;
  struct insn *code = arena_alloc(arena, (size_t)count_insns(root) * sizeof *code, 1024);
  emit(root, code, &n);
}

/* The program over affine values of a marked tree: the tree walk's steps
 * in its order, with each count-free subtree one INSN_CONST step (its own
 * int64 program) and a number a push.  Returns the values it stacks. */
static int emit_affine(const struct tf_expr *e, struct insn *code, int *n) {
  if (e->count_free) {
    code[(*n)++] = (struct insn){e->op == OP_NUM ? OP_NUM : INSN_CONST, e->num, e};
    return 1;
  }
  int depth = 1;
  if (e->op == OP_IF) {
    depth = emit_affine(e->args[0], code, n);
    int branch = (*n)++;
    depth = max_int(depth, emit_affine(e->args[1], code, n));
    int jump = (*n)++;
    depth = max_int(depth, emit_affine(e->args[2], code, n));
    code[branch] = (struct insn){INSN_BRANCH, jump - branch, e};
    code[jump] = (struct insn){INSN_JUMP, *n - jump - 1, e};
    return depth;
  }
  for (int i = 0; i < e->nargs; i++)
    depth = max_int(depth, i + emit_affine(e->args[i], code, n));
  code[(*n)++] = (struct insn){(int)e->op, 0, e};
  return depth;
}

/* Node e's, written once into the root's arena (a tree has no more affine
 * steps than int64 ones) and rewritten in place when it is marked again. */
static void compile_affine(struct tf_expr *e, struct tf_expr *root) {
  if (!e->acode)
    e->acode = arena_alloc(&root->arena, (size_t)e->ncode * sizeof *e->acode, 1024);
  e->nacode = 0;
  e->nastack = emit_affine(e, e->acode, &e->nacode);
}

/* A marked root's affine programs: its own, and a relation's sides' (a
 * require is evaluated side by side), for those that depend on counts. */
static void compile_marked(struct tf_expr *root) {
  root->marked = 1;
  const tf_expr *l, *r;
  struct tf_expr *node[3] = {root, NULL, NULL};
  if (tf_expr_relation(root, &l, &r) != TF_REL_NONE)
    node[1] = root->args[0], node[2] = root->args[1];
  for (int i = 0; i < 3; i++)
    if (node[i] && !node[i]->count_free)
      compile_affine(node[i], root);
}

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
    compile_marked(e);
  return free_of_counts;
}

void tf_expr_each_symbol(const tf_expr *e, void (*fn)(void *ctx, int sym), void *ctx) {
  if (e->op == OP_NAME && e->sym >= 0)
    fn(ctx, e->sym);
  for (int i = 0; i < e->nargs; i++)
    tf_expr_each_symbol(e->args[i], fn, ctx);
}

/* ------------------------------------------------------------ arithmetic */


int64_t tf_fdiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

int64_t tf_cdiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    q++;
  return q;
}

int tf_affine_add(tf_affine *out, const tf_affine *a, const tf_affine *b, int sign) {
  tf_affine r;
  int64_t t;
  if (tf_checked_mul(b->c, sign, &t) || tf_checked_add(a->c, t, &r.c))
    return -1;
  for (int i = 0; i < TF_MAX_COUNTS; i++)
    if (tf_checked_mul(b->k[i], sign, &t) || tf_checked_add(a->k[i], t, &r.k[i]))
      return -1;
  *out = r;
  return 0;
}

int tf_affine_scale(tf_affine *out, const tf_affine *a, int64_t s) {
  tf_affine r;
  if (tf_checked_mul(a->c, s, &r.c))
    return -1;
  for (int i = 0; i < TF_MAX_COUNTS; i++)
    if (tf_checked_mul(a->k[i], s, &r.k[i]))
      return -1;
  *out = r;
  return 0;
}

int tf_affine_is_const(const tf_affine *a, int ncounts) {
  for (int i = 0; i < ncounts; i++)
    if (a->k[i])
      return 0;
  return 1;
}

int tf_affine_at(const tf_affine *a, const int64_t *counts, int ncounts, int64_t *out) {
  int64_t v = a->c, t;
  for (int i = 0; i < ncounts; i++)
    if (a->k[i] && (tf_checked_mul(a->k[i], counts[i], &t) || tf_checked_add(v, t, &v)))
      return -1;
  *out = v;
  return 0;
}

/* ------------------------------------------------------------ evaluation */

static int overflow(const tf_expr *e, tf_error *err) {
  return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': integer overflow", e->text);
}

static int not_affine(const tf_expr *e, const tf_eval_env *env, const tf_affine *v, tf_error *err) {
  int i = 0;
  while (i < env->ncounts && !v->k[i])
    i++;
  const char *name = env->count_names && i < env->ncounts ? env->count_names[i] : "?";
  return tf_error_set(err, TF_EINPUT, NULL,
                      "in expression '%s': not affine in count variable '%s' ('%s' of a value that depends on it)",
                      e->text, name, op_text[e->op]);
}

static tf_affine constant(int64_t c) {
  tf_affine a;
  memset(&a, 0, sizeof a);
  a.c = c;
  return a;
}

static int eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err);

/* Operators whose operands must not depend on counts. */
static int eval_scalar(const tf_expr *e, const int64_t *x, int64_t *out, tf_error *err) {
  int64_t a = x[0], b = e->nargs > 1 ? x[1] : 0;
  switch (e->op) {
  case OP_NOT: *out = !a; return 0;
  case OP_LT: *out = a < b; return 0;
  case OP_LE: *out = a <= b; return 0;
  case OP_GT: *out = a > b; return 0;
  case OP_GE: *out = a >= b; return 0;
  case OP_EQ: *out = a == b; return 0;
  case OP_NE: *out = a != b; return 0;
  case OP_AND: *out = a && b; return 0;
  case OP_OR: *out = a || b; return 0;
  case OP_MIN:
  case OP_MAX:
    *out = a;
    for (int i = 1; i < e->nargs; i++)
      if (e->op == OP_MIN ? x[i] < *out : x[i] > *out)
        *out = x[i];
    return 0;
  case OP_POW2:
    *out = 1;
    while (*out < a)
      if (tf_checked_mul(*out, 2, out))
        return overflow(e, err);
    return 0;
  default: break;
  }
  /* the division family */
  if (b == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
  switch (e->op) {
  case OP_MOD: /* the remainder takes the divisor's sign; INT64_MIN % -1 would trap */
    *out = b == -1 ? 0 : a % b;
    if (*out && (*out < 0) != (b < 0))
      *out += b;
    return 0;
  default: break;
  }
  if (b == -1 && a == INT64_MIN)
    return overflow(e, err);
  switch (e->op) {
  case OP_CDIV: *out = tf_cdiv(a, b); return 0;
  case OP_FDIV: *out = tf_fdiv(a, b); return 0;
  case OP_ALIGN:
    if (b < 0)
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': align() to a negative value", e->text);
    return tf_checked_mul(tf_cdiv(a, b), b, out) ? overflow(e, err) : 0;
  default: break;
  }
  return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': unknown operator", e->text);
}

static int eval_div(const tf_expr *e, const tf_eval_env *env, const tf_affine *a, const tf_affine *b,
                    tf_affine *out, tf_error *err) {
  if (!tf_affine_is_const(b, env->ncounts))
    return not_affine(e, env, b, err);
  if (b->c == 0)
    return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
  if (b->c == -1 && a->c == INT64_MIN)
    return overflow(e, err);
  *out = *a;
  if (a->c % b->c)
    return tf_error_set(err, TF_EINPUT, NULL,
                        "in expression '%s': %lld / %lld leaves a remainder (use fdiv or cdiv)", e->text,
                        (long long)a->c, (long long)b->c);
  out->c = a->c / b->c;
  for (int i = 0; i < env->ncounts; i++) {
    if (b->c == -1 && a->k[i] == INT64_MIN)
      return overflow(e, err);
    if (a->k[i] % b->c)
      return tf_error_set(err, TF_EINPUT, NULL,
                          "in expression '%s': dividing the coefficient %lld of count '%s' by %lld leaves a remainder",
                          e->text, (long long)a->k[i], env->count_names ? env->count_names[i] : "?", (long long)b->c);
    out->k[i] = a->k[i] / b->c;
  }
  return 0;
}

static int eval_args(const tf_expr *e, const tf_eval_env *env, tf_affine *v, tf_error *err) {
  for (int i = 0; i < e->nargs; i++)
    if (eval(e->args[i], env, &v[i], err))
      return -1;
  return 0;
}

/* A number or a bound name: its value without a call (half of all nodes). */
static int leaf(const tf_expr *e, const tf_eval_env *env, int64_t *out) {
  if (e->op == OP_NUM)
    return *out = e->num, 1;
  if (e->op == OP_NAME && e->sym >= 0)
    return *out = env->syms[e->sym].c, 1;
  return 0;
}

/* A count-free node's operator applied to its arguments' values x. */
static int apply(const tf_expr *e, const int64_t *x, int64_t *out, tf_error *err) {
  int64_t t;
  switch (e->op) {
  case OP_NEG: return tf_checked_mul(x[0], -1, out) ? overflow(e, err) : 0;
  case OP_ADD: return tf_checked_add(x[0], x[1], out) ? overflow(e, err) : 0;
  case OP_SUB: return tf_checked_mul(x[1], -1, &t) || tf_checked_add(x[0], t, out) ? overflow(e, err) : 0;
  case OP_MUL: return tf_checked_mul(x[1], x[0], out) ? overflow(e, err) : 0;
  case OP_DIV:
    if (x[1] == 0)
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': division by zero", e->text);
    if (x[1] == -1 && x[0] == INT64_MIN)
      return overflow(e, err);
    if (x[0] % x[1])
      return tf_error_set(err, TF_EINPUT, NULL, "in expression '%s': %lld / %lld leaves a remainder (use fdiv or cdiv)",
                          e->text, (long long)x[0], (long long)x[1]);
    *out = x[0] / x[1];
    return 0;
  default: return eval_scalar(e, x, out, err);
  }
}

static int unbound(const tf_expr *e, tf_error *err) {
  return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': name '%s' is not bound", e->text, e->name);
}

/* The tree walk: for a subtree deeper than the program's stack. */
static int eval_tree(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  int64_t x[16];
  switch (e->op) {
  case OP_NUM: *out = e->num; return 0;
  case OP_NAME:
    if (e->sym < 0)
      return unbound(e, err);
    *out = env->syms[e->sym].c;
    return 0;
  case OP_IF:
    return eval_tree(e->args[0], env, &x[0], err) ? -1 : eval_tree(e->args[x[0] ? 1 : 2], env, out, err);
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!leaf(e->args[i], env, &x[i]) && eval_tree(e->args[i], env, &x[i], err))
      return -1;
  return apply(e, x, out, err);
}

#define RUN_STACK 64 /* values a compiled subtree may stack; deeper ones walk the tree */

/* The compiled subtree (compile below): the tree walk's steps in its
 * order, so the same value and the first error it would meet, without a
 * call per node.  An if() evaluates its condition and then one branch,
 * as the walk does. */
static int run(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  int64_t st[RUN_STACK];
  int sp = 0;
  for (const struct insn *in = e->code, *end = in + e->ncode; in < end; in++) {
    switch (in->op) {
    case OP_NUM: st[sp++] = in->value; continue;
    case OP_NAME:
      if (in->value < 0)
        return unbound(in->e, err);
      st[sp++] = env->syms[in->value].c;
      continue;
    case INSN_BRANCH:
      if (!st[--sp])
        in += in->value;
      continue;
    case INSN_JUMP: in += in->value; continue;
    /* the commonest operators inline, as apply computes them */
    case OP_ADD:
      sp--;
      if (tf_checked_add(st[sp - 1], st[sp], &st[sp - 1]))
        return overflow(in->e, err);
      continue;
    case OP_MUL:
      sp--;
      if (tf_checked_mul(st[sp], st[sp - 1], &st[sp - 1]))
        return overflow(in->e, err);
      continue;
    default: break;
    }
    int64_t v;
    sp -= in->e->nargs;
    if (apply(in->e, st + sp, &v, err))
      return -1;
    st[sp++] = v;
  }
  *out = st[0];
  return 0;
}

/* A count-free node in int64 alone: the same results and the same errors
 * as the affine evaluation below gives it, without carrying coefficients
 * that are all zero. */
static int eval_const(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  if (e->code && e->nstack <= RUN_STACK)
    return run(e, env, out, err);
  return eval_tree(e, env, out, err);
}

/* ------------------------------------------- the program over affine values
 *
 * A marked root that depends on counts runs its affine program (compile_affine)
 * on a stack of values c, k[0..n), n = env->ncounts: the coefficients past
 * ncounts are zero in every symbol's value (the environment's contract), so
 * they stay zero and are not carried.  Each step does what the tree walk
 * (eval below) does at that node, in its order, with its messages. */

#define AFFINE_STACK 32 /* affine values a program may stack; deeper trees walk */
typedef int64_t avalue[1 + TF_MAX_COUNTS];

static int is_const_n(const int64_t *v, int n) {
  for (int i = 1; i <= n; i++)
    if (v[i])
      return 0;
  return 1;
}

/* The copies and clears below move whole values (a fixed size the compiler
 * inlines), the arithmetic only the n coefficients that can be nonzero. */
static tf_affine to_affine(const int64_t *v, int n) {
  (void)n;
  tf_affine a;
  a.c = v[0];
  memcpy(a.k, v + 1, sizeof a.k);
  return a;
}

static int not_affine_n(const tf_expr *e, const tf_eval_env *env, const int64_t *v, tf_error *err) {
  tf_affine a = to_affine(v, env->ncounts);
  return not_affine(e, env, &a, err);
}

/* out = a * s, element by element (out may be a). */
static int scale_n(int64_t *out, const int64_t *a, int64_t s, int n) {
  for (int i = 0; i <= n; i++)
    if (tf_checked_mul(a[i], s, &out[i]))
      return -1;
  return 0;
}

/* a += sign * b, as tf_affine_add computes it. */
static int add_n(int64_t *a, const int64_t *b, int sign, int n) {
  int64_t t;
  for (int i = 0; i <= n; i++)
    if (tf_checked_mul(b[i], sign, &t) || tf_checked_add(a[i], t, &a[i]))
      return -1;
  return 0;
}

/* a / b for a count-free b, as eval_div does it. */
static int div_n(const tf_expr *e, const tf_eval_env *env, int64_t *a, const int64_t *b, tf_error *err) {
  tf_affine q, x = to_affine(a, env->ncounts), y = to_affine(b, env->ncounts);
  if (eval_div(e, env, &x, &y, &q, err))
    return -1;
  a[0] = q.c;
  memcpy(a + 1, q.k, sizeof q.k);
  return 0;
}

/* Node e applied to the nargs values at v; the result replaces v[0]. */
static int apply_affine(const tf_expr *e, const tf_eval_env *env, avalue *v, tf_error *err) {
  int n = env->ncounts;
  switch (e->op) {
  case OP_NEG: return scale_n(v[0], v[0], -1, n) ? overflow(e, err) : 0;
  case OP_ADD: return add_n(v[0], v[1], 1, n) ? overflow(e, err) : 0;
  case OP_SUB: return add_n(v[0], v[1], -1, n) ? overflow(e, err) : 0;
  case OP_MUL:
    if (is_const_n(v[0], n))
      return scale_n(v[0], v[1], v[0][0], n) ? overflow(e, err) : 0;
    if (is_const_n(v[1], n))
      return scale_n(v[0], v[0], v[1][0], n) ? overflow(e, err) : 0;
    return not_affine_n(e, env, v[1], err);
  case OP_DIV: return div_n(e, env, v[0], v[1], err);
  default: break;
  }
  int64_t x[16];
  for (int i = 0; i < e->nargs; i++) {
    if (!is_const_n(v[i], n))
      return not_affine_n(e, env, v[i], err);
    x[i] = v[i][0];
  }
  memset(v[0], 0, sizeof v[0]);
  return eval_scalar(e, x, &v[0][0], err);
}

/* Pushes the value of one leaf step: a number, a count-free subtree, or a
 * name with its coefficients. */
static int push_leaf(const struct insn *in, const tf_eval_env *env, int64_t *top, tf_error *err) {
  const tf_expr *e = in->e;
  memset(top + 1, 0, TF_MAX_COUNTS * sizeof *top);
  if (in->op == OP_NUM)
    return top[0] = in->value, 0;
  if (e->sym < 0 && e->op == OP_NAME)
    return unbound(e, err);
  if (e->op == OP_NAME) { /* a bound name: its value, without a program */
    top[0] = env->syms[e->sym].c;
    if (in->op == OP_NAME)
      memcpy(top + 1, env->syms[e->sym].k, sizeof env->syms[e->sym].k);
    return 0;
  }
  return eval_const(e, env, &top[0], err);
}

static int run_affine(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  avalue st[AFFINE_STACK];
  int sp = 0, n = env->ncounts;
  for (const struct insn *in = e->acode, *end = in + e->nacode; in < end; in++) {
    switch (in->op) {
    case OP_NUM:
    case OP_NAME:
    case INSN_CONST:
      if (push_leaf(in, env, st[sp++], err))
        return -1;
      continue;
    case INSN_BRANCH: /* only the condition must be count-free; the branch taken may be affine */
      if (!is_const_n(st[--sp], n))
        return not_affine_n(in->e, env, st[sp], err);
      if (!st[sp][0])
        in += in->value;
      continue;
    case INSN_JUMP: in += in->value; continue;
    default: break;
    }
    sp -= in->e->nargs;
    if (apply_affine(in->e, env, st + sp, err))
      return -1;
    sp++;
  }
  /* in place, element by element: a whole-value copy of what scalar
   * stores just wrote would wait on each of them (store forwarding) */
  out->c = st[0][0];
  memset(out->k, 0, sizeof out->k);
  for (int i = 0; i < n; i++)
    out->k[i] = st[0][1 + i];
  return 0;
}

static int eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  tf_affine v[16];
  if (e->count_free) {
    int64_t c;
    if (eval_const(e, env, &c, err))
      return -1;
    *out = constant(c);
    return 0;
  }
  if (e->acode && e->nastack <= AFFINE_STACK)
    return run_affine(e, env, out, err);
  switch (e->op) {
  case OP_NUM: *out = constant(e->num); return 0;
  case OP_NAME:
    if (e->sym < 0)
      return tf_error_set(err, TF_EINTERNAL, NULL, "in expression '%s': name '%s' is not bound", e->text, e->name);
    *out = env->syms[e->sym];
    return 0;
  case OP_IF: {
    /* only the condition must be count-free; the branch taken may be affine */
    if (eval(e->args[0], env, &v[0], err))
      return -1;
    if (!tf_affine_is_const(&v[0], env->ncounts))
      return not_affine(e, env, &v[0], err);
    return eval(e->args[v[0].c ? 1 : 2], env, out, err);
  }
  default: break;
  }
  if (eval_args(e, env, v, err))
    return -1;
  switch (e->op) {
  case OP_NEG: return tf_affine_scale(out, &v[0], -1) ? overflow(e, err) : 0;
  case OP_ADD: return tf_affine_add(out, &v[0], &v[1], 1) ? overflow(e, err) : 0;
  case OP_SUB: return tf_affine_add(out, &v[0], &v[1], -1) ? overflow(e, err) : 0;
  case OP_MUL:
    if (tf_affine_is_const(&v[0], env->ncounts))
      return tf_affine_scale(out, &v[1], v[0].c) ? overflow(e, err) : 0;
    if (tf_affine_is_const(&v[1], env->ncounts))
      return tf_affine_scale(out, &v[0], v[1].c) ? overflow(e, err) : 0;
    return not_affine(e, env, &v[1], err);
  case OP_DIV: return eval_div(e, env, &v[0], &v[1], out, err);
  default: break;
  }
  int64_t x[16];
  for (int i = 0; i < e->nargs; i++) {
    if (!tf_affine_is_const(&v[i], env->ncounts))
      return not_affine(e, env, &v[i], err);
    x[i] = v[i].c;
  }
  int64_t r = 0;
  if (eval_scalar(e, x, &r, err))
    return -1;
  *out = constant(r);
  return 0;
}

int tf_expr_eval(const tf_expr *e, const tf_eval_env *env, tf_affine *out, tf_error *err) {
  return eval(e, env, out, err);
}

int tf_expr_eval_const(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  tf_affine v;
  if (eval(e, env, &v, err))
    return -1;
  if (!tf_affine_is_const(&v, env->ncounts)) {
    int i = 0;
    while (!v.k[i])
      i++;
    return tf_error_set(err, TF_EINPUT, NULL, "expression '%s' must not depend on count variable '%s'", e->text,
                        env->count_names ? env->count_names[i] : "?");
  }
  *out = v.c;
  return 0;
}

int tf_expr_eval_at(const tf_expr *e, const tf_eval_env *env, int64_t *out, tf_error *err) {
  return eval_const(e, env, out, err);
}

enum tf_rel tf_expr_relation(const tf_expr *e, const tf_expr **lhs, const tf_expr **rhs) {
  enum tf_rel rel;
  switch (e->op) {
  case OP_LE: rel = TF_REL_LE; break;
  case OP_LT: rel = TF_REL_LT; break;
  case OP_GE: rel = TF_REL_GE; break;
  case OP_GT: rel = TF_REL_GT; break;
  case OP_EQ: rel = TF_REL_EQ; break;
  case OP_NE: rel = TF_REL_NE; break;
  default: return TF_REL_NONE;
  }
  *lhs = e->args[0];
  *rhs = e->args[1];
  return rel;
}

const char *tf_rel_text(enum tf_rel rel) {
  static const char *const t[] = {"", "<=", "<", ">=", ">", "==", "!="};
  return t[rel];
}
