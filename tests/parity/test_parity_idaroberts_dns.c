/* tests/parity/test_parity_idaroberts_dns.c: SUNDIALS' example idaRoberts_dns (ROBER as a DAE with two root functions) through stiffkit's public API, against the example's published output */
#include <inttypes.h>

#include "parity/parity.h"

/* The example (examples/ida/serial/idaRoberts_dns.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): the Robertson kinetics as the DAE
 *   F1 = -0.04 y1 + 1e4 y2 y3 - y1'
 *   F2 =  0.04 y1 - 1e4 y2 y3 - 3e7 y2^2 - y2'
 *   F3 =  y1 + y2 + y3 - 1            (y3 algebraic)
 * from the consistent y = (1, 0, 0), y' = (-0.04, 0.04, 0) at t = 0 (no
 * IDACalcIC, no id vector), IDA with rtol 1e-4, atol (1e-8, 1e-6, 1e-6),
 * dense linear solver with the analytic Jacobian dF/dy + cj dF/dy', root
 * functions g1 = y1 - 1e-4 and g2 = y3 - 0.01, IDASolve(IDA_NORMAL) at
 * tout = 0.4 10^k, k = 0..11, printing t, y, the steps, the last order
 * and the last step at every return (output time or root).
 *
 * sk_stepper_advance on ida-bdf must behave as IDA_NORMAL does (step past
 * the output times, interpolate, stop only at a root); the model is marked
 * consistent (sk_model_set_dae_consistent), so that stiffkit skips its
 * IDACalcIC as the example does.
 *
 * Expected values: the published output, idaRoberts_dns.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/ida/serial/idaRoberts_dns.out),
 * quoted here and, when installed (SK_IDAROBERTS_DNS_OUT), checked against
 * the file: the rows below, and the final statistics Steps = 362, Error
 * test fails = 15, Last step size = 7548045540.281308, Last method order
 * = 2, Residual fn evals = 537, NLS iters = 537, NLS fails = 5, LS setups
 * = 60, Jac fn evals = 60, LS residual fn evals = 0, Root fn evals = 404
 * (counted in the root function: sk_stats has no such counter). */

#define NOUT 12
#define NROWS (NOUT + 2 * 2) /* the outputs, and two lines per root */

static const char *const published_rows[NROWS] = {
    "2.6402e-01   9.8997e-01   3.4706e-05   1.0000e-02 |  27  2   4.4012e-02",
    "    rootsfound[] =   0   1",
    "4.0000e-01   9.8517e-01   3.3864e-05   1.4794e-02 |  29  3   8.8024e-02",
    "4.0000e+00   9.0553e-01   2.2406e-05   9.4452e-02 |  43  4   6.3377e-01",
    "4.0000e+01   7.1579e-01   9.1838e-06   2.8420e-01 |  68  4   3.1932e+00",
    "4.0000e+02   4.5044e-01   3.2218e-06   5.4956e-01 |  95  4   3.3201e+01",
    "4.0000e+03   1.8320e-01   8.9444e-07   8.1680e-01 | 126  3   3.1458e+02",
    "4.0000e+04   3.8992e-02   1.6221e-07   9.6101e-01 | 161  5   2.5058e+03",
    "4.0000e+05   4.9369e-03   1.9842e-08   9.9506e-01 | 202  3   2.6371e+04",
    "4.0000e+06   5.1674e-04   2.0684e-09   9.9948e-01 | 250  3   1.7187e+05",
    "2.0788e+07   1.0000e-04   4.0004e-10   9.9990e-01 | 280  5   1.0513e+06",
    "    rootsfound[] =  -1   0",
    "4.0000e+07   5.2009e-05   2.0805e-10   9.9995e-01 | 293  4   2.3655e+06",
    "4.0000e+08   5.2012e-06   2.0805e-11   9.9999e-01 | 325  4   2.6808e+07",
    "4.0000e+09   5.1850e-07   2.0740e-12   1.0000e+00 | 348  3   7.4305e+08",
    "4.0000e+10   4.8641e-08   1.9456e-13   1.0000e+00 | 362  2   7.5480e+09",
};

static const parity_stat published_stats[] = {
    {"Steps", 362},
    {"Error test fails", 15},
    {"Last step size", 7548045540.281308},
    {"Last method order", 2},
    {"Residual fn evals", 537},
    {"NLS iters", 537},
    {"NLS fails", 5},
    {"LS setups", 60},
    {"Jac fn evals", 60},
    {"LS residual fn evals", 0},
    {"Root fn evals", 404},
};

static const parity_quote published = {"idaRoberts_dns.out",
                                       published_rows,
                                       NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

typedef struct {
  long root_evals;
} rober;

/* the example's resrob, in its order of operations */
static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2];
  r[1] = -r[0] - 3.0e7 * y[1] * y[1] - yp[1];
  r[0] -= yp[0];
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}

/* the dense 3 x 3 pattern, column by column */
static const int64_t full3_colptr[4] = {0, 3, 6, 9};
static const int64_t full3_rowind[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};

/* the example's jacrob: dF/dy + cj dF/dy' */
static int jac(double t, double cj, const double *y, const double *yp, const double *r, double *v,
               void *ud)
{
  (void)t;
  (void)yp;
  (void)r;
  (void)ud;
  v[0] = -0.04 - cj; /* column 1 */
  v[1] = 0.04;
  v[2] = 1.0;
  v[3] = 1.0e4 * y[2]; /* column 2 */
  v[4] = -1.0e4 * y[2] - 6.0e7 * y[1] - cj;
  v[5] = 1.0;
  v[6] = 1.0e4 * y[1]; /* column 3 */
  v[7] = -1.0e4 * y[1];
  v[8] = 1.0;
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

static int initial(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.0;
  yp[0] = -0.04;
  yp[1] = 0.04;
  yp[2] = 0.0;
  return 0;
}

/* The rows as the example prints them, and the events seen so far. */
typedef struct {
  parity_printout out;
  sk_stepper *s;
  size_t events_seen;
} printout;

static void print_state(printout *p, double t, const double *y)
{
  sk_stats st;
  sk_stepper_get_stats(p->s, &st);
  parity_add_row(&p->out, "%10.4e %12.4e %12.4e %12.4e | %3" PRId64 "  %1d %12.4e", t, y[0], y[1],
                 y[2], st.steps, st.last_order, st.last_h);
}

/* The events logged since the last call, as the example's root rows (see
 * test_parity_cvroberts_dns.c). */
static void print_events(printout *p, double t, const double *y)
{
  const sk_event_record *ev;
  size_t n;
  sk_stepper_get_events(p->s, &ev, &n);
  while (p->events_seen < n) {
    const double te = ev[p->events_seen].t;
    int found[2] = {0, 0};
    while (p->events_seen < n && ev[p->events_seen].t == te) {
      found[ev[p->events_seen].index] = ev[p->events_seen].direction;
      p->events_seen++;
    }
    CHECK(te == t); /* the monitor runs after the step that stopped at the event */
    print_state(p, te, y);
    parity_add_row(&p->out, "    rootsfound[] = %3d %3d", found[0], found[1]);
  }
}

static int monitor(const sk_stepper *s, double t, double h, void *ud)
{
  (void)h;
  print_events(ud, t, sk_stepper_get_state(s));
  return 0;
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_IDAROBERTS_DNS_OUT
  parity_check_quote(&published, SK_IDAROBERTS_DNS_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  rober r = {0};
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 3, &m));
  if (!m) {
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_model_set_name(m, "idaRoberts_dns"));
  CHECK_OK(ctx, sk_model_set_user_data(m, &r, NULL));
  CHECK_OK(ctx, sk_model_set_residual(m, residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, initial));
  CHECK_OK(ctx, sk_model_set_dae_consistent(m, 0));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, full3_colptr, full3_rowind));
  CHECK_OK(ctx, sk_model_set_dae_jac_values(m, jac));
  CHECK_OK(ctx, sk_model_set_events(m, 2, roots, NULL));
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  if (!s) {
    sk_model_destroy(&m);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  const double atol[3] = {1.0e-8, 1.0e-6, 1.0e-6};
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1.0e-4, 1.0e-8));
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, 0));
  printout p = {.s = s};
  CHECK_OK(ctx, sk_stepper_set_monitor(s, monitor, &p));

  double tout = 0.4;
  for (int k = 0; k < NOUT; k++, tout *= 10.0) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(s, tout, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    print_events(&p, sk_stepper_get_time(s), sk_stepper_get_state(s)); /* none unseen */
    print_state(&p, t, sk_stepper_get_state(s));
  }
  parity_compare_rows(&published, &p.out);

  parity_check_roberts_roots(s, 2.6402e-01, 2.0788e+07);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  parity_check_stats(&published, &st, r.root_evals, "Residual fn evals", "LS residual fn evals");

  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
