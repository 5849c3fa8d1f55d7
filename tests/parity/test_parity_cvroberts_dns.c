/* tests/parity/test_parity_cvroberts_dns.c: SUNDIALS' example cvRoberts_dns (ROBER with two root functions) through stiffkit's public API, against the example's published output */

#include "parity/parity.h"

/* The example (examples/cvode/serial/cvRoberts_dns.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): the Robertson kinetics
 *   y1' = -0.04 y1 + 1e4 y2 y3
 *   y2' =  0.04 y1 - 1e4 y2 y3 - 3e7 y2^2
 *   y3' =  3e7 y2^2
 * from y = (1, 0, 0) at t = 0, CVODE BDF, rtol 1e-4, atol (1e-8, 1e-14,
 * 1e-6), dense linear solver with the analytic Jacobian, root functions
 * g1 = y1 - 1e-4 and g2 = y3 - 0.01, CVode(CV_NORMAL) at tout = 0.4 10^k,
 * k = 0..11, printing the state at every return (output time or root).
 *
 * stiffkit's sk_stepper_advance must behave as CV_NORMAL does: step past
 * the output times and interpolate, stopping only at a root, so that the
 * run takes exactly the example's steps. (Before the fix it set a stop
 * time at every output time of a model with events: 585 steps, and the
 * second root at 2.0780e+07.) The packaged SUNDIALS vector kernels are
 * used (solver.fast_vector_ops = false), as in the published run, and the
 * Jacobian self-test is off (the example has none; it changes no CVODE
 * counter, but keeps the run the example's).
 *
 * Expected values: the published output, cvRoberts_dns.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/cvode/serial/cvRoberts_dns.out),
 * quoted here; when that file is installed (SK_CVROBERTS_DNS_OUT, found at
 * configure time), the quote is also checked against it. Its rows:
 *
 *   At t = 2.6391e-01      y =  9.899653e-01    3.470564e-05    1.000000e-02
 *       rootsfound[] =   0   1
 *   At t = 4.0000e-01      y =  9.851641e-01    3.386242e-05    1.480205e-02
 *   ...
 *   At t = 2.0790e+07      y =  1.000000e-04    4.000397e-10    9.999000e-01
 *       rootsfound[] =  -1   0
 *   ...
 *   At t = 4.0000e+10      y =  6.934511e-08    2.773804e-13    9.999999e-01
 *
 * and its final statistics: Steps = 542, Error test fails = 22, NLS step
 * fails = 0, Last step size = 4747036977.219155, Last method order = 4,
 * RHS fn evals = 754, NLS iters = 751, NLS fails = 3, LS setups = 107,
 * Jac fn evals = 11, LS RHS fn evals = 0, Root fn evals = 570 (counted
 * here in the root function itself: sk_stats has no such counter; NLS
 * step fails has none either, and is only checked against the file). */

#define NOUT 12
#define NROWS (NOUT + 2 * 2) /* the outputs, and two lines per root */

static const char *const published_rows[NROWS] = {
    "At t = 2.6391e-01      y =  9.899653e-01    3.470564e-05    1.000000e-02",
    "    rootsfound[] =   0   1",
    "At t = 4.0000e-01      y =  9.851641e-01    3.386242e-05    1.480205e-02",
    "At t = 4.0000e+00      y =  9.055097e-01    2.240338e-05    9.446793e-02",
    "At t = 4.0000e+01      y =  7.158017e-01    9.185037e-06    2.841892e-01",
    "At t = 4.0000e+02      y =  4.505360e-01    3.223271e-06    5.494608e-01",
    "At t = 4.0000e+03      y =  1.832299e-01    8.944378e-07    8.167692e-01",
    "At t = 4.0000e+04      y =  3.898902e-02    1.622006e-07    9.610108e-01",
    "At t = 4.0000e+05      y =  4.936383e-03    1.984224e-08    9.950636e-01",
    "At t = 4.0000e+06      y =  5.168093e-04    2.068293e-09    9.994832e-01",
    "At t = 2.0790e+07      y =  1.000000e-04    4.000397e-10    9.999000e-01",
    "    rootsfound[] =  -1   0",
    "At t = 4.0000e+07      y =  5.202440e-05    2.081083e-10    9.999480e-01",
    "At t = 4.0000e+08      y =  5.201061e-06    2.080435e-11    9.999948e-01",
    "At t = 4.0000e+09      y =  5.258603e-07    2.103442e-12    9.999995e-01",
    "At t = 4.0000e+10      y =  6.934511e-08    2.773804e-13    9.999999e-01",
};

/* the published "Final Statistics" (label as printed, value) */
static const parity_stat published_stats[] = {
    {"Steps", 542},           {"Error test fails", 22},
    {"NLS step fails", 0},    {"Last step size", 4747036977.219155},
    {"Last method order", 4}, {"RHS fn evals", 754},
    {"NLS iters", 751},       {"NLS fails", 3},
    {"LS setups", 107},       {"Jac fn evals", 11},
    {"LS RHS fn evals", 0},   {"Root fn evals", 570},
};

static const parity_quote published = {"cvRoberts_dns.out", published_rows, NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0])};

typedef struct {
  long root_evals;
} rober;

static int rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  /* the example's expressions, in its order */
  const double yd1 = ydot[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2];
  const double yd3 = ydot[2] = 3.0e7 * y[1] * y[1];
  ydot[1] = -yd1 - yd3;
  return 0;
}

/* the dense 3 x 3 pattern, column by column */
static const int64_t full3_colptr[4] = {0, 3, 6, 9};
static const int64_t full3_rowind[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};

static int jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  const double y2 = y[1], y3 = y[2];
  v[0] = -0.04; /* column 1: J11, J21, J31 */
  v[1] = 0.04;
  v[2] = 0.0;
  v[3] = 1.0e4 * y3; /* column 2 */
  v[4] = -1.0e4 * y3 - 6.0e7 * y2;
  v[5] = 6.0e7 * y2;
  v[6] = 1.0e4 * y2; /* column 3 */
  v[7] = -1.0e4 * y2;
  v[8] = 0.0;
  return 0;
}

static int roots(double t, const double *y, double *g, void *ud)
{
  (void)t;
  rober *r = ud;
  r->root_evals++;
  g[0] = y[0] - 0.0001;
  g[1] = y[2] - 0.01;
  return 0;
}

static int initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.0;
  return 0;
}

/* The rows as the example prints them, and the events seen so far. */
typedef struct {
  parity_printout out;
  size_t events_seen;
} printout;

static void print_state(printout *p, double t, const double *y)
{
  parity_add_row(&p->out, "At t = %0.4e      y =%14.6e  %14.6e  %14.6e", t, y[0], y[1], y[2]);
}

/* The events logged since the last call, as the example's root rows: the
 * state at the event, then rootsfound[] (+1 rising, -1 falling, 0 not). */
static void print_events(printout *p, const sk_stepper *s, double t, const double *y)
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
    print_state(p, te, y);
    parity_add_row(&p->out, "    rootsfound[] = %3d %3d", found[0], found[1]);
  }
}

static int monitor(const sk_stepper *s, double t, double h, void *ud)
{
  (void)h;
  print_events(ud, s, t, sk_stepper_get_state(s));
  return 0;
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_CVROBERTS_DNS_OUT
  parity_check_quote(&published, SK_CVROBERTS_DNS_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  rober r = {0};
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  if (!m) {
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_model_set_name(m, "cvRoberts_dns"));
  CHECK_OK(ctx, sk_model_set_user_data(m, &r, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, initial));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, full3_colptr, full3_rowind));
  CHECK_OK(ctx, sk_model_set_jac_values(m, jac));
  CHECK_OK(ctx, sk_model_set_events(m, 2, roots, NULL));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  if (!s) {
    sk_model_destroy(&m);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  const double atol[3] = {1.0e-8, 1.0e-14, 1.0e-6};
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1.0e-4, 1.0e-8));
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, 0));
  /* solver.fast_vector_ops = false: the packaged kernels of the published run */
  CHECK_OK(ctx, sk_stepper_set_vector_kernels(s, SK_VECTOR_KERNELS_OFF));
  printout p = {.events_seen = 0};
  CHECK_OK(ctx, sk_stepper_set_monitor(s, monitor, &p));

  double tout = 0.4;
  for (int k = 0; k < NOUT; k++, tout *= 10.0) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(s, tout, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    /* an event the monitor did not see (a package call that returned it without a step)
       would show here, failing the check in print_events: its state is gone */
    print_events(&p, s, sk_stepper_get_time(s), sk_stepper_get_state(s));
    print_state(&p, t, sk_stepper_get_state(s));
  }
  CHECK_EQ_INT(strcmp(sk_stepper_get_vector_kernels(s), "sundials"), 0);

  /* the rows, as printed */
  parity_compare_rows(&published, &p.out);
  /* the two root times, to the printed digits */
  parity_check_roberts_roots(s, 2.6391e-01, 2.0790e+07);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  parity_check_stats(&published, &st, r.root_evals, "RHS fn evals", "LS RHS fn evals");

  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
