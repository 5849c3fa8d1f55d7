/* tests/numerics/test_eig_estimate.c: extreme eigenvalue estimates against the exact spectrum of the 2D Dirichlet heat model and a two-mode ODE */
#include <time.h>

#include "sparse/eig_estimate.h"
#include "test.h"

#define SK_TEST_PI 3.14159265358979323846

/* Exact discrete eigenvalue (m1, m2) of the 5-point Dirichlet Laplacian on
 * N x N interior nodes of the unit square, h = 1/(N+1). */
static double heat_eig(int64_t N, int64_t m1, int64_t m2)
{
  const double h = 1.0 / (double)(N + 1);
  const double s1 = sin((double)m1 * SK_TEST_PI * h / 2),
               s2 = sin((double)m2 * SK_TEST_PI * h / 2);
  return -(4 / (h * h)) * (s1 * s1 + s2 * s2);
}

static sk_model *heat_model(sk_context *ctx, int64_t N)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = 2;
  p.n[0] = p.n[1] = N;
  p.k0 = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  return m;
}

static void check_heat(sk_context *ctx, int64_t N, int want_min)
{
  sk_model *m = heat_model(ctx, N);
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  CHECK_EQ_INT(n, N * N);
  double *y = malloc((size_t)n * sizeof *y);
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  const double lmax = heat_eig(N, N, N), lmin = heat_eig(N, 1, 1);
  const double h = 1.0 / (double)(N + 1);
  sk_eig_estimate e;
  const clock_t c0 = clock();
  CHECK_OK(ctx, sk__eig_estimate_model(m, 0.0, y, NULL, &e));
  const double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
  printf("heat %lldx%lld (n = %lld): lambda_max = %.8e (exact %.8e, rel err %.2e, resid %.1e)\n",
         (long long)N, (long long)N, (long long)n, e.lambda_max.re, lmax,
         fabs(e.lambda_max.re - lmax) / fabs(lmax), e.max_resid);
  printf("  lambda_min = %.8e (exact %.8e, rel err %.2e, method %s), Gershgorin [%.6e, %.6e], "
         "%lld products, %.2f s CPU\n",
         e.lambda_min.re, lmin, fabs(e.lambda_min.re - lmin) / fabs(lmin),
         e.min_method == SK_EIG_MIN_KLU_INVERSE ? "KLU inverse" : "shifted Arnoldi", e.gersh_lo,
         e.gersh_hi, (long long)e.matvecs, secs);
  CHECK(e.sparse_jv == 1);
  CHECK_NEAR(e.lambda_max.re, lmax, 0.01, 0.0);
  CHECK(fabs(e.lambda_max.im) <= 1e-6 * fabs(lmax));
  if (want_min) {
    CHECK(e.min_method == SK_EIG_MIN_KLU_INVERSE);
    CHECK_NEAR(e.lambda_min.re, lmin, 0.01, 0.0);
    CHECK(fabs(e.lambda_min.im) <= 1e-6 * fabs(lmin));
  }
  /* Gershgorin: every eigenvalue in [lo, hi]; for the 5-point stencil lo = -8/h^2 */
  CHECK(e.have_gershgorin == 1);
  CHECK_NEAR(e.gersh_lo, -8 / (h * h), 1e-12, 0.0);
  CHECK(e.gersh_lo <= lmax);
  CHECK(e.gersh_lo <= e.lambda_max.re);
  CHECK(e.gersh_hi >= lmin);
  CHECK(e.gersh_rho >= fabs(lmax));
  CHECK(e.gersh_hi <= 1e-9 / (h * h));
  free(y);
  sk_model_destroy(&m);
}

/* The two-mode system y1' = -y1, y2' = -1000 y2 (written with a coupling
 * rotation so that J is not diagonal: J = Q diag(-1, -1000) Q^T). */
typedef struct {
  double J[2][2];
} two_mode;

static int two_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  const two_mode *tm = ud;
  ydot[0] = tm->J[0][0] * y[0] + tm->J[0][1] * y[1];
  ydot[1] = tm->J[1][0] * y[0] + tm->J[1][1] * y[1];
  return 0;
}

static int two_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  const two_mode *tm = ud;
  v[0] = tm->J[0][0]; /* column 0: rows 0, 1 */
  v[1] = tm->J[1][0];
  v[2] = tm->J[0][1]; /* column 1: rows 0, 1 */
  v[3] = tm->J[1][1];
  return 0;
}

static int two_init(double t0, double *y0, void *ud)
{
  (void)t0;
  (void)ud;
  y0[0] = 1;
  y0[1] = 1;
  return 0;
}

static void check_two_mode(sk_context *ctx, int with_jacobian)
{
  two_mode tm;
  const double c = cos(0.3), s = sin(0.3), l1 = -1, l2 = -1000;
  tm.J[0][0] = c * c * l1 + s * s * l2;
  tm.J[0][1] = c * s * (l1 - l2);
  tm.J[1][0] = tm.J[0][1];
  tm.J[1][1] = s * s * l1 + c * c * l2;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "two-mode"));
  CHECK_OK(ctx, sk_model_set_user_data(m, &tm, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, two_rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, two_init));
  if (with_jacobian) {
    const int64_t cp[] = {0, 2, 4}, ri[] = {0, 1, 0, 1};
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
    CHECK_OK(ctx, sk_model_set_jac_values(m, two_jac));
  }
  double y[2] = {1, 1};
  sk_eig_estimate e;
  CHECK_OK(ctx, sk__eig_estimate_model(m, 0.0, y, NULL, &e));
  const double ratio =
      hypot(e.lambda_max.re, e.lambda_max.im) / hypot(e.lambda_min.re, e.lambda_min.im);
  const double h_fe = 2 / hypot(e.lambda_max.re, e.lambda_max.im);
  printf(
      "two-mode (%s): lambda_max = %.10g, lambda_min = %.10g, ratio = %.8g, FE bound h <= %.8g\n",
      with_jacobian ? "sparse J, KLU inverse" : "matrix-free, shifted Arnoldi", e.lambda_max.re,
      e.lambda_min.re, ratio, h_fe);
  CHECK(e.sparse_jv == with_jacobian);
  CHECK_NEAR(e.lambda_max.re, -1000, with_jacobian ? 1e-10 : 1e-6, 0.0);
  CHECK_NEAR(e.lambda_min.re, -1, with_jacobian ? 1e-10 : 1e-4, 0.0);
  CHECK_NEAR(ratio, 1000, with_jacobian ? 1e-9 : 1e-4, 0.0);
  CHECK_NEAR(h_fe, 0.002, with_jacobian ? 1e-10 : 1e-6, 0.0);
  if (with_jacobian) {
    /* discs: centres J_ii, radius |J_01|; they contain -1 and -1000 */
    CHECK(e.gersh_lo <= -1000 && e.gersh_hi >= -1);
  }
  sk_model_destroy(&m);
}

/* The Arnoldi iteration on an operator with complex eigenvalues: the
 * rotation-dilation [[a, -b], [b, a]] padded with a diagonal. */
static sk_status rot_apply(void *data, const double *x, double *y)
{
  (void)data;
  y[0] = -2 * x[0] - 5 * x[1];
  y[1] = 5 * x[0] - 2 * x[1];
  for (int i = 2; i < 10; i++) {
    y[i] = -(double)i * 0.1 * x[i];
  }
  return SK_OK;
}

static void check_complex(sk_context *ctx)
{
  sk_eigenvalue l;
  double res;
  int64_t mv;
  CHECK_OK(ctx, sk__eig_arnoldi_largest(ctx, 10, rot_apply, NULL, NULL, NULL, &l, &res, &mv));
  printf("complex pair: lambda = %.10g %+.10gi (exact -2 +/- 5i)\n", l.re, l.im);
  CHECK_NEAR(l.re, -2, 1e-9, 0.0);
  CHECK_NEAR(fabs(l.im), 5, 1e-9, 0.0);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  check_two_mode(ctx, 1);
  check_two_mode(ctx, 0);
  check_complex(ctx);
  check_heat(ctx, 30, 1);
  check_heat(ctx, 100, 1);
  check_heat(ctx, 1000,
             0); /* 10^6 states: lambda_max only (lambda_min uses the shifted caveat path) */
  sk_context_destroy(&ctx);
  return sk_test_failures ? 1 : 0;
}
