/* tests/unit/test_stepper_reinit_args.c: sk_stepper_reinit refuses bad input (status, message naming the cause) and then leaves the stepper as it was */
#include "test.h"

/* y_i' = -y_i^3, y(0) = (1, 1, 1): the Jacobian -3 y_i^2 grows with the
 * state, so a fixed explicit step that is stable at y = 1 is not at y = 10. */
static int cubic_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    f[i] = -y[i] * y[i] * y[i];
  }
  return 0;
}

static int cubic_init(double t0, double *y0, void *ud)
{
  (void)t0;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    y0[i] = 1.0;
  }
  return 0;
}

static sk_model *cubic(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_name(m, "cubic");
  sk_model_set_rhs(m, cubic_rhs);
  sk_model_set_initial(m, cubic_init);
  return m;
}

/* 0 = y1 - y2, y2' = -y2 (y = (1, 1)), marked consistent: ida-bdf runs
 * no consistent initialization, so a restart needs y'. */
static int pair_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = y[0] - y[1];
  r[1] = yp[1] + y[1];
  return 0;
}

static int pair_init(double t0, double *y0, double *yp0, void *ud)
{
  (void)t0;
  (void)ud;
  y0[0] = y0[1] = 1.0;
  yp0[0] = yp0[1] = -1.0;
  return 0;
}

/* One bad call: the status, the message, and the stepper unchanged. */
static void expect_refused(sk_context *ctx, sk_stepper *s, double t, int64_t n, const double *y,
                           const double *yp, sk_status want, const char *msg)
{
  const double t_before = sk_stepper_get_time(s), t0_before = sk_stepper_get_t0(s);
  double y_before[3] = {0, 0, 0};
  const int64_t nm = sk_model_get_n(sk_stepper_get_model(s));
  memcpy(y_before, sk_stepper_get_state(s), (size_t)nm * sizeof(double));
  const sk_status rc = sk_stepper_reinit(s, t, n, y, yp);
  printf("  %-13s %s: %s\n", sk_status_name(rc), msg, sk_context_get_error(ctx)->message);
  CHECK_EQ_INT(rc, want);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, msg);
  CHECK(sk_stepper_get_time(s) == t_before);
  CHECK(sk_stepper_get_t0(s) == t0_before);
  CHECK(memcmp(y_before, sk_stepper_get_state(s), (size_t)nm * sizeof(double)) == 0);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = cubic(ctx);
  const double good[3] = {0.5, 0.25, 0.125};
  double t;

  CHECK_EQ_INT(sk_stepper_reinit(NULL, 0.0, 3, good, NULL), SK_ERR_ARG);

  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_stop_time(s, 5.0));
  expect_refused(ctx, s, 0.0, 3, good, NULL, SK_ERR_STATE, "is not set up yet");
  CHECK_OK(ctx, sk_stepper_advance(s, 0.5, &t));

  const double nan_y[3] = {1.0, NAN, 1.0}, inf_yp[3] = {0.0, 0.0, INFINITY};
  expect_refused(ctx, s, 1.0, 3, NULL, NULL, SK_ERR_ARG, "NULL state vector");
  expect_refused(ctx, s, 1.0, 2, good, NULL, SK_ERR_ARG,
                 "the state has 2 components, model 'cubic' has 3");
  expect_refused(ctx, s, NAN, 3, good, NULL, SK_ERR_ARG, "the time must be finite");
  expect_refused(ctx, s, INFINITY, 3, good, NULL, SK_ERR_ARG, "the time must be finite");
  expect_refused(ctx, s, 5.0, 3, good, NULL, SK_ERR_ARG, "is not before solver.stop_time");
  expect_refused(ctx, s, 1.0, 3, nan_y, NULL, SK_ERR_ARG, "state component 1 (");
  expect_refused(ctx, s, 1.0, 3, good, inf_yp, SK_ERR_ARG, "derivative component 2 (");
  /* after the refusals a good call restarts there */
  CHECK_OK(ctx, sk_stepper_reinit(s, 1.0, 3, good, NULL));
  CHECK(sk_stepper_get_time(s) == 1.0 && sk_stepper_get_state(s)[1] == 0.25);
  CHECK_OK(ctx, sk_stepper_advance(s, 2.0, &t));
  /* y' = -y^3 from y(1) = c: y(2) = c / sqrt(1 + 2 c^2) (exact) */
  CHECK_NEAR(sk_stepper_get_state(s)[0], 0.5 / sqrt(1.5), 1e-4, 0);
  sk_stepper_destroy(&s);

  /* the model's constraints hold for a restart state too (SK_ERR_INPUT, as at setup) */
  const int positive[3] = {1, 1, 1};
  CHECK_OK(ctx, sk_model_set_constraints(m, positive));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_setup(s));
  const double negative[3] = {1.0, -1.0, 1.0};
  expect_refused(ctx, s, 0.0, 3, negative, NULL, SK_ERR_INPUT, "violates its constraints");
  sk_stepper_destroy(&s);
  CHECK_OK(ctx, sk_model_set_constraints(m, NULL));

  /* the stability guard at the restart state: forward Euler with h = 0.1 is
   * stable at y = 1 (h lambda = -0.3), not at y = 10 (h lambda = -30) */
  CHECK_OK(ctx, sk_stepper_create(ctx, "euler", m, &s));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 0.1));
  CHECK_OK(ctx, sk_stepper_advance(s, 0.5, &t));
  const double big[3] = {10.0, 10.0, 10.0};
  expect_refused(ctx, s, 0.5, 3, big, NULL, SK_ERR_UNSTABLE, "is unstable for h >");
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t)); /* and it runs on as before */
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);

  /* ida-bdf on a DAE marked consistent: y' is required */
  static const int id[2] = {0, 1};
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 2, &m));
  sk_model_set_name(m, "pair");
  CHECK_OK(ctx, sk_model_set_residual(m, pair_res));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, pair_init));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_set_dae_consistent(m, 0));
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_advance(s, 0.5, &t));
  const double y2[2] = {2.0, 2.0}, yp2[2] = {-2.0, -2.0};
  expect_refused(ctx, s, 0.5, 2, y2, NULL, SK_ERR_ARG, "ida-bdf needs y' (yp) for model 'pair'");
  CHECK_OK(ctx, sk_stepper_reinit(s, 0.5, 2, y2, yp2));
  CHECK_OK(ctx, sk_stepper_advance(s, 1.5, &t));
  /* y2' = -y2 from y2(0.5) = 2: 2 exp(-1) (exact) */
  CHECK_NEAR(sk_stepper_get_state(s)[1], 2.0 * exp(-1.0), 1e-3, 0);
  CHECK_NEAR(sk_stepper_get_state(s)[0], 2.0 * exp(-1.0), 1e-3, 0);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);

  sk_context_destroy(&ctx);
  TEST_RETURN();
}
