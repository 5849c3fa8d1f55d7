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

#endif
