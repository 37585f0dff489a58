#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/core/alloc.h"

enum how { HOW_STDOUT, HOW_WHOLE, HOW_IN_PLACE };

#define RANDOM_CHARS 12 /* 62^12: about 71 bits */

/* SIGPIPE and SIGXFSZ held back around a write, so that a reader that
 * went away is EPIPE and a file past the caller's size limit (ulimit -f,
 * RLIMIT_FSIZE) EFBIG, error values, whatever the calling program does
 * with those signals (their default actions kill the process).  The
 * signal a write raises is directed at the writing thread: blocked there,
 * it stays pending until sigtimedwait takes it, before the thread's mask
 * is restored.  One that was pending before the write is the caller's and
 * stays. */
static const int held[] = {SIGPIPE, SIGXFSZ};
#define NHELD (sizeof held / sizeof *held)

void tf_write_guard_hold(tf_write_guard *g) {
  sigset_t now;
  int known = !sigpending(&now);
  sigemptyset(&g->set);
  for (size_t i = 0; i < NHELD; i++) {
    sigaddset(&g->set, held[i]);
    g->pending[i] = known && sigismember(&now, held[i]) == 1;
  }
  pthread_sigmask(SIG_BLOCK, &g->set, &g->old);
}

void tf_write_guard_release(tf_write_guard *g) {
  int e = errno;
  const struct timespec zero = {0, 0};
  sigset_t now;
  for (size_t i = 0; i < NHELD && !sigpending(&now); i++)
    if (!g->pending[i] && sigismember(&now, held[i]) == 1) { /* raised by the write: ours to take */
      sigset_t one;
      sigemptyset(&one);
      sigaddset(&one, held[i]);
      while (sigtimedwait(&one, NULL, &zero) < 0 && errno == EINTR)
        ;
    }
  pthread_sigmask(SIG_SETMASK, &g->old, NULL);
  errno = e;
}

static int write_all(int fd, const char *buf, size_t len) {
  while (len) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0)
      errno = ENOSPC;
    if (n <= 0)
      return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

int tf_write_all(int fd, const char *buf, size_t len) {
  tf_write_guard g;
  tf_write_guard_hold(&g);
  int rc = write_all(fd, buf, len);
  tf_write_guard_release(&g);
  return rc;
}

static int fail(tf_output *o, int e, tf_error *err) {
  return tf_error_set(err, TF_EOUTPUT, o->where, "cannot write %s: %s", o->name, strerror(e));
}

/* Random characters from getrandom(2) (the kernel's pool, never a PID or
 * a clock): a name another user cannot plant ahead of us. */
static int random_name(char *out, size_t n) {
  static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[RANDOM_CHARS];
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom(bytes + got, n - got, 0);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    got += (size_t)k;
  }
  for (size_t i = 0; i < n; i++)
    out[i] = set[bytes[i] % (sizeof set - 1)];
  return 0;
}

/* "DIR/.BASE.XXXXXXXXXXXX" with BASE cut so that the last component fits
 * the directory's NAME_MAX.  Returns the length of the prefix before the
 * random characters, or 0 when it cannot be built. */
static size_t tmp_template(const char *target, char **out) {
  const char *slash = strrchr(target, '/');
  size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
  char dir[PATH_MAX];
  if (dirlen >= sizeof dir)
    return 0;
  memcpy(dir, target, dirlen);
  dir[dirlen] = 0;
  long name_max = pathconf(dirlen ? dir : ".", _PC_NAME_MAX);
  if (name_max < 0)
    name_max = 255; /* POSIX leaves it indeterminate; Linux file systems have 255 */
  size_t room = (size_t)name_max, fixed = 2 + RANDOM_CHARS; /* "." BASE "." XXXX */
  if (room <= fixed)
    return 0;
  size_t base = strlen(target + dirlen);
  if (base > room - fixed)
    base = room - fixed;
  *out = tf_nalloc(dirlen + fixed + base + 1, 1);
  memcpy(*out, target, dirlen);
  (*out)[dirlen] = '.';
  memcpy(*out + dirlen + 1, target + dirlen, base);
  (*out)[dirlen + 1 + base] = '.';
  (*out)[dirlen + 2 + base + RANDOM_CHARS] = 0;
  return dirlen + 2 + base;
}

/* The temporary file, new and ours: O_EXCL|O_NOFOLLOW, so that neither a
 * file nor a link planted under that name is ever opened. */
static int open_tmp(tf_output *o, const struct stat *old, tf_error *err) {
  size_t at = tmp_template(o->target, &o->tmp);
  if (!at)
    return fail(o, ENAMETOOLONG, err);
  for (int tries = 0; tries < 64; tries++) {
    if (random_name(o->tmp + at, RANDOM_CHARS))
      return fail(o, errno, err);
    o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (o->fd >= 0 || errno != EEXIST)
      break;
  }
  if (o->fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return fail(o, e, err);
  }
  if (old && fchmod(o->fd, old->st_mode & 07777) && errno != EPERM) {
    int e = errno;
    tf_output_abandon(o);
    return fail(o, e, err);
  }
  if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
    (void)!fchown(o->fd, old->st_uid, old->st_gid); /* root keeps the owner; others cannot, and keep theirs */
  return 0;
}

/* A link resolved to the file it names; a dangling link is an error (the
 * link would have to be replaced to write there). */
static int resolve(tf_output *o, const char *file, struct stat *st, int *exists, tf_error *err) {
  *exists = 0;
  if (lstat(file, st)) {
    if (errno != ENOENT)
      return fail(o, errno, err);
    o->target = tf_strdup(file);
    return 0;
  }
  if (S_ISLNK(st->st_mode)) {
    char *real = realpath(file, NULL);
    if (!real)
      return fail(o, errno, err);
    o->target = tf_strdup(real);
    free(real);
    if (stat(o->target, st))
      return fail(o, errno, err);
  } else {
    o->target = tf_strdup(file);
  }
  *exists = 1;
  return 0;
}

static int open_in_place(tf_output *o, int flags, tf_error *err) {
  o->how = HOW_IN_PLACE;
  o->fd = open(o->target, flags | O_NOCTTY | O_CLOEXEC, 0666);
  return o->fd < 0 ? fail(o, errno, err) : 0;
}

int tf_output_open(tf_output *o, const char *file, int flags, const char *where, tf_error *err) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->where = where;
  o->name = file ? file : "-";
  if (!file || !strcmp(file, "-")) {
    o->how = HOW_STDOUT;
    o->where = NULL;
    o->name = "standard output";
    o->fd = STDOUT_FILENO;
    return fflush(stdout) ? fail(o, errno, err) : 0;
  }
  struct stat st;
  int exists;
  if (resolve(o, file, &st, &exists, err))
    return tf_output_abandon(o), -1;
  int rc;
  if (exists && S_ISDIR(st.st_mode))
    rc = fail(o, EISDIR, err);
  else if (exists && !S_ISREG(st.st_mode))
    rc = flags & TF_OUTPUT_RESUME ? tf_error_set(err, TF_EINPUT, where, "%s: @{resume} needs a regular file", o->name)
                                  : open_in_place(o, O_WRONLY, err);
  else if (flags & TF_OUTPUT_RESUME)
    rc = open_in_place(o, O_RDWR | O_CREAT | O_NOFOLLOW, err);
  else {
    o->how = HOW_WHOLE;
    rc = open_tmp(o, exists ? &st : NULL, err);
  }
  if (rc)
    tf_output_abandon(o);
  return rc;
}

int tf_output_open_fd(tf_output *o, int fd, const char *where, tf_error *err) {
  memset(o, 0, sizeof *o);
  o->where = where;
  o->name = "the output descriptor";
  o->how = HOW_IN_PLACE;
  o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  return o->fd < 0 ? fail(o, errno, err) : 0;
}

/* Standard output is written through the stdout stream, not fd 1: a
 * program that points stdout elsewhere (the in-process tests capture it
 * in memory) gets the results there, in order with what stdio wrote. */
int tf_output_write(tf_output *o, const void *buf, size_t len, tf_error *err) {
  if (o->how == HOW_STDOUT) {
    tf_write_guard g;
    tf_write_guard_hold(&g);
    errno = 0;
    int bad = fwrite(buf, 1, len, stdout) != len || fflush(stdout);
    tf_write_guard_release(&g);
    return bad ? fail(o, errno ? errno : EIO, err) : 0;
  }
  return tf_write_all(o->fd, buf, len) ? fail(o, errno, err) : 0;
}

static void release(tf_output *o) {
  free(o->target);
  free(o->tmp);
  o->target = o->tmp = NULL;
  o->fd = -1;
}

/* Closes o; 0 or the errno of the close. */
static int finish(tf_output *o) {
  int e = 0;
  if (o->how != HOW_STDOUT && close(o->fd))
    e = errno ? errno : EIO;
  o->fd = -1;
  return e;
}

int tf_output_commit_all(tf_output *o, size_t n, tf_error *err) {
  size_t bad = n;
  int e = 0;
  for (size_t i = 0; i < n; i++) {
    int ei = finish(&o[i]);
    if (ei && !e)
      e = ei, bad = i;
  }
  /* every file is whole: only now is any target replaced */
  for (size_t i = 0; i < n && !e; i++)
    if (o[i].how == HOW_WHOLE && rename(o[i].tmp, o[i].target))
      e = errno, bad = i;
  if (e)
    fail(&o[bad], e, err);
  for (size_t i = 0; i < n; i++) {
    if (e && o[i].tmp)
      unlink(o[i].tmp); /* not renamed (after a rename failed, the name is gone: ENOENT) */
    release(&o[i]);
  }
  return e ? -1 : 0;
}

int tf_output_commit(tf_output *o, tf_error *err) { return tf_output_commit_all(o, 1, err); }

void tf_output_abandon(tf_output *o) {
  if (o->fd >= 0 && o->how != HOW_STDOUT)
    close(o->fd);
  if (o->tmp)
    unlink(o->tmp);
  release(o);
}

int tf_write_file_whole(const char *file, const char *text, size_t len, const char *where, tf_error *err) {
  tf_output o;
  if (tf_output_open(&o, file, TF_OUTPUT_WHOLE, where, err))
    return -1;
  if (tf_output_write(&o, text, len, err)) {
    tf_output_abandon(&o);
    return -1;
  }
  return tf_output_commit(&o, err);
}

static int stat_of(const char *file, int fd, struct stat *st) {
  return !file || !strcmp(file, "-") ? fstat(fd, st) : stat(file, st);
}

int tf_output_is(const char *out, const char *in) {
  struct stat a, b;
  if (!in || stat_of(out, STDOUT_FILENO, &a) || stat_of(in, STDIN_FILENO, &b))
    return 0;
  if (!S_ISREG(a.st_mode)) /* /dev/null as input and output is no loss */
    return 0;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
