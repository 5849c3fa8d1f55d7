/* tests/unit/amg_laplace.h: the 2D Dirichlet Laplacian by rows (global columns) and by columns, and A = I - g J products, for the AMG tests */
#ifndef SK_TEST_AMG_LAPLACE_H
#define SK_TEST_AMG_LAPLACE_H

#include <stdint.h>
#include <stdlib.h>

/* Rows [r0, r1) of J = L / h^2, L the 5-point Laplacian on N x N interior
 * nodes of the unit square (Dirichlet, h = 1/(N+1), node (i, j) is row
 * i + N j): rowptr[r1 - r0 + 1], cols (GLOBAL, increasing within a row),
 * vals, allocated here. drop_diag: leave out the diagonal of every third
 * row (the AMG object must add it; J's diagonal there is then 0). */
static inline void amg_laplace_rows(int64_t N, int64_t r0, int64_t r1, int drop_diag,
                                    int64_t **rowptr, int64_t **cols, double **vals)
{
  const double h2 = 1.0 / (double)((N + 1) * (N + 1));
  const int64_t nl = r1 - r0;
  *rowptr = malloc((size_t)(nl + 1) * sizeof **rowptr);
  *cols = malloc((size_t)(5 * nl + 1) * sizeof **cols);
  *vals = malloc((size_t)(5 * nl + 1) * sizeof **vals);
  int64_t q = 0;
  (*rowptr)[0] = 0;
  for (int64_t r = r0; r < r1; r++) {
    const int64_t i = r % N, j = r / N;
    /* increasing columns: south, west, centre, east, north */
    if (j > 0) {
      (*cols)[q] = r - N;
      (*vals)[q++] = 1.0 / h2;
    }
    if (i > 0) {
      (*cols)[q] = r - 1;
      (*vals)[q++] = 1.0 / h2;
    }
    if (!(drop_diag && r % 3 == 0)) {
      (*cols)[q] = r;
      (*vals)[q++] = -4.0 / h2;
    }
    if (i < N - 1) {
      (*cols)[q] = r + 1;
      (*vals)[q++] = 1.0 / h2;
    }
    if (j < N - 1) {
      (*cols)[q] = r + N;
      (*vals)[q++] = 1.0 / h2;
    }
    (*rowptr)[r - r0 + 1] = q;
  }
}

/* The CSC form (colptr[n+1], rowind, cval; allocated here) of a full
 * n x n matrix given by rows: the same entries, rows increasing within a
 * column. */
static inline void amg_rows_to_csc(int64_t n, const int64_t *rowptr, const int64_t *cols,
                                   const double *vals, int64_t **colptr, int64_t **rowind,
                                   double **cval)
{
  const int64_t nnz = rowptr[n];
  *colptr = calloc((size_t)n + 1, sizeof **colptr);
  *rowind = malloc((size_t)(nnz + 1) * sizeof **rowind);
  *cval = malloc((size_t)(nnz + 1) * sizeof **cval);
  int64_t *next = malloc((size_t)n * sizeof *next);
  for (int64_t p = 0; p < nnz; p++) {
    (*colptr)[cols[p] + 1]++;
  }
  for (int64_t j = 0; j < n; j++) {
    (*colptr)[j + 1] += (*colptr)[j];
    next[j] = (*colptr)[j];
  }
  for (int64_t i = 0; i < n; i++) {
    for (int64_t p = rowptr[i]; p < rowptr[i + 1]; p++) {
      const int64_t q = next[cols[p]]++;
      (*rowind)[q] = i;
      (*cval)[q] = vals[p];
    }
  }
  free(next);
}

/* y[0 .. r1-r0) = rows [r0, r1) of (I - g J) x, J by rows as above, x the
 * whole vector (global indices). */
static inline void amg_apply_rows(int64_t r0, int64_t r1, const int64_t *rowptr,
                                  const int64_t *cols, const double *vals, double g,
                                  const double *x, double *y)
{
  for (int64_t r = r0; r < r1; r++) {
    double s = x[r];
    for (int64_t p = rowptr[r - r0]; p < rowptr[r - r0 + 1]; p++) {
      s -= g * vals[p] * x[cols[p]];
    }
    y[r - r0] = s;
  }
}

#endif
