/* tests/unit/test_diffusion_mms.c: manufactured solution: the truncation error rhs(u*) - d(u*)/dt is O(h^2) in full cells (order observed under grid doubling) */
#include "test.h"

#define PI 3.14159265358979323846

/* Extra source s = 0.5 u^2 + x0 (the manufactured source must compensate it). */
static double src_fn(const double *x, double t, double u, double *ds, void *ud)
{
  (void)t;
  (void)ud;
  *ds = u;
  return 0.5 * u * u + x[0];
}

typedef struct {
  double interior; /* max |tau| over nodes with full control volumes */
  double boundary; /* max |tau| over half-volume (Neumann/Robin) nodes; 0 if none */
  double quasi;    /* 1D: max |e| of the quasi-static error J e = -tau (0 otherwise) */
} tau_norms;

/* 1D: solve the tridiagonal J e = -tau (J from the model's CSC Jacobian) and
 * return max |e|. The error equation e' = J e + tau has this as its
 * quasi-static part: it shows the global error stays O(h^2) although the
 * half-cell truncation error is O(h). */
static double quasi_static_error(sk_context *ctx, sk_model *m, double t, const double *u,
                                 const double *tau)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  double *vals = malloc((size_t)nnz * sizeof *vals);
  double *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
  double *c = calloc((size_t)n, sizeof *c), *e = calloc((size_t)n, sizeof *e);
  CHECK_OK(ctx, sk_model_eval_jac(m, t, u, NULL, vals));
  for (int64_t j = 0; j < n; j++) {
    for (int64_t q = colptr[j]; q < colptr[j + 1]; q++) {
      const int64_t i = rowind[q];
      if (i == j) {
        b[i] = vals[q];
      } else if (i == j + 1) {
        a[i] = vals[q]; /* row i, column i-1 */
      } else {
        c[i] = vals[q]; /* row i, column i+1 */
      }
    }
  }
  for (int64_t i = 0; i < n; i++) {
    e[i] = -tau[i];
  }
  for (int64_t i = 1; i < n; i++) {
    const double mu = a[i] / b[i - 1];
    b[i] -= mu * c[i - 1];
    e[i] -= mu * e[i - 1];
  }
  double emax = 0.0;
  e[n - 1] /= b[n - 1];
  for (int64_t i = n - 2; i >= 0; i--) {
    e[i] = (e[i] - c[i] * e[i + 1]) / b[i];
  }
  for (int64_t i = 0; i < n; i++) {
    emax = fmax(emax, fabs(e[i]));
  }
  free(vals);
  free(a);
  free(b);
  free(c);
  free(e);
  return emax;
}

/* Position i along d: coordinate and whether it sits on a Neumann/Robin side. */
static double coord(const sk_diffusion_params *p, int d, int64_t i, double h, int *half)
{
  const int dlo = p->bc[d][0].type == SK_BC_DIRICHLET;
  const int dhi = p->bc[d][1].type == SK_BC_DIRICHLET;
  *half = (i == 0 && !dlo) || (i == p->n[d] - 1 && !dhi);
  return (double)(i + dlo) * h;
}

/* Truncation error of the model with N_d = ncells intervals per direction. */
static tau_norms truncation(sk_context *ctx, sk_diffusion_params p, int64_t ncells, double t)
{
  tau_norms r = {0.0, 0.0, 0.0};
  double h[3] = {1.0, 1.0, 1.0};
  for (int d = 0; d < p.dim; d++) {
    const int nd = (p.bc[d][0].type == SK_BC_DIRICHLET) + (p.bc[d][1].type == SK_BC_DIRICHLET);
    p.n[d] = ncells + 1 - nd;
    h[d] = p.length[d] / (double)ncells;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return r;
  }
  const int64_t n = sk_model_get_n(m);
  double *u = malloc((size_t)n * sizeof *u);
  double *ut = malloc((size_t)n * sizeof *ut);
  double *f = malloc((size_t)n * sizeof *f);
  double *ue = malloc((size_t)n * sizeof *ue);
  int *half = malloc((size_t)n * sizeof *half);
  const int64_t n0 = p.n[0], n1 = p.dim > 1 ? p.n[1] : 1;
  for (int64_t j = 0; j < n1; j++) {
    for (int64_t i = 0; i < n0; i++) {
      int hx = 0, hy = 0;
      const double x = coord(&p, 0, i, h[0], &hx);
      double P = sin(PI * x / p.length[0]);
      if (p.dim > 1) {
        const double y = coord(&p, 1, j, h[1], &hy);
        P *= sin(PI * y / p.length[1]);
      }
      const int64_t q = i + n0 * j;
      u[q] = exp(-t) * P + p.offset;
      ut[q] = -exp(-t) * P;
      half[q] = hx || hy;
    }
  }
  CHECK_OK(ctx, sk_model_eval_exact(m, t, ue));
  for (int64_t q = 0; q < n; q++) {
    CHECK_NEAR(ue[q], u[q], 1e-14, 1e-15);
  }
  CHECK_OK(ctx, sk_model_eval_rhs(m, t, u, f));
  for (int64_t q = 0; q < n; q++) {
    const double tau = fabs(f[q] - ut[q]);
    f[q] -= ut[q];
    if (half[q]) {
      r.boundary = fmax(r.boundary, tau);
    } else {
      r.interior = fmax(r.interior, tau);
    }
  }
  if (p.dim == 1) {
    r.quasi = quasi_static_error(ctx, m, t, u, f);
  }
  free(u);
  free(ut);
  free(f);
  free(ue);
  free(half);
  sk_model_destroy(&m);
  return r;
}

static void run_case(sk_context *ctx, const sk_diffusion_params *p, double t, const char *label)
{
  const int64_t grids[] = {16, 32, 64, 128};
  tau_norms prev = {0.0, 0.0, 0.0};
  printf("%s\n", label);
  for (int g = 0; g < 4; g++) {
    if (p->dim > 1 && grids[g] > 64) {
      break;
    }
    const tau_norms cur = truncation(ctx, *p, grids[g], t);
    if (g == 0) {
      printf("  N = %4lld  tau: full cells %.3e  half cells %.3e", (long long)grids[g],
             cur.interior, cur.boundary);
    } else {
      const double oi = log2(prev.interior / cur.interior);
      const double ob = cur.boundary > 0.0 ? log2(prev.boundary / cur.boundary) : 0.0;
      printf("  N = %4lld  tau: full cells %.3e (order %.3f)  half cells %.3e (order %.3f)",
             (long long)grids[g], cur.interior, oi, cur.boundary, ob);
      CHECK(fabs(oi - 2.0) < 0.2);
      if (cur.boundary > 0.0) {
        /* half cells are first-order consistent (the supraconvergent vertex-centred scheme) */
        CHECK(ob > 0.8);
      }
    }
    if (p->dim == 1) {
      printf("  quasi-static error %.3e", cur.quasi);
      if (g > 0) {
        const double oq = log2(prev.quasi / cur.quasi);
        printf(" (order %.3f)", oq);
        CHECK(fabs(oq - 2.0) < 0.2);
      }
    }
    printf("\n");
    prev = cur;
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_diffusion_params p;

  sk_diffusion_params_default(&p);
  p.dim = 1;
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.k0 = 0.8;
  p.beta = 0.3;
  p.kgrad[0] = 0.4;
  p.offset = 0.2;
  p.length[0] = 1.5;
  run_case(ctx, &p, 0.25, "1D Dirichlet/Dirichlet, k(u), kgrad");

  p.bc[0][0].type = SK_BC_NEUMANN;
  p.bc[0][1].type = SK_BC_ROBIN;
  p.bc[0][1].coeff = 1.5;
  run_case(ctx, &p, 0.25, "1D Neumann/Robin, k(u), kgrad");

  sk_diffusion_params_default(&p);
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.k0 = 1.1;
  p.beta = 0.3;
  p.kgrad[0] = 0.4;
  p.kgrad[1] = -0.2;
  p.offset = 0.1;
  p.length[1] = 1.5;
  p.source = src_fn;
  p.source_const = 0.3;
  p.bc[0][1].type = SK_BC_ROBIN;
  p.bc[0][1].coeff = 2.0;
  p.bc[1][0].type = SK_BC_NEUMANN;
  run_case(ctx, &p, 0.5, "2D D/R x N/D, k(u), kgrad, extra sources");

  sk_context_destroy(&ctx);
  TEST_RETURN();
}
