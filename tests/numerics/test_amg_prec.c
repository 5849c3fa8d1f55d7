/* tests/numerics/test_amg_prec.c: BoomerAMG preconditioner: V-cycle contraction independent of gamma, CVODE heat runs, errors */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "linsol/amg_hypre.h"
#include "numerics/run_helper.h"

/* (1) The AMG object alone on A = I - g L, L the 2D Dirichlet Laplacian of
 * the diffusion model (5-point, h = 1/(N+1)), for g/h^2 in {1, 1e2, 1e4}
 * and N in {64, 128}: the Richardson iteration z <- z + M (b - A z), M one
 * V-cycle, must contract the residual by a factor independent of g and N.
 * Measured with the default settings (HMIS, ext+i with 4 entries per row,
 * threshold 0.25, l1 symmetric Gauss-Seidel, 1 sweep): 0.02 to 0.10 per
 * cycle. Textbook AMG on the 2D Poisson operator contracts by 0.1 to 0.2;
 * the bound asserted, 0.3 (the brief's target), leaves room for another
 * hypre version's coarsening while still catching a broken hierarchy (a
 * smoother alone contracts by 1 - O(h^2) ~ 0.999 at g/h^2 = 1e4).
 *
 * (2) Through CVODE: the 2D heat equation on 200 x 200 nodes against its
 * semi-discrete exact solution at rtol 1e-8: SPGMR + AMG must reach
 * max error < 1e-6 with no linear convergence failure and at most 1.5x
 * the steps of the direct (KLU) run on the same problem.
 *
 * (3) amg with a model that has no Jacobian: SK_ERR_UNSUPPORTED naming
 * the preconditioner.
 *
 * (4) MPI ownership: the context that started MPI finalizes it at its
 * destroy; an AMG created afterwards fails with SK_ERR_STATE (so this part
 * runs last). */

/* Read by AddressSanitizer (unused otherwise): record allocation stacks
 * with the slow unwinder. Open MPI's libraries are built without frame
 * pointers, so the fast unwinder stops inside them, and the blocks Open MPI
 * leaves at MPI_Finalize could not be matched to libmpi & co. by the
 * suppressions in tests/lsan.supp. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
  return "fast_unwind_on_malloc=0";
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* y = (I - g J) x, J in CSC */
static void apply_a(int64_t n, const int64_t *cp, const int64_t *ri, const double *jv, double g,
                    const double *x, double *y)
{
  for (int64_t i = 0; i < n; i++) {
    y[i] = x[i];
  }
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      y[ri[p]] -= g * jv[p] * x[j];
    }
  }
}

static double norm2(const double *x, int64_t n)
{
  double s = 0;
  for (int64_t i = 0; i < n; i++) {
    s += x[i] * x[i];
  }
  return sqrt(s);
}

static void test_contraction(sk_context *ctx, int64_t N)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = N;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  double *jv = calloc((size_t)nnz, sizeof *jv);
  double *y0 = calloc((size_t)n, sizeof *y0), *f0 = calloc((size_t)n, sizeof *f0);
  double *b = malloc((size_t)n * sizeof *b), *z = calloc((size_t)n, sizeof *z);
  double *r = malloc((size_t)n * sizeof *r), *dz = malloc((size_t)n * sizeof *dz);
  double *az = malloc((size_t)n * sizeof *az);
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0, y0, f0));
  CHECK_OK(ctx, sk_model_eval_jac(m, 0, y0, f0, jv));
  sk__amg *amg = NULL;
  CHECK_OK(ctx, sk__amg_create(ctx, n, cp, ri, NULL, &amg));
  const double h = 1.0 / (double)(N + 1);
  const double ratios[] = {1.0, 1e2, 1e4};
  uint64_t seed = 12345;
  for (int k = 0; k < 3 && amg; k++) {
    const double g = ratios[k] * h * h;
    for (int64_t i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      b[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
      z[i] = 0;
    }
    const double t0 = now();
    CHECK_OK(ctx, sk__amg_setup(amg, g, jv));
    const double t1 = now();
    double rn_prev = norm2(b, n), worst = 0, first = 0, rn = rn_prev;
    memcpy(r, b, (size_t)n * sizeof *r);
    const int iters = 8;
    for (int it = 0; it < iters; it++) {
      CHECK_OK(ctx, sk__amg_solve(amg, r, dz));
      for (int64_t i = 0; i < n; i++) {
        z[i] += dz[i];
      }
      apply_a(n, cp, ri, jv, g, z, az);
      for (int64_t i = 0; i < n; i++) {
        r[i] = b[i] - az[i];
      }
      rn = norm2(r, n);
      const double q = rn / rn_prev;
      if (it == 0) {
        first = q;
      }
      /* the asymptotic rate: skip the first cycle, stop before round-off */
      if (it > 0 && rn > 1e-13 * norm2(b, n)) {
        worst = q > worst ? q : worst;
      }
      rn_prev = rn;
    }
    const double t2 = now();
    const double mean = pow(rn / norm2(b, n), 1.0 / iters);
    printf("N = %3lld  g/h^2 = %.0e: contraction first %.3f, worst %.3f, mean %.3f; "
           "setup %.3f s, %d cycles %.3f s\n",
           (long long)N, ratios[k], first, worst, mean, t1 - t0, iters, t2 - t1);
    CHECK(first <= 0.3);
    CHECK(worst <= 0.3);
    CHECK(mean <= 0.3);
  }
  sk__amg_destroy(&amg);
  sk__amg_destroy(&amg); /* accepts NULL */
  free(jv);
  free(y0);
  free(f0);
  free(b);
  free(z);
  free(r);
  free(dz);
  free(az);
  sk_model_destroy(&m);
}

static void test_heat_cvode(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 200;
  p.exact = SK_DIFFUSION_EXACT_MODE;
  p.exact_semidiscrete = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *ex = malloc((size_t)n * sizeof *ex);
  const double t_end = 0.1, rtol = 1e-8, atol = 1e-11;
  CHECK_OK(ctx, sk_model_eval_exact(m, t_end, ex));
  sk_stats sd, sa;
  memset(&sd, 0, sizeof sd);
  memset(&sa, 0, sizeof sa);
  run_cfg direct = {.linsol = "klu", .prec = "none", .rtol = rtol, .atol = atol, .t_end = t_end};
  CHECK_OK(ctx, run_model(ctx, m, &direct, y, &sd));
  const double err_d = max_abs_diff(y, ex, n);
  run_cfg amg = {.linsol = "spgmr", .prec = "amg", .rtol = rtol, .atol = atol, .t_end = t_end};
  CHECK_OK(ctx, run_model(ctx, m, &amg, y, &sa));
  const double err_a = max_abs_diff(y, ex, n);
  printf("heat 200x200 rtol %.0e: klu %lld steps, error %.3e (%.2f s); spgmr+amg %lld steps, "
         "%lld linear iterations, %lld linear convergence failures, %lld preconditioner setups, "
         "error %.3e (%.2f s)\n",
         rtol, (long long)sd.steps, err_d, sd.wall_time, (long long)sa.steps,
         (long long)sa.lin_iters, (long long)sa.lin_conv_fails, (long long)sa.prec_setups, err_a,
         sa.wall_time);
  CHECK(err_a < 1e-6);
  CHECK_EQ_INT(sa.lin_conv_fails, 0);
  CHECK(sa.steps > 0 && 2 * sa.steps <= 3 * sd.steps);
  CHECK(sa.prec_setups > 0 && sa.jac_evals > 0);
  free(y);
  free(ex);
  sk_model_destroy(&m);
}

static int decay_rhs(double t, const double *y, double *ydot, void *user_data)
{
  (void)t;
  (void)user_data;
  for (int i = 0; i < 4; i++) {
    ydot[i] = -(double)(i + 1) * y[i];
  }
  return 0;
}

static int decay_initial(double t0, double *y0, void *user_data)
{
  (void)t0;
  (void)user_data;
  for (int i = 0; i < 4; i++) {
    y0[i] = 1.0;
  }
  return 0;
}

static void test_no_jacobian(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 4, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "decay"));
  CHECK_OK(ctx, sk_model_set_rhs(m, decay_rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, decay_initial));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "spgmr"));
  CHECK_OK(ctx, sk_stepper_set_preconditioner(s, "amg"));
  CHECK_EQ_INT(sk_stepper_setup(s), SK_ERR_UNSUPPORTED);
  const sk_error *e = sk_context_get_error(ctx);
  CHECK_EQ_INT(e->code, SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(e->message, "linsol.preconditioner=amg");
  CHECK_STR_CONTAINS(e->message, "decay");
  printf("no Jacobian: %s\n", e->message);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

static void test_mpi_ownership(sk_context *owner)
{
  /* a second context while MPI is up does not own it */
  sk_context *other = NULL;
  CHECK_OK(other, sk_context_create(&other));
  const int64_t cp[] = {0, 2, 4}, ri[] = {0, 1, 0, 1};
  const double jv[] = {-2, 1, 1, -2};
  sk__amg *a = NULL;
  CHECK_OK(other, sk__amg_create(other, 2, cp, ri, NULL, &a));
  CHECK_OK(other, sk__amg_setup(a, 0.5, jv));
  const double r[] = {1, 2};
  double z[2] = {0, 0};
  CHECK_OK(other, sk__amg_solve(a, r, z));
  /* one level (below hypre's coarse size): one smoothing sweep of
   * (I - 0.5 J) z = r, which reduces the residual of z = 0 */
  const double r0 = 2 * z[0] - 0.5 * z[1] - 1, r1 = -0.5 * z[0] + 2 * z[1] - 2;
  CHECK(isfinite(z[0]) && isfinite(z[1]) && sqrt(r0 * r0 + r1 * r1) < 0.5 * sqrt(5.0));
  sk__amg_destroy(&a);
  sk_context_destroy(&other);
  /* destroying the owner finalizes MPI: no AMG can be created afterwards */
  sk_context_destroy(&owner);
  sk_context *late = NULL;
  CHECK_OK(late, sk_context_create(&late));
  CHECK_EQ_INT(sk__amg_create(late, 2, cp, ri, NULL, &a), SK_ERR_STATE);
  CHECK(a == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(late)->message, "MPI");
  sk_context_destroy(&late);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_contraction(ctx, 64);
  test_contraction(ctx, 128);
  test_heat_cvode(ctx);
  test_no_jacobian(ctx);
  test_mpi_ownership(ctx);
  TEST_RETURN();
}
