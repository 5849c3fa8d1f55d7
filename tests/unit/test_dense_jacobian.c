/* tests/unit/test_dense_jacobian.c: the dense Jacobian callback of the model API: values in the full or the model's own pattern, the self-test, and bad input */
#include "test.h"

/* y' = A y with a fixed nonsymmetric A (n = 4, one zero entry per column):
 * its Jacobian is A itself, the exact expected values. */
#define N 4
static const double A[N][N] = {/* A[i][j] = df_i/dy_j */
                               {-2.0, 1.0, 0.0, 0.5},
                               {0.0, -3.0, 2.0, 0.0},
                               {1.5, 0.0, -1.0, 0.25},
                               {0.0, 0.75, 0.0, -4.0}};

static int linear_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < N; i++) {
    f[i] = 0.0;
    for (int j = 0; j < N; j++) {
      f[i] += A[i][j] * y[j];
    }
  }
  return 0;
}

static int linear_jac(double t, const double *y, const double *fy, double *J, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) {
      J[i + j * N] = A[i][j];
    }
  }
  return 0;
}

/* f_0 = sin(y0 y1), f_1 = y0^2 - exp(y2), f_2 = y1 y2^3, f_3 = cos(y3) + y0:
 * the analytic derivative below, its wrong variant (wrong != 0) doubles
 * df_1/dy0. */
static int nl_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = sin(y[0] * y[1]);
  f[1] = y[0] * y[0] - exp(y[2]);
  f[2] = y[1] * y[2] * y[2] * y[2];
  f[3] = cos(y[3]) + y[0];
  return 0;
}

static void nl_exact(const double *y, double *J)
{
  memset(J, 0, N * N * sizeof *J);
  J[0 + 0 * N] = cos(y[0] * y[1]) * y[1];
  J[0 + 1 * N] = cos(y[0] * y[1]) * y[0];
  J[1 + 0 * N] = 2.0 * y[0];
  J[1 + 2 * N] = -exp(y[2]);
  J[2 + 1 * N] = y[2] * y[2] * y[2];
  J[2 + 2 * N] = 3.0 * y[1] * y[2] * y[2];
  J[3 + 0 * N] = 1.0;
  J[3 + 3 * N] = -sin(y[3]);
}

static int nl_jac(double t, const double *y, const double *fy, double *J, void *ud)
{
  (void)t;
  (void)fy;
  const int *wrong = ud;
  for (int p = 0; p < N * N; p++) {
    CHECK(J[p] == 0.0); /* zeroed on entry */
  }
  nl_exact(y, J);
  if (wrong && *wrong) {
    J[1 + 0 * N] *= 2.0;
  }
  return 0;
}

static int nan_jac(double t, const double *y, const double *fy, double *J, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  J[2 + 1 * N] = NAN;
  return 0;
}

static int dummy_values(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  v[0] = 0.0;
  return 0;
}

static int dae_dense(double t, double cj, const double *y, const double *yp, const double *r,
                     double *J, void *ud)
{
  (void)t;
  (void)y;
  (void)yp;
  (void)r;
  (void)ud;
  J[0] = -cj;
  return 0;
}

static sk_model *make(sk_context *ctx, int64_t n, sk_model_kind kind)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, kind, n, &m));
  return m;
}

/* Without a pattern the model gets the full one and the values are A, in place. */
static void test_full_pattern(sk_context *ctx)
{
  sk_model *m = make(ctx, N, SK_MODEL_ODE);
  CHECK_OK(ctx, sk_model_set_rhs(m, linear_rhs));
  CHECK(!sk_model_has_jacobian(m));
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, linear_jac));
  CHECK(sk_model_has_jacobian(m) && sk_model_has_dense_jacobian(m));
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  CHECK_EQ_INT(nnz, N * N);
  const double y[N] = {1.0, -2.0, 0.5, 3.0};
  double v[N * N];
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, NULL, v));
  for (int j = 0; j < N; j++) {
    for (int p = (int)cp[j]; p < (int)cp[j + 1]; p++) {
      CHECK(v[p] == A[ri[p]][j]);
    }
  }
  CHECK_EQ_INT(sk_model_get_fd_rhs_evals(m), 0); /* no finite differences */
  /* NULL removes the callback and the full pattern it brought */
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, NULL));
  CHECK(!sk_model_has_jacobian(m) && !sk_model_has_dense_jacobian(m));
  sk_model_destroy(&m);
}

/* With the model's own pattern (A's nonzeros) the array is gathered into
 * it; a pattern without an entry the callback sets is refused, naming it. */
static void test_own_pattern(sk_context *ctx)
{
  /* A's nonzeros column by column */
  static const int64_t cp2[N + 1] = {0, 2, 5, 7, 10};
  static const int64_t ri2[10] = {0, 2, 0, 1, 3, 1, 2, 0, 2, 3};
  /* the same without (3, 1) = 0.75 */
  static const int64_t short_colptr[N + 1] = {0, 2, 4, 6, 9};
  static const int64_t short_rowind[9] = {0, 2, 0, 1, 1, 2, 0, 2, 3};
  const double y[N] = {1.0, 1.0, 1.0, 1.0};
  sk_model *m = make(ctx, N, SK_MODEL_ODE);
  CHECK_OK(ctx, sk_model_set_rhs(m, linear_rhs));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp2, ri2));
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, linear_jac));
  double v[10];
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, NULL, v));
  for (int j = 0; j < N; j++) {
    for (int64_t p = cp2[j]; p < cp2[j + 1]; p++) {
      CHECK(v[p] == A[ri2[p]][j]);
    }
  }
  /* removing the callback keeps the model's own pattern */
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, NULL));
  CHECK(sk_model_has_jacobian(m));
  /* a pattern set after the callback replaces the full one; missing entries are named */
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, linear_jac));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, short_colptr, short_rowind));
  CHECK_EQ_INT(sk_model_eval_jac(m, 0.0, y, NULL, v), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "outside the Jacobian pattern");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "(row 3 y[3], column 1 y[1]) = 0.75");
  sk_model_destroy(&m);
}

/* The nonlinear model: the values are the analytic derivative; the
 * self-test (through a CVODE setup with solver.check_jacobian on) accepts
 * it and refuses the wrong variant, naming df_1/dy0. */
static void test_nonlinear_selftest(sk_context *ctx)
{
  int wrong = 0;
  sk_model *m = make(ctx, N, SK_MODEL_ODE);
  CHECK_OK(ctx, sk_model_set_rhs(m, nl_rhs));
  CHECK_OK(ctx, sk_model_set_user_data(m, &wrong, NULL));
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, nl_jac));
  const double y[N] = {0.3, -1.2, 0.7, 2.0};
  double v[N * N], want[N * N];
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, NULL, v));
  nl_exact(y, want);
  for (int p = 0; p < N * N; p++) {
    CHECK(v[p] == want[p]);
  }
  for (wrong = 0; wrong <= 1; wrong++) {
    sk_steady_settings set;
    sk_steady_settings_default(&set);
    snprintf(set.linsol, sizeof set.linsol, "dense");
    set.max_iters = 1; /* only the self-test matters here */
    double u[N];
    memcpy(u, y, sizeof u);
    const sk_status st = sk_steady_solve(ctx, m, &set, u, NULL);
    if (wrong) {
      CHECK_EQ_INT(st, SK_ERR_INPUT);
      CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "Jacobian self-test failed");
      CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "(row 1 y[1], column 0 y[0])");
    } else {
      CHECK(st != SK_ERR_INPUT); /* one iteration does not converge: SK_ERR_CONV */
    }
  }
  sk_model_destroy(&m);
}

/* A NaN in the array is named like every callback output. */
static void test_nonfinite(sk_context *ctx)
{
  sk_model *m = make(ctx, N, SK_MODEL_ODE);
  CHECK_OK(ctx, sk_model_set_dense_jacobian(m, nan_jac));
  const double y[N] = {1.0, 1.0, 1.0, 1.0};
  double v[N * N];
  CHECK_EQ_INT(sk_model_eval_jac(m, 0.5, y, NULL, v), SK_ERR_NONFINITE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "dense Jacobian");
  sk_model_destroy(&m);
}

static void test_bad_input(sk_context *ctx)
{
  CHECK_EQ_INT(sk_model_set_dense_jacobian(NULL, linear_jac), SK_ERR_ARG);
  CHECK_EQ_INT(sk_model_set_dae_dense_jacobian(NULL, dae_dense), SK_ERR_ARG);
  sk_model *dae = make(ctx, 1, SK_MODEL_DAE);
  CHECK_EQ_INT(sk_model_set_dense_jacobian(dae, linear_jac), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_model_set_dae_dense_jacobian");
  CHECK_OK(ctx, sk_model_set_dae_dense_jacobian(dae, dae_dense));
  sk_model_destroy(&dae);
  sk_model *ode = make(ctx, N, SK_MODEL_ODE);
  CHECK_EQ_INT(sk_model_set_dae_dense_jacobian(ode, dae_dense), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "not a DAE model");
  /* one values source: the pattern's callback and the dense one exclude each other */
  CHECK_OK(ctx, sk_model_set_jac_values(ode, dummy_values));
  CHECK_EQ_INT(sk_model_set_dense_jacobian(ode, linear_jac), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_model_set_jac_values");
  CHECK_OK(ctx, sk_model_set_jac_values(ode, NULL));
  CHECK_OK(ctx, sk_model_set_dense_jacobian(ode, linear_jac));
  CHECK_EQ_INT(sk_model_set_jac_values(ode, dummy_values), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_model_set_dense_jacobian");
  sk_model_destroy(&ode);
  /* an n too large for an n x n array: refused before any allocation */
  sk_model *big = make(ctx, 100000, SK_MODEL_ODE);
  CHECK_EQ_INT(sk_model_set_dense_jacobian(big, linear_jac), SK_ERR_TOO_LARGE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_model_set_jac_pattern");
  CHECK(!sk_model_has_jacobian(big));
  sk_model_destroy(&big);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_full_pattern(ctx);
  test_own_pattern(ctx);
  test_nonlinear_selftest(ctx);
  test_nonfinite(ctx);
  test_bad_input(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
