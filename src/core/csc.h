/* src/core/csc.h: compressed-sparse-column pattern utilities (triplets to CSC, diagonal, bandwidth) */
#ifndef SK_CORE_CSC_H
#define SK_CORE_CSC_H

#include <stdint.h>

#include "stiffkit/context.h"

/* sk__csc_from_triplets: pattern of an n x n matrix from nt (row, col)
 * pairs (duplicates merged, rows sorted per column). Outputs are allocated
 * with sk__malloc: colptr[n+1], rowind[colptr[n]]. Errors: SK_ERR_INPUT for
 * an index outside [0, n), SK_ERR_NOMEM. */
sk_status sk__csc_from_triplets(sk_context *ctx, int64_t n, int64_t nt, const int64_t *rows,
                                const int64_t *cols, int64_t **colptr, int64_t **rowind);

/* sk__csc_from_triplets_values: an nrows x ncols matrix in CSC from nt
 * (rows[k], cols[k], vals[k]) triplets (0-based): rows strictly increasing
 * per column, duplicates summed in input order. vals may be NULL (a
 * pattern: duplicates merged, values not allocated, `values` may be NULL).
 * Outputs are allocated with sk__malloc: colptr[ncols+1],
 * rowind[colptr[ncols]] and values[colptr[ncols]] (the arrays may be sized
 * for nt entries). Errors: SK_ERR_ARG (nrows or ncols < 1, nt < 0, vals
 * without `values`), SK_ERR_INPUT (an index outside the matrix, naming the
 * triplet), SK_ERR_NOMEM. */
sk_status sk__csc_from_triplets_values(sk_context *ctx, int64_t nrows, int64_t ncols, int64_t nt,
                                       const int64_t *rows, const int64_t *cols,
                                       const double *vals, int64_t **colptr, int64_t **rowind,
                                       double **values);

/* sk__csc_with_diagonal: the pattern plus any missing diagonal entries.
 * map[p] (length colptr[n]) gives the new position of old entry p; diag[j]
 * (length n) the position of (j, j) in the new pattern. All outputs are
 * allocated with sk__malloc. Errors: SK_ERR_NOMEM. */
sk_status sk__csc_with_diagonal(sk_context *ctx, int64_t n, const int64_t *colptr,
                                const int64_t *rowind, int64_t **new_colptr, int64_t **new_rowind,
                                int64_t **map, int64_t **diag);

/* sk__csc_bandwidth: lower (row > col) and upper half-bandwidths. */
void sk__csc_bandwidth(int64_t n, const int64_t *colptr, const int64_t *rowind, int64_t *ml,
                       int64_t *mu);

#endif
