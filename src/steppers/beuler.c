/* src/steppers/beuler.c: backward Euler, the implicit one-step reference method of order 1 (Newton + KLU, fixed step) */
#include "steppers/ref_driver.h"

/* y_{n+1} = y_n + h f(t_{n+1}, y_{n+1}), solved by Newton as
 * x = psi + gamma f(t_{n+1}, x) with psi = y_n, gamma = h; predictor: the
 * explicit Euler value y_n + h f(t_n, y_n).
 * R(z) = 1 / (1 - z): A- and L-stable. Local error -h^2/2 y''. */
static sk_status beuler_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  const sk_status rc = sk__ref_euler_step(r, h); /* the predictor */
  return rc != SK_OK ? rc : sk__ref_newton(r, r->t + h, h, r->y, r->ynew);
}

static const sk__ref_method beuler_method = {
    .fixed_only = 1,
    .implicit = 1,
    .nwork = 1,
    .max_growth = 1.0,
    .attempt = beuler_attempt,
    .accepted = NULL,
};

static sk_status beuler_create(sk_stepper *s)
{
  return sk__ref_create(s, &beuler_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_beuler, "beuler",
                     "backward Euler (implicit, order 1, fixed step; Newton with KLU)", 1,
                     SK_STEPPER_IMPLICIT | SK_STEPPER_STIFF, beuler_create);
