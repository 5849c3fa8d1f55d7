/* src/steppers/rk4.c: the classical fourth-order Runge-Kutta method (explicit, fixed step) */
#include "steppers/ref_driver.h"

/* Butcher tableau:
 *    0  |
 *   1/2 | 1/2
 *   1/2 |  0   1/2
 *    1  |  0    0    1
 *   ----+-------------------
 *       | 1/6  1/3  1/3  1/6
 * R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24; real-axis stability limit z ~ -2.785. */
static sk_status rk4_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  const int64_t n = r->n;
  double *k2 = r->w[0], *k3 = r->w[1], *k4 = r->w[2], *tmp = r->w[3];
  const double *y = r->y, *k1 = r->f;
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + 0.5 * h * k1[i];
  }
  if ((rc = sk__ref_rhs(r, r->t + 0.5 * h, tmp, k2)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + 0.5 * h * k2[i];
  }
  if ((rc = sk__ref_rhs(r, r->t + 0.5 * h, tmp, k3)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    tmp[i] = y[i] + h * k3[i];
  }
  if ((rc = sk__ref_rhs(r, r->t + h, tmp, k4)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    r->ynew[i] = y[i] + h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
  }
  r->order = 4;
  return SK_OK;
}

static const sk__ref_method rk4_method = {
    .fixed_only = 1,
    .implicit = 0,
    .nwork = 4,
    .max_growth = 1.0,
    .attempt = rk4_attempt,
    .accepted = NULL,
};

static sk_status rk4_create(sk_stepper *s)
{
  return sk__ref_create(s, &rk4_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_rk4, "rk4",
                     "classical Runge-Kutta (explicit, order 4, fixed step)", 4,
                     SK_STEPPER_EXPLICIT, rk4_create);
