/* Batch sweeps: many problems, one output line each (JSONL or CSV), in the
 * order of the points whatever the number of worker threads.
 *
 * Input is either a spec (a JSON object, model/formats/spec.h; any file not ending
 * in .jsonl) or a problem list (a file ending in .jsonl: one problem per
 * line, the lines `validate` reads, model/formats/case.h; or such lines held in
 * memory).  Output goes to a file or descriptor, or line by line to a
 * callback (the library's JSON entry point builds its answer so).
 *
 * Point ids are stable: "b200/fa4-fwd/d=64,dv=64/fix:B_r=128/o2" (segments
 * left out when the spec has none), or a problem line's "id" ("line-N"
 * when it has none).  Output lines carry "index" (the point's position in
 * the whole sweep) and "total", so shards can be merged and any file
 * checked for completeness.
 *
 * Speed: identical problems are solved once, by default at the level of
 * the answer text, by a canonical key over machine, workset, bound params,
 * fixes, domains, requires, objectives (tf_sweep_key).  TF_REUSE_ILP adds
 * the exact search's optimum, by the exact content of the search problem
 * (identical ones arise from machines with equal capacities), certified
 * against each point's own problem; it is off by default because writing
 * that key reads as much as the exact search does (bench/results.md).
 *
 * Nothing here prints except to the FILE * handed in for progress. */
#ifndef TF_SOLVER_BATCH_SWEEP_H
#define TF_SOLVER_BATCH_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "model/bind/problem.h"
#include "model/core/error.h"
#include "model/formats/spec.h"
#include "solver/backend.h"
#include "solver/batch/cache.h"

#define TF_SWEEP_MAX_POINTS TF_SPEC_MAX_POINTS /* larger sweeps are refused */

typedef struct tf_sweep tf_sweep;

/* Loads a spec or a problem list (by the file name, see above).  The
 * machines and worksets it names are parsed once, into the sweep's own
 * cache, which expansion and solving (tf_sweep_run) share.  One that
 * does not load is not an error: its points become error lines, and a
 * warning says so.  Returns a sweep owned by the caller (tf_sweep_free). */
tf_sweep *tf_sweep_load(const char *file, tf_error *err);
/* A problem list held in memory: lines[i] (lens[i] bytes, one problem
 * object) is point i, read by the file loader's own code as line i + 1 of
 * a file called `name` ("" for none) would be: its id "line-<i+1>" when it
 * has none, the paths of its fields "line <i+1>: $...." in the errors of
 * solving it, the line length limit of model/core/lines.h (a line may end in
 * its newline, as a file's reader hands it over).  where NULL: a line that
 * does not parse is an error point, as in a file.  Else it is bad input
 * and the load fails, the error's path where[i] and then the path inside
 * the object, as of the object on its own ("$.problems[1].params.d"). */
tf_sweep *tf_sweep_load_lines(const char *const *lines, const size_t *lens, size_t n, const char *name,
                              const char *where, tf_error *err);
/* The same of an array of problem objects already parsed (the library's
 * "problems", at `where`), each read where it is, not as text. */
struct cJSON;
tf_sweep *tf_sweep_read_problems(const struct cJSON *array, const char *name, const char *where, tf_error *err);
/* A spec from text; `file` names it in errors. */
tf_sweep *tf_sweep_parse_spec(const char *text, size_t len, const char *file, tf_error *err);
/* A spec already parsed (the library's "spec", the command line's lists). */
tf_sweep *tf_sweep_read_spec(const struct cJSON *spec, const char *file, tf_error *err);
void tf_sweep_free(tf_sweep *s);

size_t tf_sweep_npoints(const tf_sweep *s);
/* Point i's id; the caller frees it. */
char *tf_sweep_id(const tf_sweep *s, size_t i);
/* Point i as a request (into an initialised request the caller releases);
 * *check is 1 for a "kind": "fits" problem line.  Fails for a problem line
 * that does not parse. */
int tf_sweep_request(const tf_sweep *s, size_t i, tf_request *req, int *check, tf_error *err);
/* Warnings from loading (a workset that does not load, ...). */
size_t tf_sweep_nwarnings(const tf_sweep *s);
const char *tf_sweep_warning(const tf_sweep *s, size_t i);
/* The CSV header line (newline-terminated) the sweep's CSV output starts with. */
const char *tf_sweep_csv_header(const tf_sweep *s);

/* The canonical key of a bound problem: machine and workset as named, the
 * bound value of every param, fixes, domains, requires and objectives as
 * given, and whether it is a fits check.  The caller frees it. */
char *tf_sweep_key(const tf_request *req, const tf_problem *p, int check, size_t *len);

/* Shards are round robin: point i belongs to shard (i mod count) + 1. */
static inline int tf_sweep_in_shard(size_t i, int index, int count) {
  return count <= 1 || (int)(i % (size_t)count) == index - 1;
}

enum tf_sweep_reuse {
  TF_REUSE_ANSWER = 1 << 0, /* same canonical key: reuse the answer text */
  TF_REUSE_ILP = 1 << 1,    /* same search problem: reuse the exact search's optimum */
};

/* Line statuses: tf_answer's, then an error. */
#define TF_SWEEP_ERROR 4
#define TF_SWEEP_NSTATUS 5

/* The lines' way out instead of a file (tf_sweep_opts.line): called on
 * the thread that called tf_sweep_run, once per line and in order (the
 * CSV header first), with the line as a file would hold it, its newline
 * counted in len; the text is the sweep's, valid during the call.  A
 * non-zero return stops the sweep: tf_sweep_run fails with err as the
 * callback set it. */
typedef int (*tf_sweep_line_fn)(void *ctx, const char *line, size_t len, tf_error *err);

typedef struct tf_sweep_opts {
  int jobs;                     /* worker threads, >= 1 */
  int format;                   /* TF_FORMAT_JSONL or TF_FORMAT_CSV */
  int shard_index, shard_count; /* 1-based; 0/0 or 1/1: every point */
  int resume;                   /* continue the output file */
  int out_fd;                   /* >= 0: write to this open descriptor (not
                                    closed; out_file must be NULL); -1: none */
  tf_sweep_line_fn line;        /* non-NULL: every line to line(line_ctx, ...), not
                                    written (out_file NULL, out_fd -1, no resume) */
  void *line_ctx;
  unsigned reuse;  /* enum tf_sweep_reuse bits */
  size_t memo_max; /* answers (and search optima) kept at most; 0: none kept */
  /* non-NULL: called with the output file's temporary name once it is
   * created, and with NULL once it is renamed or removed, so that a
   * program can remove it when a signal ends the process (the command
   * line does, solver/cli/signals.h); never called for --resume, a
   * descriptor or a callback, which write in place */
  void (*tmp_name)(void *ctx, const char *path);
  void *tmp_ctx;
  tf_solve_opts solve;
  FILE *progress;        /* NULL: no progress */
  int progress_tty;      /* 1: a bar redrawn with \r; 0: a line now and then */
  double progress_every; /* seconds between plain lines */
} tf_sweep_opts;

void tf_sweep_opts_init(tf_sweep_opts *o);

typedef struct tf_sweep_stats {
  size_t points;                   /* total points of the sweep */
  size_t shard_points;             /* points of this shard */
  size_t resumed;                  /* lines kept from an earlier run */
  size_t written;                  /* lines this run wrote */
  size_t status[TF_SWEEP_NSTATUS]; /* of the lines this run wrote */
  size_t answer_lookups, answer_hits;
  size_t ilp_lookups, ilp_hits;
  size_t torn_bytes; /* dropped from the end of a resumed file */
  double seconds;    /* wall time of the solving phase */
} tf_sweep_stats;

const char *tf_sweep_status_name(int status);

/* Runs the sweep (this shard of it) and writes one line per point to
 * `out_file`, to standard output when it is NULL (no resume then), or
 * hands each to o->line.  Each line is built whole in memory and written
 * with one write(2) call (several complete lines per call) or handed over
 * in one callback call, in point order, by one writer thread.  With
 * resume, the file's complete lines must be this sweep's first points (by
 * index and id); a torn last line is cut off and the sweep continues
 * after them.  A point that fails becomes a line with "status": "error".
 * Returns -1 on bad input (TF_EINPUT), when the output cannot be written
 * or when the callback stops the sweep. */
int tf_sweep_run(tf_sweep *s, const tf_sweep_opts *o, const char *out_file, tf_sweep_stats *st, tf_error *err);

/* Joins shard outputs into the file one run would write: lines ordered by
 * index, every index from 0 to total - 1 exactly once, one CSV header.
 * `format` is TF_FORMAT_JSONL or TF_FORMAT_CSV to require one, or
 * TF_FORMAT_TEXT to take the parts' format.  Writes `out_file` whole (a
 * temporary file renamed) or standard output when it is NULL. */
int tf_sweep_merge(char *const *parts, size_t nparts, const char *out_file, int format, size_t *nlines, tf_error *err);

#endif
