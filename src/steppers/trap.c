/* src/steppers/trap.c: the trapezoidal rule (implicit, order 2, fixed step; Newton + KLU) */
#include "steppers/ref_driver.h"

/* y_{n+1} = y_n + h/2 (f(t_n, y_n) + f(t_{n+1}, y_{n+1})), solved by Newton
 * as x = psi + gamma f(t_{n+1}, x) with psi = y_n + h/2 f_n, gamma = h/2;
 * predictor: y_n + h f_n. R(z) = (1 + z/2) / (1 - z/2): A-stable, not
 * L-stable (R -> -1 as z -> -inf; R(-1000) = -0.996). */
static sk_status trap_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  double *psi = r->w[0];
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < r->n; i++) {
    psi[i] = r->y[i] + 0.5 * h * r->f[i];
    r->ynew[i] = r->y[i] + h * r->f[i];
  }
  r->order = 2;
  rc = sk__ref_newton(r, r->t + h, 0.5 * h, psi, r->ynew);
  if (rc != SK_OK) {
    return rc;
  }
  rc = sk__ref_rhs(r, r->t + h, r->ynew, r->fnew);
  r->fnew_valid = rc == SK_OK;
  return rc;
}

static const sk__ref_method trap_method = {
    .fixed_only = 1,
    .implicit = 1,
    .nwork = 2,
    .max_growth = 1.0,
    .attempt = trap_attempt,
    .accepted = NULL,
};

static sk_status trap_create(sk_stepper *s)
{
  return sk__ref_create(s, &trap_method);
}

SK__REF_STEPPER_TYPE(
    sk__stepper_trap, "trap",
    "trapezoidal rule (implicit, order 2, fixed step; Newton with KLU; A- not L-stable)", 2,
    SK_STEPPER_IMPLICIT | SK_STEPPER_STIFF, trap_create);
