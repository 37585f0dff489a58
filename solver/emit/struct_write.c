#include "struct_write.h"

#include <stdio.h>
#include <string.h>

#include "solver/emit/fragment.h"
#include "solver/emit/member_names.h"
#include "solver/report.h"

/* What every writer below reads: the problem, its layout and the names of
 * its members. */
struct emit {
  FILE *f;
  const tf_problem *p;
  const tf_layout *l;
  tf_member_names names;
};

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

static void c_member(const struct emit *e, const tf_layout_slot *s, const char *in) {
  FILE *f = e->f;
  const tf_layout *l = e->l;
  const char *id = e->names.buffer[s->buffer];
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
      fprintf(f, "%s    unsigned char %s[%lld]; /* shares its space, size %lld */\n", in,
              e->names.buffer[l->slots[i].buffer], (long long)l->slots[i].size, (long long)l->slots[i].size);
    }
  if (u)
    fprintf(f, "%s  };\n", in);
  if (s->allocated > span)
    fprintf(f, "%s  unsigned char %s[%lld]; /* rounding to %lld */\n", in, e->names.pad[s->buffer],
            (long long)(s->allocated - span), (long long)s->align);
}

/* What is not a member of its own: an empty buffer, an aliased buffer's
 * excess over its host (charged where it is laid out), an aliased buffer
 * too large for its host's space. */
static void c_other(const struct emit *e, const tf_layout_slot *s, int *members, const char *in) {
  FILE *f = e->f;
  const char *id = e->names.buffer[s->buffer];
  const char *host = s->host >= 0 ? e->p->workset->buffers[s->host].name : NULL;
  if (host && s->allocated > 0) {
    fprintf(f, "%s  unsigned char %s[%lld]; /* offset %lld: %s's %lld beyond %s's size, charged here */\n", in,
            e->names.extra[s->buffer], (long long)s->allocated, (long long)s->extra_offset,
            e->p->workset->buffers[s->buffer].name, (long long)s->allocated, host);
    ++*members;
  }
  if (host && !is_member(e->l, s))
    fprintf(f, "%s  /* %s: from offset %lld in %s's space, size %lld */\n", in, id, (long long)s->offset, host,
            (long long)s->size);
  else if (!host)
    fprintf(f, "%s  /* %s: offset %lld, size 0 */\n", in, id, (long long)s->offset);
}

/* A slot of the struct (memory m's, lifetime `phase`): a member, its
 * host's union's, or a comment; *members counts the members. */
static void c_slot(const struct emit *e, const tf_layout_slot *s, int *members, const char *in) {
  if (s->host >= 0 && is_member(e->l, s) && s->allocated == 0)
    return; /* a member of its host's union */
  if (s->host < 0 && is_member(e->l, s))
    c_member(e, s, in), ++*members;
  else
    c_other(e, s, members, in);
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
static void c_union(const struct emit *e, int *members) {
  FILE *f = e->f;
  const tf_layout *l = e->l;
  const tf_workset *w = e->p->workset;
  fprintf(f, "  union { /* offset %lld: the lifetimes share this space, as large as the largest */\n",
          (long long)l->phase_base[TF_MEM_SMEM]);
  for (int q = 0; q < (int)w->nlifetimes; q++) {
    const char *id = e->names.phase[q];
    if (!phase_has_members(l, q)) {
      fprintf(f, "    /* %s: nothing of size here */\n", id);
      continue;
    }
    fprintf(f, "    struct { /* lifetime %s: %lld B */\n", w->lifetimes[q], (long long)l->phase_size[TF_MEM_SMEM][q]);
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime == q)
        c_slot(e, &l->slots[i], members, "    ");
    fprintf(f, "    } %s;\n", id);
  }
  fprintf(f, "  } %s;\n", e->names.phases);
}

static void c_smem_struct(const struct emit *e, const char *tag) {
  FILE *f = e->f;
  const tf_problem *p = e->p;
  const tf_layout *l = e->l;
  fprintf(f, "/* smem: %lld of %lld B */\nstruct %s {\n", (long long)l->end[TF_MEM_SMEM],
          (long long)l->capacity[TF_MEM_SMEM], tag);
  int members = 0;
  for (size_t i = 0; i < l->nslots; i++)
    if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime < 0)
      c_slot(e, &l->slots[i], &members, "");
  if (c_has_union(p, l))
    c_union(e, &members);
  else
    for (size_t i = 0; i < l->nslots; i++) /* every phase empty: comments only */
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime >= 0)
        c_slot(e, &l->slots[i], &members, "");
  if (!members)
    fprintf(f, "  unsigned char %s[1]; /* no smem buffer has a size: a struct needs a member */\n", e->names.empty);
  fputs("};\n\n", f);
}

/* A slot's member designator: "A", or "phases_.mainloop.A" in the union. */
static void member_path(const struct emit *e, const tf_layout_slot *s, const char *id, char *out, size_t size) {
  if (s->lifetime < 0 || !c_has_union(e->p, e->l))
    snprintf(out, size, "%s", id);
  else
    snprintf(out, size, "%s.%s.%s", e->names.phases, e->names.phase[s->lifetime], id);
}

static void c_smem_asserts(const struct emit *e, const char *tag) {
  FILE *f = e->f;
  const tf_problem *p = e->p;
  const tf_layout *l = e->l;
  char id[3 * TF_MEMBER_ID], extra[3 * TF_MEMBER_ID];
  const char *un = e->names.phases;
  if (c_has_union(p, l))
    fprintf(f,
            "static_assert(offsetof(struct %s, %s) == %lld, \"the lifetimes' union at offset %lld\");\n"
            "static_assert(sizeof(((struct %s *)0)->%s) == %lld, \"the union is its largest lifetime, %lld B\");\n",
            tag, un, (long long)l->phase_base[TF_MEM_SMEM], (long long)l->phase_base[TF_MEM_SMEM], tag, un,
            (long long)c_union_size(p, l), (long long)c_union_size(p, l));
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != TF_MEM_SMEM)
      continue;
    member_path(e, s, e->names.buffer[s->buffer], id, sizeof id);
    member_path(e, s, e->names.extra[s->buffer], extra, sizeof extra);
    if (s->host >= 0 && s->allocated > 0)
      fprintf(f, "static_assert(offsetof(struct %s, %s) == %lld, \"%s's excess at offset %lld\");\n", tag, extra,
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
static void c_units(const struct emit *e, int m, const char *tag) {
  FILE *f = e->f;
  const tf_layout *l = e->l;
  fprintf(f, "/* %s, in %s: %lld of %lld */\nenum %s_%s {\n", tf_memory_name(m), tf_memory_unit(m),
          (long long)l->end[m], (long long)l->capacity[m], tag, tf_memory_name(m));
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != m)
      continue;
    const char *id = e->names.buffer[s->buffer];
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
  fprintf(f,
          " */\n#ifndef %s\n#define %s\n\n#include <stddef.h>\n#ifndef __cplusplus\n#include <assert.h> /* "
          "static_assert */\n#endif\n\n",
          guard, guard);
  struct emit e = {f, p, l, {0}};
  tf_member_names_init(&e.names, p->workset);
  c_smem_struct(&e, tag);
  c_smem_asserts(&e, tag);
  for (int m = 0; m < TF_NMEM; m++)
    if (m != TF_MEM_SMEM && l->shown[m])
      c_units(&e, m, prefix);
  fprintf(f, "#endif\n");
  tf_member_names_release(&e.names);
}

/* One member of a CuTe DSL struct whose first byte is at `base`:
 * cute.struct.Align only where the offset within the struct and the
 * address are already multiples of the alignment (CuTe DSL then inserts
 * no padding the capacity rows do not charge).  1 when it is a member. */
static int py_member(const struct emit *e, const tf_layout_slot *s, int64_t base) {
  FILE *f = e->f;
  const char *id = s->host >= 0 ? e->names.extra[s->buffer] : e->names.buffer[s->buffer];
  if (s->allocated == 0) {
    fprintf(f, "    # %s: offset %lld, size %lld%s\n", e->names.buffer[s->buffer], (long long)s->offset,
            (long long)s->size, s->host >= 0 ? ", in its host's space" : "");
    return 0;
  }
  int64_t at = s->host >= 0 ? s->extra_offset : s->offset;
  if (s->align > 1 && at % s->align == 0 && (at - base) % s->align == 0)
    fprintf(f, "    %s: cute.struct.Align[cute.struct.MemRange[cutlass.Uint8, %lld], %lld]", id,
            (long long)s->allocated, (long long)s->align);
  else
    fprintf(f, "    %s: cute.struct.MemRange[cutlass.Uint8, %lld]", id, (long long)s->allocated);
  fprintf(f, "  # offset %lld, size %lld, allocated %lld, align %lld\n", (long long)at, (long long)s->size,
          (long long)s->allocated, (long long)s->align);
  return 1;
}

/* CuTe DSL has no union: each lifetime is a struct of its own, laid out
 * from the union's offset, and SharedStorage holds the union as one byte
 * range (phases_) that each lifetime's struct overlays. */
static void py_phases(const struct emit *e) {
  FILE *f = e->f;
  const tf_layout *l = e->l;
  const tf_workset *w = e->p->workset;
  for (int q = 0; q < (int)w->nlifetimes; q++) {
    if (!phase_has_members(l, q))
      continue;
    const char *id = e->names.phase[q];
    fprintf(f, "@cute.struct\nclass SharedStorage_%s:  # lifetime %s: %lld B from offset %lld, over %s\n", id,
            w->lifetimes[q], (long long)l->phase_size[TF_MEM_SMEM][q], (long long)l->phase_base[TF_MEM_SMEM],
            e->names.phases);
    for (size_t i = 0; i < l->nslots; i++)
      if (l->slots[i].memory == TF_MEM_SMEM && l->slots[i].lifetime == q)
        py_member(e, &l->slots[i], l->phase_base[TF_MEM_SMEM]);
    fputs("\n\n", f);
  }
}

void tf_struct_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  tf_fragment_provenance(f, "# ", p, a, 1);
  fprintf(f, "# smem: %lld of %lld B; each member at the offset tilefit laid it out at\n",
          (long long)l->end[TF_MEM_SMEM], (long long)l->capacity[TF_MEM_SMEM]);
  fputs("import cutlass\nimport cutlass.cute as cute\n\n\n", f);
  int unioned = c_has_union(p, l), members = 0;
  struct emit e = {f, p, l, {0}};
  tf_member_names_init(&e.names, p->workset);
  if (unioned)
    py_phases(&e);
  fputs("@cute.struct\nclass SharedStorage:\n", f);
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory == TF_MEM_SMEM && (s->lifetime < 0 || !unioned))
      members += py_member(&e, s, 0);
  }
  if (unioned) {
    fprintf(f,
            "    %s: cute.struct.MemRange[cutlass.Uint8, %lld]  # offset %lld: the lifetimes' union, as large "
            "as the largest; each lifetime's SharedStorage_ struct overlays it\n",
            e.names.phases, (long long)c_union_size(p, l), (long long)l->phase_base[TF_MEM_SMEM]);
    members++;
  }
  if (!members)
    fputs("    pass\n", f);
  tf_member_names_release(&e.names);
}
