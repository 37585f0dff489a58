#include "sweep.h"

#include "solver/batch/sweep_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "encode/build.h"
#include "encode/decode.h"
#include "model/core/alloc.h"
#include "model/core/json.h"
#include "model/core/text.h"
#include "model/formats/case.h"
#include "model/input/catalog.h"
#include "solver/batch/memo.h"
#include "solver/output.h"
#include "solver/report.h"
#include "solver/solve.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *tf_sweep_status_name(int status) {
  return status == TF_SWEEP_ERROR ? "error" : tf_answer_status_name(status);
}

/* ------------------------------------------------------------------ run */

struct slot {
  char *text;
  size_t len;
  int status;
};

struct run {
  const tf_sweep *s;
  tf_cache *cache;
  tf_sweep_opts o;
  size_t *todo, ntodo;
  struct slot *ring; /* window slots, by position mod window */
  size_t window;
  size_t next, written; /* positions in todo */
  size_t ready;         /* positions [written, ready) are done, in a row */
  double signalled;     /* when a worker last woke the writer */
  int stop;
  int oom; /* a worker ran out of memory: the sweep stops, exit 3 */
  pthread_mutex_t lock;
  pthread_cond_t ready_cond, room;
  tf_memo answers, ilps;
  /* progress */
  double start, last;
  size_t resumed;
};

static void error_body(FILE *f, const struct run *r, const tf_request *req, const tf_problem *p, const tf_error *err) {
  char msg[1024];
  tf_error_format(err, msg, sizeof msg);
  if (r->o.format == TF_FORMAT_CSV) {
    tf_csv_columns_error_row(f, &r->s->csv, req, p, "error", msg);
    return;
  }
  tf_json_out w; /* members after the line's prefix */
  tf_json_out_inside(&w, f, TF_JSON_OUT_OBJECT, 1);
  tf_report_json_error_members(&w, p ? p->machine->name : req->machine, p ? p->workset->name : req->workset, msg);
}

static void answer_body(FILE *f, const struct run *r, const tf_request *req, const tf_problem *p, const tf_answer *a) {
  if (r->o.format == TF_FORMAT_CSV) {
    tf_csv_columns_row(f, &r->s->csv, req, p, a);
    return;
  }
  tf_json_out w; /* members after the line's prefix, where the id is */
  tf_json_out_inside(&w, f, TF_JSON_OUT_OBJECT, 1);
  tf_report_json_members(&w, p, a);
}

/* A memo entry this worker is computing.  Should an allocation fail while
 * it is held, it is finished as failed (tf_alloc_guarded's undo), so that
 * no other worker waits on it for ever.  First in the argument structs
 * below, so undo can take any of them. */
struct held {
  tf_memo *memo;
  tf_memo_entry *entry;
};

static void release_held(void *arg) {
  struct held *h = arg;
  tf_memo_finish(h->memo, h->entry, 0);
  tf_memo_put(h->memo, h->entry);
}

struct search_args {
  struct held held;
  const tf_problem *p;
  double time_limit;
  tf_found *found;
  size_t *n;
  tf_error *err;
  int rc;
};

static void *search_body(void *arg) {
  struct search_args *a = arg;
  a->rc = tf_search(a->p, 1, a->time_limit, a->found, a->n, NULL, a->err);
  return NULL;
}

/* Solves with the search memo: an identical search problem is solved
 * once, and every point certifies the result on its own problem.  The same
 * steps as tf_solve otherwise. */
static int solve_point(struct run *r, const tf_request *req, const tf_problem *p, int check, tf_answer *a,
                       tf_error *err) {
  if (check)
    return tf_check(p, a, err);
  tf_solve_opts o;
  if (tf_solve_opts_for(&r->o.solve, req, "$.solver", &o, err))
    return -1;
  if (!(r->o.reuse & TF_REUSE_ILP) || p->ncombos == 0 || o.backend) /* the ILP solver solves every point */
    return tf_solve(p, &o, NULL, a, err);
  size_t klen;
  char *key = tf_sweep_search_key(p, &klen);
  int own;
  tf_memo_entry *e = tf_memo_get(&r->ilps, key, klen, &own);
  free(key);
  tf_found mine;
  memset(&mine, 0, sizeof mine);
  size_t n = e->nfound;
  int rc = 0;
  if (own) {
    struct search_args sa = {{&r->ilps, e}, p, r->o.solve.time_limit_s, &mine, &n, err, 0};
    tf_alloc_guarded(search_body, release_held, &sa);
    rc = sa.rc;
  } else if (e->state == TF_MEMO_FAILED) {
    rc = tf_search(p, 1, r->o.solve.time_limit_s, &mine, &n, NULL, err);
  }
  if (own || e->state == TF_MEMO_FAILED) {
    if (own && !rc)
      e->found = mine, e->nfound = n;
    if (own)
      tf_memo_finish(&r->ilps, e, !rc);
  } else {
    mine = e->found;
  }
  tf_memo_put(&r->ilps, e);
  return rc ? -1 : tf_solve_found(p, &mine, n, a, err);
}

static int solved_body(tf_text *t, struct run *r, const tf_request *req, const tf_problem *p, int check,
                       tf_memo_entry *e);

struct body_args {
  struct held held;
  tf_text *t;
  struct run *r;
  const tf_request *req;
  const tf_problem *p;
  int check, status;
};

static void *body_of(void *arg) {
  struct body_args *a = arg;
  a->status = solved_body(a->t, a->r, a->req, a->p, a->check, a->held.entry);
  return NULL;
}

/* The body of a bound problem's line, from the answer memo or solved. */
static int problem_body(tf_text *t, struct run *r, const tf_request *req, const tf_problem *p, int check) {
  tf_memo_entry *e = NULL;
  int own = 0;
  if (r->o.reuse & TF_REUSE_ANSWER) {
    size_t klen;
    char *key = tf_sweep_key(req, p, check, &klen);
    e = tf_memo_get(&r->answers, key, klen, &own);
    free(key);
    if (!own && e->state == TF_MEMO_DONE) {
      fwrite(e->text, 1, e->tlen, t->f);
      int status = e->status;
      tf_memo_put(&r->answers, e);
      return status;
    }
    if (!own) { /* failed: solved again, not kept */
      tf_memo_put(&r->answers, e);
      e = NULL;
    }
  }
  if (!own)
    return solved_body(t, r, req, p, check, NULL);
  struct body_args ba = {{&r->answers, e}, t, r, req, p, check, 0};
  tf_alloc_guarded(body_of, release_held, &ba);
  return ba.status;
}

/* A line's body solved into the line's text t (and kept in entry e when
 * the worker owns it: a copy of what it added to t; no stream of its own,
 * which cost allocations at every point). */
static int solved_body(tf_text *t, struct run *r, const tf_request *req, const tf_problem *p, int check,
                       tf_memo_entry *e) {
  tf_answer a;
  tf_answer_init(&a, p);
  tf_error err;
  tf_error_init(&err);
  size_t start = 0, len;
  if (e)
    tf_text_peek(t, &start);
  int status;
  if (solve_point(r, req, p, check, &a, &err)) {
    status = TF_SWEEP_ERROR;
    error_body(t->f, r, req, p, &err);
  } else {
    status = a.status;
    answer_body(t->f, r, req, p, &a);
  }
  tf_answer_release(&a);
  if (e) {
    int ok = status != TF_SWEEP_ERROR; /* solver failures (time limits) are not reused */
    if (ok) {
      const char *text = tf_text_peek(t, &len);
      e->text = tf_nalloc(len - start + 1, 1);
      memcpy(e->text, text + start, len - start);
      e->tlen = len - start, e->status = status;
    }
    tf_memo_finish(&r->answers, e, ok);
    tf_memo_put(&r->answers, e);
  }
  return status;
}

/* One point's whole line. */
static void run_point(struct run *r, size_t pos, struct slot *out) {
  const tf_sweep *s = r->s;
  size_t i = r->todo[pos];
  tf_request req;
  tf_request_init(&req);
  tf_error err;
  tf_error_init(&err);
  int check = 0;
  char *id = tf_sweep_id(s, i);
  tf_text t;
  FILE *f = tf_text_open(&t);
  tf_json_out line;
  tf_sweep_line_prefix(&line, f, r->o.format, i, s->npoints, id);
  int status = TF_SWEEP_ERROR;
  int bad = tf_sweep_request(s, i, &req, &check, &err);
  if (r->o.format != TF_FORMAT_CSV) {
    tf_json_out_key(&line, "input");
    tf_case_write_input(&line, &req, check);
  }
  const tf_machine *m;
  const tf_workset *w;
  tf_problem *p = NULL;
  if (bad || tf_cache_get(r->cache, &req, "$.machine", "$.workset", &m, &w, &err) ||
      !(p = tf_problem_new_timed(m, w, &req, r->o.solve.time_limit_s, &err))) {
    /* a field of the problem line ("line 2: $.fix", "$.problems[1].fix"),
     * not of the workset: the problem list's file, if it has one */
    if (!strncmp(err.path, "line ", 5) || !strncmp(err.path, "$.problems[", 11))
      snprintf(err.file, sizeof err.file, "%s", s->file ? s->file : "");
    error_body(f, r, &req, NULL, &err);
  } else
    status = problem_body(&t, r, &req, p, check);
  tf_sweep_line_end(&line, r->o.format);
  tf_problem_free(p);
  tf_request_release(&req);
  free(id);
  out->text = tf_text_close(&t, &out->len);
  out->status = status;
}

struct point_args {
  struct run *r;
  size_t pos;
  struct slot *out;
};

static void *point_body(void *arg) {
  struct point_args *a = arg;
  run_point(a->r, a->pos, a->out);
  return NULL;
}

/* Out of memory in a worker: every thread stops and the writer says so. */
static void stop_for_memory(struct run *r) {
  pthread_mutex_lock(&r->lock);
  r->stop = r->oom = 1;
  pthread_cond_broadcast(&r->room);
  pthread_cond_broadcast(&r->ready_cond);
  pthread_mutex_unlock(&r->lock);
}

/* The writer is woken once per batch of lines, not per line: a wake-up
 * per point (a futex call and a switch of threads each) was a fifth of a
 * sweep's CPU at -j 1.  A line waits at most WRITE_LATENCY_S for its batch
 * to fill: slow points are written as they come. */
#define WRITE_BATCH 64
#define WRITE_LATENCY_S 0.05

/* Position pos is done (r->lock held): the run of done positions from
 * `written` grows, and the writer is woken when a batch is ready, when the
 * last point is, or when it has waited long enough. */
static void mark_ready(struct run *r, size_t pos) {
  if (pos != r->ready)
    return;
  while (r->ready < r->ntodo && r->ready - r->written < r->window && r->ring[r->ready % r->window].text)
    r->ready++;
  double t = r->ready - r->written >= WRITE_BATCH || r->ready == r->ntodo ? 0 : now();
  if (t == 0 || t - r->signalled >= WRITE_LATENCY_S) {
    r->signalled = t ? t : r->signalled;
    pthread_cond_signal(&r->ready_cond);
  }
}

static void *worker(void *arg) {
  struct run *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->lock);
    while (!r->stop && r->next < r->ntodo && r->next - r->written >= r->window)
      pthread_cond_wait(&r->room, &r->lock);
    if (r->stop || r->next >= r->ntodo) {
      pthread_mutex_unlock(&r->lock);
      break;
    }
    size_t pos = r->next++;
    pthread_mutex_unlock(&r->lock);
    struct slot done;
    struct point_args pa = {r, pos, &done};
    void *unused;
    if (tf_alloc_try(point_body, &pa, &unused)) { /* the point's memory is lost; the process goes on */
      stop_for_memory(r);
      break;
    }
    pthread_mutex_lock(&r->lock);
    r->ring[pos % r->window] = done;
    mark_ready(r, pos);
    pthread_mutex_unlock(&r->lock);
  }
  tf_backend_thread_done(); /* GLPK 5 keeps an environment per thread */
  return NULL;
}

static void format_eta(char *buf, size_t size, double s) {
  if (!(s >= 0) || s > 1e7)
    snprintf(buf, size, "--");
  else if (s >= 3600)
    snprintf(buf, size, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
  else
    snprintf(buf, size, "%d:%02d", (int)s / 60, (int)s % 60);
}

static void progress(struct run *r, int final) {
  FILE *f = r->o.progress;
  if (!f)
    return;
  double t = now(), dt = t - r->start;
  if (!final && t - r->last < (r->o.progress_tty ? 0.1 : r->o.progress_every))
    return;
  r->last = t;
  size_t total = r->resumed + r->ntodo, done = r->resumed + r->written;
  double rate = dt > 0 ? (double)r->written / dt : 0;
  double pct = total ? 100.0 * (double)done / (double)total : 100;
  char eta[32];
  format_eta(eta, sizeof eta, rate > 0 ? (double)(r->ntodo - r->written) / rate : -1);
  if (r->o.progress_tty) {
    char bar[31];
    int fill = (int)(pct * 30 / 100);
    for (int i = 0; i < 30; i++)
      bar[i] = i < fill ? '#' : '.';
    bar[30] = 0;
    fprintf(f, "\r[%s] %zu/%zu %5.1f%% %8.0f points/s  ETA %-8s", bar, done, total, pct, rate, eta);
    if (final)
      fputc('\n', f);
  } else if (!final) {
    fprintf(f, "sweep: %zu/%zu points (%.1f%%), %.0f points/s, ETA %s\n", done, total, pct, rate, eta);
  }
  fflush(f);
}

/* Where the lines go: a file or descriptor (tf_output), or the caller's
 * callback (o.line).  The writer is the same for both; only the last
 * step, deliver, differs. */
struct sink {
  tf_output out;                                 /* unless fn */
  void (*tmp_name)(void *ctx, const char *path); /* tf_sweep_opts' */
  void *tmp_ctx;
  tf_sweep_line_fn fn; /* the callback, or NULL */
  void *ctx;
  char *buf; /* a file's ready lines, joined */
  size_t cap;
};

static int sink_write(struct sink *k, const char *text, size_t len, tf_error *err) {
  if (!k->fn)
    return tf_output_write(&k->out, text, len, err);
  if (!k->fn(k->ctx, text, len, err))
    return 0;
  if (!err->msg[0])
    tf_error_set(err, TF_EOUTPUT, NULL, "the line callback stopped the sweep");
  return -1;
}

/* Positions [r->written, end) belong to the writer until `written` moves:
 * their lines go out in order, each counted and freed.  A file's are
 * joined into one write(2) call (a call per line cost as much as the
 * lines' text); a callback gets a call per line.  *upto: the end of the
 * lines that went out. */
static int deliver(struct run *r, struct sink *k, size_t end, tf_sweep_stats *st, size_t *upto, tf_error *err) {
  size_t len = 0;
  *upto = r->written;
  for (size_t i = r->written; !k->fn && i < end; i++)
    len += r->ring[i % r->window].len;
  if (len > k->cap) {
    k->cap = 2 * len;
    TF_NREALLOC(k->buf, k->cap);
  }
  len = 0;
  for (size_t i = r->written; i < end; i++) {
    struct slot *sl = &r->ring[i % r->window];
    if (k->fn && sink_write(k, sl->text, sl->len, err))
      return -1;
    if (!k->fn)
      memcpy(k->buf + len, sl->text, sl->len), len += sl->len;
    else
      *upto = i + 1;
    st->status[sl->status]++;
    free(sl->text);
    sl->text = NULL;
  }
  if (!k->fn && sink_write(k, k->buf, len, err))
    return -1;
  *upto = end;
  return 0;
}

/* Waits (r->lock held) for lines ready to write, drawing progress while
 * none come; 0 when there are, -1 when a worker ran out of memory. */
static int wait_ready(struct run *r) {
  while (r->ready == r->written && !r->oom) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000)
      ts.tv_sec++, ts.tv_nsec -= 1000000000;
    if (pthread_cond_timedwait(&r->ready_cond, &r->lock, &ts) == ETIMEDOUT) {
      pthread_mutex_unlock(&r->lock);
      progress(r, 0);
      pthread_mutex_lock(&r->lock);
    }
  }
  return r->oom ? -1 : 0;
}

/* Writes ready lines in order until every position is written. */
static int writer(struct run *r, struct sink *k, tf_sweep_stats *st, tf_error *err) {
  while (r->written < r->ntodo) {
    pthread_mutex_lock(&r->lock);
    if (wait_ready(r)) {
      pthread_mutex_unlock(&r->lock);
      return tf_error_set(err, TF_EINTERNAL, NULL, "out of memory in a worker after %zu of %zu points", r->written,
                          r->ntodo);
    }
    size_t end = r->ready, upto;
    pthread_mutex_unlock(&r->lock);
    int failed = deliver(r, k, end, st, &upto, err);
    pthread_mutex_lock(&r->lock);
    r->written = upto;
    r->stop |= failed; /* the workers stop: nothing more goes out */
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->lock);
    if (failed)
      return -1;
    progress(r, 0);
  }
  return 0;
}

void tf_sweep_opts_init(tf_sweep_opts *o) {
  memset(o, 0, sizeof *o);
  o->jobs = 1;
  o->format = TF_FORMAT_JSONL;
  o->reuse = TF_REUSE_ANSWER; /* the search memo's key costs more than the exact search it saves */
  tf_solve_opts_init(&o->solve);
  o->progress_every = 5;
  o->memo_max = TF_MEMO_MAX_DEFAULT;
  o->out_fd = -1;
}

/* This shard's points, in order. */
static void plan(struct run *r, const tf_sweep_opts *o, tf_sweep_stats *st) {
  r->todo = tf_nalloc(r->s->npoints + 1, sizeof *r->todo);
  for (size_t i = 0; i < r->s->npoints; i++)
    if (tf_sweep_in_shard(i, o->shard_index, o->shard_count))
      r->todo[r->ntodo++] = i;
  st->points = r->s->npoints;
  st->shard_points = r->ntodo;
}

/* The last line an earlier run wrote, solved again: the same bytes, or
 * the file is not this tilefit's answer to this sweep (another version,
 * a machine or workset changed since) and resuming would mix the two.
 * Lines whose bytes may differ between runs are not compared: an error
 * (a time limit says how far it got) and GLPK's (its seconds). */
static int same_as_before(struct run *r, const char *file, size_t pos, const char *last, tf_error *err) {
  struct slot now;
  run_point(r, pos, &now);
  int comparable = now.status != TF_SWEEP_ERROR && !strstr(now.text, "\"seconds\":") && !strstr(last, "\"seconds\":");
  int same = !comparable || !strcmp(now.text, last);
  free(now.text);
  return same ? 0
              : tf_error_set(err, TF_EINPUT, "@resume",
                             "%s: its last line is not what this tilefit writes for point %zu now (written by another "
                             "version, or a machine or workset changed since?); not resuming (remove the file to "
                             "start over)",
                             file, r->todo[pos]);
}

/* What an earlier run wrote (resume) or the CSV header; *done points of
 * todo are already in the file. */
static int start_output(struct run *r, struct sink *k, size_t *done, tf_sweep_stats *st, tf_error *err) {
  *done = 0;
  if (r->o.resume) {
    char *last = NULL;
    int rc = tf_sweep_resume_scan(r->s, r->o.format, r->todo, r->ntodo, k->out.fd, k->out.name, done, &st->torn_bytes,
                                  &last, err) ||
             (last && same_as_before(r, k->out.name, *done - 1, last, err));
    free(last);
    return rc ? -1 : 0;
  }
  if (r->o.format == TF_FORMAT_CSV)
    return sink_write(k, r->s->csv_header, strlen(r->s->csv_header), err);
  return 0;
}

/* The sink o names: its callback, its descriptor, or out_file. */
static int sink_open(struct sink *k, const tf_sweep_opts *o, const char *out_file, tf_error *err) {
  memset(k, 0, sizeof *k);
  k->out.fd = -1;
  if (o->line && (o->out_fd >= 0 || o->resume || out_file))
    return tf_error_set(err, TF_EINPUT, NULL, "a line callback takes every line: no output file, descriptor or resume");
  k->fn = o->line, k->ctx = o->line_ctx;
  if (o->line)
    return 0;
  if (o->resume && !out_file)
    return tf_error_set(err, TF_EINPUT, "@resume", "needs the output file it resumes");
  if (o->out_fd >= 0 && (o->resume || out_file))
    return tf_error_set(err, TF_EINPUT, "@resume",
                        "an output descriptor is written through, neither resumed nor named");
  if (o->out_fd >= 0)
    return tf_output_open_fd(&k->out, o->out_fd, "$.fd", err); /* the library's request field */
  if (tf_output_open(&k->out, out_file, o->resume ? TF_OUTPUT_RESUME : TF_OUTPUT_WHOLE, "@output", err))
    return -1;
  if (k->out.tmp && o->tmp_name) {
    k->tmp_name = o->tmp_name, k->tmp_ctx = o->tmp_ctx;
    k->tmp_name(k->tmp_ctx, k->out.tmp);
  }
  return 0;
}

/* A file committed (rc 0) or abandoned. */
static int sink_close(struct sink *k, int rc, tf_error *err) {
  free(k->buf);
  if (k->fn)
    return rc;
  if (rc)
    tf_output_abandon(&k->out);
  else
    rc = tf_output_commit(&k->out, err);
  if (k->tmp_name) /* renamed or removed: nothing left to remove */
    k->tmp_name(k->tmp_ctx, NULL);
  return rc;
}

struct writer_args {
  struct run *r;
  struct sink *out;
  tf_sweep_stats *st;
  tf_error *err;
  pthread_t *threads;
  size_t started;
  int rc;
};

static void *writer_body(void *arg) {
  struct writer_args *a = arg;
  a->rc = writer(a->r, a->out, a->st, a->err);
  return NULL;
}

static void join_workers(struct writer_args *a) {
  for (size_t t = 0; t < a->started; t++)
    pthread_join(a->threads[t], NULL);
}

/* The writer (the calling thread) out of memory: the workers stop and are
 * joined before the failure goes on, since they use this run. */
static void stop_workers(void *arg) {
  struct writer_args *a = arg;
  stop_for_memory(a->r);
  join_workers(a);
}

/* The workers and the writer, until every point of todo is written. */
static int solve_all(struct run *r, struct sink *out, tf_sweep_stats *st, tf_error *err) {
  size_t nthreads = (size_t)r->o.jobs < r->ntodo ? (size_t)r->o.jobs : r->ntodo;
  struct writer_args a = {r, out, st, err, tf_nalloc(nthreads, sizeof(pthread_t)), 0, 0};
  for (; a.started < nthreads; a.started++)
    if (pthread_create(&a.threads[a.started], NULL, worker, r))
      break;
  if (!a.started)
    a.rc = tf_error_set(err, TF_EINTERNAL, NULL, "cannot start a worker thread");
  else
    tf_alloc_guarded(writer_body, stop_workers, &a);
  join_workers(&a);
  free(a.threads);
  progress(r, 1);
  return a.rc;
}

static void run_init(struct run *r) {
  r->window = 1024 + 64 * (size_t)r->o.jobs;
  r->ring = tf_nalloc(r->window, sizeof *r->ring);
  pthread_mutex_init(&r->lock, NULL);
  pthread_cond_init(&r->ready_cond, NULL);
  pthread_cond_init(&r->room, NULL);
  tf_memo_init(&r->answers, r->o.memo_max);
  tf_memo_init(&r->ilps, r->o.memo_max);
  r->start = r->last = now();
}

static void run_release(struct run *r, tf_sweep_stats *st) {
  st->seconds = now() - r->start;
  st->written = r->written;
  st->answer_lookups = r->answers.lookups, st->answer_hits = r->answers.hits;
  st->ilp_lookups = r->ilps.lookups, st->ilp_hits = r->ilps.hits;
  for (size_t k = 0; k < r->window; k++)
    free(r->ring[k].text);
  free(r->ring);
  tf_memo_release(&r->answers);
  tf_memo_release(&r->ilps);
  pthread_mutex_destroy(&r->lock);
  pthread_cond_destroy(&r->ready_cond);
  pthread_cond_destroy(&r->room);
}

int tf_sweep_run(tf_sweep *s, const tf_sweep_opts *o, const char *out_file, tf_sweep_stats *st, tf_error *err) {
  memset(st, 0, sizeof *st);
  struct run r;
  memset(&r, 0, sizeof r);
  r.s = s;
  r.cache = &s->cache;
  r.o = *o;
  if (r.o.format != TF_FORMAT_CSV)
    r.o.format = TF_FORMAT_JSONL;
  if (r.o.jobs < 1)
    r.o.jobs = 1;
  if (!r.o.memo_max)
    r.o.reuse = 0; /* --memo-max 0: nothing kept, nothing reused */
  /* Whole or nothing (an existing result stays until the new one is
   * complete), except with --resume: then the file is its own checkpoint. */
  struct sink out;
  if (sink_open(&out, o, out_file, err))
    return -1;
  plan(&r, o, st);
  run_init(&r);
  size_t done;
  int rc = start_output(&r, &out, &done, st, err);
  st->resumed = r.resumed = done;
  r.todo += done; /* restored before free */
  r.ntodo -= done;
  if (!rc && r.ntodo)
    rc = solve_all(&r, &out, st, err);
  run_release(&r, st);
  free(r.todo - done);
  return sink_close(&out, rc, err);
}
