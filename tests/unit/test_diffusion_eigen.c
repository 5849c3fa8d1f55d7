/* tests/unit/test_diffusion_eigen.c: the sine/cosine modes are exact eigenvectors of the discrete operator: rhs(u_exact) = lambda_h u_exact */
#include "test.h"

#define PI 3.14159265358979323846

/* One case: per direction Dirichlet (sin) or Neumann (cos) on both sides. */
typedef struct {
  int dim;
  int64_t n[3];
  double length[3];
  int neumann[3];
  int mode[3];
  double k0, amplitude, t;
  const char *label;
} eigen_case;

/* Independent formulas: spacing, node coordinate, mode shape, eigenvalue. */
static double spacing(const eigen_case *c, int d)
{
  return c->length[d] / (double)(c->neumann[d] ? c->n[d] - 1 : c->n[d] + 1);
}

static double shape(const eigen_case *c, int d, int64_t i)
{
  const double h = spacing(c, d);
  const double x = (double)(c->neumann[d] ? i : i + 1) * h;
  const double arg = c->mode[d] * PI * x / c->length[d];
  return c->neumann[d] ? cos(arg) : sin(arg);
}

static double lambda_h(const eigen_case *c)
{
  double lam = 0.0;
  for (int d = 0; d < c->dim; d++) {
    const double h = spacing(c, d);
    const double s = sin(c->mode[d] * PI * h / (2.0 * c->length[d]));
    lam += 4.0 / (h * h) * s * s;
  }
  return -c->k0 * lam;
}

static double lambda_cont(const eigen_case *c)
{
  double lam = 0.0;
  for (int d = 0; d < c->dim; d++) {
    const double a = c->mode[d] * PI / c->length[d];
    lam += a * a;
  }
  return -c->k0 * lam;
}

static double run_case(sk_context *ctx, const eigen_case *c)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = c->dim;
  p.k0 = c->k0;
  p.amplitude = c->amplitude;
  p.exact_semidiscrete = 1;
  for (int d = 0; d < 3; d++) {
    p.n[d] = c->n[d];
    p.length[d] = c->length[d];
    p.mode[d] = c->mode[d];
    p.bc[d][0].type = p.bc[d][1].type = c->neumann[d] ? SK_BC_NEUMANN : SK_BC_DIRICHLET;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return 1.0;
  }
  const int64_t n = sk_model_get_n(m);
  double *u = malloc((size_t)n * sizeof *u);
  double *f = malloc((size_t)n * sizeof *f);
  double *ue = malloc((size_t)n * sizeof *ue);
  const double lam = lambda_h(c);
  const double amp = c->amplitude * exp(lam * c->t);
  const int64_t n0 = c->n[0], n1 = c->dim > 1 ? c->n[1] : 1, n2 = c->dim > 2 ? c->n[2] : 1;
  for (int64_t k = 0; k < n2; k++) {
    for (int64_t j = 0; j < n1; j++) {
      for (int64_t i = 0; i < n0; i++) {
        double v = amp * shape(c, 0, i);
        if (c->dim > 1) {
          v *= shape(c, 1, j);
        }
        if (c->dim > 2) {
          v *= shape(c, 2, k);
        }
        u[i + n0 * (j + n1 * k)] = v;
      }
    }
  }
  /* the model's exact solution is this mode */
  CHECK_OK(ctx, sk_model_eval_exact(m, c->t, ue));
  double umax = 0.0, dexact = 0.0;
  for (int64_t i = 0; i < n; i++) {
    umax = fmax(umax, fabs(u[i]));
    dexact = fmax(dexact, fabs(ue[i] - u[i]));
  }
  CHECK(dexact <= 1e-14 * umax);
  /* rhs(u) = lambda_h u */
  CHECK_OK(ctx, sk_model_eval_rhs(m, c->t, u, f));
  double err = 0.0;
  for (int64_t i = 0; i < n; i++) {
    err = fmax(err, fabs(f[i] - lam * u[i]));
  }
  /* relative to |lambda_h u|; for the constant mode (lambda_h = 0) to the operator norm */
  double scale = fabs(lam);
  if (scale == 0.0) {
    for (int d = 0; d < c->dim; d++) {
      scale += 4.0 * c->k0 / (spacing(c, d) * spacing(c, d));
    }
  }
  const double rel = err / (scale * umax);
  printf("%-36s n = %6lld  lambda_h = %12.6e  max |rhs - lambda_h u| / |lambda_h u|_max = %.2e\n",
         c->label, (long long)n, lam, rel);
  CHECK(rel < 1e-12);
  free(u);
  free(f);
  free(ue);
  sk_model_destroy(&m);
  return rel;
}

/* The continuous-eigenvalue variant decays with exp(-k sum (m pi/L)^2 t). */
static void check_continuous(sk_context *ctx)
{
  eigen_case c = {2, {9, 7, 1}, {1.0, 2.0, 1.0}, {0, 1, 0}, {2, 1, 1}, 0.5, 1.0, 0.0, ""};
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.k0 = c.k0;
  p.length[1] = 2.0;
  p.n[0] = 9;
  p.n[1] = 7;
  p.mode[0] = 2;
  p.bc[1][0].type = p.bc[1][1].type = SK_BC_NEUMANN;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  double u0[63], u1[63];
  const double t = 0.3;
  CHECK_OK(ctx, sk_model_eval_exact(m, 0.0, u0));
  CHECK_OK(ctx, sk_model_eval_exact(m, t, u1));
  const double ratio = exp(lambda_cont(&c) * t);
  for (int i = 0; i < 63; i++) {
    CHECK_NEAR(u1[i], ratio * u0[i], 1e-13, 1e-15);
  }
  /* the initial state is the exact solution at t0 */
  CHECK_OK(ctx, sk_model_eval_initial(m, t, u0));
  for (int i = 0; i < 63; i++) {
    CHECK_NEAR(u0[i], u1[i], 1e-15, 0.0);
  }
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const eigen_case cases[] = {
      {1,
       {50, 1, 1},
       {1.0, 1.0, 1.0},
       {0, 0, 0},
       {3, 0, 0},
       0.7,
       1.3,
       0.02,
       "1D Dirichlet sin, m = 3"},
      {1,
       {40, 1, 1},
       {2.5, 1.0, 1.0},
       {1, 0, 0},
       {2, 0, 0},
       1.0,
       1.0,
       0.1,
       "1D Neumann cos, m = 2"},
      {1,
       {10, 1, 1},
       {1.0, 1.0, 1.0},
       {1, 0, 0},
       {0, 0, 0},
       1.0,
       2.0,
       0.1,
       "1D Neumann cos, m = 0"},
      {1,
       {64, 1, 1},
       {1.0, 1.0, 1.0},
       {0, 0, 0},
       {1, 0, 0},
       1.0,
       1.0,
       0.0,
       "1D Dirichlet sin, m = 1"},
      {2,
       {30, 20, 1},
       {1.0, 2.0, 1.0},
       {0, 0, 0},
       {2, 1, 0},
       0.7,
       1.0,
       0.01,
       "2D Dirichlet sin sin"},
      {2, {25, 18, 1}, {1.0, 0.5, 1.0}, {1, 1, 0}, {1, 2, 0}, 1.2, 0.5, 0.01, "2D Neumann cos cos"},
      {2,
       {21, 17, 1},
       {1.0, 1.0, 1.0},
       {0, 1, 0},
       {1, 3, 0},
       1.0,
       1.0,
       0.02,
       "2D Dirichlet x, Neumann y"},
      {3, {12, 10, 8}, {1.0, 1.5, 0.8}, {0, 0, 0}, {1, 2, 1}, 0.9, 1.0, 0.005, "3D Dirichlet"},
      {3, {11, 9, 7}, {1.0, 1.0, 2.0}, {1, 1, 1}, {2, 1, 1}, 1.0, 1.0, 0.01, "3D Neumann"},
      {3,
       {12, 9, 10},
       {1.0, 1.0, 1.0},
       {1, 0, 1},
       {1, 1, 2},
       0.5,
       1.0,
       0.01,
       "3D Neumann x, Dirichlet y, Neumann z"},
  };
  double worst = 0.0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    worst = fmax(worst, run_case(ctx, &cases[i]));
  }
  printf("largest relative eigen-relation error: %.2e\n", worst);
  check_continuous(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
