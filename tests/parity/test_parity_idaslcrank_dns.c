/* tests/parity/test_parity_idaslcrank_dns.c: SUNDIALS' example idaSlCrank_dns (slider-crank mechanism, stabilized index-2 DAE) through stiffkit's public DAE API, against the example's published output */
#include <inttypes.h>

#include "parity/parity.h"

/* The example (examples/ida/serial/idaSlCrank_dns.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): a crank (angle q, half-length a = 0.5,
 * inertia J1 = 1) and a connecting rod (centre x, angle p, mass m2 = 1,
 * inertia J2 = 2) joined by a spring-damper (k = 1, c = 1, free length
 * l0 = 1) and pushed by a constant force F = 1, written as the
 * stabilized index-2 (GGL) DAE in y = (q, x, p, q', x', p', lambda1,
 * lambda2, mu1, mu2):
 *   q' - qd + a sin(q) mu1 - a cos(q) mu2 = 0          (and for x, p)
 *   J1 qd' - Q1 + a sin(q) lambda1 - a cos(q) lambda2 = 0  (and for x, p)
 *   x - cos(p) - a cos(q) = 0,  -sin(p) - a sin(q) = 0     (position)
 *   a sin(q) qd + xd + sin(p) pd = 0,  -a cos(q) qd - cos(p) pd = 0
 * (Q the generalized spring, damper and force terms, the example's
 * force()), from the consistent values of its setIC (q = pi/2,
 * p = asin(-a), x = cos(p), velocities 0, y' = (0, 0, 0, Q/J), multipliers
 * 0), IDA with rtol = atol = 1e-6, id = 1 for the six differential and 0
 * for the four algebraic components, IDASetSuppressAlg(SUNTRUE), no
 * IDACalcIC, the dense linear solver with IDA's difference-quotient
 * Jacobian, IDASolve(IDA_NORMAL) at t = 0.25 k, k = 1..40, printing q, x,
 * p, the steps, the last order and the last step.
 *
 * stiffkit: a residual model through the public DAE API (stiffkit's
 * multibody module builds its own index-3 formulation from a mechanism
 * description and could not give the example's equations), with
 * sk_model_set_differential (the example's id) and
 * sk_model_set_dae_consistent(m, 1) (no IDACalcIC, IDASetSuppressAlg),
 * ida-bdf with linsol.type = dense and no Jacobian pattern (IDA's own
 * difference quotients, as in the example). The engine setup is the
 * example's, so every row and counter must be equal.
 *
 * Expected values: the published output, idaSlCrank_dns.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/ida/serial/idaSlCrank_dns.out),
 * quoted here and, when installed (SK_IDASLCRANK_DNS_OUT), checked against
 * the file: the rows below, and the final statistics 222 steps, 874
 * residual evaluations (the difference-quotient ones included), 32
 * Jacobian evaluations, 554 nonlinear iterations, 3 error test failures,
 * 15 nonlinear convergence failures, 0 step solver failures (only against
 * the file: sk_stats has no such counter). (The example built here against
 * the installed SUNDIALS prints the same file byte for byte.) */

#define NEQ 10
#define NOUT 41

static const char *const published_rows[NOUT] = {
    "0.0000e+00   1.5708e+00   8.6603e-01  -5.2360e-01   0  0   0.0000e+00",
    "2.5000e-01   1.5548e+00   8.7406e-01  -5.2352e-01  25  4   6.5436e-02",
    "5.0000e-01   1.5069e+00   8.9855e-01  -5.2242e-01  28  4   6.5436e-02",
    "7.5000e-01   1.4270e+00   9.4063e-01  -5.1765e-01  32  5   6.5436e-02",
    "1.0000e+00   1.3154e+00   1.0015e+00  -5.0497e-01  36  5   6.5436e-02",
    "1.2500e+00   1.1731e+00   1.0811e+00  -4.7909e-01  40  5   6.5436e-02",
    "1.5000e+00   1.0016e+00   1.1765e+00  -4.3472e-01  44  5   5.8893e-02",
    "1.7500e+00   8.0288e-01   1.2804e+00  -3.6792e-01  48  4   5.3003e-02",
    "2.0000e+00   5.7904e-01   1.3803e+00  -2.7715e-01  53  4   4.7703e-02",
    "2.2500e+00   3.3326e-01   1.4590e+00  -1.6430e-01  58  5   4.7703e-02",
    "2.5000e+00   7.2238e-02   1.4980e+00  -3.6096e-02  64  5   4.7703e-02",
    "2.7500e+00  -1.9245e-01   1.4862e+00   9.5777e-02  70  5   3.6885e-02",
    "3.0000e+00  -4.4711e-01   1.4272e+00   2.1790e-01  79  4   2.4398e-02",
    "3.2500e+00  -6.8090e-01   1.3377e+00   3.2019e-01  89  4   2.4398e-02",
    "3.5000e+00  -8.8750e-01   1.2374e+00   3.9819e-01  97  4   4.8796e-02",
    "3.7500e+00  -1.0634e+00   1.1424e+00   4.5228e-01 102  5   4.8796e-02",
    "4.0000e+00  -1.2064e+00   1.0623e+00   4.8609e-01 107  5   4.8796e-02",
    "4.2500e+00  -1.3150e+00   1.0017e+00   5.0491e-01 112  5   4.8796e-02",
    "4.5000e+00  -1.3883e+00   9.6149e-01   5.1404e-01 117  5   4.8796e-02",
    "4.7500e+00  -1.4265e+00   9.4088e-01   5.1761e-01 123  4   4.8796e-02",
    "5.0000e+00  -1.4300e+00   9.3903e-01   5.1790e-01 128  4   4.3916e-02",
    "5.2500e+00  -1.3992e+00   9.5560e-01   5.1514e-01 134  5   4.3916e-02",
    "5.5000e+00  -1.3346e+00   9.9087e-01   5.0765e-01 138  5   8.7832e-02",
    "5.7500e+00  -1.2371e+00   1.0451e+00   4.9204e-01 140  5   8.7832e-02",
    "6.0000e+00  -1.1080e+00   1.1176e+00   4.6386e-01 143  5   7.9049e-02",
    "6.2500e+00  -9.4916e-01   1.2048e+00   4.1858e-01 146  5   7.9049e-02",
    "6.5000e+00  -7.6277e-01   1.2999e+00   3.5273e-01 150  5   6.4030e-02",
    "6.7500e+00  -5.5125e-01   1.3910e+00   2.6497e-01 154  5   6.4030e-02",
    "7.0000e+00  -3.1828e-01   1.4626e+00   1.5711e-01 158  5   5.1864e-02",
    "7.2500e+00  -7.0713e-02   1.4981e+00   3.5334e-02 164  5   4.6678e-02",
    "7.5000e+00   1.8041e-01   1.4879e+00  -8.9839e-02 169  5   4.6678e-02",
    "7.7500e+00   4.2223e-01   1.4349e+00  -2.0636e-01 175  4   3.3481e-02",
    "8.0000e+00   6.4422e-01   1.3536e+00  -3.0500e-01 183  3   3.0133e-02",
    "8.2500e+00   8.3984e-01   1.2619e+00  -3.8145e-01 189  4   5.2811e-02",
    "8.5000e+00   1.0053e+00   1.1745e+00  -4.3582e-01 194  4   5.2811e-02",
    "8.7500e+00   1.1380e+00   1.1008e+00  -4.7113e-01 199  5   5.2811e-02",
    "9.0000e+00   1.2363e+00   1.0456e+00  -4.9189e-01 203  5   5.2811e-02",
    "9.2500e+00   1.2992e+00   1.0105e+00  -5.0257e-01 208  5   5.2811e-02",
    "9.5000e+00   1.3266e+00   9.9533e-01  -5.0655e-01 213  5   5.2811e-02",
    "9.7500e+00   1.3185e+00   9.9977e-01  -5.0542e-01 218  5   5.2811e-02",
    "1.0000e+01   1.2757e+00   1.0236e+00  -4.9881e-01 222  5   5.2811e-02",
};

static const parity_stat published_stats[] = {
    {"Number of steps", 222},
    {"Number of residual evaluations", 874},
    {"Number of Jacobian evaluations", 32},
    {"Number of nonlinear iterations", 554},
    {"Number of error test failures", 3},
    {"Number of nonlinear conv. failures", 15},
    {"Number of step solver failures", 0},
};

static const parity_quote published = {"idaSlCrank_dns.out",
                                       published_rows,
                                       NOUT,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

/* the example's UserData */
typedef struct {
  double a, J1, J2, m2, k, c, l0, F;
} crank;

/* the example's force(): the generalized forces Q of the spring-damper and F */
static void force(const crank *d, const double *yy, double *Q)
{
  const double a = d->a, k = d->k, c = d->c, l0 = d->l0, F = d->F;
  const double q = yy[0], x = yy[1], p = yy[2];
  const double qd = yy[3], xd = yy[4], pd = yy[5];
  const double s1 = sin(q), c1 = cos(q), s2 = sin(p), c2 = cos(p);
  const double s21 = s2 * c1 - c2 * s1;
  const double c21 = c2 * c1 + s2 * s1;
  const double l2 = x * x - x * (c2 + a * c1) + (1.0 + a * a) / 4.0 + a * c21 / 2.0;
  const double l = sqrt(l2);
  double ld =
      2.0 * x * xd - xd * (c2 + a * c1) + x * (s2 * pd + a * s1 * qd) - a * s21 * (pd - qd) / 2.0;
  ld /= 2.0 * l;
  const double f = k * (l - l0) + c * ld;
  const double fl = f / l;
  Q[0] = -fl * a * (s21 / 2.0 + x * s1) / 2.0;
  Q[1] = fl * (c2 / 2.0 - x + a * c1 / 2.0) + F;
  Q[2] = -fl * (x * s2 - a * s21 / 2.0) / 2.0 - F * s2;
}

/* the example's ressc, in its order of operations */
static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  const crank *d = ud;
  const double a = d->a, J1 = d->J1, m2 = d->m2, J2 = d->J2;
  const double q = y[0], x = y[1], p = y[2];
  const double qd = y[3], xd = y[4], pd = y[5];
  const double lam1 = y[6], lam2 = y[7], mu1 = y[8], mu2 = y[9];
  const double s1 = sin(q), c1 = cos(q), s2 = sin(p), c2 = cos(p);
  double Q[3];
  force(d, y, Q);
  r[0] = yp[0] - qd + a * s1 * mu1 - a * c1 * mu2;
  r[1] = yp[1] - xd + mu1;
  r[2] = yp[2] - pd + s2 * mu1 - c2 * mu2;
  r[3] = J1 * yp[3] - Q[0] + a * s1 * lam1 - a * c1 * lam2;
  r[4] = m2 * yp[4] - Q[1] + lam1;
  r[5] = J2 * yp[5] - Q[2] + s2 * lam1 - c2 * lam2;
  r[6] = x - c2 - a * c1;
  r[7] = -s2 - a * s1;
  r[8] = a * s1 * qd + xd + s2 * pd;
  r[9] = -a * c1 * qd - c2 * pd;
  return 0;
}

/* the example's setIC: consistent y and y' */
static int initial(double t0, double *yy, double *yp, void *ud)
{
  (void)t0;
  const crank *d = ud;
  for (int i = 0; i < NEQ; i++) {
    yy[i] = 0.0;
    yp[i] = 0.0;
  }
  const double pi = 4.0 * atan(1.0);
  const double q = pi / 2.0;
  const double p = asin(-d->a);
  const double x = cos(p);
  yy[0] = q;
  yy[1] = x;
  yy[2] = p;
  double Q[3];
  force(d, yy, Q);
  yp[3] = Q[0] / d->J1;
  yp[4] = Q[1] / d->m2;
  yp[5] = Q[2] / d->J2;
  return 0;
}

static void print_output(parity_printout *p, sk_stepper *s, double t)
{
  sk_stats st;
  CHECK_OK(sk_stepper_get_context(s), sk_stepper_get_stats(s, &st));
  const double *y = sk_stepper_get_state(s);
  parity_add_row(p, "%10.4e %12.4e %12.4e %12.4e %3" PRId64 "  %1d %12.4e", t, y[0], y[1], y[2],
                 st.steps, st.last_order, st.last_h);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_IDASLCRANK_DNS_OUT
  parity_check_quote(&published, SK_IDASLCRANK_DNS_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  crank d = {.a = 0.5, .J1 = 1.0, .m2 = 1.0, .J2 = 2.0, .k = 1.0, .c = 1.0, .l0 = 1.0, .F = 1.0};
  const int id[NEQ] = {1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, NEQ, &m));
  if (!m) {
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_model_set_name(m, "idaSlCrank_dns"));
  CHECK_OK(ctx, sk_model_set_user_data(m, &d, NULL));
  CHECK_OK(ctx, sk_model_set_residual(m, residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, initial));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_set_dae_consistent(m, 1)); /* no IDACalcIC; IDASetSuppressAlg */
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  if (!s) {
    sk_model_destroy(&m);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1.0e-6, 1.0e-6));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_setup(s));

  parity_printout p = {.nrows = 0};
  print_output(&p, s, 0.0);
  const double dt = 10.0 / (NOUT - 1);
  for (int iout = 1; iout < NOUT; iout++) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(s, iout * dt, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    print_output(&p, s, t);
  }
  parity_compare_rows(&published, &p);

  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  printf("steps %" PRId64 ", residual evaluations %" PRId64 " (%" PRId64
         " in difference quotients), Jacobian evaluations %" PRId64
         ", nonlinear iterations %" PRId64 ", error test failures %" PRId64
         ", nonlinear convergence failures %" PRId64 "\n",
         st.steps, st.rhs_evals, st.rhs_evals_dq, st.jac_evals, st.newton_iters, st.failed_steps,
         st.newton_fails);
  CHECK_EQ_INT(st.steps, parity_value(&published, "Number of steps"));
  CHECK_EQ_INT(st.rhs_evals, parity_value(&published, "Number of residual evaluations"));
  CHECK_EQ_INT(st.jac_evals, parity_value(&published, "Number of Jacobian evaluations"));
  CHECK_EQ_INT(st.newton_iters, parity_value(&published, "Number of nonlinear iterations"));
  CHECK_EQ_INT(st.failed_steps, parity_value(&published, "Number of error test failures"));
  CHECK_EQ_INT(st.newton_fails, parity_value(&published, "Number of nonlinear conv. failures"));

  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
