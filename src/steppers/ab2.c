/* src/steppers/ab2.c: two-step Adams-Bashforth (explicit, order 2, fixed step), started with one Heun step */
#include <string.h>

#include "steppers/ref_driver.h"

/* With w = h_n / h_{n-1} (1 except for a last step clipped to tout):
 *   y_{n+1} = y_n + h_n ((1 + w/2) f_n - (w/2) f_{n-1})
 * (3/2, -1/2 at w = 1). First step: Heun (RK2),
 *   k1 = f(t_n, y_n), k2 = f(t_n + h, y_n + h k1), y_1 = y_0 + h/2 (k1 + k2).
 * Real-axis stability interval of AB2: -1 <= h lambda <= 0. */
static sk_status ab2_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  const int64_t n = r->n;
  const double *y = r->y;
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  r->order = 2;
  if (r->naccepted == 0) {
    double *tmp = r->w[0], *k2 = r->w[1];
    for (int64_t i = 0; i < n; i++) {
      tmp[i] = y[i] + h * r->f[i];
    }
    if ((rc = sk__ref_rhs(r, r->t + h, tmp, k2)) != SK_OK) {
      return rc;
    }
    for (int64_t i = 0; i < n; i++) {
      r->ynew[i] = y[i] + 0.5 * h * (r->f[i] + k2[i]);
    }
    return SK_OK;
  }
  const double w = h / r->hprev;
  for (int64_t i = 0; i < n; i++) {
    r->ynew[i] = y[i] + h * ((1 + 0.5 * w) * r->f[i] - 0.5 * w * r->fprev[i]);
  }
  return SK_OK;
}

static void ab2_accepted(sk__ref *r, double h)
{
  memcpy(r->fprev, r->f, (size_t)r->n * sizeof *r->f);
  r->hprev = h;
}

static const sk__ref_method ab2_method = {
    .fixed_only = 1,
    .implicit = 0,
    .nwork = 2,
    .max_growth = 1.0,
    .attempt = ab2_attempt,
    .accepted = ab2_accepted,
};

static sk_status ab2_create(sk_stepper *s)
{
  return sk__ref_create(s, &ab2_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_ab2, "ab2",
                     "two-step Adams-Bashforth (explicit, order 2, fixed step; Heun start)", 2,
                     SK_STEPPER_EXPLICIT, ab2_create);
