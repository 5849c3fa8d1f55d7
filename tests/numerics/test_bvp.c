/* tests/numerics/test_bvp.c: the BVP solvers (finite differences, single and multiple shooting, continuation) against closed forms, published values and each other, plus the failure paths */
/*
 * Where each expected value comes from (nothing here is taken from the
 * library's own output):
 *  - Linear y'' = y + g(x), g = -(pi^2 + 1) sin(pi x) + 2 - x^2 on [0, 1]:
 *    g was computed by hand from the chosen exact solution
 *    y = sin(pi x) + x^2 (y'' - y = -pi^2 sin - sin + 2 - x^2), so
 *    y' = pi cos(pi x) + 2 x. Dirichlet y(0) = 0, y(1) = 1, and a Robin end
 *    y'(1) + y(1) = (2 - pi) + 1 = 3 - pi. The box scheme is second order:
 *    log2(e_h / e_{h/2}) = 2 +- 0.2 on uniform meshes of 16..128 intervals
 *    and on geometrically graded ones. The graded family keeps the total
 *    grading fixed (ratio 1.05^(16/n) on n intervals, so ratio^n = 1.05^16
 *    and n = 16 has ratio 1.05): every mesh is the image of a uniform one
 *    under the same smooth map, and the mesh on 2n intervals contains the one
 *    on n. A fixed ratio 1.05 on ever more intervals is not a refinement (its
 *    largest interval hardly shrinks). The errors are computed here from the
 *    returned nodes and the closed form, not taken from rep.error_exact.
 *  - Shooting on the same problem: the error against the closed form,
 *    relative as the library's tolerance (|e| / (1 + |y|)), below 10 tol and
 *    shrinking with tol.
 *  - Bratu y'' + lambda e^y = 0, y(0) = y(1) = 0 (Bratu 1914; e.g. Boyd
 *    1986): y = -2 ln(cosh((x - 1/2) theta / 2) / cosh(theta / 4)), theta the
 *    smaller root of theta = sqrt(2 lambda) cosh(theta / 4), found here by
 *    Newton from theta = 1 (F is concave, so Newton from the left of the
 *    smaller root climbs to it monotonically). y(1/2) = 2 ln cosh(theta/4).
 *    The fold: lambda_c = 3.513830719 (Boyd 1986; Mohsen 2014).
 *  - Heat rod T' = -q / k(T), q' = s, k = k0 (1 + beta T): the Kirchhoff
 *    transform U = k0 (T + beta T^2 / 2) gives U' = -q, so with q(L) = qL,
 *    q = qL - s (L - x), U = U0 - (qL - s L) x - s x^2 / 2 and
 *    T = (sqrt(1 + 2 beta U / k0) - 1) / beta. The box scheme's q rows are
 *    exact for q' = const and the BC row is linear, so q is exact to
 *    rounding. Radiating end q(L) = es (T_L^4 - Tinf^4), s = 0: q is
 *    constant, U linear, and T_L solves U(T0) - U(T_L) = L es (T_L^4 -
 *    Tinf^4), solved here by bisection on [Tinf, T0] (the left side grows
 *    and the right side falls as T_L falls, one root).
 *  - Troesch y'' = mu sinh(mu y), y(0) = 0, y(1) = 1, mu = 5: y'(0) =
 *    0.0457504614 (Roberts & Shipman 1976; also reproduced independently
 *    with RK4 shooting on 4000 and 8000 steps + bisection: 0.045750461406).
 *    Single shooting from y = x blows up (the IVP with y'(0) = 1 has a
 *    pole near x = ln(8) / mu = 0.42).
 *  - y'' = k^2 y, k = 40, y(0) = y(1) = 1: y = cosh(k (x - 1/2)) / cosh(k/2);
 *    the shooting IVP grows like e^{k x}, sensitivity ~ cosh(40) ~ 1e17.
 *  - eps y'' = -y', y(0) = 0, y(1) = 1, eps = 1e-3:
 *    y = (1 - e^{-x/eps}) / (1 - e^{-1/eps}) (layer at x = 0).
 *  - Failure paths: statuses and message fragments from the contract in
 *    stiffkit/bvp.h.
 */
#include "test.h"

#define PI 3.14159265358979323846

/* ---- small helpers ------------------------------------------------------ */

static sk_bvp *make_bvp(sk_context *ctx, int d, double a, double b, sk_bvp_rhs_fn rhs,
                        sk_bvp_jac_fn jac, sk_bvp_bc_fn bc, int nl, int nr)
{
  sk_bvp *p = NULL;
  CHECK_OK(ctx, sk_bvp_create(ctx, d, a, b, &p));
  if (!p) {
    return NULL;
  }
  CHECK_OK(ctx, sk_bvp_set_rhs(p, rhs, jac));
  CHECK_OK(ctx, sk_bvp_set_bc(p, bc, NULL, nl, nr));
  return p;
}

typedef void (*exact_fn)(double x, const double *p, double *y);

/* Largest |y - y_exact| (abs) and |y - y_exact| / (1 + |y_exact|) (rel)
 * over the returned nodes and all components, computed here. */
static void sol_error(const sk_bvp_solution *s, exact_fn ex, const double *p, double *abs_err,
                      double *rel_err)
{
  double ye[8] = {0}, ea = 0.0, er = 0.0;
  for (int64_t i = 0; i < s->n; i++) {
    ex(s->x[i], p, ye);
    for (int c = 0; c < s->d; c++) {
      const double e = fabs(s->y[s->d * i + c] - ye[c]);
      ea = fmax(ea, e);
      er = fmax(er, e / (1.0 + fabs(ye[c])));
    }
  }
  if (abs_err) {
    *abs_err = ea;
  }
  if (rel_err) {
    *rel_err = er;
  }
}

/* The same error (rel) before the last point and at the last point (x = b). */
static void split_error(const sk_bvp_solution *s, exact_fn ex, const double *p, double *inner,
                        double *end)
{
  sk_bvp_solution view = *s;
  view.n = s->n - 1;
  sol_error(&view, ex, p, NULL, inner);
  view.n = 1;
  view.x = s->x + s->n - 1;
  view.y = s->y + (s->n - 1) * s->d;
  sol_error(&view, ex, p, NULL, end);
}

static const char *errmsg(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

static void mesh_extent(const sk_bvp_solution *s, double *hmin, double *hmax)
{
  *hmin = INFINITY;
  *hmax = 0.0;
  for (int64_t i = 0; i + 1 < s->n; i++) {
    const double h = s->x[i + 1] - s->x[i];
    *hmin = fmin(*hmin, h);
    *hmax = fmax(*hmax, h);
  }
}

/* ---- 1. linear problem y'' = y + g(x) ------------------------------------ */
/* Expected: the hand-derived closed form y = sin(pi x) + x^2 (see the top of
 * the file); order 2 from the box scheme's truncation error; Richardson's
 * estimate within a factor 3 of the error measured against the closed form. */

static double lin_g(double x)
{
  return -(PI * PI + 1.0) * sin(PI * x) + 2.0 - x * x;
}

static int lin_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)p;
  (void)ud;
  f[0] = y[1];
  f[1] = y[0] + lin_g(x);
  return 0;
}

static int lin_jac(double x, const double *y, const double *p, double *J, void *ud)
{
  (void)x;
  (void)y;
  (void)p;
  (void)ud;
  J[0] = 0.0; /* df0/dy0 */
  J[1] = 1.0; /* df1/dy0 */
  J[2] = 1.0; /* df0/dy1 */
  J[3] = 0.0; /* df1/dy1 */
  return 0;
}

static int lin_bc_dirichlet(const double *ya, const double *yb, const double *p, double *g,
                            void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0];
  g[1] = yb[0] - 1.0;
  return 0;
}

static int lin_bc_robin(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0];
  g[1] = yb[1] + yb[0] - (3.0 - PI);
  return 0;
}

static void lin_exact(double x, const double *p, double *y)
{
  (void)p;
  y[0] = sin(PI * x) + x * x;
  y[1] = PI * cos(PI * x) + 2.0 * x;
}

static int lin_exact_cb(double x, const double *p, double *y, void *ud)
{
  (void)ud;
  lin_exact(x, p, y);
  return 0;
}

/* FD on 16, 32, 64, 128 intervals (one solve each, no estimate); graded:
 * ratio 1.05^(16/n). The three observed orders go to orders[]. */
static void fd_orders(sk_context *ctx, sk_bvp *bvp, int graded, const char *label, double *orders)
{
  double err[4];
  for (int k = 0; k < 4; k++) {
    const int64_t n = 16 << k;
    sk_bvp_settings s;
    sk_bvp_settings_default(&s);
    s.method = SK_BVP_FD;
    s.mesh_n = n;
    s.mesh_ratio = graded ? pow(1.05, 16.0 / (double)n) : 1.0;
    s.refine = 0;
    s.estimate = 0;
    s.tol = 1e-10; /* only sets the Newton tolerance here */
    sk_bvp_solution sol = {0};
    sk_bvp_report rep;
    CHECK_OK(ctx, sk_bvp_solve(ctx, bvp, &s, &sol, &rep));
    CHECK_EQ_INT(sol.n, n + 1);
    CHECK_EQ_INT(rep.points, n + 1);
    CHECK(rep.error_estimate == -1.0); /* estimate off: none */
    CHECK(sol.n == n + 1 && sol.x[0] == 0.0 && sol.x[n] == 1.0);
    if (graded && sol.n == n + 1) { /* the grading asked for: h_{i+1} / h_i = ratio */
      CHECK_NEAR((sol.x[2] - sol.x[1]) / (sol.x[1] - sol.x[0]), s.mesh_ratio, 1e-9, 0);
      CHECK_NEAR((sol.x[n] - sol.x[n - 1]) / (sol.x[n - 1] - sol.x[n - 2]), s.mesh_ratio, 1e-6,
                 0);
    }
    double rel;
    sol_error(&sol, lin_exact, NULL, &err[k], &rel);
    /* the library's own exact error agrees with ours (same formula) */
    CHECK_NEAR(rep.error_exact, rel, 1e-9, 1e-15);
    printf("  %-22s n = %4lld  max error %.4e\n", label, (long long)n, err[k]);
    sk_bvp_solution_free(&sol);
  }
  for (int k = 0; k < 3; k++) {
    orders[k] = log2(err[k] / err[k + 1]);
    printf("  %-22s order %d->%d: %.4f\n", label, 16 << k, 32 << k, orders[k]);
    CHECK_NEAR(orders[k], 2.0, 0.0, 0.2);
  }
}

/* The Richardson estimate of a solve with estimate = 1 against the true
 * error of the returned (bisected-mesh) solution. */
static void fd_richardson(sk_context *ctx, sk_bvp *bvp, int64_t n, double ratio,
                          const char *label)
{
  sk_bvp_settings s;
  sk_bvp_settings_default(&s);
  s.mesh_n = n;
  s.mesh_ratio = ratio;
  s.refine = 0;
  s.estimate = 1;
  s.tol = 1e-10;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  CHECK_OK(ctx, sk_bvp_solve(ctx, bvp, &s, &sol, &rep));
  CHECK_EQ_INT(sol.n, 2 * n + 1); /* the finer solution is returned */
  CHECK(sol.err != NULL);
  double rel;
  sol_error(&sol, lin_exact, NULL, NULL, &rel);
  const double ratio_est = rep.error_estimate / rel;
  printf("  %-22s n = %lld: estimate %.4e, true %.4e (library %.4e), ratio %.3f\n", label,
         (long long)n, rep.error_estimate, rel, rep.error_exact, ratio_est);
  CHECK(ratio_est >= 1.0 / 3.0 && ratio_est <= 3.0);
  CHECK_NEAR(rep.error_exact, rel, 1e-9, 1e-15);
  /* the per-value estimates in sol.err: also within a factor 3 of the true error at the node
   * where the true error of y[0] is largest */
  double ye[2], worst = 0.0, est_there = 0.0;
  for (int64_t i = 0; i < sol.n; i++) {
    lin_exact(sol.x[i], NULL, ye);
    const double e = fabs(sol.y[2 * i] - ye[0]);
    if (e > worst) {
      worst = e;
      est_there = fabs(sol.err[2 * i]);
    }
  }
  CHECK(est_there >= worst / 3.0 && est_there <= 3.0 * worst);
  sk_bvp_solution_free(&sol);
}

static void test_linear_fd(sk_context *ctx)
{
  printf("1. linear BVP, finite differences\n");
  double o[3];
  sk_bvp *dir = make_bvp(ctx, 2, 0.0, 1.0, lin_rhs, lin_jac, lin_bc_dirichlet, 1, 1);
  sk_bvp *rob = make_bvp(ctx, 2, 0.0, 1.0, lin_rhs, lin_jac, lin_bc_robin, 1, 1);
  CHECK_OK(ctx, sk_bvp_set_exact(dir, lin_exact_cb));
  CHECK_OK(ctx, sk_bvp_set_exact(rob, lin_exact_cb));
  fd_orders(ctx, dir, 0, "dirichlet uniform", o);
  fd_orders(ctx, rob, 0, "robin uniform", o);
  fd_orders(ctx, dir, 1, "dirichlet graded", o);
  fd_orders(ctx, rob, 1, "robin graded", o);
  fd_richardson(ctx, dir, 32, 1.0, "dirichlet estimate");
  fd_richardson(ctx, rob, 32, 1.0, "robin estimate");
  fd_richardson(ctx, dir, 32, 1.05, "dirichlet graded est.");
  sk_bvp_destroy(&dir);
  sk_bvp_destroy(&rob);
}

/* ---- 2. shooting on the linear problem ----------------------------------- */
/* Expected: the same closed form. The solution at the last output point
 * x = b is checked on its own: it must satisfy y(1) = 1 (the Dirichlet
 * condition). Known failure (library bug, src/backends/sundials_stepping.c,
 * sk__sun_advance): when an earlier output's advance made CVODE step onto the
 * stop time x = b and interpolate back, the later advance to tout == b takes
 * no step and skips the interpolation (`if (t > tout)`), so the state buffer
 * still holds the previous output's values: y(1) = 1.0115 = y(0.99) here. */

static void test_linear_shooting(sk_context *ctx)
{
  printf("2. linear BVP, single and multiple shooting\n");
  sk_bvp *dir = make_bvp(ctx, 2, 0.0, 1.0, lin_rhs, lin_jac, lin_bc_dirichlet, 1, 1);
  const double tols[3] = {1e-4, 1e-6, 1e-8};
  for (int m = 0; m < 2; m++) {
    double err[3];
    for (int k = 0; k < 3; k++) {
      sk_bvp_settings s;
      sk_bvp_settings_default(&s);
      s.method = m == 0 ? SK_BVP_SHOOTING : SK_BVP_MULTIPLE_SHOOTING;
      s.shoot_intervals = 8;
      s.tol = tols[k];
      sk_bvp_solution sol = {0};
      sk_bvp_report rep;
      CHECK_OK(ctx, sk_bvp_solve(ctx, dir, &s, &sol, &rep));
      CHECK_EQ_INT(sol.n, 101); /* the default output points */
      CHECK_EQ_INT(rep.points, m == 0 ? 2 : 9);
      sol_error(&sol, lin_exact, NULL, NULL, &err[k]);
      double inner, end;
      split_error(&sol, lin_exact, NULL, &inner, &end);
      printf("  %-18s tol %.0e: error %.3e (before x = 1: %.3e, at x = 1: %.3e; newton %lld, "
             "ivp steps %lld)\n",
             sk_bvp_method_name(s.method), tols[k], err[k], inner, end,
             (long long)rep.newton_iters, (long long)rep.ivp_steps);
      CHECK(err[k] < 10.0 * tols[k]);
      CHECK(inner < 10.0 * tols[k]);
      /* the last output point is x = b, where the boundary condition y(1) = 1 holds */
      CHECK_NEAR(sol.n ? sol.y[2 * sol.n - 2] : NAN, 1.0, 0.0, 10.0 * tols[k]);
      sk_bvp_solution_free(&sol);
    }
    CHECK(err[1] < err[0]);
    CHECK(err[2] < err[1]);
    CHECK(err[2] < err[0] / 100.0);
  }
  sk_bvp_destroy(&dir);
}

/* ---- 3. Bratu -------------------------------------------------------------- */
/* Expected: the closed form with theta from Newton in this file; the multiple-
 * shooting output at x = 1 is exposed to the same stale-state bug as in 2. */

static double bratu_theta(double lambda)
{
  double t = 1.0;
  for (int i = 0; i < 100; i++) {
    const double F = t - sqrt(2.0 * lambda) * cosh(t / 4.0);
    const double dF = 1.0 - sqrt(2.0 * lambda) * sinh(t / 4.0) / 4.0;
    const double dt = F / dF;
    t -= dt;
    if (fabs(dt) < 1e-15 * fabs(t)) {
      break;
    }
  }
  return t;
}

static void bratu_exact(double x, const double *p, double *y)
{
  const double t = bratu_theta(p[0]);
  y[0] = -2.0 * log(cosh((x - 0.5) * t / 2.0) / cosh(t / 4.0));
  y[1] = -t * tanh((x - 0.5) * t / 2.0);
}

static int bratu_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)ud;
  f[0] = y[1];
  f[1] = -p[0] * exp(y[0]);
  return 0;
}

static int bratu_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0];
  g[1] = yb[0];
  return 0;
}

static void test_bratu(sk_context *ctx)
{
  printf("3. Bratu, lambda = 1\n");
  /* no Jacobian callback: the difference-quotient path */
  sk_bvp *b = make_bvp(ctx, 2, 0.0, 1.0, bratu_rhs, NULL, bratu_bc, 1, 1);
  const double lam = 1.0;
  CHECK_OK(ctx, sk_bvp_set_parameters(b, 1, &lam, (const char *const[]){"lambda"}));
  const double theta = bratu_theta(1.0);
  printf("  theta(1) = %.15f\n", theta);
  CHECK_NEAR(theta - sqrt(2.0) * cosh(theta / 4.0), 0.0, 0, 1e-14);

  sk_bvp_settings s;
  sk_bvp_settings_default(&s);
  s.tol = 1e-7;
  sk_bvp_solution fd = {0};
  sk_bvp_report rep;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &fd, &rep));
  double ea, er;
  sol_error(&fd, bratu_exact, &lam, &ea, &er);
  printf(
      "  fd: %lld points, %d refinements, newton %lld, estimate %.3e, error abs %.3e rel %.3e\n",
      (long long)fd.n, rep.refinements, (long long)rep.newton_iters, rep.error_estimate, ea, er);
  CHECK(rep.error_estimate <= s.tol);
  CHECK(ea <= 1e-6);

  /* multiple shooting, reported at the FD mesh, agrees with FD and the closed form */
  sk_bvp_settings ms;
  sk_bvp_settings_default(&ms);
  ms.method = SK_BVP_MULTIPLE_SHOOTING;
  ms.shoot_intervals = 8;
  ms.tol = 1e-8;
  ms.output_x = fd.x;
  ms.n_output_x = fd.n;
  sk_bvp_solution sh = {0};
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &ms, &sh, &rep));
  double ea2;
  sol_error(&sh, bratu_exact, &lam, &ea2, NULL);
  double diff = 0.0;
  CHECK_EQ_INT(sh.n, fd.n);
  for (int64_t i = 0; sh.n == fd.n && i < 2 * sh.n; i++) {
    diff = fmax(diff, fabs(sh.y[i] - fd.y[i]));
  }
  double inner, end;
  split_error(&sh, bratu_exact, &lam, &inner, &end);
  printf("  multiple shooting: error %.3e (before x = 1: %.3e, at x = 1: %.3e), |ms - fd| %.3e, "
         "newton %lld\n",
         ea2, inner, end, diff, (long long)rep.newton_iters);
  CHECK(inner <= 1e-6);
  CHECK_NEAR(sh.n ? sh.y[2 * sh.n - 2] : NAN, 0.0, 0.0, 1e-6); /* y(1) = 0 */
  CHECK(ea2 <= 1e-6);
  CHECK(diff <= 2e-6);
  sk_bvp_solution_free(&sh);
  sk_bvp_solution_free(&fd);
  sk_bvp_destroy(&b);
}

/* ---- 4. heat rod with k(T) = k0 (1 + beta T) ------------------------------ */
/* Expected: the Kirchhoff-transform closed form; for the radiating end, T_L
 * from bisection on the scalar energy balance (top of the file). */

typedef struct {
  double k0, beta, T0, L, s, qL;
  int radiating;
  double es, Tinf;
} rod;

static int rod_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)p;
  const rod *r = ud;
  f[0] = -y[1] / (r->k0 * (1.0 + r->beta * y[0]));
  f[1] = r->s;
  return 0;
}

static int rod_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  const rod *r = ud;
  g[0] = ya[0] - r->T0;
  if (r->radiating) {
    g[1] = yb[1] - r->es * (pow(yb[0], 4) - pow(r->Tinf, 4));
  } else {
    g[1] = yb[1] - r->qL;
  }
  return 0;
}

static int rod_guess(double x, const double *p, double *y, void *ud)
{
  (void)x;
  (void)p;
  const rod *r = ud;
  y[0] = r->T0;
  y[1] = r->radiating ? 1000.0 : r->qL;
  return 0;
}

static double rod_U(const rod *r, double T)
{
  return r->k0 * (T + r->beta * T * T / 2.0);
}

static double rod_T(const rod *r, double U)
{
  return (sqrt(1.0 + 2.0 * r->beta * U / r->k0) - 1.0) / r->beta;
}

static void test_rod(sk_context *ctx)
{
  printf("4. heat rod, k(T) = k0 (1 + beta T)\n");
  rod r = {.k0 = 2.0, .beta = 0.01, .T0 = 300.0, .L = 1.0, .s = 50.0, .qL = 400.0};
  sk_bvp *b = make_bvp(ctx, 2, 0.0, r.L, rod_rhs, NULL, rod_bc, 1, 1);
  CHECK_OK(ctx, sk_bvp_set_user_data(b, &r, NULL));
  CHECK_OK(ctx, sk_bvp_set_guess(b, rod_guess));
  CHECK_OK(ctx, sk_bvp_set_component_names(b, (const char *const[]){"T", "q"}));
  sk_bvp_settings s;
  sk_bvp_settings_default(&s);
  s.tol = 1e-8;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  double eT = 0.0, eq = 0.0, Tmin = INFINITY;
  for (int64_t i = 0; i < sol.n; i++) {
    const double x = sol.x[i];
    const double U = rod_U(&r, r.T0) - (r.qL - r.s * r.L) * x - r.s * x * x / 2.0;
    const double T = rod_T(&r, U), q = r.qL - r.s * (r.L - x);
    Tmin = fmin(Tmin, T);
    eT = fmax(eT, fabs(sol.y[2 * i] - T) / T);
    eq = fmax(eq, fabs(sol.y[2 * i + 1] - q) / fabs(r.qL));
  }
  const double qend = sol.n ? sol.y[2 * sol.n - 1] : NAN;
  printf("  fixed flux: %lld points, T rel error %.3e, q rel error %.3e, q(L) - qL = %.3e, "
         "T(L) = %.10g (exact 250), min T %.4g\n",
         (long long)sol.n, eT, eq, qend - r.qL, sol.n ? sol.y[2 * sol.n - 2] : NAN, Tmin);
  CHECK(Tmin > 0.0);
  CHECK(eT <= 1e-6);
  CHECK(eq <= 1e-11);                 /* q' = s is exact in the box scheme */
  CHECK_NEAR(qend, r.qL, 1e-13, 0.0); /* the linear BC row, to rounding */
  CHECK_NEAR(sol.n ? sol.y[2 * sol.n - 2] : NAN, 250.0, 1e-6, 0.0); /* U(L) = 1125: T = 250 */
  sk_bvp_solution_free(&sol);

  /* radiating right end, no source */
  r.radiating = 1;
  r.s = 0.0;
  r.T0 = 600.0;
  r.es = 5.67e-8 * 0.8;
  r.Tinf = 300.0;
  double lo = r.Tinf, hi = r.T0; /* F(lo) > 0 > F(hi) */
  for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
    const double m = 0.5 * (lo + hi);
    const double F = rod_U(&r, r.T0) - rod_U(&r, m) - r.L * r.es * (pow(m, 4) - pow(r.Tinf, 4));
    if (F > 0) {
      lo = m;
    } else {
      hi = m;
    }
  }
  const double TL = 0.5 * (lo + hi), q = r.es * (pow(TL, 4) - pow(r.Tinf, 4));
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  eT = 0.0;
  eq = 0.0;
  for (int64_t i = 0; i < sol.n; i++) {
    const double T = rod_T(&r, rod_U(&r, r.T0) - q * sol.x[i]);
    eT = fmax(eT, fabs(sol.y[2 * i] - T) / T);
    eq = fmax(eq, fabs(sol.y[2 * i + 1] - q) / q);
  }
  printf("  radiating: T_L = %.10f (bisection), q = %.8f, FD T_L = %.10f, T rel error %.3e, "
         "q rel error %.3e, %lld points, newton %lld\n",
         TL, q, sol.n ? sol.y[2 * sol.n - 2] : NAN, eT, eq, (long long)sol.n,
         (long long)rep.newton_iters);
  CHECK(TL > r.Tinf && TL < r.T0);
  CHECK(eT <= 1e-6);
  CHECK(eq <= 1e-6);
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);
}

/* ---- 5. Troesch; the unstable linear problem ------------------------------ */
/* Expected: y'(0) = 0.0457504614 (Roberts & Shipman 1976), FD and multiple
 * shooting agreeing with each other; for y'' = 1600 y the cosh closed form
 * and the growth cosh(40) ~ 1e17 of the single-shooting IVP. */

static int troesch_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)ud;
  f[0] = y[1];
  f[1] = p[0] * sinh(p[0] * y[0]);
  return 0;
}

static int troesch_jac(double x, const double *y, const double *p, double *J, void *ud)
{
  (void)x;
  (void)ud;
  J[0] = 0.0;
  J[1] = p[0] * p[0] * cosh(p[0] * y[0]);
  J[2] = 1.0;
  J[3] = 0.0;
  return 0;
}

static int troesch_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0];
  g[1] = yb[0] - 1.0;
  return 0;
}

static int linear_guess(double x, const double *p, double *y, void *ud)
{
  (void)p;
  (void)ud;
  y[0] = x;
  y[1] = 1.0;
  return 0;
}

#define TROESCH_DY0 0.0457504614 /* Roberts & Shipman 1976, mu = 5 */

static void test_troesch(sk_context *ctx)
{
  printf("5a. Troesch, mu = 5\n");
  sk_bvp *b = make_bvp(ctx, 2, 0.0, 1.0, troesch_rhs, troesch_jac, troesch_bc, 1, 1);
  const double mu = 5.0;
  CHECK_OK(ctx, sk_bvp_set_parameters(b, 1, &mu, (const char *const[]){"mu"}));
  CHECK_OK(ctx, sk_bvp_set_guess(b, linear_guess));
  sk_bvp_settings s;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;

  sk_bvp_settings_default(&s);
  s.method = SK_BVP_SHOOTING;
  const sk_status st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
  printf("  single shooting: %s: %s\n", sk_status_name(st), errmsg(ctx));
  CHECK(st < 0);
  CHECK(!rep.converged);
  CHECK_STR_CONTAINS(errmsg(ctx), "multiple shooting");
  sk_bvp_solution_free(&sol);

  sk_bvp_settings_default(&s);
  s.tol = 1e-8;
  sk_bvp_solution fd = {0};
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &fd, &rep));
  const double fd_dy0 = fd.n ? fd.y[1] : NAN;
  printf("  fd: %lld points, %d refinements, newton %lld, estimate %.3e, y'(0) = %.12f, "
         "y'(1) = %.8f\n",
         (long long)fd.n, rep.refinements, (long long)rep.newton_iters, rep.error_estimate,
         fd_dy0, fd.n ? fd.y[2 * fd.n - 1] : NAN);
  CHECK_NEAR(fd_dy0, TROESCH_DY0, 1e-6, 0.0);

  sk_bvp_settings_default(&s);
  s.method = SK_BVP_MULTIPLE_SHOOTING;
  s.shoot_intervals = 20;
  s.tol = 1e-8;
  s.output_x = fd.x;
  s.n_output_x = fd.n;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  double diff = 0.0, diff_inner = 0.0;
  CHECK_EQ_INT(sol.n, fd.n);
  for (int64_t i = 0; sol.n == fd.n && i < 2 * sol.n; i++) {
    const double e = fabs(sol.y[i] - fd.y[i]) / (1.0 + fabs(fd.y[i]));
    diff = fmax(diff, e);
    diff_inner = i < 2 * (sol.n - 1) ? fmax(diff_inner, e) : diff_inner;
  }
  const double ms_dy0 = sol.n ? sol.y[1] : NAN;
  printf("  multiple shooting (20): newton %lld, ivp steps %lld, y'(0) = %.12f, "
         "max |ms - fd| / (1 + |fd|) = %.3e (before x = 1: %.3e), y(1) = %.10f\n",
         (long long)rep.newton_iters, (long long)rep.ivp_steps, ms_dy0, diff, diff_inner,
         sol.n ? sol.y[2 * sol.n - 2] : NAN);
  CHECK(diff <= 1e-5);
  CHECK(diff_inner <= 1e-5);
  CHECK_NEAR(ms_dy0, TROESCH_DY0, 1e-6, 0.0);
  CHECK_NEAR(sol.n ? sol.y[0] : NAN, 0.0, 0.0, 1e-12);
  CHECK_NEAR(sol.n ? sol.y[2 * sol.n - 2] : NAN, 1.0, 0.0, 1e-7);
  sk_bvp_solution_free(&sol);
  sk_bvp_solution_free(&fd);
  sk_bvp_destroy(&b);
}

#define UNSTABLE_K 40.0

static int unstable_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)p;
  (void)ud;
  f[0] = y[1];
  f[1] = UNSTABLE_K * UNSTABLE_K * y[0];
  return 0;
}

static int unstable_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)p;
  (void)ud;
  g[0] = ya[0] - 1.0;
  g[1] = yb[0] - 1.0;
  return 0;
}

static void unstable_exact(double x, const double *p, double *y)
{
  (void)p;
  const double k = UNSTABLE_K, c = cosh(k / 2.0);
  y[0] = cosh(k * (x - 0.5)) / c;
  y[1] = k * sinh(k * (x - 0.5)) / c;
}

static void test_unstable(sk_context *ctx)
{
  printf("5b. y'' = 1600 y, y(0) = y(1) = 1\n");
  sk_bvp *b = make_bvp(ctx, 2, 0.0, 1.0, unstable_rhs, NULL, unstable_bc, 1, 1);
  sk_bvp_settings s;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  double ea, er;

  sk_bvp_settings_default(&s);
  s.method = SK_BVP_SHOOTING;
  const sk_status st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
  printf("  single shooting: %s, sensitivity %.3e on [%g, %g], warned %d%s%s\n",
         sk_status_name(st), rep.sensitivity, rep.sensitivity_x[0], rep.sensitivity_x[1],
         rep.sensitivity_warned, st != SK_OK ? ": " : "", st != SK_OK ? errmsg(ctx) : "");
  CHECK(rep.sensitivity > s.sensitivity_limit);
  if (st != SK_OK) {
    CHECK(st < 0);
    CHECK_STR_CONTAINS(errmsg(ctx), "unstable");
  } else {
    CHECK_EQ_INT(rep.sensitivity_warned, 1);
    sol_error(&sol, unstable_exact, NULL, &ea, &er);
    printf("  single shooting returned SK_OK with error %.3e\n", er);
  }
  sk_bvp_solution_free(&sol);

  sk_bvp_settings_default(&s);
  s.method = SK_BVP_MULTIPLE_SHOOTING;
  s.shoot_intervals = 40;
  s.tol = 1e-7;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  sol_error(&sol, unstable_exact, NULL, &ea, &er);
  printf("  multiple shooting (40): error rel %.3e (abs %.3e), sensitivity %.3e, warned %d\n", er,
         ea, rep.sensitivity, rep.sensitivity_warned);
  CHECK(er < 1e-5);
  CHECK(rep.sensitivity < s.sensitivity_limit);
  CHECK_EQ_INT(rep.sensitivity_warned, 0);
  sk_bvp_solution_free(&sol);

  sk_bvp_settings_default(&s);
  s.tol = 1e-7;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  sol_error(&sol, unstable_exact, NULL, &ea, &er);
  printf("  fd: %lld points, %d refinements, error rel %.3e (abs %.3e)\n", (long long)sol.n,
         rep.refinements, er, ea);
  CHECK(er < 1e-5);
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);
}

/* ---- 6. boundary layer ------------------------------------------------------ */
/* Expected: y = (1 - e^{-x/eps}) / (1 - e^{-1/eps}) (expm1 for accuracy). */

#define LAYER_EPS 1e-3

static int layer_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)x;
  (void)p;
  (void)ud;
  f[0] = y[1];
  f[1] = -y[1] / LAYER_EPS;
  return 0;
}

static void layer_exact(double x, const double *p, double *y)
{
  (void)p;
  const double den = -expm1(-1.0 / LAYER_EPS);
  y[0] = -expm1(-x / LAYER_EPS) / den;
  y[1] = exp(-x / LAYER_EPS) / (LAYER_EPS * den);
}

static void test_layer(sk_context *ctx)
{
  printf("6. boundary layer, eps = 1e-3\n");
  sk_bvp *b = make_bvp(ctx, 2, 0.0, 1.0, layer_rhs, NULL, lin_bc_dirichlet, 1, 1);
  sk_bvp_settings s;
  sk_bvp_settings_default(&s);
  s.mesh_n = 10;
  s.tol = 1e-6;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  CHECK_OK(ctx, sk_bvp_solve(ctx, b, &s, &sol, &rep));
  double er, hmin, hmax;
  sol_error(&sol, layer_exact, NULL, NULL, &er);
  mesh_extent(&sol, &hmin, &hmax);
  const double uniform = 1.0 / hmin + 1.0;
  printf("  %lld points, %d refinements, newton %lld, estimate %.3e, true error %.3e, "
         "h in [%.3e, %.3e], uniform mesh at hmin: %.3g points\n",
         (long long)sol.n, rep.refinements, (long long)rep.newton_iters, rep.error_estimate, er,
         hmin, hmax, uniform);
  CHECK(rep.converged);
  CHECK(rep.error_estimate <= s.tol);
  CHECK(er <= 10.0 * s.tol);
  CHECK(rep.refinements >= 3);
  CHECK(hmin < 1e-3 * hmax);
  CHECK((double)sol.n < 0.01 * uniform);
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);
}

/* ---- 7. continuation to the Bratu fold ------------------------------------- */
/* Expected: the fold lambda_c = 3.513830719 (Boyd 1986, Mohsen 2014) bounds
 * the last converged value; y(1/2) = 2 ln cosh(theta/4) along the path. */

#define BRATU_LAMBDA_C 3.513830719

static void test_continuation(sk_context *ctx)
{
  printf("7. Bratu continuation lambda = 0.5 -> 4\n");
  sk_bvp *b = make_bvp(ctx, 2, 0.0, 1.0, bratu_rhs, NULL, bratu_bc, 1, 1);
  const double lam0 = 0.5;
  CHECK_OK(ctx, sk_bvp_set_parameters(b, 1, &lam0, (const char *const[]){"lambda"}));
  sk_bvp_settings s;
  sk_bvp_settings_default(&s);
  const sk_bvp_continuation c = {.param = 0, .to = 4.0, .step = 0.25, .min_step = 1e-4};
  sk_bvp_continuation_point path[64];
  size_t np = 0;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  const sk_status st = sk_bvp_continue(ctx, b, &s, &c, &sol, path, 64, &np, &rep);
  const double last = sk_bvp_get_parameters(b)[0];
  printf("  %s after %zu converged steps, last lambda = %.10f (lambda_c = %.9f)\n  %s\n",
         sk_status_name(st), np, last, BRATU_LAMBDA_C, errmsg(ctx));
  CHECK_EQ_INT(st, SK_ERR_CONV);
  CHECK(last >= 3.50 && last <= 3.5139);
  CHECK_STR_CONTAINS(errmsg(ctx), "turning point");
  CHECK(np >= 2 && np < 64);
  CHECK(np >= 1 && path[0].value == 0.5);
  CHECK(np >= 1 && path[np - 1].value == last);
  int checked = 0;
  double worst = 0.0;
  for (size_t i = 0; i < np; i++) {
    CHECK(i == 0 || path[i].value > path[i - 1].value);
    if (path[i].value <= 3.4) {
      const double t = bratu_theta(path[i].value), ymid = 2.0 * log(cosh(t / 4.0));
      worst = fmax(worst, fabs(path[i].max_abs[0] - ymid));
      CHECK_NEAR(path[i].max_abs[0], ymid, 0.0, 1e-5);
      checked++;
    }
  }
  printf("  %d path points with lambda <= 3.4, max |max y - y(1/2) closed form| = %.3e\n",
         checked, worst);
  CHECK(checked >= 12); /* 0.5, 0.75, ..., 3.25 at least */
  /* sol holds the last converged solution, on a mesh spanning [0, 1] */
  CHECK(sol.n >= 2 && sol.x[0] == 0.0 && sol.x[sol.n - 1] == 1.0);
  double m = 0.0;
  for (int64_t i = 0; i < sol.n; i++) {
    m = fmax(m, fabs(sol.y[2 * i]));
  }
  CHECK(np >= 1 && fabs(m - path[np - 1].max_abs[0]) <= 1e-12);
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);
}

/* ---- 8. bad input and failure paths --------------------------------------- */
/* Expected: the statuses and messages the contract in stiffkit/bvp.h names.
 * The redundant conditions y(0) = 0, y(0) = 0 are tried from the default
 * guess y = 0 too, which already zeroes them: single shooting then takes no
 * Newton step and forms no Jacobian, so only an explicit rank check of
 * [dg/dya dg/dyb] catches them (without one it returned SK_OK).
 * Known failure (library bug): FD with f = NaN at the guess returns
 * SK_ERR_CALLBACK (KINSOL's status) although the error record it restores
 * says SK_ERR_NONFINITE (src/models/bvp_fd.c, fd_newton: after
 * sk__error_restore, st is not taken from sys.saved.code). */

static int redundant_bc(const double *ya, const double *yb, const double *p, double *g, void *ud)
{
  (void)yb;
  (void)p;
  (void)ud;
  g[0] = ya[0];
  g[1] = ya[0];
  return 0;
}

static int shifted_guess(double x, const double *p, double *y, void *ud)
{
  (void)p;
  (void)ud;
  y[0] = 1.0 + x;
  y[1] = 1.0;
  return 0;
}

static int nan_rhs(double x, const double *y, const double *p, double *f, void *ud)
{
  (void)p;
  (void)ud;
  f[0] = y[1];
  f[1] = x > 0.5 ? NAN : 0.0;
  return 0;
}

static void test_failures(sk_context *ctx)
{
  printf("8. failure paths\n");
  sk_bvp_settings s;
  sk_bvp_solution sol = {0};
  sk_bvp_report rep;
  sk_bvp *b = NULL;
  sk_status st;

  /* too many boundary conditions */
  CHECK_OK(ctx, sk_bvp_create(ctx, 2, 0.0, 1.0, &b));
  CHECK_EQ_INT(sk_bvp_set_bc(b, lin_bc_dirichlet, NULL, 2, 1), SK_ERR_ARG);
  CHECK_STR_CONTAINS(errmsg(ctx), "n_left + n_right <= d");
  CHECK_EQ_INT(sk_bvp_set_bc(b, lin_bc_dirichlet, NULL, -1, 1), SK_ERR_ARG);
  /* no boundary conditions */
  CHECK_OK(ctx, sk_bvp_set_rhs(b, lin_rhs, NULL));
  sk_bvp_settings_default(&s);
  CHECK_EQ_INT(sk_bvp_solve(ctx, b, &s, &sol, &rep), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(errmsg(ctx), "no boundary conditions");
  s.method = SK_BVP_MULTIPLE_SHOOTING;
  CHECK_EQ_INT(sk_bvp_solve(ctx, b, &s, &sol, &rep), SK_ERR_INPUT);
  CHECK_EQ_INT(sol.n, 0);
  sk_bvp_destroy(&b);
  CHECK(b == NULL);

  /* a guess whose mesh does not span [a, b] */
  b = make_bvp(ctx, 2, 0.0, 1.0, lin_rhs, lin_jac, lin_bc_dirichlet, 1, 1);
  CHECK_OK(ctx, sk_bvp_solution_alloc(ctx, 11, 2, &sol));
  for (int i = 0; i <= 10; i++) {
    sol.x[i] = 0.09 * i; /* [0, 0.9] */
  }
  sk_bvp_settings_default(&s);
  CHECK_EQ_INT(sk_bvp_solve(ctx, b, &s, &sol, &rep), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(errmsg(ctx), "not the interval");
  s.method = SK_BVP_SHOOTING;
  CHECK_EQ_INT(sk_bvp_solve(ctx, b, &s, &sol, &rep), SK_ERR_INPUT);
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);

  /* redundant boundary conditions: y(0) = 0 twice, nothing at x = 1 */
  b = make_bvp(ctx, 2, 0.0, 1.0, lin_rhs, lin_jac, redundant_bc, 2, 0);
  for (int m = 0; m < 3; m++) {
    sk_bvp_settings_default(&s);
    s.method = (sk_bvp_method)m;
    s.shoot_intervals = 4;
    st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
    printf("  redundant BCs, %s: %s: %s\n", sk_bvp_method_name(s.method), sk_status_name(st),
           errmsg(ctx));
    CHECK(st == SK_ERR_SINGULAR || st == SK_ERR_CONV);
    CHECK(strstr(errmsg(ctx), "boundary conditions") || strstr(errmsg(ctx), "singular"));
    CHECK(!rep.converged);
    sk_bvp_solution_free(&sol);
  }
  /* the same from a guess that violates them (y = 1 + x), so that Newton has to move */
  CHECK_OK(ctx, sk_bvp_set_guess(b, shifted_guess));
  for (int m = 0; m < 3; m++) {
    sk_bvp_settings_default(&s);
    s.method = (sk_bvp_method)m;
    s.shoot_intervals = 4;
    st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
    printf("  redundant BCs from y = 1 + x, %s: %s\n", sk_bvp_method_name(s.method),
           sk_status_name(st));
    CHECK(st == SK_ERR_SINGULAR || st == SK_ERR_CONV);
    CHECK(strstr(errmsg(ctx), "boundary conditions") || strstr(errmsg(ctx), "singular"));
    sk_bvp_solution_free(&sol);
  }
  sk_bvp_destroy(&b);

  /* f is NaN for x > 0.5 (at the guess already) */
  b = make_bvp(ctx, 2, 0.0, 1.0, nan_rhs, NULL, lin_bc_dirichlet, 1, 1);
  CHECK_OK(ctx, sk_bvp_set_component_names(b, (const char *const[]){"u", "v"}));
  sk_bvp_settings_default(&s);
  st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
  printf("  NaN f, fd: %s (error record %s): %s\n", sk_status_name(st),
         sk_status_name(sk_context_get_error(ctx)->code), errmsg(ctx));
  CHECK_EQ_INT(st, SK_ERR_NONFINITE);
  CHECK_EQ_INT(sk_context_get_error(ctx)->code, SK_ERR_NONFINITE);
  CHECK_STR_CONTAINS(errmsg(ctx), "x =");
  CHECK_STR_CONTAINS(errmsg(ctx), "component v");
  sk_bvp_solution_free(&sol);
  s.method = SK_BVP_MULTIPLE_SHOOTING;
  s.shoot_intervals = 4;
  st = sk_bvp_solve(ctx, b, &s, &sol, &rep);
  printf("  NaN f, multiple shooting: %s: %s\n", sk_status_name(st), errmsg(ctx));
  CHECK(st < 0);
  CHECK_STR_CONTAINS(errmsg(ctx), "x =");
  sk_bvp_solution_free(&sol);
  sk_bvp_destroy(&b);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_context_set_log(ctx, SK_LOG_WARN, sk_log_to_stream, stderr);
  test_linear_fd(ctx);
  test_linear_shooting(ctx);
  test_bratu(ctx);
  test_rod(ctx);
  test_troesch(ctx);
  test_unstable(ctx);
  test_layer(ctx);
  test_continuation(ctx);
  test_failures(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
