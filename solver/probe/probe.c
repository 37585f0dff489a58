#include "probe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/input/catalog.h"
#include "model/input/machine.h"
#include "solver/probe/child.h"
#include "solver/probe/cuda.h"

/* The numbers the driver reports one for one. */
static const struct field {
  const char *path;
  int attribute;
  const char *attribute_name;
  int divisor; /* kHz -> MHz */
} fields[] = {
    {"sm_count", TF_CU_MULTIPROCESSOR_COUNT, "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT", 1},
    {"clock_mhz", TF_CU_CLOCK_RATE, "CU_DEVICE_ATTRIBUTE_CLOCK_RATE", 1000},
    {"l2_bytes", TF_CU_L2_CACHE_SIZE, "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE", 1},
    {"smem.capacity", TF_CU_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
     1},
    {"smem.per_sm", TF_CU_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
     "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", 1},
    {"smem.reserved_per_cta", TF_CU_RESERVED_SHARED_MEMORY_PER_BLOCK,
     "CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK", 1},
    {"rf.per_sm", TF_CU_MAX_REGISTERS_PER_MULTIPROCESSOR, "CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR", 1},
    {"limits.threads_per_sm", TF_CU_MAX_THREADS_PER_MULTIPROCESSOR,
     "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR", 1},
    {"limits.ctas_per_sm", TF_CU_MAX_BLOCKS_PER_MULTIPROCESSOR, "CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR", 1},
    {"limits.threads_per_cta", TF_CU_MAX_THREADS_PER_BLOCK, "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", 1},
};
#define NFIELDS (sizeof fields / sizeof *fields)

typedef struct probed {
  char device[256];
  int major, minor;
  int ok[NFIELDS]; /* the driver answered */
  int value[NFIELDS];
  int mem_khz, bus_bits, mem_ok;
} probed;

static int query(tf_cuda *cu, probed *p, tf_error *err) {
  char e[96];
  int rc = cu->init(0), count = 0, dev = 0;
  if (rc)
    return tf_cuda_error_text(cu, rc, e, sizeof e), tf_error_set(err, TF_EINPUT, NULL, "no GPU: cuInit failed: %s", e);
  if ((rc = cu->device_count(&count)) || count < 1) {
    if (rc)
      tf_cuda_error_text(cu, rc, e, sizeof e);
    return tf_error_set(err, TF_EINPUT, NULL, "no GPU: %s", rc ? e : "the CUDA driver sees no device");
  }
  if ((rc = cu->device_get(&dev, 0)) || cu->device_name(p->device, (int)sizeof p->device - 1, dev) ||
      cu->attribute(&p->major, TF_CU_COMPUTE_CAPABILITY_MAJOR, dev) ||
      cu->attribute(&p->minor, TF_CU_COMPUTE_CAPABILITY_MINOR, dev))
    return tf_error_set(err, TF_EINPUT, NULL,
                        "no GPU: device 0 does not answer cuDeviceGet, cuDeviceGetName "
                        "or its compute capability");
  p->device[sizeof p->device - 1] = 0;
  for (size_t i = 0; i < NFIELDS; i++)
    p->ok[i] = !cu->attribute(&p->value[i], fields[i].attribute, dev) && p->value[i] >= 0;
  p->mem_ok = !cu->attribute(&p->mem_khz, TF_CU_MEMORY_CLOCK_RATE, dev) &&
              !cu->attribute(&p->bus_bits, TF_CU_GLOBAL_MEMORY_BUS_WIDTH, dev) && p->mem_khz > 0 && p->bus_bits > 0;
  return 0;
}

/* ------------------------------------------------------------ the template */

static const char *string_member(const cJSON *o, const char *key) {
  const cJSON *v = tf_json_member(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* How well a shipped model fits: its description starts with the device
 * name (3), then the closer its SM count the better. */
static long fit_score(const cJSON *m, const probed *p) {
  size_t n = strlen(p->device);
  const char *d = string_member(m, "description");
  long score = !strncmp(d, p->device, n) && (d[n] == ' ' || d[n] == ',' || !d[n]) ? 3000000 : 0;
  const cJSON *sm = tf_json_member(m, "sm_count");
  if (cJSON_IsNumber(sm) && p->ok[0])
    score -= labs((long)sm->valuedouble - p->value[0]);
  return score;
}

/* The shipped model of the probed architecture that fits best. */
static cJSON *find_template(const probed *p, const char *arch, char *file, size_t size, tf_error *err) {
  size_t n = 0;
  char **names = tf_catalog_list(TF_CATALOG_MACHINES, &n);
  cJSON *best = NULL;
  long best_score = 0;
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    tf_error e;
    tf_error_init(&e);
    cJSON *m =
        tf_catalog_find(TF_CATALOG_MACHINES, names[i], "probe", path, sizeof path, &e) ? NULL : tf_json_load(path, &e);
    if (m && !strcmp(string_member(m, "arch"), arch) && (!best || fit_score(m, p) > best_score)) {
      cJSON_Delete(best);
      best = m;
      best_score = fit_score(m, p);
      snprintf(file, size, "machines/%s.json", names[i]);
    } else {
      cJSON_Delete(m);
    }
  }
  tf_catalog_list_free(names, n);
  if (!best)
    tf_error_set(err, TF_EINPUT, NULL,
                 "%s is %s, and no shipped machine model is: TMEM, tensor throughput and granules cannot be filled in",
                 p->device, arch);
  return best;
}

/* ------------------------------------------------------------ editing */

/* The object holding a dotted path's last key, and that key. */
static cJSON *parent_of(cJSON *root, const char *path, const char **key) {
  const char *dot = strchr(path, '.');
  *key = dot ? dot + 1 : path;
  if (!dot)
    return root;
  char head[64];
  snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
  return (cJSON *)tf_json_member(root, head);
}

static void set_number(cJSON *root, const char *path, double v) {
  const char *key;
  cJSON *obj = parent_of(root, path, &key);
  if (obj)
    cJSON_ReplaceItemInObjectCaseSensitive(obj, key, cJSON_CreateNumber(v));
}

static void set_string(cJSON *obj, const char *key, const char *text) {
  if (tf_json_member(obj, key))
    cJSON_ReplaceItemInObjectCaseSensitive(obj, key, cJSON_CreateString(text));
  else
    cJSON_AddItemToObject(obj, key, cJSON_CreateString(text));
}

/* Every template source becomes "TAG from machines/X.json, the shipped
 * ARCH model (the CUDA driver does not report it): REST". */
static void mark_template_sources(cJSON *sources, const char *file, const char *arch) {
  cJSON *next;
  for (cJSON *s = sources ? sources->child : NULL; s; s = next) {
    next = s->next;
    if (!cJSON_IsString(s))
      continue;
    const char *text = s->valuestring, *rest = text;
    size_t tag = 0;
    if (text[0] == '[' && strchr(text, ']'))
      tag = (size_t)(strchr(text, ']') - text) + 1;
    else if (!strncmp(text, "UNCONFIRMED", 11))
      tag = 11;
    rest = text + tag;
    while (*rest == ' ' || *rest == ':')
      rest++;
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s from %s, the shipped %s model (the CUDA driver does not report it): %s", (int)tag,
             text, file, arch, rest);
    cJSON_ReplaceItemInObjectCaseSensitive(sources, s->string, cJSON_CreateString(buf)); /* copies the key first */
  }
}

/* The probed numbers and their sources over the template. */
static void apply_probe(cJSON *m, const probed *p) {
  cJSON *sources = (cJSON *)tf_json_member(m, "sources");
  char src[512];
  for (size_t i = 0; i < NFIELDS; i++) {
    if (!p->ok[i])
      continue; /* the template's number stays, and says where it is from */
    set_number(m, fields[i].path, (double)(p->value[i] / fields[i].divisor));
    snprintf(src, sizeof src, "[dev] probe: cuDeviceGetAttribute(%s) on %s = %d%s", fields[i].attribute_name, p->device,
             p->value[i], fields[i].divisor == 1000 ? " kHz" : "");
    set_string(sources, fields[i].path, src);
  }
  if (p->mem_ok) {
    /* double data rate: two transfers per memory clock, bus width in bits */
    long long gbps = (2LL * p->mem_khz * p->bus_bits / 8 + 500000) / 1000000;
    set_number(m, "hbm_gbps", (double)gbps);
    snprintf(src, sizeof src,
             "[derived] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) on %s = %d kHz and "
             "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH) on %s = %d bit: "
             "2 x clock x width / 8 = %lld GB/s",
             p->device, p->mem_khz, p->device, p->bus_bits, gbps);
    set_string(sources, "hbm_gbps", src);
  }
  snprintf(src, sizeof src,
           "[dev] probe: cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, _MINOR) on %s = %d.%d",
           p->device, p->major, p->minor);
  set_string(sources, "arch", src);
}

/* The largest carveout must be the probed SMEM per SM (the loader checks
 * it): drop larger template entries and end the list with it. */
static void fit_carveouts(cJSON *m) {
  cJSON *smem = (cJSON *)tf_json_member(m, "smem");
  const cJSON *per_sm = tf_json_member(smem, "per_sm");
  cJSON *list = (cJSON *)tf_json_member(smem, "carveouts_kb");
  if (!cJSON_IsNumber(per_sm) || !cJSON_IsArray(list) || (long long)per_sm->valuedouble % 1024)
    return;
  double top = (double)((long long)per_sm->valuedouble / 1024);
  cJSON *next;
  for (cJSON *c = list->child; c; c = next) {
    next = c->next;
    if (!cJSON_IsNumber(c) || c->valuedouble >= top)
      cJSON_Delete(cJSON_DetachItemViaPointer(list, c));
  }
  cJSON_AddItemToArray(list, cJSON_CreateNumber(top));
}

static void name_and_describe(cJSON *m, const probed *p, const char *name, const char *arch, const char *file) {
  char slug[64] = "", desc[512];
  if (name) {
    snprintf(slug, sizeof slug, "%s", name);
  } else {
    size_t n = 0;
    for (const char *c = p->device; *c && n + 1 < sizeof slug; c++)
      if (isalnum((unsigned char)*c))
        slug[n++] = (char)tolower((unsigned char)*c);
      else if (n && slug[n - 1] != '-')
        slug[n++] = '-';
    while (n && slug[n - 1] == '-')
      n--;
    slug[n] = 0;
    if (!n)
      snprintf(slug, sizeof slug, "probed");
  }
  set_string(m, "name", slug);
  snprintf(desc, sizeof desc, "%s (probed by tilefit probe; what the driver does not report from %s), %s", p->device,
           file, arch);
  set_string(m, "description", desc);
  set_string(m, "arch", arch);
}

/* In the child: load the driver, ask it, unload it. */
static int ask_driver(void *lib, void *out, tf_error *err) {
  tf_cuda cu;
  char why[512];
  if (tf_cuda_open(&cu, lib, why, sizeof why))
    return tf_error_set(err, TF_EINPUT, NULL, "no GPU: the CUDA driver cannot be loaded: %s", why);
  int rc = query(&cu, out, err);
  tf_cuda_close(&cu);
  return rc;
}

/* The device name as text: bytes that are not UTF-8 and control
 * characters become '?' (it goes into names, sources and messages). */
static void clean_device_name(char *s) {
  size_t n = strlen(s);
  for (size_t i = 0, k; i < n; i += k) {
    k = tf_utf8_char(s + i, n - i);
    if (!k || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
      s[i] = '?', k = 1;
  }
}

/* Seconds the driver gets to answer: $TILEFIT_PROBE_TIMEOUT, else 30. */
static double probe_timeout(void) {
  const char *t = getenv("TILEFIT_PROBE_TIMEOUT");
  double v = t ? atof(t) : 0;
  return v > 0 ? v : 30;
}

char *tf_probe_machine(const char *lib, const char *name, tf_error *err) {
  char arch[32], file[128];
  probed p;
  memset(&p, 0, sizeof p);
  /* A driver that crashes, aborts, hangs or exits does so in a child
   * process, never in tilefit or the program using the library. */
  if (tf_run_in_child(ask_driver, (void *)lib, &p, sizeof p, probe_timeout(), "the CUDA driver", err))
    return NULL;
  p.device[sizeof p.device - 1] = 0;
  clean_device_name(p.device);
  snprintf(arch, sizeof arch, "sm_%d%d", p.major, p.minor);
  cJSON *m = find_template(&p, arch, file, sizeof file, err);
  if (!m)
    return NULL;
  mark_template_sources((cJSON *)tf_json_member(m, "sources"), file, arch);
  apply_probe(m, &p);
  fit_carveouts(m);
  name_and_describe(m, &p, name, arch, file);
  char *text = cJSON_Print(m);
  cJSON_Delete(m);
  if (!text)
    return tf_error_set(err, TF_EINTERNAL, NULL, "out of memory printing the probed machine"), NULL;
  /* what is written must load back as a machine */
  tf_machine *check = tf_machine_parse(text, strlen(text), "probe", err);
  if (!check) {
    free(text);
    return NULL;
  }
  tf_machine_free(check);
  size_t n = strlen(text);
  char *out = tf_nalloc(n + 2, 1);
  memcpy(out, text, n);
  out[n] = '\n';
  free(text);
  return out;
}
