/* src/verify/verify_ivp.h: the initial-value problem a verification works on, and the extra steppers its checks run */
#ifndef SK_VERIFY_VERIFY_IVP_H
#define SK_VERIFY_VERIFY_IVP_H

#include <stdint.h>

#include "stiffkit/verify.h"

/* The production run as the checks see it. */
typedef struct {
  sk_context *ctx;
  const sk_options *opts; /* NULL: the extra steppers take the engines' defaults */
  sk_model *model;
  sk_stepper *stepper; /* the production stepper */
  const char *method;  /* its type's name */
  double t0, rtol, atol;
  int64_t max_steps; /* the production step budget */
  const double *times;
  size_t ntimes;
  const int64_t *probes;
  const char *const *probe_names;
  size_t nprobes;
  double *exact; /* work buffer of n values when the model has an exact solution, else NULL */
} sk__verify_ivp;

/* sk__verify_stepper: a stepper of type `method` for the problem's model from
 * y0 at t0. With from_options the production's solver./linsol. options apply
 * (its configuration), else the engine's defaults; with_sens 0 turns the
 * sensitivities off. Tolerances are the production's times `factor`, the
 * step budget the production's times `budget`. Errors: those of the
 * stepper's creation and setup. */
sk_status sk__verify_stepper(const sk__verify_ivp *ivp, const char *method, int from_options,
                             int with_sens, double factor, int64_t budget, const double *y0,
                             sk_stepper **s);

/* sk__verify_solve: integrate s from its initial state through the output
 * times; state k goes to out + k n when out is not NULL, and cmp(data, k, y)
 * is told each state when cmp is not NULL. Errors: those of the advance (an
 * interruption named with its time). */
typedef void (*sk__verify_state_fn)(void *data, size_t k, const double *y);
sk_status sk__verify_solve(const sk__verify_ivp *ivp, sk_stepper *s, double *out,
                           sk__verify_state_fn cmp, void *data);

#endif
