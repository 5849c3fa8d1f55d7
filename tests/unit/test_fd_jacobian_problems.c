/* tests/unit/test_fd_jacobian_problems.c: colored FD Jacobians of the stiff problem library against the analytic ones, at the increments the integrators use (tiny atol, zero components) */
#include <float.h>

#include "core/model_impl.h"
#include "fd_models.h"

/* Entry-wise agreement within the accuracy of a forward difference: an
 * error of ROW_TOL relative to the largest entry of the row (rounding and
 * truncation ~ sqrt(uround) of that scale), plus the change of the
 * analytic entry over the largest increment the engine may take,
 * sigma_u = sqrt(uround) max(1, |y_j|) -- the truncation error of a
 * difference across a strongly curved term, measured with the analytic
 * Jacobian itself (ROBER's 3e7 y2^2 at y2 = 0: d J22 ~ 6e7 sigma_u). */
#define ROW_TOL 1e-5

/* |J_ij(y + sigma_u e_j) - J_ij(y)| for pattern position p of column j. */
static double curvature_allowance(sk_context *ctx, sk_model *a, const double *y, int64_t j,
                                  int64_t p, double analytic)
{
  const int64_t n = sk_model_get_n(a);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(a, &cp, &ri, &nnz);
  double *ys = malloc((size_t)n * sizeof *ys), *fs = malloc((size_t)n * sizeof *fs);
  double *vs = malloc((size_t)nnz * sizeof *vs);
  memcpy(ys, y, (size_t)n * sizeof *ys);
  ys[j] += sqrt(DBL_EPSILON) * fmax(1.0, fabs(y[j]));
  CHECK_OK(ctx, sk_model_eval_rhs(a, 0.0, ys, fs));
  CHECK_OK(ctx, sk_model_eval_jac(a, 0.0, ys, fs, vs));
  const double d = fabs(vs[p] - analytic);
  free(ys);
  free(fs);
  free(vs);
  return d;
}

static double check_state(sk_context *ctx, sk_model *a, sk_model *f, const double *y,
                          const char *what)
{
  const int64_t n = sk_model_get_n(a);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(a, &cp, &ri, &nnz);
  double *fy = calloc((size_t)n, sizeof *fy), *rowmax = calloc((size_t)n, sizeof *rowmax);
  double *va = calloc((size_t)nnz, sizeof *va), *vf = calloc((size_t)nnz, sizeof *vf);
  CHECK_OK(ctx, sk_model_eval_rhs(a, 0.0, y, fy));
  CHECK_OK(ctx, sk_model_eval_jac(a, 0.0, y, fy, va));
  const int64_t before = sk_model_get_fd_rhs_evals(f);
  CHECK_OK(ctx, sk_model_eval_jac(f, 0.0, y, fy, vf));
  /* one call per color, and one more per color whose change drowned in rounding */
  const int64_t calls = sk_model_get_fd_rhs_evals(f) - before,
                colors = sk_model_get_jac_colors(f);
  CHECK(calls >= colors && calls <= 2 * colors);
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      rowmax[ri[p]] = fmax(rowmax[ri[p]], fabs(va[p]));
    }
  }
  double worst = 0.0;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      const double scale = rowmax[ri[p]] > 0 ? rowmax[ri[p]] : 1.0;
      double e = fabs(va[p] - vf[p]) / scale;
      if (e > ROW_TOL) {
        e = fabs(va[p] - vf[p]) / (scale + curvature_allowance(ctx, a, y, j, p, va[p]) / ROW_TOL);
      }
      if (e > ROW_TOL) {
        fprintf(stderr, "%s %s: J(%lld,%lld) analytic %.10g, colored FD %.10g\n",
                sk_model_get_name(a), what, (long long)ri[p], (long long)j, va[p], vf[p]);
      }
      CHECK(e <= ROW_TOL);
      worst = fmax(worst, e);
    }
  }
  free(fy);
  free(rowmax);
  free(va);
  free(vf);
  return worst;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  /* (rtol, atol) of the increments: unit scale, and what CVODE passes at
     loose and very tight absolute tolerances */
  const double weights[][2] = {{0.0, 0.0}, {1e-6, 1e-8}, {1e-8, 1e-14}};
  for (size_t k = 0; sk_problem_name(k); k++) {
    sk_model *a = NULL;
    CHECK_OK(ctx, sk_problem_create(ctx, sk_problem_name(k), &a));
    if (!a) {
      continue;
    }
    sk_model *f = fd_copy(ctx, a);
    const int64_t n = sk_model_get_n(a);
    double *y0 = calloc((size_t)n, sizeof *y0), *y1 = calloc((size_t)n, sizeof *y1);
    CHECK_OK(ctx, sk_model_eval_initial(a, 0.0, y0));
    for (int64_t i = 0; i < n; i++) { /* a nearby state with no zero component */
      y1[i] = y0[i] * (1.0 + 0.05 * sin(1.3 * (double)i)) + 1e-3 * (1.0 + fabs(y0[i]));
    }
    double worst = 0.0;
    for (size_t w = 0; w < sizeof weights / sizeof weights[0]; w++) {
      CHECK_OK(ctx, sk__model_set_fd_weights(f, weights[w][0], weights[w][1], NULL));
      worst = fmax(worst, check_state(ctx, a, f, y0, "initial state"));
      worst = fmax(worst, check_state(ctx, a, f, y1, "perturbed state"));
    }
    printf("%-14s n=%-6lld colors=%-3lld worst |J - J_fd| / allowed scale = %.2e\n",
           sk_model_get_name(a), (long long)n, (long long)sk_model_get_jac_colors(f), worst);
    free(y0);
    free(y1);
    sk_model_destroy(&f);
    sk_model_destroy(&a);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
