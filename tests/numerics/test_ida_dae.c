/* tests/numerics/test_ida_dae.c: the IDA engine and the bdf2 reference stepper on DAE models: ROBER as a DAE against published values, an index-1 DAE with an exact solution (bdf2's order 2 under step halving), consistent initialization, and the refusals (index 2, no consistent values) */
#include "test.h"

/* ---- ROBER as a DAE (the SUNDIALS example idaRoberts_dns):
 *   y1' = -0.04 y1 + 1e4 y2 y3, y2' = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2,
 *   0 = y1 + y2 + y3 - 1.
 * Reference at t = 40: y = (0.7158270687, 9.185534764e-6, 0.2841637457),
 * the published values (F. Mazzia et al., Test Set for IVP Solvers, Bari,
 * and the CVODE/IDA Robertson examples), confirmed by scipy Radau and LSODA
 * at rtol 1e-12 in tests/regression/problem_refs.csv. */
static int rober_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] - (-0.04 * y[0] + 1e4 * y[1] * y[2]);
  r[1] = yp[1] - (0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1]);
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}

/* dF/dy + cj dF/dy' in the full 3 x 3 pattern, column by column. */
static int rober_jac(double t, double cj, const double *y, const double *yp, const double *r,
                     double *v, void *ud)
{
  (void)t;
  (void)yp;
  (void)r;
  (void)ud;
  v[0] = 0.04 + cj; /* (0,0) */
  v[1] = -0.04;     /* (1,0) */
  v[2] = 1.0;       /* (2,0) */
  v[3] = -1e4 * y[2];
  v[4] = 1e4 * y[2] + 6e7 * y[1] + cj;
  v[5] = 1.0;
  v[6] = -1e4 * y[1];
  v[7] = 1e4 * y[1];
  v[8] = 1.0;
  return 0;
}

/* An inconsistent start: y3 and both derivatives are guesses for IDACalcIC. */
static int rober_initial(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.3;
  yp[0] = yp[1] = yp[2] = 0.0;
  return 0;
}

static const int64_t full3_colptr[] = {0, 3, 6, 9};
static const int64_t full3_rowind[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
static const int rober_id[] = {1, 1, 0};

static sk_model *rober_dae(sk_context *ctx, int analytic)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 3, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "rober-dae"));
  CHECK_OK(ctx, sk_model_set_residual(m, rober_res));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, rober_initial));
  CHECK_OK(ctx, sk_model_set_differential(m, rober_id));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, full3_colptr, full3_rowind));
  if (analytic) {
    CHECK_OK(ctx, sk_model_set_dae_jac_values(m, rober_jac));
  }
  return m;
}

static void test_rober(sk_context *ctx, int analytic, const char *linsol)
{
  static const double ref[3] = {0.7158270687, 9.185534764e-6, 0.2841637457};
  sk_model *m = rober_dae(ctx, analytic);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  const double atol[3] = {1e-12, 1e-16, 1e-12};
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-9, 1e-12));
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, linsol));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 40.0, &t));
  const double *y = sk_stepper_get_state(s);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  printf("rober DAE (%s Jacobian, %s): y(40) = (%.10f, %.10e, %.10f), %lld steps\n",
         analytic ? "analytic" : "colored FD", linsol, y[0], y[1], y[2], (long long)st.steps);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(y[i], ref[i], 2e-6, 0);
  }
  CHECK_NEAR(y[0] + y[1] + y[2], 1.0, 0, 1e-12); /* the algebraic constraint holds */
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* sk_stepper_initialize: at t0 the state holds IDACalcIC's values, which
 * are known in closed form for ROBER started at y = (1, 0, 0.3 guessed):
 * the constraint gives y3 = 1 - y1 - y2 = 0, and then y1' = -0.04,
 * y2' = 0.04. The integration that follows takes the same steps to the
 * same answer as one started without the call (the first advance would
 * compute the same values with the same tout). */
static void test_initialize(sk_context *ctx)
{
  sk_stats st[2];
  double y40[2][3];
  for (int with = 0; with < 2; with++) {
    sk_model *m = rober_dae(ctx, 1);
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-9, 1e-12));
    CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
    if (with) {
      CHECK(sk_stepper_initialize(s, 0.0) == SK_ERR_ARG); /* tout1 = t0 */
      CHECK_OK(ctx, sk_stepper_initialize(s, 0.4));
      const double *y = sk_stepper_get_state(s);
      const double *yp = sk_stepper_get_derivative(s);
      printf("initialize: y(0) = (%g, %g, %g), y'(0) = (%g, %g, %g)\n", y[0], y[1], y[2], yp[0],
             yp[1], yp[2]);
      CHECK_NEAR(y[0], 1.0, 0, 1e-14);
      CHECK_NEAR(y[2], 0.0, 0, 1e-12);
      CHECK_NEAR(yp[0], -0.04, 1e-9, 0);
      CHECK_NEAR(yp[1], 0.04, 1e-9, 0);
      CHECK_OK(ctx, sk_stepper_initialize(s, 0.4)); /* a second call changes nothing */
      CHECK_NEAR(sk_stepper_get_state(s)[2], y[2], 0, 0);
    }
    double t = 0;
    CHECK_OK(ctx, sk_stepper_advance(s, 0.4, &t));
    CHECK_OK(ctx, sk_stepper_advance(s, 40.0, &t));
    memcpy(y40[with], sk_stepper_get_state(s), sizeof y40[with]);
    CHECK_OK(ctx, sk_stepper_get_stats(s, &st[with]));
    sk_stepper_destroy(&s);
    sk_model_destroy(&m);
  }
  CHECK_EQ_INT(st[1].steps, st[0].steps);
  CHECK_EQ_INT(st[1].rhs_evals, st[0].rhs_evals);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(y40[1][i], y40[0][i], 0, 0);
  }
}

/* ---- an index-1 DAE with an exact solution:
 *   x' = -x + z, 0 = z - sin t, x(0) = 1
 *   z = sin t, x = (sin t - cos t)/2 + (3/2) e^{-t}. */
static int lin_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)ud;
  r[0] = yp[0] + y[0] - y[1];
  r[1] = y[1] - sin(t);
  return 0;
}

static int lin_exact(double t, double *y, void *ud)
{
  (void)ud;
  y[0] = 0.5 * (sin(t) - cos(t)) + 1.5 * exp(-t);
  y[1] = sin(t);
  return 0;
}

/* The index-2 system x' = z, 0 = x - 1: z appears in no algebraic equation. */
static int index2_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] - y[1];
  r[1] = y[0] - 1.0;
  return 0;
}

/* x' = -x, 0 = z^2 + 1: no real algebraic solution. */
static int nosol_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] + y[0];
  r[1] = y[1] * y[1] + 1.0;
  return 0;
}

static int one_one(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = y[1] = 1.0;
  yp[0] = yp[1] = 0.0;
  return 0;
}

static const int64_t full2_colptr[] = {0, 2, 4};
static const int64_t full2_rowind[] = {0, 1, 0, 1};
static const int xz_id[] = {1, 0};

static sk_model *xz_model(sk_context *ctx, sk_residual_fn res)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 2, &m));
  CHECK_OK(ctx, sk_model_set_residual(m, res));
  CHECK_OK(ctx, sk_model_set_differential(m, xz_id));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, full2_colptr, full2_rowind));
  return m;
}

static void test_exact(sk_context *ctx)
{
  sk_model *m = xz_model(ctx, lin_res);
  CHECK_OK(ctx, sk_model_set_exact(m, lin_exact)); /* y0 exact, y'0 = 0: inconsistent x' */
  double prev = 0;
  for (int k = 0; k < 3; k++) {
    const double rtol = pow(10.0, -5.0 - 2.0 * k);
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, rtol, rtol * 1e-2));
    double t = 0, ex[2];
    CHECK_OK(ctx, sk_stepper_advance(s, 10.0, &t));
    lin_exact(10.0, ex, NULL);
    const double *y = sk_stepper_get_state(s);
    const double err = fmax(fabs(y[0] - ex[0]), fabs(y[1] - ex[1]));
    printf("index-1 DAE, rtol %.0e: max error at t = 10: %.3e\n", rtol, err);
    CHECK(err < 100 * rtol);
    CHECK(k == 0 || err < prev); /* tolerance proportionality: tighter is better */
    prev = err;
    sk_stepper_destroy(&s);
  }
  sk_model_destroy(&m);
}

static void test_refusals(sk_context *ctx)
{
  sk_model *m = xz_model(ctx, index2_res);
  CHECK_OK(ctx, sk_model_set_dae_initial(m, one_one));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  double t = 0;
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "is not an index-1 DAE at t0=0");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "equation 1 has no y' of a differential and no algebraic variable");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);

  m = xz_model(ctx, nosol_res);
  CHECK_OK(ctx, sk_model_set_dae_initial(m, one_one));
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_CONV);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "consistent initial values could not be computed at t0=0");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "at component 1 y[1]");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);

  /* the ODE engines refuse DAE models */
  m = xz_model(ctx, lin_res);
  CHECK(sk_stepper_create(ctx, "cvode-bdf", m, &s) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "cannot integrate a DAE model");
  /* DAE setters refuse ODE models and bad ids */
  const int bad_id[] = {1, 2};
  CHECK(sk_model_set_differential(m, bad_id) == SK_ERR_ARG);
  sk_model *ode = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2, &ode));
  CHECK(sk_model_set_residual(ode, lin_res) == SK_ERR_ARG);
  sk_model_destroy(&ode);
  sk_model_destroy(&m);
}

/* ---- bdf2, the independent reference stepper, on the same DAEs ---- */

/* ROBER from the inconsistent start: the consistent values at t0 in closed
 * form (y3 = 0, y1' = -0.04, y2' = 0.04), y(40) against the published
 * values, the algebraic constraint at the end. */
static void test_bdf2_rober(sk_context *ctx, int analytic)
{
  static const double ref[3] = {0.7158270687, 9.185534764e-6, 0.2841637457};
  sk_model *m = rober_dae(ctx, analytic);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
  const double atol[3] = {1e-12, 1e-16, 1e-12};
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-12));
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_setup(s));
  const double *y = sk_stepper_get_state(s);
  const double *yp = sk_stepper_get_derivative(s);
  CHECK(yp != NULL);
  CHECK_NEAR(y[0], 1.0, 0, 1e-14);
  CHECK_NEAR(y[2], 0.0, 0, 1e-12);
  CHECK_NEAR(yp[0], -0.04, 1e-9, 0);
  CHECK_NEAR(yp[1], 0.04, 1e-9, 0);
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 40.0, &t));
  y = sk_stepper_get_state(s);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  printf("rober DAE, bdf2 (%s Jacobian): y(40) = (%.10f, %.10e, %.10f), %lld steps\n",
         analytic ? "analytic" : "colored FD", y[0], y[1], y[2], (long long)st.steps);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(y[i], ref[i], 2e-6, 0);
  }
  CHECK_NEAR(y[0] + y[1] + y[2], 1.0, 0, 1e-10);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* Fixed steps h, h/2, h/4 on x' = -x + z, 0 = z - sin t from the exact
 * y0 with y'0 = 0 (inconsistent): the error at t = 2 of the differential x
 * falls by 4 per halving (order 2); the algebraic z = sin t is met to
 * rounding at every step. */
static void test_bdf2_order(sk_context *ctx)
{
  sk_model *m = xz_model(ctx, lin_res);
  CHECK_OK(ctx, sk_model_set_exact(m, lin_exact));
  double err[3][2];
  for (int k = 0; k < 3; k++) {
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
    CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 0.04 / (1 << k)));
    double t = 0, ex[2];
    CHECK_OK(ctx, sk_stepper_advance(s, 2.0, &t));
    lin_exact(2.0, ex, NULL);
    const double *y = sk_stepper_get_state(s);
    for (int i = 0; i < 2; i++) {
      err[k][i] = fabs(y[i] - ex[i]);
    }
    printf("bdf2 on the index-1 DAE, h = %.3f: error at t = 2: x %.3e, z %.3e\n", 0.04 / (1 << k),
           err[k][0], err[k][1]);
    sk_stepper_destroy(&s);
  }
  for (int k = 1; k < 3; k++) {
    const double ratio = err[k - 1][0] / err[k][0];
    CHECK(ratio > 3.5 && ratio < 4.5);
  }
  for (int k = 0; k < 3; k++) { /* z = sin t: the algebraic equation is solved exactly */
    CHECK(err[k][1] <= 1e-14);
  }
  sk_model_destroy(&m);
}

/* No consistent values (z^2 + 1 = 0) and an index-2 system (a singular
 * Newton matrix): SK_ERR_CONV naming what failed. */
static void test_bdf2_refusals(sk_context *ctx)
{
  sk_residual_fn res[2] = {nosol_res, index2_res};
  const char *why[2] = {"Newton did not converge", "the Newton matrix is singular"};
  for (int k = 0; k < 2; k++) {
    sk_model *m = xz_model(ctx, res[k]);
    CHECK_OK(ctx, sk_model_set_dae_initial(m, one_one));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
    CHECK(sk_stepper_setup(s) == SK_ERR_CONV);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "no consistent initial values at t=0");
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, why[k]);
    sk_stepper_destroy(&s);
    sk_model_destroy(&m);
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_rober(ctx, 1, "klu");
  test_rober(ctx, 0, "klu");
  test_rober(ctx, 1, "dense");
  test_initialize(ctx);
  test_exact(ctx);
  test_refusals(ctx);
  test_bdf2_rober(ctx, 1);
  test_bdf2_rober(ctx, 0);
  test_bdf2_order(ctx);
  test_bdf2_refusals(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
