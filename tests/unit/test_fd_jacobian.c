/* tests/unit/test_fd_jacobian.c: colored FD Jacobian against the analytic one, RHS calls = colors, CVODE with f + pattern, cost */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "fd_models.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void compare(sk_context *ctx, int k)
{
  sk_model *a = fd_builtin(ctx, k, 0);
  CHECK(a != NULL);
  sk_model *f = fd_copy(ctx, a);
  const int64_t n = sk_model_get_n(a);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(a, &cp, &ri, &nnz);
  double *y = calloc((size_t)n, sizeof *y), *fy = calloc((size_t)n, sizeof *fy);
  double *va = calloc((size_t)nnz, sizeof *va), *vf = calloc((size_t)nnz, sizeof *vf);
  CHECK_OK(ctx, sk_model_eval_initial(a, 0.0, y));
  for (int64_t i = 0; i < n; i++) {
    y[i] += 0.1 * sin(0.7 * (double)i);
  }
  CHECK_OK(ctx, sk_model_eval_rhs(a, 0.0, y, fy));
  CHECK_OK(ctx, sk_model_eval_jac(a, 0.0, y, fy, va));
  const int64_t before = sk_model_get_fd_rhs_evals(f);
  CHECK_OK(ctx, sk_model_eval_jac(f, 0.0, y, fy, vf));
  const int64_t colors = sk_model_get_jac_colors(f);
  CHECK_EQ_INT(sk_model_get_fd_rhs_evals(f) - before, colors);
  double jmax = 0, dmax = 0;
  for (int64_t p = 0; p < nnz; p++) {
    jmax = fmax(jmax, fabs(va[p]));
    dmax = fmax(dmax, fabs(va[p] - vf[p]));
  }
  printf("model %d (%s): n=%lld nnz=%lld colors=%lld max|J-Jfd|/max|J| = %.2e\n", k,
         sk_model_get_name(a), (long long)n, (long long)nnz, (long long)colors, dmax / jmax);
  CHECK(dmax <= 1e-6 * jmax);
  CHECK(sk_model_has_jacobian(f));
  free(y);
  free(fy);
  free(va);
  free(vf);
  sk_model_destroy(&f);
  sk_model_destroy(&a);
}

static void run_to_end(sk_context *ctx, sk_model *m, double *out, int64_t n, sk_stats *stt)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 0.05, &t));
  memcpy(out, sk_stepper_get_state(s), (size_t)n * sizeof *out);
  CHECK_OK(ctx, sk_stepper_get_stats(s, stt));
  sk_stepper_destroy(&s);
}

static void cost(sk_context *ctx, int64_t nside)
{
  sk_model *a = fd_builtin(ctx, 4, nside);
  sk_model *f = fd_copy(ctx, a);
  const int64_t n = sk_model_get_n(a);
  int64_t nnz;
  const int64_t *cp, *ri;
  sk_model_get_jac_pattern(a, &cp, &ri, &nnz);
  double *y = calloc((size_t)n, sizeof *y), *fy = calloc((size_t)n, sizeof *fy);
  double *v = calloc((size_t)nnz, sizeof *v);
  CHECK_OK(ctx, sk_model_eval_initial(a, 0.0, y));
  CHECK_OK(ctx, sk_model_eval_rhs(a, 0.0, y, fy));
  double t0 = now();
  const int64_t colors = sk_model_get_jac_colors(f);
  const double tcol = now() - t0;
  t0 = now();
  CHECK_OK(ctx, sk_model_eval_jac(a, 0.0, y, fy, v));
  const double tan = now() - t0;
  t0 = now();
  CHECK_OK(ctx, sk_model_eval_jac(f, 0.0, y, fy, v));
  const double tfd = now() - t0;
  printf("2D heat n=%lld: coloring %.3f s (once, %lld colors); analytic Jacobian %.4f s; colored "
         "FD Jacobian %.4f s (%lld RHS calls)\n",
         (long long)n, tcol, (long long)colors, tan, tfd, (long long)colors);
  free(y);
  free(fy);
  free(v);
  sk_model_destroy(&f);
  sk_model_destroy(&a);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  for (int k = 0; k < FD_NMODELS; k++) {
    compare(ctx, k);
  }
  /* f + pattern only through CVODE + KLU against the analytic run */
  sk_model *a = fd_builtin(ctx, 1, 0);
  sk_model *f = fd_copy(ctx, a);
  sk_model_set_initial(f, NULL);
  const int64_t n = sk_model_get_n(a);
  double *ya = calloc((size_t)n, sizeof *ya), *yf = calloc((size_t)n, sizeof *yf);
  double *y0 = calloc((size_t)n, sizeof *y0);
  CHECK_OK(ctx, sk_model_eval_initial(a, 0.0, y0));
  sk_stats sa, sf;
  run_to_end(ctx, a, ya, n, &sa);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", f, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 0.05, &t));
  memcpy(yf, sk_stepper_get_state(s), (size_t)n * sizeof *yf);
  CHECK_OK(ctx, sk_stepper_get_stats(s, &sf));
  sk_stepper_destroy(&s);
  double dmax = 0, ymax = 0;
  for (int64_t i = 0; i < n; i++) {
    dmax = fmax(dmax, fabs(ya[i] - yf[i]));
    ymax = fmax(ymax, fabs(ya[i]));
  }
  printf("CVODE+KLU f+pattern vs analytic: max diff %.2e (max |y| %.2e); rhs_evals_dq %lld, "
         "jac_evals %lld, colors %lld\n",
         dmax, ymax, (long long)sf.rhs_evals_dq, (long long)sf.jac_evals,
         (long long)sk_model_get_jac_colors(f));
  CHECK(dmax <= 1e-5 * ymax + 1e-9);
  CHECK(sf.rhs_evals_dq >= sf.jac_evals * sk_model_get_jac_colors(f));
  free(ya);
  free(yf);
  free(y0);
  sk_model_destroy(&f);
  sk_model_destroy(&a);
  cost(ctx, 317);  /* ~10^5 */
  cost(ctx, 1000); /* 10^6 */
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
