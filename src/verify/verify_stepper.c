/* src/verify/verify_stepper.c: the extra steppers a verification runs (reruns at other tolerances, a reference method, solves at shifted parameters) and their solve through the output times */
#include <string.h>

#include "core/error.h"
#include "verify/verify_ivp.h"

sk_status sk__verify_solve(const sk__verify_ivp *ivp, sk_stepper *s, double *out,
                           sk__verify_state_fn cmp, void *data)
{
  const int64_t n = sk_model_get_n(ivp->model);
  const double *y = sk_stepper_get_state(s);
  for (size_t k = 0; k < ivp->ntimes; k++) {
    double tret;
    sk_status st = sk_stepper_advance(s, ivp->times[k], &tret);
    if (st != SK_OK) {
      return st < 0 ? st : SK_ERROR(ivp->ctx, st, "solve interrupted at t=%.6e", tret);
    }
    if (out) {
      memcpy(out + k * (size_t)n, y, (size_t)n * sizeof *y);
    }
    if (cmp) {
      cmp(data, k, y);
    }
  }
  return SK_OK;
}

sk_status sk__verify_stepper(const sk__verify_ivp *ivp, const char *method, int from_options,
                             int with_sens, double factor, int64_t budget, const double *y0,
                             sk_stepper **s)
{
  sk_context *ctx = ivp->ctx;
  SK_CALL(ctx, sk_stepper_create(ctx, method, ivp->model, s));
  if (from_options && ivp->opts) {
    SK_CALL(ctx, sk_stepper_set_from_options(*s, ivp->opts));
  }
  if (!with_sens) {
    SK_CALL(ctx, sk_stepper_set_sensitivity(*s, 0, NULL, NULL, SK_SENS_SIMULTANEOUS, 0));
  }
  SK_CALL(ctx, sk_stepper_set_initial(*s, ivp->t0, y0));
  SK_CALL(ctx, sk_stepper_set_tolerances(*s, ivp->rtol * factor, ivp->atol * factor));
  SK_CALL(ctx, sk_stepper_set_max_steps(*s, ivp->max_steps * budget));
  SK_CALL(ctx, sk_stepper_setup(*s));
  return SK_OK;
}
