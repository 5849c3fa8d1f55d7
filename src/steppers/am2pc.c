/* src/steppers/am2pc.c: AB2-predicted, AM2 (trapezoidal)-corrected predictor-corrector in PECE form (explicit, order 2, fixed step) */
#include <string.h>

#include "steppers/ref_driver.h"

/* PECE with w = h_n / h_{n-1}:
 *   P: y^P = y_n + h_n ((1 + w/2) f_n - (w/2) f_{n-1})   (first step: y_n + h f_n)
 *   E: f^P = f(t_{n+1}, y^P)
 *   C: y_{n+1} = y_n + h_n/2 (f_n + f^P)                   (AM2 = trapezoidal rule)
 *   E: f_{n+1} = f(t_{n+1}, y_{n+1})
 * One correction, no Newton: the method is explicit, and its stability
 * region is bounded (not for stiff problems). */
static sk_status am2pc_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  const int64_t n = r->n;
  const double *y = r->y;
  double *yp = r->w[0], *fp = r->w[1];
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  if (r->naccepted == 0) {
    for (int64_t i = 0; i < n; i++) {
      yp[i] = y[i] + h * r->f[i];
    }
  } else {
    const double w = h / r->hprev;
    for (int64_t i = 0; i < n; i++) {
      yp[i] = y[i] + h * ((1 + 0.5 * w) * r->f[i] - 0.5 * w * r->fprev[i]);
    }
  }
  if ((rc = sk__ref_rhs(r, r->t + h, yp, fp)) != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < n; i++) {
    r->ynew[i] = y[i] + 0.5 * h * (r->f[i] + fp[i]);
  }
  if ((rc = sk__ref_rhs(r, r->t + h, r->ynew, r->fnew)) != SK_OK) {
    return rc;
  }
  r->fnew_valid = 1;
  r->order = 2;
  return SK_OK;
}

static void am2pc_accepted(sk__ref *r, double h)
{
  memcpy(r->fprev, r->f, (size_t)r->n * sizeof *r->f);
  r->hprev = h;
}

static const sk__ref_method am2pc_method = {
    .fixed_only = 1,
    .implicit = 0,
    .nwork = 2,
    .max_growth = 1.0,
    .attempt = am2pc_attempt,
    .accepted = am2pc_accepted,
};

static sk_status am2pc_create(sk_stepper *s)
{
  return sk__ref_create(s, &am2pc_method);
}

SK__REF_STEPPER_TYPE(
    sk__stepper_am2pc, "am2pc",
    "AB2 predictor / AM2 (trapezoidal) corrector, PECE (explicit, order 2, fixed step)", 2,
    SK_STEPPER_EXPLICIT, am2pc_create);
