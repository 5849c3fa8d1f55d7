/* src/io/checkpoint.c: checkpoint files written atomically (temporary name, fsync, rename) with a checksum, and read back with checks */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"
#include "io/checkpoint.h"
#include "io/write_util.h"

static const char magic[8] = {'S', 'K', 'C', 'K', 'P', 'T', '\n', '\032'};
static const uint32_t byte_order_mark = 0x01020304u;

uint64_t sk__fnv1a64(uint64_t h, const void *data, size_t len)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t sk__checkpoint_problem_hash(const char *options, const char *model_name, int64_t n)
{
  uint64_t h = SK__FNV1A64_INIT;
  for (const char *line = options; line && *line;) {
    const char *end = strchr(line, '\n');
    const size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
    /* checkpoint.* says where and when to checkpoint, bench.* is read by `stiffkit bench`
       alone: neither changes the problem */
    if (strncmp(line, "checkpoint.", 11) != 0 && strncmp(line, "# checkpoint.", 13) != 0 &&
        strncmp(line, "bench.", 6) != 0 && strncmp(line, "# bench.", 8) != 0) {
      h = sk__fnv1a64(h, line, len);
    }
    line += len;
  }
  h = sk__fnv1a64(h, model_name, strlen(model_name) + 1);
  return sk__fnv1a64(h, &n, sizeof n);
}

/* ---- writing ------------------------------------------------------------ */

typedef struct {
  FILE *f;
  uint64_t sum;
  int failed;
  sk_status tail_st; /* a table's tail callback failed (its error is recorded) */
  double *tail_buf;  /* one row's tail */
} ckpt_writer;

static void put(ckpt_writer *w, const void *data, size_t len)
{
  if (len == 0 || w->failed) {
    return;
  }
  w->sum = sk__fnv1a64(w->sum, data, len);
  if (fwrite(data, 1, len, w->f) != len) {
    w->failed = 1;
  }
}

static void put_u64(ckpt_writer *w, uint64_t v)
{
  put(w, &v, sizeof v);
}
static void put_i64(ckpt_writer *w, int64_t v)
{
  put(w, &v, sizeof v);
}
static void put_f64(ckpt_writer *w, double v)
{
  put(w, &v, sizeof v);
}

/* The statistics counters of sk_stats (stiffkit/stats.h), and those of format versions 1 and 2. */
#define SK__COUNT_ONE(f, label) +1
#define SK__STATS_NCOUNTERS (0 SK_STATS_COUNTERS(SK__COUNT_ONE))
#define SK__STATS_NCOUNTERS_V2 16

static void put_stats(ckpt_writer *w, const sk_stats *st)
{
  put_u64(w, SK__STATS_NCOUNTERS);
#define SK__PUT_COUNTER(f, label) put_i64(w, st->f);
  SK_STATS_COUNTERS(SK__PUT_COUNTER)
#undef SK__PUT_COUNTER
  put_i64(w, st->last_order);
  put_f64(w, st->last_h);
  put_f64(w, st->t);
  put_f64(w, st->wall_time);
}

static void put_body(ckpt_writer *w, const sk__checkpoint *c)
{
  const uint32_t version = SK__CHECKPOINT_VERSION;
  put(w, magic, sizeof magic);
  put(w, &version, sizeof version);
  put(w, &byte_order_mark, sizeof byte_order_mark);
  put_u64(w, c->problem_hash);
  put_f64(w, c->t);
  put_f64(w, c->h);
  put_i64(w, c->order);
  put_i64(w, c->segment);
  put_i64(w, c->n);
  put_i64(w, c->yp != NULL);
  put(w, c->y, (size_t)c->n * sizeof *c->y);
  if (c->yp) {
    put(w, c->yp, (size_t)c->n * sizeof *c->yp);
  }
  put_i64(w, c->S ? c->ns : 0);
  if (c->S) {
    put(w, c->S, (size_t)c->ns * (size_t)c->n * sizeof *c->S);
  }
  put_stats(w, &c->stats);
  const size_t olen = c->options ? strlen(c->options) : 0;
  put_u64(w, olen);
  put(w, c->options, olen);
  put_u64(w, c->ntables);
  for (size_t k = 0; k < c->ntables; k++) {
    const sk__checkpoint_table *tb = &c->tables[k];
    put_u64(w, tb->rows);
    put_u64(w, tb->width);
    const size_t head = tb->head ? tb->head : tb->width;
    if (head == tb->width) {
      put(w, tb->data, tb->rows * tb->width * sizeof *tb->data);
      continue;
    }
    for (size_t i = 0; i < tb->rows && !w->failed; i++) { /* the same bytes, row by row */
      put(w, tb->data + i * head, head * sizeof *tb->data);
      const sk_status st = tb->tail(tb->tail_arg, i, w->tail_buf);
      if (st != SK_OK) {
        w->tail_st = st;
        w->failed = 1;
        break;
      }
      put(w, w->tail_buf, (tb->width - head) * sizeof *tb->data);
    }
  }
}

/* The longest row tail of c's tables (0: every table is whole). */
static size_t longest_tail(const sk__checkpoint *c)
{
  size_t m = 0;
  for (size_t k = 0; k < c->ntables; k++) {
    const sk__checkpoint_table *tb = &c->tables[k];
    const size_t t = tb->head && tb->head < tb->width ? tb->width - tb->head : 0;
    m = t > m ? t : m;
  }
  return m;
}

/* The directory part of path ("." when none) into buf. */
static void dir_of(const char *path, char *buf, size_t len)
{
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(buf, len, ".");
  } else if (slash == path) {
    snprintf(buf, len, "/");
  } else {
    snprintf(buf, len, "%.*s", (int)(slash - path), path);
  }
}

sk_status sk__checkpoint_write(sk_context *ctx, const char *path, const sk__checkpoint *c)
{
  SK_CHECK(ctx,
           path && path[0] && c && c->n > 0 && c->y && c->ntables <= SK__CHECKPOINT_MAX_TABLES,
           SK_ERR_ARG, "checkpoint: bad arguments");
  for (size_t k = 0; k < c->ntables; k++) {
    const sk__checkpoint_table *tb = &c->tables[k];
    SK_CHECK(ctx, tb->head <= tb->width && (tb->head == 0 || tb->head == tb->width || tb->tail),
             SK_ERR_ARG, "checkpoint: table %zu has a partial head and no tail", k);
  }
  const size_t tail_len = longest_tail(c);
  char tmp[PATH_MAX + 32];
  SK_CHECK(ctx, strlen(path) < PATH_MAX, SK_ERR_ARG, "checkpoint: path too long");
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  unlink(tmp); /* a stale file of a dead process with the same pid */
  const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  SK_CHECK(ctx, fd >= 0, SK_ERR_CREATE, "cannot create checkpoint file '%s': %s", tmp,
           strerror(errno));
  ckpt_writer w = {fdopen(fd, "wb"), SK__FNV1A64_INIT, 0, SK_OK, NULL};
  if (!w.f) {
    const int err = errno;
    close(fd);
    unlink(tmp);
    return SK_ERROR(ctx, SK_ERR_IO, "cannot write checkpoint file '%s': %s", tmp, strerror(err));
  }
  if (tail_len > 0) {
    w.tail_buf = sk__malloc(ctx, tail_len * sizeof *w.tail_buf);
    if (!w.tail_buf) {
      fclose(w.f);
      unlink(tmp);
      return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate a row of the checkpoint '%s'", path);
    }
  }
  put_body(&w, c);
  sk__free(ctx, w.tail_buf);
  if (w.tail_st != SK_OK) { /* its error record names what failed */
    fclose(w.f);
    unlink(tmp);
    return w.tail_st;
  }
  const uint64_t sum = w.sum;
  if (!w.failed && fwrite(&sum, sizeof sum, 1, w.f) != 1) {
    w.failed = 1;
  }
  int err = w.failed ? errno : 0;
  if (!w.failed && (fflush(w.f) != 0 || fsync(fileno(w.f)) != 0)) {
    err = errno;
    w.failed = 1;
  }
  if (fclose(w.f) != 0 && !w.failed) {
    err = errno;
    w.failed = 1;
  }
  if (!w.failed && rename(tmp, path) != 0) {
    err = errno;
    w.failed = 1;
  }
  if (w.failed) {
    unlink(tmp);
    return SK_ERROR(ctx, SK_ERR_IO,
                    "I/O error writing checkpoint '%s': %s (the previous "
                    "checkpoint, if any, is kept)",
                    path, strerror(err ? err : EIO));
  }
  char dir[PATH_MAX];
  dir_of(path, dir, sizeof dir);
  return sk__fsync_dir(ctx, dir);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  const unsigned char *p, *end;
  int short_read;
} ckpt_reader;

static const void *take(ckpt_reader *r, size_t len)
{
  if (r->short_read || (size_t)(r->end - r->p) < len) {
    r->short_read = 1;
    return NULL;
  }
  const void *at = r->p;
  r->p += len;
  return at;
}

static uint64_t take_u64(ckpt_reader *r)
{
  uint64_t v = 0;
  const void *at = take(r, sizeof v);
  if (at) {
    memcpy(&v, at, sizeof v);
  }
  return v;
}

static int64_t take_i64(ckpt_reader *r)
{
  return (int64_t)take_u64(r);
}

static double take_f64(ckpt_reader *r)
{
  double v = 0;
  const void *at = take(r, sizeof v);
  if (at) {
    memcpy(&v, at, sizeof v);
  }
  return v;
}

/* `count` doubles copied into a new block (NULL with count 0 or on a short read). */
static double *take_doubles(sk_context *ctx, ckpt_reader *r, size_t count, int *oom)
{
  if (count == 0 || count > (size_t)(r->end - r->p) / sizeof(double)) {
    r->short_read = r->short_read || count > 0;
    return NULL;
  }
  double *v = sk__malloc(ctx, count * sizeof *v);
  if (!v) {
    *oom = 1;
    return NULL;
  }
  memcpy(v, take(r, count * sizeof *v), count * sizeof *v);
  return v;
}

/* The counters as stored: the first `count` of sk_stats in order, the later ones 0. */
static void take_stats(ckpt_reader *r, uint64_t count, sk_stats *st)
{
  uint64_t k = 0;
#define SK__TAKE_COUNTER(f, label) st->f = k++ < count ? take_i64(r) : 0;
  SK_STATS_COUNTERS(SK__TAKE_COUNTER)
#undef SK__TAKE_COUNTER
  st->last_order = (int)take_i64(r);
  st->last_h = take_f64(r);
  st->t = take_f64(r);
  st->wall_time = take_f64(r);
}

/* Storage a read checkpoint owns: the file image and the copied arrays. */
typedef struct {
  unsigned char *image;
  double *y, *yp, *S;
  char *options;
  double *tables[SK__CHECKPOINT_MAX_TABLES];
} ckpt_storage;

static sk_status read_image(sk_context *ctx, const char *path, unsigned char **image,
                            size_t *size)
{
  FILE *f = NULL;
  SK_CALL_STOP(ctx, sk__input_open(ctx, path, "checkpoint", SIZE_MAX, &f));
  struct stat sb;
  if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    sk__input_close(f);
    return SK_ERROR(ctx, SK_ERR_MISSING, "cannot read checkpoint '%s': not a regular file", path);
  }
  *size = (size_t)sb.st_size;
  *image = sk__malloc(ctx, *size ? *size : 1);
  if (!*image) {
    sk__input_close(f);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot hold checkpoint '%s' (%zu bytes) in memory", path,
                    *size);
  }
  const size_t got = fread(*image, 1, *size, f);
  sk__input_close(f);
  SK_CHECK(ctx, got == *size, SK_ERR_INPUT, "cannot read checkpoint '%s': %s", path,
           "short read");
  return SK_OK;
}

/* Check magic, version, byte order and checksum of the image. */
static sk_status check_image(sk_context *ctx, const char *path, const unsigned char *img,
                             size_t size)
{
  const size_t head = sizeof magic + 2 * sizeof(uint32_t);
  SK_CHECK(ctx, size >= head + sizeof(uint64_t) && !memcmp(img, magic, sizeof magic),
           SK_ERR_INPUT, "'%s' is not a stiffkit checkpoint (no checkpoint header)", path);
  uint32_t version, bom;
  memcpy(&version, img + sizeof magic, sizeof version);
  memcpy(&bom, img + sizeof magic + sizeof version, sizeof bom);
  SK_CHECK(ctx, bom == byte_order_mark, SK_ERR_INPUT,
           "checkpoint '%s' was written on a machine of another byte order", path);
  SK_CHECK(ctx, version >= SK__CHECKPOINT_VERSION_MIN && version <= SK__CHECKPOINT_VERSION,
           SK_ERR_INPUT,
           "checkpoint '%s' has format version %u; this stiffkit reads versions %u to %u", path,
           version, SK__CHECKPOINT_VERSION_MIN, SK__CHECKPOINT_VERSION);
  uint64_t stored;
  memcpy(&stored, img + size - sizeof stored, sizeof stored);
  const uint64_t computed = sk__fnv1a64(SK__FNV1A64_INIT, img, size - sizeof stored);
  SK_CHECK(ctx, stored == computed, SK_ERR_INPUT,
           "checkpoint '%s' fails its checksum (stored %016llx, computed %016llx): the file is "
           "damaged or was modified",
           path, (unsigned long long)stored, (unsigned long long)computed);
  return SK_OK;
}

static sk_status parse_body(sk_context *ctx, const char *path, ckpt_reader *r, ckpt_storage *own,
                            sk__checkpoint *c)
{
  const unsigned char *image = r->p;
  int oom = 0;
  take(r, sizeof magic + 2 * sizeof(uint32_t));
  c->problem_hash = take_u64(r);
  c->t = take_f64(r);
  c->h = take_f64(r);
  c->order = (int)take_i64(r);
  c->segment = (int)take_i64(r);
  c->n = take_i64(r);
  const int64_t has_yp = take_i64(r);
  SK_CHECK(ctx, !r->short_read && c->n > 0 && (has_yp == 0 || has_yp == 1), SK_ERR_INPUT,
           "checkpoint '%s' is inconsistent: state length %lld", path, (long long)c->n);
  own->y = take_doubles(ctx, r, (size_t)c->n, &oom);
  own->yp = has_yp ? take_doubles(ctx, r, (size_t)c->n, &oom) : NULL;
  uint32_t version; /* checked on the image (check_image) */
  memcpy(&version, image + sizeof magic, sizeof version);
  c->ns = version >= 2 ? take_i64(r) : 0;
  SK_CHECK(ctx, !r->short_read, SK_ERR_INPUT,
           "checkpoint '%s' is truncated (in the state or the options)", path);
  SK_CHECK(ctx,
           c->ns >= 0 &&
               (uint64_t)c->ns <= (uint64_t)(r->end - r->p) / sizeof(double) / (uint64_t)c->n,
           SK_ERR_INPUT, "checkpoint '%s' is inconsistent: %lld sensitivities", path,
           (long long)c->ns);
  own->S = c->ns ? take_doubles(ctx, r, (size_t)c->ns * (size_t)c->n, &oom) : NULL;
  const uint64_t ncounters = version >= 3 ? take_u64(r) : SK__STATS_NCOUNTERS_V2;
  SK_CHECK(ctx,
           !r->short_read && ncounters >= SK__STATS_NCOUNTERS_V2 &&
               ncounters <= SK__STATS_NCOUNTERS,
           SK_ERR_INPUT, "checkpoint '%s' is inconsistent: %llu statistics counters", path,
           (unsigned long long)ncounters);
  take_stats(r, ncounters, &c->stats);
  const uint64_t olen = take_u64(r);
  SK_CHECK(ctx, !oom, SK_ERR_NOMEM, "out of memory reading checkpoint '%s'", path);
  SK_CHECK(ctx, !r->short_read && olen < (uint64_t)(r->end - r->p), SK_ERR_INPUT,
           "checkpoint '%s' is truncated (in the state or the options)", path);
  own->options = sk__malloc(ctx, (size_t)olen + 1);
  SK_CHECK(ctx, own->options != NULL, SK_ERR_NOMEM, "out of memory reading checkpoint '%s'",
           path);
  memcpy(own->options, take(r, (size_t)olen), (size_t)olen);
  own->options[olen] = '\0';
  c->ntables = (size_t)take_u64(r);
  SK_CHECK(ctx, !r->short_read && c->ntables <= SK__CHECKPOINT_MAX_TABLES, SK_ERR_INPUT,
           "checkpoint '%s' is inconsistent: %zu output tables", path, c->ntables);
  for (size_t k = 0; k < c->ntables; k++) {
    sk__checkpoint_table *tb = &c->tables[k];
    tb->rows = (size_t)take_u64(r);
    tb->width = (size_t)take_u64(r);
    SK_CHECK(ctx,
             !r->short_read && tb->width > 0 && tb->width <= ((size_t)1 << 40) &&
                 tb->rows <= (size_t)(r->end - r->p) / sizeof(double) / tb->width,
             SK_ERR_INPUT, "checkpoint '%s' is inconsistent: output table %zu", path, k);
    own->tables[k] = take_doubles(ctx, r, tb->rows * tb->width, &oom);
    tb->data = own->tables[k];
  }
  SK_CHECK(ctx, !oom, SK_ERR_NOMEM, "out of memory reading checkpoint '%s'", path);
  SK_CHECK(ctx, !r->short_read && r->end - r->p == (ptrdiff_t)sizeof(uint64_t), SK_ERR_INPUT,
           "checkpoint '%s' is inconsistent: its length does not match its content", path);
  c->y = own->y;
  c->yp = own->yp;
  c->S = own->S;
  c->options = own->options;
  return SK_OK;
}

sk_status sk__checkpoint_read(sk_context *ctx, const char *path, sk__checkpoint *c)
{
  memset(c, 0, sizeof *c);
  ckpt_storage *own = sk__calloc(ctx, 1, sizeof *own);
  SK_CHECK(ctx, own != NULL, SK_ERR_NOMEM, "out of memory reading checkpoint '%s'", path);
  c->owned = own;
  size_t size = 0;
  sk_status st = read_image(ctx, path, &own->image, &size);
  if (st == SK_OK) {
    st = check_image(ctx, path, own->image, size);
  }
  if (st == SK_OK) {
    ckpt_reader r = {own->image, own->image + size, 0};
    st = parse_body(ctx, path, &r, own, c);
    sk__free(ctx, own->image); /* everything needed was copied out */
    own->image = NULL;
  }
  if (st != SK_OK) {
    sk__checkpoint_free(ctx, c);
    SK_CALL_STOP(ctx, st);
  }
  return SK_OK;
}

void sk__checkpoint_free(sk_context *ctx, sk__checkpoint *c)
{
  ckpt_storage *own = c->owned;
  if (own) {
    sk__free(ctx, own->image);
    sk__free(ctx, own->y);
    sk__free(ctx, own->yp);
    sk__free(ctx, own->S);
    sk__free(ctx, own->options);
    for (int k = 0; k < SK__CHECKPOINT_MAX_TABLES; k++) {
      sk__free(ctx, own->tables[k]);
    }
    sk__free(ctx, own);
  }
  memset(c, 0, sizeof *c);
}
