#include "bench/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

FILE *md;
double (*bench_clock)(void) = now;

double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs fn until it has taken `budget` seconds and at least `min_reps`
 * runs (at most 201); returns the median of the runs, in seconds. */
double median_time(int (*fn)(void *), void *ctx, double budget, int min_reps, int *reps) {
  double t[201], total = 0;
  int n = 0;
  while (n < 201 && (n < min_reps || total < budget)) {
    double t0 = bench_clock();
    if (fn(ctx))
      return -1;
    t[n] = bench_clock() - t0;
    total += t[n++];
    if (t[0] > 1.0 || t[0] > 10 * budget)
      break; /* one slow run is enough */
  }
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  if (reps)
    *reps = n;
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

void both(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  va_start(ap, fmt);
  vfprintf(md, fmt, ap);
  va_end(ap);
  fflush(stdout);
}

const char *us(double s, char *buf, size_t size) {
  if (s == SKIPPED)
    snprintf(buf, size, "-");
  else if (s < 0)
    snprintf(buf, size, "failed");
  else if (s < 1e-3)
    snprintf(buf, size, "%.1f us", s * 1e6);
  else if (s < 1)
    snprintf(buf, size, "%.2f ms", s * 1e3);
  else
    snprintf(buf, size, "%.2f s", s);
  return buf;
}

/* Two families of generated worksets.  In the first the best-bounded
 * combination reaches its bound; in the second ("hard") the objectives put
 * the counts first and no combination can reach the counts' maxima, so
 * every combination has to be narrowed before the best is known.  The hard
 * family also has five counts (BENCH_MAX_COUNTS), the first family at
 * most three. */
struct family {
  const char *max[BENCH_MAX_COUNTS];  /* count bounds' "max" of s0 .. s4 */
  const char *ring[BENCH_MAX_COUNTS]; /* their rings' sizes */
  const char *objective[BENCH_MAX_COUNTS][3];
};

static const struct family families[2] = {
    {{"16", "8", "4"},
     {"s0 * ((a * 7 + b) % 13 + 1) * 1024", "s1 * ((a + b * 3) % 11 + 1) * 768", "s2 * ((a * b) % 7 + 1) * 2048"},
     {{"max (a * 31 + b * 17) % 1000", "max s0", NULL},
      {"max s0 + s1", "max (a * 31 + b * 17) % 1000", NULL},
      {"max (a * 31 + b * 17) % 1000", "max s0 + s2", "min s1"}}},
    {{"32", "16", "8", "8", "8"},
     {"s0 * ((a * 7 + b) % 13 + 2) * 4096", "s1 * ((a + b * 3) % 11 + 2) * 3072", "s2 * ((a * b) % 7 + 2) * 4096",
      "s3 * ((a * 5 + b * 2) % 9 + 2) * 4096", "s4 * ((a + b) % 5 + 2) * 4096"},
     {{"max s0", "max (a * 31 + b * 17) % 1000", NULL},
      {"max s0 + s1", "max (a * 31 + b * 17) % 1000", NULL},
      {"max s0 + s1 + s2", "max (a * 31 + b * 17) % 1000", NULL},
      {NULL},
      {"max s0 + s1 + s2 + s3 + s4", "max (a * 31 + b * 17) % 1000", NULL}}},
};
const char *const bench_loosening[BENCH_MAX_COUNTS] = {"s0 >= 4", "s0 + s1 >= 5", "s0 + s2 >= 5", NULL,
                                                       "s0 + s1 >= 5, s2 + s3 + s4 >= 6"};

/* A count's "max": the family's, but with three or five counts in the hard
 * family s0 in 1..16 and the others in 1..8. */
static const char *count_max(const struct family *fm, int ncounts, int k, int hard) {
  if (hard && ncounts >= 3)
    return k ? "8" : "16";
  return fm->max[k];
}

/* The loosening require of `ncounts` counts as JSON strings: its rows
 * are separated by ", " in bench_loosening. */
static void write_loosening(FILE *f, int ncounts) {
  const char *s = bench_loosening[ncounts - 1];
  fprintf(f, ",\n \"require\": [\"");
  for (; *s; s++)
    if (!strncmp(s, ", ", 2))
      fprintf(f, "\", \""), s++;
    else
      fputc(*s, f);
  fprintf(f, "\"]");
}

/* A generated workset's name, its a x b tile domain of `kept`
 * combinations, and `ncounts` counts s0.. from 1 to max[k].  b takes 100
 * values (fewer below 100 kept), and more past 10^7 kept, where a would
 * exceed the 100,000 values a domain may have. */
static void write_head(FILE *f, const char *name, size_t kept, int ncounts, const char *const *max) {
  size_t nb = kept < 100 ? kept : kept / 100000 > 100 ? kept / 100000 : 100, na = kept / nb;
  fprintf(f,
          "{\"name\": \"%s\", \"choose\": {\"a\": {\"from\": 1, \"to\": %zu}, \"b\": {\"from\": 1, "
          "\"to\": %zu}},\n \"count\": {",
          name, na, nb);
  for (int k = 0; k < ncounts; k++)
    fprintf(f, "%s\"s%d\": {\"min\": 1, \"max\": %s}", k ? ", " : "", k, max[k]);
  fprintf(f, "},\n");
}

/* One SMEM ring per count (the family's), a fixed SMEM buffer and an RF
 * buffer, all sized by the tile. */
static void write_buffers(FILE *f, const struct family *fm, int ncounts) {
  fprintf(f, " \"buffers\": [");
  for (int k = 0; k < ncounts; k++)
    fprintf(f, "{\"name\": \"r%d\", \"memory\": \"smem\", \"size\": \"%s\", \"align\": %d}, ", k, fm->ring[k],
            k == 2 ? 1024 : 128);
  fprintf(f, "\n  {\"name\": \"fixed\", \"memory\": \"smem\", \"size\": \"(a %% 97) * 64 + (b %% 89) * 32 + 4096\", "
             "\"align\": 1024}, {\"name\": \"acc\", \"memory\": \"rf\", \"size\": \"(a * b) %% 100 + 32\"}]");
}

/* The objectives (at most three; a NULL ends fewer), closing the workset. */
static void write_objectives(FILE *f, const char *const *objective) {
  fprintf(f, ",\n \"objective\": [");
  for (int o = 0; o < 3 && objective[o]; o++)
    fprintf(f, "%s\"%s\"", o ? ", " : "", objective[o]);
  fprintf(f, "]}\n");
}

/* A workset of `kept` combinations (a x b, every one fits at the smallest
 * counts) with `ncounts` counts, each a ring of SMEM whose per-stage size
 * depends on the tile; written to `path`.  In the hard family the counts'
 * ranges are count_max's. */
int bench_workset(const char *path, int ncounts, size_t kept, int loose, int hard) {
  const struct family *fm = &families[hard];
  if (ncounts < 1 || ncounts > BENCH_MAX_COUNTS || !fm->ring[ncounts - 1] || !fm->objective[ncounts - 1][0])
    return -1;
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  const char *max[BENCH_MAX_COUNTS];
  for (int k = 0; k < ncounts; k++)
    max[k] = count_max(fm, ncounts, k, hard);
  char name[64];
  snprintf(name, sizeof name, "engine-%dc-%zu", ncounts, kept);
  write_head(f, name, kept, ncounts, max);
  write_buffers(f, fm, ncounts);
  if (loose)
    write_loosening(f, ncounts);
  write_objectives(f, fm->objective[ncounts - 1]);
  return fclose(f);
}

/* The small family: the first family's rings and fixed buffers, the
 * first family's objectives or (counts_first) the second's, every count in
 * 1..2; no counts: the tile term alone. */
int bench_workset_small(const char *path, int ncounts, size_t kept, int counts_first) {
  static const char *const tile_only[] = {"max (a * 31 + b * 17) % 1000", NULL};
  static const char *const two[BENCH_MAX_COUNTS] = {"2", "2", "2", "2", "2"};
  if (ncounts < 0 || ncounts > BENCH_MAX_COUNTS)
    return -1;
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  char name[64];
  snprintf(name, sizeof name, "engine-small-%dc-%zu", ncounts, kept);
  write_head(f, name, kept, ncounts, two);
  write_buffers(f, &families[0], ncounts);
  write_objectives(f, ncounts ? families[counts_first ? 1 : 0].objective[ncounts - 1] : tile_only);
  return fclose(f);
}

/* The placement family: the second family's three counts and rings,
 * counts first, and a buffer placed in SMEM or registers whose size in
 * each depends on the tile (a placement variable: twice the
 * combinations). */
int bench_workset_place(const char *path, size_t kept) {
  const struct family *fm = &families[1];
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  const char *max[BENCH_MAX_COUNTS];
  for (int k = 0; k < 3; k++)
    max[k] = count_max(fm, 3, k, 1);
  char name[64];
  snprintf(name, sizeof name, "engine-place-%zu", kept);
  write_head(f, name, kept, 3, max);
  write_buffers(f, fm, 3);
  fseek(f, -1, SEEK_CUR); /* reopen the buffer list: one more, placed */
  fprintf(f, ",\n  {\"name\": \"P\", \"place\": [\"smem\", \"rf\"], \"size\": {\"smem\": \"((a + b) %% 9 + 1) * "
             "4096\", \"rf\": \"((a * 3 + b) %% 5 + 1) * 24\"}}]");
  write_objectives(f, fm->objective[2]);
  return fclose(f);
}

/* ------------------------------------------------------- whole process */

/* How a process's peak RSS is measured.  A forked copy of this process
 * would report this process's own peak: ru_maxrss survives exec (the
 * kernel keeps the larger of the old image's high-water mark and the new
 * one's), and a fork starts from every page this process has touched.  So
 * the benchmark runs itself again as a helper (a fresh, small image),
 * which forks and execs `bin` and reports its child's wall time and
 * rusage: that child's peak starts from the helper's small image, not
 * from this benchmark's (the helper's resident set, about 1 MiB, is a
 * floor of the figure). */

/* The helper: argv = {self, HELPER_ARG, FD, bin, args...}; writes "wall
 * cpu maxrss_kib status" to FD. */
int bench_rusage_helper(char **argv) {
  int fd = atoi(argv[2]);
  double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    close(fd);
    if (!freopen("/dev/null", "w", stdout))
      _exit(127);
    execv(argv[3], argv + 3);
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
    return 1;
  double wall = now() - t0, cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                                  (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
  char line[128];
  int n = snprintf(line, sizeof line, "%.9f %.9f %ld %d\n", wall, cpu, ru.ru_maxrss,
                   WIFEXITED(status) ? WEXITSTATUS(status) : 128);
  return write(fd, line, (size_t)n) == n ? 0 : 1;
}

/* Runs `bin args` with stdout to /dev/null, through the helper; wall
 * seconds, and its CPU seconds (user + system) and peak RSS (KiB). */
double bench_process(const char *bin, char *const *argv, double *cpu, long *rss_kib) {
  int fds[2];
  if (pipe(fds))
    return -1;
  char fd[16], *hargv[64] = {"/proc/self/exe", BENCH_HELPER_ARG, fd};
  snprintf(fd, sizeof fd, "%d", fds[1]);
  int n = 3;
  hargv[n++] = (char *)bin;
  for (int i = 1; argv[i] && n < 63; i++)
    hargv[n++] = argv[i];
  hargv[n] = NULL;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    execv(hargv[0], hargv);
    _exit(127);
  }
  close(fds[1]);
  char line[128] = "";
  ssize_t got = pid < 0 ? -1 : read(fds[0], line, sizeof line - 1);
  close(fds[0]);
  int status, code = -1;
  double wall = -1;
  if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || got <= 0)
    return -1;
  line[got] = 0;
  if (sscanf(line, "%lf %lf %ld %d", &wall, cpu, rss_kib, &code) != 4 || code > 1)
    return -1;
  return wall;
}

/* Medians of 5 runs: wall, and CPU in *cpu. */
double bench_process_median(const char *bin, char *const *argv, double *cpu, long *rss_kib) {
  double t[5], c[5];
  for (int i = 0; i < 5; i++)
    if ((t[i] = bench_process(bin, argv, &c[i], rss_kib)) < 0)
      return -1;
  qsort(t, 5, sizeof *t, cmp_double);
  qsort(c, 5, sizeof *c, cmp_double);
  *cpu = c[2];
  return t[2];
}
