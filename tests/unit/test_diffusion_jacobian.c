/* tests/unit/test_diffusion_jacobian.c: the analytic diffusion Jacobian against central finite differences (1D/2D/3D, k(u), kgrad, Neumann/Robin, sources, MMS) */
#include "test.h"

/* Pseudo-random numbers in [0, 1) (fixed LCG, reproducible). */
static double rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* Extra source s = sin(x0) u^2 + 0.5 x1 u + t, ds/du = 2 sin(x0) u + 0.5 x1. */
static double src_fn(const double *x, double t, double u, double *ds, void *ud)
{
  (void)ud;
  *ds = 2.0 * sin(x[0]) * u + 0.5 * x[1];
  return sin(x[0]) * u * u + 0.5 * x[1] * u + t;
}

/* User conductivity k = 1 + u^2 + x0, dk/du = 2u. */
static double cond_fn(const double *x, double u, double *dk, void *ud)
{
  (void)ud;
  *dk = 2.0 * u;
  return 1.0 + u * u + x[0];
}

/* Compare the model Jacobian at (t, y) with central differences of the RHS:
 * every pattern entry and every entry outside the pattern, relative to the
 * largest |FD| of the column. Returns the largest scaled error. */
static double check_jacobian(sk_context *ctx, sk_model *m, double t, const double *y,
                             const char *label)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  CHECK(colptr != NULL);
  if (!colptr) {
    return 1.0;
  }
  double *vals = calloc((size_t)nnz, sizeof *vals);
  double *fy = calloc((size_t)n, sizeof *fy);
  double *yp = calloc((size_t)n, sizeof *yp);
  double *fp = calloc((size_t)n, sizeof *fp);
  double *fm = calloc((size_t)n, sizeof *fm);
  double *dense = calloc((size_t)n, sizeof *dense);
  CHECK_OK(ctx, sk_model_eval_rhs(m, t, y, fy));
  CHECK_OK(ctx, sk_model_eval_jac(m, t, y, fy, vals));
  double worst = 0.0;
  int64_t outside_bad = 0;
  for (int64_t j = 0; j < n; j++) {
    memcpy(yp, y, (size_t)n * sizeof *yp);
    const double h = 1e-5 * fmax(1.0, fabs(y[j]));
    yp[j] = y[j] + h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, t, yp, fp));
    yp[j] = y[j] - h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, t, yp, fm));
    double colmax = 0.0;
    for (int64_t i = 0; i < n; i++) {
      dense[i] = (fp[i] - fm[i]) / (2.0 * h);
      colmax = fmax(colmax, fabs(dense[i]));
    }
    colmax = fmax(colmax, 1e-300);
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const double e = fabs(vals[p] - dense[rowind[p]]) / colmax;
      worst = fmax(worst, e);
      dense[rowind[p]] = 0.0; /* mark as compared */
    }
    for (int64_t i = 0; i < n; i++) {
      if (fabs(dense[i]) > 1e-9 * colmax) {
        outside_bad++;
        if (outside_bad < 5) {
          fprintf(stderr, "%s: FD entry (%lld,%lld) = %g outside the pattern\n", label,
                  (long long)i, (long long)j, dense[i]);
        }
      }
    }
  }
  printf("%-44s n = %4lld  nnz = %5lld  max scaled |J - FD| = %.2e\n", label, (long long)n,
         (long long)nnz, worst);
  CHECK(worst < 1e-6);
  CHECK_EQ_INT(outside_bad, 0);
  free(vals);
  free(fy);
  free(yp);
  free(fp);
  free(fm);
  free(dense);
  return worst;
}

static void set_bc(sk_bc *bc, sk_bc_type type, double value, double coeff)
{
  bc->type = type;
  bc->value = value;
  bc->coeff = coeff;
}

static void run_case(sk_context *ctx, const sk_diffusion_params *p, double t, const char *label,
                     double *worst)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y);
  unsigned long long seed = 12345;
  for (int64_t i = 0; i < n; i++) {
    y[i] = 0.6 + 0.3 * sin(1.7 * (double)i) + 0.2 * rnd(&seed);
  }
  *worst = fmax(*worst, check_jacobian(ctx, m, t, y, label));
  free(y);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  double worst = 0.0;
  sk_diffusion_params p;

  /* 1D, constant k, inhomogeneous Dirichlet */
  sk_diffusion_params_default(&p);
  p.dim = 1;
  p.n[0] = 7;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  set_bc(&p.bc[0][0], SK_BC_DIRICHLET, 1.0, 0.0);
  set_bc(&p.bc[0][1], SK_BC_DIRICHLET, 0.5, 0.0);
  run_case(ctx, &p, 0.0, "1D const k, Dirichlet", &worst);

  /* 1D, k(u), kgrad, Neumann + Robin, source function */
  p.n[0] = 6;
  p.length[0] = 2.0;
  p.k0 = 0.8;
  p.beta = 0.5;
  p.kgrad[0] = 0.3;
  p.source = src_fn;
  set_bc(&p.bc[0][0], SK_BC_NEUMANN, 0.3, 0.0);
  set_bc(&p.bc[0][1], SK_BC_ROBIN, 0.7, 2.0);
  run_case(ctx, &p, 0.4, "1D k(u), kgrad, Neumann/Robin, source", &worst);

  /* 2D, Dirichlet x, Neumann/Robin y, k(u), kgrad, source */
  sk_diffusion_params_default(&p);
  p.n[0] = 5;
  p.n[1] = 4;
  p.length[1] = 0.7;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.beta = -0.4;
  p.kgrad[0] = 0.2;
  p.kgrad[1] = -0.3;
  p.source = src_fn;
  set_bc(&p.bc[0][0], SK_BC_DIRICHLET, 0.2, 0.0);
  set_bc(&p.bc[0][1], SK_BC_DIRICHLET, 1.1, 0.0);
  set_bc(&p.bc[1][0], SK_BC_NEUMANN, -0.4, 0.0);
  set_bc(&p.bc[1][1], SK_BC_ROBIN, 0.3, 1.5);
  run_case(ctx, &p, 0.1, "2D k(u), kgrad, D/D + N/R, source", &worst);

  /* 2D, all Neumann, constant k, constant source */
  sk_diffusion_params_default(&p);
  p.n[0] = 4;
  p.n[1] = 5;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.k0 = 2.5;
  p.source_const = 0.7;
  for (int d = 0; d < 2; d++) {
    set_bc(&p.bc[d][0], SK_BC_NEUMANN, 0.1 * (d + 1), 0.0);
    set_bc(&p.bc[d][1], SK_BC_NEUMANN, -0.2, 0.0);
  }
  run_case(ctx, &p, 0.0, "2D const k, all Neumann, constant source", &worst);

  /* 2D with one unknown across y (Dirichlet low, Robin high) */
  sk_diffusion_params_default(&p);
  p.n[0] = 4;
  p.n[1] = 1;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.beta = 0.3;
  set_bc(&p.bc[1][0], SK_BC_DIRICHLET, 0.4, 0.0);
  set_bc(&p.bc[1][1], SK_BC_ROBIN, 0.9, 3.0);
  run_case(ctx, &p, 0.0, "2D n_y = 1 (Dirichlet/Robin), k(u)", &worst);

  /* 3D mixed sides, k(u), kgrad */
  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = 4;
  p.n[1] = 3;
  p.n[2] = 3;
  p.length[2] = 0.5;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.beta = 0.6;
  p.kgrad[0] = 0.1;
  p.kgrad[1] = 0.2;
  p.kgrad[2] = 0.3;
  set_bc(&p.bc[0][0], SK_BC_DIRICHLET, 0.3, 0.0);
  set_bc(&p.bc[0][1], SK_BC_ROBIN, 0.5, 1.2);
  set_bc(&p.bc[1][0], SK_BC_NEUMANN, 0.2, 0.0);
  set_bc(&p.bc[1][1], SK_BC_NEUMANN, -0.1, 0.0);
  set_bc(&p.bc[2][0], SK_BC_ROBIN, 1.0, 0.7);
  set_bc(&p.bc[2][1], SK_BC_DIRICHLET, 0.8, 0.0);
  run_case(ctx, &p, 0.0, "3D k(u), kgrad, D/R, N/N, R/D", &worst);

  /* 3D constant k, all Dirichlet (the fast path) */
  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = 5;
  p.n[1] = 4;
  p.n[2] = 3;
  run_case(ctx, &p, 0.0, "3D const k, Dirichlet (fast path)", &worst);

  /* user conductivity function */
  sk_diffusion_params_default(&p);
  p.n[0] = 4;
  p.n[1] = 4;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.conductivity = cond_fn;
  set_bc(&p.bc[0][1], SK_BC_ROBIN, 0.2, 0.5);
  set_bc(&p.bc[1][0], SK_BC_DIRICHLET, 0.7, 0.0);
  run_case(ctx, &p, 0.0, "2D user conductivity k(x,u)", &worst);

  /* manufactured solution on (time-dependent boundary data, MMS source) */
  sk_diffusion_params_default(&p);
  p.n[0] = 5;
  p.n[1] = 4;
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.offset = 0.3;
  p.beta = 0.4;
  p.kgrad[0] = 0.25;
  p.kgrad[1] = -0.15;
  p.source = src_fn;
  set_bc(&p.bc[0][0], SK_BC_NEUMANN, 0.0, 0.0);
  set_bc(&p.bc[0][1], SK_BC_ROBIN, 0.0, 2.0);
  set_bc(&p.bc[1][1], SK_BC_NEUMANN, 0.0, 0.0);
  run_case(ctx, &p, 0.35, "2D manufactured, k(u), kgrad, N/R, D/N", &worst);

  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = 3;
  p.n[1] = 4;
  p.n[2] = 3;
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.beta = 0.2;
  p.kgrad[2] = 0.5;
  set_bc(&p.bc[2][0], SK_BC_ROBIN, 0.0, 1.0);
  set_bc(&p.bc[1][1], SK_BC_NEUMANN, 0.0, 0.0);
  run_case(ctx, &p, 1.2, "3D manufactured, k(u), kgrad, Robin, Neumann", &worst);

  printf("largest scaled Jacobian error over all cases: %.2e\n", worst);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
