/* src/backends/sundials_stepping.c: the stepping loop the SUNDIALS integrators share: step budget, stop time, one package call (one-step or normal mode), events and restart */
#include "backends/sundials_backend.h"
#include "core/error.h"
#include "steppers/stepper_impl.h"

/* One package call toward tout (normal: as sk__sun_engine.step) under the stepper's step
 * budget and stop time; then the step size check, the event (logged, the model's action,
 * a restart) and, when the call took a step, the after-step hook. *reached = 1 when the
 * state buffer holds the state at tout (normal mode). */
static sk_status package_call(sk_stepper *s, const sk__sun_engine *e, double tout, int normal,
                              double *t, int *reached)
{
  sk_context *ctx = sk_stepper_get_context(s);
  *reached = 0;
  const int64_t nst = e->total_steps(e->eng);
  const int64_t budget = sk_stepper_get_max_steps(s);
  /* in normal mode a package already past tout interpolates (or returns an event up to
     tout): no step, so the spent budget does not stop it */
  if (budget > 0 && nst >= budget && !(normal && e->current_time(e->eng) >= tout)) {
    return sk__stepper_budget_error(s, *t, e->last_step(e->eng), nst);
  }
  double tstop;
  const int has_stop = sk_stepper_get_stop_time(s, &tstop);
  if (has_stop && !normal) { /* sk__sun_advance checks tout <= tstop instead */
    SK_CHECK(ctx, *t < tstop, SK_ERR_ARG, "cannot step past solver.stop_time %.6e", tstop);
  }
  double tret = *t;
  sk__sun_return what = SK__SUN_STEPPED;
  const sk_status st = e->step(e->eng, tout, normal, has_stop, tstop, &tret, &what);
  /* after a failure the package holds the last successful step's state and time */
  *t = tret;
  s->t = tret;
  SK_CALL(ctx, st);
  const int stepped = e->total_steps(e->eng) > nst;
  const double h = e->last_step(e->eng);
  const double tn = e->current_time(e->eng);
  if (stepped && tn + h == tn) {
    return SK_ERROR(ctx, SK_ERR_STEP_SIZE,
                    "step size underflow at t=%.6e (h=%.3e): t + h == t in double precision; the "
                    "solution may have a singularity here, or the tolerances are too tight",
                    tn, h);
  }
  if (what == SK__SUN_ROOT) { /* an event: log it, let the model switch, restart (the model
                                 may jump here); events without an action change nothing,
                                 and the integration goes on */
    SK_CALL(ctx, e->roots(e->eng, e->fired));
    SK_CALL(ctx, sk__stepper_events_fired(s, tret, e->fired));
    if (sk_stepper_get_event_stop(s, NULL)) { /* the model ended the run here */
      *t = tret;
      *reached = 1;
      return stepped ? sk__stepper_after_step(s, tret, h) : SK_OK;
    }
    if (sk_model_has_event_action(sk_stepper_get_model(s))) {
      SK_CALL(ctx, e->restart(e->eng, tret));
    }
  }
  /* an event exactly at tout is the output too (after a restart there the package could
     not be asked for tout again) */
  *reached = normal && (what == SK__SUN_REACHED || tret >= tout);
  return stepped ? sk__stepper_after_step(s, tret, h) : SK_OK;
}

sk_status sk__sun_check_adaptive(sk_stepper *s)
{
  const double h = sk_stepper_get_fixed_step(s);
  SK_CHECK(sk_stepper_get_context(s), h == 0.0, SK_ERR_UNSUPPORTED,
           "solver.fixed_step = %g: %s chooses its own step sizes (SUNDIALS has no fixed-step "
           "mode); fixed steps are taken by stiffkit's reference methods (`stiffkit info` lists "
           "the stepper types), and solver.hmax bounds %s's steps",
           h, sk_stepper_get_type(s)->name, sk_stepper_get_type(s)->name);
  return SK_OK;
}

sk_status sk__sun_one_step(sk_stepper *s, const sk__sun_engine *e, double tout, double *t)
{
  int reached;
  return package_call(s, e, tout, 0, t, &reached);
}

sk_status sk__sun_advance(sk_stepper *s, const sk__sun_engine *e, double tout, double *tret)
{
  sk_context *ctx = sk_stepper_get_context(s);
  double tstop;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, tout <= tstop, SK_ERR_ARG, "output time %.6e lies beyond solver.stop_time %.6e",
             tout, tstop);
  }
  double t = sk_stepper_get_time(s);
  int reached = 0;
  sk_status rc = SK_OK;
  while (!reached && rc == SK_OK) {
    rc = package_call(s, e, tout, 1, &t, &reached);
  }
  if (rc != SK_OK) { /* an error or an interruption: the state buffer's time */
    *tret = sk_stepper_get_time(s);
    return rc;
  }
  if (sk_stepper_get_event_stop(s, tret)) { /* an event ended the run before tout */
    s->t = *tret;
    return SK_OK;
  }
  s->t = tout;
  *tret = tout;
  return SK_OK;
}
