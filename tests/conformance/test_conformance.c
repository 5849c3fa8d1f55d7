/* tests/conformance/test_conformance.c: one battery over every registered stepper type (accuracy, order, failed-step restore, stiffness), plus the seeds' numbers */
#include "test.h"

/* The in-house stepper below publishes its time through the generic
 * stepper's body: the public API has no time setter for user types yet. */

/* ---- test problems ------------------------------------------------------
 * 0 decay:      y' = -y,                       y(0) = 1,      y = e^{-t}
 * 1 oscillator: y1' = y2, y2' = -y1 (y'' = -y), y(0) = (1, 0), y = (cos t, -sin t)
 * 2 forced:     y' = -50 (y - cos t) - sin t,   y(0) = 1,      y = cos t
 * 3 logistic:   y' = y (1 - y),                 y(0) = 1/2,    y = 1 / (1 + e^{-t})
 * 4 two modes:  y' = A y, A = Q diag(-1, -1000) Q^T, Q the 45-degree rotation;
 *               slow mode (y1 + y2)/sqrt2 = sqrt2 e^{-t}, fast (y1 - y2)/sqrt2 = 0 at t=0
 * 5 scalar:     y' = lambda y + beta sin t (seeds), y(0) = 1; no exact solution
 * 6 diagonal:   y1' = -y1, y2' = -1000 y2 (seeds), y(0) = (1, 1)
 * 7 Robertson:  y1' = -0.04 y1 + 1e4 y2 y3, y2' = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2,
 *               y3' = 3e7 y2^2, y(0) = (1, 0, 0); reference at t = 40 (Hairer &
 *               Wanner): (0.7158271, 9.185535e-6, 0.2841637)
 * Every problem has a CSC Jacobian pattern; values are given except where
 * `fd_jacobian` asks the implicit steppers to difference the RHS. */
typedef struct {
  int problem;
  double lambda, beta;
  int fail_once; /* 1: the first RHS call with t > fail_t returns +1 */
  double fail_t;
  int failed;
} prob;

static int prob_rhs(double t, const double *y, double *f, void *ud)
{
  prob *p = ud;
  if (p->fail_once && !p->failed && t > p->fail_t) {
    p->failed = 1;
    return 1;
  }
  switch (p->problem) {
  case 0:
    f[0] = -y[0];
    break;
  case 1:
    f[0] = y[1];
    f[1] = -y[0];
    break;
  case 2:
    f[0] = -50.0 * (y[0] - cos(t)) - sin(t);
    break;
  case 3:
    f[0] = y[0] * (1.0 - y[0]);
    break;
  case 4:
    f[0] = -500.5 * y[0] + 499.5 * y[1];
    f[1] = 499.5 * y[0] - 500.5 * y[1];
    break;
  case 5:
    f[0] = p->lambda * y[0] + p->beta * sin(t);
    break;
  case 7:
    f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    f[2] = 3e7 * y[1] * y[1];
    f[1] = -f[0] - f[2];
    break;
  default:
    f[0] = -y[0];
    f[1] = -1000.0 * y[1];
    break;
  }
  return 0;
}

static int prob_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  prob *p = ud;
  switch (p->problem) {
  case 0:
    v[0] = -1.0;
    break;
  case 1: /* pattern (1,0) in column 0, (0,1) in column 1 */
    v[0] = -1.0;
    v[1] = 1.0;
    break;
  case 2:
    v[0] = -50.0;
    break;
  case 3:
    v[0] = 1.0 - 2.0 * y[0];
    break;
  case 4: /* full 2x2 */
    v[0] = -500.5;
    v[1] = 499.5;
    v[2] = 499.5;
    v[3] = -500.5;
    break;
  case 5:
    v[0] = p->lambda;
    break;
  case 7: /* full 3x3, column by column */
    v[0] = -0.04;
    v[1] = 0.04;
    v[2] = 0.0;
    v[3] = 1e4 * y[2];
    v[4] = -1e4 * y[2] - 6e7 * y[1];
    v[5] = 6e7 * y[1];
    v[6] = 1e4 * y[1];
    v[7] = -1e4 * y[1];
    v[8] = 0.0;
    break;
  default:
    v[0] = -1.0;
    v[1] = -1000.0;
    break;
  }
  return 0;
}

static int prob_exact(double t, double *y, void *ud)
{
  prob *p = ud;
  switch (p->problem) {
  case 0:
    y[0] = exp(-t);
    break;
  case 1:
    y[0] = cos(t);
    y[1] = -sin(t);
    break;
  case 2:
    y[0] = cos(t);
    break;
  case 3:
    y[0] = 1.0 / (1.0 + exp(-t));
    break;
  case 4:
    y[0] = exp(-t) + 0.0 * exp(-1000.0 * t);
    y[1] = exp(-t);
    break;
  case 5:
    y[0] = t == 0.0 ? 1.0 : NAN;
    break;
  case 7:
    y[0] = t == 0.0 ? 1.0 : 0.7158271;
    y[1] = t == 0.0 ? 0.0 : 9.185535e-6;
    y[2] = t == 0.0 ? 0.0 : 0.2841637;
    break;
  default:
    y[0] = exp(-t);
    y[1] = exp(-1000.0 * t);
    break;
  }
  return 0;
}

static int64_t prob_n(int problem)
{
  if (problem == 7) {
    return 3;
  }
  return (problem == 1 || problem == 4 || problem == 6) ? 2 : 1;
}

static sk_model *make_model(sk_context *ctx, prob *p, int fd_jacobian)
{
  static const int64_t cp1[] = {0, 1}, ri1[] = {0};
  static const int64_t cposc[] = {0, 1, 2}, riosc[] = {1, 0};
  static const int64_t cpfull[] = {0, 2, 4}, rifull[] = {0, 1, 0, 1};
  static const int64_t cpdiag[] = {0, 1, 2}, ridiag[] = {0, 1};
  static const int64_t cp3[] = {0, 3, 6, 9}, ri3[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  const int64_t n = prob_n(p->problem);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, n, &m));
  sk_model_set_name(m, "conformance");
  sk_model_set_user_data(m, p, NULL);
  sk_model_set_rhs(m, prob_rhs);
  sk_model_set_exact(m, prob_exact);
  const int64_t *cp = cp1, *ri = ri1;
  if (p->problem == 1) {
    cp = cposc;
    ri = riosc;
  } else if (p->problem == 4) {
    cp = cpfull;
    ri = rifull;
  } else if (p->problem == 6) {
    cp = cpdiag;
    ri = ridiag;
  } else if (p->problem == 7) {
    cp = cp3;
    ri = ri3;
  }
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  if (!fd_jacobian) {
    sk_model_set_jac_values(m, prob_jac);
  }
  return m;
}

/* ---- running one configuration ----------------------------------------- */

typedef struct {
  double hfix; /* 0 = adaptive */
  double rtol, atol;
  double tout;
} cfg;

/* Integrate from 0 to c->tout; y gets the final state. unguarded = 1 allows
 * an unstable fixed step and switches the growth check off (the seeds that
 * show an instability on purpose). */
static sk_status run_guard(sk_context *ctx, const char *name, sk_model *m, const cfg *c,
                           double *y, sk_stats *st, int unguarded)
{
  sk_stepper *s = NULL;
  sk_status rc = sk_stepper_create(ctx, name, m, &s);
  if (rc != SK_OK) {
    return rc;
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, c->rtol, c->atol));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, c->hfix));
  if (unguarded) {
    CHECK_OK(ctx, sk_stepper_set_allow_unstable(s, 1));
    CHECK_OK(ctx, sk_stepper_set_max_growth(s, 0));
  }
  double t = 0;
  rc = sk_stepper_advance(s, c->tout, &t);
  memcpy(y, sk_stepper_get_state(s), (size_t)sk_model_get_n(m) * sizeof *y);
  if (st) {
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  return rc;
}

static sk_status run(sk_context *ctx, const char *name, sk_model *m, const cfg *c, double *y,
                     sk_stats *st)
{
  return run_guard(ctx, name, m, c, y, st, 0);
}

static double max_err(sk_model *m, double t, const double *y)
{
  double ex[3];
  sk_model_eval_exact(m, t, ex);
  double e = 0;
  for (int64_t i = 0; i < sk_model_get_n(m); i++) {
    e = fmax(e, fabs(y[i] - ex[i]));
  }
  return e;
}

/* ---- the battery -------------------------------------------------------- */

static void check_accuracy(sk_context *ctx, const sk_stepper_type *ty)
{
  const int stiff = (ty->flags & SK_STEPPER_STIFF) != 0;
  for (int problem = 0; problem < 3; problem++) {
    prob p = {problem, 0, 0, 0, 0, 0};
    sk_model *m = make_model(ctx, &p, 0);
    double y[2];
    /* fixed step (every type that is not variable-order), h = 1e-3 */
    if (!(ty->flags & SK_STEPPER_VARIABLE_ORDER)) {
      cfg c = {1e-3, 1e-10, 1e-12, 1.0};
      CHECK_OK(ctx, run(ctx, ty->name, m, &c, y, NULL));
      const double err = max_err(m, 1.0, y), bound = fmax(10.0 * pow(1e-3, ty->order), 1e-10);
      printf("  accuracy %-10s problem %d fixed h=1e-3: error %.2e (bound %.1e)\n", ty->name,
             problem, err, bound);
      CHECK(err <= bound);
    }
    /* adaptive */
    if (ty->flags & SK_STEPPER_ADAPTIVE) {
      cfg c = {0, 1e-8, 1e-10, 1.0};
      sk_stats st;
      CHECK_OK(ctx, run(ctx, ty->name, m, &c, y, &st));
      const double err = max_err(m, 1.0, y);
      printf("  accuracy %-10s problem %d adaptive rtol=1e-8: error %.2e, %lld steps\n", ty->name,
             problem, err, (long long)st.steps);
      CHECK(err <= 1e-5);
    }
    /* the finite-difference Jacobian path of the implicit reference steppers */
    if (stiff && !(ty->flags & SK_STEPPER_VARIABLE_ORDER)) {
      sk_model *mfd = make_model(ctx, &p, 1);
      cfg c = {1e-3, 1e-10, 1e-12, 1.0};
      CHECK_OK(ctx, run(ctx, ty->name, mfd, &c, y, NULL));
      CHECK(max_err(mfd, 1.0, y) <= fmax(10.0 * pow(1e-3, ty->order), 1e-10));
      sk_model_destroy(&mfd);
    }
    sk_model_destroy(&m);
  }
}

/* Observed order by step halving (h = 1/n0, 1/2n0, 1/4n0 on [0, 4]; the
 * order from the last pair); variable-order types (cvode-*) change
 * their order during the run, so there is no single order to observe: they
 * are skipped here (their accuracy is checked above). */
static void check_order(sk_context *ctx, const sk_stepper_type *ty)
{
  if (ty->flags & SK_STEPPER_VARIABLE_ORDER) {
    printf("  order    %-10s skipped (variable order)\n", ty->name);
    return;
  }
  const int problems[] = {1, 3};
  for (int k = 0; k < 2; k++) {
    prob p = {problems[k], 0, 0, 0, 0, 0};
    sk_model *m = make_model(ctx, &p, 0);
    const int n0 = ty->order >= 5 ? 4 : ty->order >= 4 ? 10 : 40;
    double err[3];
    for (int j = 0; j < 3; j++) {
      cfg c = {1.0 / (n0 << j), 1e-13, 1e-15, 4.0};
      double y[2];
      CHECK_OK(ctx, run(ctx, ty->name, m, &c, y, NULL));
      err[j] = max_err(m, 4.0, y);
    }
    const double obs = log2(err[1] / err[2]);
    printf("  order    %-10s problem %d: errors %.3e %.3e %.3e, observed %.3f (declared %d)\n",
           ty->name, problems[k], err[0], err[1], err[2], obs, ty->order);
    CHECK(fabs(obs - ty->order) <= 0.2);
    sk_model_destroy(&m);
  }
}

/* A recoverable RHS failure (+1 once, at t > 0.5): the stepper either cuts
 * the step and goes on (adaptive), or fails with the state and time of its
 * last successful step (fixed), after which the run continues. Either way
 * the result at t = 1 matches the run without the failure. */
static void check_restore(sk_context *ctx, const sk_stepper_type *ty)
{
  const int fixed =
      !(ty->flags & SK_STEPPER_VARIABLE_ORDER) && !(ty->flags & SK_STEPPER_ADAPTIVE);
  const double hfix = fixed ? 0.01 : 0.0;
  const double tol = fixed ? 1e-12 : 1e-6;
  prob p = {1, 0, 0, 0, 0.5, 0};
  sk_model *m = make_model(ctx, &p, 0);
  cfg c = {hfix, 1e-9, 1e-11, 1.0};
  double yref[2], yref_fail[2];
  CHECK_OK(ctx, run(ctx, ty->name, m, &c, yref, NULL));

  p.fail_once = 1;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, ty->name, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, c.rtol, c.atol));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, hfix));
  double t = 0;
  sk_status rc = sk_stepper_advance(s, 1.0, &t);
  CHECK(p.failed == 1);
  if (rc != SK_OK) {
    /* failed: time and state are those of the last successful step */
    const double tf = sk_stepper_get_time(s);
    printf("  restore  %-10s failed at t=%.4f (%s), resuming\n", ty->name, tf,
           sk_status_name(rc));
    CHECK(rc < 0);
    CHECK(t == tf);
    CHECK(tf <= 0.5 + 1e-12 && tf > 0.3);
    cfg cf = c;
    cf.tout = tf;
    p.fail_once = 0;
    CHECK_OK(ctx, run(ctx, ty->name, m, &cf, yref_fail, NULL));
    p.fail_once = 1;
    for (int i = 0; i < 2; i++) {
      CHECK_NEAR(sk_stepper_get_state(s)[i], yref_fail[i], tol, tol);
    }
    rc = sk_stepper_advance(s, 1.0, &t);
  } else {
    printf("  restore  %-10s absorbed the failure\n", ty->name);
  }
  CHECK_OK(ctx, rc);
  CHECK(t == 1.0);
  for (int i = 0; i < 2; i++) {
    CHECK_NEAR(sk_stepper_get_state(s)[i], yref[i], tol, tol);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* Stiff: modes -1 and -1000 (coupled), to t = 5 with h = 0.01 (types that
 * always adapt use rtol 1e-6 instead). */
static void check_stiff(sk_context *ctx, const sk_stepper_type *ty)
{
  if (!(ty->flags & SK_STEPPER_STIFF)) {
    return;
  }
  prob p = {4, 0, 0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 0);
  const int always_adaptive = (ty->flags & SK_STEPPER_VARIABLE_ORDER) != 0;
  cfg c = {always_adaptive ? 0.0 : 0.01, 1e-6, 1e-10, 5.0};
  double y[2];
  sk_stats st;
  CHECK_OK(ctx, run(ctx, ty->name, m, &c, y, &st));
  const double slow = (y[0] + y[1]) / 2.0, fast = (y[0] - y[1]) / 2.0;
  printf("  stiff    %-10s slow %.5e (exact %.5e), fast %.1e, %lld steps\n", ty->name, slow,
         exp(-5.0), fast, (long long)st.steps);
  CHECK_NEAR(slow, exp(-5.0), 0.05, 0);
  CHECK(fabs(fast) < 1e-6);
  if (!always_adaptive) {
    CHECK_EQ_INT(st.steps, 500);
  }
  sk_model_destroy(&m);
  /* Robertson to t = 40: adaptive where the type adapts, else h = 1e-3
   * (at h = 1e-2 the first step's Newton iteration does not converge in 5
   * iterations from the explicit predictor: SK_ERR_CONV, as specified) */
  prob pr = {7, 0, 0, 0, 0, 0};
  m = make_model(ctx, &pr, 0);
  const int adaptive = (ty->flags & SK_STEPPER_ADAPTIVE) != 0;
  cfg cr = {adaptive ? 0.0 : 1e-3, 1e-6, 1e-12, 40.0};
  double yr[3], ex[3];
  CHECK_OK(ctx, run(ctx, ty->name, m, &cr, yr, &st));
  sk_model_eval_exact(m, 40.0, ex);
  printf("  robertson %-9s y(40) = (%.6f, %.4e, %.6f), %lld steps, %lld Newton iterations, "
         "%lld Jacobians\n",
         ty->name, yr[0], yr[1], yr[2], (long long)st.steps, (long long)st.newton_iters,
         (long long)st.jac_evals);
  const double rel = 1e-3;
  CHECK_NEAR(yr[0], ex[0], rel, 0);
  CHECK_NEAR(yr[1], ex[1], rel, 0);
  CHECK_NEAR(yr[2], ex[2], rel, 0);
  sk_model_destroy(&m);
}

/* ---- an in-house stepper registered through the public API: Heun ------
 * y* = y_n + h f(t_n, y_n), y_{n+1} = y_n + h/2 (f(t_n, y_n) + f(t_n + h, y*)),
 * order 2, fixed step (solver.fixed_step > 0). */
typedef struct {
  double *k1, *k2, *tmp;
  double t; /* time of the state buffer: the stepper reads it back through tret */
  int64_t steps, rhs;
} heun;

static sk_status heun_create(sk_stepper *s)
{
  const int64_t n = sk_model_get_n(sk_stepper_get_model(s));
  heun *hn = calloc(1, sizeof *hn);
  if (!hn) {
    return SK_ERR_NOMEM;
  }
  hn->k1 = calloc((size_t)n, sizeof(double));
  hn->k2 = calloc((size_t)n, sizeof(double));
  hn->tmp = calloc((size_t)n, sizeof(double));
  sk_stepper_set_impl(s, hn);
  return (hn->k1 && hn->k2 && hn->tmp) ? SK_OK : SK_ERR_NOMEM;
}

static void heun_destroy(sk_stepper *s)
{
  heun *hn = sk_stepper_get_impl(s);
  if (hn) {
    free(hn->k1);
    free(hn->k2);
    free(hn->tmp);
    free(hn);
  }
  sk_stepper_set_impl(s, NULL);
}

static sk_status heun_setup(sk_stepper *s)
{
  heun *hn = sk_stepper_get_impl(s);
  hn->t = sk_stepper_get_t0(s);
  return sk_stepper_get_fixed_step(s) > 0 ? SK_OK : SK_ERR_INPUT;
}

/* One step of size min(h, tout - t) (stretched onto tout within 1e-8 h);
 * the state is written only when the step succeeded. */
static sk_status heun_one(sk_stepper *s, double tout, int clip)
{
  heun *hn = sk_stepper_get_impl(s);
  sk_model *m = sk_stepper_get_model(s);
  const int64_t n = sk_model_get_n(m);
  double *y = sk_stepper_state_buffer(s);
  const double t = hn->t;
  double h = sk_stepper_get_fixed_step(s);
  if (clip && t + h * (1 + 1e-8) >= tout) {
    h = tout - t;
  }
  hn->rhs += 2;
  sk_status rc = sk_model_eval_rhs(m, t, y, hn->k1);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < n; i++) {
    hn->tmp[i] = y[i] + h * hn->k1[i];
  }
  rc = sk_model_eval_rhs(m, t + h, hn->tmp, hn->k2);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < n; i++) {
    y[i] += 0.5 * h * (hn->k1[i] + hn->k2[i]);
  }
  hn->t = (clip && h == tout - t) ? tout : t + h;
  hn->steps++;
  return SK_OK;
}

static sk_status heun_step(sk_stepper *s, double tout, double *tret)
{
  heun *hn = sk_stepper_get_impl(s);
  sk_status rc = heun_one(s, tout, 0);
  *tret = hn->t;
  return rc;
}

static sk_status heun_advance(sk_stepper *s, double tout, double *tret)
{
  heun *hn = sk_stepper_get_impl(s);
  sk_status rc = SK_OK;
  while (rc == SK_OK && hn->t < tout) {
    rc = heun_one(s, tout, 1);
  }
  *tret = hn->t;
  return rc;
}

static sk_status heun_stats(sk_stepper *s, sk_stats *st)
{
  heun *hn = sk_stepper_get_impl(s);
  st->steps = hn->steps;
  st->rhs_evals = hn->rhs;
  st->last_order = 2;
  return SK_OK;
}

static const sk_stepper_type test_heun = {
    .name = "test-heun",
    .description = "Heun's method written in the conformance test (in-house stepper)",
    .order = 2,
    .flags = SK_STEPPER_EXPLICIT,
    .create = heun_create,
    .setup = heun_setup,
    .step = heun_step,
    .advance = heun_advance,
    .get_stats = heun_stats,
    .set_from_options = NULL,
    .destroy = heun_destroy,
};

/* ---- the seeds' numbers (independent values) --------------------------- */

/* The seeds show unstable steps on purpose: the stability guard is told to
 * let them run (solver.allow_unstable, no growth limit); check_guard_seeds
 * checks that it refuses them otherwise. */
static sk_stepper *seed_stepper(sk_context *ctx, const char *name, sk_model *m, double h)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, name, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-12, 1e-14));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
  CHECK_OK(ctx, sk_stepper_set_allow_unstable(s, 1));
  CHECK_OK(ctx, sk_stepper_set_max_growth(s, 0));
  return s;
}

/* Without allow_unstable the seeds' unstable steps are refused before the
 * first step (euler: h lambda = -5 and -2.1 outside [-2, 0]; rk4: -2.9
 * outside [-2.785, 0]), and their stable ones run (-1.9, -2.7). */
static void check_guard_seeds(sk_context *ctx)
{
  const struct {
    const char *method;
    double lambda, h;
    int refused;
  } cases[] = {{"euler", -100.0, 0.05, 1},    {"euler", -1000.0, 0.0021, 1},
               {"euler", -1000.0, 0.0019, 0}, {"rk4", -1.0, 2.9, 1},
               {"rk4", -1.0, 2.7, 0},         {"beuler", -1000.0, 1.0, 0}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    prob p = {5, cases[k].lambda, 0.0, 0, 0, 0};
    sk_model *m = make_model(ctx, &p, 0);
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, cases[k].method, m, &s));
    CHECK_OK(ctx, sk_stepper_set_fixed_step(s, cases[k].h));
    double t = 0.0;
    const sk_status rc = sk_stepper_step(s, 10.0, &t);
    printf("  guard: %s h lambda = %g: %s\n", cases[k].method, cases[k].h * cases[k].lambda,
           sk_status_name(rc));
    if (cases[k].refused) {
      CHECK(rc == SK_ERR_UNSTABLE);
      CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "is unstable for h >");
      CHECK(sk_stepper_get_time(s) == 0.0); /* not one step taken */
    } else {
      CHECK_OK(ctx, rc);
    }
    sk_stepper_destroy(&s);
    sk_model_destroy(&m);
  }
}

static void check_seeds(sk_context *ctx)
{
  double t;
  /* y' = -100 y, h = 0.05, y0 = 1: forward Euler 1, -4, 16, -64; backward Euler (1/6)^n */
  prob p = {5, -100.0, 0.0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 0);
  sk_stepper *fe = seed_stepper(ctx, "euler", m, 0.05);
  sk_stepper *be = seed_stepper(ctx, "beuler", m, 0.05);
  const double fe_expect[] = {-4.0, 16.0, -64.0};
  for (int k = 0; k < 3; k++) {
    CHECK_OK(ctx, sk_stepper_step(fe, 10.0, &t));
    CHECK_NEAR(sk_stepper_get_state(fe)[0], fe_expect[k], 1e-12, 0);
    CHECK_OK(ctx, sk_stepper_step(be, 10.0, &t));
    CHECK_NEAR(sk_stepper_get_state(be)[0], pow(1.0 / 6.0, k + 1), 1e-10, 0);
  }
  printf("  seeds: forward Euler -4, 16, -64; backward Euler %.6f (1/6)^3 = %.6f\n",
         sk_stepper_get_state(be)[0], pow(1.0 / 6.0, 3));
  sk_stepper_destroy(&fe);
  sk_stepper_destroy(&be);

  /* y' = -50 y + sin t, y(0) = 1, one backward-Euler step with h = 0.1: 0.16833 */
  p.lambda = -50.0;
  p.beta = 1.0;
  be = seed_stepper(ctx, "beuler", m, 0.1);
  CHECK_OK(ctx, sk_stepper_advance(be, 0.1, &t));
  printf("  seeds: y' = -50y + sin t, one backward-Euler step h=0.1: %.5f\n",
         sk_stepper_get_state(be)[0]);
  CHECK_NEAR(sk_stepper_get_state(be)[0], 0.16833, 0, 5e-6);
  sk_stepper_destroy(&be);

  /* amplification factors at h lambda = -1000: trapezoidal -0.996, backward Euler 1/1001 */
  p.lambda = -1000.0;
  p.beta = 0.0;
  sk_stepper *tr = seed_stepper(ctx, "trap", m, 1.0);
  CHECK_OK(ctx, sk_stepper_step(tr, 10.0, &t));
  printf("  seeds: trapezoidal R(-1000) = %.4f\n", sk_stepper_get_state(tr)[0]);
  CHECK_NEAR(sk_stepper_get_state(tr)[0], -0.996, 0, 5e-4);
  sk_stepper_destroy(&tr);
  be = seed_stepper(ctx, "beuler", m, 1.0);
  CHECK_OK(ctx, sk_stepper_step(be, 10.0, &t));
  CHECK_NEAR(sk_stepper_get_state(be)[0], 1.0 / 1001.0, 1e-10, 0);
  sk_stepper_destroy(&be);

  /* RK4's real-axis stability limit h lambda ~ -2.785: stable at -2.7, unstable at -2.9 */
  p.lambda = -1.0;
  const double z[] = {-2.7, -2.9};
  double y100[2];
  for (int k = 0; k < 2; k++) {
    sk_stepper *rk = seed_stepper(ctx, "rk4", m, -z[k]);
    CHECK_OK(ctx, sk_stepper_advance(rk, -z[k] * 100, &t));
    y100[k] = fabs(sk_stepper_get_state(rk)[0]);
    sk_stepper_destroy(&rk);
  }
  printf("  seeds: rk4 |y| after 100 steps: %.2e at h lambda = -2.7, %.2e at -2.9\n", y100[0],
         y100[1]);
  CHECK(y100[0] < 1e-3);
  CHECK(y100[1] > 1e3);

  /* y' = -1000 y + sin t: explicit Euler needs h < 0.002 */
  p.lambda = -1000.0;
  p.beta = 1.0;
  const double hs[] = {0.0019, 0.0021};
  for (int k = 0; k < 2; k++) {
    sk_stepper *e = seed_stepper(ctx, "euler", m, hs[k]);
    CHECK_OK(ctx, sk_stepper_advance(e, 1.0, &t));
    y100[k] = fabs(sk_stepper_get_state(e)[0]);
    sk_stepper_destroy(&e);
  }
  printf("  seeds: y' = -1000y + sin t, Euler |y(1)|: %.2e at h=0.0019, %.2e at h=0.0021\n",
         y100[0], y100[1]);
  CHECK(y100[0] < 1e-2);
  CHECK(y100[1] > 1e10);
  sk_model_destroy(&m);

  /* modes -1 and -1000 to t = 5: forward Euler at h = 0.0021 blows up (~1e98);
   * backward Euler at h = 0.01 takes 500 steps, slow mode 0.00691 (exact 0.00674) */
  prob p2 = {6, 0, 0, 0, 0, 0};
  sk_model *m2 = make_model(ctx, &p2, 0);
  cfg c = {0.0021, 1e-10, 1e-12, 5.0};
  double y[2];
  sk_stats st;
  CHECK_OK(ctx, run_guard(ctx, "euler", m2, &c, y, &st, 1));
  printf("  seeds: two modes, forward Euler h=0.0021: |fast| = %.2e after %lld steps\n",
         fabs(y[1]), (long long)st.steps);
  CHECK(fabs(y[1]) > 1e97 && fabs(y[1]) < 1e100);
  c.hfix = 0.01;
  CHECK_OK(ctx, run(ctx, "beuler", m2, &c, y, &st));
  printf("  seeds: two modes, backward Euler h=0.01: slow %.5f (exact %.5f), %lld steps\n", y[0],
         exp(-5.0), (long long)st.steps);
  CHECK_EQ_INT(st.steps, 500);
  CHECK_NEAR(y[0], 0.00691, 0, 5e-6);
  CHECK_NEAR(exp(-5.0), 0.00674, 0, 5e-6);
  sk_model_destroy(&m2);
}

/* ---- bad input and options ---------------------------------------------- */

static void check_bad_input(sk_context *ctx)
{
  prob p = {0, 0, 0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 0);
  double y[2];
  /* a fixed-step method without a fixed step */
  cfg c = {0, 1e-6, 1e-9, 1.0};
  CHECK(run(ctx, "rk4", m, &c, y, NULL) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.fixed_step > 0");
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "euler", m, &s));
  CHECK(sk_stepper_set_fixed_step(s, -1.0) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.fixed_step");
  sk_stepper_destroy(&s);
  /* an implicit method on a model without a Jacobian pattern */
  sk_model *nopat = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &nopat));
  sk_model_set_user_data(nopat, &p, NULL);
  sk_model_set_rhs(nopat, prob_rhs);
  sk_model_set_exact(nopat, prob_exact);
  cfg cb = {0.01, 1e-6, 1e-9, 1.0};
  /* with detection off (solver.detect_pattern=off) it is refused */
  CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", nopat, &s));
  CHECK_OK(ctx, sk_stepper_set_detect_pattern(s, SK_DETECT_PATTERN_OFF));
  CHECK(sk_stepper_setup(s) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "stepper 'bdf2' needs the model's Jacobian pattern");
  sk_stepper_destroy(&s);
  /* the explicit ones do not need it */
  CHECK_OK(ctx, run(ctx, "rk4", nopat, &cb, y, NULL));
  CHECK(!sk_model_has_jacobian(nopat));
  /* by default (auto) the implicit one detects the pattern and runs */
  CHECK_OK(ctx, run(ctx, "bdf2", nopat, &cb, y, NULL));
  CHECK(sk_model_has_jacobian(nopat));
  sk_model_destroy(&nopat);
  /* unknown name lists the valid ones, reference steppers included */
  CHECK(sk_stepper_create(ctx, "rk99", m, &s) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "cvode-bdf, cvode-adams, euler, rk4, rk45, ab2, beuler, trap, am2pc, bdf2");
  /* the reference steppers do not integrate DAEs */
  sk_model *dae = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 1, &dae));
  CHECK(sk_stepper_create(ctx, "rk4", dae, &s) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "solver 'rk4' cannot integrate a DAE model");
  CHECK(s == NULL);
  sk_model_destroy(&dae);
  /* solver.fixed_step through the options table */
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  size_t nspec;
  const sk_option_spec *spec = sk_stepper_options(&nspec);
  CHECK_OK(ctx, sk_options_register(o, spec, nspec));
  CHECK_OK(ctx, sk_options_set(o, "solver.fixed_step", "0.125", NULL));
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk4", m, &s));
  CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
  CHECK_NEAR(sk_stepper_get_fixed_step(s), 0.125, 0, 0);
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);
  sk_model_destroy(&m);
}

/* Statistics, monitor and budget through the generic driver. */
static int count_steps(const sk_stepper *s, double t, double h, void *ud)
{
  (void)s;
  (void)t;
  (void)h;
  return ++*(int *)ud >= 7;
}

static void check_driver(sk_context *ctx)
{
  prob p = {4, 0, 0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 0);
  sk_stepper *s = NULL;
  double t;
  sk_stats st;
  /* bdf2 adaptive on the stiff problem: statistics are filled */
  CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-9));
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  CHECK_OK(ctx, sk_stepper_advance(s, 5.0, &t));
  CHECK(t == 5.0);
  sk_stepper_get_stats(s, &st);
  printf("  bdf2 adaptive stiff: steps %lld failed %lld rhs %lld jac %lld setups %lld "
         "factorizations %lld newton %lld fails %lld last h %.3e order %d\n",
         (long long)st.steps, (long long)st.failed_steps, (long long)st.rhs_evals,
         (long long)st.jac_evals, (long long)st.lin_setups, (long long)st.factorizations,
         (long long)st.newton_iters, (long long)st.newton_fails, st.last_h, st.last_order);
  CHECK(st.steps > 0 && st.rhs_evals > 0 && st.jac_evals > 0 && st.factorizations > 0);
  CHECK(st.newton_iters >= st.steps && st.last_h > 0 && st.last_order == 2);
  CHECK(st.steps < 2000);
  CHECK_STR_CONTAINS(sk_stepper_get_linear_solver(s), "klu");
  CHECK_NEAR((sk_stepper_get_state(s)[0] + sk_stepper_get_state(s)[1]) / 2.0, exp(-5.0), 1e-3, 0);
  sk_stepper_destroy(&s);
  /* the monitor stops the run; the budget is total */
  int count = 0;
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk45", m, &s));
  CHECK_OK(ctx, sk_stepper_set_monitor(s, count_steps, &count));
  CHECK(sk_stepper_advance(s, 5.0, &t) == SK_INTERRUPTED);
  CHECK(count == 7 && t < 5.0 && t == sk_stepper_get_time(s));
  sk_stepper_destroy(&s);
  CHECK_OK(ctx, sk_stepper_create(ctx, "euler", m, &s));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 1e-4));
  CHECK_OK(ctx, sk_stepper_set_max_steps(s, 100));
  CHECK(sk_stepper_advance(s, 5.0, &t) == SK_ERR_TOO_MUCH_WORK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "step budget of 100 steps exhausted");
  CHECK_NEAR(sk_stepper_get_time(s), 0.01, 1e-9, 0);
  sk_stepper_destroy(&s);
  /* fixed step: a Newton failure is SK_ERR_CONV, with the state left at the last step */
  prob prb = {7, 0, 0, 0, 0, 0};
  sk_model *mr = make_model(ctx, &prb, 0);
  CHECK_OK(ctx, sk_stepper_create(ctx, "beuler", mr, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-12));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 0.01));
  CHECK(sk_stepper_advance(s, 40.0, &t) == SK_ERR_CONV);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "Newton iteration failed at t=0");
  CHECK(t == 0.0 && sk_stepper_get_time(s) == 0.0);
  CHECK(sk_stepper_get_state(s)[0] == 1.0 && sk_stepper_get_state(s)[1] == 0.0);
  sk_stepper_get_stats(s, &st);
  CHECK(st.newton_fails == 1 && st.steps == 0);
  sk_stepper_destroy(&s);
  sk_model_destroy(&mr);
  /* rk45 dense output: 100 output times cost no extra steps (Hermite
   * interpolation inside the last step), and every output is accurate */
  prob po = {1, 0, 0, 0, 0, 0};
  sk_model *mo = make_model(ctx, &po, 0);
  sk_stats st1;
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk45", mo, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  CHECK_OK(ctx, sk_stepper_advance(s, 5.0, &t));
  sk_stepper_get_stats(s, &st1);
  sk_stepper_destroy(&s);
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk45", mo, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  double worst = 0;
  for (int k = 1; k <= 100; k++) {
    CHECK_OK(ctx, sk_stepper_advance(s, 0.05 * k, &t));
    CHECK(t == 0.05 * k && sk_stepper_get_time(s) == t);
    worst = fmax(worst, max_err(mo, t, sk_stepper_get_state(s)));
  }
  sk_stepper_get_stats(s, &st);
  printf("  rk45 dense output: %lld steps for 1 output, %lld for 100; worst error %.2e\n",
         (long long)st1.steps, (long long)st.steps, worst);
  CHECK_EQ_INT(st.steps, st1.steps);
  CHECK(worst < 1e-6);
  /* a single step after an interpolated output continues from the internal state */
  CHECK_OK(ctx, sk_stepper_step(s, 6.0, &t));
  CHECK(t > 5.0 && max_err(mo, t, sk_stepper_get_state(s)) < 1e-6);
  sk_stepper_destroy(&s);
  sk_model_destroy(&mo);
  /* rk45 rejects steps on the forced problem started with a too-large h */
  prob pf = {2, 0, 0, 0, 0, 0};
  sk_model *mf = make_model(ctx, &pf, 0);
  CHECK_OK(ctx, sk_stepper_create(ctx, "rk45", mf, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  CHECK_OK(ctx, sk_stepper_set_step_limits(s, 0.5, 0, 0));
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  sk_stepper_get_stats(s, &st);
  printf("  rk45 from h0=0.5: steps %lld, failed %lld, rhs %lld\n", (long long)st.steps,
         (long long)st.failed_steps, (long long)st.rhs_evals);
  CHECK(st.failed_steps > 0);
  CHECK(max_err(mf, 1.0, sk_stepper_get_state(s)) < 1e-6);
  sk_stepper_destroy(&s);
  sk_model_destroy(&mf);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK_OK(ctx, sk_stepper_type_register(ctx, &test_heun));
  /* SK_TEST_PLUGIN=path.so: the plugin's stepper types get the battery too */
  const char *plugin = getenv("SK_TEST_PLUGIN");
  size_t n_types = 0;
  while (sk_stepper_type_list(ctx, n_types)) {
    n_types++;
  }
  if (plugin && plugin[0]) {
    CHECK_OK(ctx, sk_plugin_load(ctx, plugin));
    CHECK(sk_stepper_type_list(ctx, n_types) != NULL);
  }
  const sk_stepper_type *ty;
  int saw_heun = 0;
  for (size_t i = 0; (ty = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    const int before = sk_test_failures;
    printf("%s (order %d, flags 0x%x): %s\n", ty->name, ty->order, ty->flags, ty->description);
    if (ty->flags & SK_STEPPER_SECOND_ORDER) {
      /* these problems are not second-order models; test_verlet.c has the battery */
      printf("%s: skipped (needs a second-order model)\n", ty->name);
      continue;
    }
    check_accuracy(ctx, ty);
    check_order(ctx, ty);
    check_restore(ctx, ty);
    check_stiff(ctx, ty);
    printf("%s: %s\n", ty->name, sk_test_failures == before ? "PASS" : "FAIL");
    saw_heun += ty == &test_heun;
  }
  CHECK(saw_heun == 1);
  check_seeds(ctx);
  check_guard_seeds(ctx);
  check_bad_input(ctx);
  check_driver(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
