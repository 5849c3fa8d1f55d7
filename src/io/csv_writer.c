/* src/io/csv_writer.c: the CSV table of a run: header plus flushed rows, cut back to the last complete row on failure */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/error.h"
#include "io/results_impl.h"
#include "io/write_util.h"

struct sk__csv_writer {
  sk_context *ctx;
  FILE *fp;        /* NULL once closed */
  const char *tmp; /* owned by the sk_results front, outlives the writer */
  const char *shown;
  off_t good; /* bytes of complete, flushed lines */
  int failed; /* a write error happened */
  int header_done;
};

static sk_status csv_io_error(sk__csv_writer *w, int err)
{
  return SK_ERROR(w->ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s'): %s", w->shown,
                  w->tmp, strerror(err ? err : EIO));
}

/* Write s as one CSV field; returns the bytes written or -1. */
static long csv_put_field(FILE *fp, const char *s)
{
  int quote =
      s[0] == '\0' || s[0] == ' ' || s[strlen(s) - 1] == ' ' || strpbrk(s, ",\"\r\n") != NULL;
  long bytes = 0;
  if (!quote) {
    if (fputs(s, fp) == EOF) {
      return -1;
    }
    return (long)strlen(s);
  }
  if (putc('"', fp) == EOF) {
    return -1;
  }
  bytes++;
  for (const char *p = s; *p; p++) {
    if (*p == '"') {
      if (putc('"', fp) == EOF) {
        return -1;
      }
      bytes++;
    }
    if (putc(*p, fp) == EOF) {
      return -1;
    }
    bytes++;
  }
  if (putc('"', fp) == EOF) {
    return -1;
  }
  return bytes + 1;
}

sk_status sk__csv_writer_open(sk_context *ctx, int fd, const char *tmp_path, const char *shown,
                              sk__csv_writer **w)
{
  *w = NULL;
  sk__csv_writer *c = sk__calloc(ctx, 1, sizeof *c);
  if (!c) {
    close(fd);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory opening '%s'", shown);
  }
  c->ctx = ctx;
  c->tmp = tmp_path;
  c->shown = shown;
  c->fp = fdopen(fd, "w");
  if (!c->fp) {
    int err = errno;
    close(fd);
    sk_status st = csv_io_error(c, err);
    sk__free(ctx, c);
    return st;
  }
  *w = c;
  return SK_OK;
}

sk_status sk__csv_writer_header(sk__csv_writer *w, const char *const *names, size_t ncols)
{
  SK_CHECK(w->ctx, w->fp && !w->failed && !w->header_done, SK_ERR_STATE,
           "CSV header of '%s' written twice or after an error", w->shown);
  long bytes = 0;
  errno = 0;
  for (size_t j = 0; j < ncols; j++) {
    if (j > 0) {
      if (putc(',', w->fp) == EOF) {
        goto fail;
      }
      bytes++;
    }
    long b = csv_put_field(w->fp, names[j]);
    if (b < 0) {
      goto fail;
    }
    bytes += b;
  }
  if (putc('\n', w->fp) == EOF || fflush(w->fp) == EOF) {
    goto fail;
  }
  w->good += (off_t)(bytes + 1);
  w->header_done = 1;
  return SK_OK;
fail:
  w->failed = 1;
  return csv_io_error(w, errno);
}

sk_status sk__csv_writer_row(sk__csv_writer *w, const double *vals, size_t ncols)
{
  SK_CHECK(w->ctx, w->fp && !w->failed, SK_ERR_STATE,
           "CSV file '%s' is closed or had a write error", w->shown);
  long bytes = 0;
  errno = 0;
  for (size_t j = 0; j < ncols; j++) {
    int b = fprintf(w->fp, j > 0 ? ",%.10e" : "%.10e", vals[j]);
    if (b < 0) {
      goto fail;
    }
    bytes += b;
  }
  if (putc('\n', w->fp) == EOF || fflush(w->fp) == EOF) {
    goto fail;
  }
  w->good += (off_t)(bytes + 1);
  return SK_OK;
fail:
  w->failed = 1;
  return csv_io_error(w, errno);
}

sk_status sk__csv_writer_close(sk__csv_writer *w)
{
  SK_CHECK(w->ctx, w->fp && !w->failed, SK_ERR_STATE,
           "CSV file '%s' is closed or had a write error", w->shown);
  FILE *fp = w->fp;
  w->fp = NULL;
  errno = 0;
  if (fflush(fp) == EOF || fsync(fileno(fp)) != 0) {
    int err = errno;
    fclose(fp);
    w->failed = 1;
    return csv_io_error(w, err);
  }
  if (fclose(fp) == EOF) {
    w->failed = 1;
    return csv_io_error(w, errno);
  }
  return SK_OK;
}

/* write(2) all of buf, retrying on EINTR and short writes. */
static int write_all(int fd, const char *buf, size_t len)
{
  while (len > 0) {
    ssize_t k = write(fd, buf, len);
    if (k < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    buf += k;
    len -= (size_t)k;
  }
  return 0;
}

sk_status sk__csv_writer_close_incomplete(sk__csv_writer *w, const char *message)
{
  if (w->fp) {
    /* rows are flushed one by one; what fclose may still push out is a torn
     * row, cut off below */
    fclose(w->fp);
    w->fp = NULL;
  }
  char line[SK_ERROR_MSG_LEN + 64];
  char msg[SK_ERROR_MSG_LEN];
  sk__one_line(message, msg, sizeof msg);
  int len = snprintf(line, sizeof line, "# status=incomplete: %s\n", msg);
  if (len < 0) {
    len = 0;
  }
  if ((size_t)len >= sizeof line) {
    len = (int)sizeof line - 1;
    line[len - 1] = '\n';
  }
  int fd = open(w->tmp, O_WRONLY);
  if (fd < 0) {
    return csv_io_error(w, errno);
  }
  if (ftruncate(fd, w->good) != 0 || lseek(fd, w->good, SEEK_SET) < 0) {
    int err = errno;
    close(fd);
    return csv_io_error(w, err);
  }
  if (write_all(fd, line, (size_t)len) != 0) {
    int err = errno;
    /* no torn trailer either: the rows stay, the name says "partial" */
    if (ftruncate(fd, w->good) == 0) {
      fsync(fd);
    }
    close(fd);
    return csv_io_error(w, err);
  }
  if (fsync(fd) != 0) {
    int err = errno;
    close(fd);
    return csv_io_error(w, err);
  }
  if (close(fd) != 0) {
    return csv_io_error(w, errno);
  }
  return SK_OK;
}

sk_status sk__csv_writer_replace_stream(sk__csv_writer *w, FILE *stream)
{
  SK_CHECK(w->ctx, stream != NULL, SK_ERR_ARG, "replacement CSV stream is NULL");
  SK_CHECK(w->ctx, w->fp != NULL, SK_ERR_STATE, "CSV file '%s' is not open", w->shown);
  fclose(w->fp);
  w->fp = stream;
  return SK_OK;
}

void sk__csv_writer_free(sk__csv_writer **w)
{
  if (!w || !*w) {
    return;
  }
  if ((*w)->fp) {
    fclose((*w)->fp);
  }
  sk__free((*w)->ctx, *w);
  *w = NULL;
}
