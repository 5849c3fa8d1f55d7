/* tests/unit/test_stepper_api.c: a user ODE through the public API: accuracy, tolerances, failure paths, budget, monitor */
#include "test.h"

/* y_i' = -lambda_i y_i, y_i(0) = 1: exact y_i(t) = exp(-lambda_i t).
 * Diagonal Jacobian given as a CSC pattern with values. */
typedef struct {
  double lambda[3];
  int mode; /* 0 normal, 1 recoverable once at t > 0.5, 2 fatal at t > 0.5, 3 NaN in y[1] at t > 0.5 */
  int tripped;
} decay;

static int decay_rhs(double t, const double *y, double *ydot, void *ud)
{
  decay *d = ud;
  for (int i = 0; i < 3; i++) {
    ydot[i] = -d->lambda[i] * y[i];
  }
  if (t > 0.5 && d->mode == 1 && !d->tripped) {
    d->tripped = 1;
    return 1;
  }
  if (t > 0.5 && d->mode == 2) {
    return -1;
  }
  if (t > 0.5 && d->mode == 3) {
    ydot[1] = NAN;
  }
  return 0;
}

static int decay_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  decay *d = ud;
  for (int i = 0; i < 3; i++) {
    v[i] = -d->lambda[i];
  }
  return 0;
}

static int decay_exact(double t, double *y, void *ud)
{
  decay *d = ud;
  for (int i = 0; i < 3; i++) {
    y[i] = exp(-d->lambda[i] * t);
  }
  return 0;
}

static int stop_after_3(const sk_stepper *s, double t, double h, void *ud)
{
  (void)s;
  (void)t;
  (void)h;
  int *count = ud;
  return ++*count >= 3;
}

static sk_model *make_model(sk_context *ctx, decay *d)
{
  static const int64_t cp[] = {0, 1, 2, 3};
  static const int64_t ri[] = {0, 1, 2};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_name(m, "decay");
  sk_model_set_user_data(m, d, NULL);
  sk_model_set_rhs(m, decay_rhs);
  sk_model_set_exact(m, decay_exact);
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  sk_model_set_jac_values(m, decay_jac);
  return m;
}

static sk_status solve(sk_context *ctx, sk_model *m, const char *method, const char *ls,
                       double rtol, double *err)
{
  sk_stepper *s = NULL;
  sk_status rc = sk_stepper_create(ctx, method, m, &s);
  if (rc != SK_OK) {
    return rc;
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, rtol, rtol * 1e-3));
  if (ls) {
    CHECK_OK(ctx, sk_stepper_set_linear_solver(s, ls));
  }
  double t;
  rc = sk_stepper_advance(s, 1.0, &t);
  if (rc == SK_OK && err) {
    double ex[3];
    decay_exact(1.0, ex, sk_model_get_user_data(m));
    *err = 0;
    for (int i = 0; i < 3; i++) {
      *err = fmax(*err, fabs(sk_stepper_get_state(s)[i] - ex[i]));
    }
  }
  sk_stepper_destroy(&s);
  CHECK(s == NULL);
  return rc;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  decay d = {{1.0, 10.0, 1000.0}, 0, 0};
  sk_model *m = make_model(ctx, &d);

  /* accuracy against the exact solution, for both engines and several linear solvers */
  const char *solvers[] = {"klu", "umfpack", "dense", "band", "spgmr"};
  for (int k = 0; k < 5; k++) {
    double err;
    CHECK_OK(ctx, solve(ctx, m, "cvode-bdf", solvers[k], 1e-8, &err));
    printf("cvode-bdf/%s: max error %.3e\n", solvers[k], err);
    CHECK(err < 1e-5);
  }
  double err_adams;
  CHECK_OK(ctx, solve(ctx, m, "cvode-adams", "dense", 1e-8, &err_adams));
  CHECK(err_adams < 1e-5);

  /* recoverable RHS failure: CVODE retries and succeeds */
  d.mode = 1;
  double err;
  CHECK_OK(ctx, solve(ctx, m, "cvode-bdf", "klu", 1e-8, &err));
  CHECK(d.tripped == 1 && err < 1e-5);

  /* fatal RHS failure: error names the model and the time */
  d.mode = 2;
  CHECK(solve(ctx, m, "cvode-bdf", "klu", 1e-8, NULL) == SK_ERR_CALLBACK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "right-hand side of model 'decay' failed");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->foreign_name, "CV_");

  /* NaN: the component is named */
  d.mode = 3;
  CHECK(solve(ctx, m, "cvode-bdf", "klu", 1e-8, NULL) == SK_ERR_NONFINITE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "in component 1 (y[1])");
  d.mode = 0;

  /* unknown engine; a linear solver the model cannot feed */
  CHECK(solve(ctx, m, "rk99", NULL, 1e-6, NULL) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "valid solvers: cvode-bdf, cvode-adams");
  sk_model *nojac = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &nojac));
  sk_model_set_user_data(nojac, &d, NULL);
  sk_model_set_rhs(nojac, decay_rhs);
  /* without an initial state or exact solution there is nothing to start from */
  CHECK(solve(ctx, nojac, "cvode-bdf", "dense", 1e-6, NULL) == SK_ERR_STATE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "neither an initial state nor an exact");
  sk_model_set_exact(nojac, decay_exact);
  /* dense and Krylov solvers work without a Jacobian (difference quotients) */
  double err_dq;
  CHECK_OK(ctx, solve(ctx, nojac, "cvode-bdf", "dense", 1e-8, &err_dq));
  CHECK(err_dq < 1e-5);
  CHECK(!sk_model_has_jacobian(nojac)); /* no detection for dense */
  /* KLU needs a pattern: refused with detection off ... */
  sk_stepper *sd = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", nojac, &sd));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(sd, "klu"));
  CHECK_OK(ctx, sk_stepper_set_detect_pattern(sd, SK_DETECT_PATTERN_OFF));
  CHECK(sk_stepper_setup(sd) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "needs a model with a sparse Jacobian");
  sk_stepper_destroy(&sd);
  /* ... and detected by probing by default (decay is diagonal: 3 entries), with the exact answer */
  double err_detect;
  CHECK_OK(ctx, solve(ctx, nojac, "cvode-bdf", "klu", 1e-8, &err_detect));
  CHECK(err_detect < 1e-5);
  const int64_t *dcp, *dri;
  int64_t dnnz;
  sk_model_get_jac_pattern(nojac, &dcp, &dri, &dnnz);
  CHECK_EQ_INT(dnnz, 3);

  /* total step budget: holds across advance calls, error names t and h */
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  sk_stepper_set_max_steps(s, 20);
  double t;
  sk_status rc = SK_OK;
  for (int k = 1; k <= 10 && rc == SK_OK; k++) {
    rc = sk_stepper_advance(s, 0.1 * k, &t);
  }
  CHECK(rc == SK_ERR_TOO_MUCH_WORK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "step budget of 20 steps exhausted at t=");
  sk_stats st;
  sk_stepper_get_stats(s, &st);
  CHECK_EQ_INT(st.steps, 20);
  sk_stepper_destroy(&s);

  /* per-component absolute tolerances are accepted and validated */
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  const double bad_atol[3] = {1e-8, 0.0, 1e-8};
  CHECK(sk_stepper_set_atol_vector(s, bad_atol) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "component 1 (y[1])");
  const double atol[3] = {1e-10, 1e-10, 1e-12};
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  CHECK_NEAR(sk_stepper_get_state(s)[0], exp(-1.0), 1e-5, 0);
  sk_stepper_destroy(&s);

  /* monitor stop: SK_INTERRUPTED after 3 steps, state of the last step */
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  int count = 0;
  sk_stepper_set_monitor(s, stop_after_3, &count);
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_INTERRUPTED);
  CHECK_EQ_INT(count, 3);
  CHECK(t > 0 && t < 1.0);
  CHECK_NEAR(sk_stepper_get_state(s)[0], exp(-t), 1e-4, 0);
  /* single steps continue from there */
  double t2;
  sk_stepper_set_monitor(s, NULL, NULL);
  CHECK_OK(ctx, sk_stepper_step(s, 1.0, &t2));
  CHECK(t2 > t);
  sk_stepper_get_stats(s, &st);
  CHECK_EQ_INT(st.steps, 4);
  CHECK(st.rhs_evals > 0 && st.newton_iters > 0 && st.jac_evals > 0);
  sk_stepper_destroy(&s);

  /* a failed advance leaves the last successful step in place: (t, y) consistent */
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  sk_stepper_set_tolerances(s, 1e-9, 1e-12);
  CHECK_OK(ctx, sk_stepper_advance(s, 0.3, &t));
  d.mode = 2;
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_CALLBACK);
  d.mode = 0;
  t = sk_stepper_get_time(s);
  CHECK(t >= 0.3 && t <= 0.5 + 1e-12);
  {
    double ex[3];
    decay_exact(t, ex, &d);
    for (int i = 0; i < 3; i++) {
      CHECK_NEAR(sk_stepper_get_state(s)[i], ex[i], 1e-6, 1e-9);
    }
  }
  sk_stepper_destroy(&s);

  /* stop time: never stepped past, also across several single steps */
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_stop_time(s, 0.5));
  double tmax = 0;
  for (int k = 0; k < 200 && tmax < 0.5; k++) {
    CHECK_OK(ctx, sk_stepper_step(s, 1.0, &t));
    tmax = fmax(tmax, t);
  }
  CHECK(tmax == 0.5);
  CHECK(sk_stepper_step(s, 1.0, &t) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "cannot step past solver.stop_time");
  CHECK(sk_stepper_advance(s, 0.6, &t) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "beyond solver.stop_time");
  CHECK(sk_stepper_set_stop_time(s, 0.7) == SK_ERR_STATE); /* after setup */
  CHECK_NEAR(sk_stepper_get_state(s)[0], exp(-0.5), 1e-5, 0);
  sk_stepper_destroy(&s);

  /* step-size and order limits are passed to the engine */
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_max_order(s, 2));
  CHECK_OK(ctx, sk_stepper_set_step_limits(s, 1e-6, 0.0, 0.01));
  CHECK_OK(ctx, sk_stepper_step(s, 1.0, &t));
  CHECK_NEAR(t, 1e-6, 1e-12, 0); /* the first step is h0 */
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  sk_stepper_get_stats(s, &st);
  CHECK(st.last_order >= 1 && st.last_order <= 2);
  CHECK(st.last_h <= 0.01 * (1 + 1e-12));
  CHECK(st.steps >= 100); /* hmax = 0.01 over [0, 1] */
  sk_stepper_destroy(&s);
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK(sk_stepper_set_step_limits(s, 0, 0.1, 0.01) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "minimum step 0.1 exceeds maximum step 0.01");
  sk_stepper_destroy(&s);

  sk_model_destroy(&nojac);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
