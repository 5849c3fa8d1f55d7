/* src/steppers/ref_driver.c: the generic driver of the reference steppers: step-size control, advance to tout, budget, monitor, statistics, a DAE's consistent start */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "linsol/linsol_types.h"
#include "steppers/ref_driver.h"

/* Newton tolerance in the WRMS norm of the integration tolerances: 0.1 of
 * the error-test level in adaptive mode (as CVODE), 0.01 in fixed-step
 * mode, where no error test backs it up. */
#define SK__REF_NEWTON_TOL_ADAPTIVE 0.1
#define SK__REF_NEWTON_TOL_FIXED 0.01
/* Consecutive rejections of one step before giving up (adaptive mode). */
#define SK__REF_MAX_REJECT 40
/* Step controller: safety factor and the shrink limit (growth limit per method). */
#define SK__REF_SAFETY 0.9
#define SK__REF_SHRINK 0.2

sk_status sk__ref_create(sk_stepper *s, const sk__ref_method *m)
{
  sk_context *ctx = sk_stepper_get_context(s);
  sk__ref *r = sk__calloc(ctx, 1, sizeof *r);
  SK_CHECK(ctx, r != NULL, SK_ERR_NOMEM, "cannot allocate the stepper '%s'",
           sk_stepper_get_type(s)->name);
  r->s = s;
  r->ctx = ctx;
  r->model = sk_stepper_get_model(s);
  r->n = sk_model_get_n(r->model);
  r->m = m;
  sk_stepper_set_impl(s, r);
  return SK_OK;
}

static void release(sk__ref *r)
{
  sk__free(r->ctx, r->ynew);
  sk__free(r->ctx, r->f);
  sk__free(r->ctx, r->fnew);
  sk__free(r->ctx, r->yprev);
  sk__free(r->ctx, r->fprev);
  for (int k = 0; k < SK__REF_MAX_WORK; k++) {
    sk__free(r->ctx, r->w[k]);
    r->w[k] = NULL;
  }
  r->ynew = r->f = r->fnew = r->yprev = r->fprev = NULL;
  if (r->own_y) {
    sk__free(r->ctx, r->y);
  }
  sk__free(r->ctx, r->yold);
  sk__free(r->ctx, r->fold);
  r->y = r->yold = r->fold = NULL;
  r->own_y = 0;
  sk__newton_destroy(&r->nw);
}

void sk__ref_destroy(sk_stepper *s)
{
  sk__ref *r = sk_stepper_get_impl(s);
  if (!r) {
    return;
  }
  release(r);
  sk__free(r->ctx, r);
  sk_stepper_set_impl(s, NULL);
}

/* A DAE's consistent values at r->t from the guess in r->y and r->f (y'):
 * the state (and the stepper's derivative buffer) take them. */
static sk_status dae_consistent(sk__ref *r)
{
  double *wt = r->w[r->m->nwork - 1];
  for (int64_t i = 0; i < r->n; i++) {
    wt[i] = 1.0 / (r->rtol * fabs(r->y[i]) + (r->atolv ? r->atolv[i] : r->atol));
  }
  SK_CALL(r->ctx, sk__newton_dae_initial(r->nw, r->t, sk_model_get_differential(r->model), wt,
                                         SK__REF_NEWTON_TOL_FIXED, r->y, r->f, &r->st));
  r->f_valid = 1;
  const size_t bytes = (size_t)r->n * sizeof *r->y;
  if (r->own_y) {
    memcpy(sk_stepper_state_buffer(r->s), r->y, bytes);
  }
  double *yp = sk__stepper_derivative_buffer(r->s);
  SK_CHECK(r->ctx, yp != NULL, SK_ERR_NOMEM, "cannot allocate the derivative vector");
  memcpy(yp, r->f, bytes);
  return SK_OK;
}

/* A DAE's start: y0 and the guess y'0 as ida-bdf takes them (a saved pair,
 * else the model's initial values; a y0 given alone is kept, with the
 * model's y'0 as the guess), then consistent values. */
static sk_status dae_start(sk__ref *r)
{
  sk_stepper *s = r->s;
  sk_context *ctx = r->ctx;
  const size_t bytes = (size_t)r->n * sizeof *r->y;
  if (s->have_yp0 && s->have_y0) {
    memcpy(r->f, s->yp, bytes);
  } else if (s->have_y0) {
    double *y0 = sk__calloc(ctx, (size_t)r->n, sizeof *y0);
    SK_CHECK(ctx, y0 != NULL, SK_ERR_NOMEM, "cannot allocate the initial state");
    const sk_status rc = sk_model_eval_dae_initial(r->model, r->t, y0, r->f);
    sk__free(ctx, y0);
    SK_CALL(ctx, rc);
  } else {
    SK_CALL(ctx, sk_model_eval_dae_initial(r->model, r->t, r->y, r->f));
  }
  return dae_consistent(r);
}

sk_status sk__ref_setup(sk_stepper *s)
{
  sk__ref *r = sk_stepper_get_impl(s);
  sk_context *ctx = r->ctx;
  const char *name = sk_stepper_get_type(s)->name;
  release(r);
  const double hfix = sk_stepper_get_fixed_step(s);
  SK_CHECK(ctx, !r->m->fixed_only || hfix > 0, SK_ERR_INPUT,
           "stepper '%s' is a fixed-step method: set solver.fixed_step > 0", name);
  r->fixed = hfix > 0;
  r->hfix = hfix;
  r->dae = sk_model_get_kind(r->model) == SK_MODEL_DAE;
  double h0, hmin, hmax, tstop;
  sk_stepper_get_step_limits(s, &h0, &hmin, &hmax);
  r->h = h0;
  r->hmin = hmin;
  r->hmax = hmax;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, tstop > sk_stepper_get_t0(s), SK_ERR_INPUT,
             "solver.stop_time (%g) must be after solver.t0 (%g)", tstop, sk_stepper_get_t0(s));
  }
  const char *ls = sk_stepper_get_linear_solver(s);
  if (r->m->implicit) {
    char names[64];
    SK_CHECK(ctx, sk__linsol_accepts(ctx, ls, SK__ENGINE_NEWTON, names, sizeof names),
             SK_ERR_UNSUPPORTED,
             "stepper '%s' solves its Newton systems with KLU only: it supports linsol.type = "
             "auto, %s; got %s",
             name, names, ls);
  } else if (strcmp(ls, "auto") && !sk__linsol_is(NULL, ls, SK__LS_NONE)) {
    /* a config written for an implicit engine, run with an explicit one (--set solver.method) */
    sk__log(ctx, SK_LOG_WARN,
            "stepper '%s' is explicit and uses no linear solver: linsol.type = %s and the other "
            "linsol.* settings are ignored",
            name, ls);
  }
  r->rtol = sk_stepper_get_rtol(s);
  r->atol = sk_stepper_get_atol(s);
  r->atolv = sk_stepper_get_atol_vector(s);
  r->t = sk_stepper_get_time(s);
  r->y = sk_stepper_state_buffer(s);
  memset(&r->st, 0, sizeof r->st);
  r->naccepted = 0;
  r->f_valid = 0;
  const size_t n = (size_t)r->n;
  r->ynew = sk__calloc(ctx, n, sizeof(double));
  r->f = sk__calloc(ctx, n, sizeof(double));
  r->fnew = sk__calloc(ctx, n, sizeof(double));
  r->yprev = sk__calloc(ctx, n, sizeof(double));
  r->fprev = sk__calloc(ctx, n, sizeof(double));
  int ok = r->ynew && r->f && r->fnew && r->yprev && r->fprev;
  r->dense = r->m->dense && !r->fixed;
  if (r->dense) {
    r->y = sk__calloc(ctx, n, sizeof(double));
    r->own_y = r->y != NULL;
    r->yold = sk__calloc(ctx, n, sizeof(double));
    r->fold = sk__calloc(ctx, n, sizeof(double));
    ok = ok && r->y && r->yold && r->fold;
    if (r->y) {
      memcpy(r->y, sk_stepper_state_buffer(s), n * sizeof(double));
    }
  }
  for (int k = 0; k < r->m->nwork && k < SK__REF_MAX_WORK; k++) {
    r->w[k] = sk__calloc(ctx, n, sizeof(double));
    ok = ok && r->w[k];
  }
  if (!ok) {
    release(r);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate stepper '%s' for %lld states", name,
                    (long long)n);
  }
  if (r->m->implicit) {
    SK_CALL(ctx, sk__newton_create(ctx, r->model, name, &r->nw));
    if (!r->dae) {
      SK_CALL_STOP(ctx, sk__stepper_jacobian_selftest(s));
    }
  }
  if (r->dae) {
    SK_CALL(ctx, dae_start(r));
  }
  /* report the resolved choices through the generic getters */
  snprintf(s->linsol, sizeof s->linsol, "%s", r->m->implicit ? "klu" : "none");
  snprintf(s->prec, sizeof s->prec, "none");
  snprintf(s->ordering, sizeof s->ordering, "%s", r->m->implicit ? "amd" : "none");
  return SK_OK;
}

sk_status sk__ref_reinit(sk_stepper *s, const double *yp)
{
  sk__ref *r = sk_stepper_get_impl(s);
  double h0, hmin, hmax;
  sk_stepper_get_step_limits(s, &h0, &hmin, &hmax);
  r->h = h0;
  r->t = sk_stepper_get_time(s);
  if (r->own_y) {
    memcpy(r->y, sk_stepper_state_buffer(s), (size_t)r->n * sizeof *r->y);
  }
  r->naccepted = 0;
  r->hprev = 0.0;
  r->f_valid = 0;
  r->fnew_valid = 0;
  if (r->nw) {
    sk__newton_reset(r->nw);
  }
  if (r->dae) { /* consistent values before the next step, from y' given or the last one */
    if (yp) {
      memcpy(r->f, yp, (size_t)r->n * sizeof *yp);
    }
    return dae_consistent(r);
  }
  return SK_OK;
}

sk_status sk__ref_rhs(sk__ref *r, double t, const double *y, double *out)
{
  r->st.rhs_evals++;
  return sk_model_eval_rhs(r->model, t, y, out);
}

sk_status sk__ref_f(sk__ref *r)
{
  if (r->f_valid) {
    return SK_OK;
  }
  if (r->dae) {
    return dae_consistent(r);
  }
  sk_status rc = sk__ref_rhs(r, r->t, r->y, r->f);
  if (rc == SK_OK) {
    r->f_valid = 1;
  }
  return rc;
}

sk_status sk__ref_euler_step(sk__ref *r, double h)
{
  const sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  for (int64_t i = 0; i < r->n; i++) {
    r->ynew[i] = r->y[i] + h * r->f[i];
  }
  r->order = 1;
  return SK_OK;
}

static double atol_of(const sk__ref *r, int64_t i)
{
  return r->atolv ? r->atolv[i] : r->atol;
}

double sk__ref_error_norm(const sk__ref *r, const double *e, const double *y, const double *ynew)
{
  double s = 0.0;
  for (int64_t i = 0; i < r->n; i++) {
    const double sc = atol_of(r, i) + r->rtol * fmax(fabs(y[i]), fabs(ynew[i]));
    const double a = e[i] / sc;
    s += a * a;
  }
  return sqrt(s / (double)r->n);
}

sk_status sk__ref_newton(sk__ref *r, double t, double gamma, const double *psi, double *x)
{
  /* weights from the predictor; w[nwork-1] is reserved for them by implicit methods */
  double *wt = r->w[r->m->nwork - 1];
  for (int64_t i = 0; i < r->n; i++) {
    wt[i] = 1.0 / (r->rtol * fabs(x[i]) + atol_of(r, i));
  }
  const double tol = r->fixed ? SK__REF_NEWTON_TOL_FIXED : SK__REF_NEWTON_TOL_ADAPTIVE;
  return sk__newton_solve(r->nw, t, gamma, psi, wt, tol, x, &r->st);
}

/* A first step size: 0.01 ||y|| / ||f|| in the weighted norm (or 1e-6),
 * limited by the span to tout and by hmax. */
static sk_status initial_step(sk__ref *r, double span)
{
  SK_CALL(r->ctx, sk__ref_f(r));
  const double d0 = sk__ref_error_norm(r, r->y, r->y, r->y);
  const double d1 = sk__ref_error_norm(r, r->f, r->y, r->y);
  double h = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 * fmax(span, 1e-300) : 0.01 * d0 / d1;
  if (r->m->implicit) {
    h *= 0.1; /* implicit methods start at order 1 */
  }
  h = fmin(h, span);
  if (r->hmax > 0) {
    h = fmin(h, r->hmax);
  }
  if (r->hmin > 0) {
    h = fmax(h, r->hmin);
  }
  r->h = h;
  return SK_OK;
}

static double controller_factor(const sk__ref *r, double err)
{
  if (err <= 0.0) {
    return r->m->max_growth;
  }
  const double fac = SK__REF_SAFETY * pow(err, -1.0 / (double)(r->q + 1));
  return fmin(r->m->max_growth, fmax(SK__REF_SHRINK, fac));
}

/* One accepted step toward tout (clipped so as not to pass tout when
 * `clip`, and never past the stop time). On failure r->y and r->t are
 * those of the last successful step. */
static sk_status one_step(sk__ref *r, double tout, int clip)
{
  sk_stepper *s = r->s;
  sk_context *ctx = r->ctx;
  const char *name = sk_stepper_get_type(s)->name;
  const int64_t budget = sk_stepper_get_max_steps(s);
  if (budget > 0 && r->st.steps >= budget) {
    return sk__stepper_budget_error(s, r->t, r->st.last_h, r->st.steps);
  }
  double tend = tout, tstop;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, r->t < tstop, SK_ERR_ARG, "cannot step past solver.stop_time %.6e", tstop);
    if (!clip || tstop < tend) {
      tend = tstop;
      clip = 1;
    }
  }
  if (!r->fixed && r->h <= 0) {
    SK_CALL(ctx, initial_step(r, tend - r->t));
  }
  for (int rejects = 0;; rejects++) {
    double h = r->fixed ? r->hfix : r->h;
    int clipped = 0;
    /* land on tend exactly; a step within 1e-8 h (fixed) or 10% (adaptive)
     * short of it is stretched rather than followed by a sliver */
    const double stretch = r->fixed ? 1e-8 : 0.1;
    if (clip && r->t + h * (1.0 + stretch) >= tend) {
      h = tend - r->t;
      clipped = 1;
    }
    SK_CHECK(ctx, r->t + h > r->t, SK_ERR_STEP_SIZE,
             "stepper '%s': step size underflow at t=%.6e (h=%.3e): t + h == t", name, r->t, h);
    double err = 0.0;
    r->fnew_valid = 0;
    r->q = 1;
    sk_status rc = r->m->attempt(r, h, &err);
    if (rc < 0) {
      return rc;
    }
    if (rc == SK_RECOVERABLE) {
      const int newton = r->m->implicit;
      if (r->fixed) {
        if (newton) {
          return SK_ERROR(ctx, SK_ERR_CONV,
                          "stepper '%s': Newton iteration failed at t=%.6e with the fixed step "
                          "h=%.3e (or the model asked to cut the step); try a smaller "
                          "solver.fixed_step or an adaptive method",
                          name, r->t, h);
        }
        return SK_ERROR(ctx, SK_ERR_CALLBACK,
                        "stepper '%s': the model's right-hand side asked to cut the step at "
                        "t=%.6e, but the step h=%.3e is fixed (solver.fixed_step)",
                        name, r->t, h);
      }
      r->st.failed_steps++;
      r->h = 0.25 * h;
    } else if (!r->fixed && err > 1.0) {
      r->st.failed_steps++;
      r->h = h * controller_factor(r, err);
    } else {
      /* accept */
      if (r->m->accepted) {
        r->m->accepted(r, h);
      }
      if (r->dense) {
        memcpy(r->yold, r->y, (size_t)r->n * sizeof *r->y);
        memcpy(r->fold, r->f, (size_t)r->n * sizeof *r->f);
        r->told = r->t;
      }
      memcpy(r->y, r->ynew, (size_t)r->n * sizeof *r->y);
      r->t = clipped ? tend : r->t + h;
      s->t = r->t;
      if (r->own_y) {
        memcpy(sk_stepper_state_buffer(s), r->y, (size_t)r->n * sizeof *r->y);
      }
      if (r->fnew_valid) {
        double *tmp = r->f;
        r->f = r->fnew;
        r->fnew = tmp;
        r->f_valid = 1;
      } else {
        r->f_valid = 0;
      }
      if (r->dae) { /* the stepper's y' (a checkpoint saves it) follows the state */
        memcpy(s->yp, r->f, (size_t)r->n * sizeof *r->f);
      }
      r->naccepted++;
      r->st.steps++;
      r->st.last_h = h;
      r->st.last_order = r->order;
      if (!r->fixed) {
        const double hn = h * controller_factor(r, err);
        r->h = clipped ? fmax(r->h, hn) : hn;
        if (r->hmax > 0) {
          r->h = fmin(r->h, r->hmax);
        }
      }
      return sk__stepper_after_step(s, r->t, h);
    }
    if (r->hmin > 0 && r->h < r->hmin) {
      return SK_ERROR(ctx, rc == SK_RECOVERABLE ? SK_ERR_CONV : SK_ERR_ERR_TEST,
                      "stepper '%s': the step size fell below solver.hmin=%.3e at t=%.6e", name,
                      r->hmin, r->t);
    }
    if (rejects + 1 >= SK__REF_MAX_REJECT) {
      return SK_ERROR(ctx, rc == SK_RECOVERABLE ? SK_ERR_CONV : SK_ERR_ERR_TEST,
                      "stepper '%s': %d consecutive step failures at t=%.6e (last h=%.3e)", name,
                      SK__REF_MAX_REJECT, r->t, h);
    }
  }
}

sk_status sk__ref_step(sk_stepper *s, double tout, double *tret)
{
  sk__ref *r = sk_stepper_get_impl(s);
  sk_status rc = one_step(r, tout, 0);
  if (rc != SK_OK && r->own_y) {
    memcpy(sk_stepper_state_buffer(s), r->y, (size_t)r->n * sizeof *r->y);
    s->t = r->t;
  }
  *tret = r->t;
  return rc;
}

/* Dense output at tout in [told, t]: Hermite cubic through (y, f) at both
 * ends of the last step, theta = (tout - told) / h:
 *   y(tout) = (2th^3 - 3th^2 + 1) y0 + (th^3 - 2th^2 + th) h f0
 *           + (-2th^3 + 3th^2) y1 + (th^3 - th^2) h f1
 * written to the stepper's state buffer, whose time becomes tout. */
static sk_status interpolate(sk__ref *r, double tout)
{
  SK_CALL(r->ctx, sk__ref_f(r));
  const double h = r->t - r->told, th = (tout - r->told) / h;
  const double th2 = th * th, th3 = th2 * th;
  const double c0 = 2 * th3 - 3 * th2 + 1, d0 = h * (th3 - 2 * th2 + th);
  const double c1 = -2 * th3 + 3 * th2, d1 = h * (th3 - th2);
  double *out = sk_stepper_state_buffer(r->s);
  for (int64_t i = 0; i < r->n; i++) {
    out[i] = c0 * r->yold[i] + d0 * r->fold[i] + c1 * r->y[i] + d1 * r->f[i];
  }
  r->s->t = tout;
  return SK_OK;
}

sk_status sk__ref_advance(sk_stepper *s, double tout, double *tret)
{
  sk__ref *r = sk_stepper_get_impl(s);
  double tstop;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(r->ctx, tout <= tstop, SK_ERR_ARG,
             "output time %.6e lies beyond solver.stop_time %.6e", tout, tstop);
  }
  sk_status rc = SK_OK;
  while (r->t < tout) {
    rc = one_step(r, tout, !r->dense);
    if (rc != SK_OK) {
      break;
    }
  }
  if (rc == SK_OK && r->dense && r->t > tout) {
    /* the internal state ran past tout (now, or in an earlier one-step call) */
    rc = interpolate(r, tout);
    *tret = tout;
    return rc;
  }
  if (rc != SK_OK && r->own_y) {
    /* the state at the last successful step, as the contract says */
    memcpy(sk_stepper_state_buffer(s), r->y, (size_t)r->n * sizeof *r->y);
    s->t = r->t;
  }
  *tret = s->t;
  return rc;
}

sk_status sk__ref_get_stats(sk_stepper *s, sk_stats *st)
{
  sk__ref *r = sk_stepper_get_impl(s);
  const double t = st->t;
  *st = r->st;
  st->t = t;
  return SK_OK;
}
