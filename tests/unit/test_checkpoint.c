/* tests/unit/test_checkpoint.c: checkpoint files: exact round trip, atomic replacement (also when the write fails), every kind of damage refused with its reason, the problem hash, and the replay of saved result rows */
/* Expected values: a read checkpoint must equal what was written bit for
 * bit (memcmp of the doubles, so -0.0, subnormals and NaN payloads count);
 * damage is made by hand on the file image, and where a check behind the
 * checksum is meant (version, byte order, lengths) the FNV-1a 64 checksum
 * trailer is recomputed here from its published definition (offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3), independently of sk__fnv1a64. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "io/checkpoint.h"
#include "io/results.h"
#include "test.h"
#include "test_files.h"

/* ---- helpers ----------------------------------------------------------------- */

/* Layout offsets of the fixed header fields (see sk__checkpoint_write). */
enum {
  OFF_VERSION = 8,
  OFF_BOM = 12,
  OFF_HASH = 16,
  OFF_N = 56,
  OFF_HAS_YP = 64,
  OFF_Y = 72,
  HEADER = 16
};

/* FNV-1a 64 written out from its definition (not the library's). */
static uint64_t fnv1a64_reference(const unsigned char *p, size_t len)
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    h = (h ^ p[i]) * 0x100000001b3ull;
  }
  return h;
}

static unsigned char *read_bytes(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    *size = 0;
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  const long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(len > 0 ? (size_t)len : 1);
  *size = fread(buf, 1, (size_t)len, f);
  fclose(f);
  return buf;
}

static void write_bytes(const char *path, const unsigned char *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

/* Recompute the checksum trailer of an image of `size` bytes. */
static void reseal(unsigned char *img, size_t size)
{
  const uint64_t sum = fnv1a64_reference(img, size - sizeof sum);
  memcpy(img + size - sizeof sum, &sum, sizeof sum);
}

/* Number of directory entries other than . and .. whose name contains `part`. */
static int count_entries(const char *dir, const char *part)
{
  DIR *d = opendir(dir);
  int count = 0;
  if (!d) {
    return -1;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strstr(e->d_name, part)) {
      count++;
    }
  }
  closedir(d);
  return count;
}

static const char *last_message(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* The data of a checkpoint with every field set to something distinct. */
#define NSTATE 7
static const char options_text[] = "model.type: embedded\n"
                                   "model.n: [20]\n"
                                   "solver.method: cvode-bdf\n"
                                   "solver.rtol: 1e-06\n"
                                   "solver.atol: 1e-09\n"
                                   "# solver.stop_time: (not set)\n"
                                   "checkpoint.file: \"\"\n"
                                   "checkpoint.every: 0.1\n"
                                   "checkpoint.wall: 0\n"
                                   "checkpoint.segment: false\n"
                                   "output.prefix: heat2d\n";

typedef struct {
  double y[NSTATE], yp[NSTATE];
  double t0[4 * 5], t1[3 * 2], t2[2 * 9];
  sk__checkpoint c;
} sample;

static void make_sample(sample *s)
{
  memset(s, 0, sizeof *s);
  const double special[NSTATE] = {
      1.0 / 3.0, -0.0,  4.9406564584124654e-324, -1.7976931348623157e308, 2.2250738585072014e-308,
      NAN,       1e-300};
  for (int i = 0; i < NSTATE; i++) {
    s->y[i] = special[i];
    s->yp[i] = -special[i] * 0.7 + i;
  }
  for (int i = 0; i < 4 * 5; i++) {
    s->t0[i] = i % 5 == 0 ? 0.1 * (i / 5) : sin(i + 0.5);
  }
  for (int i = 0; i < 3 * 2; i++) {
    s->t1[i] = i % 2 == 0 ? 0.05 * (i / 2) : exp(-(double)i);
  }
  for (int i = 0; i < 2 * 9; i++) {
    s->t2[i] = i % 9 == 0 ? (double)(i / 9) : cos(i) * 1e-17;
  }
  sk__checkpoint *c = &s->c;
  c->problem_hash = 0x0123456789abcdefull;
  c->t = 0.3000000000000000444;
  c->h = 1.234567890123e-4;
  c->order = 4;
  c->segment = 1;
  c->n = NSTATE;
  c->y = s->y;
  c->yp = s->yp;
  int64_t v = 1;
#define SK__SET_COUNTER(f, label) c->stats.f = (v = v * 7 + 3);
  SK_STATS_COUNTERS(SK__SET_COUNTER)
#undef SK__SET_COUNTER
  c->stats.last_order = 5;
  c->stats.last_h = 2.5e-3;
  c->stats.t = 0.3;
  c->stats.wall_time = 12.75;
  c->options = options_text;
  c->ntables = 3;
  c->tables[0] = (sk__checkpoint_table){4, 5, s->t0, 0, NULL, NULL};
  c->tables[1] = (sk__checkpoint_table){3, 2, s->t1, 0, NULL, NULL};
  c->tables[2] = (sk__checkpoint_table){2, 9, s->t2, 0, NULL, NULL};
}

/* Every field of a read checkpoint equals the written one, bit for bit. */
static void check_equal(const sk__checkpoint *a, const sk__checkpoint *b)
{
  CHECK(a->problem_hash == b->problem_hash);
  CHECK(memcmp(&a->t, &b->t, sizeof a->t) == 0);
  CHECK(memcmp(&a->h, &b->h, sizeof a->h) == 0);
  CHECK_EQ_INT(a->order, b->order);
  CHECK_EQ_INT(a->segment, b->segment);
  CHECK_EQ_INT(a->n, b->n);
  CHECK(a->y && b->y && memcmp(a->y, b->y, (size_t)a->n * sizeof *a->y) == 0);
  CHECK((a->yp == NULL) == (b->yp == NULL));
  if (a->yp && b->yp) {
    CHECK(memcmp(a->yp, b->yp, (size_t)a->n * sizeof *a->yp) == 0);
  }
#define SK__CMP_COUNTER(f, label) CHECK_EQ_INT(a->stats.f, b->stats.f);
  SK_STATS_COUNTERS(SK__CMP_COUNTER)
#undef SK__CMP_COUNTER
  CHECK_EQ_INT(a->stats.last_order, b->stats.last_order);
  CHECK(memcmp(&a->stats.last_h, &b->stats.last_h, sizeof(double)) == 0);
  CHECK(memcmp(&a->stats.t, &b->stats.t, sizeof(double)) == 0);
  CHECK(memcmp(&a->stats.wall_time, &b->stats.wall_time, sizeof(double)) == 0);
  CHECK(strcmp(a->options ? a->options : "", b->options ? b->options : "") == 0);
  CHECK_EQ_INT(a->ntables, b->ntables);
  for (size_t k = 0; k < a->ntables && k < b->ntables; k++) {
    CHECK_EQ_INT(a->tables[k].rows, b->tables[k].rows);
    CHECK_EQ_INT(a->tables[k].width, b->tables[k].width);
    const size_t count = a->tables[k].rows * a->tables[k].width;
    CHECK(count == 0 ||
          (a->tables[k].data && b->tables[k].data &&
           memcmp(a->tables[k].data, b->tables[k].data, count * sizeof(double)) == 0));
  }
}

/* Read `path` and expect refusal with `code` and `reason` in the message. */
static void expect_refused(sk_context *ctx, const char *path, sk_status code, const char *reason,
                           const char *what)
{
  sk__checkpoint r;
  const sk_status st = sk__checkpoint_read(ctx, path, &r);
  if (st != code) {
    fprintf(stderr, "%s: read returned %s, expected %s (%s)\n", what, sk_status_name(st),
            sk_status_name(code), last_message(ctx));
  }
  CHECK_EQ_INT(st, code);
  if (reason) {
    CHECK_STR_CONTAINS(last_message(ctx), reason);
  }
  /* *c is zeroed on error */
  CHECK(r.y == NULL && r.yp == NULL && r.options == NULL && r.owned == NULL && r.n == 0);
  sk__checkpoint_free(ctx, &r);
}

/* sk__checkpoint_tail_fn over whole rows of 9 values (arg): values 4..8 of the row. */
static sk_status tail_of_t2(void *arg, size_t row, double *out)
{
  memcpy(out, (const double *)arg + row * 9 + 4, 5 * sizeof *out);
  return SK_OK;
}

static sk_status tail_fails(void *arg, size_t row, double *out)
{
  (void)row;
  (void)out;
  return SK_ERROR((sk_context *)arg, SK_ERR_IO, "the tail failed");
}

/* ---- tests ----------------------------------------------------------------------- */

static void test_roundtrip(sk_context *ctx, const char *dir)
{
  sample s;
  make_sample(&s);
  char path[512];
  snprintf(path, sizeof path, "%s/rt.ckpt", dir);
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &s.c));
  sk__checkpoint r;
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  check_equal(&s.c, &r);
  CHECK(r.owned != NULL);
  sk__checkpoint_free(ctx, &r);
  CHECK(r.owned == NULL && r.y == NULL && r.n == 0);
  sk__checkpoint_free(ctx, &r); /* twice is harmless */

  /* the size is exactly the documented layout */
  size_t size;
  unsigned char *img = read_bytes(path, &size);
  /* a table streamed as heads in memory plus tails given row by row makes the same bytes */
  {
    char path2[600];
    snprintf(path2, sizeof path2, "%s/rt_tail.ckpt", dir);
    double heads[2 * 4];
    for (size_t i = 0; i < 2; i++) {
      memcpy(heads + i * 4, s.t2 + i * 9, 4 * sizeof *heads);
    }
    sample s2 = s;
    s2.c.tables[2] = (sk__checkpoint_table){2, 9, heads, 4, tail_of_t2, s.t2};
    CHECK_OK(ctx, sk__checkpoint_write(ctx, path2, &s2.c));
    size_t size2;
    unsigned char *img2 = read_bytes(path2, &size2);
    CHECK(img && img2 && size2 == size && memcmp(img, img2, size) == 0);
    free(img2);
    /* a tail that fails: its error, and no file */
    s2.c.tables[2] = (sk__checkpoint_table){2, 9, heads, 4, tail_fails, ctx};
    unlink(path2);
    CHECK_EQ_INT(sk__checkpoint_write(ctx, path2, &s2.c), SK_ERR_IO);
    CHECK_STR_CONTAINS(last_message(ctx), "the tail failed");
    CHECK(access(path2, F_OK) != 0);
    /* a partial head without a tail is refused */
    s2.c.tables[2] = (sk__checkpoint_table){2, 9, heads, 4, NULL, NULL};
    CHECK_EQ_INT(sk__checkpoint_write(ctx, path2, &s2.c), SK_ERR_ARG);
  }
  size_t expect = HEADER + 8 * 8 + 2 * NSTATE * 8; /* 8 fields: ..., has_yp, ns */
#define SK__ADD8(f, label) expect += 8;
  SK_STATS_COUNTERS(SK__ADD8)
#undef SK__ADD8
  expect += 8 + 4 * 8 + 8 + strlen(options_text) + 8 + 3 * 16 + (4 * 5 + 3 * 2 + 2 * 9) * 8 + 8;
  CHECK_EQ_INT(size, expect);
  CHECK(img && memcmp(img, "SKCKPT\n\032", 8) == 0);
  uint32_t version;
  memcpy(&version, img + OFF_VERSION, sizeof version);
  CHECK_EQ_INT(version, SK__CHECKPOINT_VERSION);
  /* the trailer is FNV-1a 64 of everything before it (reference implementation) */
  uint64_t stored;
  memcpy(&stored, img + size - 8, 8);
  CHECK(stored == fnv1a64_reference(img, size - 8));
  CHECK(sk__fnv1a64(SK__FNV1A64_INIT, img, size - 8) == stored);
  free(img);

  /* an ODE checkpoint (no y'), no options, one empty and one full table */
  s.c.yp = NULL;
  s.c.options = NULL;
  s.c.segment = 0;
  s.c.ntables = 2;
  s.c.tables[0] = (sk__checkpoint_table){0, 5, NULL, 0, NULL, NULL};
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &s.c));
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  CHECK(r.yp == NULL);
  CHECK(r.options && r.options[0] == '\0');
  CHECK_EQ_INT(r.ntables, 2);
  CHECK_EQ_INT(r.tables[0].rows, 0);
  CHECK_EQ_INT(r.tables[0].width, 5);
  s.c.options = "";
  check_equal(&s.c, &r);
  sk__checkpoint_free(ctx, &r);

  /* bad arguments are refused and leave nothing behind */
  s.c.ntables = SK__CHECKPOINT_MAX_TABLES + 1;
  CHECK_EQ_INT(sk__checkpoint_write(ctx, path, &s.c), SK_ERR_ARG);
  s.c.ntables = 1;
  s.c.n = 0;
  CHECK_EQ_INT(sk__checkpoint_write(ctx, path, &s.c), SK_ERR_ARG);
  CHECK_EQ_INT(count_entries(dir, ".tmp."), 0);
  unlink(path);
}

static void test_replace(sk_context *ctx, const char *dir)
{
  char path[512];
  snprintf(path, sizeof path, "%s/replace.ckpt", dir);
  sample a, b;
  make_sample(&a);
  make_sample(&b);
  b.c.t = 0.7;
  b.c.problem_hash = 42;
  b.y[0] = 99.5;
  b.c.ntables = 1;
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &a.c));
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &b.c));
  sk__checkpoint r;
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  check_equal(&b.c, &r);
  sk__checkpoint_free(ctx, &r);
  /* only the final file: no temporary file is left */
  CHECK_EQ_INT(count_entries(dir, "replace.ckpt"), 1);
  CHECK_EQ_INT(count_entries(dir, ".tmp."), 0);

  /* a stale temporary file of this pid (a killed earlier process) is replaced */
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  test_write_file(tmp, "torn");
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &a.c));
  CHECK_EQ_INT(count_entries(dir, ".tmp."), 0);
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  check_equal(&a.c, &r);
  sk__checkpoint_free(ctx, &r);

  /* a directory that does not exist: SK_ERR_CREATE naming the file, nothing created */
  char bad[600];
  snprintf(bad, sizeof bad, "%s/no_such_dir/x.ckpt", dir);
  CHECK_EQ_INT(sk__checkpoint_write(ctx, bad, &a.c), SK_ERR_CREATE);
  CHECK_STR_CONTAINS(last_message(ctx), "no_such_dir/x.ckpt.tmp.");
  unlink(path);
}

/* A write that fails (file size limit: EFBIG) keeps the previous checkpoint
 * and leaves no temporary file. */
static void test_write_error(sk_context *ctx, const char *dir)
{
  char path[512];
  snprintf(path, sizeof path, "%s/limited.ckpt", dir);
  sample a, b;
  make_sample(&a);
  make_sample(&b);
  b.c.t = 0.9;
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &a.c));
  struct rlimit old, lim;
  if (getrlimit(RLIMIT_FSIZE, &old) != 0) {
    printf("skipping the file size limit test\n");
    unlink(path);
    return;
  }
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  lim = old;
  lim.rlim_cur = 300; /* bytes: less than one checkpoint */
  CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
  const sk_status st = sk__checkpoint_write(ctx, path, &b.c);
  CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
  signal(SIGXFSZ, prev);
  CHECK_EQ_INT(st, SK_ERR_IO);
  CHECK_STR_CONTAINS(last_message(ctx), "File too large");
  CHECK_STR_CONTAINS(last_message(ctx), "the previous checkpoint, if any, is kept");
  CHECK_EQ_INT(count_entries(dir, ".tmp."), 0);
  sk__checkpoint r;
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  check_equal(&a.c, &r);
  sk__checkpoint_free(ctx, &r);
  unlink(path);
}

static void test_damage(sk_context *ctx, const char *dir)
{
  char path[512], bad[512];
  snprintf(path, sizeof path, "%s/good.ckpt", dir);
  snprintf(bad, sizeof bad, "%s/bad.ckpt", dir);
  sample s;
  make_sample(&s);
  CHECK_OK(ctx, sk__checkpoint_write(ctx, path, &s.c));
  size_t size;
  unsigned char *img = read_bytes(path, &size);
  CHECK(img != NULL && size > 200);
  unsigned char *copy = malloc(size + 16);

  /* a changed byte anywhere after the header (body or trailer): checksum;
     in the header: the check of that field (FNV-1a catches every single-byte
     change, since each step of it is a bijection of its state) */
  static const unsigned char flips[] = {0x01, 0x80, 0xff};
  int refused = 0, tried = 0;
  for (size_t i = 0; i < size; i++) {
    for (size_t f = 0; f < sizeof flips; f++) {
      memcpy(copy, img, size);
      copy[i] ^= flips[f];
      write_bytes(bad, copy, size);
      uint32_t flipped; /* a version this stiffkit reads: then the checksum refuses it */
      memcpy(&flipped, copy + OFF_VERSION, sizeof flipped);
      const int readable =
          flipped >= SK__CHECKPOINT_VERSION_MIN && flipped <= SK__CHECKPOINT_VERSION;
      const char *reason = i < OFF_VERSION            ? "is not a stiffkit checkpoint"
                           : i < OFF_BOM && !readable ? "format version"
                           : i < OFF_BOM              ? "fails its checksum"
                           : i < HEADER               ? "byte order"
                                                      : "fails its checksum";
      sk__checkpoint r;
      const sk_status st = sk__checkpoint_read(ctx, bad, &r);
      tried++;
      if (st == SK_ERR_INPUT && strstr(last_message(ctx), reason)) {
        refused++;
      } else if (refused + 5 > tried) { /* report the first few only */
        fprintf(stderr, "byte %zu ^ 0x%02x: %s, message '%s' (expected '%s')\n", i, flips[f],
                sk_status_name(st), last_message(ctx), reason);
      }
      sk__checkpoint_free(ctx, &r);
    }
  }
  CHECK_EQ_INT(refused, tried);

  /* truncated at every length, 0 and inside the header included */
  refused = tried = 0;
  for (size_t len = 0; len < size; len++) {
    write_bytes(bad, img, len);
    sk__checkpoint r;
    const sk_status st = sk__checkpoint_read(ctx, bad, &r);
    tried++;
    refused += st == SK_ERR_INPUT;
    if (st != SK_ERR_INPUT) {
      fprintf(stderr, "truncated to %zu of %zu bytes: %s\n", len, size, sk_status_name(st));
    }
    sk__checkpoint_free(ctx, &r);
  }
  CHECK_EQ_INT(refused, tried);
  write_bytes(bad, img, 0);
  expect_refused(ctx, bad, SK_ERR_INPUT, "is not a stiffkit checkpoint", "empty file");
  write_bytes(bad, img, 10);
  expect_refused(ctx, bad, SK_ERR_INPUT, "is not a stiffkit checkpoint", "10 bytes");
  write_bytes(bad, img, size - 1);
  expect_refused(ctx, bad, SK_ERR_INPUT, "checksum", "one byte short");
  write_bytes(bad, img, size / 2);
  expect_refused(ctx, bad, SK_ERR_INPUT, "checksum", "half");

  /* one byte too many */
  memcpy(copy, img, size);
  copy[size] = 0;
  write_bytes(bad, copy, size + 1);
  expect_refused(ctx, bad, SK_ERR_INPUT, "checksum", "one byte appended");

  /* another file altogether, and another magic with a valid checksum */
  test_write_file(bad, "model.n: [20]\nsolver.rtol: 1e-06\nsolver.atol: 1e-09\n");
  expect_refused(ctx, bad, SK_ERR_INPUT, "is not a stiffkit checkpoint", "a text file");
  memcpy(copy, img, size);
  memcpy(copy, "SKCKPU\n\032", 8);
  reseal(copy, size);
  write_bytes(bad, copy, size);
  expect_refused(ctx, bad, SK_ERR_INPUT, "is not a stiffkit checkpoint", "wrong magic");

  /* another version, checksum recomputed: the version check itself refuses */
  memcpy(copy, img, size);
  const uint32_t v2 = SK__CHECKPOINT_VERSION + 1;
  memcpy(copy + OFF_VERSION, &v2, sizeof v2);
  reseal(copy, size);
  write_bytes(bad, copy, size);
  char expect[128];
  snprintf(expect, sizeof expect, "has format version %u; this stiffkit reads versions %u to %u",
           v2, SK__CHECKPOINT_VERSION_MIN, SK__CHECKPOINT_VERSION);
  expect_refused(ctx, bad, SK_ERR_INPUT, expect, "version + 1");

  /* a version-2 file (16 counters, no count before them) is still read: the image without
     the counter count and the counters after the 16th, resealed; those read as 0 */
  {
    const size_t off_count = OFF_Y + 2 * NSTATE * 8 + 8; /* after y, y', the sensitivity count */
    size_t ncount = 0;
#define SK__COUNT(f, label) ncount++;
    SK_STATS_COUNTERS(SK__COUNT)
#undef SK__COUNT
    const size_t drop_after = off_count + 8 + 16 * 8, dropped = 8 + (ncount - 16) * 8;
    CHECK(ncount >= 16 && size > drop_after + dropped);
    if (ncount < 16 || size <= drop_after + dropped) {
      goto done_v2;
    }
    memcpy(copy, img, off_count);
    memcpy(copy + off_count, img + off_count + 8, 16 * 8);
    memcpy(copy + off_count + 16 * 8, img + drop_after + (ncount - 16) * 8,
           size - drop_after - (ncount - 16) * 8);
    const uint32_t old_version = 2;
    memcpy(copy + OFF_VERSION, &old_version, sizeof old_version);
    reseal(copy, size - dropped);
    write_bytes(bad, copy, size - dropped);
    sk__checkpoint r;
    CHECK_OK(ctx, sk__checkpoint_read(ctx, bad, &r));
    CHECK_EQ_INT(r.stats.prec_solves, s.c.stats.prec_solves);
    CHECK_EQ_INT(r.stats.amg_hierarchies, 0);
    CHECK(r.n == NSTATE && memcmp(r.y, s.c.y, NSTATE * sizeof *r.y) == 0);
    sk__checkpoint_free(ctx, &r);
  }
done_v2:

  /* the other byte order, checksum recomputed */
  memcpy(copy, img, size);
  const uint32_t swapped = 0x04030201u;
  memcpy(copy + OFF_BOM, &swapped, sizeof swapped);
  reseal(copy, size);
  write_bytes(bad, copy, size);
  expect_refused(ctx, bad, SK_ERR_INPUT, "another byte order", "byte order");

  /* lengths that contradict the content, checksum recomputed: the parser's checks */
  const struct {
    size_t off;
    int64_t value;
    const char *reason;
  } forged[] = {
      {OFF_N, 0, "inconsistent: state length 0"},
      {OFF_N, -5, "inconsistent: state length -5"},
      {OFF_N, (int64_t)1 << 40, "truncated"},
      {OFF_HAS_YP, 2, "inconsistent"},
      {OFF_HAS_YP, -1, "inconsistent"},
      /* shifted fields: refused, by whichever length check meets them first */
      {OFF_N, NSTATE + 1, NULL},
      {OFF_N, NSTATE - 1, NULL},
      {OFF_HAS_YP, 0, NULL}, /* y' present in the file but not announced */
  };
  for (size_t k = 0; k < sizeof forged / sizeof forged[0]; k++) {
    memcpy(copy, img, size);
    memcpy(copy + forged[k].off, &forged[k].value, sizeof forged[k].value);
    reseal(copy, size);
    write_bytes(bad, copy, size);
    char what[64];
    snprintf(what, sizeof what, "forged field at %zu = %lld", forged[k].off,
             (long long)forged[k].value);
    expect_refused(ctx, bad, SK_ERR_INPUT, forged[k].reason, what);
  }
  /* the options length, the table count and a table width (found by their offsets) */
  /* y, y', the sensitivity count (0), the counter count */
  size_t off_olen = OFF_Y + 2 * NSTATE * 8 + 8 + 8;
#define SK__SKIP8(f, label) off_olen += 8;
  SK_STATS_COUNTERS(SK__SKIP8)
#undef SK__SKIP8
  off_olen += 4 * 8;
  uint64_t olen;
  memcpy(&olen, img + off_olen, sizeof olen);
  CHECK_EQ_INT(olen, strlen(options_text));
  const size_t off_ntables = off_olen + 8 + olen;
  const size_t off_width0 = off_ntables + 16;
  const struct {
    size_t off;
    uint64_t value;
    const char *reason;
  } forged_u[] = {
      {off_olen, (uint64_t)1 << 50, "truncated"},
      {off_olen, UINT64_MAX, "truncated"},
      {off_ntables, SK__CHECKPOINT_MAX_TABLES + 1, "inconsistent: 5 output tables"},
      {off_ntables, 2, "its length does not match its content"},
      {off_width0, 0, "inconsistent: output table 0"},
      {off_width0, (uint64_t)1 << 41, "inconsistent: output table 0"},
      {off_ntables + 8, (uint64_t)1 << 60, "inconsistent: output table 0"},
  };
  for (size_t k = 0; k < sizeof forged_u / sizeof forged_u[0]; k++) {
    memcpy(copy, img, size);
    memcpy(copy + forged_u[k].off, &forged_u[k].value, sizeof forged_u[k].value);
    reseal(copy, size);
    write_bytes(bad, copy, size);
    char what[64];
    snprintf(what, sizeof what, "forged field at %zu = %llu", forged_u[k].off,
             (unsigned long long)forged_u[k].value);
    expect_refused(ctx, bad, SK_ERR_INPUT, forged_u[k].reason, what);
  }

  /* missing file; a directory */
  char missing[600];
  snprintf(missing, sizeof missing, "%s/does_not_exist.ckpt", dir);
  expect_refused(ctx, missing, SK_ERR_MISSING, "does_not_exist.ckpt", "missing file");
  expect_refused(ctx, dir, SK_ERR_MISSING, NULL, "a directory");

  /* the undamaged file is still read */
  sk__checkpoint r;
  CHECK_OK(ctx, sk__checkpoint_read(ctx, path, &r));
  check_equal(&s.c, &r);
  sk__checkpoint_free(ctx, &r);
  free(copy);
  free(img);
  unlink(bad);
  unlink(path);
}

static void test_problem_hash(void)
{
  const uint64_t base = sk__checkpoint_problem_hash(options_text, "heat2d", 400);
  CHECK(base == sk__checkpoint_problem_hash(options_text, "heat2d", 400));

  /* checkpoint.* lines (set or commented out) do not count */
  const char *no_checkpoint = "model.type: embedded\n"
                              "model.n: [20]\n"
                              "solver.method: cvode-bdf\n"
                              "solver.rtol: 1e-06\n"
                              "solver.atol: 1e-09\n"
                              "# solver.stop_time: (not set)\n"
                              "output.prefix: heat2d\n";
  CHECK(base == sk__checkpoint_problem_hash(no_checkpoint, "heat2d", 400));
  const char *other_checkpoint = "model.type: embedded\n"
                                 "model.n: [20]\n"
                                 "solver.method: cvode-bdf\n"
                                 "checkpoint.file: /elsewhere/x.ckpt\n"
                                 "solver.rtol: 1e-06\n"
                                 "solver.atol: 1e-09\n"
                                 "# solver.stop_time: (not set)\n"
                                 "checkpoint.every: 0\n"
                                 "# checkpoint.wall: (not set)\n"
                                 "checkpoint.segment: true\n"
                                 "output.prefix: heat2d\n";
  CHECK(base == sk__checkpoint_problem_hash(other_checkpoint, "heat2d", 400));
  /* nor do bench.* lines: `stiffkit bench` alone reads them */
  char with_bench[2048];
  snprintf(with_bench, sizeof with_bench,
           "%sbench.methods: \"rk4, euler\"\nbench.repeats: 5\n# bench.stepper.x: (not set)\n",
           options_text);
  CHECK(base == sk__checkpoint_problem_hash(with_bench, "heat2d", 400));

  /* any other line: changed, removed, or a line added */
  const char *lines[64];
  size_t len[64], count = 0;
  for (const char *p = options_text; *p && count < 64;) {
    lines[count] = p;
    len[count] = strcspn(p, "\n") + 1;
    p += len[count++];
  }
  int changed = 0, tested = 0;
  for (size_t i = 0; i < count; i++) {
    if (strncmp(lines[i], "checkpoint.", 11) == 0) {
      continue;
    }
    char text[2048], *w;
    /* one character of the value changed (the last before the newline) */
    memcpy(text, options_text, sizeof options_text);
    w = text + (lines[i] - options_text) + len[i] - 2;
    *w = *w == '0' ? '1' : '0';
    tested++;
    changed += sk__checkpoint_problem_hash(text, "heat2d", 400) != base;
    /* the line removed */
    w = text;
    for (size_t j = 0; j < count; j++) {
      if (j != i) {
        memcpy(w, lines[j], len[j]);
        w += len[j];
      }
    }
    *w = '\0';
    tested++;
    changed += sk__checkpoint_problem_hash(text, "heat2d", 400) != base;
  }
  char added[2048];
  snprintf(added, sizeof added, "%slinsol.type: klu\n", options_text);
  tested++;
  changed += sk__checkpoint_problem_hash(added, "heat2d", 400) != base;
  /* a line that starts like a checkpoint key but is not one */
  snprintf(added, sizeof added, "%s# solver.checkpoint.x: 1\n", options_text);
  tested++;
  changed += sk__checkpoint_problem_hash(added, "heat2d", 400) != base;
  CHECK_EQ_INT(changed, tested);
  CHECK(tested >= 15);

  /* the model name and the state length */
  CHECK(base != sk__checkpoint_problem_hash(options_text, "heat3d", 400));
  CHECK(base != sk__checkpoint_problem_hash(options_text, "heat2", 400));
  CHECK(base != sk__checkpoint_problem_hash(options_text, "heat2d", 401));
  CHECK(base != sk__checkpoint_problem_hash(options_text, "heat2d", 400 + ((int64_t)1 << 32)));
  CHECK(sk__checkpoint_problem_hash(NULL, "heat2d", 400) ==
        sk__checkpoint_problem_hash("", "heat2d", 400));

  /* FNV-1a 64 against its published test vectors */
  CHECK(sk__fnv1a64(SK__FNV1A64_INIT, "", 0) == 0xcbf29ce484222325ull);
  CHECK(sk__fnv1a64(SK__FNV1A64_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
  CHECK(sk__fnv1a64(SK__FNV1A64_INIT, "foobar", 6) == 0x85944171f73967e8ull);
  /* continuing from a partial hash is hashing the concatenation */
  CHECK(sk__fnv1a64(sk__fnv1a64(SK__FNV1A64_INIT, "foo", 3), "bar", 3) ==
        sk__fnv1a64(SK__FNV1A64_INIT, "foobar", 6));
}

/* The rows a run wrote replayed into a new results object give the same CSV. */
static void test_results_replay(sk_context *ctx, const char *dir)
{
  char d1[600], d2[600];
  snprintf(d1, sizeof d1, "%s/first", dir);
  snprintf(d2, sizeof d2, "%s/second", dir);
  mkdir(d1, 0755);
  mkdir(d2, 0755);
  const int64_t probes[1] = {1};
  sk_results_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.prefix = "run";
  cfg.csv = 1;
  cfg.hdf5 = 0;
  cfg.write_states = 1;
  cfg.n = 3;
  cfg.nprobes = 1;
  cfg.probes = probes;
  cfg.has_exact = 1;

  /* the uninterrupted run: 5 rows */
  cfg.dir = d1;
  sk_results *a = NULL;
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &a));
  CHECK_EQ_INT(sk__results_ntables(a), 1);
  double y[3], ye[3];
  for (int k = 0; k < 5; k++) {
    for (int i = 0; i < 3; i++) {
      ye[i] = exp(-(i + 1.0) * 0.1 * k);
      y[i] = ye[i] * (1 + 1e-7 * i);
    }
    CHECK_OK(ctx, sk_results_write(a, 0.1 * k, y, ye));
    if (k == 2) { /* the "checkpoint": 3 rows */
      break;
    }
  }
  size_t rows = 0, width = 0, head = 0;
  const double *data = NULL;
  CHECK_OK(ctx, sk__results_table(a, 0, &rows, &width, &head, &data));
  CHECK_EQ_INT(rows, 3);
  /* t, 1 probe, 4 norms (max_abs_y, rms_y, max_abs_err, rms_err); the states go to an HDF5
     file only, so a CSV result set keeps none */
  CHECK_EQ_INT(width, 1 + 1 + 4);
  CHECK_EQ_INT(head, width);
  CHECK(data && data[0] == 0.0 && data[width] == 0.1 && data[2 * width] == 0.2);
  CHECK(data && data[width + 1] == exp(-2.0 * 0.1) * (1 + 1e-7)); /* probe y[1] at t = 0.1 */
  double tail[3];
  CHECK_EQ_INT(sk__results_read_tail(a, 0, 0, tail), SK_ERR_ARG); /* no states kept */
  double *saved = malloc(rows * width * sizeof *saved);
  memcpy(saved, data, rows * width * sizeof *saved);
  CHECK_EQ_INT(sk__results_table(a, 1, &rows, &width, &head, &data), SK_ERR_ARG);

  /* the restarted run: wrong width, a non-finite value and times going back are refused */
  cfg.dir = d2;
  sk_results *b = NULL;
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &b));
  CHECK_EQ_INT(sk__results_replay(b, 0, 3, 5, saved), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(last_message(ctx), "has 5 columns, this run writes 6");
  CHECK_EQ_INT(sk__results_replay(b, 1, 3, 6, saved), SK_ERR_INPUT);
  double *back = malloc(3 * 6 * sizeof *back);
  memcpy(back, saved, 3 * 6 * sizeof *back);
  back[2 * 6] = 0.05; /* row 2 at t = 0.05 after row 1 at t = 0.1 */
  CHECK_EQ_INT(sk__results_replay(b, 0, 3, 6, back), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(last_message(ctx), "goes back in time");
  sk_results_destroy(&b);
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &b));
  memcpy(back, saved, 3 * 6 * sizeof *back);
  back[6 + 4] = NAN;
  CHECK_EQ_INT(sk__results_replay(b, 0, 3, 6, back), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(last_message(ctx), "non-finite");
  sk_results_destroy(&b);
  /* a repeated time (equal, not greater) is refused too */
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &b));
  memcpy(back, saved, 3 * 6 * sizeof *back);
  back[2 * 6] = 0.1;
  CHECK_EQ_INT(sk__results_replay(b, 0, 3, 6, back), SK_ERR_INPUT);
  sk_results_destroy(&b);
  free(back);

  /* the right rows: then both runs write rows 3 and 4; the CSVs are identical */
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &b));
  CHECK_OK(ctx, sk__results_replay(b, 0, 3, 6, saved));
  /* a row at or before the replayed ones is refused by the ordinary write */
  CHECK_EQ_INT(sk_results_write(b, 0.2, y, ye), SK_ERR_ARG);
  for (int k = 3; k < 5; k++) {
    for (int i = 0; i < 3; i++) {
      ye[i] = exp(-(i + 1.0) * 0.1 * k);
      y[i] = ye[i] * (1 + 1e-7 * i);
    }
    CHECK_OK(ctx, sk_results_write(a, 0.1 * k, y, ye));
    CHECK_OK(ctx, sk_results_write(b, 0.1 * k, y, ye));
  }
  CHECK_OK(ctx, sk__results_table(b, 0, &rows, &width, &head, &data));
  CHECK_EQ_INT(rows, 5);
  CHECK_OK(ctx, sk_results_finish(a, NULL, NULL));
  CHECK_OK(ctx, sk_results_finish(b, NULL, NULL));
  sk_results_destroy(&a);
  sk_results_destroy(&b);
  char p1[700], p2[700];
  snprintf(p1, sizeof p1, "%s/run.csv", d1);
  snprintf(p2, sizeof p2, "%s/run.csv", d2);
  size_t s1, s2;
  unsigned char *c1 = read_bytes(p1, &s1), *c2 = read_bytes(p2, &s2);
  CHECK(c1 && c2 && s1 == s2 && s1 > 0 && memcmp(c1, c2, s1) == 0);
  free(c1);
  free(c2);
  free(saved);
  unlink(p1);
  unlink(p2);
  snprintf(p1, sizeof p1, "%s/run.provenance.yaml", d1);
  snprintf(p2, sizeof p2, "%s/run.provenance.yaml", d2);
  unlink(p1);
  unlink(p2);
  rmdir(d1);
  rmdir(d2);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  char dir[512];
  test_tmpdir(dir, sizeof dir, "checkpoint");
  test_roundtrip(ctx, dir);
  test_replace(ctx, dir);
  test_write_error(ctx, dir);
  test_damage(ctx, dir);
  test_problem_hash();
  test_results_replay(ctx, dir);
  CHECK_EQ_INT(count_entries(dir, ""), 0);
  rmdir(dir);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
