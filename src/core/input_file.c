/* src/core/input_file.c: input streams that honour a stop request while they block: FIFOs, pipes and devices read through poll(), regular files as they are */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"

/* The poll slice: how long a wait goes before the stop flag is read again. */
#define SK__INPUT_POLL_MS 100

/* How messages name the input: "<at>cannot open <what> '<path>'<given>". */
typedef struct {
  const char *path, *what, *at, *given, *given_by;
} input_name;

/* Copy everything fd gives (until its writers close) into the temporary
 * file out, at most max_bytes. */
static sk_status drain(sk_context *ctx, int fd, const input_name *in, size_t max_bytes, FILE *out)
{
  const char *path = in->path, *what = in->what, *at = in->at, *given = in->given,
             *by = in->given_by;
  char buf[65536];
  size_t total = 0;
  for (;;) {
    struct pollfd p = {fd, POLLIN, 0};
    const int n = poll(&p, 1, SK__INPUT_POLL_MS);
    if (sk__stop_requested(ctx)) {
      return SK_ERROR(ctx, SK_INTERRUPTED,
                      "%sstopped by signal %d while waiting for %s '%s'%s%s (a FIFO or pipe: "
                      "is anything writing to it?); nothing was written",
                      at, sk__stop_requested(ctx), what, path, given, by);
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    SK_CHECK(ctx, n >= 0, SK_ERR_IO, "%scannot wait for %s '%s'%s%s: %s", at, what, path, given,
             by, strerror(errno));
    if (n == 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) {
      continue; /* nothing yet (a FIFO whose writer has not come) */
    }
    const ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
      continue;
    }
    SK_CHECK(ctx, got >= 0, SK_ERR_IO, "%scannot read %s '%s'%s%s: %s", at, what, path, given, by,
             strerror(errno));
    if (got == 0) {
      if (p.revents & POLLHUP) {
        return SK_OK; /* the writers closed: all of it */
      }
      continue; /* no writer yet: read() says 0 before the first one opens */
    }
    total += (size_t)got;
    SK_CHECK(ctx, total <= max_bytes, SK_ERR_INPUT,
             "%s%s: %s%s%s larger than %zu bytes (limit exceeded)", at, path, what, given, by,
             max_bytes);
    SK_CHECK(ctx, fwrite(buf, 1, (size_t)got, out) == (size_t)got, SK_ERR_IO,
             "%scannot buffer %s '%s'%s%s: %s", at, what, path, given, by, strerror(errno));
  }
}

sk_status sk__input_open_at(sk_context *ctx, const char *path, const char *what, const char *at,
                            const char *given_by, size_t max_bytes, FILE **stream)
{
  *stream = NULL;
  const input_name in = {path, what, at ? at : "", given_by ? " given by " : "",
                         given_by ? given_by : ""};
  at = in.at;
  const char *given = in.given, *by = in.given_by;
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    return SK_ERROR(ctx, SK_ERR_MISSING, "%scannot open %s '%s'%s%s: it is a directory", at, what,
                    path, given, by);
  }
  if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode)) {
    *stream = fopen(path, "rb");
    SK_CHECK(ctx, *stream != NULL, SK_ERR_MISSING, "%scannot open %s '%s'%s%s: %s", at, what,
             path, given, by, strerror(errno));
    return SK_OK;
  }
  /* O_NONBLOCK: opening a FIFO for reading does not wait for a writer */
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  SK_CHECK(ctx, fd >= 0, SK_ERR_MISSING, "%scannot open %s '%s'%s%s: %s", at, what, path, given,
           by, strerror(errno));
  FILE *tmp = tmpfile();
  if (!tmp) {
    const int err = errno;
    close(fd);
    return SK_ERROR(ctx, SK_ERR_IO, "%scannot buffer %s '%s'%s%s: %s", at, what, path, given, by,
                    strerror(err));
  }
  const sk_status st = drain(ctx, fd, &in, max_bytes, tmp);
  close(fd);
  if (st != SK_OK || fflush(tmp) != 0 || fseek(tmp, 0, SEEK_SET) != 0) {
    fclose(tmp);
    return st != SK_OK ? st
                       : SK_ERROR(ctx, SK_ERR_IO, "%scannot buffer %s '%s'%s%s", at, what, path,
                                  given, by);
  }
  *stream = tmp;
  return SK_OK;
}

sk_status sk__input_open(sk_context *ctx, const char *path, const char *what, size_t max_bytes,
                         FILE **stream)
{
  return sk__input_open_at(ctx, path, what, NULL, NULL, max_bytes, stream);
}

void sk__input_close(FILE *stream)
{
  if (stream) {
    fclose(stream);
  }
}
