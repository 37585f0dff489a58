/* What the benchmark programs (bench.c, engine.c, solvers.c) share: the
 * clock, medians of repeated runs, the "us / ms / s" format, printing a
 * line both to stdout and to the Markdown file being written, and the
 * generated worksets. */
#ifndef TF_BENCH_UTIL_H
#define TF_BENCH_UTIL_H

#include <stdio.h>

#define SKIPPED (-2.0) /* a time not measured: formatted "-" */

extern FILE *md; /* the Markdown file `both` writes to */

double now(void);                   /* wall clock */
double cpu_now(void);               /* this process's CPU time: what a shared, loaded machine leaves comparable */
extern double (*bench_clock)(void); /* what median_time measures with; now unless set */

/* Runs fn until it has taken `budget` seconds and at least `min_reps`
 * runs (at most 201; one run when the first takes over 1 s or over ten
 * budgets); returns the median, in seconds, or -1 when fn fails. */
double median_time(int (*fn)(void *), void *ctx, double budget, int min_reps, int *reps);

/* "12.3 us", "4.56 ms", "7.89 s"; "failed" below 0, "-" for SKIPPED. */
const char *us(double s, char *buf, size_t size);

void both(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cmp_double(const void *a, const void *b);

#define BENCH_MAX_COUNTS 5 /* counts of the generated worksets, at most */

/* The generated worksets of bench/engine.md: `kept` combinations a x b
 * (every one fits at the smallest counts), `ncounts` counts, each a ring
 * of SMEM sized by the tile; with `loose` a require that loosens as a
 * count grows; `hard`: the family whose counts come first and never reach
 * their maxima (1, 2, 3 or 5 counts; the first family 1 to 3).  Written to `path`; 0, or -1 when it cannot be. */
int bench_workset(const char *path, int ncounts, size_t kept, int loose, int hard);
/* The small family of bench/engine.md: the same tiles and rings with
 * `ncounts` counts (0 to 3), each in 1..2; the first family's objectives,
 * or with `counts_first` the second's (the counts first). */
int bench_workset_small(const char *path, int ncounts, size_t kept, int counts_first);
/* The placement family of bench/space.md: `kept` tiles (as above) of the
 * second family's three counts, and a buffer placed in SMEM or registers
 * (twice the combinations). */
int bench_workset_place(const char *path, size_t kept);
/* The loosening require of `ncounts` counts, at [ncounts - 1] (NULL for
 * 4); its rows separated by ", ". */
extern const char *const bench_loosening[BENCH_MAX_COUNTS];

/* A process's wall time, CPU time (user + system) and peak RSS (KiB):
 * the benchmark runs itself again as a small helper (argv[1] ==
 * BENCH_HELPER_ARG: main calls bench_rusage_helper) that forks and execs
 * bin, so the peak is the child's, not the benchmark's (util.c says
 * why).  bench_process_median: medians of 5 (wall; CPU into *cpu). */
#define BENCH_HELPER_ARG "--rusage-of"
int bench_rusage_helper(char **argv);
double bench_process(const char *bin, char *const *argv, double *cpu, long *rss_kib);
double bench_process_median(const char *bin, char *const *argv, double *cpu, long *rss_kib);

#endif
