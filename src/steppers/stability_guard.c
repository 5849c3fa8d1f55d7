/* src/steppers/stability_guard.c: the run-time guards of every stepper: an explicit fixed step against the method's stability region at the Jacobian's dominant eigenvalue, and the blow-up check of the state */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_dist.h"
#include "sparse/eig_estimate.h"
#include "steppers/stepper_impl.h"

/* The dominant mode grows in the problem itself when Re lambda exceeds this
 * fraction of |lambda| (the accuracy of the estimate: an eigenvalue within
 * it of the imaginary axis counts as an oscillation). */
#define SK__GUARD_GROWING 1e-3
/* A ray that leaves the region within |h lambda| < SK__GUARD_TANGENT meets it
 * only at 0; there the limit is where |zeta| reaches 1 + SK__GUARD_WEAK. */
#define SK__GUARD_TANGENT 0.1
#define SK__GUARD_WEAK 1e-3
/* Arnoldi settings: the check at t0 converges to 1e-6, the repeated ones
 * to 1e-3 in at most 5 cycles (the decision needs a few digits); the
 * Krylov dimension is 20, or 10 above SK__GUARD_LARGE_N states (memory:
 * dimension + 2 vectors of n). */
#define SK__GUARD_LARGE_N 100000

double sk__guard_step_limit(const sk_stability_method *m, double re, double im, int *weak)
{
  *weak = 0;
  const double mag = hypot(re, im);
  if (!(mag > 0) || !isfinite(mag) || re > SK__GUARD_GROWING * mag) {
    return INFINITY;
  }
  const double h = sk_stability_ray_limit(m, re, fabs(im), 0.0);
  if (h * mag >= SK__GUARD_TANGENT) {
    return h;
  }
  *weak = 1;
  return sk_stability_ray_limit(m, re, fabs(im), SK__GUARD_WEAK);
}

/* The explicit methods the stability table knows, run with a fixed step.
 * Implicit fixed-step methods need no guard: beuler, trap and bdf2 are
 * A-stable (tests/unit/test_stability.c checks it), so no step is unstable
 * on a decaying mode. Adaptive explicit runs (rk45 without a fixed step)
 * have their error test: an unstable step fails it and the step shrinks.
 * verlet (a partitioned method for second-order models) and user-registered
 * types are not in the table and go unchecked. */
static int eig_guarded(const sk_stepper *s, sk_stability_method *m)
{
  const unsigned f = s->type->flags;
  return s->fixed_step > 0 && (f & SK_STEPPER_EXPLICIT) && !(f & SK_STEPPER_IMPLICIT) &&
         sk_model_get_kind(s->model) == SK_MODEL_ODE &&
         sk_stability_method_get(s->type->name, m) == 0;
}

/* Estimate the dominant eigenvalue at (t, y) and compare the step with the
 * limit it gives. */
static sk_status eig_check(sk_stepper *s, double t, int first)
{
  sk__guard *g = &s->guard;
  sk_context *ctx = s->ctx;
  const int64_t n = sk_model_get_n(s->model);
  const sk__eig_params p = {n > SK__GUARD_LARGE_N ? 10 : 20, first ? 30 : 5, first ? 1e-6 : 1e-3};
  sk_eig_estimate est;
  const int64_t before = sk_model_get_rhs_evals(s->model);
  const sk_status rc = sk__eig_estimate_largest(s->model, t, s->y, &p, &est);
  g->rhs_evals += sk_model_get_rhs_evals(s->model) - before;
  if (rc == SK_ERR_SOLVER) { /* the small eigenproblem did not converge: nothing to compare */
    sk__log(ctx, SK_LOG_WARN, "%s: the stability check at t=%g found no eigenvalue estimate (%s)",
            s->type->name, t, sk_context_get_error(ctx)->message);
    sk_context_clear_error(ctx);
    return SK_OK;
  }
  SK_CALL(ctx, rc);
  const double moved =
      hypot(est.lambda_max.re - g->lambda_re, fabs(est.lambda_max.im) - g->lambda_im);
  const int same = !first && moved <= SK__GUARD_SAME * hypot(g->lambda_re, g->lambda_im);
  g->interval =
      same ? (g->interval < SK__GUARD_CHECK_MAX / 2 ? 2 * g->interval : SK__GUARD_CHECK_MAX)
           : SK__GUARD_CHECK_EVERY;
  g->lambda_re = est.lambda_max.re;
  g->lambda_im = fabs(est.lambda_max.im);
  int weak = 0;
  g->limit = sk__guard_step_limit(&g->method, g->lambda_re, g->lambda_im, &weak);
  const double h = s->fixed_step;
  if (h <= g->limit) {
    return SK_OK;
  }
  const double mag = hypot(g->lambda_re, g->lambda_im);
  char lam[96];
  if (g->lambda_im > 1e-8 * mag) {
    snprintf(lam, sizeof lam, "%.3e +/- %.3ei", g->lambda_re, g->lambda_im);
  } else {
    snprintf(lam, sizeof lam, "%.3e", g->lambda_re);
  }
  char msg[640];
  snprintf(msg, sizeof msg,
           "%s is unstable for h > %.3e here (the Jacobian's dominant eigenvalue at t=%g is "
           "lambda = %s, |lambda| = %.3e by restarted Arnoldi, and h lambda must stay in the "
           "method's stability region: %s%.4g in this direction, see `stiffkit stability %s`); "
           "h = %.3e (solver.fixed_step)",
           s->type->name, g->limit, t, lam, mag,
           weak ? "it meets this direction only at 0, and a spurious growth of at most 1e-3 "
                  "per step allows |h lambda| <= "
                : "|h lambda| <= ",
           g->limit * mag, s->type->name, h);
  if (!s->allow_unstable) {
    return SK_ERROR(ctx, SK_ERR_UNSTABLE, "%s; set solver.allow_unstable=true to run anyway",
                    msg);
  }
  if (!g->warned) {
    sk__log(ctx, SK_LOG_WARN, "%s; running anyway (solver.allow_unstable=true)", msg);
    g->warned = 1;
  }
  g->eig_active = 0; /* allowed: the later checks could only warn again */
  return SK_OK;
}

sk_status sk__guard_setup(sk_stepper *s)
{
  sk__guard *g = &s->guard;
  const int64_t n = sk_model_get_n(s->model);
  memset(g, 0, sizeof *g);
  g->limit = INFINITY;
  double scale = 1.0;
  for (int64_t i = 0; i < n; i++) {
    scale = fmax(scale, fabs(s->y[i])); /* a NaN is skipped; the model checked y0 */
  }
  const sk__model_distribution *dist = sk__model_get_distribution(s->model);
  g->scale = dist ? dist->max(dist->data, scale) : scale; /* every rank's block */
  g->eig_active = eig_guarded(s, &g->method);
  g->interval = SK__GUARD_CHECK_EVERY;
  g->next_check = SK__GUARD_CHECK_EVERY;
  if (g->eig_active) {
    SK_CALL(s->ctx, eig_check(s, s->t0, 1));
  }
  return SK_OK;
}

sk_status sk__guard_reinit(sk_stepper *s)
{
  sk__guard *g = &s->guard;
  const int64_t n = sk_model_get_n(s->model);
  for (int64_t i = 0; i < n; i++) {
    g->scale = fmax(g->scale, fabs(s->y[i]));
  }
  if (g->eig_active) {
    g->interval = SK__GUARD_CHECK_EVERY;
    g->next_check = s->steps_seen + SK__GUARD_CHECK_EVERY;
    SK_CALL(s->ctx, eig_check(s, s->t0, 1));
  }
  return SK_OK;
}

/* The first component that is non-finite or beyond the growth limit. */
static sk_status blowup(sk_stepper *s, double t, int64_t i, double lim)
{
  char name[96];
  sk_model_component_name(s->model, i, name, sizeof name);
  const double v = s->y[i];
  const int64_t comp = sk__model_global_index(s->model, i); /* a distributed model's block */
  if (!isfinite(v)) {
    return SK_ERROR(s->ctx, SK_ERR_BLOWUP,
                    "%s: the state became non-finite at t=%.6e: component %lld (%s) is %g; the "
                    "step is probably unstable (a smaller solver.fixed_step or a stiff method "
                    "such as cvode-bdf), or the model's solution blows up here",
                    s->type->name, t, (long long)comp, name, v);
  }
  return SK_ERROR(s->ctx, SK_ERR_BLOWUP,
                  "%s: the state blew up at t=%.6e: component %lld (%s) = %.3e exceeds "
                  "solver.max_growth = %g times max(|y0|, 1) = %.3e; the step is probably "
                  "unstable (a smaller solver.fixed_step or a stiff method such as cvode-bdf), "
                  "or the model's solution blows up here (raise solver.max_growth, or 0 to "
                  "switch the check off)",
                  s->type->name, t, (long long)comp, name, v, s->max_growth, lim);
}

/* The blow-up check of this process's state. */
static sk_status check_growth(sk_stepper *s, double t)
{
  sk__guard *g = &s->guard;
  const int64_t n = sk_model_get_n(s->model);
  /* without a growth limit only non-finite values stop the run (Inf > DBL_MAX) */
  const double lim = s->max_growth > 0 ? s->max_growth * g->scale : DBL_MAX;
  const double *y = s->y;
  const int *id = sk_model_get_differential(s->model);
  for (int64_t i = 0; i < n; i++) {
    /* an algebraic variable of a DAE (a Lagrange multiplier, a pressure) takes the scale
       its constraint gives it, unrelated to y0 (often 0 at a consistent start): only a
       non-finite value counts there; a blow-up shows in the differential variables */
    if (!(fabs(y[i]) <= lim) && (!id || id[i] || !isfinite(y[i]))) {
      return blowup(s, t, i, lim);
    }
  }
  return SK_OK;
}

sk_status sk__guard_after_step(sk_stepper *s, double t, int64_t steps)
{
  sk__guard *g = &s->guard;
  const sk__model_distribution *dist = sk__model_get_distribution(s->model);
  const sk_status rc = check_growth(s, t);
  SK_CALL(s->ctx, dist ? dist->agree(dist->data, rc) : rc); /* every rank stops, or none */
  if (g->eig_active && steps >= g->next_check) {
    SK_CALL(s->ctx, eig_check(s, t, 0));
    g->next_check = steps + g->interval;
  }
  return SK_OK;
}
