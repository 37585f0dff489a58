#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int tf_write_all(int fd, const char *buf, size_t len) {
  while (len) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

int tf_write_file_whole(const char *file, const char *text, size_t len, const char *where, tf_error *err) {
  if (!file || !strcmp(file, "-")) {
    if (fwrite(text, 1, len, stdout) != len || fflush(stdout))
      return tf_error_set(err, TF_EINTERNAL, NULL, "cannot write standard output: %s", strerror(errno));
    return 0;
  }
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", file, (long)getpid()) >= (int)sizeof tmp)
    return tf_error_set(err, TF_EINPUT, where, "file name too long: %s", file);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return tf_error_set(err, TF_EINPUT, where, "cannot write %s: %s", file, strerror(errno));
  int rc = tf_write_all(fd, text, len);
  int saved = errno;
  if (close(fd) && !rc) {
    rc = -1;
    saved = errno;
  }
  if (!rc && rename(tmp, file)) {
    rc = -1;
    saved = errno;
  }
  if (rc) {
    unlink(tmp);
    return tf_error_set(err, TF_EINPUT, where, "cannot write %s: %s", file, strerror(saved));
  }
  return 0;
}
