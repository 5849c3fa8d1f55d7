/* tests/unit/test_diffusion_large.c: a 10^6-state 2D diffusion model: create, one RHS, one Jacobian, one ADI setup/solve (times printed, not asserted) */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "core/model_impl.h"
#include "test.h"

#define PI 3.14159265358979323846

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run(sk_context *ctx, double beta)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 1000;
  p.exact_semidiscrete = 1;
  p.beta = beta;
  if (beta != 0.0) {
    p.exact = SK_DIFFUSION_EXACT_NONE;
    p.ic = SK_DIFFUSION_IC_CONSTANT;
    p.ic_value = 0.5;
  }
  sk_model *m = NULL;
  double t0 = now();
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  const double t_create = now() - t0;
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  CHECK_EQ_INT(n, 1000000);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  CHECK_EQ_INT(nnz, 1000000 + 4 * 999 * 1000);
  double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
  double *z = malloc((size_t)n * sizeof *z), *vals = malloc((size_t)nnz * sizeof *vals);
  CHECK(y && f && z && vals);
  if (!(y && f && z && vals)) {
    return;
  }
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  t0 = now();
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
  const double t_rhs = now() - t0;
  double t_rhs2 = 1e30; /* best of 5 further calls */
  for (int r = 0; r < 5; r++) {
    t0 = now();
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
    t_rhs2 = fmin(t_rhs2, now() - t0);
  }
  double t_kernel = 1e30; /* the callback alone, without the layer's NaN/Inf scan */
  for (int r = 0; r < 5; r++) {
    t0 = now();
    CHECK_EQ_INT(m->rhs(0.0, y, f, m->user_data), 0);
    t_kernel = fmin(t_kernel, now() - t0);
  }
  t0 = now();
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, f, vals));
  const double t_jac = now() - t0;
  t0 = now();
  CHECK_EQ_INT(m->prec_setup(0.0, y, 1e-3, 1, m->user_data), 0);
  const double t_psetup = now() - t0;
  t0 = now();
  CHECK_EQ_INT(m->prec_solve(0.0, y, f, z, 1e-3, m->user_data), 0);
  const double t_psolve = now() - t0;
  t0 = now();
  CHECK_EQ_INT(m->prec_solve(0.0, y, f, z, 1e-3, m->user_data), 0);
  const double t_psolve2 = now() - t0;
  t0 = now();
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, f, vals));
  const double t_jac2 = now() - t0;
  if (beta == 0.0) {
    /* the sine mode is an eigenvector: rhs = lambda_h u (checks the fast path at scale) */
    const double h = 1.0 / 1001.0, s = sin(PI * h / 2.0);
    const double lam = -2.0 * 4.0 / (h * h) * s * s;
    double err = 0.0, umax = 0.0;
    for (int64_t i = 0; i < n; i++) {
      err = fmax(err, fabs(f[i] - lam * y[i]));
      umax = fmax(umax, fabs(y[i]));
    }
    printf("rhs(u_exact) vs lambda_h u_exact: max rel error %.2e\n", err / (fabs(lam) * umax));
    CHECK(err < 1e-9 * fabs(lam) * umax);
    /* interior Jacobian column: -2k(1/h^2 + 1/h^2) on the diagonal, k/h^2 off it */
    const int64_t j = 500 + 1000 * 500;
    CHECK_EQ_INT(colptr[j + 1] - colptr[j], 5);
    CHECK_NEAR(vals[colptr[j] + 2], -4.0 / (h * h), 1e-12, 0.0);
    CHECK_NEAR(vals[colptr[j]], 1.0 / (h * h), 1e-12, 0.0);
  }
  printf("2D 1000 x 1000 %s: create %.3f s, RHS %.4f s (best of 5 more %.4f s, callback alone "
         "%.4f s = %.1f GB/s for 16 MB), "
         "Jacobian %.4f s (again %.4f s, nnz %lld), ADI setup %.4f s, ADI solve %.4f s "
         "(again %.4f s)\n",
         beta == 0.0 ? "constant k (fast path)" : "k(u) (general path)", t_create, t_rhs, t_rhs2,
         t_kernel, 0.016 / t_kernel, t_jac, t_jac2, (long long)nnz, t_psetup, t_psolve,
         t_psolve2);
  free(y);
  free(f);
  free(z);
  free(vals);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  run(ctx, 0.0);
  run(ctx, 0.5);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
