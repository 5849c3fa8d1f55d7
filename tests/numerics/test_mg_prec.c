/* tests/numerics/test_mg_prec.c: structured multigrid preconditioner (hypre PFMG/SMG/SysPFMG): V-cycle contraction on I - gamma J, setup re-use, CVODE runs against exact solutions and KLU, refusals */
#define _POSIX_C_SOURCE 200809L

#include "core/model_grid.h"
#include "linsol/mg_struct.h"
#include "numerics/run_helper.h"

/* (1) The mg object alone on A = I - g J, J the model's Jacobian at its
 * initial state, for g/h^2 in {1, 1e2, 1e4}: the Richardson iteration
 * z <- z + M (b - A z), M one V-cycle, the residual computed from the CSC
 * matrix itself (so a wrong stencil mapping cannot contract), must contract
 * by a factor independent of g and of the grid. Cases: 2D Dirichlet
 * Laplacian (64^2 and 128^2), 3D variable k(x, u) with Robin and Neumann
 * sides (16^3; nonsymmetric through dk/du), 1D Neumann (the 1D grid runs
 * as one row of a 2D one), the Brusselator (two species: SysPFMG), SMG on
 * the 2D and 1D cases. Measured (hypre 2.26, PFMG with red/black
 * Gauss-Seidel, Galerkin coarse operators, hypre's default of skipping
 * relaxation on some levels), worst per-cycle factor over the three g:
 * 2D Dirichlet 0.33, 3D k(x,u) Robin/Neumann 0.45, 2D/1D all-Neumann 0.69
 * (the near-singular I - g L of a pure Neumann problem at large g), SMG
 * 0.09 (exact line solves in 1D), SysPFMG on the all-Neumann Brusselator
 * with alpha = 1 (weighted Jacobi) 0.94. A smoother alone contracts by
 * 1 - O(h^2) (about 0.999 at g/h^2 = 1e4), so the bounds asserted (each
 * measured factor plus about 0.1; 0.97 for SysPFMG) catch a broken
 * hierarchy or stencil mapping and leave room for another hypre version.
 *
 * (2) Re-use: after a setup at another gamma, a setup at g gives bitwise the
 * solve of a fresh object set up at g (the values are renewed, the grid,
 * stencil and matrix kept).
 *
 * (3) Through CVODE against exact solutions: the semi-discrete sine mode
 * (no space error) in 1D, 2D (Neumann sides: cosine mode) and 3D at rtol
 * 1e-6: max error below 100 rtol max|y(t_end)| (the bound of the bbd and
 * MPI tests: BDF's global error at tolerance rtol, with room); 3D variable
 * k with Robin sides and the Brusselator against KLU on the same config
 * (an independent linear solver; both runs' global errors are within
 * 100 rtol max|y|, so their difference is within twice that).
 *
 * (4) Refusals: an entry outside the stencil, SMG with two species, a model
 * without a grid. */

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
  return "fast_unwind_on_malloc=0"; /* see test_amg_prec.c */
}

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

/* Contraction of one-V-cycle Richardson on model m (h the finest spacing). */
static void contraction(sk_context *ctx, const char *label, sk_model *m, double h,
                        const sk__mg_params *prm, double bound)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  double *jv = calloc((size_t)nnz, sizeof *jv);
  double *y0 = calloc((size_t)n, sizeof *y0), *f0 = calloc((size_t)n, sizeof *f0);
  double *b = malloc((size_t)n * sizeof *b), *z = calloc((size_t)n, sizeof *z);
  double *r = malloc((size_t)n * sizeof *r), *dz = malloc((size_t)n * sizeof *dz);
  double *az = malloc((size_t)n * sizeof *az), *dz2 = malloc((size_t)n * sizeof *dz2);
  CHECK_OK(ctx, sk_model_eval_initial(m, 0, y0));
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0, y0, f0));
  CHECK_OK(ctx, sk_model_eval_jac(m, 0, y0, f0, jv));
  sk__mg *mg = NULL, *fresh = NULL;
  CHECK_OK(ctx, sk__mg_create(ctx, sk__model_get_grid(m), n, cp, ri, prm, &mg));
  const double ratios[] = {1.0, 1e2, 1e4};
  uint64_t seed = 12345;
  for (int k = 0; k < 3 && mg; k++) {
    const double g = ratios[k] * h * h;
    for (int64_t i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      b[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
      z[i] = 0;
    }
    CHECK_OK(ctx, sk__mg_setup(mg, g, jv));
    double rn_prev = norm2(b, n), worst = 0, rn = rn_prev;
    memcpy(r, b, (size_t)n * sizeof *r);
    const int iters = 8;
    for (int it = 0; it < iters; it++) {
      CHECK_OK(ctx, sk__mg_solve(mg, r, dz));
      for (int64_t i = 0; i < n; i++) {
        z[i] += dz[i];
      }
      apply_a(n, cp, ri, jv, g, z, az);
      for (int64_t i = 0; i < n; i++) {
        r[i] = b[i] - az[i];
      }
      rn = norm2(r, n);
      if (rn > 1e-10 * norm2(b, n)) { /* the asymptotic rate, before round-off */
        worst = rn / rn_prev > worst ? rn / rn_prev : worst;
      }
      rn_prev = rn;
    }
    const double mean = pow(rn / norm2(b, n), 1.0 / iters);
    printf("%-34s g/h^2 = %.0e: contraction worst %.3f, mean %.3f\n", label, ratios[k], worst,
           mean);
    CHECK(worst <= bound);
    CHECK(mean <= bound);
  }
  /* (2) re-use: mg was last set up at 1e4 h^2; set it up at h^2 and compare with a fresh one */
  if (mg) {
    CHECK_OK(ctx, sk__mg_setup(mg, h * h, jv));
    CHECK_OK(ctx, sk__mg_solve(mg, b, dz));
    CHECK_OK(ctx, sk__mg_create(ctx, sk__model_get_grid(m), n, cp, ri, prm, &fresh));
    CHECK_OK(ctx, sk__mg_setup(fresh, h * h, jv));
    CHECK_OK(ctx, sk__mg_solve(fresh, b, dz2));
    CHECK(memcmp(dz, dz2, (size_t)n * sizeof *dz) == 0);
    sk__mg_info in;
    sk__mg_get_info(mg, &in);
    CHECK_EQ_INT(in.setups, 4);
    CHECK(in.setup_seconds > 0);
  }
  sk__mg_destroy(&fresh);
  sk__mg_destroy(&mg);
  sk__mg_destroy(&mg); /* accepts NULL */
  free(jv);
  free(y0);
  free(f0);
  free(b);
  free(z);
  free(r);
  free(dz);
  free(dz2);
  free(az);
}

static void dirichlet_params(sk_diffusion_params *p, int dim, int64_t n)
{
  sk_diffusion_params_default(p);
  p->dim = dim;
  for (int d = 0; d < 3; d++) {
    p->n[d] = d < dim ? n : 1;
  }
}

/* 3D variable k(x, u) = 0.5 (1 + 0.2 u)(1 + 0.5 x), Robin at x = 0 and z = 1, Neumann at x = 1,
 * the manufactured solution (data/heat3d_robin.yaml) */
static void robin_params(sk_diffusion_params *p, int64_t n)
{
  dirichlet_params(p, 3, n);
  p->k0 = 0.5;
  p->beta = 0.2;
  p->kgrad[0] = 0.5;
  p->exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p->offset = 1.0;
  p->bc[0][0].type = SK_BC_ROBIN;
  p->bc[0][0].coeff = 2.0;
  p->bc[0][1].type = SK_BC_NEUMANN;
  p->bc[2][1].type = SK_BC_ROBIN;
  p->bc[2][1].coeff = 5.0;
}

static void test_contraction(sk_context *ctx)
{
  sk__mg_params pf, smg;
  sk__mg_params_default(&pf);
  sk__mg_params_default(&smg);
  smg.solver = SK__MG_SMG;
  sk_diffusion_params p;
  sk_model *m = NULL;
  const int64_t sizes[] = {64, 128};
  for (int k = 0; k < 2; k++) {
    dirichlet_params(&p, 2, sizes[k]);
    CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
    char label[64];
    snprintf(label, sizeof label, "pfmg 2D Dirichlet %lld^2", (long long)sizes[k]);
    contraction(ctx, label, m, 1.0 / (double)(sizes[k] + 1), &pf, 0.45);
    if (k == 0) {
      contraction(ctx, "smg 2D Dirichlet 64^2", m, 1.0 / 65.0, &smg, 0.2);
    }
    sk_model_destroy(&m);
  }
  dirichlet_params(&p, 2, 64);
  for (int d = 0; d < 2; d++) {
    p.bc[d][0].type = p.bc[d][1].type = SK_BC_NEUMANN;
  }
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  contraction(ctx, "pfmg 2D Neumann 64^2", m, 1.0 / 63.0, &pf, 0.8);
  sk_model_destroy(&m);
  robin_params(&p, 16);
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  contraction(ctx, "pfmg 3D k(x,u) Robin/Neumann 16^3", m, 1.0 / 16.0, &pf, 0.55);
  sk_model_destroy(&m);
  dirichlet_params(&p, 1, 400);
  p.bc[0][0].type = p.bc[0][1].type = SK_BC_NEUMANN;
  p.mode[0] = 1;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  contraction(ctx, "pfmg 1D Neumann 400", m, 1.0 / 399.0, &pf, 0.8);
  contraction(ctx, "smg 1D Neumann 400", m, 1.0 / 399.0, &smg, 0.2);
  sk_model_destroy(&m);
  sk_brusselator_params bp;
  sk_brusselator_params_default(&bp);
  bp.n = 64;
  bp.alpha = 1.0; /* diffusion-dominated, so that g/h^2 spans the stiff range */
  CHECK_OK(ctx, sk_brusselator_create(ctx, &bp, &m));
  contraction(ctx, "syspfmg Brusselator 2x64^2", m, 1.0 / 63.0, &pf, 0.97);
  /* SMG takes one species */
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  sk__mg *mg = NULL;
  CHECK_EQ_INT(sk__mg_create(ctx, sk__model_get_grid(m), sk_model_get_n(m), cp, ri, &smg, &mg),
               SK_ERR_UNSUPPORTED);
  CHECK(mg == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "linsol.mg_solver=smg");
  sk_model_destroy(&m);
}

/* An entry two points away along x is outside the stencil: refused, named. */
static void test_outside_stencil(sk_context *ctx)
{
  const sk__model_grid g = {2, {4, 4, 1}, 1};
  int64_t cp[17], ri[17];
  int64_t q = 0;
  for (int64_t j = 0; j < 16; j++) {
    cp[j] = q;
    if (j == 2) {
      ri[q++] = 0; /* row 0 (point (0,0)), column 2 (point (2,0)) */
    }
    ri[q++] = j;
  }
  cp[16] = q;
  sk__mg *mg = NULL;
  CHECK_EQ_INT(sk__mg_create(ctx, &g, 16, cp, ri, NULL, &mg), SK_ERR_UNSUPPORTED);
  CHECK(mg == NULL);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK_STR_CONTAINS(msg, "(row 0, column 2)");
  CHECK_STR_CONTAINS(msg, "outside the structured multigrid's stencil");
  printf("outside the stencil: %s\n", msg);
}

/* Integrate m with cfg; max |y - exact| against 100 rtol max|exact|. */
static void check_exact(sk_context *ctx, const char *label, sk_model *m, const run_cfg *cfg)
{
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y), *ex = malloc((size_t)n * sizeof *ex);
  sk_stats st;
  memset(&st, 0, sizeof st);
  CHECK_OK(ctx, run_model(ctx, m, cfg, y, &st));
  CHECK_OK(ctx, sk_model_eval_exact(m, cfg->t_end, ex));
  double ymax = 0;
  for (int64_t i = 0; i < n; i++) {
    ymax = fabs(ex[i]) > ymax ? fabs(ex[i]) : ymax;
  }
  const double err = max_abs_diff(y, ex, n);
  printf("%-30s %s+%s: %lld steps, %.2f linear per nonlinear iteration, max error %.3e "
         "(bound %.3e)\n",
         label, cfg->linsol, cfg->prec, (long long)st.steps,
         (double)st.lin_iters / (double)(st.newton_iters > 0 ? st.newton_iters : 1), err,
         100 * cfg->rtol * ymax);
  CHECK(err < 100 * cfg->rtol * ymax);
  CHECK(st.prec_setups > 0 && st.lin_iters > 0);
  free(y);
  free(ex);
}

static void test_cvode_modes(sk_context *ctx)
{
  const run_cfg mg = {.linsol = "spgmr", .prec = "mg", .rtol = 1e-6, .atol = 1e-9, .t_end = 0.1};
  sk_diffusion_params p;
  sk_model *m = NULL;
  dirichlet_params(&p, 1, 500);
  p.exact_semidiscrete = 1;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  check_exact(ctx, "1D Dirichlet sin, 500", m, &mg);
  sk_model_destroy(&m);
  dirichlet_params(&p, 2, 100);
  p.exact_semidiscrete = 1;
  p.bc[1][0].type = p.bc[1][1].type = SK_BC_NEUMANN; /* cos(pi y) along y */
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  check_exact(ctx, "2D Dirichlet x / Neumann y, 100^2", m, &mg);
  const run_cfg adams = {.method = "cvode-adams",
                         .linsol = "spgmr",
                         .prec = "mg",
                         .rtol = 1e-6,
                         .atol = 1e-9,
                         .t_end = 0.1};
  check_exact(ctx, "2D Dirichlet x / Neumann y, 100^2", m, &adams);
  sk_model_destroy(&m);
  dirichlet_params(&p, 3, 24);
  p.exact_semidiscrete = 1;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  check_exact(ctx, "3D Dirichlet sin, 24^3", m, &mg);
  const run_cfg fgmr = {
      .linsol = "spfgmr", .prec = "mg", .rtol = 1e-6, .atol = 1e-9, .t_end = 0.1};
  check_exact(ctx, "3D Dirichlet sin, 24^3", m, &fgmr);
  sk_model_destroy(&m);
}

/* mg against KLU on the same model: max difference within 200 rtol max|y|. */
static void against_klu(sk_context *ctx, const char *label, sk_model *m, double t_end)
{
  const int64_t n = sk_model_get_n(m);
  double *yk = malloc((size_t)n * sizeof *yk), *ym = malloc((size_t)n * sizeof *ym);
  const run_cfg klu = {
      .linsol = "klu", .prec = "none", .rtol = 1e-6, .atol = 1e-9, .t_end = t_end};
  const run_cfg mg = {
      .linsol = "spgmr", .prec = "mg", .rtol = 1e-6, .atol = 1e-9, .t_end = t_end};
  sk_stats sk, sm;
  memset(&sk, 0, sizeof sk);
  memset(&sm, 0, sizeof sm);
  CHECK_OK(ctx, run_model(ctx, m, &klu, yk, &sk));
  CHECK_OK(ctx, run_model(ctx, m, &mg, ym, &sm));
  double ymax = 0;
  for (int64_t i = 0; i < n; i++) {
    ymax = fabs(yk[i]) > ymax ? fabs(yk[i]) : ymax;
  }
  const double d = max_abs_diff(yk, ym, n);
  printf("%-30s klu %lld steps; spgmr+mg %lld steps, %.2f linear per nonlinear iteration; "
         "max |y_mg - y_klu| = %.3e (bound %.3e)\n",
         label, (long long)sk.steps, (long long)sm.steps,
         (double)sm.lin_iters / (double)(sm.newton_iters > 0 ? sm.newton_iters : 1), d,
         200e-6 * ymax);
  CHECK(d < 200e-6 * ymax);
  CHECK(sm.prec_setups > 0);
  free(yk);
  free(ym);
}

static void test_against_klu(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_model *m = NULL;
  robin_params(&p, 20);
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  against_klu(ctx, "3D k(x,u), Robin/Neumann, 20^3", m, 0.5);
  sk_model_destroy(&m);
  sk_brusselator_params bp;
  sk_brusselator_params_default(&bp);
  bp.n = 64;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &bp, &m));
  against_klu(ctx, "Brusselator 2x64^2", m, 2.0);
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

static int decay_jac(double t, const double *y, const double *fy, double *vals, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int i = 0; i < 4; i++) {
    vals[i] = -(double)(i + 1);
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

/* A model without a grid: refused, naming the preconditioners that apply. */
static void test_no_grid(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 4, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "decay"));
  CHECK_OK(ctx, sk_model_set_rhs(m, decay_rhs));
  const int64_t cp[] = {0, 1, 2, 3, 4}, ri[] = {0, 1, 2, 3};
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  CHECK_OK(ctx, sk_model_set_jac_values(m, decay_jac));
  CHECK_OK(ctx, sk_model_set_initial(m, decay_initial));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "spgmr"));
  CHECK_OK(ctx, sk_stepper_set_preconditioner(s, "mg"));
  CHECK_EQ_INT(sk_stepper_setup(s), SK_ERR_UNSUPPORTED);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK_STR_CONTAINS(msg, "needs a model on a structured grid");
  CHECK_STR_CONTAINS(msg, "decay");
  CHECK_STR_CONTAINS(msg, "none, jacobi, amg");
  printf("no grid: %s\n", msg);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_contraction(ctx);
  test_outside_stencil(ctx);
  test_cvode_modes(ctx);
  test_against_klu(ctx);
  test_no_grid(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
