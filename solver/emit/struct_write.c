#include "struct_write.h"

#include <stdio.h>
#include <string.h>

#include "solver/emit/fragment.h"
#include "solver/report.h"

/* Can a slot be a struct member: a non-empty buffer that owns its space,
 * or an aliased one that fits inside its host's (a union with it). */
static int is_member(const tf_layout *l, const tf_layout_slot *s) {
  if (s->host < 0)
    return s->allocated > 0;
  for (size_t i = 0; i < l->nslots; i++)
    if (l->slots[i].buffer == (size_t)s->host)
      return s->size > 0 && s->size <= l->slots[i].allocated;
  return 0;
}

/* The aliased slots that share host slot h's space, as members. */
static int has_guests(const tf_layout *l, const tf_layout_slot *h) {
  for (size_t i = 0; i < l->nslots; i++)
    if (l->slots[i].host == (int)h->buffer && is_member(l, &l->slots[i]))
      return 1;
  return 0;
}

static void c_member(FILE *f, const tf_problem *p, const tf_layout *l, const tf_layout_slot *s, const char *in) {
  char id[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  int u = has_guests(l, s);
  int64_t span = s->size; /* the union's size: the largest of its members */
  for (size_t i = 0; u && i < l->nslots; i++)
    if (l->slots[i].host == (int)s->buffer && is_member(l, &l->slots[i]) && l->slots[i].size > span)
      span = l->slots[i].size;
  if (u)
    fprintf(f, "%s  union {\n  ", in);
  fprintf(f, "%s  unsigned char %s[%lld]; /* offset %lld, size %lld, allocated %lld, align %lld */\n", u ? "" : in, id,
          (long long)s->size, (long long)s->offset, (long long)s->size, (long long)s->allocated, (long long)s->align);
  for (size_t i = 0; u && i < l->nslots; i++)
    if (l->slots[i].host == (int)s->buffer && is_member(l, &l->slots[i])) {
      tf_fragment_ident(p->workset->buffers[l->slots[i].buffer].name, id, sizeof id);
      fprintf(f, "%s    unsigned char %s[%lld]; /* shares its space, size %lld */\n", in, id,
              (long long)l->slots[i].size, (long long)l->slots[i].size);
    }
  if (u)
    fprintf(f, "%s  };\n", in);
  if (s->allocated > span) {
    tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
    fprintf(f, "%s  unsigned char %s_pad_[%lld]; /* rounding to %lld */\n", in, id, (long long)(s->allocated - span),
            (long long)s->align);
  }
}

/* What is not a member of its own: an empty buffer, an aliased buffer's
 * excess over its host (charged where it is laid out), an aliased buffer
 * too large for its host's space. */
static void c_other(FILE *f, const tf_problem *p, const tf_layout *l, const tf_layout_slot *s, int *members,
                    const char *in) {
  char id[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  const char *host = s->host >= 0 ? p->workset->buffers[s->host].name : NULL;
  if (host && s->allocated > 0) {
    fprintf(f, "%s  unsigned char %s_extra_[%lld]; /* offset %lld: %s's %lld beyond %s's size, charged here */\n", in,
            id, (long long)s->allocated, (long long)s->extra_offset, id, (long long)s->allocated, host);
    ++*members;
  }
  if (host && !is_member(l, s))
    fprintf(f, "%s  /* %s: from offset %lld in %s's space, size %lld */\n", in, id, (long long)s->offset, host,
            (long long)s->size);
  else if (!host)
    fprintf(f, "%s  /* %s: offset %lld, size 0 */\n", in, id, (long long)s->offset);
}

/* A slot of the struct (memory m's, lifetime `phase`): a member, its
 * host's union's, or a comment; *members counts the members. */
static void c_slot(FILE *f, const tf_problem *p, const tf_layout *l, const tf_layout_slot *s, int *members,
                   const char *in) {
  if (s->host >= 0 && is_member(l, s) && s->allocated == 0)
    return; /* a member of its host's union */
  if (s->host < 0 && is_member(l, s))
    c_member(f, p, l, s, in), ++*members;
  else
    c_other(f, p, l, s, members, in);
}

/* Phase q's identifier: its name as an identifier, with "_q" where an
 * earlier phase's name makes the same one ("main-loop", "main_loop"). */
static void phase_ident(const tf_workset *w, int q, char *id, size_t size) {
  char other[96];
  tf_fragment_ident(w->lifetimes[q], id, size);
  for (int e = 0; e < q; e++) {
    tf_fragment_ident(w->lifetimes[e], other, sizeof other);
    if (!strcmp(other, id)) {
      size_t n = strlen(id);
      snprintf(id + n, size - n, "_%d", q);
      return;
    }
  }
}

/* Does phase q have a member in smem (a struct needs one)? */
static int phase_has_members(const tf_layout *l, int q) {
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory == TF_MEM_SMEM && s->lifetime == q && (is_member(l, s) || (s->host >= 0 && s->allocated > 0)))
      return 1;
  }
  return 0;
}

static int64_t c_union_size(const tf_problem *p, const tf_layout *l) {
  int64_t most = 0;
  for (int q = 0; q < (int)p->workset->nlifetimes; q++)
    most = l->phase_size[TF_MEM_SMEM][q] > most ? l->phase_size[TF_MEM_SMEM][q] : most;
  return most;
}

/* Is there a union of phases to write: some phase with a member? */
static int c_has_union(const tf_problem *p, const tf_layout *l) {
  for (int q = 0; q < (int)p->workset->nlifetimes; q++)
    if (phase_has_members(l, q))
      return 1;
  return 0;
}

/* The phases as a union of one struct per phase, each from the union's
 * offset (the end of the always-live buffers). */
static void c_union(FILE *f, const tf_problem *p, const tf_layout *l, int *members) {
  char id[96];
  const tf_workset *w = p->workset;
  fprintf(f, "  union { /* offset %lld: the lifetimes share this space, as large as the largest */\n",
          (long long)l->phase_base[TF_MEM_SMEM]);
  for (int q = 0; q < (int)w->nlifetimes; q++) {
    phase_ident(w, q, id, sizeof id);
    if (!phase_has_members(l, q)) {
      fprintf(f, "    /* %s: nothing of size here */\n", id);
      continue;
    }
    fprintf(f, "    struct { /* lifetime %s: %lld B */\n", w->lifetimes[q], (long long)l->phase_size[TF_MEM_SMEM][q]);
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime == q)
        c_slot(f, p, l, &l->slots[i], members, "    ");
    fprintf(f, "    } %s;\n", id);
  }
  fputs("  } phases_;\n", f);
}

static void c_smem_struct(FILE *f, const tf_problem *p, const tf_layout *l, const char *tag) {
  fprintf(f, "/* smem: %lld of %lld B */\nstruct %s {\n", (long long)l->end[TF_MEM_SMEM],
          (long long)l->capacity[TF_MEM_SMEM], tag);
  int members = 0;
  for (size_t i = 0; i < l->nslots; i++)
    if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime < 0)
      c_slot(f, p, l, &l->slots[i], &members, "");
  if (c_has_union(p, l))
    c_union(f, p, l, &members);
  else
    for (size_t i = 0; i < l->nslots; i++) /* every phase empty: comments only */
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime >= 0)
        c_slot(f, p, l, &l->slots[i], &members, "");
  if (!members)
    fputs("  unsigned char empty_[1]; /* no smem buffer has a size: a struct needs a member */\n", f);
  fputs("};\n\n", f);
}

/* A slot's member designator: "A", or "phases_.mainloop.A" in the union. */
static void member_path(const tf_problem *p, const tf_layout *l, const tf_layout_slot *s, char *out, size_t size) {
  char id[96], phase[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  if (s->lifetime < 0 || !c_has_union(p, l)) {
    snprintf(out, size, "%s", id);
    return;
  }
  phase_ident(p->workset, s->lifetime, phase, sizeof phase);
  snprintf(out, size, "phases_.%s.%s", phase, id);
}

static void c_smem_asserts(FILE *f, const tf_problem *p, const tf_layout *l, const char *tag) {
  char id[224];
  if (c_has_union(p, l))
    fprintf(f, "static_assert(offsetof(struct %s, phases_) == %lld, \"the lifetimes' union at offset %lld\");\n"
               "static_assert(sizeof(((struct %s *)0)->phases_) == %lld, \"the union is its largest lifetime, %lld B\");\n",
            tag, (long long)l->phase_base[TF_MEM_SMEM], (long long)l->phase_base[TF_MEM_SMEM], tag,
            (long long)c_union_size(p, l), (long long)c_union_size(p, l));
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != TF_MEM_SMEM)
      continue;
    member_path(p, l, s, id, sizeof id);
    if (s->host >= 0 && s->allocated > 0)
      fprintf(f, "static_assert(offsetof(struct %s, %s_extra_) == %lld, \"%s's excess at offset %lld\");\n", tag, id,
              (long long)s->extra_offset, id, (long long)s->extra_offset);
    if (!is_member(l, s))
      continue;
    fprintf(f, "static_assert(offsetof(struct %s, %s) == %lld, \"%s at offset %lld\");\n", tag, id,
            (long long)s->offset, id, (long long)s->offset);
    fprintf(f, "static_assert(sizeof(((struct %s *)0)->%s) == %lld, \"%s is %lld B\");\n", tag, id, (long long)s->size,
            id, (long long)s->size);
  }
  if (l->end[TF_MEM_SMEM] > 0)
    fprintf(f, "static_assert(sizeof(struct %s) == %lld, \"smem used: %lld B\");\n", tag,
            (long long)l->end[TF_MEM_SMEM], (long long)l->end[TF_MEM_SMEM]);
  fprintf(f, "static_assert(sizeof(struct %s) <= %lld, \"smem capacity: %lld B\");\n\n", tag,
          (long long)l->capacity[TF_MEM_SMEM], (long long)l->capacity[TF_MEM_SMEM]);
}

/* TMEM and RF: offsets and sizes as constants, in the memory's unit. */
static void c_units(FILE *f, const tf_problem *p, const tf_layout *l, int m, const char *tag) {
  char id[96];
  fprintf(f, "/* %s, in %s: %lld of %lld */\nenum %s_%s {\n", tf_memory_name(m), tf_memory_unit(m),
          (long long)l->end[m], (long long)l->capacity[m], tag, tf_memory_name(m));
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != m)
      continue;
    tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
    fprintf(f, "  %s_%s_%s_offset = %lld,\n  %s_%s_%s_size = %lld,\n  %s_%s_%s_allocated = %lld,\n", tag,
            tf_memory_name(m), id, (long long)s->offset, tag, tf_memory_name(m), id, (long long)s->size, tag,
            tf_memory_name(m), id, (long long)s->allocated);
  }
  fprintf(f, "  %s_%s_used = %lld,\n  %s_%s_capacity = %lld\n};\n", tag, tf_memory_name(m), (long long)l->end[m], tag,
          tf_memory_name(m), (long long)l->capacity[m]);
  fprintf(f, "static_assert(%s_%s_used <= %s_%s_capacity, \"%s: %lld of %lld %s\");\n\n", tag, tf_memory_name(m), tag,
          tf_memory_name(m), tf_memory_name(m), (long long)l->end[m], (long long)l->capacity[m], tf_memory_unit(m));
}

void tf_struct_write_c(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  char base[96], prefix[100], tag[128], guard[160];
  tf_fragment_ident(p->workset->name, base, sizeof base);
  snprintf(prefix, sizeof prefix, "tf_%s", base);
  snprintf(tag, sizeof tag, "%s_smem", prefix);
  snprintf(guard, sizeof guard, "TILEFIT_LAYOUT_%s_H", base);
  for (char *s = guard; *s; s++)
    *s = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
  fputs("/* The shared-memory layout tilefit proved: each buffer at its offset, each\n"
        " * size rounded as the capacity rows charge it.\n",
        f);
  tf_fragment_provenance(f, " * ", p, a, 1);
  fprintf(f, " */\n#ifndef %s\n#define %s\n\n#include <stddef.h>\n#ifndef __cplusplus\n#include <assert.h> /* "
             "static_assert */\n#endif\n\n",
          guard, guard);
  c_smem_struct(f, p, l, tag);
  c_smem_asserts(f, p, l, tag);
  for (int m = 0; m < TF_NMEM; m++)
    if (m != TF_MEM_SMEM && l->shown[m])
      c_units(f, p, l, m, prefix);
  fprintf(f, "#endif\n");
}

/* One member of a CuTe DSL struct whose first byte is at `base`:
 * cute.struct.Align only where the offset within the struct and the
 * address are already multiples of the alignment (CuTe DSL then inserts
 * no padding the capacity rows do not charge).  1 when it is a member. */
static int py_member(FILE *f, const tf_problem *p, const tf_layout_slot *s, int64_t base) {
  char id[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  const char *what = s->host >= 0 ? "_extra_" : "";
  if (s->allocated == 0) {
    fprintf(f, "    # %s: offset %lld, size %lld%s\n", id, (long long)s->offset, (long long)s->size,
            s->host >= 0 ? ", in its host's space" : "");
    return 0;
  }
  int64_t at = s->host >= 0 ? s->extra_offset : s->offset;
  if (s->align > 1 && at % s->align == 0 && (at - base) % s->align == 0)
    fprintf(f, "    %s%s: cute.struct.Align[cute.struct.MemRange[cutlass.Uint8, %lld], %lld]", id, what,
            (long long)s->allocated, (long long)s->align);
  else
    fprintf(f, "    %s%s: cute.struct.MemRange[cutlass.Uint8, %lld]", id, what, (long long)s->allocated);
  fprintf(f, "  # offset %lld, size %lld, allocated %lld, align %lld\n", (long long)at, (long long)s->size,
          (long long)s->allocated, (long long)s->align);
  return 1;
}

/* CuTe DSL has no union: each lifetime is a struct of its own, laid out
 * from the union's offset, and SharedStorage holds the union as one byte
 * range (phases_) that each lifetime's struct overlays. */
static void py_phases(FILE *f, const tf_problem *p, const tf_layout *l) {
  char id[96];
  const tf_workset *w = p->workset;
  for (int q = 0; q < (int)w->nlifetimes; q++) {
    if (!phase_has_members(l, q))
      continue;
    phase_ident(w, q, id, sizeof id);
    fprintf(f, "@cute.struct\nclass SharedStorage_%s:  # lifetime %s: %lld B from offset %lld, over phases_\n", id,
            w->lifetimes[q], (long long)l->phase_size[TF_MEM_SMEM][q], (long long)l->phase_base[TF_MEM_SMEM]);
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime == q)
        py_member(f, p, &l->slots[i], l->phase_base[TF_MEM_SMEM]);
    fputs("\n\n", f);
  }
}

void tf_struct_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  tf_fragment_provenance(f, "# ", p, a, 1);
  fprintf(f, "# smem: %lld of %lld B; each member at the offset tilefit laid it out at\n",
          (long long)l->end[TF_MEM_SMEM], (long long)l->capacity[TF_MEM_SMEM]);
  fputs("import cutlass\nimport cutlass.cute as cute\n\n\n", f);
  int unioned = c_has_union(p, l), members = 0;
  if (unioned)
    py_phases(f, p, l);
  fputs("@cute.struct\nclass SharedStorage:\n", f);
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory == TF_MEM_SMEM && (s->lifetime < 0 || !unioned))
      members += py_member(f, p, s, 0);
  }
  if (unioned) {
    fprintf(f, "    phases_: cute.struct.MemRange[cutlass.Uint8, %lld]  # offset %lld: the lifetimes' union, as large "
               "as the largest; each lifetime's SharedStorage_ struct overlays it\n",
            (long long)c_union_size(p, l), (long long)l->phase_base[TF_MEM_SMEM]);
    members++;
  }
  if (!members)
    fputs("    pass\n", f);
}
