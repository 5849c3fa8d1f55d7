/* src/io/write_util.c: helpers shared by the output writers: fsync of a file and of a directory, one-line messages */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "io/write_util.h"

void sk__one_line(const char *msg, char *buf, size_t len)
{
  if (!buf || len == 0) {
    return;
  }
  snprintf(buf, len, "%s", msg && msg[0] ? msg : "unknown error");
  for (char *p = buf; *p; p++) {
    if ((unsigned char)*p < 0x20 || *p == 0x7F) {
      *p = ' ';
    }
  }
}

sk_status sk__fsync_path(sk_context *ctx, const char *path, const char *shown)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    int err = errno;
    if (fd >= 0) {
      close(fd);
    }
    return SK_ERROR(ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s'): %s", shown, path,
                    strerror(err));
  }
  if (close(fd) != 0) {
    return SK_ERROR(ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s'): %s", shown, path,
                    strerror(errno));
  }
  return SK_OK;
}

/* fsync the directory so that renames are durable; file systems that
 * cannot sync a directory (EINVAL) are accepted. */
sk_status sk__fsync_dir(sk_context *ctx, const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return SK_ERROR(ctx, SK_ERR_IO, "cannot open output directory '%s' to sync it: %s", dir,
                    strerror(errno));
  }
  if (fsync(fd) != 0 && errno != EINVAL) {
    int err = errno;
    close(fd);
    return SK_ERROR(ctx, SK_ERR_IO, "I/O error syncing output directory '%s': %s", dir,
                    strerror(err));
  }
  close(fd);
  return SK_OK;
}
