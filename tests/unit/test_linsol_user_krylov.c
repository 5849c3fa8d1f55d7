/* tests/unit/test_linsol_user_krylov.c: an iterative linear solver type registered at run time (stiffkit/linear_solver.h): the example GMRES plugin (data/plugins/gmres_solver.c) runs cvode-bdf (with and without the model's preconditioner), ida-bdf and the steady solve to the answers of exact solutions, published references and SUNDIALS' SPGMR; the engine counts what the type reports; failures and registration errors */
#include "../test.h"

/* the example plugin's type (gmres_type), built into this test */
#include "../../data/plugins/gmres_solver.c"

/* ---- the plugin's GMRES, counted: what the engine created, destroyed and was told */

static int g_creates, g_destroys, g_iters_reported;

static sk_status g_create(sk_model *m, void **state)
{
  const sk_status st = gmres_type.create(m, state);
  g_creates += st == SK_OK;
  return st;
}

static void g_destroy(void *state)
{
  gmres_type.destroy(state);
  g_destroys++;
}

static sk_status g_iterate(void *state, const sk_krylov_system *A, const double *b, double *x,
                           double tol, int *iters, double *resnorm)
{
  const sk_status st = gmres_type.iterate(state, A, b, x, tol, iters, resnorm);
  g_iters_reported += *iters;
  return st;
}

static const sk_linear_solver_type user_gmres = {.name = "user-gmres",
                                                 .create = g_create,
                                                 .destroy = g_destroy,
                                                 .kind = SK_LINSOL_ITERATIVE,
                                                 .iterate = g_iterate};

/* A type that never converges (it returns at once with the residual of the guess) ... */
static sk_status stall_iterate(void *state, const sk_krylov_system *A, const double *b, double *x,
                               double tol, int *iters, double *resnorm)
{
  (void)state;
  (void)A;
  (void)b;
  (void)x;
  *iters = 0;
  *resnorm = HUGE_VAL; /* not even reduced */
  return SK_RECOVERABLE;
}

/* A solve an iterative type must not have (its registration is refused). */
static sk_status stall_solve_unused(void *state, const double *b, double *x)
{
  (void)state;
  (void)b;
  (void)x;
  return SK_OK;
}

static const sk_linear_solver_type stalls = {
    .name = "stalls", .kind = SK_LINSOL_ITERATIVE, .iterate = stall_iterate};

/* ... and one that breaks down. */
static sk_status broken_iterate(void *state, const sk_krylov_system *A, const double *b,
                                double *x, double tol, int *iters, double *resnorm)
{
  (void)state;
  (void)A;
  (void)b;
  (void)x;
  (void)tol;
  *iters = 0;
  *resnorm = 0;
  return SK_ERR_SOLVER;
}

static const sk_linear_solver_type broken = {
    .name = "broken", .kind = SK_LINSOL_ITERATIVE, .iterate = broken_iterate};

/* ---- 1D heat u_t = u_xx on (0, 1), u = 0 at both ends, n interior points, from the first
 * sine mode: the semi-discrete solution is exp(lambda t) sin(pi x_i) with
 * lambda = -(4 / h^2) sin^2(pi h / 2), exactly. Its preconditioner solves I - gamma J
 * exactly (the tridiagonal Thomas algorithm), so a right-preconditioned Krylov method
 * needs about one product per Newton iteration. */
#define SK_TEST_PI 3.14159265358979323846
#define NH 100
static const double H = 1.0 / (NH + 1);

static int heat_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < NH; i++) {
    f[i] = ((i ? u[i - 1] : 0.0) - 2 * u[i] + (i + 1 < NH ? u[i + 1] : 0.0)) / (H * H);
  }
  return 0;
}

static int heat_jtimes(double t, const double *u, const double *fu, const double *v, double *jv,
                       void *ud)
{
  (void)u;
  (void)fu;
  return heat_rhs(t, v, jv, ud);
}

static int heat_initial(double t0, double *u, void *ud)
{
  (void)t0;
  (void)ud;
  for (int i = 0; i < NH; i++) {
    u[i] = sin(SK_TEST_PI * (i + 1) * H);
  }
  return 0;
}

static double heat_gamma;
static int heat_psetup(double t, const double *y, double gamma, int jc, void *ud)
{
  (void)t;
  (void)y;
  (void)jc;
  (void)ud;
  heat_gamma = gamma;
  return 0;
}

static int heat_psolve(double t, const double *y, const double *r, double *z, double gamma,
                       void *ud)
{
  (void)t;
  (void)y;
  (void)gamma;
  (void)ud;
  const double off = -heat_gamma / (H * H), diag = 1 + 2 * heat_gamma / (H * H);
  double c[NH], d[NH];
  c[0] = off / diag;
  d[0] = r[0] / diag;
  for (int i = 1; i < NH; i++) {
    const double den = diag - off * c[i - 1];
    c[i] = off / den;
    d[i] = (r[i] - off * d[i - 1]) / den;
  }
  z[NH - 1] = d[NH - 1];
  for (int i = NH - 2; i >= 0; i--) {
    z[i] = d[i] - c[i] * z[i + 1];
  }
  return 0;
}

/* cvode-bdf on the heat problem to t = 0.05 with linear solver `ls` and preconditioner
 * `prec`; the largest error against the semi-discrete solution into *err. */
static sk_status run_heat(sk_context *ctx, const char *ls, const char *prec, double *err,
                          sk_stats *st)
{
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  sk_status rc = sk_model_create(ctx, SK_MODEL_ODE, NH, &m);
  if (rc == SK_OK) {
    sk_model_set_rhs(m, heat_rhs);
    sk_model_set_initial(m, heat_initial);
    sk_model_set_jtimes(m, heat_jtimes);
    rc = sk_model_set_preconditioner(m, heat_psetup, heat_psolve);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_create(ctx, "cvode-bdf", m, &s);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_linear_solver(s, ls);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_preconditioner(s, prec);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_tolerances(s, 1e-8, 1e-10);
  }
  double t = 0;
  if (rc == SK_OK) {
    rc = sk_stepper_advance(s, 0.05, &t);
  }
  if (rc == SK_OK) {
    const double lambda = -4 / (H * H) * pow(sin(SK_TEST_PI * H / 2), 2);
    const double *u = sk_stepper_get_state(s);
    *err = 0;
    for (int i = 0; i < NH; i++) {
      const double e = fabs(u[i] - exp(lambda * t) * sin(SK_TEST_PI * (i + 1) * H));
      *err = e > *err ? e : *err;
    }
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  return rc;
}

static void cvode_heat(sk_context *ctx)
{
  double eu, ek, en;
  sk_stats su, sk, sn;
  const int before = g_iters_reported;
  CHECK_OK(ctx, run_heat(ctx, "user-gmres", "model", &eu, &su));
  /* the engine's count is what the type reported, solve by solve */
  CHECK_EQ_INT((int)su.lin_iters, g_iters_reported - before);
  CHECK_OK(ctx, run_heat(ctx, "spgmr", "model", &ek, &sk));
  CHECK_OK(ctx, run_heat(ctx, "user-gmres", "none", &en, &sn));
  /* u(0.05) = e^{-0.49} sin(pi x) ~ 0.61 at most: rtol 1e-8 keeps the error near 1e-8 */
  CHECK(eu < 1e-7 && ek < 1e-7 && en < 1e-7);
  /* the exact preconditioner reaches the tolerance in about one product per Newton
     iteration; without it the same type needs several (the spectrum spans 1 to 4e4 gamma) */
  CHECK(su.lin_iters <= 1.5 * su.newton_iters);
  CHECK(sn.lin_iters >= 3 * sn.newton_iters);
  CHECK(su.prec_solves >= su.lin_iters);
  /* the same algorithm as SUNDIALS' SPGMR in exact arithmetic: the same steps, near enough */
  CHECK(labs((long)su.steps - (long)sk.steps) <= sk.steps / 10 + 2);
}

/* ---- HIRES (8 states) through ida-bdf against its published reference at t = 321.8122 */
static void ida_hires(sk_context *ctx)
{
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "hires", &m));
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "user-gmres"));
  CHECK_OK(ctx, sk_stepper_set_krylov(s, 8, 0.0)); /* n = 8: the full space, IDA's eps_lin */
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 321.8122, &t));
  sk_problem_reference ref;
  CHECK_OK(ctx, sk_problem_get_reference("hires", &ref));
  const double *y = sk_stepper_get_state(s);
  for (int i = 0; i < 8; i++) {
    if (ref.digits[i] >= 6) {
      CHECK_NEAR(y[i], ref.y[i], 1e-5, 0);
    }
  }
  sk_stats st;
  sk_stepper_get_stats(s, &st);
  CHECK(st.lin_iters > 0 && st.steps > 50);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* ---- the steady solve: f_i = u_{i-1} - 2 u_i + u_{i+1} - u_i^3 + 1 = 0, u_{-1} = u_n = 0 */
#define NS 20
static int tri_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < NS; i++) {
    f[i] = (i ? u[i - 1] : 0.0) - 2 * u[i] + (i + 1 < NS ? u[i + 1] : 0.0) - u[i] * u[i] * u[i] +
           1.0;
  }
  return 0;
}

static void steady(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NS, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, tri_rhs));
  double u[NS] = {0}, f[NS];
  sk_steady_settings s;
  sk_steady_report r;
  sk_steady_settings_default(&s);
  snprintf(s.linsol, sizeof s.linsol, "user-gmres");
  s.maxl = NS; /* the full space: every solve converges */
  CHECK_OK(ctx, sk_steady_solve(ctx, m, &s, u, &r));
  CHECK_OK(ctx, sk_steady_eval(m, 0.0, u, f)); /* the answer solves the system */
  for (int i = 0; i < NS; i++) {
    CHECK(fabs(f[i]) <= s.fnormtol);
  }
  CHECK(strcmp(r.linsol, "user-gmres") == 0);
  sk_model_destroy(&m);
}

/* ---- what the engines refuse or report, and registration */
static void failures(sk_context *ctx)
{
  double err;
  sk_stats st;
  /* a type that breaks down: the run stops at once and names the solver and its status */
  CHECK(run_heat(ctx, "broken", "model", &err, &st) != SK_OK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linear solver broken: SUNLS_PACKAGE_FAIL_UNREC, the type returned "
                     "SK_ERR_SOLVER");
  /* one that never converges: the steady solve's Newton iteration cannot go on */
  sk_model *tri = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NS, &tri));
  CHECK_OK(ctx, sk_model_set_rhs(tri, tri_rhs));
  double u[NS] = {0};
  sk_steady_settings ss;
  sk_steady_report r;
  sk_steady_settings_default(&ss);
  snprintf(ss.linsol, sizeof ss.linsol, "stalls");
  CHECK(sk_steady_solve(ctx, tri, &ss, u, &r) != SK_OK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linear solver stalls: SUNLS_CONV_FAIL, the type returned SK_RECOVERABLE");
  sk_model_destroy(&tri);
  /* the reference steppers' Newton (KLU only) refuses it */
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "hires", &m));
  CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
  CHECK(sk_stepper_set_linear_solver(s, "user-gmres") != SK_OK ||
        sk_stepper_advance(s, 1.0, &err) != SK_OK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "user-gmres");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);

  sk_linear_solver_type bad = user_gmres;
  bad.name = "no-iterate";
  bad.iterate = NULL;
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "the table needs a name and iterate");
  bad = user_gmres;
  bad.name = "with-solve";
  bad.solve = stall_solve_unused;
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  bad = user_gmres;
  bad.name = "odd-kind";
  bad.kind = (sk_linear_solver_kind)7;
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "kind 7 is neither");
  CHECK(sk_linear_solver_type_find(ctx, "with-solve") == NULL);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &user_gmres));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &stalls));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &broken));
  cvode_heat(ctx);
  ida_hires(ctx);
  steady(ctx);
  failures(ctx);
  CHECK(g_creates > 0);
  CHECK_EQ_INT(g_destroys, g_creates);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
