/* tests/unit/test_engine_matrix.c: every engine x linear solver x model kind through the public API: an accurate answer or a setup refusal naming what is supported, never a crash */
#include "test.h"

/* The models (all linear, so that the exact solutions are closed forms):
 *
 *  diffusion  y' = -T6 y, n = 6, T_m = tridiag(-1, 2, -1) of order m, y0 = 1.
 *             T_m's eigenpairs: lambda_k = 4 sin^2(k pi / (2 (m + 1))),
 *             v_k(i) = sqrt(2 / (m + 1)) sin(i k pi / (m + 1)), i, k = 1..m, so
 *             y(t) = sum_k exp(-lambda_k t) (v_k . y0) v_k.
 *             Kinds: pattern + analytic Jacobian, pattern only (colored finite
 *             differences), no pattern with solver.detect_pattern=off, and no
 *             pattern with the default detection (auto).
 *  oscillator q'' = -T3 q as y = (q, v), n = 6, marked second order (the only
 *             model verlet accepts): q(t) = sum_k (a_k cos w_k t + b_k sin(w_k t)
 *             / w_k) u_k with w_k = sqrt(lambda_k(T3)), a_k = u_k . q0,
 *             b_k = u_k . v0; pattern + analytic Jacobian.
 *  DAE        index 1, n = 6, x = y[0..2] differential, z = y[3..5] algebraic:
 *               F_x = x' + T3 x - z,   F_z = 2 z - x - sin(t) 1.
 *             Then z = (x + sin t 1) / 2 and x' = -(T3 - I/2) x + (sin t / 2) 1:
 *             per mode c_k = u_k . x, with nu_k = lambda_k - 1/2 > 0 and
 *             beta_k = (u_k . 1) / 2, c_k' = -nu_k c_k + beta_k sin t, so
 *             c_k(t) = (c_k(0) - B_k) e^{-nu_k t} + A_k sin t + B_k cos t with
 *             A_k = nu_k beta_k / (1 + nu_k^2), B_k = -beta_k / (1 + nu_k^2).
 *             x0 = 1, z0 = 0 and y'0 = 0 are an inconsistent guess (IDACalcIC
 *             corrects it). dF/dy + cj dF/dy' = [T3 + cj I, -I; -I, 2 I] is
 *             symmetric positive definite, so even PCG applies.
 *             Kinds: pattern + analytic Jacobian, pattern only, no pattern. */

#define N 6
#define PI 3.14159265358979323846
#define T_END 1.0
#define RTOL 1e-6
#define ATOL 1e-10

typedef enum {
  K_ODE_JAC,
  K_ODE_FD,
  K_ODE_NOPAT,
  K_ODE_DETECT,
  K_OSC,
  K_DAE_JAC,
  K_DAE_FD,
  K_DAE_NOPAT,
  K_COUNT
} kind;

static const char *const kind_names[K_COUNT] = {"ode-jac",    "ode-fd",       "ode-nopattern",
                                                "ode-detect", "oscillator",   "dae-jac",
                                                "dae-fd",     "dae-nopattern"};

/* dense first, then the other direct solvers band, klu, umfpack (main compares them) */
static const char *const linsols[] = {"dense",  "band",    "klu", "umfpack", "spgmr", "spfgmr",
                                      "spbcgs", "sptfqmr", "pcg", "none",    "auto"};
#define NLS (sizeof linsols / sizeof linsols[0])

static int is_dae(kind k)
{
  return k >= K_DAE_JAC;
}
static int has_pattern(kind k)
{
  return k != K_ODE_NOPAT && k != K_ODE_DETECT && k != K_DAE_NOPAT;
}

/* ---- eigenpairs of T_m -------------------------------------------------- */

static double eig_val(int m, int k) /* k = 1..m */
{
  const double s = sin(k * PI / (2.0 * (m + 1)));
  return 4.0 * s * s;
}

static double eig_vec(int m, int k, int i) /* component i = 0..m-1 of v_k */
{
  return sqrt(2.0 / (m + 1)) * sin((i + 1) * k * PI / (m + 1));
}

/* y = T_m x (tridiag(-1, 2, -1)) */
static void apply_t(int m, const double *x, double *y)
{
  for (int i = 0; i < m; i++) {
    y[i] = 2.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < m ? x[i + 1] : 0.0);
  }
}

/* ---- diffusion ---------------------------------------------------------- */

static int diff_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  apply_t(N, y, f);
  for (int i = 0; i < N; i++) {
    f[i] = -f[i];
  }
  return 0;
}

/* tridiagonal pattern: column j holds rows j-1, j, j+1 */
static int64_t tri_cp[N + 1], tri_ri[3 * N];

static void build_tri_pattern(void)
{
  int64_t p = 0;
  for (int j = 0; j < N; j++) {
    tri_cp[j] = p;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < N) {
        tri_ri[p++] = i;
      }
    }
  }
  tri_cp[N] = p;
}

static int diff_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int j = 0; j < N; j++) {
    for (int64_t p = tri_cp[j]; p < tri_cp[j + 1]; p++) {
      v[p] = tri_ri[p] == j ? -2.0 : 1.0;
    }
  }
  return 0;
}

static int ones_initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  for (int i = 0; i < N; i++) {
    y[i] = 1.0;
  }
  return 0;
}

static int diff_exact(double t, double *y, void *ud)
{
  (void)ud;
  for (int i = 0; i < N; i++) {
    y[i] = 0.0;
  }
  for (int k = 1; k <= N; k++) {
    double c = 0.0;
    for (int i = 0; i < N; i++) {
      c += eig_vec(N, k, i); /* v_k . y0 with y0 = 1 */
    }
    c *= exp(-eig_val(N, k) * t);
    for (int i = 0; i < N; i++) {
      y[i] += c * eig_vec(N, k, i);
    }
  }
  return 0;
}

/* ---- oscillator --------------------------------------------------------- */

#define NQ 3
static const double osc_q0[NQ] = {1.0, 0.5, -0.25};
static const double osc_v0[NQ] = {0.0, 0.5, 0.0};

static int osc_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < NQ; i++) {
    f[i] = y[NQ + i];
  }
  apply_t(NQ, y, f + NQ);
  for (int i = 0; i < NQ; i++) {
    f[NQ + i] = -f[NQ + i];
  }
  return 0;
}

/* df/dy = [0, I; -T3, 0]: column j < 3 holds rows 3 + (j-1, j, j+1), column 3 + j row j */
static int64_t osc_cp[N + 1], osc_ri[4 * NQ];

static void build_osc_pattern(void)
{
  int64_t p = 0;
  for (int j = 0; j < NQ; j++) {
    osc_cp[j] = p;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < NQ) {
        osc_ri[p++] = NQ + i;
      }
    }
  }
  for (int j = 0; j < NQ; j++) {
    osc_cp[NQ + j] = p;
    osc_ri[p++] = j;
  }
  osc_cp[N] = p;
}

static int osc_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int j = 0; j < N; j++) {
    for (int64_t p = osc_cp[j]; p < osc_cp[j + 1]; p++) {
      v[p] = j >= NQ ? 1.0 : (osc_ri[p] - NQ == j ? -2.0 : 1.0);
    }
  }
  return 0;
}

static int osc_initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  for (int i = 0; i < NQ; i++) {
    y[i] = osc_q0[i];
    y[NQ + i] = osc_v0[i];
  }
  return 0;
}

static int osc_exact(double t, double *y, void *ud)
{
  (void)ud;
  for (int i = 0; i < N; i++) {
    y[i] = 0.0;
  }
  for (int k = 1; k <= NQ; k++) {
    double a = 0.0, b = 0.0;
    for (int i = 0; i < NQ; i++) {
      a += eig_vec(NQ, k, i) * osc_q0[i];
      b += eig_vec(NQ, k, i) * osc_v0[i];
    }
    const double w = sqrt(eig_val(NQ, k));
    const double q = a * cos(w * t) + b * sin(w * t) / w;
    const double v = -a * w * sin(w * t) + b * cos(w * t);
    for (int i = 0; i < NQ; i++) {
      y[i] += q * eig_vec(NQ, k, i);
      y[NQ + i] += v * eig_vec(NQ, k, i);
    }
  }
  return 0;
}

/* ---- DAE ---------------------------------------------------------------- */

static const int dae_id[N] = {1, 1, 1, 0, 0, 0};

static int dae_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)ud;
  apply_t(NQ, y, r);
  for (int i = 0; i < NQ; i++) {
    r[i] += yp[i] - y[NQ + i];
    r[NQ + i] = 2.0 * y[NQ + i] - y[i] - sin(t);
  }
  return 0;
}

/* column j < 3 (x_j): rows j-1, j, j+1 (T3 + cj I), then 3 + j (-1);
 * column 3 + j (z_j): rows j (-1) and 3 + j (2) */
static int64_t dae_cp[N + 1], dae_ri[5 * NQ + 2 * NQ];

static void build_dae_pattern(void)
{
  int64_t p = 0;
  for (int j = 0; j < NQ; j++) {
    dae_cp[j] = p;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < NQ) {
        dae_ri[p++] = i;
      }
    }
    dae_ri[p++] = NQ + j;
  }
  for (int j = 0; j < NQ; j++) {
    dae_cp[NQ + j] = p;
    dae_ri[p++] = j;
    dae_ri[p++] = NQ + j;
  }
  dae_cp[N] = p;
}

static int dae_jac(double t, double cj, const double *y, const double *yp, const double *r,
                   double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)yp;
  (void)r;
  (void)ud;
  for (int j = 0; j < N; j++) {
    for (int64_t p = dae_cp[j]; p < dae_cp[j + 1]; p++) {
      const int64_t i = dae_ri[p];
      if (j < NQ) {
        v[p] = i >= NQ ? -1.0 : (i == j ? 2.0 + cj : -1.0);
      } else {
        v[p] = i < NQ ? -1.0 : 2.0;
      }
    }
  }
  return 0;
}

static int dae_initial(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  for (int i = 0; i < N; i++) {
    y[i] = i < NQ ? 1.0 : 0.0;
    yp[i] = 0.0;
  }
  return 0;
}

static int dae_exact(double t, double *y, void *ud)
{
  (void)ud;
  for (int i = 0; i < NQ; i++) {
    y[i] = 0.0;
  }
  for (int k = 1; k <= NQ; k++) {
    double ones = 0.0; /* u_k . 1, also u_k . x0 */
    for (int i = 0; i < NQ; i++) {
      ones += eig_vec(NQ, k, i);
    }
    const double nu = eig_val(NQ, k) - 0.5, beta = 0.5 * ones;
    const double a = nu * beta / (1.0 + nu * nu), b = -beta / (1.0 + nu * nu);
    const double c = (ones - b) * exp(-nu * t) + a * sin(t) + b * cos(t);
    for (int i = 0; i < NQ; i++) {
      y[i] += c * eig_vec(NQ, k, i);
    }
  }
  for (int i = 0; i < NQ; i++) {
    y[NQ + i] = 0.5 * (y[i] + sin(t));
  }
  return 0;
}

static sk_model *make_model(sk_context *ctx, kind k)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, is_dae(k) ? SK_MODEL_DAE : SK_MODEL_ODE, N, &m));
  if (!m) {
    return NULL;
  }
  CHECK_OK(ctx, sk_model_set_name(m, kind_names[k]));
  if (k == K_OSC) {
    CHECK_OK(ctx, sk_model_set_rhs(m, osc_rhs));
    CHECK_OK(ctx, sk_model_set_initial(m, osc_initial));
    CHECK_OK(ctx, sk_model_set_exact(m, osc_exact));
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, osc_cp, osc_ri));
    CHECK_OK(ctx, sk_model_set_jac_values(m, osc_jac));
    CHECK_OK(ctx, sk_model_set_second_order(m, NQ));
  } else if (is_dae(k)) {
    CHECK_OK(ctx, sk_model_set_residual(m, dae_res));
    CHECK_OK(ctx, sk_model_set_dae_initial(m, dae_initial));
    CHECK_OK(ctx, sk_model_set_exact(m, dae_exact));
    CHECK_OK(ctx, sk_model_set_differential(m, dae_id));
    if (has_pattern(k)) {
      CHECK_OK(ctx, sk_model_set_jac_pattern(m, dae_cp, dae_ri));
    }
    if (k == K_DAE_JAC) {
      CHECK_OK(ctx, sk_model_set_dae_jac_values(m, dae_jac));
    }
  } else {
    CHECK_OK(ctx, sk_model_set_rhs(m, diff_rhs));
    CHECK_OK(ctx, sk_model_set_initial(m, ones_initial));
    CHECK_OK(ctx, sk_model_set_exact(m, diff_exact));
    if (has_pattern(k)) {
      CHECK_OK(ctx, sk_model_set_jac_pattern(m, tri_cp, tri_ri));
    }
    if (k == K_ODE_JAC) {
      CHECK_OK(ctx, sk_model_set_jac_values(m, diff_jac));
    }
  }
  return m;
}

/* ---- what must run ------------------------------------------------------- */

static int is_sundials(const char *engine)
{
  return !strcmp(engine, "cvode-bdf") || !strcmp(engine, "cvode-adams") ||
         !strcmp(engine, "ida-bdf");
}

static int is_krylov(const char *ls)
{
  return !strcmp(ls, "spgmr") || !strcmp(ls, "spfgmr") || !strcmp(ls, "spbcgs") ||
         !strcmp(ls, "sptfqmr") || !strcmp(ls, "pcg");
}

/* The combinations that must give an accurate answer (the documented
 * capabilities); the others may run or be refused. */
static int must_run(const sk_stepper_type *type, const char *ls, kind k)
{
  const char *e = type->name;
  if (is_sundials(e)) {
    const int ida = !strcmp(e, "ida-bdf");
    if (is_dae(k) && !ida) {
      return 0;
    }
    if (!strcmp(ls, "none")) {
      return !ida;
    }
    if (!strcmp(ls, "dense") || is_krylov(ls) || !strcmp(ls, "auto")) {
      return 1;
    }
    return has_pattern(k); /* band, klu, umfpack */
  }
  if (is_dae(k)) {
    return 0;
  }
  if (type->flags & SK_STEPPER_SECOND_ORDER) {
    return k == K_OSC && (!strcmp(ls, "auto") || !strcmp(ls, "none"));
  }
  if (type->flags & SK_STEPPER_IMPLICIT) {
    return k != K_ODE_NOPAT && (!strcmp(ls, "auto") || !strcmp(ls, "klu"));
  }
  return !strcmp(ls, "auto") || !strcmp(ls, "none");
}

/* The combinations that may fail at run time, and what their error message
 * must then say; NULL for the others. Such a failure must be a clean error,
 * never a wrong answer given as SK_OK.
 *  - PCG needs a symmetric positive definite iteration matrix, and the
 *    oscillator's I - gamma [0, I; -T, 0] is not symmetric.
 *  - ida-bdf's unpreconditioned SPTFQMR does not reach IDACalcIC's tight
 *    linear tolerance on the DAE within the default 5 iterations (its
 *    residual test uses TFQMR's upper bound); the message must name the
 *    remedy (linsol.maxl; with maxl = n it runs, checked in main). */
static const char *may_fail_at_run(const char *engine, const char *ls, kind k)
{
  if (!strcmp(ls, "pcg") && k == K_OSC) {
    return "";
  }
  if (!strcmp(engine, "ida-bdf") && !strcmp(ls, "sptfqmr") && is_dae(k)) {
    return "linsol.maxl";
  }
  return NULL;
}

/* A refusal names what is supported: "supports linsol.type = ...",
 * "supported without a pattern: ...", "valid: ...", "... only". */
static int names_what_is_supported(const char *msg)
{
  return strstr(msg, "support") || strstr(msg, "valid") || strstr(msg, " only");
}

/* ---- fixed-step bounds ---------------------------------------------------- */

/* Step size for a fixed-step method of order p. */
static double fixed_h(int p)
{
  return p <= 1 ? 1e-4 : p == 2 ? 1e-3 : 1e-2;
}

/* Bound on ||y_h(T) - y(T)||_2 for a stable fixed-step method of order p,
 * mode by mode (the eigenvectors are orthonormal, so the mode errors add in
 * squares). A step's local error in a mode of eigenvalue mu is at most
 * C |h mu|^(p+1) times the mode's amplitude, with C <= 1 for every
 * reference method here (Euler and backward Euler 1/2, AB2 5/12, the
 * trapezoidal rule and Verlet 1/12, RK4 1/120, ...). Diffusion: amplitude
 * c_k e^{-lambda_k t}, and the later steps damp an error as the exact flow
 * does, to first order, so T / h steps leave C T h^p lambda_k^(p+1) |c_k|
 * e^{-lambda_k T}. Oscillator: the flow rotates the mode (q_k, v_k / w_k) at
 * the constant amplitude A_k = sqrt(a_k^2 + (b_k / w_k)^2), the errors add up
 * undamped to C T h^p w_k^(p+1) A_k, and max(1, w_k) turns that into the
 * (q, v) norm. The safety factor 2 covers the multistep start-up steps, the
 * Newton tolerance of the implicit methods and the second-order terms. */
static double fixed_bound(kind k, int p, double h)
{
  const int m = k == K_OSC ? NQ : N;
  double sum = 0.0;
  for (int j = 1; j <= m; j++) {
    double a = 0.0, b = 0.0;
    for (int i = 0; i < m; i++) {
      a += eig_vec(m, j, i) * (k == K_OSC ? osc_q0[i] : 1.0);
      b += k == K_OSC ? eig_vec(m, j, i) * osc_v0[i] : 0.0;
    }
    double e;
    if (k == K_OSC) {
      const double w = sqrt(eig_val(m, j));
      e = T_END * pow(h, p) * pow(w, p + 1) * sqrt(a * a + b * b / (w * w)) * fmax(1.0, w);
    } else {
      const double lambda = eig_val(m, j);
      e = T_END * pow(h, p) * pow(lambda, p + 1) * fabs(a) * exp(-lambda * T_END);
    }
    sum += e * e;
  }
  return 2.0 * sqrt(sum);
}

/* ---- one combination --------------------------------------------------- */

typedef enum { R_RAN, R_REFUSED, R_FAILED } result;

/* Run one combination (maxl: linsol.maxl, 0 = default); *ratio and *st get
 * the error / bound and the statistics of a run that gave SK_OK. */
static result run_case(const sk_stepper_type *type, const char *ls, kind k, int maxl,
                       double *ratio, sk_stats *st)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = make_model(ctx, k);
  sk_stepper *s = NULL;
  result res = R_FAILED;
  enum { AT_CREATE, AT_SETUP, AT_ADVANCE } at = AT_CREATE;
  static const char *const at_names[] = {"create", "setup", "advance"};
  sk_status rc = sk_stepper_create(ctx, type->name, m, &s);
  const int adaptive = (type->flags & SK_STEPPER_ADAPTIVE) != 0;
  const double h = fixed_h(type->order);
  if (rc == SK_OK) {
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, RTOL, ATOL));
    CHECK_OK(ctx, sk_stepper_set_linear_solver(s, ls));
    CHECK_OK(ctx, sk_stepper_set_krylov(s, maxl, 0.0));
    if (k == K_ODE_NOPAT || k == K_DAE_NOPAT) {
      CHECK_OK(ctx, sk_stepper_set_detect_pattern(s, SK_DETECT_PATTERN_OFF));
    }
    if (!adaptive) {
      CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
    }
    at = AT_SETUP;
    rc = sk_stepper_setup(s);
  }
  double t = 0.0;
  if (rc == SK_OK) {
    at = AT_ADVANCE;
    rc = sk_stepper_advance(s, T_END, &t);
  }
  const char *msg = sk_context_get_error(ctx)->message;
  if (rc == SK_OK) {
    double ye[N], e2 = 0.0, einf = 0.0, yinf = 0.0;
    const double *y = sk_stepper_get_state(s);
    if (is_dae(k)) {
      dae_exact(T_END, ye, NULL);
    } else if (k == K_OSC) {
      osc_exact(T_END, ye, NULL);
    } else {
      diff_exact(T_END, ye, NULL);
    }
    for (int i = 0; i < N; i++) {
      const double d = y[i] - ye[i];
      e2 += d * d;
      einf = fmax(einf, fabs(d));
      yinf = fmax(yinf, fabs(ye[i]));
    }
    e2 = sqrt(e2);
    /* adaptive: 100 rtol relative to the solution's size (normwise: the
     * oscillator's components pass near 0), plus 100 atol; fixed step: the
     * order bound above */
    const double bound =
        adaptive ? 100.0 * RTOL * yinf + 100.0 * ATOL : fixed_bound(k, type->order, h);
    const double err = adaptive ? einf : e2;
    *ratio = err / bound;
    CHECK_OK(ctx, sk_stepper_get_stats(s, st));
    if (t == T_END && err <= bound) {
      res = R_RAN;
    } else {
      fprintf(stderr, "FAIL %s x %s x %s: SK_OK at t=%.17g but error %.3e > bound %.3e\n",
              type->name, ls, kind_names[k], t, err, bound);
      sk_test_failures++;
    }
  } else if (rc == SK_ERR_UNSUPPORTED && at != AT_ADVANCE && msg[0] != '\0' &&
             (names_what_is_supported(msg) ||
              /* the model-kind refusal of sk_stepper_create (stepper.c) names
               * the kind only: "solver 'x' cannot integrate a DAE model" */
              (at == AT_CREATE && is_dae(k) && strstr(msg, "DAE")))) {
    res = R_REFUSED;
  } else if (may_fail_at_run(type->name, ls, k) && at == AT_ADVANCE && rc < 0 && msg[0] != '\0' &&
             strstr(msg, may_fail_at_run(type->name, ls, k))) {
    res = R_FAILED; /* allowed: a clean run-time error that names its remedy */
    printf("note: %s x %s x %s failed cleanly at run time (%s): %.200s\n", type->name, ls,
           kind_names[k], sk_status_name(rc), msg);
  } else {
    fprintf(stderr, "FAIL %s x %s x %s: %s returned %s: %s\n", type->name, ls, kind_names[k],
            at_names[at], sk_status_name(rc), msg);
    sk_test_failures++;
  }
  if (res == R_REFUSED && must_run(type, ls, k)) {
    fprintf(stderr, "FAIL %s x %s x %s must run but was refused (%s: %s)\n", type->name, ls,
            kind_names[k], sk_status_name(rc), msg);
    sk_test_failures++;
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  return res;
}

int main(void)
{
  build_tri_pattern();
  build_osc_pattern();
  build_dae_pattern();
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  int counts[3] = {0, 0, 0};
  const sk_stepper_type *type;
  for (size_t e = 0; (type = sk_stepper_type_list(ctx, e)) != NULL; e++) {
    for (int k = 0; k < K_COUNT; k++) {
      char ran[256] = "", refused[256] = "", failed[256] = "";
      double worst = 0.0;
      result rs[NLS];
      sk_stats st[NLS];
      for (size_t l = 0; l < NLS; l++) {
        double ratio = 0.0;
        memset(&st[l], 0, sizeof st[l]);
        const result r = rs[l] = run_case(type, linsols[l], (kind)k, 0, &ratio, &st[l]);
        worst = fmax(worst, ratio);
        char *dst = r == R_RAN ? ran : r == R_REFUSED ? refused : failed;
        counts[r]++;
        snprintf(dst + strlen(dst), 256 - strlen(dst), "%s%s", dst[0] ? "," : "", linsols[l]);
      }
      printf("%-12s %-14s ran: %-60s (error/bound <= %.1e) refused: %s%s%s\n", type->name,
             kind_names[k], ran[0] ? ran : "-", worst, refused[0] ? refused : "-",
             failed[0] ? "  failed: " : "", failed);
      /* the direct solvers factor the same matrix, whatever its storage (a
       * wrong dense or band assembly shows here even where the Newton
       * iteration still converges to the right answer): the same run,
       * up to the rounding of another LU */
      for (size_t l = 1; rs[0] == R_RAN && l < 4; l++) { /* band, klu, umfpack vs dense */
        if (rs[l] == R_RAN) {
          const double ds = fabs((double)(st[l].steps - st[0].steps));
          const double dn = fabs((double)(st[l].newton_iters - st[0].newton_iters));
          if (ds > 2 + 0.05 * (double)st[0].steps || dn > 2 + 0.05 * (double)st[0].newton_iters) {
            fprintf(stderr,
                    "FAIL %s x %s x %s: %lld steps, %lld Newton iterations; dense: %lld, %lld\n",
                    type->name, linsols[l], kind_names[k], (long long)st[l].steps,
                    (long long)st[l].newton_iters, (long long)st[0].steps,
                    (long long)st[0].newton_iters);
            sk_test_failures++;
          }
        }
      }
    }
  }
  printf("%d combinations ran, %d refused, %d failed cleanly\n", counts[R_RAN], counts[R_REFUSED],
         counts[R_FAILED]);
  CHECK(counts[R_RAN] > 0);
  /* the remedy the SPTFQMR failure names works: more iterations than unknowns
   * (TFQMR tests an upper bound of its residual, sqrt(m + 1) tau, which drops
   * below the tolerance an iteration or two after the residual: maxl 7 runs) */
  const sk_stepper_type *ida = sk_stepper_type_find(ctx, "ida-bdf");
  CHECK(ida != NULL);
  for (int k = K_DAE_JAC; ida && k <= K_DAE_NOPAT; k++) {
    double ratio = 0.0;
    sk_stats st;
    CHECK(run_case(ida, "sptfqmr", (kind)k, 2 * N, &ratio, &st) == R_RAN);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
