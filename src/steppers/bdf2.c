/* src/steppers/bdf2.c: variable-step BDF2 (implicit, order 2; Newton + KLU), adaptive or fixed step, started with backward Euler; ODEs and index-1 DAEs */
#include <string.h>

#include "steppers/ref_driver.h"

/* With w = h_n / h_{n-1}:
 *   y_{n+1} - (1+w)^2/(1+2w) y_n + w^2/(1+2w) y_{n-1} = h_n (1+w)/(1+2w) f(t_{n+1}, y_{n+1})
 * solved by Newton as x = psi + gamma f(t_{n+1}, x) with
 *   psi = (1+w)^2/(1+2w) y_n - w^2/(1+2w) y_{n-1},  gamma = h_n (1+w)/(1+2w).
 * Predictor: the quadratic through y_{n-1}, y_n with slope f_n at t_n,
 *   y^P = y_n + h_n f_n + w^2 (y_{n-1} - y_n + h_{n-1} f_n).
 * Local errors: corrector C h^3 y''', C(w) = 1/6 - 1/(6w(1+2w)) - (1+w)/(2(1+2w))
 * (C(1) = -2/9); predictor D h^3 y''', D(w) = (1 + 1/w)/6; so the error
 * estimate is |C|/(D - C) (y_{n+1} - y^P) (2/5 of the difference at w = 1).
 * The first step is backward Euler (predictor y_n + h f_n, estimate
 * (y_{n+1} - y^P)/2). Step ratios are limited to 2 (zero-stable below
 * 1 + sqrt 2).
 * A DAE F(t, y, y') = 0 takes the same formula with y'_{n+1} =
 * (y_{n+1} - psi) / gamma: Newton solves F(t_{n+1}, x, (x - psi) / gamma) = 0,
 * the slope f of the predictor is the y' so found (consistent values at the
 * start), and the error estimate covers every component, algebraic ones
 * too (BDF2 converges at order 2 on an index-1 DAE). */
static sk_status bdf2_attempt(sk__ref *r, double h, double *err)
{
  const int64_t n = r->n;
  double *psi = r->w[0], *yp = r->w[1], *e = r->w[2];
  const double *y = r->y;
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  double gamma, k;
  if (r->naccepted == 0) {
    for (int64_t i = 0; i < n; i++) {
      yp[i] = y[i] + h * r->f[i];
      psi[i] = y[i];
    }
    gamma = h;
    k = 0.5;
    r->order = 1;
    r->q = 1;
  } else {
    const double w = h / r->hprev;
    const double a = (1 + w) * (1 + w) / (1 + 2 * w), b = w * w / (1 + 2 * w);
    for (int64_t i = 0; i < n; i++) {
      yp[i] = y[i] + h * r->f[i] + w * w * (r->yprev[i] - y[i] + r->hprev * r->f[i]);
      psi[i] = a * y[i] - b * r->yprev[i];
    }
    gamma = h * (1 + w) / (1 + 2 * w);
    const double c = 1.0 / 6.0 - 1.0 / (6 * w * (1 + 2 * w)) - (1 + w) / (2 * (1 + 2 * w));
    const double d = (1 + 1 / w) / 6.0;
    k = (c < 0 ? -c : c) / (d - c);
    r->order = 2;
    r->q = 2;
  }
  memcpy(r->ynew, yp, (size_t)n * sizeof *yp);
  rc = sk__ref_newton(r, r->t + h, gamma, psi, r->ynew);
  if (rc != SK_OK) {
    return rc;
  }
  if (r->dae) { /* the method's y' at t + h, where F = 0 holds: the next step's slope */
    for (int64_t i = 0; i < n; i++) {
      r->fnew[i] = (r->ynew[i] - psi[i]) / gamma;
    }
    r->fnew_valid = 1;
  }
  if (!r->fixed) {
    for (int64_t i = 0; i < n; i++) {
      e[i] = k * (r->ynew[i] - yp[i]);
    }
    *err = sk__ref_error_norm(r, e, y, r->ynew);
  }
  return SK_OK;
}

static void bdf2_accepted(sk__ref *r, double h)
{
  memcpy(r->yprev, r->y, (size_t)r->n * sizeof *r->y);
  r->hprev = h;
}

static const sk__ref_method bdf2_method = {
    .fixed_only = 0,
    .implicit = 1,
    .nwork = 4,
    .max_growth = 2.0,
    .attempt = bdf2_attempt,
    .accepted = bdf2_accepted,
};

static sk_status bdf2_create(sk_stepper *s)
{
  return sk__ref_create(s, &bdf2_method);
}

SK__REF_STEPPER_TYPE(
    sk__stepper_bdf2, "bdf2",
    "variable-step BDF2 (implicit, order 2, adaptive or fixed step; Newton with KLU; ODEs and "
    "index-1 DAEs)",
    2, SK_STEPPER_IMPLICIT | SK_STEPPER_ADAPTIVE | SK_STEPPER_STIFF | SK_STEPPER_HANDLES_DAE,
    bdf2_create);
