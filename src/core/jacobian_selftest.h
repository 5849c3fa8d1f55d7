/* src/core/jacobian_selftest.h: refuse a run whose analytic Jacobian disagrees with finite differences */
#ifndef SK_CORE_JACOBIAN_SELFTEST_H
#define SK_CORE_JACOBIAN_SELFTEST_H

#include "stiffkit/model.h"

/* relative Frobenius disagreement above which a run is refused */
#define SK__JAC_SELFTEST_TOL 1e-3
/* columns compared: all up to this n, else a fixed sample */
#define SK__JAC_SELFTEST_FULL_MAX 20000
#define SK__JAC_SELFTEST_SAMPLE 200
#define SK__JAC_SELFTEST_SEED 20261202u

/* sk__jacobian_selftest: when the model has its own Jacobian values
 * callback, run sk__jacobian_check at (t, y) (all columns for
 * n <= 20000, else 200 sampled ones) and return SK_ERR_INPUT when
 * ||J - J_fd||_F / ||J||_F > 1e-3 or an RHS dependence outside the pattern
 * was found; the message names the worst entries (row, column, analytic,
 * FD, component names) and says how to run anyway. SK_OK for a model
 * without analytic values (nothing to test). Other errors: those of the
 * check (SK_ERR_NOMEM, a failed RHS or Jacobian evaluation). */
sk_status sk__jacobian_selftest(sk_model *m, double t, const double *y);

/* sk__jtimes_selftest: when the model has its own J v (sk_model_set_jtimes),
 * compare it at (t, y) for 3 pseudo-random directions v (fixed seed) with
 * central differences (f(y + s v) - f(y - s v)) / (2 s),
 * s = cbrt(uround) max(1, ||y||_inf) / ||v||_inf, and return SK_ERR_INPUT
 * when ||Jv - Jv_fd||_2 / ||Jv_fd||_2 > 1e-3 for one of them (the message
 * names the worst component with both values). SK_OK without a J v. Other
 * errors: SK_ERR_NOMEM, a failed evaluation. */
sk_status sk__jtimes_selftest(sk_model *m, double t, const double *y);

/* sk__dae_jacobian_selftest: when a DAE model has its own Jacobian values
 * (sk_model_set_dae_jac_values), compare dF/dy (cj = 0) and dF/dy + dF/dy'
 * (cj = 1) at (t, y, y') with the colored finite differences of the
 * residual and return SK_ERR_INPUT when ||J - J_fd||_F / ||J_fd||_F > 1e-3
 * for either (the message names the part, dF/dy or dF/dy', and the worst
 * entry with both values). Dependences outside the pattern are not looked
 * for. SK_OK for a model without analytic values. Other errors:
 * SK_ERR_NOMEM, a failed evaluation. */
sk_status sk__dae_jacobian_selftest(sk_model *m, double t, const double *y, const double *yp);

#endif
