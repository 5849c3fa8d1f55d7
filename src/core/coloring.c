/* src/core/coloring.c: distance-2 (Curtis-Powell-Reid) column coloring of a CSC pattern */
#include <string.h>

#include "core/error.h"
#include "core/coloring.h"
#include "core/stop.h"

/* Row-wise copy of the pattern: rowptr[n+1], rowcols[nnz] (columns of each row). */
static sk_status transpose(sk_context *ctx, int64_t n, const int64_t *colptr,
                           const int64_t *rowind, int64_t **rowptr_out, int64_t **rowcols_out)
{
  const int64_t nnz = colptr[n];
  int64_t *rowptr = sk__calloc(ctx, (size_t)n + 1, sizeof *rowptr);
  int64_t *rowcols = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *rowcols);
  if (!rowptr || !rowcols) {
    sk__free(ctx, rowptr);
    sk__free(ctx, rowcols);
    return SK_ERROR(ctx, SK_ERR_NOMEM,
                    "column coloring: cannot allocate the row pattern (nnz %lld)",
                    (long long)nnz);
  }
  for (int64_t p = 0; p < nnz; p++) {
    rowptr[rowind[p] + 1]++;
  }
  for (int64_t i = 0; i < n; i++) {
    rowptr[i + 1] += rowptr[i];
  }
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      rowcols[rowptr[rowind[p]]++] = j;
    }
  }
  for (int64_t i = n; i > 0; i--) {
    rowptr[i] = rowptr[i - 1];
  }
  rowptr[0] = 0;
  *rowptr_out = rowptr;
  *rowcols_out = rowcols;
  return SK_OK;
}

sk_status sk__csc_color_columns(sk_context *ctx, int64_t n, const int64_t *colptr,
                                const int64_t *rowind, int64_t *color, int64_t *ncolors)
{
  *ncolors = 0;
  int64_t *rowptr = NULL, *rowcols = NULL;
  SK_CALL(ctx, transpose(ctx, n, colptr, rowind, &rowptr, &rowcols));
  int64_t *key = sk__malloc(ctx, (size_t)n * sizeof *key);
  int64_t *order = sk__malloc(ctx, (size_t)n * sizeof *order);
  int64_t *forbid = sk__malloc(ctx, ((size_t)n + 1) * sizeof *forbid);
  sk_status st = SK_OK;
  int64_t kmax = 0;
  int64_t *bucket = NULL;
  if (!key || !order || !forbid) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "column coloring: cannot allocate work arrays (n %lld)",
                  (long long)n);
    goto done;
  }
  for (int64_t j = 0; j < n; j++) {
    key[j] = 0;
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      key[j] += rowptr[rowind[p] + 1] - rowptr[rowind[p]];
    }
    kmax = key[j] > kmax ? key[j] : kmax;
  }
  /* counting sort by decreasing key, stable (natural order within a key) */
  bucket = sk__calloc(ctx, (size_t)kmax + 2, sizeof *bucket);
  if (!bucket) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "column coloring: cannot allocate the ordering");
    goto done;
  }
  for (int64_t j = 0; j < n; j++) {
    bucket[kmax - key[j] + 1]++;
  }
  for (int64_t k = 0; k <= kmax; k++) {
    bucket[k + 1] += bucket[k];
  }
  for (int64_t j = 0; j < n; j++) {
    order[bucket[kmax - key[j]]++] = j;
  }
  for (int64_t j = 0; j < n; j++) {
    color[j] = -1;
  }
  for (int64_t c = 0; c <= n; c++) {
    forbid[c] = -1;
  }
  for (int64_t k = 0; k < n; k++) {
    st = sk__stop_poll(ctx, k, "coloring the Jacobian pattern; nothing was written");
    if (st != SK_OK) {
      goto done;
    }
    const int64_t j = order[k];
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const int64_t i = rowind[p];
      for (int64_t q = rowptr[i]; q < rowptr[i + 1]; q++) {
        const int64_t c = color[rowcols[q]];
        if (c >= 0) {
          forbid[c] = j;
        }
      }
    }
    int64_t c = 0;
    while (forbid[c] == j) {
      c++;
    }
    color[j] = c;
    *ncolors = c + 1 > *ncolors ? c + 1 : *ncolors;
  }
done:
  sk__free(ctx, rowptr);
  sk__free(ctx, rowcols);
  sk__free(ctx, key);
  sk__free(ctx, order);
  sk__free(ctx, forbid);
  sk__free(ctx, bucket);
  return st;
}

int sk__csc_coloring_valid(sk_context *ctx, int64_t n, const int64_t *colptr,
                           const int64_t *rowind, const int64_t *color)
{
  int64_t *rowptr = NULL, *rowcols = NULL;
  if (transpose(ctx, n, colptr, rowind, &rowptr, &rowcols) != SK_OK) {
    return 0;
  }
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) {
    for (int64_t a = rowptr[i]; a < rowptr[i + 1] && ok; a++) {
      for (int64_t b = a + 1; b < rowptr[i + 1] && ok; b++) {
        ok = color[rowcols[a]] != color[rowcols[b]];
      }
    }
  }
  sk__free(ctx, rowptr);
  sk__free(ctx, rowcols);
  return ok;
}
