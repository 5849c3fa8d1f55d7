/* tests/parity/test_parity_kinrobokin_dns.c: SUNDIALS' example kinRoboKin_dns (robot kinematics, 8 unknowns in [-1, 1] as constrained slacks, dense analytic Jacobian, line search) through sk_steady_solve and the dense Jacobian callback, against the example's published output */
#include "parity/parity.h"

/* The example (examples/kinsol/serial/kinRoboKin_dns.c of SUNDIALS 6.4.1):
 * eight polynomial equations in x1..x8 (the inverse kinematics of a
 * six-revolute manipulator), each x_i in [-1, 1] through the slacks
 * l_i = 1 + x_i >= 0 and u_i = 1 - x_i >= 0 (KINSOL constraints 1 on
 * components 9..24), 24 unknowns; the guess x_i = sqrt(2)/2, l_i = u_i = 1;
 * KINSOL with the dense linear solver and the analytic Jacobian
 * (KINSetJacFn writing a SUNDenseMatrix), exact Newton (mset 1), line
 * search, fnormtol = scsteptol = 1e-5, unit scaling. Here: the model's
 * sk_model_set_dense_jacobian (no pattern given), linsol.type = dense,
 * the same settings.
 *
 * Expected values: the published output, kinRoboKin_dns.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/kinsol/serial/kinRoboKin_dns.out),
 * quoted here and, when installed (SK_KINROBOKIN_DNS_OUT), checked against
 * the file: the printed guess and solution rows (l, x, u to 6 digits) and
 * KINPrintAllStats' table, counts and the last function norm and step
 * length (printed to 16 digits) alike, reproduced exactly. */

#define NVAR 8
#define NEQ (3 * NVAR)
#define NROWS (2 * NVAR)

/* clang-format off */
static const char *const published_rows[NROWS] = {
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "          1     0.707107            1",
    "    1.67155     0.671554     0.328446",
    "    1.74096     0.740955     0.259045",
    "    1.95189     0.951893    0.0481072",
    "   0.693569    -0.306431      1.30643",
    "    1.96381     0.963811    0.0361892",
    "   0.733413    -0.266587      1.26659",
    "    1.40464     0.404641     0.595359",
    "    1.91448     0.914475    0.0855246",
};
/* clang-format on */

static const parity_stat published_stats[] = {
    {"Nonlinear iters", 6},
    {"Nonlinear fn evals", 7},
    {"Beta condition fails", 0},
    {"Backtrack operations", 0},
    {"Nonlinear fn norm", 2.292156129751106e-09},
    {"Step length", 9.177381541347882e-05},
    {"Jac fn evals", 6},
    {"LS Nonlinear fn evals", 0},
    {"Prec setup evals", 0},
    {"Prec solves", 0},
    {"LS iters", 0},
    {"LS fails", 0},
    {"Jac-times evals", 0},
    {"LS iters per NLS iter", 0},
    {"Jac evals per NLS iter", 1},
    {"Prec evals per NLS iter", 0},
};

static const parity_quote published = {"kinRoboKin_dns.out",
                                       published_rows,
                                       NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

/* the example's func, in its order of operations */
static int func(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  const double x1 = y[0], x2 = y[1], x3 = y[2], x4 = y[3], x5 = y[4], x6 = y[5], x7 = y[6],
               x8 = y[7];
  f[0] = -0.1238 * x1 + x7 - 0.001637 * x2 - 0.9338 * x4 + 0.004731 * x1 * x3 - 0.3578 * x2 * x3 -
         0.3571;
  f[1] = 0.2638 * x1 - x7 - 0.07745 * x2 - 0.6734 * x4 + 0.2238 * x1 * x3 + 0.7623 * x2 * x3 -
         0.6022;
  f[2] = 0.3578 * x1 + 0.004731 * x2 + x6 * x8;
  f[3] = -0.7623 * x1 + 0.2238 * x2 + 0.3461;
  f[4] = x1 * x1 + x2 * x2 - 1;
  f[5] = x3 * x3 + x4 * x4 - 1;
  f[6] = x5 * x5 + x6 * x6 - 1;
  f[7] = x7 * x7 + x8 * x8 - 1;
  for (int i = 0; i < NVAR; i++) {
    f[NVAR + i] = y[NVAR + i] - 1.0 - y[i];         /* l_i - 1 - x_i */
    f[2 * NVAR + i] = y[2 * NVAR + i] - 1.0 + y[i]; /* u_i - 1 + x_i */
  }
  return 0;
}

/* IJth(J, i, j) of the example (1-based) in the column-major array */
#define IJ(J, i, j) (J)[((i)-1) + ((j)-1) * NEQ]

/* the example's jac, entry by entry, into the zeroed dense array */
static int jac(double t, const double *y, const double *f, double *J, void *ud)
{
  (void)t;
  (void)f;
  (void)ud;
  const double x1 = y[0], x2 = y[1], x3 = y[2], x4 = y[3], x5 = y[4], x6 = y[5], x7 = y[6],
               x8 = y[7];
  IJ(J, 1, 1) = -0.1238 + 0.004731 * x3;
  IJ(J, 1, 2) = -0.001637 - 0.3578 * x3;
  IJ(J, 1, 3) = 0.004731 * x1 - 0.3578 * x2;
  IJ(J, 1, 4) = -0.9338;
  IJ(J, 1, 7) = 1.0;
  IJ(J, 2, 1) = 0.2638 + 0.2238 * x3;
  IJ(J, 2, 2) = -0.07745 + 0.7623 * x3;
  IJ(J, 2, 3) = 0.2238 * x1 + 0.7623 * x2;
  IJ(J, 2, 4) = -0.6734;
  IJ(J, 2, 7) = -1.0;
  IJ(J, 3, 1) = 0.3578;
  IJ(J, 3, 2) = 0.004731;
  IJ(J, 3, 6) = x8;
  IJ(J, 3, 8) = x6;
  IJ(J, 4, 1) = -0.7623;
  IJ(J, 4, 2) = 0.2238;
  IJ(J, 5, 1) = 2.0 * x1;
  IJ(J, 5, 2) = 2.0 * x2;
  IJ(J, 6, 3) = 2.0 * x3;
  IJ(J, 6, 4) = 2.0 * x4;
  IJ(J, 7, 5) = 2.0 * x5;
  IJ(J, 7, 6) = 2.0 * x6;
  IJ(J, 8, 7) = 2.0 * x7;
  IJ(J, 8, 8) = 2.0 * x8;
  for (int i = 1; i <= NVAR; i++) {
    IJ(J, NVAR + i, i) = -1.0;
    IJ(J, NVAR + i, NVAR + i) = 1.0;
    IJ(J, 2 * NVAR + i, i) = 1.0;
    IJ(J, 2 * NVAR + i, 2 * NVAR + i) = 1.0;
  }
  return 0;
}

/* the example's PrintOutput: l, x, u of each variable */
static void add_rows(parity_printout *p, const double *y)
{
  for (int i = 0; i < NVAR; i++) {
    parity_add_row(p, " %10.6g   %10.6g   %10.6g", y[NVAR + i], y[i], y[2 * NVAR + i]);
  }
}

/* the run's statistics against KINPrintAllStats' table */
static void check_stats(const sk_steady_report *r)
{
  printf("nni %lld, nfe %lld, beta fails %lld, backtracks %lld, fnorm %.16g, step length "
         "%.16g, nje %lld, nfeD %lld, flag %s\n",
         (long long)r->newton_iters, (long long)r->kinsol_f_evals, (long long)r->beta_fails,
         (long long)r->backtracks, r->kinsol_fnorm, r->step_length, (long long)r->jac_evals,
         (long long)r->f_evals_dq, r->kinsol_flag_name);
  CHECK_EQ_INT(r->newton_iters, parity_value(&published, "Nonlinear iters"));
  CHECK_EQ_INT(r->kinsol_f_evals, parity_value(&published, "Nonlinear fn evals"));
  CHECK_EQ_INT(r->beta_fails, parity_value(&published, "Beta condition fails"));
  CHECK_EQ_INT(r->backtracks, parity_value(&published, "Backtrack operations"));
  CHECK_NEAR(r->kinsol_fnorm, parity_value(&published, "Nonlinear fn norm"), 0.0, 0.0);
  CHECK_NEAR(r->step_length, parity_value(&published, "Step length"), 0.0, 0.0);
  CHECK_EQ_INT(r->jac_evals, parity_value(&published, "Jac fn evals"));
  CHECK_EQ_INT(r->f_evals_dq, parity_value(&published, "LS Nonlinear fn evals"));
  CHECK_EQ_INT(r->prec_setups, parity_value(&published, "Prec setup evals"));
  CHECK_EQ_INT(r->prec_solves, parity_value(&published, "Prec solves"));
  CHECK_EQ_INT(r->lin_iters, parity_value(&published, "LS iters"));
  CHECK_EQ_INT(r->lin_conv_fails, parity_value(&published, "LS fails"));
  CHECK_EQ_INT(r->jac_evals / r->newton_iters,
               parity_value(&published, "Jac evals per NLS iter"));
  CHECK_EQ_INT(r->kinsol_flag, 0); /* KIN_SUCCESS: the fnormtol test, not the step test */
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_KINROBOKIN_DNS_OUT
  parity_check_quote(&published, SK_KINROBOKIN_DNS_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  int constraints[NEQ] = {0};
  for (int i = NVAR; i < NEQ; i++) {
    constraints[i] = 1;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NEQ, &m));
  if (m) {
    CHECK_OK(ctx, sk_model_set_name(m, "kinRoboKin_dns"));
    CHECK_OK(ctx, sk_model_set_rhs(m, func));
    CHECK_OK(ctx, sk_model_set_dense_jacobian(m, jac));
    CHECK_OK(ctx, sk_model_set_constraints(m, constraints));
    double y[NEQ];
    for (int i = 0; i < NEQ; i++) {
      y[i] = i < NVAR ? sqrt(2.0) / 2.0 : 1.0;
    }
    parity_printout p = {.nrows = 0};
    add_rows(&p, y);
    sk_steady_settings set;
    sk_steady_settings_default(&set);
    snprintf(set.linsol, sizeof set.linsol, "dense");
    set.fnormtol = 1e-5;
    set.scsteptol = 1e-5;
    set.max_setup_calls = 1;
    sk_steady_report r;
    CHECK_OK(ctx, sk_steady_solve(ctx, m, &set, y, &r));
    add_rows(&p, y);
    parity_compare_rows(&published, &p);
    check_stats(&r);
  }
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
