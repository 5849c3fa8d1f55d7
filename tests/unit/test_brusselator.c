/* tests/unit/test_brusselator.c: the 2D Brusselator: Jacobian vs finite differences, RHS against exact mode arithmetic, initial state, bad parameters */
#include "test.h"

#define PI 3.14159265358979323846

static double rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* Central-difference check of every Jacobian entry and of the zeros outside the pattern. */
static void check_jacobian(sk_context *ctx, sk_model *m, const double *y, const char *label)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  CHECK(colptr != NULL);
  if (!colptr) {
    return;
  }
  double *vals = calloc((size_t)nnz, sizeof *vals), *yp = calloc((size_t)n, sizeof *yp);
  double *fp = calloc((size_t)n, sizeof *fp), *fm = calloc((size_t)n, sizeof *fm);
  double *col = calloc((size_t)n, sizeof *col);
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, NULL, vals));
  double worst = 0.0;
  int64_t outside = 0;
  for (int64_t j = 0; j < n; j++) {
    memcpy(yp, y, (size_t)n * sizeof *yp);
    const double h = 1e-5 * fmax(1.0, fabs(y[j]));
    yp[j] = y[j] + h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, yp, fp));
    yp[j] = y[j] - h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, yp, fm));
    double colmax = 1e-300;
    for (int64_t i = 0; i < n; i++) {
      col[i] = (fp[i] - fm[i]) / (2.0 * h);
      colmax = fmax(colmax, fabs(col[i]));
    }
    for (int64_t q = colptr[j]; q < colptr[j + 1]; q++) {
      worst = fmax(worst, fabs(vals[q] - col[rowind[q]]) / colmax);
      col[rowind[q]] = 0.0;
      CHECK(q == colptr[j] || rowind[q] > rowind[q - 1]);
    }
    for (int64_t i = 0; i < n; i++) {
      outside += fabs(col[i]) > 1e-9 * colmax;
    }
  }
  printf("%-32s n = %4lld  nnz = %5lld  max scaled |J - FD| = %.2e\n", label, (long long)n,
         (long long)nnz, worst);
  CHECK(worst < 1e-6);
  CHECK_EQ_INT(outside, 0);
  free(vals);
  free(yp);
  free(fp);
  free(fm);
  free(col);
}

static void test_jacobian(sk_context *ctx)
{
  const int64_t sizes[] = {2, 4, 5};
  for (int s = 0; s < 3; s++) {
    sk_brusselator_params p;
    sk_brusselator_params_default(&p);
    p.n = sizes[s];
    p.alpha = 0.05; /* diffusion comparable to the reaction terms at these sizes */
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
    if (!m) {
      continue;
    }
    const int64_t n = sk_model_get_n(m);
    CHECK_EQ_INT(n, 2 * sizes[s] * sizes[s]);
    double *y = malloc((size_t)n * sizeof *y);
    unsigned long long seed = 3;
    for (int64_t i = 0; i < n; i++) {
      y[i] = 0.5 + 2.0 * rnd(&seed);
    }
    char label[64];
    snprintf(label, sizeof label, "Brusselator %lld x %lld", (long long)sizes[s],
             (long long)sizes[s]);
    check_jacobian(ctx, m, y, label);
    /* pattern size: per node 2 x (2 own + stencil neighbours) */
    const int64_t *colptr, *rowind;
    int64_t nnz;
    sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
    const int64_t links = 2 * 2 * sizes[s] * (sizes[s] - 1);
    CHECK_EQ_INT(nnz, 2 * (2 * sizes[s] * sizes[s] + links));
    free(y);
    sk_model_destroy(&m);
  }
}

/* u = a + eps phi, v = b/a with phi = cos(pi x/L) cos(2 pi y/L): phi is an exact
 * eigenvector of the zero-flux discrete Laplacian with
 * lambda_h = -(4/h^2) (sin^2(pi h/(2L)) + sin^2(2 pi h/(2L))). */
static void test_rhs_mode(sk_context *ctx)
{
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 17;
  p.length = 2.0;
  p.alpha = 0.01;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = p.n, ns = 2 * n * n;
  const double h = p.length / (double)(n - 1), eps = 0.05;
  const double s1 = sin(PI * h / (2.0 * p.length)), s2 = sin(2.0 * PI * h / (2.0 * p.length));
  const double lam = -4.0 / (h * h) * (s1 * s1 + s2 * s2);
  double *y = malloc((size_t)ns * sizeof *y), *f = malloc((size_t)ns * sizeof *f);
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = 0; i < n; i++) {
      const double phi = cos(PI * i * h / p.length) * cos(2.0 * PI * j * h / p.length);
      y[2 * (i + n * j)] = p.a + eps * phi;
      y[2 * (i + n * j) + 1] = p.b / p.a;
    }
  }
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
  double err = 0.0;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = 0; i < n; i++) {
      const double phi = cos(PI * i * h / p.length) * cos(2.0 * PI * j * h / p.length);
      const double u = p.a + eps * phi, v = p.b / p.a;
      const double fu = p.a - (p.b + 1.0) * u + u * u * v + p.alpha * lam * eps * phi;
      const double fv = p.b * u - u * u * v;
      err = fmax(err, fabs(f[2 * (i + n * j)] - fu));
      err = fmax(err, fabs(f[2 * (i + n * j) + 1] - fv));
    }
  }
  printf("Brusselator RHS vs exact mode arithmetic: max error %.2e\n", err);
  CHECK(err < 1e-12);
  /* the homogeneous steady state (a, b/a) is an equilibrium */
  for (int64_t q = 0; q < n * n; q++) {
    y[2 * q] = p.a;
    y[2 * q + 1] = p.b / p.a;
  }
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
  for (int64_t i = 0; i < ns; i++) {
    CHECK_NEAR(f[i], 0.0, 0.0, 1e-14);
  }
  free(y);
  free(f);
  sk_model_destroy(&m);
}

static void test_initial_names(sk_context *ctx)
{
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  CHECK_EQ_INT(p.n, 64);
  CHECK(p.a == 1.0 && p.b == 3.4 && p.alpha == 2e-3 && p.length == 1.0 && p.perturbation == 0.1);
  p.n = 6;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  CHECK(!sk_model_has_exact(m));
  CHECK(sk_model_has_jacobian(m));
  CHECK(!sk_model_has_preconditioner(m));
  double y[72];
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  for (int j = 0; j < 6; j++) {
    for (int i = 0; i < 6; i++) {
      const double pert = 0.1 * cos(PI * i / 5.0) * cos(PI * j / 5.0);
      CHECK_NEAR(y[2 * (i + 6 * j)], 1.0 + pert, 1e-15, 0.0);
      CHECK_NEAR(y[2 * (i + 6 * j) + 1], 3.4 + pert, 1e-15, 0.0);
    }
  }
  char buf[32];
  sk_model_component_name(m, 2 * (1 + 6 * 2), buf, sizeof buf);
  CHECK(strcmp(buf, "u[1,2]") == 0);
  sk_model_component_name(m, 2 * (5 + 6 * 0) + 1, buf, sizeof buf);
  CHECK(strcmp(buf, "v[5,0]") == 0);
  sk_model_destroy(&m);
}

static void expect_fail(sk_context *ctx, const sk_brusselator_params *p, sk_status code,
                        const char *needle)
{
  sk_model *m = NULL;
  CHECK_EQ_INT(sk_brusselator_create(ctx, p, &m), code);
  CHECK(m == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, needle);
  printf("%-18s %s\n", sk_status_name(sk_context_get_error(ctx)->code),
         sk_context_get_error(ctx)->message);
  sk_model_destroy(&m);
  sk_context_clear_error(ctx);
}

static void test_bad(sk_context *ctx)
{
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 1;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.n = 1");
  sk_brusselator_params_default(&p);
  p.a = 0.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.brusselator.a = 0");
  sk_brusselator_params_default(&p);
  p.alpha = -1.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.brusselator.alpha = -1");
  sk_brusselator_params_default(&p);
  p.length = 0.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.length = 0");
  sk_brusselator_params_default(&p);
  p.n = 40000;
  expect_fail(ctx, &p, SK_ERR_TOO_LARGE, "model.n: 40000 x 40000 x 2 species");
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_jacobian(ctx);
  test_rhs_mode(ctx);
  test_initial_names(ctx);
  test_bad(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
