#include "bench/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

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
