/* tests/unit/test_verify_api.c: sk_verify_ivp and sk_verify_bvp called as a client would, through the public headers: exact solutions confirm what the report says, a wrong Jacobian fails it */
#define _POSIX_C_SOURCE 200809L
#include "../test.h"

/* The chain A -> B -> C: y0' = -k1 y0, y1' = k1 y0 - k2 y1, y(0) = (1, 0), with
 * y0 = exp(-k1 t), y1 = k1 / (k2 - k1) (exp(-k1 t) - exp(-k2 t)). */
#define K1 1.0
#define K2 50.0

typedef struct {
  double wrong; /* the factor on d y1' / d y0 in the analytic Jacobian (1: right) */
} chain;

static int chain_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  ydot[0] = -K1 * y[0];
  ydot[1] = K1 * y[0] - K2 * y[1];
  return 0;
}

static int chain_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  const chain *c = ud;
  v[0] = -K1;           /* (0, 0) */
  v[1] = K1 * c->wrong; /* (1, 0) */
  v[2] = -K2;           /* (1, 1) */
  return 0;
}

static int chain_exact(double t, double *y, void *ud)
{
  (void)ud;
  y[0] = exp(-K1 * t);
  y[1] = K1 / (K2 - K1) * (exp(-K1 * t) - exp(-K2 * t));
  return 0;
}

static int chain_initial(double t0, double *y, void *ud)
{
  return chain_exact(t0, y, ud);
}

static sk_model *chain_model(sk_context *ctx, chain *c)
{
  static const int64_t colptr[] = {0, 2, 3}, rowind[] = {0, 1, 1};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "chain"));
  CHECK_OK(ctx, sk_model_set_user_data(m, c, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, chain_rhs));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  CHECK_OK(ctx, sk_model_set_jac_values(m, chain_jac));
  CHECK_OK(ctx, sk_model_set_exact(m, chain_exact));
  CHECK_OK(ctx, sk_model_set_initial(m, chain_initial));
  return m;
}

static sk_stepper *chain_stepper(sk_context *ctx, sk_model *m, int check_jacobian)
{
  sk_stepper *s = NULL;
  double y0[2];
  chain_initial(0.0, y0, NULL);
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, check_jacobian));
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-10));
  CHECK_OK(ctx, sk_stepper_setup(s));
  return s;
}

static sk_verify_verdict verdict_of(const sk_verify_report *r, const char *name)
{
  sk_verify_verdict v = SK_VERIFY_NOT_VERIFIED;
  const int k = sk_verify_report_find(r, name);
  CHECK(k >= 0);
  CHECK_EQ_INT(sk_verify_report_check(r, k, NULL, &v, NULL, NULL), 0);
  return v;
}

/* The right model: every check passes, the report's true error is the one the
 * exact solution gives for the final production state, and the claimed error
 * covers the true one at every output time. */
static void right_model(sk_context *ctx)
{
  chain c = {.wrong = 1.0};
  sk_model *m = chain_model(ctx, &c);
  sk_stepper *s = chain_stepper(ctx, m, 1);
  double times[10];
  for (int k = 0; k < 10; k++) {
    times[k] = 0.2 * (k + 1);
  }
  const int64_t probes[] = {1};
  const char *const names[] = {"B"};
  const sk_verify_ivp_job job = {.stepper = s,
                                 .times = times,
                                 .ntimes = 10,
                                 .probes = probes,
                                 .probe_names = names,
                                 .nprobes = 1};
  sk_verify_report *r = NULL;
  CHECK_OK(ctx, sk_verify_ivp(ctx, &job, &r));
  if (!r) {
    return;
  }
  CHECK_EQ_INT(sk_verify_report_failed(r), 0);
  CHECK_EQ_INT(verdict_of(r, "exact_solution"), SK_VERIFY_PASS);
  CHECK_EQ_INT(verdict_of(r, "tolerance_refinement"), SK_VERIFY_PASS);
  CHECK_EQ_INT(verdict_of(r, "reference_stepper"), SK_VERIFY_PASS);
  CHECK_EQ_INT(verdict_of(r, "jacobian_initial"), SK_VERIFY_PASS);
  CHECK_EQ_INT(verdict_of(r, "jacobian_final"), SK_VERIFY_PASS);
  /* the stepper ends at the last output time: its state against the exact solution */
  const double *y = sk_stepper_get_state(s);
  double ex[2];
  chain_exact(times[9], ex, NULL);
  const double err = fmax(fabs(y[0] - ex[0]), fabs(y[1] - ex[1]));
  double t, claimed, vouched, true_err, true_digits;
  CHECK_EQ_INT(sk_verify_report_time(r, 9, &t, &claimed, &vouched, &true_err, &true_digits), 0);
  CHECK_NEAR(t, times[9], 0, 0);
  CHECK_NEAR(true_err, err, 1e-12, 1e-300);
  const int k = sk_verify_report_find(r, "exact_solution");
  CHECK_NEAR(sk_verify_report_number(r, k, "true_err_max"), err, 1e-12, 1e-300);
  CHECK(isnan(sk_verify_report_number(r, k, "no_such_number")));
  for (size_t j = 0; j < 10; j++) {
    CHECK_EQ_INT(sk_verify_report_time(r, j, &t, &claimed, &vouched, &true_err, &true_digits), 0);
    CHECK(claimed >= true_err);
    CHECK(vouched <= true_digits);
    CHECK(true_err < 1e-4); /* rtol 1e-6 on a smooth solution */
  }
  CHECK_EQ_INT(sk_verify_report_time(r, 10, &t, &claimed, &vouched, &true_err, &true_digits), -1);
  CHECK_EQ_INT(sk_verify_report_check(r, sk_verify_report_ncheck(r), NULL, NULL, NULL, NULL), -1);
  /* both written forms say the same */
  char *text = NULL, *json = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  sk_verify_report_print(r, f);
  fclose(f);
  f = open_memstream(&json, &len);
  sk_verify_report_write_json(r, f);
  fclose(f);
  CHECK_STR_CONTAINS(text, "result: PASS");
  CHECK_STR_CONTAINS(text, "B  ");
  CHECK_STR_CONTAINS(json, "\"name\": \"exact_solution\", \"verdict\": \"pass\"");
  CHECK_STR_CONTAINS(json, "\"result\": \"pass\"");
  free(text);
  free(json);
  sk_verify_report_destroy(&r);
  CHECK(r == NULL);
  sk_verify_report_destroy(&r); /* NULL is accepted */
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* d y1' / d y0 doubled in the analytic Jacobian (the production stepper runs
 * without its setup self-test): verify's self-test fails, so the report fails. */
static void wrong_jacobian(sk_context *ctx)
{
  chain c = {.wrong = 2.0};
  sk_model *m = chain_model(ctx, &c);
  sk_stepper *s = chain_stepper(ctx, m, 0);
  const double times[] = {0.5, 1.0};
  const sk_verify_ivp_job job = {.stepper = s, .times = times, .ntimes = 2};
  sk_verify_report *r = NULL;
  CHECK_OK(ctx, sk_verify_ivp(ctx, &job, &r));
  if (r) {
    CHECK_EQ_INT(sk_verify_report_failed(r), 1);
    CHECK_EQ_INT(verdict_of(r, "jacobian_initial"), SK_VERIFY_FAIL);
    CHECK_EQ_INT(verdict_of(r, "jacobian_final"), SK_VERIFY_FAIL);
    const int k = sk_verify_report_find(r, "jacobian_initial");
    CHECK_NEAR(sk_verify_report_number(r, k, "outside_pattern"), 0, 0, 0);
    CHECK(sk_verify_report_number(r, k, "rel_err_fro") > 1e-4);
    const char *finding = NULL;
    sk_verify_report_check(r, sk_verify_report_find(r, "jacobian_initial"), NULL, NULL, NULL,
                           &finding);
    CHECK_STR_CONTAINS(finding, "||J - J_fd||_F / ||J||_F");
  }
  sk_verify_report_destroy(&r);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* Jobs that cannot be verified are refused before any solve. */
static void bad_jobs(sk_context *ctx)
{
  chain c = {.wrong = 1.0};
  sk_model *m = chain_model(ctx, &c);
  sk_stepper *s = chain_stepper(ctx, m, 1);
  const double backwards[] = {0.5, 0.2};
  const int64_t outside[] = {2};
  const char *const name[] = {"y[2]"};
  sk_verify_report *r = NULL;
  sk_verify_ivp_job job = {.stepper = NULL, .times = backwards, .ntimes = 1};
  CHECK_EQ_INT(sk_verify_ivp(ctx, &job, &r), SK_ERR_ARG);
  job.stepper = s;
  job.ntimes = 2;
  CHECK_EQ_INT(sk_verify_ivp(ctx, &job, &r), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "not after the one before it");
  job.ntimes = 1;
  job.probes = outside;
  job.probe_names = name;
  job.nprobes = 1;
  CHECK_EQ_INT(sk_verify_ivp(ctx, &job, &r), SK_ERR_ARG);
  CHECK(r == NULL);
  CHECK_EQ_INT(sk_stepper_get_stats(s, &(sk_stats){0}), SK_OK);
  CHECK_NEAR(sk_stepper_get_time(s), 0.0, 0, 0); /* nothing was integrated */
  /* a stepper that has advanced: its extra solves could not start where it started */
  double t;
  CHECK_OK(ctx, sk_stepper_advance(s, 0.1, &t));
  job.nprobes = 0;
  job.times = backwards + 1; /* 0.2 */
  CHECK_EQ_INT(sk_verify_ivp(ctx, &job, &r), SK_ERR_STATE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "the stepper has advanced already");
  CHECK(r == NULL);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* u'' = u on [0, 1], u(0) = 1, u(1) = e: u = exp(x), as (u, u')' = (u', u). */
static int exp_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)p;
  (void)ud;
  f[0] = y[1];
  f[1] = y[0];
  return 0;
}

static int exp_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0] - 1.0;
  g[1] = yb[0] - exp(1.0);
  return 0;
}

static int exp_exact(double x, const double *p, double *y, void *ud)
{
  (void)p;
  (void)ud;
  y[0] = y[1] = exp(x);
  return 0;
}

static void bvp(sk_context *ctx)
{
  sk_bvp *b = NULL;
  CHECK_OK(ctx, sk_bvp_create(ctx, 2, 0.0, 1.0, &b));
  CHECK_OK(ctx, sk_bvp_set_rhs(b, exp_rhs, NULL));
  CHECK_OK(ctx, sk_bvp_set_bc(b, exp_bc, NULL, 1, 1));
  CHECK_OK(ctx, sk_bvp_set_exact(b, exp_exact));
  sk_bvp_settings settings;
  sk_bvp_settings_default(&settings);
  sk_verify_report *r = NULL;
  CHECK_OK(ctx, sk_verify_bvp(ctx, b, &settings, &r));
  if (r) {
    CHECK_EQ_INT(sk_verify_report_failed(r), 0);
    CHECK_EQ_INT(verdict_of(r, "fd_vs_multiple_shooting"), SK_VERIFY_PASS);
    CHECK_EQ_INT(verdict_of(r, "exact_solution"), SK_VERIFY_PASS);
    const int k = sk_verify_report_find(r, "exact_solution");
    CHECK(sk_verify_report_number(r, k, "fd_error") <= 10 * settings.tol);
    double t, c, v, e, d;
    CHECK_EQ_INT(sk_verify_report_time(r, 0, &t, &c, &v, &e, &d), -1); /* no time series */
  }
  sk_verify_report_destroy(&r);
  sk_bvp_destroy(&b);
}

/* A stepper that was never set up nor given its initial state: verify sets it up, so the
 * production run and every extra solve start from the model's initial state. */
static void not_set_up(sk_context *ctx)
{
  chain c = {.wrong = 1.0};
  sk_model *m = chain_model(ctx, &c);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-10));
  const double times[] = {0.5, 1.0, 2.0};
  const sk_verify_ivp_job job = {.stepper = s, .times = times, .ntimes = 3};
  sk_verify_report *r = NULL;
  CHECK_OK(ctx, sk_verify_ivp(ctx, &job, &r));
  if (r) {
    CHECK_EQ_INT(sk_verify_report_failed(r), 0);
    CHECK_EQ_INT(verdict_of(r, "tolerance_refinement"), SK_VERIFY_PASS);
    CHECK_EQ_INT(verdict_of(r, "exact_solution"), SK_VERIFY_PASS);
  }
  sk_verify_report_destroy(&r);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  right_model(ctx);
  wrong_jacobian(ctx);
  bad_jobs(ctx);
  not_set_up(ctx);
  bvp(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
