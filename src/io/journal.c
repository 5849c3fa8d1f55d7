/* src/io/journal.c: a growing table of fixed-width rows of doubles */
#include <string.h>

#include "core/error.h"
#include "io/journal.h"

void sk__journal_init(sk__journal *j, size_t width)
{
  memset(j, 0, sizeof *j);
  j->width = width;
}

sk_status sk__journal_append(sk_context *ctx, sk__journal *j, const double *head, size_t nhead,
                             const double *tail)
{
  if (j->rows == j->cap) {
    const size_t cap = j->cap ? 2 * j->cap : 16;
    const size_t row_bytes = j->width * sizeof *j->data;
    SK_CHECK(ctx, cap <= ((size_t)-1) / row_bytes, SK_ERR_NOMEM,
             "results: the journal of written rows is too large");
    double *grown = sk__realloc(ctx, j->data, j->cap * row_bytes, cap * row_bytes);
    SK_CHECK(ctx, grown, SK_ERR_NOMEM, "results: out of memory keeping the rows written so far");
    j->data = grown;
    j->cap = cap;
  }
  double *row = j->data + j->rows * j->width;
  memcpy(row, head, nhead * sizeof *head);
  if (nhead < j->width) {
    memcpy(row + nhead, tail, (j->width - nhead) * sizeof *tail);
  }
  j->rows++;
  return SK_OK;
}

void sk__journal_free(sk_context *ctx, sk__journal *j)
{
  sk__free(ctx, j->data);
  const size_t width = j->width;
  sk__journal_init(j, width);
}
