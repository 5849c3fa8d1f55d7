/* src/verify/diagnose.c: sk_diagnose: Jacobian eigenvalue estimates along the solution, stiffness ratio, explicit step bounds and a solver recommendation */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/linsol_choice.h"
#include "sparse/eig_estimate.h"
#include "stiffkit/diagnose.h"

static double magnitude(sk_eigenvalue v)
{
  return hypot(v.re, v.im);
}

static void add_reason(sk_diagnose_report *r, const char *fmt, double a, double b)
{
  if (r->nreasons < 4) {
    snprintf(r->reasons[r->nreasons++], sizeof r->reasons[0], fmt, a, b);
  }
}

/* The recommendation and its reasons from the estimates and the run. */
static void recommend(const sk_model *m, sk_diagnose_report *r)
{
  const double n = (double)sk_model_get_n(m);
  const double steps = (double)r->stats.steps;
  const int ratio_small = r->worst_ratio < SK_DIAGNOSE_RATIO_EXPLICIT;
  const int steps_small = r->steps_rk4 < SK_DIAGNOSE_STEPS_FACTOR * (steps > 0 ? steps : 1);
  r->explicit_ok = ratio_small || steps_small;
  add_reason(r,
             ratio_small ? "stiffness ratio %.3g is below %.0f"
                         : "stiffness ratio %.3g is at least %.0f",
             r->worst_ratio, SK_DIAGNOSE_RATIO_EXPLICIT);
  char fmt[200];
  snprintf(fmt, sizeof fmt,
           "an explicit RK4 needs at least %%.4g steps for stability, %s %g x the %%.0f steps "
           "%s took",
           steps_small ? "fewer than" : "more than", SK_DIAGNOSE_STEPS_FACTOR, r->method);
  add_reason(r, fmt, r->steps_rk4, steps);
  if (r->explicit_ok) {
    snprintf(r->recommendation, sizeof r->recommendation,
             "explicit: rk45 (or cvode-adams); no linear algebra is needed");
    snprintf(r->settings, sizeof r->settings, "--set solver.method=rk45");
    return;
  }
  /* the linear solver as linsol.type=auto would choose it for cvode-bdf */
  sk__linsol_choice c;
  const int64_t *cp = NULL, *ri = NULL;
  if (sk_model_has_jacobian(m)) {
    int64_t nnz = 0;
    sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  }
  if (sk__linsol_auto(sk_model_get_context(m), (int64_t)n, cp, ri, "cvode-bdf",
                      sk_model_has_preconditioner(m), 1, &c) != SK_OK) {
    snprintf(r->recommendation, sizeof r->recommendation, "stiff: cvode-bdf");
    snprintf(r->settings, sizeof r->settings, "--set solver.method=cvode-bdf");
    return; /* the symbolic analysis ran out of memory: no solver advice */
  }
  const int model_prec = !strcmp(c.prec, "model");
  snprintf(r->recommendation, sizeof r->recommendation, "stiff: cvode-bdf with %s%s",
           !strcmp(c.linsol, "klu")     ? "the sparse direct solver KLU"
           : !strcmp(c.linsol, "dense") ? "the dense solver"
                                        : "the Krylov solver spgmr",
           model_prec ? ", preconditioner model" : "");
  snprintf(r->settings, sizeof r->settings,
           "--set solver.method=cvode-bdf --set linsol.type=%s%s", c.linsol,
           model_prec ? " --set linsol.preconditioner=model" : "");
  if (r->nreasons < 4) {
    snprintf(r->reasons[r->nreasons++], sizeof r->reasons[0], "%s", c.reason);
  }
}

/* Integrate through the sample times, estimating the spectrum at each. */
sk_status sk_diagnose(sk_stepper *stepper, double t_end, sk_diagnose_report *r)
{
  if (!stepper || !r) {
    return SK_ERR_ARG;
  }
  sk_model *model = sk_stepper_get_user_model(stepper); /* f's Jacobian, not M^-1 f's */
  sk_context *ctx = sk_model_get_context(model);
  memset(r, 0, sizeof *r);
  SK_CHECK(ctx, sk_model_get_kind(model) == SK_MODEL_ODE, SK_ERR_UNSUPPORTED,
           "diagnose estimates the stiffness of ODE models y' = f (the eigenvalues of df/dy); "
           "model '%s' is a DAE F(t, y, y') = 0: run it (ida-bdf) or verify it instead",
           sk_model_get_name(model));
  const double t0 = sk_stepper_get_time(stepper), t1 = t_end;
  r->t0 = t0;
  r->t_end = t1;
  for (int k = 0; k < SK_DIAGNOSE_SAMPLES; k++) {
    sk_diagnose_sample *s = &r->s[k];
    s->t = t0;
    if (k > 0) {
      const double tout = k + 1 == SK_DIAGNOSE_SAMPLES
                              ? t1
                              : t0 + (t1 - t0) * (double)k / (double)(SK_DIAGNOSE_SAMPLES - 1);
      sk_status st = sk_stepper_advance(stepper, tout, &s->t);
      if (st != SK_OK) {
        return st < 0 ? st : SK_ERROR(ctx, st, "diagnosis interrupted at t=%.6e", s->t);
      }
    }
    const double *y = sk_stepper_get_state(stepper);
    /* a relative Ritz residual of 1e-4 places each estimate within 1e-4 of an eigenvalue
     * (normal J), far below what step-size bounds need */
    const sk__eig_params ep = {30, 30, 1e-4};
    SK_CALL(ctx, sk__eig_estimate_model(model, s->t, y, &ep, &s->e));
    s->mag_max = magnitude(s->e.lambda_max);
    s->mag_min = magnitude(s->e.lambda_min);
    s->ratio = s->mag_min > 0 ? s->mag_max / s->mag_min : INFINITY;
    r->worst_max = fmax(r->worst_max, s->mag_max);
    r->worst_ratio = fmax(r->worst_ratio, s->ratio);
    r->nsamples = k + 1;
  }
  sk_stepper_get_stats(stepper, &r->stats);
  r->h_fe = r->worst_max > 0 ? SK_DIAGNOSE_FE_LIMIT / r->worst_max : INFINITY;
  r->h_rk4 = r->worst_max > 0 ? SK_DIAGNOSE_RK4_LIMIT / r->worst_max : INFINITY;
  r->steps_fe = ceil((t1 - t0) / r->h_fe);
  r->steps_rk4 = ceil((t1 - t0) / r->h_rk4);
  snprintf(r->method, sizeof r->method, "%s", sk_stepper_get_type(stepper)->name);
  snprintf(r->linsol, sizeof r->linsol, "%s", sk_stepper_get_linear_solver(stepper));
  snprintf(r->prec, sizeof r->prec, "%s", sk_stepper_get_preconditioner(stepper));
  recommend(model, r);
  return SK_OK;
}
