#define _GNU_SOURCE /* dladdr */
#include "model/input/catalog.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/core/alloc.h"
#include "model/core/suggest.h"
#include "model/core/text.h"
#include "model/input/machine.h"
#include "model/input/workset.h"

#define TF_CATALOG_NDIRS 7

static const char *const subdir[] = {"machines", "model/worksets"};
static const char *const noun[] = {"machine", "workset"};

/* For the file `file` in DIR, the links and dots resolved: DIR/.. (a
 * source tree's root for TREE/build/lib), DIR/../share/tilefit (an
 * installed PREFIX/lib/lib) and DIR/../.. (the root for a build in a
 * subdirectory, TREE/build/install-test/lib). */
static int beside(char dirs[][4096], int n, const char *file) {
  char *real = realpath(file, NULL);
  char *slash = real ? strrchr(real, '/') : NULL;
  for (int up = 0; up < 2 && slash && slash != real; up++) {
    *slash = 0; /* real: DIR, then DIR/.. */
    slash = strrchr(real, '/');
    if (!slash)
      break;
    char parent[4096];
    snprintf(parent, sizeof parent, "%.*s", slash == real ? 1 : (int)(slash - real), real);
    snprintf(dirs[n++], 4096, "%s", parent);
    if (!up)
      snprintf(dirs[n++], 4096, "%.4000s/share/tilefit", slash == real ? "" : parent);
  }
  free(real);
  return n;
}

/* The directories to search, most specific first; returns how many.
 * The library's own place comes before the program's: a libtilefit.so
 * loaded from a source tree's build/ finds that tree (build/..), one
 * installed in PREFIX/lib finds PREFIX/share/tilefit, whatever program
 * loaded it (python3) and whatever another install left in TF_DATADIR.
 * TF_DATADIR is where `make install` puts the data ($(PREFIX)/share/tilefit),
 * so that any program linked with the library finds the shipped names. */
static int data_dirs(char dirs[TF_CATALOG_NDIRS][4096]) {
  int n = 0;
  const char *env = getenv("TILEFIT_DATA");
  if (env && *env)
    snprintf(dirs[n++], 4096, "%s", env);
  Dl_info info;
  if (dladdr((void *)data_dirs, &info) && info.dli_fname && strchr(info.dli_fname, '/'))
    n = beside(dirs, n, info.dli_fname);
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(dirs[n++], 4096, "%s", exe);
      /* PREFIX/bin's PREFIX/share/tilefit, spelt without "bin/..": the
       * link's target is absolute and resolved, so its parent is textual */
      char *up = strrchr(exe, '/');
      snprintf(dirs[n++], 4096, "%.*s/share/tilefit", up ? (int)(up - exe) : 0, exe);
    }
  }
#ifdef TF_DATADIR
  snprintf(dirs[n++], 4096, "%s", TF_DATADIR);
#endif
  return n;
}

static int is_path(const char *name) {
  size_t n = strlen(name);
  return strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".json")) || !strcmp(name, "-"); /* - : stdin */
}

static int valid_name(const char *name) {
  if (!*name)
    return 0;
  for (const char *s = name; *s; s++)
    if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && !strchr("._-", *s) && !(*s >= 'A' && *s <= 'Z'))
      return 0;
  return 1;
}

/* A family's name with no variant ("h100" for h100-pcie and h100-sxm): the
 * shipped names it begins, before a '-', up to four, as the did-you-mean
 * that edit distance cannot give (a suffix is more than two edits). */
static void family_hint(const char *name, char *const *names, size_t n, char hint[], size_t size) {
  size_t len = strlen(name), k = 0, j = 0;
  for (size_t i = 0; len && i < n; i++)
    k += !strncmp(names[i], name, len) && names[i][len] == '-';
  if (!k || k > 4)
    return;
  tf_strbuf b = tf_strbuf_of(hint, size);
  for (size_t i = 0; i < n; i++)
    if (!strncmp(names[i], name, len) && names[i][len] == '-') {
      tf_strbuf_printf(&b, "%s'%s'", !j ? "; did you mean " : j + 1 == k ? " or " : ", ", names[i]);
      j++;
    }
  tf_strbuf_put(&b, "?");
}

int tf_catalog_find(int kind, const char *name, const char *where, char *path, size_t size, tf_error *err) {
  if (is_path(name)) {
    snprintf(path, size, "%s", name);
    return 0;
  }
  if (valid_name(name)) {
    char dirs[TF_CATALOG_NDIRS][4096];
    int n = data_dirs(dirs);
    for (int i = 0; i < n; i++) {
      snprintf(path, size, "%.4000s/%s/%s.json", dirs[i], subdir[kind], name);
      struct stat st;
      if (!stat(path, &st) && S_ISREG(st.st_mode))
        return 0;
    }
  }
  /* The shipped lists outgrew one error line: name the nearest, and the command that prints them. */
  size_t n;
  char **names = tf_catalog_list(kind, &n);
  const char *near = tf_suggest(name, (const char *const *)names, n);
  char hint[160] = "";
  if (near)
    snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
  else
    family_hint(name, names, n, hint, sizeof hint);
  tf_error_set(err, TF_EINPUT, where,
               "unknown %s '%s'%s ('tilefit %ss' lists the shipped ones; or give a path to a .json file)", noun[kind],
               name, hint, noun[kind]);
  tf_catalog_list_free(names, n);
  return -1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **tf_catalog_list(int kind, size_t *n) {
  char dirs[TF_CATALOG_NDIRS][4096];
  int nd = data_dirs(dirs);
  char **names = NULL;
  size_t cap = 0;
  *n = 0;
  for (int i = 0; i < nd && !*n; i++) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", dirs[i], subdir[kind]);
    DIR *d = opendir(dir);
    if (!d)
      continue;
    struct dirent *e;
    while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len <= 5 || strcmp(e->d_name + len - 5, ".json"))
        continue;
      char *name = tf_strndup(e->d_name, len - 5);
      TF_PUSH(names, *n, cap, name);
    }
    closedir(d);
  }
  if (*n)
    qsort(names, *n, sizeof *names, by_name);
  return names;
}

void tf_catalog_list_free(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

void *tf_catalog_load(int kind, const char *name, const char *where, tf_error *err) {
  char path[4096];
  if (tf_catalog_find(kind, name, where, path, sizeof path, err))
    return NULL;
  return kind == TF_CATALOG_MACHINES ? (void *)tf_machine_load(path, err) : (void *)tf_workset_load(path, err);
}
