/* tests/unit/test_suppress_alg.c: solver.suppress_alg leaves the algebraic variables out of IDA's error test while IDACalcIC still makes the initial values consistent; sk_model_set_dae_consistent keeps its meaning */
#include "test.h"

/* ROBER as the DAE of SUNDIALS' idaRoberts_dns (y3 algebraic):
 *   F1 = -0.04 y1 + 1e4 y2 y3 - y1',  F2 = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2 - y2',
 *   F3 = y1 + y2 + y3 - 1 */
static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = -0.04 * y[0] + 1.0e4 * y[1] * y[2] - yp[0];
  r[1] = -r[0] - 3.0e7 * y[1] * y[1] - yp[0] - yp[1];
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}

/* inconsistent on purpose: y3 = 0.5 violates F3, y' = 0 violates F1 and F2;
 * IDACalcIC (IDA_YA_YDP_INIT) must compute y3 = 0 and y' = (-0.04, 0.04, .) */
static int initial(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.0;
  y[2] = 0.5;
  yp[0] = yp[1] = yp[2] = 0.0;
  return 0;
}

/* Integrate to t = 0.4 and return the steps taken; y at 0.4 into y. */
static int64_t run(sk_context *ctx, sk_model *m, int suppress, double *y)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-4, 1e-6));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_set_suppress_alg(s, suppress));
  CHECK(sk_stepper_get_suppress_alg(s) == suppress);
  double t;
  CHECK_OK(ctx, sk_stepper_advance(s, 0.4, &t));
  for (int i = 0; i < 3; i++) {
    y[i] = sk_stepper_get_state(s)[i];
  }
  CHECK(sk_stepper_set_suppress_alg(s, 1) == SK_ERR_STATE); /* not after setup */
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  sk_stepper_destroy(&s);
  return st.steps;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 3, &m));
  sk_model_set_name(m, "rober_dae");
  CHECK_OK(ctx, sk_model_set_residual(m, residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, initial));
  const int id[3] = {1, 1, 0};
  CHECK_OK(ctx, sk_model_set_differential(m, id));

  /* expected y(0.4): idaRoberts_dns.out (SUNDIALS 6.4.1, rtol 1e-4), 9.8517e-01
     3.3864e-05 1.4794e-02, y1 and y2 to 1e-3 relative; y3 = 1 - y1 - y2 (F3) carries
     y1's absolute error, so it is checked to 1e-3 absolute (measured: 1.5e-4 with
     suppression, y3 then out of the error test);
     reaching it from y3 = 0.5 needs IDACalcIC to have run with suppression on */
  const double ref[3] = {9.8517e-01, 3.3864e-05, 1.4794e-02};
  double y_off[3], y_on[3];
  const int64_t steps_off = run(ctx, m, 0, y_off);
  const int64_t steps_on = run(ctx, m, 1, y_on);
  printf("steps to t = 0.4: suppress_alg off %lld, on %lld\n", (long long)steps_off,
         (long long)steps_on);
  for (int i = 0; i < 3; i++) {
    const double abs_tol = i == 2 ? 1e-3 : 0.0;
    CHECK_NEAR(y_off[i], ref[i], 1e-3, abs_tol);
    CHECK_NEAR(y_on[i], ref[i], 1e-3, abs_tol);
  }
  /* y3 leaves the error test: IDA then takes different steps (the switch is applied) */
  CHECK(steps_on != steps_off);

  /* solver.suppress_alg through the options */
  {
    sk_options *o = NULL;
    size_t n = 0;
    const sk_option_spec *t = sk_stepper_options(&n);
    CHECK_OK(ctx, sk_options_create(ctx, &o));
    CHECK_OK(ctx, sk_options_register(o, t, n));
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.suppress_alg=true"));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
    CHECK(sk_stepper_get_suppress_alg(s) == 0);
    CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
    CHECK(sk_stepper_get_suppress_alg(s) == 1);
    sk_stepper_destroy(&s);
    sk_options_destroy(&o);
  }

  /* backwards compatible: a model marked consistent with suppression reports it */
  CHECK_OK(ctx, sk_model_set_dae_consistent(m, 1));
  {
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
    CHECK(sk_stepper_get_suppress_alg(s) == 1);
    sk_stepper_destroy(&s);
  }
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
