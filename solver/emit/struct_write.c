#include "struct_write.h"

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

static void c_member(FILE *f, const tf_problem *p, const tf_layout *l, const tf_layout_slot *s) {
  char id[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  int u = has_guests(l, s);
  int64_t span = s->size; /* the union's size: the largest of its members */
  for (size_t i = 0; u && i < l->nslots; i++)
    if (l->slots[i].host == (int)s->buffer && is_member(l, &l->slots[i]) && l->slots[i].size > span)
      span = l->slots[i].size;
  if (u)
    fputs("  union {\n  ", f);
  fprintf(f, "  unsigned char %s[%lld]; /* offset %lld, size %lld, allocated %lld, align %lld */\n", id,
          (long long)s->size, (long long)s->offset, (long long)s->size, (long long)s->allocated, (long long)s->align);
  for (size_t i = 0; u && i < l->nslots; i++)
    if (l->slots[i].host == (int)s->buffer && is_member(l, &l->slots[i])) {
      tf_fragment_ident(p->workset->buffers[l->slots[i].buffer].name, id, sizeof id);
      fprintf(f, "    unsigned char %s[%lld]; /* shares its space, size %lld */\n", id, (long long)l->slots[i].size,
              (long long)l->slots[i].size);
    }
  if (u)
    fputs("  };\n", f);
  if (s->allocated > span) {
    tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
    fprintf(f, "  unsigned char %s_pad_[%lld]; /* rounding to %lld */\n", id, (long long)(s->allocated - span),
            (long long)s->align);
  }
}

/* What is not a member of its own: an empty buffer, an aliased buffer's
 * excess over its host (charged where it is laid out), an aliased buffer
 * too large for its host's space. */
static void c_other(FILE *f, const tf_problem *p, const tf_layout *l, const tf_layout_slot *s, int *members) {
  char id[96];
  tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
  const char *host = s->host >= 0 ? p->workset->buffers[s->host].name : NULL;
  if (host && s->allocated > 0) {
    fprintf(f, "  unsigned char %s_extra_[%lld]; /* offset %lld: %s's %lld beyond %s's size, charged here */\n", id,
            (long long)s->allocated, (long long)s->extra_offset, id, (long long)s->allocated, host);
    ++*members;
  }
  if (host && !is_member(l, s))
    fprintf(f, "  /* %s: from offset %lld in %s's space, size %lld */\n", id, (long long)s->offset, host,
            (long long)s->size);
  else if (!host)
    fprintf(f, "  /* %s: offset %lld, size 0 */\n", id, (long long)s->offset);
}

static void c_smem_struct(FILE *f, const tf_problem *p, const tf_layout *l, const char *tag) {
  fprintf(f, "/* smem: %lld of %lld B */\nstruct %s {\n", (long long)l->end[TF_MEM_SMEM],
          (long long)l->capacity[TF_MEM_SMEM], tag);
  int members = 0;
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != TF_MEM_SMEM || (s->host >= 0 && is_member(l, s) && s->allocated == 0))
      continue; /* not smem, or a member of its host's union */
    if (s->host < 0 && is_member(l, s))
      c_member(f, p, l, s), members++;
    else
      c_other(f, p, l, s, &members);
  }
  if (!members)
    fputs("  unsigned char empty_[1]; /* no smem buffer has a size: a struct needs a member */\n", f);
  fputs("};\n\n", f);
}

static void c_smem_asserts(FILE *f, const tf_problem *p, const tf_layout *l, const char *tag) {
  char id[96];
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != TF_MEM_SMEM)
      continue;
    tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
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

void tf_struct_write_cute_dsl(FILE *f, const tf_problem *p, const tf_answer *a, const tf_layout *l) {
  tf_fragment_provenance(f, "# ", p, a, 1);
  fprintf(f, "# smem: %lld of %lld B; each member at the offset tilefit laid it out at\n",
          (long long)l->end[TF_MEM_SMEM], (long long)l->capacity[TF_MEM_SMEM]);
  fputs("import cutlass\nimport cutlass.cute as cute\n\n\n@cute.struct\nclass SharedStorage:\n", f);
  int members = 0;
  char id[96];
  for (size_t i = 0; i < l->nslots; i++) {
    const tf_layout_slot *s = &l->slots[i];
    if (s->memory != TF_MEM_SMEM)
      continue;
    tf_fragment_ident(p->workset->buffers[s->buffer].name, id, sizeof id);
    const char *what = s->host >= 0 ? "_extra_" : "";
    if (s->allocated == 0) {
      fprintf(f, "    # %s: offset %lld, size %lld%s\n", id, (long long)s->offset, (long long)s->size,
              s->host >= 0 ? ", in its host's space" : "");
      continue;
    }
    int64_t at = s->host >= 0 ? s->extra_offset : s->offset;
    if (s->align > 1 && at % s->align == 0)
      fprintf(f, "    %s%s: cute.struct.Align[cute.struct.MemRange[cutlass.Uint8, %lld], %lld]", id, what,
              (long long)s->allocated, (long long)s->align);
    else
      fprintf(f, "    %s%s: cute.struct.MemRange[cutlass.Uint8, %lld]", id, what, (long long)s->allocated);
    fprintf(f, "  # offset %lld, size %lld, allocated %lld, align %lld\n", (long long)at, (long long)s->size,
            (long long)s->allocated, (long long)s->align);
    members++;
  }
  if (!members)
    fputs("    pass\n", f);
}
