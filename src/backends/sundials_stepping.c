/* src/backends/sundials_stepping.c: the stepping loop the SUNDIALS integrators share: step budget, stop time, one package step, events and restart, interpolation to output times */
#include "backends/sundials_backend.h"
#include "core/error.h"
#include "steppers/stepper_impl.h"

sk_status sk__sun_one_step(sk_stepper *s, const sk__sun_engine *e, double tout, double *t,
                           int clamp)
{
  sk_context *ctx = sk_stepper_get_context(s);
  const int64_t nst = e->total_steps(e->eng);
  const int64_t budget = sk_stepper_get_max_steps(s);
  if (budget > 0 && nst >= budget) {
    return sk__stepper_budget_error(s, *t, e->last_step(e->eng), nst);
  }
  double tstop;
  const int has_stop = sk_stepper_get_stop_time(s, &tstop);
  if (has_stop) {
    SK_CHECK(ctx, *t < tstop, SK_ERR_ARG, "cannot step past solver.stop_time %.6e", tstop);
  }
  /* with clamp, never past tout: no event is then found beyond an output time */
  const double stop = has_stop && (!clamp || tstop < tout) ? tstop : tout;
  double tret = *t;
  int root = 0;
  const sk_status st = e->step(e->eng, tout, has_stop || clamp, stop, &tret, &root);
  /* after a failure the package holds the last successful step's state and time */
  *t = tret;
  s->t = tret;
  SK_CALL(ctx, st);
  const double h = e->last_step(e->eng);
  if (tret + h == tret) {
    return SK_ERROR(ctx, SK_ERR_STEP_SIZE,
                    "step size underflow at t=%.6e (h=%.3e): t + h == t in double precision; the "
                    "solution may have a singularity here, or the tolerances are too tight",
                    tret, h);
  }
  if (root) { /* an event: log it, let the model switch, restart (the model may jump here);
                 events without an action change nothing, and the integration goes on */
    SK_CALL(ctx, e->roots(e->eng, e->fired));
    SK_CALL(ctx, sk__stepper_events_fired(s, tret, e->fired));
    if (sk_model_has_event_action(sk_stepper_get_model(s))) {
      SK_CALL(ctx, e->restart(e->eng, tret));
    }
  }
  return sk__stepper_after_step(s, tret, h);
}

sk_status sk__sun_advance(sk_stepper *s, const sk__sun_engine *e, double tout, double *tret)
{
  sk_context *ctx = sk_stepper_get_context(s);
  double tstop;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, tout <= tstop, SK_ERR_ARG, "output time %.6e lies beyond solver.stop_time %.6e",
             tout, tstop);
  }
  /* the package's internal time may already be past tout (one-step mode) */
  double t = e->current_time(e->eng);
  const int clamp = sk_model_get_nevents(sk_stepper_get_model(s)) > 0;
  sk_status rc = SK_OK;
  while (t < tout && rc == SK_OK) {
    rc = sk__sun_one_step(s, e, tout, &t, clamp);
  }
  if (rc != SK_OK) {
    *tret = sk_stepper_get_time(s); /* the state of the last successful step */
    return rc;
  }
  /* also at t == tout: when an earlier call already stepped onto tout (a stop time) and
     then interpolated back to its own output, the state buffer holds that output */
  if (t >= tout) {
    SK_CALL(ctx, e->interpolate(e->eng, tout));
  }
  s->t = tout;
  *tret = tout;
  return SK_OK;
}
