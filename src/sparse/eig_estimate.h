/* src/sparse/eig_estimate.h: extreme eigenvalue estimates of a model Jacobian (Gershgorin, restarted Arnoldi, KLU inverse iteration) */
#ifndef SK_SPARSE_EIG_ESTIMATE_H
#define SK_SPARSE_EIG_ESTIMATE_H

#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/diagnose.h"
#include "stiffkit/model.h"

/* y = A x for an n-vector x (never aliased with y). Returns SK_OK or an
 * error status (recorded in the context by the operator). */
typedef sk_status (*sk__eig_op_fn)(void *data, const double *x, double *y);

/* Settings of the restarted Arnoldi iteration: Krylov dimension per cycle
 * (clamped to [1, min(n, 64)]; 0 = 30), cycles at most (0 = 30), and the
 * relative tolerance on the Ritz residual / the change of the Ritz value
 * between cycles (0 = 1e-6). */
typedef struct {
  int krylov_dim;
  int max_restarts;
  double tol;
} sk__eig_params;

/* sk__eig_gershgorin: Gershgorin discs of the n x n CSC matrix (colptr,
 * rowind, values in pattern order): centre A_ii, radius sum_{j != i}
 * |A_ij| (row sums, gathered column by column). Outputs: every eigenvalue
 * has lo <= Re(lambda) <= hi and |lambda| <= rho. Work: one n-vector
 * (allocated). Errors: SK_ERR_ARG, SK_ERR_NOMEM. */
sk_status sk__eig_gershgorin(sk_context *ctx, int64_t n, const int64_t *colptr,
                             const int64_t *rowind, const double *values, double *lo, double *hi,
                             double *rho);

/* sk__eig_arnoldi_largest: the largest-magnitude eigenvalue of the operator
 * by explicitly restarted Arnoldi (classical Gram-Schmidt with one
 * reorthogonalization; the Ritz values of the small Hessenberg matrix by a
 * shifted complex QR iteration; the restart vector is the real part of the
 * dominant Ritz vector). x0 (may be NULL: a fixed pseudo-random vector) is
 * the start vector. Outputs: *lambda, *resid (the final Ritz residual
 * |h_{m+1,m} y_m| divided by |lambda|), *matvecs (operator applications).
 * Memory: (krylov_dim + 2) n-vectors. Errors: SK_ERR_ARG, SK_ERR_NOMEM,
 * SK_ERR_SOLVER (the small eigenproblem did not converge), and whatever the
 * operator returns. A cycle limit reached without convergence is not an
 * error: *resid tells the accuracy. */
sk_status sk__eig_arnoldi_largest(sk_context *ctx, int64_t n, sk__eig_op_fn op, void *data,
                                  const double *x0, const sk__eig_params *p,
                                  sk_eigenvalue *lambda, double *resid, int64_t *matvecs);

/* The lambda_min method switches from KLU to the shifted iteration above this size. */
#define SK__EIG_KLU_MAX_N SK_EIG_KLU_MAX_N

/* sk__eig_estimate_model: estimates of the extreme eigenvalues of
 * J = df/dy(t, y) of the ODE model m (length n state y, read only):
 * Gershgorin bounds when the model has Jacobian values; lambda_max by
 * restarted Arnoldi with J v from the sparse Jacobian when there is one,
 * else a difference quotient (f(y + d v) - f(y)) / d; lambda_min by
 * Arnoldi on (J - s I)^{-1} with KLU when the model has a Jacobian and
 * n <= SK__EIG_KLU_MAX_N (s = 0, or a small shift when J is singular;
 * lambda_min = s + 1/mu), else by Arnoldi on J - sigma I with sigma =
 * Re(lambda_max) (lambda_min = sigma + mu, at most 8 cycles; see
 * SK_EIG_MIN_SHIFTED_ARNOLDI).
 * Memory: O(nnz + krylov_dim n), nothing dense of size n. p may be NULL
 * (defaults). Errors: SK_ERR_ARG (NULL arguments, a model that is not an
 * ODE), SK_ERR_NOMEM, the model's callback errors (SK_ERR_CALLBACK,
 * SK_ERR_NONFINITE, SK_RECOVERABLE mapped to SK_ERR_CALLBACK), SK_ERR_SOLVER. */
sk_status sk__eig_estimate_model(sk_model *m, double t, const double *y, const sk__eig_params *p,
                                 sk_eig_estimate *est);

/* sk__eig_estimate_largest: the lambda_max part of sk__eig_estimate_model
 * alone (Gershgorin bounds when the model has Jacobian values, lambda_max
 * by restarted Arnoldi), for a check repeated during a run; lambda_min,
 * min_resid and shift are left 0. Memory O(nnz + krylov_dim n). Costs one
 * RHS call and one Jacobian evaluation (models with values), else one RHS
 * call per J v product. Errors: as sk__eig_estimate_model. */
sk_status sk__eig_estimate_largest(sk_model *m, double t, const double *y,
                                   const sk__eig_params *p, sk_eig_estimate *est);

#endif
