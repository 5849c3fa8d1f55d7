/* tests/numerics/test_steady.c: KINSOL steady states against independent answers (closed forms, a discrete sine series, long CVODE runs) and the failure paths (singular, stall, no root, NaN, bad settings) */
/*
 * Where each expected value comes from:
 *  - 1D diffusion -k0 u'' = s, u(0) = u(1) = 0: u = s x (1 - x) / (2 k0). The
 *    3-point stencil is exact on quadratics, so the discrete steady state
 *    equals it at the nodes: compared to 1e-12 of max |u|.
 *  - 2D, Dirichlet in x and zero-flux sides in y: the same u(x) for every y
 *    (the y fluxes of a y-independent state vanish): 1e-12 relative.
 *  - 2D, Dirichlet on all sides (lengths 1 x 2, 15 x 11 unknowns): the
 *    discrete sine series of the 5-point operator (eigenvectors
 *    sin(p pi x_i / L), eigenvalues (4 / h^2) sin^2(p pi h / (2 L))),
 *    summed here term by term, independent of the model's code: 1e-12.
 *  - k = k0 (1 + beta u): with face conductivity (k_i + k_j) / 2 the flux
 *    k_f (u_j - u_i) equals Phi(u_j) - Phi(u_i), Phi(u) = k0 (u + beta u^2 / 2)
 *    (the discrete Kirchhoff transform), so Phi(u_i) = s x_i (1 - x_i) / 2
 *    exactly and u_i = (sqrt(1 + 2 beta Phi_i / k0) - 1) / beta: 1e-12.
 *  - 2D nonlinear conductivity, all Dirichlet (no closed form): a CVODE run
 *    of the same model to t = 5 (slowest decay rate >= 2 pi^2 k0, so
 *    e^{-98} is left of the transient; rtol 1e-10): 1e-7 relative.
 *  - Brusselator: the uniform state u = a, v = b / a (closed form).
 *  - VDPOL: (0, 0). OREGO: y1 = y3 = (sqrt(1 + 8/q) - 1) / 2,
 *    y2 = y1 / (1 + y1) (the nonzero root of the three equations).
 *  - HIRES: f7 + f8 = 0 identically (y7 + y8 is conserved), so J is
 *    singular and the plain solve must say so; with f8 replaced by
 *    y7 + y8 - 0.0057 (the conserved value) the steady state is the
 *    long-time limit of the ODE: a CVODE run to t = 1000 (slowest rate
 *    0.2065): 1e-8 relative.
 *  - ROBER: f1 + f2 + f3 = 0 identically: singular Jacobian, SK_ERR_SINGULAR
 *    naming KIN_LSETUP_FAIL and the conservation law.
 *  - f(u) = u^2 + 1 has no real root; a linear problem with scsteptol 0.5
 *    makes KINSOL return KIN_STEP_LT_STPTOL early: both must be failures
 *    whatever KINSOL's flag says.
 */
#include "numerics/run_helper.h"

#include "core/model_impl.h"

#define PI 3.14159265358979323846

static sk_status solve(sk_context *ctx, sk_model *m, const char *linsol, const char *prec,
                       double *u, sk_steady_report *rep, sk_steady_settings *custom)
{
  sk_steady_settings s;
  if (custom) {
    s = *custom;
  } else {
    sk_steady_settings_default(&s);
  }
  snprintf(s.linsol, sizeof s.linsol, "%s", linsol);
  snprintf(s.prec, sizeof s.prec, "%s", prec);
  return sk_steady_solve(ctx, m, &s, u, rep);
}

static double max_abs(const double *v, int64_t n)
{
  double m = 0;
  for (int64_t i = 0; i < n; i++) {
    m = fabs(v[i]) > m ? fabs(v[i]) : m;
  }
  return m;
}

static void report(const char *what, const sk_steady_report *r, double err)
{
  printf("  %-34s %-6s %-6s it %3lld f %5lld jac %3lld lin %5lld res %.2e err %.2e %s %.4f s\n",
         what, r->linsol, r->prec, (long long)r->newton_iters, (long long)r->f_evals,
         (long long)r->jac_evals, (long long)r->lin_iters, r->fnorm_max, err, r->kinsol_flag_name,
         r->wall_time);
}

static sk_model *diffusion(sk_context *ctx, int dim, int64_t nx, int64_t ny, double ly, double k0,
                           double beta, double s, int neumann_y)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = dim;
  p.n[0] = nx;
  p.n[1] = ny;
  p.length[1] = ly;
  p.k0 = k0;
  p.beta = beta;
  p.source_const = s;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.ic_value = 0.0;
  if (neumann_y) {
    p.bc[1][0].type = p.bc[1][1].type = SK_BC_NEUMANN;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  return m;
}

/* max_i |u_i - Phi^-1(s x (1 - x) / 2)|, x the first coordinate. */
static double kirchhoff_error(const sk_model *m, const double *u, double k0, double beta,
                              double s, double *umax)
{
  const int64_t n = sk_model_get_n(m);
  double e = 0, um = 0;
  for (int64_t i = 0; i < n; i++) {
    double x[3];
    sk_diffusion_node_coords(m, i, x);
    const double phi = s * x[0] * (1.0 - x[0]) / 2.0;
    const double ex = beta == 0.0 ? phi / k0 : (sqrt(1.0 + 2.0 * beta * phi / k0) - 1.0) / beta;
    e = fmax(e, fabs(u[i] - ex));
    um = fmax(um, fabs(ex));
  }
  *umax = um;
  return e;
}

static void test_quadratic(sk_context *ctx)
{
  printf("diffusion with a constant source (exact quadratic / Kirchhoff closed form):\n");
  static const char *const solvers[][2] = {
      {"auto", "auto"}, {"dense", "auto"}, {"umfpack", "auto"}, {"spgmr", "jacobi"}};
  static const struct {
    int dim;
    int64_t nx, ny;
    double k0, beta, s;
  } cases[] = {{1, 99, 1, 1.0, 0.0, 1.0},
               {1, 99, 1, 2.0, 2.0, 3.0},
               {2, 30, 20, 1.0, 0.0, 1.0},
               {2, 30, 20, 0.5, -1.5, 1.0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    sk_model *m = diffusion(ctx, cases[c].dim, cases[c].nx, cases[c].ny, 1.0, cases[c].k0,
                            cases[c].beta, cases[c].s, 1);
    const int64_t n = sk_model_get_n(m);
    double *u = calloc((size_t)n, sizeof *u);
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
      if (!strcmp(solvers[k][0], "dense") && n > 200) {
        continue;
      }
      sk_steady_settings s;
      sk_steady_settings_default(&s);
      s.fnormtol = 1e-11; /* spgmr stops at the residual: error <= ||J^-1|| fnormtol */
      memset(u, 0, (size_t)n * sizeof *u);
      sk_steady_report r;
      CHECK_OK(ctx, solve(ctx, m, solvers[k][0], solvers[k][1], u, &r, &s));
      double umax;
      const double err = kirchhoff_error(m, u, cases[c].k0, cases[c].beta, cases[c].s, &umax);
      char what[64];
      snprintf(what, sizeof what, "%dD n=%lld k0=%g beta=%g", cases[c].dim, (long long)n,
               cases[c].k0, cases[c].beta);
      report(what, &r, err / umax);
      const double tol = strcmp(solvers[k][0], "spgmr") ? 1e-12 : 1e-9;
      CHECK(err <= tol * umax);
      CHECK(r.converged == 1 && r.fnorm_max_scaled <= s.fnormtol);
      if (cases[c].beta == 0.0 && strcmp(solvers[k][0], "spgmr")) {
        CHECK_EQ_INT(r.newton_iters, 1); /* linear: one exact Newton step */
      }
    }
    free(u);
    sk_model_destroy(&m);
  }
}

/* The discrete sine series of -k0 (D_xx + D_yy) u = s (homogeneous Dirichlet). */
static void sine_series(int64_t nx, int64_t ny, double lx, double ly, double k0, double s,
                        double *u)
{
  const double hx = lx / (double)(nx + 1), hy = ly / (double)(ny + 1);
  memset(u, 0, (size_t)(nx * ny) * sizeof *u);
  for (int64_t p = 1; p <= nx; p++) {
    for (int64_t q = 1; q <= ny; q++) {
      double c = 0; /* coefficient of s (constant) on the mode */
      for (int64_t i = 1; i <= nx; i++) {
        for (int64_t j = 1; j <= ny; j++) {
          c += s * sin(PI * (double)(p * i) / (double)(nx + 1)) *
               sin(PI * (double)(q * j) / (double)(ny + 1));
        }
      }
      c *= 4.0 / (double)((nx + 1) * (ny + 1));
      const double sx = sin(PI * (double)p * hx / (2.0 * lx));
      const double sy = sin(PI * (double)q * hy / (2.0 * ly));
      const double mu = k0 * (4.0 * sx * sx / (hx * hx) + 4.0 * sy * sy / (hy * hy));
      for (int64_t i = 1; i <= nx; i++) {
        for (int64_t j = 1; j <= ny; j++) {
          u[(i - 1) + nx * (j - 1)] += c / mu * sin(PI * (double)(p * i) / (double)(nx + 1)) *
                                       sin(PI * (double)(q * j) / (double)(ny + 1));
        }
      }
    }
  }
}

static void test_dirichlet_2d(sk_context *ctx)
{
  printf("2D Dirichlet box against the discrete sine series:\n");
  const int64_t nx = 15, ny = 11;
  sk_model *m = diffusion(ctx, 2, nx, ny, 2.0, 1.5, 0.0, 2.0, 0);
  double u[15 * 11], ref[15 * 11], d[15 * 11];
  sine_series(nx, ny, 1.0, 2.0, 1.5, 2.0, ref);
  static const char *const solvers[][2] = {
      {"klu", "auto"}, {"dense", "auto"}, {"spgmr", "model"}};
  for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
    sk_steady_settings s;
    sk_steady_settings_default(&s);
    s.fnormtol = 1e-11;
    memset(u, 0, sizeof u);
    sk_steady_report r;
    CHECK_OK(ctx, solve(ctx, m, solvers[k][0], solvers[k][1], u, &r, &s));
    for (int64_t i = 0; i < nx * ny; i++) {
      d[i] = u[i] - ref[i];
    }
    const double err = max_abs(d, nx * ny) / max_abs(ref, nx * ny);
    report("2D 15x11 on [0,1]x[0,2]", &r, err);
    CHECK(err <= (strcmp(solvers[k][0], "spgmr") ? 1e-12 : 1e-9));
  }
  sk_model_destroy(&m);
}

static void test_nonlinear_vs_cvode(sk_context *ctx)
{
  printf("2D nonlinear conductivity against a long CVODE run:\n");
  sk_model *m = diffusion(ctx, 2, 24, 24, 1.0, 1.0, 1.5, 4.0, 0);
  const int64_t n = sk_model_get_n(m);
  double *u = calloc((size_t)n, sizeof *u), *y = calloc((size_t)n, sizeof *y);
  const run_cfg cfg = {
      .method = "cvode-bdf", .linsol = "klu", .rtol = 1e-10, .atol = 1e-13, .t_end = 5.0};
  CHECK_OK(ctx, run_model(ctx, m, &cfg, y, NULL));
  static const char *const solvers[][2] = {
      {"klu", "auto"}, {"spgmr", "jacobi"}, {"spgmr", "model"}};
  for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
    sk_steady_settings s;
    sk_steady_settings_default(&s);
    s.fnormtol = 1e-10;
    memset(u, 0, (size_t)n * sizeof *u);
    sk_steady_report r;
    CHECK_OK(ctx, solve(ctx, m, solvers[k][0], solvers[k][1], u, &r, &s));
    const double err = max_abs_diff(u, y, n) / max_abs(y, n);
    report("2D 24x24 beta=1.5 vs CVODE t=5", &r, err);
    CHECK(err <= 1e-7);
    CHECK(r.newton_iters >= 2); /* nonlinear: more than one Newton step */
  }
  /* the model preconditioner (ADI at gamma) must beat no preconditioner */
  sk_steady_report rn, rm;
  memset(u, 0, (size_t)n * sizeof *u);
  CHECK_OK(ctx, solve(ctx, m, "spgmr", "none", u, &rn, NULL));
  memset(u, 0, (size_t)n * sizeof *u);
  CHECK_OK(ctx, solve(ctx, m, "spgmr", "model", u, &rm, NULL));
  printf("  linear iterations: spgmr none %lld, spgmr model (gamma 1e-3) %lld\n",
         (long long)rn.lin_iters, (long long)rm.lin_iters);
  CHECK(2 * rm.lin_iters < rn.lin_iters);
  free(u);
  free(y);
  sk_model_destroy(&m);
}

static void test_brusselator(sk_context *ctx)
{
  printf("Brusselator: the uniform steady state (a, b/a):\n");
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 16;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  const int64_t n = sk_model_get_n(m);
  double *u = calloc((size_t)n, sizeof *u);
  static const char *const solvers[][2] = {{"klu", "auto"}, {"spgmr", "jacobi"}};
  sk_steady_settings s;
  sk_steady_settings_default(&s);
  s.fnormtol = 1e-11;
  for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; k++) {
    CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, u));
    sk_steady_report r;
    CHECK_OK(ctx, solve(ctx, m, solvers[k][0], solvers[k][1], u, &r, &s));
    double err = 0;
    for (int64_t i = 0; i < n; i += 2) {
      err = fmax(err, fmax(fabs(u[i] - p.a), fabs(u[i + 1] - p.b / p.a)));
    }
    report("brusselator 16x16", &r, err);
    CHECK(err <= 1e-9);
  }
  free(u);
  sk_model_destroy(&m);
}

static void test_problems(sk_context *ctx)
{
  printf("problem library (closed-form roots; singular Jacobians named):\n");
  sk_model *m = NULL;
  double u[8];
  sk_steady_report r;
  CHECK_OK(ctx, sk_problem_create(ctx, "vdpol", &m));
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, u));
  CHECK_OK(ctx, solve(ctx, m, "auto", "auto", u, &r, NULL));
  report("vdpol -> (0, 0)", &r, fmax(fabs(u[0]), fabs(u[1])));
  CHECK(fabs(u[0]) <= 1e-14 && fabs(u[1]) <= 1e-14);
  sk_model_destroy(&m);

  CHECK_OK(ctx, sk_problem_create(ctx, "orego", &m));
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, u));
  CHECK_OK(ctx, solve(ctx, m, "dense", "auto", u, &r, NULL));
  const double q = 8.375e-6, y1 = (sqrt(1.0 + 8.0 / q) - 1.0) / 2.0;
  const double err =
      fmax(fabs(u[0] - y1) / y1, fmax(fabs(u[1] - y1 / (1 + y1)), fabs(u[2] - y1) / y1));
  report("orego -> nonzero root", &r, err);
  CHECK(err <= 1e-12);
  sk_model_destroy(&m);

  static const char *const singular[][2] = {{"rober", "y2"}, {"hires", "y8"}};
  for (size_t k = 0; k < 2; k++) {
    CHECK_OK(ctx, sk_problem_create(ctx, singular[k][0], &m));
    CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, u));
    for (int d = 0; d < 2; d++) {
      sk_context_clear_error(ctx);
      const sk_status st = solve(ctx, m, d ? "dense" : "klu", "auto", u, &r, NULL);
      const sk_error *e = sk_context_get_error(ctx);
      printf("  %s (%s): %s\n", singular[k][0], d ? "dense" : "klu", e->message);
      CHECK_EQ_INT(st, SK_ERR_SINGULAR);
      CHECK_STR_CONTAINS(e->foreign_name, "KIN_LSETUP_FAIL");
      CHECK_STR_CONTAINS(e->message, "the Jacobian df/du is singular");
      CHECK_STR_CONTAINS(e->message, "conservation law");
      CHECK_STR_CONTAINS(e->message, singular[k][1]); /* the singular column, by name */
      CHECK_STR_CONTAINS(e->message, "residual ||f||_inf = ");
      CHECK(r.converged == 0);
    }
    sk_model_destroy(&m);
  }
}

/* HIRES with f8 replaced by the conservation law y7 + y8 = c; pattern only
 * (colored finite differences), component names of the original. */
typedef struct {
  sk_model *inner;
  double c;
} hires_fixed;

static int hires_fixed_rhs(double t, const double *y, double *f, void *ud)
{
  hires_fixed *h = ud;
  if (sk_model_eval_rhs(h->inner, t, y, f) != SK_OK) {
    return -1;
  }
  f[7] = y[6] + y[7] - h->c;
  return 0;
}

static void test_hires_conserved(sk_context *ctx)
{
  printf("HIRES with its conservation law against a long CVODE run:\n");
  hires_fixed h = {NULL, 0.0057};
  CHECK_OK(ctx, sk_problem_create(ctx, "hires", &h.inner));
  double y0[8], u[8], y[8];
  CHECK_OK(ctx, sk_model_eval_initial(h.inner, 0.0, y0));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 8, &m));
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(h.inner, &cp, &ri, &nnz);
  CHECK_OK(ctx, sk_model_set_rhs(m, hires_fixed_rhs));
  CHECK_OK(ctx, sk_model_set_user_data(m, &h, NULL));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri)); /* row 8 of (y7, y8) is in it */
  const run_cfg cfg = {
      .method = "cvode-bdf", .linsol = "klu", .rtol = 1e-11, .atol = 1e-15, .t_end = 1000.0};
  CHECK_OK(ctx, run_model(ctx, h.inner, &cfg, y, NULL));
  memcpy(u, y0, sizeof u);
  sk_steady_settings s;
  sk_steady_settings_default(&s);
  s.fnormtol = 1e-13;
  sk_steady_report r;
  CHECK_OK(ctx, solve(ctx, m, "klu", "auto", u, &r, &s));
  const double err = max_abs_diff(u, y, 8) / max_abs(y, 8);
  report("hires fixed (FD Jacobian)", &r, err);
  CHECK(err <= 1e-8);
  CHECK(r.f_evals_dq > 0); /* the colored finite differences were used */
  sk_model_destroy(&m);
  sk_model_destroy(&h.inner);
}

/* u' = u^2 + 1: no real steady state. */
static int no_root_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = y[0] * y[0] + 1.0;
  return 0;
}

static int no_root_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = 2.0 * y[0];
  return 0;
}

static void expect_failure(sk_context *ctx, sk_status st, sk_status want, const char *text)
{
  const sk_error *e = sk_context_get_error(ctx);
  printf("  -> %s: %s [%s]\n", sk_status_name(st), e->message, e->foreign_name);
  CHECK_EQ_INT(st, want);
  CHECK_STR_CONTAINS(e->message, text);
}

static void test_failures(sk_context *ctx)
{
  printf("failures are reported as such, whatever KINSOL's flag:\n");
  sk_model *m = NULL;
  const int64_t cp[2] = {0, 1}, ri[1] = {0};
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, no_root_rhs));
  CHECK_OK(ctx, sk_model_set_jac_values(m, no_root_jac));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  static const char *const strategies[] = {"linesearch", "none"};
  for (int k = 0; k < 2; k++) {
    double u = 0.7;
    sk_steady_settings s;
    sk_steady_settings_default(&s);
    snprintf(s.strategy, sizeof s.strategy, "%s", strategies[k]);
    sk_steady_report r;
    const sk_status st = sk_steady_solve(ctx, m, &s, &u, &r);
    printf("  u^2 + 1 = 0, %s: %s, %lld iterations\n", strategies[k], r.kinsol_flag_name,
           (long long)r.newton_iters);
    CHECK(st == SK_ERR_CONV || st == SK_ERR_SINGULAR || st == SK_ERR_LINSOL);
    CHECK(r.converged == 0 && r.fnorm_max >= 1.0);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "largest in y[0] = ");
  }
  sk_model_destroy(&m);

  /* a stall: KIN_STEP_LT_STPTOL after one step of a nonlinear problem */
  m = diffusion(ctx, 1, 49, 1, 1.0, 1.0, 2.0, 3.0, 0);
  double *u = calloc(49, sizeof *u);
  sk_steady_settings s;
  sk_steady_settings_default(&s);
  s.scsteptol = 0.5;
  sk_steady_report r;
  sk_status st = sk_steady_solve(ctx, m, &s, u, &r);
  CHECK_STR_CONTAINS(r.kinsol_flag_name, "KIN_STEP_LT_STPTOL");
  expect_failure(ctx, st, SK_ERR_CONV, "stalled: the Newton step became too small");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->foreign_name, "KIN_STEP_LT_STPTOL");

  /* the iteration limit */
  sk_steady_settings_default(&s);
  s.max_iters = 1;
  memset(u, 0, 49 * sizeof *u);
  st = sk_steady_solve(ctx, m, &s, u, &r);
  expect_failure(ctx, st, SK_ERR_CONV, "no convergence within steady.max_iters");

  /* a NaN in f from the first evaluation on: the component is named */
  CHECK_OK(ctx, sk_model_inject_nan(m, 17, 0.0));
  sk_steady_settings_default(&s);
  memset(u, 0, 49 * sizeof *u);
  st = sk_steady_solve(ctx, m, &s, u, &r);
  expect_failure(ctx, st, SK_ERR_NONFINITE, "component 17");
  sk_model_destroy(&m);
  free(u);
}

static int wrong_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = -2.0 * y[0]; /* sign flipped */
  return 0;
}

static void test_bad_settings(sk_context *ctx)
{
  printf("bad settings and models are refused before KINSOL runs:\n");
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, no_root_rhs));
  double u = 1.0;
  sk_steady_report r;
  /* klu on a model without a pattern: the pattern is found by probing f (one entry, (0,0)),
     then Newton on f = u^2 + 1 (no real root) steps from u = 1 to u = 1 - f/f' = 0, where
     f' = 2u = 0: KLU reports the singular column 0 */
  expect_failure(ctx, solve(ctx, m, "klu", "auto", &u, &r, NULL), SK_ERR_SINGULAR,
                 "first singular column 0");
  CHECK(sk_model_has_jacobian(m));
  CHECK(r.f_evals > r.newton_iters); /* the probes of the pattern detection are counted */
  sk_model_destroy(&m);
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, no_root_rhs));
  u = 1.0;
  expect_failure(ctx, solve(ctx, m, "spgmr", "model", &u, &r, NULL), SK_ERR_UNSUPPORTED,
                 "provides no preconditioner");
  expect_failure(ctx, solve(ctx, m, "lu", "auto", &u, &r, NULL), SK_ERR_UNSUPPORTED,
                 "linsol.type = lu: the steady solve (KINSOL) supports auto, dense, klu");
  sk_steady_settings s;
  sk_steady_settings_default(&s);
  s.fnormtol = 0.0;
  expect_failure(ctx, sk_steady_solve(ctx, m, &s, &u, &r), SK_ERR_ARG, "steady.fnormtol");
  u = NAN;
  expect_failure(ctx, solve(ctx, m, "dense", "auto", &u, &r, NULL), SK_ERR_INPUT,
                 "the initial guess is nan in component 0");
  /* a wrong analytic Jacobian is refused by the self-test */
  const int64_t cp[2] = {0, 1}, ri[1] = {0};
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  CHECK_OK(ctx, sk_model_set_jac_values(m, wrong_jac));
  u = 1.0;
  expect_failure(ctx, solve(ctx, m, "klu", "auto", &u, &r, NULL), SK_ERR_INPUT, "Jacobian");
  sk_model_destroy(&m);
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ALGEBRAIC, 1, &m));
  expect_failure(ctx, solve(ctx, m, "dense", "auto", &u, &r, NULL), SK_ERR_UNSUPPORTED,
                 "is neither an ODE u' = f(t, u) nor a DAE");
  sk_model_destroy(&m);
  /* a DAE model is solved as F(t, y, 0) = 0: without a residual there is nothing to solve */
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 1, &m));
  expect_failure(ctx, solve(ctx, m, "dense", "auto", &u, &r, NULL), SK_ERR_STATE,
                 "has no DAE residual");
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_quadratic(ctx);
  test_dirichlet_2d(ctx);
  test_nonlinear_vs_cvode(ctx);
  test_brusselator(ctx);
  test_problems(ctx);
  test_hires_conserved(ctx);
  test_failures(ctx);
  test_bad_settings(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
