/* src/core/csc.c: compressed-sparse-column pattern utilities (triplets to CSC, diagonal, bandwidth) */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/csc.h"

sk_status sk__csc_from_triplets_values(sk_context *ctx, int64_t nrows, int64_t ncols, int64_t nt,
                                       const int64_t *rows, const int64_t *cols,
                                       const double *vals, int64_t **colptr, int64_t **rowind,
                                       double **values)
{
  *colptr = NULL;
  *rowind = NULL;
  if (values) {
    *values = NULL;
  }
  SK_CHECK(ctx, nrows > 0 && ncols > 0 && nt >= 0 && (vals == NULL || values != NULL), SK_ERR_ARG,
           "triplets: %lld x %lld, count = %lld", (long long)nrows, (long long)ncols,
           (long long)nt);
  for (int64_t k = 0; k < nt; k++) {
    SK_CHECK(ctx, rows[k] >= 0 && rows[k] < nrows && cols[k] >= 0 && cols[k] < ncols,
             SK_ERR_INPUT, "triplet %lld: (%lld, %lld) outside a %lld x %lld matrix",
             (long long)k, (long long)rows[k], (long long)cols[k], (long long)nrows,
             (long long)ncols);
  }
  const size_t ntri = (size_t)(nt > 0 ? nt : 1);
  int64_t *cp = sk__calloc(ctx, (size_t)ncols + 1, sizeof *cp);
  int64_t *ri = sk__malloc(ctx, ntri * sizeof *ri);
  int64_t *next = sk__malloc(ctx, (size_t)ncols * sizeof *next);
  int64_t *byrow = sk__malloc(ctx, ntri * sizeof *byrow);
  int64_t *rp = sk__calloc(ctx, (size_t)nrows + 1, sizeof *rp);
  double *vx = vals ? sk__malloc(ctx, ntri * sizeof *vx) : NULL;
  if (!cp || !ri || !next || !byrow || !rp || (vals && !vx)) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    sk__free(ctx, next);
    sk__free(ctx, byrow);
    sk__free(ctx, rp);
    sk__free(ctx, vx);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "triplets: cannot allocate %lld entries", (long long)nt);
  }
  /* column pointers by counting */
  for (int64_t k = 0; k < nt; k++) {
    cp[cols[k] + 1]++;
  }
  for (int64_t j = 0; j < ncols; j++) {
    cp[j + 1] += cp[j];
  }
  memcpy(next, cp, (size_t)ncols * sizeof *next);
  /* first sort by row (stable), then distribute to columns: rows end up
     sorted, and duplicates adjacent in their input order */
  for (int64_t k = 0; k < nt; k++) {
    rp[rows[k] + 1]++;
  }
  for (int64_t i = 0; i < nrows; i++) {
    rp[i + 1] += rp[i];
  }
  for (int64_t k = 0; k < nt; k++) {
    byrow[rp[rows[k]]++] = k;
  }
  for (int64_t q = 0; q < nt; q++) {
    const int64_t k = byrow[q];
    const int64_t p = next[cols[k]]++;
    ri[p] = rows[k];
    if (vx) {
      vx[p] = vals[k];
    }
  }
  /* merge (sum) adjacent duplicates in place */
  int64_t w = 0;
  int64_t start = 0;
  for (int64_t j = 0; j < ncols; j++) {
    const int64_t end = cp[j + 1];
    const int64_t w0 = w;
    cp[j] = w;
    for (int64_t p = start; p < end; p++) {
      if (w > w0 && ri[w - 1] == ri[p]) {
        if (vx) {
          vx[w - 1] += vx[p];
        }
        continue;
      }
      ri[w] = ri[p];
      if (vx) {
        vx[w] = vx[p];
      }
      w++;
    }
    start = end;
  }
  cp[ncols] = w;
  sk__free(ctx, next);
  sk__free(ctx, byrow);
  sk__free(ctx, rp);
  *colptr = cp;
  *rowind = ri;
  if (values) {
    *values = vx;
  }
  return SK_OK;
}

sk_status sk__csc_from_triplets(sk_context *ctx, int64_t n, int64_t nt, const int64_t *rows,
                                const int64_t *cols, int64_t **colptr, int64_t **rowind)
{
  SK_CALL(ctx,
          sk__csc_from_triplets_values(ctx, n, n, nt, rows, cols, NULL, colptr, rowind, NULL));
  return SK_OK;
}

sk_status sk__csc_with_diagonal(sk_context *ctx, int64_t n, const int64_t *colptr,
                                const int64_t *rowind, int64_t **new_colptr, int64_t **new_rowind,
                                int64_t **map, int64_t **diag)
{
  int64_t missing = 0;
  for (int64_t j = 0; j < n; j++) {
    int found = 0;
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      found |= rowind[p] == j;
    }
    missing += !found;
  }
  const int64_t nnz = colptr[n];
  int64_t *cp = sk__malloc(ctx, (size_t)(n + 1) * sizeof *cp);
  int64_t *ri = sk__malloc(ctx, (size_t)(nnz + missing > 0 ? nnz + missing : 1) * sizeof *ri);
  int64_t *mp = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *mp);
  int64_t *dg = sk__malloc(ctx, (size_t)n * sizeof *dg);
  if (!cp || !ri || !mp || !dg) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    sk__free(ctx, mp);
    sk__free(ctx, dg);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate a pattern of %lld entries",
                    (long long)(nnz + missing));
  }
  int64_t w = 0;
  for (int64_t j = 0; j < n; j++) {
    cp[j] = w;
    int placed = 0;
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      if (!placed && rowind[p] >= j) {
        if (rowind[p] != j) {
          ri[w++] = j; /* missing diagonal goes before the first row below it */
        }
        dg[j] = rowind[p] == j ? w : w - 1;
        placed = 1;
      }
      mp[p] = w;
      ri[w++] = rowind[p];
    }
    if (!placed) {
      dg[j] = w;
      ri[w++] = j;
    }
  }
  cp[n] = w;
  *new_colptr = cp;
  *new_rowind = ri;
  *map = mp;
  *diag = dg;
  return SK_OK;
}

void sk__csc_bandwidth(int64_t n, const int64_t *colptr, const int64_t *rowind, int64_t *ml,
                       int64_t *mu)
{
  int64_t lo = 0, up = 0;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const int64_t d = rowind[p] - j;
      lo = d > lo ? d : lo;
      up = -d > up ? -d : up;
    }
  }
  *ml = lo;
  *mu = up;
}
