/* src/core/fd_jacobian.h: colored finite-difference Jacobian values in the order of a CSC pattern */
#ifndef SK_CORE_FD_JACOBIAN_H
#define SK_CORE_FD_JACOBIAN_H

#include <stdint.h>

#include "stiffkit/model.h"

/* Signature of the RHS used for the differences (the model's checked
 * evaluation in practice): returns SK_OK or the evaluation's status. */
typedef sk_status (*sk__fd_rhs_fn)(void *data, double t, const double *y, double *f);

typedef struct sk__fd_jac sk__fd_jac;

/* sk__fd_jac_create: a colored FD engine for the n x n pattern (borrowed:
 * it must outlive the engine and not change). The column coloring is
 * computed here (core/coloring.h). Errors: SK_ERR_NOMEM. */
sk_status sk__fd_jac_create(sk_context *ctx, int64_t n, const int64_t *colptr,
                            const int64_t *rowind, sk__fd_jac **out);

/* sk__fd_jac_destroy: frees the engine; NULLs *fd; accepts NULL. */
void sk__fd_jac_destroy(sk__fd_jac **fd);

/* sk__fd_jac_colors: the number of colors (= RHS calls per Jacobian). */
int64_t sk__fd_jac_colors(const sk__fd_jac *fd);

/* sk__fd_jac_color: color of column j. */
int64_t sk__fd_jac_color(const sk__fd_jac *fd, int64_t j);

/* sk__fd_jac_eval: forward differences of f at (t, y), one RHS call per
 * color: all columns j of a color are moved together by
 *   sigma_j = max(sqrt(uround) |y_j|, sqrt(uround) / w_j)
 * (SUNDIALS' difference-quotient increment), w_j = 1 / (rtol |y_j| + atol_j)
 * when rtol > 0 (atolv[j] when atolv != NULL, else atol), else w_j = 1;
 * the increment actually applied, (y_j + sigma_j) - y_j, divides. values
 * (length nnz, pattern order) receive (f(y + sum sigma_j e_j)_i - fy_i) /
 * sigma_j for every pattern entry (i, j). A column whose change of f is
 * lost in rounding (max_i |df_i| <= 1000 uround max_i |fy_i| over its rows:
 * a component far below its tolerance scale, e.g. zero with a tiny atol)
 * is differenced once more with the unit-scale increment sqrt(uround)
 * max(1, |y_j|) when that is larger (one more RHS call for its color).
 * fy = f(t, y) must be supplied. y is not modified. *rhs_calls (may be
 * NULL) is incremented by the RHS calls made (ncolors, plus one per color
 * differenced again). Returns SK_OK or the failing RHS status. */
sk_status sk__fd_jac_eval(sk__fd_jac *fd, sk__fd_rhs_fn rhs, void *data, double t,
                          const double *y, const double *fy, double rtol, double atol,
                          const double *atolv, double *values, int64_t *rhs_calls);

/* sk__fd_jac_eval_concurrent: the same values as sk__fd_jac_eval (bitwise:
 * each colour is differenced exactly as there), with the colour groups
 * spread over the OpenMP threads, one moved y and one f work vector per
 * thread (allocated on first use and kept). `quiet` must be safe for
 * concurrent calls with different arrays and must not touch the context's
 * error record: it returns SK_OK or any other status for a failure (a
 * callback's error, a non-finite f). When a quiet call fails, the whole
 * evaluation is repeated serially with `rhs`, so the failure is recorded
 * as the serial code records it. With fewer than 2 threads, fewer than 2
 * colours or n * ncolors below SK__THREAD_MIN_WORK it is sk__fd_jac_eval
 * with `rhs`. *rhs_calls counts every call made. Errors: as
 * sk__fd_jac_eval, SK_ERR_NOMEM (work vectors). */
sk_status sk__fd_jac_eval_concurrent(sk__fd_jac *fd, sk__fd_rhs_fn quiet, sk__fd_rhs_fn rhs,
                                     void *data, double t, const double *y, const double *fy,
                                     double rtol, double atol, const double *atolv,
                                     double *values, int64_t *rhs_calls);

#endif
