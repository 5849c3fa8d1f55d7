/* tests/parity/cvroberts.h: the Robertson problem of SUNDIALS' cvRoberts_* examples (RHS, root functions, initial state) and their printing of outputs and roots, for the parity tests */
#ifndef SK_TEST_CVROBERTS_H
#define SK_TEST_CVROBERTS_H

#include "parity/parity.h"

/* The examples' problem:
 *   y1' = -0.04 y1 + 1e4 y2 y3
 *   y2' =  0.04 y1 - 1e4 y2 y3 - 3e7 y2^2
 *   y3' =  3e7 y2^2
 * from y = (1, 0, 0) at t = 0, root functions g1 = y1 - 1e-4 and
 * g2 = y3 - 0.01, CVode(CV_NORMAL) at tout = 0.4 10^k, k = 0..11. */
#define CVROBERTS_NOUT 12
#define CVROBERTS_NROWS (CVROBERTS_NOUT + 2 * 2) /* the outputs, and two lines per root */

typedef struct {
  long root_evals; /* the examples' "nge": sk_stats has no such counter */
} cvroberts;

/* the examples' f, in their order of operations */
static inline int cvroberts_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  const double yd1 = ydot[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2];
  const double yd3 = ydot[2] = 3.0e7 * y[1] * y[1];
  ydot[1] = -yd1 - yd3;
  return 0;
}

static inline int cvroberts_roots(double t, const double *y, double *g, void *ud)
{
  (void)t;
  cvroberts *r = ud;
  r->root_evals++;
  g[0] = y[0] - 0.0001;
  g[1] = y[2] - 0.01;
  return 0;
}

static inline int cvroberts_initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.0;
  return 0;
}

/* The rows as the examples print them, and the events seen so far. */
/* cvroberts_model: the Roberts model of both CVODE examples (RHS, initial
 * values, the two root functions) with the example's Jacobian pattern and
 * values; r is the user data. NULL (with the error in ctx) on a failure. */
static inline sk_model *cvroberts_model(sk_context *ctx, const char *name, cvroberts *r,
                                        const int64_t *colptr, const int64_t *rowind,
                                        sk_jac_values_fn jac)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  if (!m) {
    return NULL;
  }
  CHECK_OK(ctx, sk_model_set_name(m, name));
  CHECK_OK(ctx, sk_model_set_user_data(m, r, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, cvroberts_rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, cvroberts_initial));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  CHECK_OK(ctx, sk_model_set_jac_values(m, jac));
  CHECK_OK(ctx, sk_model_set_events(m, 2, cvroberts_roots, NULL));
  return m;
}

typedef struct {
  parity_printout out;
  size_t events_seen;
} cvroberts_printout;

static inline void cvroberts_print_state(cvroberts_printout *p, double t, const double *y)
{
  parity_add_row(&p->out, "At t = %0.4e      y =%14.6e  %14.6e  %14.6e", t, y[0], y[1], y[2]);
}

/* The events logged since the last call, as the examples' root rows: the
 * state at the event, then rootsfound[] (+1 rising, -1 falling, 0 not). */
static inline void cvroberts_print_events(cvroberts_printout *p, const sk_stepper *s, double t,
                                          const double *y)
{
  const sk_event_record *ev;
  size_t n;
  sk_stepper_get_events(s, &ev, &n);
  while (p->events_seen < n) {
    const double te = ev[p->events_seen].t;
    int found[2] = {0, 0};
    while (p->events_seen < n && ev[p->events_seen].t == te) {
      found[ev[p->events_seen].index] = ev[p->events_seen].direction;
      p->events_seen++;
    }
    /* the monitor runs after the step that stopped at the event, with the state there */
    CHECK(te == t);
    cvroberts_print_state(p, te, y);
    parity_add_row(&p->out, "    rootsfound[] = %3d %3d", found[0], found[1]);
  }
}

/* sk_monitor_fn: user_data is the cvroberts_printout */
static inline int cvroberts_monitor(const sk_stepper *s, double t, double h, void *ud)
{
  (void)h;
  cvroberts_print_events(ud, s, t, sk_stepper_get_state(s));
  return 0;
}

/* cvroberts_run: the examples' output loop on a set-up stepper: advance to
 * every tout, printing the roots located on the way and the state there.
 * Counts failures. */
static inline void cvroberts_run(sk_context *ctx, sk_stepper *s, cvroberts_printout *p)
{
  CHECK_OK(ctx, sk_stepper_set_monitor(s, cvroberts_monitor, p));
  double tout = 0.4;
  for (int k = 0; k < CVROBERTS_NOUT; k++, tout *= 10.0) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(s, tout, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    /* an event the monitor did not see (a package call that returned it without a step)
       would show here, failing the check in cvroberts_print_events: its state is gone */
    cvroberts_print_events(p, s, sk_stepper_get_time(s), sk_stepper_get_state(s));
    cvroberts_print_state(p, t, sk_stepper_get_state(s));
  }
}

#endif
