/* tests/numerics/test_linear_model.c: the linear model M u' = -K u + g(t) b (1D FE heat, graded mesh) against a modal solution of the symmetric pencil, lumped and consistent M, files and options, the exact preconditioner, bad input */
/*
 * The problem: linear finite elements for rho c u_t = (kappa u_x)_x + 1 on
 * (0, 1), kappa(x) = 1 + x, u(0) = 0, insulated at x = 1, on the graded
 * mesh x_k = (k/N)^1.3, k = 0..N (n = N = 40 unknowns). Element matrices
 * K_e = kappa(mid)/h_e [1 -1; -1 1], M_e = h_e/6 [2 1; 1 2], b_i = int phi_i.
 *
 * The reference is computed here by a different method than any engine:
 * the generalized eigenproblem K v = lambda M v (Cholesky M = L L^T and a
 * cyclic Jacobi eigenvalue routine on L^{-1} K L^{-T}), then in closed form
 *   u(t) = sum_k v_k a_k(t),  a_k' = -lambda_k a_k + g(t) beta_k,
 *   a_k(0) = v_k^T M u0, beta_k = v_k^T b (V^T M V = I), with
 *   g = 1:         a_k = e^{-l t} a_k(0) + beta_k (1 - e^{-l t}) / l
 *   g = cos(w t):  a_k = e^{-l t} a_k(0)
 *                        + beta_k (l cos wt + w sin wt - l e^{-l t}) / (l^2 + w^2).
 * The Jacobi routine itself is checked against the closed-form eigenvalues
 * of the uniform-mesh pencil, (6/h^2) (1 - cos k pi h) / (2 + cos k pi h).
 * Lumped M: the same with M replaced by the diagonal of its row sums.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "steppers/mass_form.h"
#include "run_helper.h"
#include "test_files.h"

#define N 40
#define PI 3.14159265358979323846

/* ---- the FE problem and dense linear algebra ---------------------------- */

typedef struct {
  int n;
  double x[N + 1];
  double K[N][N], M[N][N], ML[N][N]; /* ML: row-sum lumped M */
  double b[N], u0[N];
} fe_problem;

/* Assemble on x_k = (k/n)^p with kappa(x) = k0 + k1 x; Dirichlet at 0 and
 * (dirichlet_right) at 1, else insulated at 1. */
static void assemble(fe_problem *fe, int n, double p, double k0, double k1, int dirichlet_right)
{
  memset(fe, 0, sizeof *fe);
  fe->n = n;
  const int nel = dirichlet_right ? n + 1 : n;
  double xs[N + 2];
  for (int k = 0; k <= nel; k++) {
    xs[k] = pow((double)k / nel, p);
  }
  for (int e = 0; e < nel; e++) {
    const double h = xs[e + 1] - xs[e], kap = k0 + k1 * 0.5 * (xs[e] + xs[e + 1]);
    const int dof[2] = {e - 1, e}; /* unknown i sits at node i + 1 */
    const double ke[2][2] = {{kap / h, -kap / h}, {-kap / h, kap / h}};
    const double me[2][2] = {{h / 3, h / 6}, {h / 6, h / 3}};
    for (int a = 0; a < 2; a++) {
      if (dof[a] < 0 || dof[a] >= n) {
        continue;
      }
      fe->b[dof[a]] += 0.5 * h;
      for (int c = 0; c < 2; c++) {
        if (dof[c] >= 0 && dof[c] < n) {
          fe->K[dof[a]][dof[c]] += ke[a][c];
          fe->M[dof[a]][dof[c]] += me[a][c];
        }
      }
    }
  }
  for (int i = 0; i < n; i++) {
    fe->x[i] = xs[i + 1];
    fe->u0[i] = 0.5 * sin(0.5 * PI * fe->x[i]);
    for (int j = 0; j < n; j++) {
      fe->ML[i][i] += fe->M[i][j];
    }
  }
}

/* Dense to CSC (entries with value != 0). */
typedef struct {
  int64_t cp[N + 1], ri[N * N];
  double v[N * N];
} csc;

static void to_csc(int n, double A[N][N], csc *c)
{
  int64_t p = 0;
  for (int j = 0; j < n; j++) {
    c->cp[j] = p;
    for (int i = 0; i < n; i++) {
      if (A[i][j] != 0.0) {
        c->ri[p] = i;
        c->v[p++] = A[i][j];
      }
    }
  }
  c->cp[n] = p;
}

/* Cyclic Jacobi: A (symmetric, overwritten) = Q diag(w) Q^T. */
static void jacobi_eigen(int n, double A[N][N], double w[N], double Q[N][N])
{
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      Q[i][j] = i == j;
    }
  }
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0.0, tot = 0.0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        tot += A[i][j] * A[i][j];
        off += i != j ? A[i][j] * A[i][j] : 0.0;
      }
    }
    if (off <= 1e-30 * tot) {
      break;
    }
    for (int p = 0; p < n - 1; p++) {
      for (int q = p + 1; q < n; q++) {
        if (A[p][q] == 0.0) {
          continue;
        }
        const double theta = (A[q][q] - A[p][p]) / (2.0 * A[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < n; k++) { /* A <- A G */
          const double akp = A[k][p], akq = A[k][q];
          A[k][p] = c * akp - s * akq;
          A[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) { /* A <- G^T A */
          const double apk = A[p][k], aqk = A[q][k];
          A[p][k] = c * apk - s * aqk;
          A[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; k++) {
          const double qkp = Q[k][p], qkq = Q[k][q];
          Q[k][p] = c * qkp - s * qkq;
          Q[k][q] = s * qkp + c * qkq;
        }
      }
    }
  }
  for (int i = 0; i < n; i++) {
    w[i] = A[i][i];
  }
}

/* K v = lambda M v: lam[k], V[:, k] with V^T M V = I. */
static void pencil_eigen(int n, double K[N][N], double M[N][N], double lam[N], double V[N][N])
{
  static double L[N][N], Y[N][N], C[N][N], Q[N][N];
  memset(L, 0, sizeof L);
  for (int j = 0; j < n; j++) { /* Cholesky M = L L^T */
    double s = M[j][j];
    for (int k = 0; k < j; k++) {
      s -= L[j][k] * L[j][k];
    }
    L[j][j] = sqrt(s);
    for (int i = j + 1; i < n; i++) {
      double t = M[i][j];
      for (int k = 0; k < j; k++) {
        t -= L[i][k] * L[j][k];
      }
      L[i][j] = t / L[j][j];
    }
  }
  for (int c = 0; c < n; c++) { /* Y = L^{-1} K, then C = L^{-1} Y^T */
    for (int i = 0; i < n; i++) {
      double s = K[i][c];
      for (int k = 0; k < i; k++) {
        s -= L[i][k] * Y[k][c];
      }
      Y[i][c] = s / L[i][i];
    }
  }
  for (int c = 0; c < n; c++) {
    for (int i = 0; i < n; i++) {
      double s = Y[c][i];
      for (int k = 0; k < i; k++) {
        s -= L[i][k] * C[k][c];
      }
      C[i][c] = s / L[i][i];
    }
  }
  jacobi_eigen(n, C, lam, Q);
  for (int c = 0; c < n; c++) { /* V = L^{-T} Q */
    for (int i = n - 1; i >= 0; i--) {
      double s = Q[i][c];
      for (int k = i + 1; k < n; k++) {
        s -= L[k][i] * V[k][c];
      }
      V[i][c] = s / L[i][i];
    }
  }
}

/* The modal solution at t for g = 1 (omega = 0) or g = cos(omega t). */
static void modal_solution(int n, double K[N][N], double M[N][N], const double *b,
                           const double *u0, double omega, double t, double *u)
{
  static double lam[N], V[N][N];
  pencil_eigen(n, K, M, lam, V);
  for (int i = 0; i < n; i++) {
    u[i] = 0.0;
  }
  for (int k = 0; k < n; k++) {
    double a0 = 0.0, beta = 0.0;
    for (int i = 0; i < n; i++) {
      double mu = 0.0;
      for (int j = 0; j < n; j++) {
        mu += M[i][j] * u0[j];
      }
      a0 += V[i][k] * mu;
      beta += V[i][k] * b[i];
    }
    const double l = lam[k], e = exp(-l * t);
    const double a = omega == 0.0
                         ? e * a0 + beta * (1.0 - e) / l
                         : e * a0 + beta * (l * cos(omega * t) + omega * sin(omega * t) - l * e) /
                                        (l * l + omega * omega);
    for (int i = 0; i < n; i++) {
      u[i] += a * V[i][k];
    }
  }
}

static double max_abs(const double *v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fabs(v[i]) > m ? fabs(v[i]) : m;
  }
  return m;
}

/* ---- checks ---------------------------------------------------------------- */

/* The reference routine against closed-form eigenvalues (uniform mesh,
 * Dirichlet at both ends, kappa = 1). */
static void test_reference_eigen(void)
{
  static fe_problem fe;
  static double lam[N], V[N][N];
  const int n = 30;
  assemble(&fe, n, 1.0, 1.0, 0.0, 1);
  pencil_eigen(n, fe.K, fe.M, lam, V);
  const double h = 1.0 / (n + 1);
  double worst = 0.0;
  for (int k = 1; k <= n; k++) {
    const double c = cos(k * PI * h), exact = 6.0 / (h * h) * (1.0 - c) / (2.0 + c);
    double best = INFINITY; /* Jacobi leaves them unordered */
    for (int j = 0; j < n; j++) {
      best = fmin(best, fabs(lam[j] - exact) / exact);
    }
    worst = fmax(worst, best);
  }
  printf("reference eigenvalues vs closed form: max relative difference %.2e\n", worst);
  CHECK(worst < 1e-11);
}

/* The model of fe (consistent M, lumped M or identity) in memory. */
typedef enum { MASS_CONSISTENT, MASS_LUMPED, MASS_IDENTITY } mass_kind;

static sk_status make_model(sk_context *ctx, fe_problem *fe, mass_kind mk, sk_model **m)
{
  static csc K, M;
  to_csc(fe->n, fe->K, &K);
  to_csc(fe->n, fe->M, &M);
  sk_linear_system sys;
  memset(&sys, 0, sizeof sys);
  sys.n = fe->n;
  sys.k_colptr = K.cp;
  sys.k_rowind = K.ri;
  sys.k_values = K.v;
  if (mk != MASS_IDENTITY) {
    sys.m_colptr = M.cp;
    sys.m_rowind = M.ri;
    sys.m_values = M.v;
  }
  sys.lumping = mk == MASS_LUMPED ? SK_LINEAR_LUMP_ROW_SUM : SK_LINEAR_LUMP_NONE;
  sys.load = fe->b;
  sys.initial = fe->u0;
  return sk_linear_create(ctx, &sys, m);
}

/* Run one engine configuration on fe with mass kind mk to t_end, compare
 * with the modal reference; return the max error relative to max |u|. */
static double run_case(sk_context *ctx, fe_problem *fe, mass_kind mk, const run_cfg *cfg,
                       sk_stats *st, const char *label)
{
  static double I[N][N], u[N], ref[N];
  memset(I, 0, sizeof I);
  for (int i = 0; i < fe->n; i++) {
    I[i][i] = 1.0;
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, make_model(ctx, fe, mk, &m));
  if (!m) {
    return INFINITY;
  }
  memset(st, 0, sizeof *st);
  CHECK_OK(ctx, run_model(ctx, m, cfg, u, st));
  sk_model_destroy(&m);
  modal_solution(fe->n, fe->K,
                 mk == MASS_CONSISTENT ? fe->M
                 : mk == MASS_LUMPED   ? fe->ML
                                       : I,
                 fe->b, fe->u0, 0.0, cfg->t_end, ref);
  const double err = max_abs_diff(u, ref, fe->n) / max_abs(ref, fe->n);
  printf("%-34s t=%.2f: max error / max|u| = %.2e; steps %lld, newton %lld, linear %lld, "
         "prec setups %lld, solves %lld\n",
         label, cfg->t_end, err, (long long)st->steps, (long long)st->newton_iters,
         (long long)st->lin_iters, (long long)st->prec_setups, (long long)st->prec_solves);
  return err;
}

static void test_engines(sk_context *ctx)
{
  static fe_problem fe;
  assemble(&fe, N, 1.3, 1.0, 1.0, 0);
  sk_stats st;
  /* consistent M: CVODE with M folded in, GMRES + the exact preconditioner
     (linsol.preconditioner auto picks the model's own) */
  run_cfg cfg = {"cvode-bdf", "spgmr", NULL, NULL, 1e-9, 1e-12, 0.3, 1, NULL, 0};
  double err = run_case(ctx, &fe, MASS_CONSISTENT, &cfg, &st, "consistent M, spgmr + auto prec");
  CHECK(err < 2e-8);
  CHECK(st.newton_iters > 0 && st.lin_iters <= st.newton_iters + st.newton_iters / 20);
  CHECK(st.prec_solves > 0);
  cfg.prec = "model";
  cfg.t_end = 2.0;
  err = run_case(ctx, &fe, MASS_CONSISTENT, &cfg, &st, "consistent M, spgmr + model");
  CHECK(err < 2e-8);
  CHECK(st.newton_iters > 0 && st.lin_iters <= st.newton_iters + st.newton_iters / 20);
  /* lumped M: an ODE with the sparse Jacobian, KLU and a reference stepper */
  run_cfg lcfg = {"cvode-bdf", "klu", NULL, NULL, 1e-9, 1e-12, 0.3, 1, NULL, 0};
  err = run_case(ctx, &fe, MASS_LUMPED, &lcfg, &st, "lumped M, cvode-bdf + klu");
  CHECK(err < 2e-8);
  CHECK(st.lin_iters == 0);
  run_cfg bcfg = {"bdf2", NULL, NULL, NULL, 1e-7, 1e-10, 0.3, 1, NULL, 0};
  err = run_case(ctx, &fe, MASS_LUMPED, &bcfg, &st, "lumped M, bdf2 (reference stepper)");
  CHECK(err < 1e-5);
  err = run_case(ctx, &fe, MASS_IDENTITY, &lcfg, &st, "M = I, cvode-bdf + klu");
  CHECK(err < 2e-8);
}

/* The diagonal path's Jacobian against differences of the RHS (exact for
 * a linear RHS up to rounding), and the preconditioner of the general
 * path against the Newton matrix: (I - gamma J) z = r, J v = f(v) - f(0). */
static void test_jacobian_and_preconditioner(sk_context *ctx)
{
  static fe_problem fe;
  static double y[N], f0[N], f1[N], vals[N * N], z[N], r[N], jz[N];
  assemble(&fe, N, 1.3, 1.0, 1.0, 0);
  const int n = fe.n;
  sk_model *m = NULL;
  CHECK_OK(ctx, make_model(ctx, &fe, MASS_LUMPED, &m));
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  CHECK(cp != NULL && nnz == 3 * n - 2);
  memset(y, 0, sizeof y);
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f0));
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, f0, vals));
  double worst = 0.0;
  for (int j = 0; cp && j < n; j++) {
    y[j] = 1.0;
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f1));
    y[j] = 0.0;
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      worst = fmax(worst, fabs((f1[ri[p]] - f0[ri[p]]) - vals[p]) / (fabs(vals[p]) + 1e-300));
    }
  }
  printf("lumped Jacobian vs RHS differences: max relative difference %.2e\n", worst);
  CHECK(worst < 1e-12);
  CHECK(!sk_model_has_preconditioner(m));
  sk_model_destroy(&m);

  /* consistent M: the model holds M (sk_model_set_mass) and the pattern of
     K; CVODE's form of it (steppers/mass_form.h) has no pattern, only the
     exact preconditioner */
  sk_model *lin = NULL;
  CHECK_OK(ctx, make_model(ctx, &fe, MASS_CONSISTENT, &lin));
  CHECK(lin && sk_model_has_mass(lin) && sk_model_has_jacobian(lin));
  if (lin) {
    CHECK_OK(ctx, sk__mass_form_create(ctx, lin, 0, "cvode-bdf", &m));
  }
  CHECK(m && !sk_model_has_jacobian(m) && sk_model_has_preconditioner(m));
  const double gammas[] = {1e-4, 3e-3, 1e-4, 0.5};
  for (size_t g = 0; m && g < sizeof gammas / sizeof gammas[0]; g++) {
    for (int i = 0; i < n; i++) {
      r[i] = sin(1.0 + 3.7 * i) + (double)(g + 1);
      y[i] = 0.0;
    }
    CHECK_OK(ctx, sk_model_eval_prec_setup(m, 0.0, y, gammas[0], 1));
    CHECK_OK(ctx, sk_model_eval_prec_solve(m, 0.0, y, r, z, gammas[g]));
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f0));
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, z, f1));
    for (int i = 0; i < n; i++) {
      jz[i] = z[i] - gammas[g] * (f1[i] - f0[i]);
    }
    const double rel = max_abs_diff(jz, r, n) / max_abs(r, n);
    printf("exact preconditioner, gamma %.0e: |(I - gamma J) z - r| / |r| = %.2e\n", gammas[g],
           rel);
    CHECK(rel < 1e-10);
  }
  sk_model_destroy(&m);
  sk_model_destroy(&lin);
}

/* ---- files and options ----------------------------------------------------- */

static void write_matrix(const char *path, int n, double A[N][N])
{
  FILE *f = fopen(path, "w");
  int nnz = 0;
  for (int j = 0; j < n; j++) {
    for (int i = j; i < n; i++) {
      nnz += A[i][j] != 0.0;
    }
  }
  fprintf(f, "%%%%MatrixMarket matrix coordinate real symmetric\n%% test\n%d %d %d\n", n, n, nnz);
  for (int j = 0; j < n; j++) {
    for (int i = j; i < n; i++) {
      if (A[i][j] != 0.0) {
        fprintf(f, "%d %d %.17g\n", i + 1, j + 1, A[i][j]);
      }
    }
  }
  fclose(f);
}

static void write_vector(const char *path, int n, const double *v)
{
  FILE *f = fopen(path, "w");
  fprintf(f, "%%%%MatrixMarket matrix array real general\n%d 1\n", n);
  for (int i = 0; i < n; i++) {
    fprintf(f, "%.17g\n", v[i]);
  }
  fclose(f);
}

typedef struct {
  char dir[200], k[256], m[256], b[256], u0[256], small[256], neg[256];
} files;

static void write_files(files *fl, fe_problem *fe)
{
  test_tmpdir(fl->dir, sizeof fl->dir, "lin");
  snprintf(fl->k, sizeof fl->k, "%s/K.mtx", fl->dir);
  snprintf(fl->m, sizeof fl->m, "%s/M.mtx", fl->dir);
  snprintf(fl->b, sizeof fl->b, "%s/b.mtx", fl->dir);
  snprintf(fl->u0, sizeof fl->u0, "%s/u0.mtx", fl->dir);
  snprintf(fl->small, sizeof fl->small, "%s/small.mtx", fl->dir);
  snprintf(fl->neg, sizeof fl->neg, "%s/neg.mtx", fl->dir);
  write_matrix(fl->k, fe->n, fe->K);
  write_matrix(fl->m, fe->n, fe->M);
  write_vector(fl->b, fe->n, fe->b);
  write_vector(fl->u0, fe->n, fe->u0);
  static double S[N][N];
  memset(S, 0, sizeof S);
  for (int i = 0; i < 5; i++) {
    S[i][i] = 1.0;
  }
  write_matrix(fl->small, 5, S);
  static double D[N][N];
  memset(D, 0, sizeof D);
  for (int i = 0; i < fe->n; i++) {
    D[i][i] = i == 6 ? -1.0 : 1.0;
  }
  write_matrix(fl->neg, fe->n, D);
}

static void remove_files(const files *fl)
{
  const char *const paths[] = {fl->k, fl->m, fl->b, fl->u0, fl->small, fl->neg};
  for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
    unlink(paths[k]);
  }
  rmdir(fl->dir);
}

static sk_options *linear_options(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  size_t n;
  const sk_option_spec *t = sk_stepper_options(&n);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  CHECK_OK(ctx, sk_model_register_options(o));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.type=linear"));
  return o;
}

static void set(sk_context *ctx, sk_options *o, const char *key, const char *value)
{
  char buf[600];
  snprintf(buf, sizeof buf, "%s=%s", key, value);
  CHECK_OK(ctx, sk_options_set_assignment(o, buf));
}

/* Consistent M with g = cos(3 t), from files through the options. */
static void test_files_and_formula(sk_context *ctx, const files *fl, fe_problem *fe)
{
  sk_options *o = linear_options(ctx);
  set(ctx, o, "model.stiffness", fl->k);
  set(ctx, o, "model.mass", fl->m);
  set(ctx, o, "model.load", fl->b);
  set(ctx, o, "model.initial", fl->u0);
  set(ctx, o, "model.load_amplitude", "cos(3*t)");
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  static double u[N], ref[N];
  sk_stats st;
  const run_cfg cfg = {"cvode-bdf", "spgmr", "model", NULL, 1e-9, 1e-12, 1.0, 1, NULL, 0};
  if (m) {
    CHECK_OK(ctx, run_model(ctx, m, &cfg, u, &st));
    modal_solution(fe->n, fe->K, fe->M, fe->b, fe->u0, 3.0, cfg.t_end, ref);
    const double err = max_abs_diff(u, ref, fe->n) / max_abs(ref, fe->n);
    printf("files + options, g = cos(3t), t=1:  max error / max|u| = %.2e; newton %lld, "
           "linear %lld\n",
           err, (long long)st.newton_iters, (long long)st.lin_iters);
    CHECK(err < 2e-8);
    CHECK(st.newton_iters > 0 && st.lin_iters <= st.newton_iters + st.newton_iters / 20);
  }
  sk_model_destroy(&m);
  sk_options_destroy(&o);
}

/* Options that must be refused: status and message. */
static void expect_error(sk_context *ctx, const files *fl, const char *const *assign,
                         sk_status code, const char *message)
{
  sk_options *o = linear_options(ctx);
  set(ctx, o, "model.stiffness", fl->k);
  for (int k = 0; assign[k]; k += 2) {
    set(ctx, o, assign[k], assign[k + 1]);
  }
  sk_model *m = NULL;
  const sk_status st = sk_model_from_options(ctx, o, &m);
  if (st != code) {
    fprintf(stderr, "status %s, expected %s\n", sk_status_name(st), sk_status_name(code));
    sk_test_failures++;
  }
  CHECK(m == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, message);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
}

static void test_bad_input(sk_context *ctx, const files *fl)
{
  char msg[700];
  const char *mass_small[] = {"model.mass", fl->small, NULL};
  snprintf(msg, sizeof msg,
           "model.mass '%s' is 5 x 5 but model.stiffness '%s' is 40 x 40: the sizes must agree",
           fl->small, fl->k);
  expect_error(ctx, fl, mass_small, SK_ERR_INPUT, msg);
  const char *load_small[] = {"model.load", fl->small, NULL};
  expect_error(ctx, fl, load_small, SK_ERR_INPUT,
               "small.mtx:1: banner: model.load must be a vector");
  const char *neg[] = {"model.mass", fl->neg, NULL};
  snprintf(msg, sizeof msg,
           "model.mass '%s': row 7 (1-based) has the diagonal entry -1: a diagonal mass matrix "
           "needs entries >= 0",
           fl->neg);
  expect_error(ctx, fl, neg, SK_ERR_INPUT, msg);
  const char *no_load[] = {"model.load_amplitude", "sin(t)", NULL};
  expect_error(ctx, fl, no_load, SK_ERR_INPUT,
               "model.load_amplitude is set but model.load is not");
  const char *both[] = {"model.load", fl->b, "model.load_amplitude", "1", "model.load_table",
                        fl->b,        NULL};
  expect_error(ctx, fl, both, SK_ERR_INPUT,
               "model.load_amplitude and model.load_table are both set");
  const char *bad_formula[] = {"model.load", fl->b, "model.load_amplitude", "2*(t+1", NULL};
  expect_error(ctx, fl, bad_formula, SK_ERR_INPUT,
               "model.load_amplitude: cannot parse the formula '2*(t+1'");
  const char *lump[] = {"model.mass_lumping", "row-sum", NULL};
  expect_error(ctx, fl, lump, SK_ERR_INPUT, "model.mass_lumping = row-sum needs a mass matrix");
  const char *missing[] = {"model.initial", "/nonexistent/u0.mtx", NULL};
  expect_error(ctx, fl, missing, SK_ERR_MISSING,
               "--set: model.initial: '/nonexistent/u0.mtx': no such file");
  sk_options *o = linear_options(ctx);
  sk_model *m = NULL;
  CHECK(sk_model_from_options(ctx, o, &m) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "model.type = linear needs model.stiffness");
  sk_options_destroy(&o);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_reference_eigen();
  test_engines(ctx);
  test_jacobian_and_preconditioner(ctx);
  static fe_problem fe;
  assemble(&fe, N, 1.3, 1.0, 1.0, 0);
  files fl;
  write_files(&fl, &fe);
  test_files_and_formula(ctx, &fl, &fe);
  test_bad_input(ctx, &fl);
  remove_files(&fl);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
