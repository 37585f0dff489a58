/* Strict loader for machines/NAME.json (schema: machines/README.md).
 *
 * The integer fields are listed once, in TF_MACHINE_FIELDS (machine.h),
 * as `fields[]` here; the key checks, the reader and the sources check all
 * walk that table.  Checks run in document
 * order of concern: syntax (json.c), keys, strings, integers, the carveout
 * list, cross-field consistency, and last the sources, so that each bad
 * input reports the first thing a person would fix. */
#include "model/input/machine.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/input/json_read.h"
#include "model/input/memory_kind.h"

#define NAME_MAX_LEN 64

/* One integer field (TF_MACHINE_FIELDS): JSON object `section` ("" for the
 * root), key `key`, stored at `offset` in tf_machine, valid in [lo, hi]. */
struct field {
  const char *section;
  const char *key;
  size_t offset;
  int64_t lo, hi;
};

#define TOP(k, lo, hi, c) {"", #k, offsetof(tf_machine, k), lo, hi},
#define SUB(s, k, lo, hi, c) {#s, #k, offsetof(tf_machine, s.k), lo, hi},
#define SUB_ONLY(s, k, lo, hi) SUB(s, k, lo, hi, -)
static const struct field fields[] = {TF_MACHINE_FIELDS(TOP, SUB, SUB_ONLY)};
#undef TOP
#undef SUB
#undef SUB_ONLY

#define NFIELDS (sizeof fields / sizeof fields[0])

/* The sections besides each memory kind's own (tf_memory_section). */
static const char *const other_sections[] = {"limits", "throughput", NULL};
/* Sections a machine may leave out, each with its "present" flag; without
 * one the machine lacks its fields. */
static const struct optional {
  const char *section;
  size_t present;
} optional_sections[] = {
    {"latency", offsetof(tf_machine, latency.present)},     {"l2", offsetof(tf_machine, l2.present)},
    {"sustained", offsetof(tf_machine, sustained.present)}, {"alu", offsetof(tf_machine, alu.present)},
    {"mma_sync", offsetof(tf_machine, mma_sync.present)},   {"mma_f32acc", offsetof(tf_machine, mma_f32acc.present)},
    {"kernel", offsetof(tf_machine, kernel.present)},
};
#define NOPTIONAL (sizeof optional_sections / sizeof *optional_sections)

static int optional_section(const char *section) {
  for (size_t i = 0; i < NOPTIONAL; i++)
    if (!strcmp(section, optional_sections[i].section))
      return (int)i;
  return -1;
}
static const char *const root_keys[] = {"name", "description", "arch", "mma", "edges", "sources", NULL};
/* Source tags (machines/SOURCES.md); a source starts with one. */
static const char *const tags[] = {"[doc]", "[dev]", "[derived]", "[3rd]", "[fitted]", "UNCONFIRMED", NULL};

static int in_list(const char *s, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(s, *list))
      return 1;
  return 0;
}

/* The memory kind whose section `section` is, or -1. */
static int section_memory(const char *section) {
  for (int mem = 0; mem < TF_NMEM; mem++)
    if (!strcmp(section, tf_memory_section(mem)))
      return mem;
  return -1;
}

static int is_field(const char *section, const char *key) {
  for (size_t i = 0; i < NFIELDS; i++)
    if (!strcmp(fields[i].section, section) && !strcmp(fields[i].key, key))
      return 1;
  return 0;
}

/* Keys that may appear in object `section` ("" for the root). */
static int known_key(const char *section, const char *key) {
  if (is_field(section, key))
    return 1;
  if (!*section)
    return in_list(key, root_keys) || section_memory(key) >= 0 || in_list(key, other_sections) ||
           optional_section(key) >= 0;
  return !strcmp(section, "smem") && !strcmp(key, "carveouts_kb");
}

static void json_path(char *buf, size_t size, const char *section, const char *key) {
  if (*section)
    snprintf(buf, size, "$.%s.%s", section, key);
  else
    snprintf(buf, size, "$.%s", key);
}

static int check_keys(const cJSON *obj, const char *section, tf_error *err) {
  char path[160];
  if (!cJSON_IsObject(obj)) {
    snprintf(path, sizeof path, "$%s%s", *section ? "." : "", section);
    return tf_error_set(err, TF_EINPUT, path, "expected an object");
  }
  const cJSON *m;
  cJSON_ArrayForEach(m, obj) {
    if (!known_key(section, m->string)) {
      json_path(path, sizeof path, section, m->string);
      return tf_error_set(err, TF_EINPUT, path, "unknown key '%s'", m->string);
    }
  }
  return 0;
}

static int check_section(const cJSON *root, const char *section, int optional, tf_error *err) {
  const cJSON *obj = tf_json_member(root, section);
  if (!obj && optional)
    return 0;
  if (!obj) {
    char path[160];
    json_path(path, sizeof path, "", section);
    return tf_error_set(err, TF_EINPUT, path, "missing required object '%s'", section);
  }
  return check_keys(obj, section, err);
}

/* Every section is an object with known keys; a memory a machine may lack
 * (tf_memory_optional) may be left out, and the machine then lacks it. */
static int check_sections(const cJSON *root, tf_machine *m, tf_error *err) {
  /* A workset given where a machine belongs: say so, not "unknown key". */
  if (cJSON_IsObject(root) && tf_json_member(root, "buffers") && !tf_json_member(root, "smem"))
    return tf_error_set(err, TF_EINPUT, "$", "this is a workset, not a machine model (give it with -w)");
  if (check_keys(root, "", err))
    return -1;
  for (int mem = 0; mem < TF_NMEM; mem++) {
    if (check_section(root, tf_memory_section(mem), tf_memory_optional(mem), err))
      return -1;
    tf_memory_set_present(m, mem, tf_json_member(root, tf_memory_section(mem)) != NULL);
  }
  for (const char *const *s = other_sections; *s; s++)
    if (check_section(root, *s, 0, err))
      return -1;
  for (size_t i = 0; i < NOPTIONAL; i++) {
    if (check_section(root, optional_sections[i].section, 1, err))
      return -1;
    *(int *)((char *)m + optional_sections[i].present) = tf_json_member(root, optional_sections[i].section) != NULL;
  }
  return 0;
}

/* A section this machine lacks: a memory it has not, or an optional
 * section it leaves out. */
static int section_absent(const tf_machine *m, const char *section) {
  int k = optional_section(section);
  return tf_memory_section_absent(m, section) ||
         (k >= 0 && !*(const int *)((const char *)m + optional_sections[k].present));
}

/* `[a-z0-9][a-z0-9._-]*`: the name doubles as a file stem. */
static const char *bad_name(const char *s) {
  if (!*s)
    return "must not be empty";
  if (strlen(s) > NAME_MAX_LEN)
    return "is longer than 64 characters";
  for (const char *p = s; *p; p++) {
    int ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
    if (!ok && (p == s || !strchr("._-", *p)))
      return "must match [a-z0-9][a-z0-9._-]*";
  }
  return NULL;
}

int64_t tf_machine_time_mhz(const tf_machine *m) {
  return m->sustained.present ? m->sustained.clock_mhz : m->clock_mhz;
}

static int is_nvidia(const char *arch) { return !strncmp(arch, "sm_", 3); }

/* NVIDIA: `sm_` digits, then an optional lower-case suffix ("sm_90",
 * "sm_100a").  AMD: `gfx` and hex digits, the LLVM target ("gfx942"). */
static const char *bad_arch(const char *s) {
  static const char *const why = "must match sm_[0-9]+[a-z]* or gfx[0-9a-f]+";
  const char *p = s + 3;
  if (!strncmp(s, "gfx", 3)) {
    while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
      p++;
    return p == s + 3 || *p ? why : NULL;
  }
  if (!is_nvidia(s) || !(s[3] >= '0' && s[3] <= '9'))
    return why;
  while (*p >= '0' && *p <= '9')
    p++;
  while (*p >= 'a' && *p <= 'z')
    p++;
  return *p ? why : NULL;
}

/* Reads root string `key` into a copy the machine owns.  `check` may be
 * NULL; otherwise it returns a reason the value is bad. */
static int read_string(const cJSON *root, const char *key, const char *(*check)(const char *), char **out,
                       tf_error *err) {
  char path[160];
  json_path(path, sizeof path, "", key);
  const cJSON *v = tf_json_member(root, key);
  if (!v)
    return tf_error_set(err, TF_EINPUT, path, "missing required field (expected a string)");
  const char *s;
  if (tf_json_string(v, path, &s, err))
    return -1;
  const char *why = check ? check(s) : (*s ? NULL : "must not be empty");
  if (!why && (why = tf_text_unfit(s, 512))) /* it reaches terminals: `machines`, errors */
    return tf_error_set(err, TF_EINPUT, path, "expected text of at most 512 bytes of UTF-8; this %s", why);
  if (why)
    return tf_error_set(err, TF_EINPUT, path, "'%.80s' %s", s, why);
  *out = tf_strdup(s);
  return 0;
}

static int read_strings(const cJSON *root, tf_machine *m, tf_error *err) {
  if (read_string(root, "name", bad_name, &m->name, err) ||
      read_string(root, "description", NULL, &m->description, err) ||
      read_string(root, "arch", bad_arch, &m->arch, err))
    return -1;
  return 0;
}

static const char *type_name(const cJSON *v) {
  if (cJSON_IsString(v))
    return "a string";
  if (cJSON_IsBool(v))
    return "a boolean";
  if (cJSON_IsArray(v))
    return "an array";
  if (cJSON_IsObject(v))
    return "an object";
  return cJSON_IsNull(v) ? "null" : "a number";
}

/* Strict integer: tf_json_int would take true/false as 1/0. */
static int read_int(const cJSON *v, const char *path, int64_t lo, int64_t hi, int64_t *out, tf_error *err) {
  if (!cJSON_IsNumber(v))
    return tf_error_set(err, TF_EINPUT, path, "expected an integer from %lld to %lld, got %s", (long long)lo,
                        (long long)hi, type_name(v));
  return tf_json_int(v, path, lo, hi, out, err);
}

/* The field's path is formatted only when there is an error to name. */
static int read_field(const cJSON *root, const struct field *f, tf_machine *m, tf_error *err) {
  const cJSON *obj = *f->section ? tf_json_member(root, f->section) : root;
  const cJSON *v = tf_json_member(obj, f->key);
  if (v && !read_int(v, NULL, f->lo, f->hi, (int64_t *)((char *)m + f->offset), err))
    return 0;
  char path[160];
  json_path(path, sizeof path, f->section, f->key);
  if (!v)
    return tf_error_set(err, TF_EINPUT, path, "missing required field (expected an integer from %lld to %lld)",
                        (long long)f->lo, (long long)f->hi);
  return tf_error_set_path(err, path), -1;
}

static int read_fields(const cJSON *root, tf_machine *m, tf_error *err) {
  for (size_t i = 0; i < NFIELDS; i++) {
    if (section_absent(m, fields[i].section))
      continue;
    if (read_field(root, &fields[i], m, err))
      return -1;
  }
  return 0;
}

/* Ascending, at most TF_MAX_CARVEOUTS, ending at per_sm / 1024. */
static int read_carveouts(const cJSON *smem, tf_machine *m, tf_error *err) {
  const char *path = "$.smem.carveouts_kb";
  const cJSON *a = tf_json_member(smem, "carveouts_kb");
  if (!a)
    return tf_error_set(err, TF_EINPUT, path, "missing required field (expected an array of KB)");
  int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
  if (n < 1 || n > TF_MAX_CARVEOUTS)
    return tf_error_set(err, TF_EINPUT, path, "expected an array of 1 to %d integers (KB)", TF_MAX_CARVEOUTS);
  int64_t top = m->smem.per_sm / 1024;
  const cJSON *v;
  int i = 0;
  cJSON_ArrayForEach(v, a) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, (size_t)i);
    if (read_int(v, sub, 0, top, &m->smem.carveouts_kb[i], err))
      return -1;
    if (i && m->smem.carveouts_kb[i] <= m->smem.carveouts_kb[i - 1])
      return tf_error_set(err, TF_EINPUT, sub, "carveouts must be strictly ascending (%lld after %lld)",
                          (long long)m->smem.carveouts_kb[i], (long long)m->smem.carveouts_kb[i - 1]);
    i++;
  }
  m->smem.ncarveouts = n;
  if (m->smem.carveouts_kb[n - 1] * 1024 != m->smem.per_sm) {
    char sub[160];
    tf_path_index(sub, sizeof sub, path, (size_t)(n - 1));
    return tf_error_set(err, TF_EINPUT, sub, "the largest carveout must be per_sm / 1024 = %lld KB", (long long)top);
  }
  return 0;
}

static int pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static int check_smem(const tf_machine *m, tf_error *err) {
  if (!pow2(m->smem.granule))
    return tf_error_set(err, TF_EINPUT, "$.smem.granule", "expected a power of two, got %lld",
                        (long long)m->smem.granule);
  if (m->smem.capacity + m->smem.reserved_per_cta > m->smem.per_sm)
    return tf_error_set(err, TF_EINPUT, "$.smem.capacity", "capacity + reserved_per_cta = %lld exceeds per_sm = %lld",
                        (long long)(m->smem.capacity + m->smem.reserved_per_cta), (long long)m->smem.per_sm);
  return 0;
}

static int check_tmem(const tf_machine *m, tf_error *err) {
  if (!m->tmem.present)
    return 0;
  if (!pow2(m->tmem.columns))
    return tf_error_set(err, TF_EINPUT, "$.tmem.columns", "expected a power of two, got %lld",
                        (long long)m->tmem.columns);
  if (!pow2(m->tmem.min_alloc_columns) || m->tmem.min_alloc_columns > m->tmem.columns)
    return tf_error_set(err, TF_EINPUT, "$.tmem.min_alloc_columns",
                        "expected a power of two no larger than columns = %lld, got %lld", (long long)m->tmem.columns,
                        (long long)m->tmem.min_alloc_columns);
  return 0;
}

static int check_rf_limits(const tf_machine *m, tf_error *err) {
  if (is_nvidia(m->arch) && m->rf.per_thread > 255)
    return tf_error_set(err, TF_EINPUT, "$.rf.per_thread",
                        "expected an integer from 1 to 255 on an sm_ arch (ptxas's limit), got %lld",
                        (long long)m->rf.per_thread);
  if (!pow2(m->rf.warp_granule))
    return tf_error_set(err, TF_EINPUT, "$.rf.warp_granule", "expected a power of two, got %lld",
                        (long long)m->rf.warp_granule);
  if (m->limits.threads_per_cta > m->limits.threads_per_sm)
    return tf_error_set(err, TF_EINPUT, "$.limits.threads_per_cta", "%lld exceeds threads_per_sm = %lld",
                        (long long)m->limits.threads_per_cta, (long long)m->limits.threads_per_sm);
  return 0;
}

/* Writes $.sources['smem.capacity'] (the key holds a dot, so bracket form). */
static void source_path(char *buf, size_t size, const char *dotted) {
  snprintf(buf, size, "$.sources['%.100s']", dotted);
}

/* Does `dotted` ("smem.capacity") name a field this machine has? */
static int names_field(const tf_machine *m, const char *dotted) {
  if (!strcmp(dotted, "arch") || !strcmp(dotted, "smem.carveouts_kb"))
    return 1;
  if (tf_datapath_names_source(&m->datapath, dotted))
    return 1;
  for (size_t i = 0; i < NFIELDS; i++) {
    const struct field *f = &fields[i];
    if (section_absent(m, f->section))
      continue;
    size_t n = strlen(f->section);
    if (!n && !strcmp(dotted, f->key))
      return 1;
    if (n && !strncmp(dotted, f->section, n) && dotted[n] == '.' && !strcmp(dotted + n + 1, f->key))
      return 1;
  }
  return 0;
}

static int has_tag(const char *s) {
  for (const char *const *t = tags; *t; t++)
    if (!strncmp(s, *t, strlen(*t)))
      return 1;
  return 0;
}

static int check_source_entry(const cJSON *e, const tf_machine *m, tf_error *err) {
  char path[160];
  source_path(path, sizeof path, e->string);
  if (!names_field(m, e->string))
    return tf_error_set(err, TF_EINPUT, path,
                        "source for '%s', which is not a numeric field or table entry of this machine", e->string);
  const char *s;
  if (tf_json_string(e, path, &s, err))
    return -1;
  if (!has_tag(s))
    return tf_error_set(err, TF_EINPUT, path,
                        "expected a source starting with [doc], [dev], [derived], [3rd], [fitted] or UNCONFIRMED");
  return 0;
}

static int has_source(const void *src, const char *dotted) { return tf_json_member(src, dotted) != NULL; }

static int require_source(const cJSON *src, const char *dotted, tf_error *err) {
  if (tf_json_member(src, dotted))
    return 0;
  char path[160];
  source_path(path, sizeof path, dotted);
  return tf_error_set(err, TF_EINPUT, path, "missing source for field '%s'", dotted);
}

/* Every numeric field has a tagged source; every source names a field. */
static int check_sources(const cJSON *root, const tf_machine *m, tf_error *err) {
  const cJSON *src = tf_json_member(root, "sources");
  if (!src)
    return tf_error_set(err, TF_EINPUT, "$.sources", "missing required object 'sources'");
  if (!cJSON_IsObject(src))
    return tf_error_set(err, TF_EINPUT, "$.sources", "expected an object");
  const cJSON *e;
  cJSON_ArrayForEach(e, src) {
    if (check_source_entry(e, m, err))
      return -1;
  }
  for (size_t i = 0; i < NFIELDS; i++) {
    const struct field *f = &fields[i];
    if (section_absent(m, f->section))
      continue;
    char dotted[64];
    snprintf(dotted, sizeof dotted, "%s%s%s", f->section, *f->section ? "." : "", f->key);
    if (require_source(src, dotted, err))
      return -1;
  }
  char entry[64];
  if (tf_datapath_unsourced(&m->datapath, has_source, src, entry, sizeof entry))
    return require_source(src, entry, err);
  return require_source(src, "smem.carveouts_kb", err);
}

/* Keeps the (already checked) sources, so that they can be shown. */
static void keep_sources(const cJSON *root, tf_machine *m) {
  const cJSON *src = tf_json_member(root, "sources"), *e;
  m->sources = tf_nalloc((size_t)cJSON_GetArraySize(src) + 1, sizeof *m->sources);
  cJSON_ArrayForEach(e, src) {
    m->sources[m->nsources].field = tf_strdup(e->string);
    m->sources[m->nsources++].text = tf_strdup(e->valuestring);
  }
}

static int read_machine(const cJSON *root, tf_machine *m, tf_error *err) {
  if (check_sections(root, m, err) || read_strings(root, m, err) || read_fields(root, m, err) ||
      read_carveouts(tf_json_member(root, "smem"), m, err) || check_smem(m, err) || check_tmem(m, err) ||
      check_rf_limits(m, err) || tf_datapath_read(root, m->tmem.present, &m->datapath, err) ||
      check_sources(root, m, err))
    return -1;
  keep_sources(root, m);
  return 0;
}

tf_machine *tf_machine_parse(const char *text, size_t len, const char *file, tf_error *err) {
  cJSON *root = tf_json_parse(text, len, file, err);
  if (!root)
    return NULL;
  tf_machine *m;
  TF_NALLOC(m, 1);
  int rc = read_machine(root, m, err);
  cJSON_Delete(root); /* nothing below borrows from the tree */
  if (rc) {
    tf_error_set_file(err, file);
    tf_machine_free(m);
    return NULL;
  }
  m->file = tf_strdup(file ? file : "");
  return m;
}

tf_machine *tf_machine_load(const char *file, tf_error *err) {
  size_t len = 0;
  char *text = tf_read_file(file, &len, err);
  if (!text)
    return NULL;
  tf_machine *m = tf_machine_parse(text, len, file, err);
  free(text);
  return m;
}

void tf_machine_free(tf_machine *m) {
  if (!m)
    return;
  free(m->name);
  free(m->description);
  free(m->arch);
  free(m->file);
  for (size_t i = 0; i < m->nsources; i++)
    free(m->sources[i].field), free(m->sources[i].text);
  free(m->sources);
  tf_datapath_release(&m->datapath);
  free(m);
}

int tf_machine_field(const tf_machine *m, size_t i, char *name, size_t size, int64_t *value) {
  if (i >= NFIELDS)
    return -1;
  const struct field *f = &fields[i];
  snprintf(name, size, "%s%s%s", f->section, *f->section ? "." : "", f->key);
  memcpy(value, (const char *)m + f->offset, sizeof *value);
  return section_absent(m, f->section) ? 1 : 0;
}

/* Binding asks at every problem, so the sections this machine lacks are
 * listed first (a memory it has not, an optional section it leaves out:
 * section_absent's two rules), and a section's fields, consecutive rows,
 * are looked up in that list once. */
void tf_machine_field_values(const tf_machine *m, int64_t *v) {
  const char *lacks[TF_NMEM + NOPTIONAL];
  size_t nlacks = 0;
  for (int k = 0; k < TF_NMEM; k++)
    if (!tf_memory_present(m, k))
      lacks[nlacks++] = tf_memory_section(k);
  for (size_t k = 0; k < NOPTIONAL; k++)
    if (!*(const int *)((const char *)m + optional_sections[k].present))
      lacks[nlacks++] = optional_sections[k].section;
  const char *section = NULL;
  int absent = 0;
  for (size_t i = 0; i < NFIELDS; i++) {
    const char *s = fields[i].section; /* first characters first: most names differ there */
    if (section != s && (!section || section[0] != s[0] || strcmp(section, s))) { /* a new section */
      absent = 0;
      for (size_t k = 0; k < nlacks && !absent; k++)
        absent = lacks[k][0] == s[0] && !strcmp(s, lacks[k]);
    }
    section = fields[i].section;
    v[i] = 0;
    if (!absent)
      memcpy(&v[i], (const char *)m + fields[i].offset, sizeof v[i]);
  }
}

/* The vendor prefix ("sm_", "gfx") and the number after it; the number is
 * decimal on sm_ and hex on gfx.  0 when `s` is neither. */
static int arch_parts(const char *s, const char **prefix_end, long *num, const char **rest) {
  int hex = !strncmp(s, "gfx", 3);
  if (!hex && strncmp(s, "sm_", 3))
    return 0;
  *prefix_end = s + 3;
  char *end;
  *num = strtol(s + 3, &end, hex ? 16 : 10);
  *rest = end;
  return end != s + 3;
}

/* pattern: PREFIX DIGITS [x | +] ; see tf_machine_arch_matches. */
static int match_arch(const char *pattern, const char *arch) {
  const char *pe, *pr, *ae, *ar;
  long pn, an;
  if (!arch_parts(pattern, &pe, &pn, &pr) || !arch_parts(arch, &ae, &an, &ar))
    return -1;
  int kind = !strcmp(pr, "+") ? '+' : !strcmp(pr, "x") ? 'x' : '=';
  while (kind == '=' && *pr >= 'a' && *pr <= 'z')
    pr++;
  if (kind == '=' && *pr)
    return -1;
  if (strncmp(pattern, arch, 3))
    return 0; /* another vendor */
  if (kind == '+')
    return an >= pn;
  return kind == 'x' ? an / 10 == pn : an == pn;
}

int64_t tf_machine_arch_number(const tf_machine *m, const char *prefix) {
  size_t n = strlen(prefix);
  if (!m->arch || strncmp(m->arch, prefix, n))
    return 0;
  int64_t v = 0;
  for (const char *d = m->arch + n; *d >= '0' && *d <= '9' && v < 100000; d++)
    v = v * 10 + (*d - '0');
  return v;
}

int tf_arch_pattern_valid(const char *pattern) { return match_arch(pattern, "sm_0") >= 0; }

int tf_machine_arch_matches(const tf_machine *m, const char *pattern) { return match_arch(pattern, m->arch); }
