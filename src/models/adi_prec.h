/* src/models/adi_prec.h: line-tridiagonal (ADI) preconditioner P = prod_d (I - gamma J_d) on a structured grid */
#ifndef SK_MODELS_ADI_PREC_H
#define SK_MODELS_ADI_PREC_H

#include <stdint.h>

#include "models/grid.h"

typedef struct sk__adi sk__adi;

/* Row of J_d (the direction-d part of the Jacobian) at unknown idx, which
 * sits at position p along d on line `line` (= sk__grid_face_index of d).
 * Outputs: a = coefficient of the lower neighbour (unused at p = 0),
 * b = diagonal, c = coefficient of the upper neighbour (unused at
 * p = n_d - 1). */
typedef void (*sk__adi_row_fn)(int d, int64_t idx, int64_t p, int64_t line, double *a, double *b,
                               double *c, void *data);

/* sk__adi_create: factor storage for grid g (copied). With uniform_upper = 1
 * the caller promises that c depends only on whether p == 0 (constant
 * coefficients); then 2*dim doubles per node are kept (pivot reciprocal and
 * multiplier) and the upper diagonal is two scalars per direction.
 * Otherwise 3*dim doubles per node. With uniform_lines = 1 (implies
 * uniform_upper) the caller promises more: every line of a direction has
 * the same rows (constant k, no u-dependent source), so one line per
 * direction is factored and stored (2 n_d doubles) and the solve streams
 * only the vector. Errors: SK_ERR_NOMEM. */
sk_status sk__adi_create(sk_context *ctx, const sk__grid *g, int uniform_upper, int uniform_lines,
                         sk__adi **adi);

/* sk__adi_setup: Thomas LU of every line of I - gamma J_d in every
 * direction, with rows from `row`. Returns 0, or 1 (recoverable) when a
 * pivot is zero or not finite. */
int sk__adi_setup(sk__adi *adi, double gamma, sk__adi_row_fn row, void *data);

/* sk__adi_solve: z = P^{-1} r, P = (I - gamma J_0)(I - gamma J_1)(I - gamma J_2):
 * tridiagonal solves along all x-lines, then y-lines, then z-lines. r and z
 * (length total) may be the same array. Lines are independent. */
void sk__adi_solve(const sk__adi *adi, const double *r, double *z);

/* sk__adi_destroy: free; NULLs *adi; accepts NULL. */
void sk__adi_destroy(sk__adi **adi);

#endif
