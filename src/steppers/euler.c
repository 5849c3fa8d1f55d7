/* src/steppers/euler.c: forward Euler, the explicit one-step reference method of order 1 (fixed step) */
#include "steppers/ref_driver.h"

/* y_{n+1} = y_n + h f(t_n, y_n).
 * Amplification on y' = lambda y: R(z) = 1 + z (z = h lambda); stable on
 * the real axis for -2 <= z <= 0. Local error h^2/2 y'', global O(h). */
static sk_status euler_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  return sk__ref_euler_step(r, h);
}

static const sk__ref_method euler_method = {
    .fixed_only = 1,
    .implicit = 0,
    .nwork = 0,
    .max_growth = 1.0,
    .attempt = euler_attempt,
    .accepted = NULL,
};

static sk_status euler_create(sk_stepper *s)
{
  return sk__ref_create(s, &euler_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_euler, "euler", "forward Euler (explicit, order 1, fixed step)",
                     1, SK_STEPPER_EXPLICIT, euler_create);
