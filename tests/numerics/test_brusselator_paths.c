/* tests/numerics/test_brusselator_paths.c: the Brusselator gives the same answer through every linear-solver path */
#include "numerics/run_helper.h"

/* Independent linear-algebra paths (KLU with AMD and with nested
 * dissection, UMFPACK, band LU, SPGMR and SPBCGS with the Jacobi
 * preconditioner) solve the same Newton systems to different round-off and
 * iteration errors; with rtol 1e-9 all final states must agree with the KLU
 * one to 1e-6 relative to max |y| (global errors are a modest multiple of
 * the tolerance). */
int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 24;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  const int64_t n = sk_model_get_n(m);
  double *ref = malloc((size_t)n * sizeof *ref), *y = malloc((size_t)n * sizeof *y);
  run_cfg base = {.linsol = "klu", .ordering = "amd", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0};
  sk_stats st;
  CHECK_OK(ctx, run_model(ctx, m, &base, ref, &st));
  double ymax = 0;
  for (int64_t i = 0; i < n; i++) {
    ymax = fabs(ref[i]) > ymax ? fabs(ref[i]) : ymax;
  }
  printf("klu/amd: steps %lld, max |y| %.4f\n", (long long)st.steps, ymax);
  const run_cfg others[] = {
      {.linsol = "klu", .ordering = "metis-nd", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0},
      {.linsol = "umfpack", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0},
      {.linsol = "band", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0},
      {.linsol = "spgmr", .prec = "jacobi", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0},
      {.linsol = "spbcgs", .prec = "jacobi", .rtol = 1e-9, .atol = 1e-11, .t_end = 1.0},
  };
  for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
    CHECK_OK(ctx, run_model(ctx, m, &others[k], y, &st));
    const double d = max_abs_diff(y, ref, n);
    printf("%-8s %-9s: steps %5lld  lin iters %6lld  max |y - y_klu| / max|y| = %.3e\n",
           others[k].linsol, others[k].ordering ? others[k].ordering : "", (long long)st.steps,
           (long long)st.lin_iters, d / ymax);
    CHECK(d <= 1e-6 * ymax);
  }
  /* the answer is not trivially constant: the pattern evolved from the initial state */
  sk_model_eval_initial(m, 0.0, y);
  CHECK(max_abs_diff(y, ref, n) > 1e-3 * ymax);
  free(ref);
  free(y);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
