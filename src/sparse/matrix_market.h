/* src/sparse/matrix_market.h: reading Matrix Market exchange files into CSC matrices and dense vectors, with located errors */
#ifndef SK_SPARSE_MATRIX_MARKET_H
#define SK_SPARSE_MATRIX_MARKET_H

#include <stdint.h>
#include <stdio.h>

#include "stiffkit/context.h"

/* What the reader accepts (the banner's tokens are case-insensitive):
 *   %%MatrixMarket matrix <coordinate|array> <real|integer|pattern>
 *                  <general|symmetric|skew-symmetric>
 * then comment lines (first non-blank character '%') and blank lines
 * anywhere, the size line ("rows cols entries" for coordinate, "rows cols"
 * for array) and one entry per line: "i j value" (1-based; "i j" for
 * pattern) or, for array, one value per line in column-major order (of the
 * lower triangle with the diagonal for symmetric, strictly below it for
 * skew-symmetric). Decisions:
 *   - duplicate coordinate entries are summed in file order (as MATLAB's
 *     sparse(), scipy and CHOLMOD do: FE codes export unassembled element
 *     contributions that way); in a pattern file they are merged;
 *   - explicitly stored zeros of a coordinate file are kept in the pattern
 *     (they are structural); exact zeros of an array file are not stored;
 *   - symmetric and skew-symmetric storage is expanded to the full matrix;
 *     such files store the lower triangle, so an entry above the diagonal
 *     is an error naming its line, as is a diagonal entry of a
 *     skew-symmetric file;
 *   - pattern values are 1; an integer field needs integer values;
 *   - complex, hermitian and anything else is refused with the list of
 *     what is read.
 * Every error message starts with "file:line:" and names the offending
 * field (banner token, size line, row/column index with the size, value). */

/* A real matrix in compressed sparse columns, rows strictly increasing
 * within each column. */
typedef struct {
  int64_t nrows, ncols;
  int64_t *colptr; /* ncols + 1 */
  int64_t *rowind; /* colptr[ncols] */
  double *values;  /* colptr[ncols] */
  int symmetric;   /* 1: the file declared symmetric storage (expanded here) */
} sk__mm_matrix;

/* Flags of sk__mm_read_matrix. */
#define SK__MM_SQUARE 1 /* the matrix must be square */

/* sk__mm_read_matrix: read the Matrix Market file `path` into *a (zeroed
 * first; release with sk__mm_matrix_free, also after an error). `what`
 * names the matrix in messages about its shape (`model.stiffness`; may be
 * NULL). flags: SK__MM_SQUARE or 0.
 * Errors: SK_ERR_MISSING (cannot open or read the file: the message names
 * it and the system's reason), SK_ERR_INPUT (any format error, located as
 * "file:line: ..."; a non-square matrix with SK__MM_SQUARE), SK_ERR_NOMEM. */
sk_status sk__mm_read_matrix(sk_context *ctx, const char *path, const char *what, int flags,
                             sk__mm_matrix *a);

/* sk__mm_read_matrix_stream: the same from an open stream (not closed);
 * `name` is the file name used in messages. */
sk_status sk__mm_read_matrix_stream(sk_context *ctx, FILE *f, const char *name, const char *what,
                                    int flags, sk__mm_matrix *a);

/* sk__mm_matrix_free: free the arrays of *a and zero it; accepts NULL and a
 * zeroed or partly filled matrix. */
void sk__mm_matrix_free(sk_context *ctx, sk__mm_matrix *a);

/* sk__mm_read_vector: a dense vector from a Matrix Market file holding an
 * n x 1 general real or integer matrix, in array format (n values) or
 * coordinate format (entries not listed are 0, duplicates summed).
 * Outputs: *n and *v (allocated with sk__malloc, length n; NULL on error).
 * Errors: as sk__mm_read_matrix, and SK_ERR_INPUT for a pattern file or a
 * shape other than n x 1 (naming `what`, may be NULL). */
sk_status sk__mm_read_vector(sk_context *ctx, const char *path, const char *what, int64_t *n,
                             double **v);

/* sk__mm_read_vector_stream: the same from an open stream named `name`. */
sk_status sk__mm_read_vector_stream(sk_context *ctx, FILE *f, const char *name, const char *what,
                                    int64_t *n, double **v);

#endif
