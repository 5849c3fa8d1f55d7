/* tests/unit/test_stability_guard.c: the stability guard's step limits against closed-form stability boundaries, its refusal and warning, and the blow-up check of reference and SUNDIALS engines against exact solutions */
#include <string.h>

#include "steppers/stability_guard.h"
#include "test.h"

static double limit(const char *method, double re, double im, int *weak)
{
  sk_stability_method m;
  CHECK(sk_stability_method_get(method, &m) == 0);
  return sk__guard_step_limit(&m, re, im, weak);
}

/* The step limits from the stability regions, on the scale lambda = 1000. */
static void check_limits(void)
{
  int weak = -1;
  /* Euler: |1 + z| <= 1, the real interval [-2, 0]: h <= 2/1000 */
  CHECK_NEAR(limit("euler", -1000.0, 0.0, &weak), 2.0 / 1000.0, 1e-12, 0);
  CHECK(weak == 0);
  /* RK4: R(x) > 0 on the real axis, so the real interval ends where R(z) = 1, i.e. at
   * the real root of z^3 + 4 z^2 + 12 z + 24 = 0 (24 (R(z) - 1) / z), -2.785293563405282
   * (Hairer & Wanner, Solving ODEs II, IV.2: -2.785) */
  const double h4 = limit("rk4", -1000.0, 0.0, &weak), z4 = -1000.0 * h4;
  CHECK_NEAR(h4, 2.785293563405282e-3, 1e-9, 0);
  CHECK_NEAR(z4 * z4 * z4 + 4 * z4 * z4 + 12 * z4 + 24, 0.0, 0, 1e-8);
  /* RK4 on the imaginary axis: |R(iy)|^2 = 1 - y^6/72 + y^8/576 = 1 at y^2 = 8 */
  CHECK_NEAR(limit("rk4", 0.0, 1000.0, &weak), sqrt(8.0) / 1000.0, 1e-9, 0);
  CHECK(weak == 0);
  CHECK_NEAR(limit("rk4", 0.0, -1000.0, &weak), sqrt(8.0) / 1000.0, 1e-9, 0);
  /* Euler on the ray at 135 degrees: |1 + s e^{i theta}|^2 = 1 + 2 s cos theta + s^2 <= 1
   * for s <= -2 cos theta = sqrt 2 */
  const double c = 1000.0 / sqrt(2.0);
  CHECK_NEAR(limit("euler", -c, c, &weak), sqrt(2.0) / 1000.0, 1e-9, 0);
  CHECK(weak == 0);
  /* Euler on the imaginary axis is unstable for every h > 0 (|1 + iy| > 1): the region
   * meets the axis only at 0, and the weak limit is sqrt(1 + y^2) = 1 + 1e-3 */
  CHECK_NEAR(limit("euler", 0.0, 1000.0, &weak), sqrt(1.001 * 1.001 - 1.0) / 1000.0, 1e-9, 0);
  CHECK(weak == 1);
  /* AB2: rho - z sigma = zeta^2 - (1 + 3z/2) zeta + z/2; at z = -1 the root zeta = -1,
   * the real interval [-1, 0] */
  CHECK_NEAR(limit("ab2", -1000.0, 0.0, &weak), 1.0 / 1000.0, 1e-9, 0);
  /* a growing dominant mode, and a zero Jacobian: no limit */
  CHECK(isinf(limit("euler", 1000.0, 0.0, &weak)));
  CHECK(isinf(limit("rk4", 0.0, 0.0, &weak)));
  printf("  limits: euler 2/1000, rk4 %.12e (real) %.9e (imaginary), euler weak %.6e\n", h4,
         limit("rk4", 0.0, 1000.0, &weak), limit("euler", 0.0, 1000.0, &weak));
}

/* ---- models ---------------------------------------------------------------
 * 0: y' = -diag(1, 1000) y, y(0) = (1, 1): y = (e^{-t}, e^{-1000 t})
 * 1: y' = y^2, y(0) = 1: y = 1 / (1 - t), which passes 1e8 at t = 1 - 1e-8
 * 2: y' = 1e308, y(0) = 0: y = 1e308 t, past DBL_MAX (Inf) after t = 1.8 */
static int rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  switch (*(const int *)ud) {
  case 0:
    f[0] = -y[0];
    f[1] = -1000.0 * y[1];
    break;
  case 1:
    f[0] = y[0] * y[0];
    break;
  default:
    f[0] = 1e308;
    break;
  }
  return 0;
}

static int jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  switch (*(const int *)ud) {
  case 0:
    v[0] = -1.0;
    v[1] = -1000.0;
    break;
  case 1:
    v[0] = 2.0 * y[0];
    break;
  default:
    v[0] = 0.0;
    break;
  }
  return 0;
}

static int initial(double t, double *y, void *ud)
{
  (void)t;
  const int which = *(const int *)ud;
  y[0] = which == 2 ? 0.0 : 1.0;
  if (which == 0) {
    y[1] = 1.0;
  }
  return 0;
}

static sk_model *make(sk_context *ctx, int *which)
{
  static const int64_t cp2[] = {0, 1, 2}, ri2[] = {0, 1}, cp1[] = {0, 1}, ri1[] = {0};
  const int64_t n = *which == 0 ? 2 : 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, n, &m));
  sk_model_set_name(m, "guard");
  sk_model_set_user_data(m, which, NULL);
  sk_model_set_rhs(m, rhs);
  sk_model_set_initial(m, initial);
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, n == 2 ? cp2 : cp1, n == 2 ? ri2 : ri1));
  sk_model_set_jac_values(m, jac);
  return m;
}

typedef struct {
  int warnings;
  char last[4096];
} log_capture;

static void capture(void *ud, sk_log_level level, const char *msg)
{
  log_capture *c = ud;
  if (level == SK_LOG_WARN) {
    c->warnings++;
    snprintf(c->last, sizeof c->last, "%s", msg);
  }
}

static sk_stepper *stepper(sk_context *ctx, const char *method, sk_model *m, double h)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
  return s;
}

static void check_refusal(sk_context *ctx, log_capture *log)
{
  int which = 0;
  sk_model *m = make(ctx, &which);
  double t = 0;
  /* refused before the first step, the limit 2/1000 named */
  sk_stepper *s = stepper(ctx, "euler", m, 0.0021);
  CHECK(!sk_stepper_get_allow_unstable(s));
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_UNSTABLE);
  const char *msg = sk_context_get_error(ctx)->message;
  printf("  refused: %s\n", msg);
  CHECK_STR_CONTAINS(msg, "euler is unstable for h > 2.000e-03 here");
  CHECK_STR_CONTAINS(msg, "lambda = -1.000e+03");
  CHECK_STR_CONTAINS(msg, "h = 2.100e-03");
  CHECK_STR_CONTAINS(msg, "set solver.allow_unstable=true to run anyway");
  CHECK(sk_stepper_get_time(s) == 0.0);
  sk_stepper_destroy(&s);
  /* rk4 on the same matrix: 2.785/1000 */
  s = stepper(ctx, "rk4", m, 0.0028);
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_UNSTABLE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "rk4 is unstable for h > 2.785e-03");
  sk_stepper_destroy(&s);
  /* a stable step runs and matches the exact solution: e^{-t} to Euler's first-order
   * error (h t e^{-t} / 2 (1 + O(h)) = 3.5e-4 at h = 0.0019, t = 1), e^{-1000 t} (0 in
   * double) to 1e-20 (the recursion's (-0.9)^527 = 9e-25) */
  s = stepper(ctx, "euler", m, 0.0019);
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  const double *y = sk_stepper_get_state(s);
  CHECK_NEAR(y[0], exp(-1.0), 0, 4e-4);
  CHECK_NEAR(y[1], exp(-1000.0), 0, 1e-20);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  CHECK(st.rhs_evals_stability >= 1); /* t0 and every 100 steps, one RHS call each */
  sk_stepper_destroy(&s);
  /* allowed: one warning, the run goes on until the growth check stops it. The fast mode
   * is (1 - 2.1)^k = (-1.1)^k: it first exceeds 1e8 max(|y0|, 1) = 1e8 at k = 194
   * (1.1^193 = 9.8e7, 1.1^194 = 1.07e8), t = 194 h = 0.4074 */
  s = stepper(ctx, "euler", m, 0.0021);
  CHECK_OK(ctx, sk_stepper_set_allow_unstable(s, 1));
  const int w0 = log->warnings;
  CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_BLOWUP);
  CHECK_EQ_INT(log->warnings - w0, 1);
  CHECK_STR_CONTAINS(log->last, "running anyway (solver.allow_unstable=true)");
  msg = sk_context_get_error(ctx)->message;
  printf("  blow-up: %s\n", msg);
  CHECK_STR_CONTAINS(msg, "at t=4.074000e-01: component 1 (y[1])");
  CHECK_STR_CONTAINS(msg, "solver.max_growth");
  CHECK_NEAR(sk_stepper_get_time(s), 194 * 0.0021, 1e-12, 0);
  sk_stepper_destroy(&s);
  /* allowed and no growth limit: to t = 1 (476 steps of 0.0021 and one of 0.0004), the
   * fast mode 1.1^476 (1 - 0.4) as the recursion gives */
  s = stepper(ctx, "euler", m, 0.0021);
  CHECK_OK(ctx, sk_stepper_set_allow_unstable(s, 1));
  CHECK_OK(ctx, sk_stepper_set_max_growth(s, 0));
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  CHECK_NEAR(sk_stepper_get_state(s)[1], pow(1.1, 476) * (1.0 - 1000.0 * (1.0 - 476 * 0.0021)),
             1e-9, 0);
  sk_stepper_destroy(&s);
  /* implicit methods are not checked (A-stable) */
  s = stepper(ctx, "beuler", m, 0.5);
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  sk_stepper_destroy(&s);
  /* bad values */
  s = stepper(ctx, "euler", m, 0.001);
  CHECK(sk_stepper_set_max_growth(s, 0.5) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.max_growth");
  CHECK(sk_stepper_get_max_growth(s) == 1e8);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* The growth check on engines without a stability guard: y = 1/(1 - t) passes 1e8 at
 * t = 1 - 1e-8; cvode-bdf and the adaptive rk45 must stop there, component 0 named. */
static void check_blowup(sk_context *ctx)
{
  int which = 1;
  sk_model *m = make(ctx, &which);
  const char *methods[] = {"cvode-bdf", "rk45"};
  for (int k = 0; k < 2; k++) {
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, methods[k], m, &s));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
    double t = 0;
    const sk_status rc = sk_stepper_advance(s, 0.99999999 + 1e-9, &t);
    const double tf = sk_stepper_get_time(s);
    printf("  %s on y' = y^2: %s at t = 1 - %.3e\n", methods[k], sk_status_name(rc), 1.0 - tf);
    CHECK(rc == SK_ERR_BLOWUP);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "component 0 (y[0])");
    /* the state it stopped on is beyond the limit, and the engine got near the
     * singularity first (the exact y is 1e6 at t = 1 - 1e-6; near t = 1 the numerical
     * solution runs ahead of it: its errors grow like y^2) */
    CHECK(sk_stepper_get_state(s)[0] > 1e8);
    CHECK(tf > 1.0 - 1e-6 && tf < 1.0);
    sk_stepper_destroy(&s);
  }
  sk_model_destroy(&m);
  /* a non-finite state with finite RHS values: 0, 1e308, Inf (1e308 + 1e308) */
  which = 2;
  m = make(ctx, &which);
  sk_stepper *s = stepper(ctx, "euler", m, 1.0);
  CHECK_OK(ctx, sk_stepper_set_max_growth(s, 0));
  double t = 0;
  CHECK(sk_stepper_advance(s, 5.0, &t) == SK_ERR_BLOWUP);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "the state became non-finite at t=2.000000e+00: component 0 (y[0]) is inf");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(NULL, sk_context_create(&ctx));
  log_capture log = {0, ""};
  sk_context_set_log(ctx, SK_LOG_WARN, capture, &log);
  check_limits();
  check_refusal(ctx, &log);
  check_blowup(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
