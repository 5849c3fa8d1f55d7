/* src/io/checkpoint.h: checkpoint files (state, step hints, outputs so far, options, problem hash) written atomically and read back with checks */
#ifndef SK_IO_CHECKPOINT_H
#define SK_IO_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/stats.h"

/* Format version this build writes and reads. */
#define SK__CHECKPOINT_VERSION 3u
/* Versions 1 (no sensitivities) and 2 (16 statistics counters, no count
 * stored) are still read; version 3 stores the number of counters before
 * them. */
#define SK__CHECKPOINT_VERSION_MIN 1u

/* Most output tables a checkpoint holds (the main rows and three series). */
#define SK__CHECKPOINT_MAX_TABLES 4

/* sk__checkpoint_tail_fn: the values of row `row` of a table after its
 * head into out (width - head values). */
typedef sk_status (*sk__checkpoint_tail_fn)(void *arg, size_t row, double *out);

/* One table of output rows written so far (see sk__results_table). When
 * writing, a table may hold only the first `head` values of each row in
 * data (rows * head values; head 0 means width) and give the rest of each
 * row through tail(tail_arg, row, out), one row at a time: the file is the
 * same as with the whole rows in data, and only one row's tail is in memory
 * at once. A table read from a file holds whole rows (head 0, no tail). */
typedef struct {
  size_t rows, width;
  const double *data; /* rows * width values (rows * head with a tail), row-major */
  size_t head;
  sk__checkpoint_tail_fn tail;
  void *tail_arg;
} sk__checkpoint_table;

/* The content of a checkpoint. Writing reads these fields; reading fills
 * them (the arrays then belong to the struct: free with
 * sk__checkpoint_free). */
typedef struct {
  uint64_t problem_hash; /* sk__checkpoint_problem_hash of the run */
  double t;              /* time of the state */
  double h;              /* last step size: the restart's first step */
  int order;             /* method order of the last step (a record only:
                          * the SUNDIALS engines restart at order 1) */
  int segment;           /* 1: taken at a segment boundary (checkpoint.segment) */
  int64_t n;
  const double *y;     /* n values */
  const double *yp;    /* n values of y' (DAE engines), or NULL */
  int64_t ns;          /* forward sensitivities (version 2; 0 = none) */
  const double *S;     /* ns x n values: dy/dp_j at S + j n, or NULL */
  sk_stats stats;      /* statistics of the run up to t */
  const char *options; /* effective options text */
  size_t ntables;
  sk__checkpoint_table tables[SK__CHECKPOINT_MAX_TABLES];
  void *owned; /* storage of a checkpoint read from a file */
} sk__checkpoint;

/* sk__fnv1a64: the 64-bit FNV-1a hash of `len` bytes continuing from `h`
 * (start with SK__FNV1A64_INIT). */
#define SK__FNV1A64_INIT 0xcbf29ce484222325ull
uint64_t sk__fnv1a64(uint64_t h, const void *data, size_t len);

/* sk__checkpoint_problem_hash: what identifies the problem a checkpoint
 * belongs to: the effective options text without its checkpoint.* lines
 * (which may change between a run and its restart) and its bench.* lines
 * (read by `stiffkit bench` alone), the model name and the state length. */
uint64_t sk__checkpoint_problem_hash(const char *options, const char *model_name, int64_t n);

/* sk__checkpoint_write: write c to `path` through `path`.tmp.<pid>: write,
 * flush, fsync, rename, fsync of the directory; a kill at any moment leaves
 * either the previous file or the new one under `path`, never a torn one.
 * Layout (native byte order, checked when read): magic "SKCKPT\n\032",
 * version, byte-order mark, the fields of c in order, then the FNV-1a 64
 * checksum of every byte before it. Errors: SK_ERR_ARG (too many tables, a
 * bad length), SK_ERR_CREATE (the temporary file cannot be created),
 * SK_ERR_IO (naming the file; the temporary file is removed). */
sk_status sk__checkpoint_write(sk_context *ctx, const char *path, const sk__checkpoint *c);

/* sk__checkpoint_read: read and check `path` into *c. Errors:
 * SK_ERR_MISSING (cannot open), SK_ERR_INPUT with the reason: not a
 * checkpoint (magic), another format version, another byte order, a
 * checksum mismatch (damaged or modified), truncated or inconsistent
 * lengths. *c is zeroed on error. */
sk_status sk__checkpoint_read(sk_context *ctx, const char *path, sk__checkpoint *c);

/* sk__checkpoint_free: release what sk__checkpoint_read allocated; zeroes c. */
void sk__checkpoint_free(sk_context *ctx, sk__checkpoint *c);

#endif
