/* tests/numerics/test_heat_time_error.c: time error against the semi-discrete exact solution is proportional to the tolerance */
#include "numerics/run_helper.h"

/* 2D heat equation, homogeneous Dirichlet, mode (1,1). With
 * exact_semidiscrete the reference is exp(lambda_h t) times the discrete
 * eigenvector, the exact solution of the ODE system itself: the measured
 * error is pure time-integration error. Criterion (RELIABILITY N1): the
 * least-squares slope of log(err) against log(rtol) over seven tolerances
 * lies in [0.7, 1.3], and every error stays within [1e-3, 10] x rtol
 * (CVODE's global error is not strictly monotone in rtol: one tolerance can
 * land on a step sequence with less cancellation than its neighbours), for
 * the direct (KLU) and Krylov (SPGMR + ADI) paths. */
int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 32;
  p.exact = SK_DIFFUSION_EXACT_MODE;
  p.exact_semidiscrete = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *ex = malloc((size_t)n * sizeof *ex);
  const double t_end = 0.1;
  CHECK_OK(ctx, sk_model_eval_exact(m, t_end, ex));
  const char *paths[][2] = {{"klu", "none"}, {"spgmr", "model"}};
  const double rtols[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  const int nt = 7;
  for (int k = 0; k < 2; k++) {
    double lx[7], ly[7];
    for (int i = 0; i < nt; i++) {
      run_cfg cfg = {.linsol = paths[k][0],
                     .prec = paths[k][1],
                     .rtol = rtols[i],
                     .atol = rtols[i] * 1e-3,
                     .t_end = t_end};
      CHECK_OK(ctx, run_model(ctx, m, &cfg, y, NULL));
      const double err = max_abs_diff(y, ex, n);
      printf("%-6s rtol %.0e  max error %.3e  error/rtol %.3f\n", paths[k][0], rtols[i], err,
             err / rtols[i]);
      lx[i] = log(rtols[i]);
      ly[i] = log(err);
      CHECK(err <= 10 * rtols[i] && err >= 1e-3 * rtols[i]);
    }
    /* least-squares slope */
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < nt; i++) {
      mx += lx[i] / nt;
      my += ly[i] / nt;
    }
    for (int i = 0; i < nt; i++) {
      sxy += (lx[i] - mx) * (ly[i] - my);
      sxx += (lx[i] - mx) * (lx[i] - mx);
    }
    const double slope = sxy / sxx;
    printf("%-6s slope of log(error) vs log(rtol): %.3f\n", paths[k][0], slope);
    CHECK(slope >= 0.7 && slope <= 1.3);
  }
  free(y);
  free(ex);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
