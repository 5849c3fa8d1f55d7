/* src/steppers/rk45.c: Dormand-Prince 5(4) with FSAL, adaptive (embedded error estimate) or fixed step */
#include "steppers/ref_driver.h"

/* Butcher tableau (Dormand & Prince 1980), propagating the 5th-order
 * solution; the 7th stage is f(t+h, y_{n+1}) and is reused as the next
 * step's first stage (FSAL):
 *    0    |
 *   1/5   | 1/5
 *   3/10  | 3/40        9/40
 *   4/5   | 44/45      -56/15       32/9
 *   8/9   | 19372/6561 -25360/2187  64448/6561 -212/729
 *    1    | 9017/3168  -355/33      46732/5247  49/176  -5103/18656
 *    1    | 35/384      0           500/1113    125/192 -2187/6784    11/84
 *   ------+------------------------------------------------------------------------
 *   b     | 35/384      0           500/1113    125/192 -2187/6784    11/84    0
 *   bhat  | 5179/57600  0           7571/16695  393/640 -92097/339200 187/2100 1/40
 * Error estimate e = h sum (b_i - bhat_i) k_i (order 4: the controller uses
 * the exponent 1/5), measured as the RMS of
 * |e_i| / (atol_i + rtol max(|y_i|, |y_new_i|)); safety 0.9, growth <= 5,
 * shrink >= 0.2. With solver.fixed_step > 0 the error estimate is ignored.
 * Adaptive runs step past the output time and interpolate there (the
 * driver's Hermite cubic from y and f = k1, k7 at both ends). */
static sk_status rk45_attempt(sk__ref *r, double h, double *err)
{
  static const double a21 = 1.0 / 5.0;
  static const double a31 = 3.0 / 40.0, a32 = 9.0 / 40.0;
  static const double a41 = 44.0 / 45.0, a42 = -56.0 / 15.0, a43 = 32.0 / 9.0;
  static const double a51 = 19372.0 / 6561.0, a52 = -25360.0 / 2187.0, a53 = 64448.0 / 6561.0,
                      a54 = -212.0 / 729.0;
  static const double a61 = 9017.0 / 3168.0, a62 = -355.0 / 33.0, a63 = 46732.0 / 5247.0,
                      a64 = 49.0 / 176.0, a65 = -5103.0 / 18656.0;
  static const double b1 = 35.0 / 384.0, b3 = 500.0 / 1113.0, b4 = 125.0 / 192.0,
                      b5 = -2187.0 / 6784.0, b6 = 11.0 / 84.0;
  static const double e1 = 71.0 / 57600.0, e3 = -71.0 / 16695.0, e4 = 71.0 / 1920.0,
                      e5 = -17253.0 / 339200.0, e6 = 22.0 / 525.0, e7 = -1.0 / 40.0;
  const int64_t n = r->n;
  const double t = r->t, *y = r->y;
  double *k2 = r->w[0], *k3 = r->w[1], *k4 = r->w[2], *k5 = r->w[3], *k6 = r->w[4];
  double *tmp = r->w[5], *k7 = r->fnew;
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  const double *k1 = r->f;
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * a21 * k1[i];
  }
  if ((rc = sk__ref_rhs(r, t + h / 5.0, tmp, k2)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
  }
  if ((rc = sk__ref_rhs(r, t + 0.3 * h, tmp, k3)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
  }
  if ((rc = sk__ref_rhs(r, t + 0.8 * h, tmp, k4)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
  }
  if ((rc = sk__ref_rhs(r, t + h * 8.0 / 9.0, tmp, k5)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
  }
  if ((rc = sk__ref_rhs(r, t + h, tmp, k6)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    r->ynew[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
  }
  if ((rc = sk__ref_rhs(r, t + h, r->ynew, k7)) != SK_OK) {
    return rc;
  }
  r->fnew_valid = 1;
  r->order = 5;
  r->q = 4;
  if (!r->fixed) {
    double *e = r->w[6];
    for (int64_t i = 0; i < n; i++) {
      e[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
    }
    *err = sk__ref_error_norm(r, e, y, r->ynew);
  }
  return SK_OK;
}

static const sk__ref_method rk45_method = {
    .fixed_only = 0,
    .implicit = 0,
    .nwork = 7,
    .max_growth = 5.0,
    .dense = 1,
    .attempt = rk45_attempt,
    .accepted = NULL,
};

static sk_status rk45_create(sk_stepper *s)
{
  return sk__ref_create(s, &rk45_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_rk45, "rk45",
                     "Dormand-Prince 5(4) with FSAL (explicit, order 5, adaptive or fixed step)",
                     5, SK_STEPPER_EXPLICIT | SK_STEPPER_ADAPTIVE, rk45_create);
