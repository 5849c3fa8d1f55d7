/* src/core/coloring.h: distance-2 (Curtis-Powell-Reid) column coloring of a CSC pattern */
#ifndef SK_CORE_COLORING_H
#define SK_CORE_COLORING_H

#include <stdint.h>

#include "stiffkit/context.h"

/* sk__csc_color_columns: color the n columns of the n x n pattern
 * (colptr[n+1], rowind[colptr[n]]) so that two columns of one color share
 * no row; then one perturbation per color recovers every entry of a
 * Jacobian with this pattern. Greedy coloring in largest-first order (the
 * key of column j is sum over its rows of the row counts, an upper bound of
 * its degree in the column-intersection graph; ties in natural order).
 * Cost O(nnz * max row count) time, O(n + nnz) memory.
 * color[j] (length n, caller's) receives 0..ncolors-1; *ncolors the count
 * (0 for an empty pattern is impossible: n > 0 gives at least 1).
 * Errors: SK_ERR_NOMEM. */
sk_status sk__csc_color_columns(sk_context *ctx, int64_t n, const int64_t *colptr,
                                const int64_t *rowind, int64_t *color, int64_t *ncolors);

/* sk__csc_coloring_valid: 1 when no two columns of one color share a row. */
int sk__csc_coloring_valid(sk_context *ctx, int64_t n, const int64_t *colptr,
                           const int64_t *rowind, const int64_t *color);

#endif
