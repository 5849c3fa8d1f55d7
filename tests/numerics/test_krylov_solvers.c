/* tests/numerics/test_krylov_solvers.c: every Krylov solver with every preconditioner reaches the semi-discrete exact solution */
#include "numerics/run_helper.h"

/* 2D heat equation, homogeneous Dirichlet, constant k: I - gamma J is
 * symmetric positive definite and the ADI preconditioner (I - gamma Jx)(I -
 * gamma Jy) is symmetric too (Jx and Jy commute), so PCG applies as well.
 * Reference: the exact solution of the ODE system (exp(lambda_h t) times
 * the discrete eigenvector), so the error is time error only and must be of
 * the order of the tolerance: max error < 20 rtol. */
int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 40;
  p.exact = SK_DIFFUSION_EXACT_MODE;
  p.exact_semidiscrete = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *ex = malloc((size_t)n * sizeof *ex);
  const double t_end = 0.05, rtol = 1e-6;
  CHECK_OK(ctx, sk_model_eval_exact(m, t_end, ex));
  const char *solvers[] = {"spgmr", "spfgmr", "spbcgs", "sptfqmr", "pcg"};
  const char *precs[] = {"none", "jacobi", "model"};
  for (int i = 0; i < 5; i++) {
    for (int k = 0; k < 3; k++) {
      run_cfg cfg = {
          .linsol = solvers[i], .prec = precs[k], .rtol = rtol, .atol = 1e-10, .t_end = t_end};
      sk_stats st;
      memset(&st, 0, sizeof st);
      sk_status rc = run_model(ctx, m, &cfg, y, &st);
      CHECK_OK(ctx, rc);
      const double err = rc == SK_OK ? max_abs_diff(y, ex, n) : INFINITY;
      printf("%-8s %-7s steps %4lld  lin iters %5lld  prec solves %5lld  max error %.3e\n",
             solvers[i], precs[k], (long long)st.steps, (long long)st.lin_iters,
             (long long)st.prec_solves, err);
      CHECK(err < 20 * rtol);
      CHECK(st.lin_iters > 0);
      CHECK(!strcmp(precs[k], "none") ? st.prec_solves == 0 : st.prec_solves > 0);
    }
  }
  free(y);
  free(ex);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
