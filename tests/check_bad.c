/* The bad-input catalogue, tests/bad/: one directory per case, run against
 * the built binary (TILEFIT_BIN).  A case directory holds
 *
 *   args     the command line after "tilefit ", shell words, one line
 *   expect   "exit N", then "stderr LINE" (the one line it must print),
 *            and optionally "absent PATH" lines (files that must not exist
 *            afterwards)
 *   ...      any input files the arguments name
 *
 * In args and expect, @DIR@ stands for the case directory
 * (tests/bad/NN-name) and @DATA@ for TILEFIT_DATA, where the shipped
 * machines and worksets are found.  Every case must exit with its code,
 * print exactly its line on stderr and nothing on stdout, and leave its
 * directory as it was: no file created, changed or truncated.  Runs from
 * the repository root, as `make check` does. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/suites.h"
#include "tests/testutil.h"

#define BAD_DIR "tests/bad"
#define MAX_CASES 512
#define MIN_CASES 40

static char *case_names[MAX_CASES];
static int ncases;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void find_cases(void) {
  if (ncases)
    return;
  DIR *d = opendir(BAD_DIR);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) && ncases < MAX_CASES) {
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", BAD_DIR, e->d_name);
    if (e->d_name[0] != '.' && !stat(path, &st) && S_ISDIR(st.st_mode))
      case_names[ncases++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(case_names, (size_t)ncases, sizeof *case_names, by_name);
}

/* A whole small file, NUL-terminated; NULL if it cannot be read. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap + 1);
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = realloc(buf, (cap *= 2) + 1);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (len)
    *len = n;
  return buf;
}

/* `text` with every @DIR@ and @DATA@ replaced. */
static void expand(const char *text, const char *dir, const char *data, char *out, size_t size) {
  size_t n = 0;
  while (*text && n + 1 < size) {
    const char *with = NULL;
    size_t skip = 0;
    if (!strncmp(text, "@DIR@", 5))
      with = dir, skip = 5;
    else if (!strncmp(text, "@DATA@", 6))
      with = data, skip = 6;
    if (with) {
      n += (size_t)snprintf(out + n, size - n, "%s", with);
      if (n >= size)
        n = size - 1;
      text += skip;
    } else {
      out[n++] = *text++;
    }
  }
  out[n] = 0;
}

/* ------------------------------------------------ directory snapshots */

struct entry {
  char path[512];
  char *content; /* NULL for a directory */
  size_t len;
};

struct snapshot {
  struct entry *v;
  size_t n, cap;
};

static void snap_dir(struct snapshot *s, const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    if (s->n == s->cap)
      s->v = realloc(s->v, (s->cap = s->cap ? 2 * s->cap : 16) * sizeof *s->v);
    struct entry *x = &s->v[s->n++];
    snprintf(x->path, sizeof x->path, "%s/%s", dir, e->d_name);
    struct stat st;
    x->content = NULL;
    x->len = 0;
    if (!stat(x->path, &st) && S_ISDIR(st.st_mode)) {
      char sub[512];
      snprintf(sub, sizeof sub, "%s", x->path);
      snap_dir(s, sub);
    } else {
      x->content = slurp(x->path, &x->len);
      if (!x->content)
        x->content = strdup("(unreadable)");
    }
  }
  closedir(d);
}

static int by_path(const void *a, const void *b) {
  return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static void snap(struct snapshot *s, const char *dir) {
  memset(s, 0, sizeof *s);
  snap_dir(s, dir);
  if (s->n)
    qsort(s->v, s->n, sizeof *s->v, by_path);
}

static void snap_free(struct snapshot *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].content);
  free(s->v);
}

/* NULL when equal, else the first difference. */
static const char *snap_diff(const struct snapshot *a, const struct snapshot *b, char *buf, size_t size) {
  for (size_t i = 0, j = 0; i < a->n || j < b->n; i++, j++) {
    int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].path, b->v[j].path);
    if (c > 0)
      return snprintf(buf, size, "created %s", b->v[j].path), buf;
    if (c < 0)
      return snprintf(buf, size, "removed %s", a->v[i].path), buf;
    const struct entry *x = &a->v[i], *y = &b->v[j];
    if (!x->content != !y->content || (x->content && (x->len != y->len || memcmp(x->content, y->content, x->len))))
      return snprintf(buf, size, "changed %s (%zu bytes before, %zu after)", x->path, x->len, y->len), buf;
  }
  return NULL;
}

/* ------------------------------------------------------------ the runner */

static char out[1 << 16], err[1 << 14];

START_TEST(test_catalogue_size) {
  find_cases();
  ck_assert_msg(ncases >= MIN_CASES, "%s/ has %d cases, expected at least %d (run from the repository root)", BAD_DIR,
                ncases, MIN_CASES);
}
END_TEST

START_TEST(test_bad_case) {
  find_cases();
  ck_assert_int_lt(_i, ncases);
  const char *name = case_names[_i];
  char dir[512], path[600], data[4096];
  snprintf(dir, sizeof dir, "%s/%s", BAD_DIR, name);
  const char *env = getenv("TILEFIT_DATA");
  if (env && *env)
    snprintf(data, sizeof data, "%s", env);
  else if (!getcwd(data, sizeof data))
    data[0] = 0;

  snprintf(path, sizeof path, "%s/args", dir);
  char *args_text = slurp(path, NULL);
  ck_assert_msg(args_text != NULL, "%s: cannot read", path);
  args_text[strcspn(args_text, "\n")] = 0;
  snprintf(path, sizeof path, "%s/expect", dir);
  char *expect = slurp(path, NULL);
  ck_assert_msg(expect != NULL, "%s: cannot read", path);

  int want_exit = -1;
  char want_err[2048] = "", absent[8][600];
  int nabsent = 0;
  for (char *line = strtok(expect, "\n"); line; line = strtok(NULL, "\n")) {
    if (!strncmp(line, "exit ", 5))
      want_exit = atoi(line + 5);
    else if (!strncmp(line, "stderr ", 7))
      expand(line + 7, dir, data, want_err, sizeof want_err - 1);
    else if (!strncmp(line, "absent ", 7) && nabsent < 8)
      expand(line + 7, dir, data, absent[nabsent++], sizeof absent[0]);
    else
      ck_abort_msg("%s/expect: unknown line '%s'", dir, line);
  }
  ck_assert_msg(want_exit >= 0 && want_err[0], "%s/expect needs 'exit N' and 'stderr LINE'", dir);
  strcat(want_err, "\n");

  char args[8192];
  expand(args_text, dir, data, args, sizeof args);
  struct snapshot before, after;
  snap(&before, dir);
  int rc = tf_test_run(args, out, sizeof out, err, sizeof err);
  snap(&after, dir);

  char diff[1024];
  const char *changed = snap_diff(&before, &after, diff, sizeof diff);
  ck_assert_msg(!changed, "%s: 'tilefit %s' %s", name, args, changed);
  for (int i = 0; i < nabsent; i++)
    ck_assert_msg(access(absent[i], F_OK) != 0, "%s: 'tilefit %s' created %s", name, args, absent[i]);
  ck_assert_msg(rc == want_exit, "%s: 'tilefit %s' exited %d, expected %d; stderr:\n%s", name, args, rc, want_exit,
                err);
  ck_assert_msg(out[0] == 0, "%s: 'tilefit %s' printed on stdout:\n%s", name, args, out);
  ck_assert_msg(!strcmp(err, want_err), "%s: 'tilefit %s'\nstderr:   %sexpected: %s", name, args, err, want_err);

  snap_free(&before);
  snap_free(&after);
  free(args_text);
  free(expect);
}
END_TEST

Suite *bad_suite(void) {
  Suite *s = suite_create("bad");
  find_cases();
  TCase *tc = tcase_create("Catalogue");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_catalogue_size);
  tcase_add_loop_test(tc, test_bad_case, 0, ncases);
  suite_add_tcase(s, tc);
  return s;
}
