/* tests/numerics/test_sensitivity.c: forward sensitivities (CVODES, IDAS) against closed forms, central differences and SUNDIALS' published cvsRoberts_FSA_dns and idasRoberts_FSA_dns output */
#include <math.h>
#include <string.h>

#include "stiffkit/stiffkit.h"
#include "test.h"

#define PI 3.14159265358979323846

/* Integrate m with sensitivities of the named parameters to t_end; S gets np x n at t_end. */
static void solve(sk_context *ctx, sk_model *m, const char *method, int np,
                  const char *const *names, const double *pbar, sk_sens_method ism, double rtol,
                  double atol, double t_end, double *y, double *S)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, rtol, atol));
  int idx[8];
  for (int j = 0; j < np; j++) {
    idx[j] = sk_model_find_param(m, names[j]);
    CHECK(idx[j] >= 0);
  }
  if (np > 0) {
    CHECK_OK(ctx, sk_stepper_set_sensitivity(s, np, idx, pbar, ism, 1));
  }
  CHECK_OK(ctx, sk_stepper_setup(s));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, t_end, &t));
  const int64_t n = sk_model_get_n(m);
  memcpy(y, sk_stepper_get_state(s), (size_t)n * sizeof *y);
  for (int j = 0; j < np; j++) {
    CHECK_OK(ctx, sk_stepper_get_sensitivity(s, j, S + (size_t)j * (size_t)n));
  }
  sk_stepper_destroy(&s);
}

/* 1D heat, Dirichlet, the sine mode with the discrete eigenvalue (model.semidiscrete): the
 * semi-discrete solution is u = exp(-k0 mu t) sin(pi x / L) exactly, mu = (4/h^2) sin^2(pi h /
 * (2L)), so du/dk0 = -mu t u (closed form; the diffusion model's exact solution gives u). */
static void heat_k0(sk_context *ctx, sk_sens_method ism)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = 1;
  p.n[0] = 49;
  p.length[0] = 2.0;
  p.k0 = 0.7;
  p.exact = SK_DIFFUSION_EXACT_MODE;
  p.mode[0] = 1;
  p.exact_semidiscrete = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  const int64_t n = 49;
  double y[49], S[49], u[49];
  const char *names[] = {"k0"};
  const double t_end = 0.5;
  solve(ctx, m, "cvode-bdf", 1, names, NULL, ism, 1e-8, 1e-12, t_end, y, S);
  CHECK_OK(ctx, sk_model_eval_exact(m, t_end, u));
  const double h = p.length[0] / (double)(n + 1);
  const double sn = sin(PI * h / (2.0 * p.length[0]));
  const double mu = 4.0 / (h * h) * sn * sn;
  double maxerr = 0, maxs = 0;
  for (int64_t i = 0; i < n; i++) {
    const double exact = -mu * t_end * u[i];
    maxerr = fmax(maxerr, fabs(S[i] - exact));
    maxs = fmax(maxs, fabs(exact));
  }
  CHECK(maxs > 0.5);
  CHECK(maxerr < 2e-6 * maxs);
  CHECK_NEAR(sk_model_get_param(m, 0), 0.7, 0, 0); /* the nominal value is back */
  sk_model_destroy(&m);
}

/* y' = -p y, y(0) = 2: dy/dp = -t y (closed form). mode 0: J = -p from the model and df/dp by
 * differences in p; 1: also the analytic df/dp = -y; 2: no Jacobian values (colored differences
 * for the state), so the sensitivities take CVODES' own difference quotients. */
static double decay_p = 1.5;
static int decay_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = -decay_p * y[0];
  return 0;
}
static int decay_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  v[0] = -decay_p;
  return 0;
}
static int decay_dfdp(double t, const double *y, const double *fy, int k, double *dfdp, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  (void)k;
  dfdp[0] = -y[0];
  return 0;
}
static int decay_init(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 2.0;
  return 0;
}
static void decay(sk_context *ctx, int mode)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
  sk_model_set_rhs(m, decay_rhs);
  sk_model_set_initial(m, decay_init);
  const int64_t colptr[2] = {0, 1}, rowind[1] = {0};
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  if (mode != 2) {
    sk_model_set_jac_values(m, decay_jac);
  }
  CHECK_OK(ctx, sk_model_add_param(m, "p", &decay_p));
  CHECK(sk_model_add_param(m, "p", &decay_p) == SK_ERR_ARG); /* a name taken */
  CHECK(sk_model_add_param(m, "a,b", &decay_p) == SK_ERR_ARG);
  if (mode == 1) {
    CHECK_OK(ctx, sk_model_set_rhs_param(m, decay_dfdp));
  }
  double y[1], S[1];
  const char *names[] = {"p"};
  solve(ctx, m, "cvode-bdf", 1, names, NULL, SK_SENS_STAGGERED, 1e-10, 1e-12, 2.0, y, S);
  const double ye = 2.0 * exp(-3.0);
  CHECK_NEAR(y[0], ye, 1e-7, 0);
  CHECK_NEAR(S[0], -2.0 * ye, 1e-6, 0);
  sk_model_destroy(&m);
}

/* A node of capacitance C behind a resistor R to air at 20 C, heated by I: T = 20 + I R
 * (1 - e^{-t/(RC)}), so dT/dR = I (1 - e) - I t e / (R C), e = e^{-t/(RC)} (closed form);
 * also against central differences of two solves at R (1 +- 1e-4) (independent). */
static void network_r(sk_context *ctx)
{
  const char *net = "V1 air 0 20\nR1 n1 air 2\nC1 n1 0 10\nI1 0 n1 5\n.ic n1=20\n.end\n";
  sk_network_params np;
  sk_network_params_default(&np);
  np.energy_states = 0;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_network_create_from_string(ctx, net, "test.net", &np, &m));
  CHECK(sk_model_find_param(m, "R1.R") >= 0);
  CHECK(sk_model_find_param(m, "C1.C") >= 0);
  CHECK(sk_model_find_param(m, "I1.I") >= 0);
  const char *names[] = {"R1.R", "C1.C"};
  double y[1], S[2];
  const double t_end = 15.0, R = 2.0, C = 10.0, I = 5.0;
  solve(ctx, m, "cvode-bdf", 2, names, NULL, SK_SENS_SIMULTANEOUS, 1e-10, 1e-12, t_end, y, S);
  const double e = exp(-t_end / (R * C));
  CHECK_NEAR(y[0], 20.0 + I * R * (1.0 - e), 1e-8, 0);
  CHECK_NEAR(S[0], I * (1.0 - e) - I * t_end * e / (R * C), 1e-6, 0);
  CHECK_NEAR(S[1], -I * e * t_end / (C * C), 1e-6, 0); /* dT/dC = -I R e t / (R C^2) */
  /* central differences in R */
  const int k = sk_model_find_param(m, "R1.R");
  double yp[1], ym[1], dummy[2];
  const double dR = 1e-4 * R;
  CHECK_OK(ctx, sk_model_set_param(m, k, R + dR));
  solve(ctx, m, "cvode-bdf", 0, NULL, NULL, SK_SENS_SIMULTANEOUS, 1e-12, 1e-12, t_end, yp, dummy);
  CHECK_OK(ctx, sk_model_set_param(m, k, R - dR));
  solve(ctx, m, "cvode-bdf", 0, NULL, NULL, SK_SENS_SIMULTANEOUS, 1e-12, 1e-12, t_end, ym, dummy);
  CHECK_OK(ctx, sk_model_set_param(m, k, R));
  CHECK_NEAR(S[0], (yp[0] - ym[0]) / (2.0 * dR), 1e-5, 0);
  sk_model_destroy(&m);
}

/* cvsRoberts_FSA_dns (SUNDIALS 6.4.1 examples/cvodes/serial, installed by libsundials-dev
 * with cvsRoberts_FSA_dns_-sensi_sim_t.out): ROBER with p = (0.04, 1e4, 3e7), rtol 1e-4,
 * atol (1e-8, 1e-14, 1e-6), dense Jacobian, the analytic sensitivity right-hand side,
 * simultaneous corrector, full error control, pbar = p. Expected: the published output
 * (%12.4e), quoted for t = 4e-1, 4e1 and 4e4; ours must agree to the printed digits
 * (relative 2e-4: the last printed digit may round the other way). */
static double rp[3] = {0.04, 1.0e4, 3.0e7};
static int rober_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  const double yd1 = f[0] = -rp[0] * y[0] + rp[1] * y[1] * y[2];
  const double yd3 = f[2] = rp[2] * y[1] * y[1];
  f[1] = -yd1 - yd3;
  return 0;
}
static int rober_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = -rp[0];
  v[1] = rp[0];
  v[2] = 0.0;
  v[3] = rp[1] * y[2];
  v[4] = -rp[1] * y[2] - 2.0 * rp[2] * y[1];
  v[5] = 2.0 * rp[2] * y[1];
  v[6] = rp[1] * y[1];
  v[7] = -rp[1] * y[1];
  v[8] = 0.0;
  return 0;
}
static int rober_dfdp(double t, const double *y, const double *fy, int k, double *d, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  if (k == 0) {
    d[0] = -y[0];
    d[1] = y[0];
  } else if (k == 1) {
    d[0] = y[1] * y[2];
    d[1] = -y[1] * y[2];
  } else {
    d[1] = -y[1] * y[1];
    d[2] = y[1] * y[1];
  }
  return 0;
}
static int rober_init(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = y[2] = 0.0;
  return 0;
}
static void roberts_fsa(sk_context *ctx)
{
  static const double tout[3] = {0.4, 40.0, 4.0e4};
  static const double pub[3][4][3] = {
      {{9.8517e-01, 3.3864e-05, 1.4794e-02},
       {-3.5595e-01, 3.9025e-04, 3.5556e-01},
       {9.5431e-08, -2.1309e-10, -9.5218e-08},
       {-1.5833e-11, -5.2900e-13, 1.6362e-11}},
      {{7.1583e-01, 9.1856e-06, 2.8416e-01},
       {-4.2475e+00, 4.5913e-05, 4.2475e+00},
       {1.3731e-05, -2.3573e-10, -1.3730e-05},
       {-2.2883e-09, -1.1380e-13, 2.2884e-09}},
      {{3.8977e-02, 1.6215e-07, 9.6102e-01},
       {-1.5748e+00, -2.7619e-06, 1.5748e+00},
       {6.2870e-06, 1.1002e-11, -6.2870e-06},
       {-1.0478e-09, -4.5362e-15, 1.0478e-09}},
  };
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_rhs(m, rober_rhs);
  sk_model_set_initial(m, rober_init);
  sk_model_set_dense_jacobian(m, NULL);
  const int64_t colptr[4] = {0, 3, 6, 9}, rowind[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  sk_model_set_jac_values(m, rober_jac);
  CHECK_OK(ctx, sk_model_add_param(m, "p1", &rp[0]));
  CHECK_OK(ctx, sk_model_add_param(m, "p2", &rp[1]));
  CHECK_OK(ctx, sk_model_add_param(m, "p3", &rp[2]));
  CHECK_OK(ctx, sk_model_set_rhs_param(m, rober_dfdp));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-4, 1e-8));
  const double atol[3] = {1e-8, 1e-14, 1e-6};
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  const int idx[3] = {0, 1, 2};
  CHECK_OK(ctx, sk_stepper_set_sensitivity(s, 3, idx, rp, SK_SENS_SIMULTANEOUS, 1));
  CHECK_OK(ctx, sk_stepper_setup(s));
  double sv[3];
  for (int k = 0; k < 3; k++) {
    double t = 0;
    CHECK_OK(ctx, sk_stepper_advance(s, tout[k], &t));
    const double *y = sk_stepper_get_state(s);
    for (int i = 0; i < 3; i++) {
      CHECK_NEAR(y[i], pub[k][0][i], 2e-4, 0);
    }
    for (int j = 0; j < 3; j++) {
      CHECK_OK(ctx, sk_stepper_get_sensitivity(s, j, sv));
      for (int i = 0; i < 3; i++) {
        CHECK_NEAR(sv[i], pub[k][j + 1][i], 2e-4, 0);
      }
    }
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* idasRoberts_FSA_dns (SUNDIALS 6.4.1 examples/idas/serial, installed by libsundials-dev with
 * idasRoberts_FSA_dns_-sensi_stg_t.out): ROBER as a DAE with p = (0.04, 1e4, 3e7),
 * y0 = (1, 0, 0), the inconsistent y'0 = (0.1, 0, 0) (IDACalcIC corrects y, y' and the
 * sensitivities with tout1 = 0.4), rtol 1e-6, atol (1e-8, 1e-14, 1e-6), dense, full error
 * control; the output file is the staggered corrector's, and the simultaneous one must agree too, pbar = p. The example gives analytic sensitivity residuals;
 * stiffkit uses IDAS' difference quotients, an independent evaluation of the same equations.
 * Expected: the published output (%12.4e) at t = 0.4, 40 and 4e4, to the printed digits
 * (relative 2e-4), and the consistent initial sensitivities s1' = (-1, 1, 0). */
static int rober_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] + rp[0] * y[0] - rp[1] * y[1] * y[2];
  r[1] = yp[1] - rp[0] * y[0] + rp[1] * y[1] * y[2] + rp[2] * y[1] * y[1];
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}
static int rober_dae_init(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = y[2] = 0.0;
  yp[0] = 0.1;
  yp[1] = yp[2] = 0.0;
  return 0;
}
static void idas_roberts_fsa(sk_context *ctx, sk_sens_method ism)
{
  static const double tout[3] = {0.4, 40.0, 4.0e4};
  static const double pub[3][4][3] = {
      {{9.8517e-01, 3.3864e-05, 1.4794e-02},
       {-3.5595e-01, 3.9025e-04, 3.5556e-01},
       {9.5424e-08, -2.1310e-10, -9.5211e-08},
       {-1.5832e-11, -5.2900e-13, 1.6361e-11}},
      {{7.1583e-01, 9.1855e-06, 2.8416e-01},
       {-4.2476e+00, 4.5912e-05, 4.2475e+00},
       {1.3731e-05, -2.3572e-10, -1.3731e-05},
       {-2.2884e-09, -1.1381e-13, 2.2885e-09}},
      {{3.8983e-02, 1.6218e-07, 9.6102e-01},
       {-1.5750e+00, -2.7620e-06, 1.5750e+00},
       {6.2875e-06, 1.1002e-11, -6.2875e-06},
       {-1.0479e-09, -4.5367e-15, 1.0479e-09}},
  };
  static const int id[3] = {1, 1, 0};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 3, &m));
  CHECK_OK(ctx, sk_model_set_residual(m, rober_res));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, rober_dae_init));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_add_param(m, "p1", &rp[0]));
  CHECK_OK(ctx, sk_model_add_param(m, "p2", &rp[1]));
  CHECK_OK(ctx, sk_model_add_param(m, "p3", &rp[2]));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-8));
  const double atol[3] = {1e-8, 1e-14, 1e-6};
  CHECK_OK(ctx, sk_stepper_set_atol_vector(s, atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  const int idx[3] = {0, 1, 2};
  CHECK_OK(ctx, sk_stepper_set_sensitivity(s, 3, idx, rp, ism, 1));
  CHECK_OK(ctx, sk_stepper_initialize(s, tout[0]));
  double sv[3];
  CHECK_OK(ctx, sk_stepper_get_sensitivity(s, 0, sv));
  CHECK_NEAR(sv[2], 0.0, 0, 1e-10); /* s1 = (0, 0, ~0): y3 = 1 - y1 - y2 holds for s too */
  for (int k = 0; k < 3; k++) {
    double t = 0;
    CHECK_OK(ctx, sk_stepper_advance(s, tout[k], &t));
    const double *y = sk_stepper_get_state(s);
    printf("idasRoberts_FSA_dns t = %g: y = (%.4e, %.4e, %.4e)\n", t, y[0], y[1], y[2]);
    for (int i = 0; i < 3; i++) {
      CHECK_NEAR(y[i], pub[k][0][i], 2e-4, 0);
    }
    for (int j = 0; j < 3; j++) {
      CHECK_OK(ctx, sk_stepper_get_sensitivity(s, j, sv));
      printf("  s%d = (%.4e, %.4e, %.4e)\n", j + 1, sv[0], sv[1], sv[2]);
      for (int i = 0; i < 3; i++) {
        CHECK_NEAR(sv[i], pub[k][j + 1][i], 2e-4, 0);
      }
    }
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* Refusals: an engine without sensitivities (names those with), a zero parameter without pbar. */
static void refusals(sk_context *ctx)
{
  static double zero = 0.0;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
  sk_model_set_rhs(m, decay_rhs);
  sk_model_set_initial(m, decay_init);
  CHECK_OK(ctx, sk_model_add_param(m, "p", &decay_p));
  CHECK_OK(ctx, sk_model_add_param(m, "z", &zero));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk45", m, &s));
  const int i0 = 0, i1 = 1;
  CHECK(sk_stepper_set_sensitivity(s, 1, &i0, NULL, SK_SENS_SIMULTANEOUS, 1) ==
        SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "cvode-bdf, cvode-adams");
  sk_stepper_destroy(&s);
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK(sk_stepper_set_sensitivity(s, 1, &i1, NULL, SK_SENS_SIMULTANEOUS, 1) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.sensitivity.pbar");
  const double pb = 1.0;
  CHECK_OK(ctx, sk_stepper_set_sensitivity(s, 1, &i1, &pb, SK_SENS_SIMULTANEOUS, 1));
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  heat_k0(ctx, SK_SENS_SIMULTANEOUS);
  heat_k0(ctx, SK_SENS_STAGGERED);
  decay(ctx, 0);
  decay(ctx, 1);
  decay(ctx, 2);
  network_r(ctx);
  roberts_fsa(ctx);
  idas_roberts_fsa(ctx, SK_SENS_STAGGERED);
  idas_roberts_fsa(ctx, SK_SENS_SIMULTANEOUS);
  refusals(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
