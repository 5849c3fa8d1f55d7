/* src/io/journal.h: a growing table of fixed-width rows of doubles (the rows a result set has written, kept for checkpoints) */
#ifndef SK_IO_JOURNAL_H
#define SK_IO_JOURNAL_H

#include <stddef.h>

#include "stiffkit/context.h"

typedef struct {
  size_t width; /* values per row */
  size_t rows;  /* rows appended */
  size_t cap;   /* rows allocated */
  double *data; /* rows * width values, row-major */
} sk__journal;

/* sk__journal_init: an empty journal of rows of `width` >= 1 values (no allocation). */
void sk__journal_init(sk__journal *j, size_t width);

/* sk__journal_append: append one row made of the `nhead` values of `head`
 * followed by the width - nhead values of `tail` (unused when nhead ==
 * width), growing the storage geometrically. Errors: SK_ERR_NOMEM (the
 * journal is unchanged). */
sk_status sk__journal_append(sk_context *ctx, sk__journal *j, const double *head, size_t nhead,
                             const double *tail);

/* sk__journal_free: release the storage and reset to empty; accepts an
 * initialized or zeroed journal. */
void sk__journal_free(sk_context *ctx, sk__journal *j);

#endif
