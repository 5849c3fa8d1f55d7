/* tests/parity/test_parity_cvroberts_dns.c: SUNDIALS' example cvRoberts_dns (ROBER with two root functions) through stiffkit's public API, against the example's published output */

#include "parity/cvroberts.h"

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

static const char *const published_rows[CVROBERTS_NROWS] = {
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

static const parity_quote published = {"cvRoberts_dns.out",
                                       published_rows,
                                       CVROBERTS_NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

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
  cvroberts r = {0};
  sk_model *m = cvroberts_model(ctx, "cvRoberts_dns", &r, full3_colptr, full3_rowind, jac);
  sk_stepper *s = NULL;
  if (!m) {
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
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
  cvroberts_printout p = {.events_seen = 0};
  cvroberts_run(ctx, s, &p);
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
