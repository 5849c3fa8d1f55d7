/* src/io/input_file.c: input streams that honour a stop request while they block: FIFOs, pipes and devices read through poll(), regular files as they are */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "io/input_file.h"

/* The poll slice: how long a wait goes before the stop flag is read again. */
#define SK__INPUT_POLL_MS 100

static int stop_requested(const sk_context *ctx)
{
  return ctx->stop_flag && *ctx->stop_flag != 0;
}

/* Copy everything fd gives (until its writers close) into the temporary
 * file out, at most max_bytes. */
static sk_status drain(sk_context *ctx, int fd, const char *path, const char *what,
                       size_t max_bytes, FILE *out)
{
  char buf[65536];
  size_t total = 0;
  for (;;) {
    struct pollfd p = {fd, POLLIN, 0};
    const int n = poll(&p, 1, SK__INPUT_POLL_MS);
    if (stop_requested(ctx)) {
      return SK_ERROR(ctx, SK_INTERRUPTED,
                      "stopped by signal %d while waiting for %s '%s' (a FIFO or pipe: is "
                      "anything writing to it?); nothing was written",
                      (int)*ctx->stop_flag, what, path);
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    SK_CHECK(ctx, n >= 0, SK_ERR_IO, "cannot wait for %s '%s': %s", what, path, strerror(errno));
    if (n == 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) {
      continue; /* nothing yet (a FIFO whose writer has not come) */
    }
    const ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
      continue;
    }
    SK_CHECK(ctx, got >= 0, SK_ERR_IO, "cannot read %s '%s': %s", what, path, strerror(errno));
    if (got == 0) {
      if (p.revents & POLLHUP) {
        return SK_OK; /* the writers closed: all of it */
      }
      continue; /* no writer yet: read() says 0 before the first one opens */
    }
    total += (size_t)got;
    SK_CHECK(ctx, total <= max_bytes, SK_ERR_INPUT,
             "%s: %s larger than %zu bytes (limit exceeded)", path, what, max_bytes);
    SK_CHECK(ctx, fwrite(buf, 1, (size_t)got, out) == (size_t)got, SK_ERR_IO,
             "cannot buffer %s '%s': %s", what, path, strerror(errno));
  }
}

sk_status sk__input_open(sk_context *ctx, const char *path, const char *what, size_t max_bytes,
                         FILE **stream)
{
  *stream = NULL;
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    return SK_ERROR(ctx, SK_ERR_MISSING, "cannot open %s '%s': it is a directory", what, path);
  }
  if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode)) {
    *stream = fopen(path, "rb");
    SK_CHECK(ctx, *stream != NULL, SK_ERR_MISSING, "cannot open %s '%s': %s", what, path,
             strerror(errno));
    return SK_OK;
  }
  /* O_NONBLOCK: opening a FIFO for reading does not wait for a writer */
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  SK_CHECK(ctx, fd >= 0, SK_ERR_MISSING, "cannot open %s '%s': %s", what, path, strerror(errno));
  FILE *tmp = tmpfile();
  if (!tmp) {
    const int err = errno;
    close(fd);
    return SK_ERROR(ctx, SK_ERR_IO, "cannot buffer %s '%s': %s", what, path, strerror(err));
  }
  const sk_status st = drain(ctx, fd, path, what, max_bytes, tmp);
  close(fd);
  if (st != SK_OK || fflush(tmp) != 0 || fseek(tmp, 0, SEEK_SET) != 0) {
    fclose(tmp);
    return st != SK_OK ? st : SK_ERROR(ctx, SK_ERR_IO, "cannot buffer %s '%s'", what, path);
  }
  *stream = tmp;
  return SK_OK;
}

void sk__input_close(FILE *stream)
{
  if (stream) {
    fclose(stream);
  }
}
