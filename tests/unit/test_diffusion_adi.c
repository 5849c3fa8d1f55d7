/* tests/unit/test_diffusion_adi.c: the ADI line preconditioner: exact in 1D, P = prod_d (I - gamma J_d) in 2D/3D (residual identities and bounds) */
#include "core/model_impl.h"
#include "test.h"

#define PI 3.14159265358979323846

static double rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

static double src_fn(const double *x, double t, double u, double *ds, void *ud)
{
  (void)t;
  (void)ud;
  *ds = -1.5 + 0.4 * x[0] * u;
  return -1.5 * u + 0.2 * x[0] * u * u;
}

static double norm2(const double *v, int64_t n)
{
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) {
    s += v[i] * v[i];
  }
  return sqrt(s);
}

/* out = J v with J from the model's CSC values at (t, y). */
static void jac_apply(sk_context *ctx, sk_model *m, double t, const double *y, const double *v,
                      double *out)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  double *vals = malloc((size_t)nnz * sizeof *vals);
  CHECK_OK(ctx, sk_model_eval_jac(m, t, y, NULL, vals));
  for (int64_t i = 0; i < n; i++) {
    out[i] = 0.0;
  }
  for (int64_t j = 0; j < n; j++) {
    for (int64_t q = colptr[j]; q < colptr[j + 1]; q++) {
      out[rowind[q]] += vals[q] * v[j];
    }
  }
  free(vals);
}

/* res = (I - gamma J) z - r */
static void residual(sk_context *ctx, sk_model *m, double t, const double *y, double gamma,
                     const double *z, const double *r, double *res)
{
  const int64_t n = sk_model_get_n(m);
  jac_apply(ctx, m, t, y, z, res);
  for (int64_t i = 0; i < n; i++) {
    res[i] = z[i] - gamma * res[i] - r[i];
  }
}

/* z = P^{-1} r through the model's preconditioner callbacks. */
static void prec(sk_model *m, double t, const double *y, double gamma, const double *r, double *z)
{
  CHECK(sk_model_has_preconditioner(m));
  CHECK_EQ_INT(m->prec_setup(t, y, gamma, 1, m->user_data), 0);
  CHECK_EQ_INT(m->prec_solve(t, y, r, z, gamma, m->user_data), 0);
}

/* J_d v for constant k, written from the finite-volume formulas: per face
 * k/(h^2 w) (v_nb - v) (v_nb = 0 for a Dirichlet side: boundary values are
 * not part of the Jacobian), Robin -c/(h w) v, Neumann nothing. */
static void dir_apply(const sk_diffusion_params *p, int d, const double *v, double *out)
{
  const int64_t n0 = p->n[0], n1 = p->dim > 1 ? p->n[1] : 1, n2 = p->dim > 2 ? p->n[2] : 1;
  const int64_t nn[3] = {n0, n1, n2}, stride[3] = {1, n0, n0 * n1};
  const int dlo = p->bc[d][0].type == SK_BC_DIRICHLET, dhi = p->bc[d][1].type == SK_BC_DIRICHLET;
  const double h = p->length[d] / (double)(nn[d] - 1 + dlo + dhi);
  for (int64_t k = 0; k < n2; k++) {
    for (int64_t j = 0; j < n1; j++) {
      for (int64_t i = 0; i < n0; i++) {
        const int64_t ijk[3] = {i, j, k}, q = i + n0 * (j + n1 * k);
        const int64_t pos = ijk[d];
        const int half = (pos == 0 && !dlo) || (pos == nn[d] - 1 && !dhi);
        const double w = half ? 0.5 : 1.0;
        double acc = 0.0;
        for (int side = 0; side < 2; side++) {
          const int inside = side ? pos < nn[d] - 1 : pos > 0;
          if (inside) {
            const int64_t nb = side ? q + stride[d] : q - stride[d];
            acc += p->k0 / (h * h * w) * (v[nb] - v[q]);
          } else if (p->bc[d][side].type == SK_BC_DIRICHLET) {
            acc += p->k0 / (h * h * w) * (0.0 - v[q]);
          } else if (p->bc[d][side].type == SK_BC_ROBIN) {
            acc += -p->bc[d][side].coeff / (h * w) * v[q];
          }
        }
        out[q] = acc;
      }
    }
  }
}

/* 1D: P = I - gamma J exactly (variable k, Robin/Neumann, source; constant k). */
static void test_1d_exact(sk_context *ctx)
{
  sk_diffusion_params p;
  for (int variant = 0; variant < 2; variant++) {
    sk_diffusion_params_default(&p);
    p.dim = 1;
    p.n[0] = 50;
    p.exact = SK_DIFFUSION_EXACT_NONE;
    p.ic = SK_DIFFUSION_IC_CONSTANT;
    if (variant == 0) {
      p.beta = 0.5;
      p.kgrad[0] = 0.3;
      p.source = src_fn;
      p.bc[0][0].type = SK_BC_NEUMANN;
      p.bc[0][0].value = 0.2;
      p.bc[0][1].type = SK_BC_ROBIN;
      p.bc[0][1].coeff = 3.0;
      p.bc[0][1].value = 0.4;
    }
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
    if (!m) {
      continue;
    }
    const int64_t n = sk_model_get_n(m);
    double *y = malloc((size_t)n * sizeof *y), *r = malloc((size_t)n * sizeof *r);
    double *z = malloc((size_t)n * sizeof *z), *res = malloc((size_t)n * sizeof *res);
    unsigned long long seed = 7;
    for (int64_t i = 0; i < n; i++) {
      y[i] = 0.8 + 0.5 * rnd(&seed);
      r[i] = rnd(&seed);
    }
    const double gammas[] = {1e-4, 1e-2, 1.0, 100.0};
    for (int g = 0; g < 4; g++) {
      prec(m, 0.3, y, gammas[g], r, z);
      residual(ctx, m, 0.3, y, gammas[g], z, r, res);
      const double rel = norm2(res, n) / norm2(r, n);
      printf("1D %-34s gamma = %6.0e  ||(I - gJ) z - r|| / ||r|| = %.2e\n",
             variant == 0 ? "k(u), kgrad, Neumann/Robin, source" : "constant k, Dirichlet",
             gammas[g], rel);
      CHECK(rel < 1e-12);
    }
    free(y);
    free(r);
    free(z);
    free(res);
    sk_model_destroy(&m);
  }
}

/* 2D constant k, Dirichlet: the lowest sine mode and the bound gamma^2 ||Jx Jy|| ||z||. */
static void test_2d_mode(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = 40;
  p.n[1] = 30;
  p.length[1] = 0.8;
  p.k0 = 1.3;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  double *r = malloc((size_t)n * sizeof *r), *z = malloc((size_t)n * sizeof *z);
  double *res = malloc((size_t)n * sizeof *res), *w1 = malloc((size_t)n * sizeof *w1);
  double *w2 = malloc((size_t)n * sizeof *w2);
  const double hx = 1.0 / 41.0, hy = 0.8 / 31.0;
  /* eigenvalues of Jx, Jy for the (1,1) mode and the spectral radii */
  const double lx = -4.0 * p.k0 / (hx * hx) * pow(sin(PI * hx / 2.0), 2);
  const double ly = -4.0 * p.k0 / (hy * hy) * pow(sin(PI * hy / (2.0 * 0.8)), 2);
  const double rx = 4.0 * p.k0 / (hx * hx) * pow(sin(40.0 * PI * hx / 2.0), 2);
  const double ry = 4.0 * p.k0 / (hy * hy) * pow(sin(30.0 * PI * hy / (2.0 * 0.8)), 2);
  for (int64_t j = 0; j < 30; j++) {
    for (int64_t i = 0; i < 40; i++) {
      r[i + 40 * j] = sin(PI * (double)(i + 1) * hx) * sin(PI * (double)(j + 1) * hy / 0.8);
    }
  }
  const double gammas[] = {1e-5, 1e-4, 1e-3};
  for (int g = 0; g < 3; g++) {
    const double ga = gammas[g];
    prec(m, 0.0, r, ga, r, z);
    residual(ctx, m, 0.0, r, ga, z, r, res);
    const double nres = norm2(res, n), nr = norm2(r, n), nz = norm2(z, n);
    /* res = -gamma^2 Jx Jy z exactly */
    dir_apply(&p, 1, z, w1);
    dir_apply(&p, 0, w1, w2);
    double dev = 0.0;
    for (int64_t i = 0; i < n; i++) {
      dev = fmax(dev, fabs(res[i] + ga * ga * w2[i]));
    }
    const double expect = ga * ga * fabs(lx * ly) / ((1.0 - ga * lx) * (1.0 - ga * ly));
    const double bound = ga * ga * rx * ry * nz;
    printf("2D sine mode  gamma = %6.0e  ||res||/||r|| = %.6e (mode: %.6e)  bound "
           "gamma^2 ||JxJy|| ||z||/||r|| = %.3e\n",
           ga, nres / nr, expect, bound / nr);
    CHECK_NEAR(nres / nr, expect, 1e-8, 1e-15);
    CHECK(nres <= bound);
    CHECK(dev <= 1e-12 * nr);
  }
  free(r);
  free(z);
  free(res);
  free(w1);
  free(w2);
  sk_model_destroy(&m);
}

/* Constant k with mixed sides: res = (I - gJ) z - r equals the product terms exactly
 * (2D: -g^2 Jx Jy z; 3D: -(g^2 (AB + AC + BC) - g^3 ABC) z). */
static void test_identity(sk_context *ctx, int dim)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = dim;
  p.n[0] = 9;
  p.n[1] = 7;
  p.n[2] = 5;
  p.length[0] = 1.5;
  p.k0 = 0.9;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.source_const = 2.0;
  p.bc[0][0].type = SK_BC_NEUMANN;
  p.bc[0][1].type = SK_BC_ROBIN;
  p.bc[0][1].coeff = 2.0;
  p.bc[1][0].type = SK_BC_ROBIN;
  p.bc[1][0].coeff = 0.5;
  p.bc[2][1].type = SK_BC_NEUMANN;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *r = malloc((size_t)n * sizeof *r);
  double *z = malloc((size_t)n * sizeof *z), *res = malloc((size_t)n * sizeof *res);
  double *t1 = malloc((size_t)n * sizeof *t1), *t2 = malloc((size_t)n * sizeof *t2);
  double *t3 = malloc((size_t)n * sizeof *t3), *acc = malloc((size_t)n * sizeof *acc);
  unsigned long long seed = 99;
  for (int64_t i = 0; i < n; i++) {
    y[i] = rnd(&seed);
    r[i] = rnd(&seed);
  }
  /* the test's own J = sum_d J_d equals the model's Jacobian */
  jac_apply(ctx, m, 0.0, y, r, t1);
  double jdev = 0.0, jmax = 0.0;
  for (int64_t i = 0; i < n; i++) {
    acc[i] = 0.0;
  }
  for (int d = 0; d < dim; d++) {
    dir_apply(&p, d, r, t2);
    for (int64_t i = 0; i < n; i++) {
      acc[i] += t2[i];
    }
  }
  for (int64_t i = 0; i < n; i++) {
    jdev = fmax(jdev, fabs(acc[i] - t1[i]));
    jmax = fmax(jmax, fabs(t1[i]));
  }
  CHECK(jdev <= 1e-12 * jmax);
  const double ga = 0.01;
  prec(m, 0.0, y, ga, r, z);
  residual(ctx, m, 0.0, y, ga, z, r, res);
  /* expected residual */
  for (int64_t i = 0; i < n; i++) {
    acc[i] = 0.0;
  }
  for (int a = 0; a < dim; a++) {
    for (int b = a + 1; b < dim; b++) {
      dir_apply(&p, b, z, t1);
      dir_apply(&p, a, t1, t2);
      for (int64_t i = 0; i < n; i++) {
        acc[i] -= ga * ga * t2[i];
      }
    }
  }
  if (dim == 3) {
    dir_apply(&p, 2, z, t1);
    dir_apply(&p, 1, t1, t2);
    dir_apply(&p, 0, t2, t3);
    for (int64_t i = 0; i < n; i++) {
      acc[i] += ga * ga * ga * t3[i];
    }
  }
  double dev = 0.0;
  for (int64_t i = 0; i < n; i++) {
    dev = fmax(dev, fabs(res[i] - acc[i]));
  }
  printf("%dD mixed sides  gamma = %.0e  ||res||/||r|| = %.3e  max |res - product terms| / "
         "||r|| = %.2e\n",
         dim, ga, norm2(res, n) / norm2(r, n), dev / norm2(r, n));
  CHECK(dev <= 1e-12 * norm2(r, n));
  free(y);
  free(r);
  free(z);
  free(res);
  free(t1);
  free(t2);
  free(t3);
  free(acc);
  sk_model_destroy(&m);
}

/* Nonlinear k and a source in 2D/3D: the residual is O(gamma^2) (no first-order mismatch). */
static void test_nonlinear_order(sk_context *ctx, int dim)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = dim;
  p.n[0] = 12;
  p.n[1] = 10;
  p.n[2] = 6;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.beta = 0.6;
  p.kgrad[0] = 0.3;
  p.kgrad[1] = -0.2;
  p.source = src_fn;
  p.bc[0][1].type = SK_BC_ROBIN;
  p.bc[0][1].coeff = 1.0;
  p.bc[1][0].type = SK_BC_NEUMANN;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *r = malloc((size_t)n * sizeof *r);
  double *z = malloc((size_t)n * sizeof *z), *res = malloc((size_t)n * sizeof *res);
  unsigned long long seed = 5;
  for (int64_t i = 0; i < n; i++) {
    y[i] = 0.7 + 0.4 * rnd(&seed);
    r[i] = rnd(&seed);
  }
  double prev = 0.0;
  const double gammas[] = {4e-5, 2e-5, 1e-5};
  for (int g = 0; g < 3; g++) {
    prec(m, 0.0, y, gammas[g], r, z);
    residual(ctx, m, 0.0, y, gammas[g], z, r, res);
    const double rel = norm2(res, n) / norm2(r, n);
    if (g > 0) {
      const double order = log2(prev / rel);
      printf("%dD k(u), source  gamma = %.0e  ||res||/||r|| = %.3e  order in gamma %.3f\n", dim,
             gammas[g], rel, order);
      CHECK(fabs(order - 2.0) < 0.1);
    }
    prev = rel;
  }
  free(y);
  free(r);
  free(z);
  free(res);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_1d_exact(ctx);
  test_2d_mode(ctx);
  test_identity(ctx, 2);
  test_identity(ctx, 3);
  test_nonlinear_order(ctx, 2);
  test_nonlinear_order(ctx, 3);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
