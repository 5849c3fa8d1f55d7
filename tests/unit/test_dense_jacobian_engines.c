/* tests/unit/test_dense_jacobian_engines.c: a dense Jacobian callback through CVODE, IDA, KINSOL and a reference stepper reproduces the same model given as a full CSC pattern with values */
#include "parity/cvroberts.h"

/* The independent path: the same Jacobian given as the full CSC pattern
 * and its values (sk_model_set_jac_pattern + sk_model_set_jac_values),
 * the way the cvRoberts_dns parity test reproduces SUNDIALS' published
 * step counts. A dense callback that reaches the engine's matrix
 * unchanged gives the same step counts and bitwise the same state; a
 * third run without any Jacobian (CVODE's difference quotients) shows
 * that the comparison can tell them apart. */

/* cvRoberts_dns's Jacobian as a dense column-major array */
static int rober_dense(double t, const double *y, const double *fy, double *J, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  J[0] = -0.04;
  J[1] = 0.04;
  J[3] = 1.0e4 * y[2];
  J[4] = -1.0e4 * y[2] - 6.0e7 * y[1];
  J[5] = 6.0e7 * y[1];
  J[6] = 1.0e4 * y[1];
  J[7] = -1.0e4 * y[1];
  return 0;
}

/* the same entries in the full pattern's order */
static const int64_t full3_colptr[4] = {0, 3, 6, 9};
static const int64_t full3_rowind[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
static int rober_values(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = -0.04;
  v[1] = 0.04;
  v[2] = 0.0;
  v[3] = 1.0e4 * y[2];
  v[4] = -1.0e4 * y[2] - 6.0e7 * y[1];
  v[5] = 6.0e7 * y[1];
  v[6] = 1.0e4 * y[1];
  v[7] = -1.0e4 * y[1];
  v[8] = 0.0;
  return 0;
}

typedef enum { GIVE_DENSE, GIVE_CSC, GIVE_NONE } jac_source;

static sk_model *rober(sk_context *ctx, jac_source src)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, cvroberts_rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, cvroberts_initial));
  if (src == GIVE_DENSE) {
    CHECK_OK(ctx, sk_model_set_dense_jacobian(m, rober_dense));
  } else if (src == GIVE_CSC) {
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, full3_colptr, full3_rowind));
    CHECK_OK(ctx, sk_model_set_jac_values(m, rober_values));
  }
  return m;
}

/* Integrate to t_end with `engine` and `linsol`; the stats and final state out. */
static void integrate(sk_context *ctx, sk_model *m, const char *engine, const char *linsol,
                      double t_end, sk_stats *st, double *y, int64_t n)
{
  sk_stepper *s = NULL;
  memset(st, 0, sizeof *st);
  CHECK_OK(ctx, sk_stepper_create(ctx, engine, m, &s));
  if (!s) {
    return;
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1.0e-4, 1.0e-8));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, linsol));
  if (!strcmp(engine, "beuler")) { /* a fixed-step method */
    CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 1e-3));
  }
  double t = 0.0;
  CHECK_OK(ctx, sk_stepper_advance(s, t_end, &t));
  CHECK_OK(ctx, sk_stepper_get_stats(s, st));
  memcpy(y, sk_stepper_get_state(s), (size_t)n * sizeof *y);
  sk_stepper_destroy(&s);
}

static void check_same_run(const sk_stats *a, const sk_stats *b, const double *ya,
                           const double *yb, int64_t n)
{
  CHECK_EQ_INT(a->steps, b->steps);
  CHECK_EQ_INT(a->failed_steps, b->failed_steps);
  CHECK_EQ_INT(a->rhs_evals, b->rhs_evals);
  CHECK_EQ_INT(a->jac_evals, b->jac_evals);
  CHECK_EQ_INT(a->newton_iters, b->newton_iters);
  CHECK_EQ_INT(a->newton_fails, b->newton_fails);
  CHECK_EQ_INT(a->lin_setups, b->lin_setups);
  CHECK(a->last_h == b->last_h);
  for (int64_t i = 0; i < n; i++) {
    CHECK(ya[i] == yb[i]);
  }
}

/* CVODE (dense and KLU) and backward Euler: the dense callback against the full CSC pattern. */
static void test_roberts(sk_context *ctx)
{
  static const struct {
    const char *engine, *linsol;
    double t_end;
  } runs[] = {
      {"cvode-bdf", "dense", 4.0e10}, {"cvode-bdf", "klu", 4.0e10}, {"beuler", "klu", 0.4}};
  for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    sk_stats st[3];
    double y[3][3];
    for (int src = GIVE_DENSE; src <= GIVE_NONE; src++) {
      if (src == GIVE_NONE && strcmp(runs[k].linsol, "dense")) {
        continue; /* klu needs a pattern */
      }
      sk_model *m = rober(ctx, (jac_source)src);
      integrate(ctx, m, runs[k].engine, runs[k].linsol, runs[k].t_end, &st[src], y[src], 3);
      sk_model_destroy(&m);
    }
    printf("%s %s: %lld steps, %lld RHS evaluations (%lld in difference quotients), %lld "
           "Jacobians\n",
           runs[k].engine, runs[k].linsol, (long long)st[0].steps, (long long)st[0].rhs_evals,
           (long long)st[0].rhs_evals_dq, (long long)st[0].jac_evals);
    CHECK(st[0].steps > 0);
    CHECK_EQ_INT(st[GIVE_DENSE].rhs_evals_dq, 0);
    CHECK_EQ_INT(st[GIVE_CSC].rhs_evals_dq, 0);
    check_same_run(&st[GIVE_DENSE], &st[GIVE_CSC], y[GIVE_DENSE], y[GIVE_CSC], 3);
    if (!strcmp(runs[k].linsol, "dense")) { /* CVODE's own difference quotients differ */
      CHECK(st[GIVE_NONE].rhs_evals_dq > 0);
      CHECK(st[GIVE_NONE].rhs_evals != st[GIVE_DENSE].rhs_evals);
    }
  }
}

/* A small index-1 DAE: F0 = y0' + 2 y0 - y1, F1 = y1 - y0^2, from the
 * consistent y = (1, 1), y' = (-1, 0); its dF/dy + cj dF/dy' is
 * [[2 + cj, -1], [-2 y0, 1]]. */
static int dae_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] + 2.0 * y[0] - y[1];
  r[1] = y[1] - y[0] * y[0];
  return 0;
}

static int dae_dense(double t, double cj, const double *y, const double *yp, const double *r,
                     double *J, void *ud)
{
  (void)t;
  (void)yp;
  (void)r;
  (void)ud;
  J[0] = 2.0 + cj;
  J[1] = -2.0 * y[0];
  J[2] = -1.0;
  J[3] = 1.0;
  return 0;
}

static const int64_t full2_colptr[3] = {0, 2, 4};
static const int64_t full2_rowind[4] = {0, 1, 0, 1};
static int dae_values(double t, double cj, const double *y, const double *yp, const double *r,
                      double *v, void *ud)
{
  return dae_dense(t, cj, y, yp, r, v, ud); /* the full pattern's order is the array's */
}

static int dae_init(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = y[1] = 1.0;
  yp[0] = -1.0;
  yp[1] = 0.0;
  return 0;
}

static void test_ida(sk_context *ctx)
{
  static const int id[2] = {1, 0};
  sk_stats st[2];
  double y[2][2];
  for (int src = 0; src < 2; src++) {
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 2, &m));
    CHECK_OK(ctx, sk_model_set_residual(m, dae_res));
    CHECK_OK(ctx, sk_model_set_dae_initial(m, dae_init));
    CHECK_OK(ctx, sk_model_set_differential(m, id));
    if (src == 0) {
      CHECK_OK(ctx, sk_model_set_dae_dense_jacobian(m, dae_dense));
    } else {
      CHECK_OK(ctx, sk_model_set_jac_pattern(m, full2_colptr, full2_rowind));
      CHECK_OK(ctx, sk_model_set_dae_jac_values(m, dae_values));
    }
    integrate(ctx, m, "ida-bdf", "dense", 5.0, &st[src], y[src], 2);
    sk_model_destroy(&m);
  }
  printf("ida-bdf dense: %lld steps, y0(5) = %.10g\n", (long long)st[0].steps, y[0][0]);
  CHECK(st[0].steps > 0);
  CHECK_EQ_INT(st[0].rhs_evals_dq, 0);
  check_same_run(&st[0], &st[1], y[0], y[1], 2);
  /* y0' = -2 y0 + y0^2 from y0 = 1: y0 = 2 / (1 + e^{2t}), to the tolerance */
  CHECK_NEAR(y[0][0], 2.0 / (1.0 + exp(10.0)), 0.0, 1e-6);
}

/* KINSOL on f(u) = A u - b with b = A u*: the dense callback gives A, so
 * exact Newton lands on u* in one iteration without difference quotients,
 * with the dense solver (auto's choice for the full pattern) and with KLU. */
#define NA 4
static const double A[NA][NA] = {
    {4.0, 1.0, 0.0, 0.5}, {1.0, 5.0, 2.0, 0.0}, {0.0, 2.0, 6.0, 1.0}, {0.5, 0.0, 1.0, 3.0}};
static const double ustar[NA] = {1.0, -2.0, 3.0, 0.5};

static int lin_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < NA; i++) {
    f[i] = 0.0;
    for (int j = 0; j < NA; j++) {
      f[i] += A[i][j] * (u[j] - ustar[j]);
    }
  }
  return 0;
}

static int lin_jac(double t, const double *u, const double *fu, double *J, void *ud)
{
  (void)t;
  (void)u;
  (void)fu;
  (void)ud;
  for (int j = 0; j < NA; j++) {
    for (int i = 0; i < NA; i++) {
      J[i + j * NA] = A[i][j];
    }
  }
  return 0;
}

static void test_kinsol(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NA, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, lin_rhs));
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, lin_jac));
  const char *const linsols[] = {"auto", "dense", "klu", "umfpack"};
  for (size_t k = 0; k < sizeof linsols / sizeof linsols[0]; k++) {
    sk_steady_settings set;
    sk_steady_settings_default(&set);
    snprintf(set.linsol, sizeof set.linsol, "%s", linsols[k]);
    set.fnormtol = 1e-12;
    double u[NA] = {0.0, 0.0, 0.0, 0.0};
    sk_steady_report r;
    CHECK_OK(ctx, sk_steady_solve(ctx, m, &set, u, &r));
    printf("steady %s (%s): %lld iterations, %lld Jacobians, %lld DQ evaluations\n", linsols[k],
           r.linsol, (long long)r.newton_iters, (long long)r.jac_evals, (long long)r.f_evals_dq);
    CHECK_EQ_INT(strcmp(r.linsol, k == 0 ? "dense" : linsols[k]), 0);
    CHECK_EQ_INT(r.newton_iters, 1);
    CHECK_EQ_INT(r.jac_evals, 1);
    CHECK_EQ_INT(r.f_evals_dq, 0);
    for (int i = 0; i < NA; i++) {
      CHECK_NEAR(u[i], ustar[i], 0.0, 1e-13);
    }
  }
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_roberts(ctx);
  test_ida(ctx);
  test_kinsol(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
