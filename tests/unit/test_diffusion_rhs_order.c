/* tests/unit/test_diffusion_rhs_order.c: the constant-k RHS reproduces the benchmark baseline's operation order bit for bit */
#include "test.h"

static double rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

/* The baseline's per-node formula, written as it is there:
 *   ydot = (k*(uE-u) - k*(u-uW))/(h*h) + (k*(uN-u) - k*(u-uS))/(h*h)
 * with zero Dirichlet neighbours outside the grid. */
static void baseline_rhs(int64_t nx, int64_t ny, double k, double hx, double hy, const double *u,
                         double *f)
{
  for (int64_t j = 0; j < ny; j++) {
    for (int64_t i = 0; i < nx; i++) {
      const double uc = u[i + nx * j];
      const double uw = i > 0 ? u[i - 1 + nx * j] : 0.0;
      const double ue = i < nx - 1 ? u[i + 1 + nx * j] : 0.0;
      const double us = j > 0 ? u[i + nx * (j - 1)] : 0.0;
      const double un = j < ny - 1 ? u[i + nx * (j + 1)] : 0.0;
      f[i + nx * j] = (k * (ue - uc) - k * (uc - uw)) / (hx * hx) +
                      (k * (un - uc) - k * (uc - us)) / (hy * hy);
    }
  }
}

static void run(sk_context *ctx, int64_t nx, int64_t ny, double k, double source)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = nx;
  p.n[1] = ny;
  p.length[1] = 0.7;
  p.k0 = k;
  p.source_const = source;
  if (source != 0.0) {
    p.exact = SK_DIFFUSION_EXACT_NONE;
    p.ic = SK_DIFFUSION_IC_CONSTANT;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = nx * ny;
  double *u = malloc((size_t)n * sizeof *u), *f = malloc((size_t)n * sizeof *f);
  double *fb = malloc((size_t)n * sizeof *fb);
  unsigned long long seed = 42;
  for (int64_t i = 0; i < n; i++) {
    u[i] = rnd(&seed);
  }
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, u, f));
  baseline_rhs(nx, ny, k, 1.0 / (double)(nx + 1), 0.7 / (double)(ny + 1), u, fb);
  int64_t differ = 0;
  for (int64_t i = 0; i < n; i++) {
    differ += f[i] != fb[i] + source;
  }
  printf(
      "%lld x %lld, k = %g, source = %g: %lld of %lld values differ from the baseline formula\n",
      (long long)nx, (long long)ny, k, source, (long long)differ, (long long)n);
  CHECK_EQ_INT(differ, 0);
  free(u);
  free(f);
  free(fb);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  run(ctx, 37, 29, 1.0, 0.0); /* fast path */
  run(ctx, 37, 29, 0.3, 0.0); /* fast path, k != 1 */
  run(ctx, 2, 3, 1.7, 0.0);   /* boundary nodes only */
  run(ctx, 23, 19, 0.9, 2.5); /* general path with a constant source: + s after the sum */
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
