#include "member_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "solver/emit/fragment.h"

/* C11, C++17 (and C++20's, so that a header stays valid there), Python 3's
 * keywords, and the object-like macros of <stddef.h> and <assert.h> that
 * would replace a member's name (static_assert, NULL); sorted for bsearch. */
static const char *const reserved[] = {"False",
                                       "NULL",
                                       "None",
                                       "True",
                                       "_Alignas",
                                       "_Alignof",
                                       "_Atomic",
                                       "_Bool",
                                       "_Complex",
                                       "_Generic",
                                       "_Imaginary",
                                       "_Noreturn",
                                       "_Static_assert",
                                       "_Thread_local",
                                       "alignas",
                                       "alignof",
                                       "and",
                                       "and_eq",
                                       "as",
                                       "asm",
                                       "assert",
                                       "async",
                                       "auto",
                                       "await",
                                       "bitand",
                                       "bitor",
                                       "bool",
                                       "break",
                                       "case",
                                       "catch",
                                       "char",
                                       "char16_t",
                                       "char32_t",
                                       "char8_t",
                                       "class",
                                       "co_await",
                                       "co_return",
                                       "co_yield",
                                       "compl",
                                       "concept",
                                       "const",
                                       "const_cast",
                                       "consteval",
                                       "constexpr",
                                       "constinit",
                                       "continue",
                                       "decltype",
                                       "def",
                                       "default",
                                       "del",
                                       "delete",
                                       "do",
                                       "double",
                                       "dynamic_cast",
                                       "elif",
                                       "else",
                                       "enum",
                                       "except",
                                       "explicit",
                                       "export",
                                       "extern",
                                       "false",
                                       "finally",
                                       "float",
                                       "for",
                                       "friend",
                                       "from",
                                       "global",
                                       "goto",
                                       "if",
                                       "import",
                                       "in",
                                       "inline",
                                       "int",
                                       "is",
                                       "lambda",
                                       "long",
                                       "mutable",
                                       "namespace",
                                       "new",
                                       "noexcept",
                                       "nonlocal",
                                       "not",
                                       "not_eq",
                                       "nullptr",
                                       "offsetof",
                                       "operator",
                                       "or",
                                       "or_eq",
                                       "pass",
                                       "private",
                                       "protected",
                                       "public",
                                       "raise",
                                       "register",
                                       "reinterpret_cast",
                                       "requires",
                                       "restrict",
                                       "return",
                                       "short",
                                       "signed",
                                       "sizeof",
                                       "static",
                                       "static_assert",
                                       "static_cast",
                                       "struct",
                                       "switch",
                                       "template",
                                       "this",
                                       "thread_local",
                                       "throw",
                                       "true",
                                       "try",
                                       "typedef",
                                       "typeid",
                                       "typename",
                                       "union",
                                       "unsigned",
                                       "using",
                                       "virtual",
                                       "void",
                                       "volatile",
                                       "wchar_t",
                                       "while",
                                       "with",
                                       "xor",
                                       "xor_eq",
                                       "yield"};

static int by_text(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int tf_member_reserved(const char *s) {
  return bsearch(&s, reserved, sizeof reserved / sizeof *reserved, sizeof *reserved, by_text) != NULL;
}

/* The names given so far. */
struct taken {
  const char **name;
  size_t n;
};

static int is_taken(const struct taken *t, const char *s) {
  if (tf_member_reserved(s))
    return 1;
  for (size_t i = 0; i < t->n; i++)
    if (!strcmp(t->name[i], s))
      return 1;
  return 0;
}

/* out = `first`, else stem + sep + k + tail for k = 1, 2, ...: the first
 * not taken; then taken.  A buffer "int" tries "int_", then "int_1"; a
 * made-up "A_pad_" tries "A_pad1_". */
static void give(struct taken *t, const char *first, const char *stem, const char *sep, const char *tail, char *out) {
  snprintf(out, TF_MEMBER_ID, "%s", first);
  for (unsigned k = 1; is_taken(t, out); k++)
    snprintf(out, TF_MEMBER_ID, "%s%s%u%s", stem, sep, k, tail);
  t->name[t->n++] = out;
}

/* A buffer's or lifetime's name as an identifier, "_" after a keyword. */
static void give_name(struct taken *t, const char *name, char *out) {
  char stem[TF_MEMBER_ID], first[TF_MEMBER_ID + 1];
  tf_fragment_ident(name, stem, sizeof stem);
  snprintf(first, sizeof first, "%s%s", stem, tf_member_reserved(stem) ? "_" : "");
  give(t, first, stem, "_", "", out);
}

/* A made-up member: stem + "_", or stem + k + "_". */
static void give_made_up(struct taken *t, const char *stem, char *out) {
  char first[TF_MEMBER_ID + 1];
  snprintf(first, sizeof first, "%s_", stem);
  give(t, first, stem, "", "_", out);
}

void tf_member_names_init(tf_member_names *n, const tf_workset *w) {
  size_t nb = w->nbuffers;
  n->buffer = tf_nalloc(nb + 1, sizeof *n->buffer);
  n->pad = tf_nalloc(nb + 1, sizeof *n->pad);
  n->extra = tf_nalloc(nb + 1, sizeof *n->extra);
  struct taken t = {tf_nalloc(3 * nb + 2, sizeof *t.name), 0};
  char stem[TF_MEMBER_ID];
  for (int pass = 0; pass < 2; pass++) /* names that are no keyword keep them; keywords, then made-up members yield */
    for (size_t b = 0; b < nb; b++) {
      tf_fragment_ident(w->buffers[b].name, stem, sizeof stem);
      if (tf_member_reserved(stem) == pass)
        give_name(&t, w->buffers[b].name, n->buffer[b]);
    }
  give_made_up(&t, "phases", n->phases);
  give_made_up(&t, "empty", n->empty);
  for (size_t b = 0; b < nb; b++) {
    snprintf(stem, sizeof stem, "%s_pad", n->buffer[b]);
    give_made_up(&t, stem, n->pad[b]);
    snprintf(stem, sizeof stem, "%s_extra", n->buffer[b]);
    give_made_up(&t, stem, n->extra[b]);
  }
  struct taken phases = {(const char *[TF_MAX_LIFETIMES]){0}, 0}; /* the union's members: apart */
  for (size_t q = 0; q < w->nlifetimes && q < TF_MAX_LIFETIMES; q++)
    give_name(&phases, w->lifetimes[q], n->phase[q]);
  free(t.name);
}

void tf_member_names_release(tf_member_names *n) {
  free(n->buffer);
  free(n->pad);
  free(n->extra);
}
