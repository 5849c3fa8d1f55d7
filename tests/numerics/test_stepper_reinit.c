/* tests/numerics/test_stepper_reinit.c: sk_stepper_reinit: bitwise the steps of a fresh stepper for every engine and plugin type, a switched forcing in two segments against the exact piecewise solution, the Jacobian self-test not run again */
#include <stdint.h>

#include "test.h"

/* ---- models ------------------------------------------------------------- */

/* The problem library's 2D Brusselator on 8 x 8 nodes (128 states,
 * interleaved u, v; analytic sparse Jacobian, so KLU pivots and the
 * Jacobian self-test runs): nonlinear, non-stiff enough for explicit steps
 * of 0.01 (alpha lap has eigenvalues down to -8 alpha (n-1)^2 = -0.8). */
static sk_model *brusselator(sk_context *ctx)
{
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 8;
  p.alpha = 2e-3;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  return m;
}

/* Robertson's kinetics as a semi-explicit index-1 DAE (idaRoberts_dns):
 *   y1' = -0.04 y1 + 1e4 y2 y3,  y2' = 0.04 y1 - 1e4 y2 y3 - 3e7 y2^2,
 *   0 = y1 + y2 + y3 - 1,  y(0) = (1, 0, 0), y'(0) = (-0.04, 0.04, 0);
 * a dense 3 x 3 pattern without values (colored differences). */
static int rober_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] + 0.04 * y[0] - 1e4 * y[1] * y[2];
  r[1] = yp[1] - 0.04 * y[0] + 1e4 * y[1] * y[2] + 3e7 * y[1] * y[1];
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}

static int rober_init(double t0, double *y0, double *yp0, void *ud)
{
  (void)t0;
  (void)ud;
  const double y[3] = {1.0, 0.0, 0.0}, yp[3] = {-0.04, 0.04, 0.0};
  memcpy(y0, y, sizeof y);
  memcpy(yp0, yp, sizeof yp);
  return 0;
}

static sk_model *rober_dae(sk_context *ctx)
{
  static const int64_t cp[] = {0, 3, 6, 9};
  static const int64_t ri[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  static const int id[] = {1, 1, 0};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 3, &m));
  sk_model_set_name(m, "rober-dae");
  CHECK_OK(ctx, sk_model_set_residual(m, rober_res));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, rober_init));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  return m;
}

/* Two Duffing oscillators q_i'' = -q_i - q_i^3 as y = (q1, q2, v1, v2),
 * q(0) = (1, 0.5), v(0) = 0: a second-order model for verlet. */
static int duffing_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < 2; i++) {
    f[i] = y[2 + i];
    f[2 + i] = -y[i] - y[i] * y[i] * y[i];
  }
  return 0;
}

static int duffing_init(double t0, double *y0, void *ud)
{
  (void)t0;
  (void)ud;
  const double y[4] = {1.0, 0.5, 0.0, 0.0};
  memcpy(y0, y, sizeof y);
  return 0;
}

static sk_model *duffing(sk_context *ctx)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 4, &m));
  sk_model_set_name(m, "duffing");
  sk_model_set_rhs(m, duffing_rhs);
  sk_model_set_initial(m, duffing_init);
  CHECK_OK(ctx, sk_model_set_second_order(m, 2));
  return m;
}

/* ---- (1) a reinit takes the steps of a fresh stepper -------------------- */

enum { BRUSS, ROBER_DAE, DUFFING };

typedef struct {
  const char *method;
  const char *linsol; /* NULL: auto */
  double fixed_step;  /* 0: adaptive */
  int model;
} run_cfg;

static sk_stepper *make_stepper(sk_context *ctx, sk_model *m, const run_cfg *c)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, c->method, m, &s));
  if (!s) {
    return NULL;
  }
  if (c->model == ROBER_DAE) {
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-4, 1e-8)); /* idaRoberts_dns' */
  } else {
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-9));
  }
  if (c->linsol) {
    CHECK_OK(ctx, sk_stepper_set_linear_solver(s, c->linsol));
  }
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, c->fixed_step));
  CHECK_OK(ctx, sk_stepper_set_threads(s, 1));
  return s;
}

/* The engine's own RHS calls (without the self-tests, stability checks
 * and sparsity detection, which a restarted stepper does not repeat). */
static int64_t engine_rhs(sk_stepper *s, int64_t *steps)
{
  sk_stats st;
  sk_stepper_get_stats(s, &st);
  *steps = st.steps;
  return st.rhs_evals - st.rhs_evals_selftest - st.rhs_evals_stability - st.rhs_evals_pattern;
}

/* The counters do not move at the restart itself (the stability check's
 * RHS calls aside, which an explicit fixed-step run repeats there). */
static void check_counters_kept(const sk_stats *before, const sk_stats *after)
{
#define SK__SAME(f, label)                                                                     \
  if (strcmp(#f, "rhs_evals") && strcmp(#f, "rhs_evals_stability")) {                          \
    if (before->f != after->f) {                                                               \
      fprintf(stderr, "%s: %lld before the reinit, %lld after\n", label, (long long)before->f, \
              (long long)after->f);                                                            \
    }                                                                                          \
    CHECK(before->f == after->f);                                                              \
  }
  SK_STATS_COUNTERS(SK__SAME)
#undef SK__SAME
}

/* k steps of a and b side by side toward a far tout: the index of the
 * first step whose time, state or y' differ in any bit, or -1. */
static int first_difference(sk_context *ctx, sk_stepper *a, sk_stepper *b, int64_t n, int k)
{
  const double tout = sk_stepper_get_time(a) + 1e3;
  for (int i = 0; i < k; i++) {
    double ta = 0, tb = 0;
    CHECK_OK(ctx, sk_stepper_step(a, tout, &ta));
    CHECK_OK(ctx, sk_stepper_step(b, tout, &tb));
    const double *da = sk_stepper_get_derivative(a), *db = sk_stepper_get_derivative(b);
    if (memcmp(&ta, &tb, sizeof ta) ||
        memcmp(sk_stepper_get_state(a), sk_stepper_get_state(b), (size_t)n * sizeof(double)) ||
        (da && db && memcmp(da, db, (size_t)n * sizeof(double)))) {
      return i;
    }
  }
  return -1;
}

/* Variant 0: advance to t_mid, reinit at the model's (t0, y0, y'0); the
 * fresh stepper starts there by itself. Variant 1: reinit at t_mid with the
 * state (and y') reached there; the fresh stepper is given them with
 * sk_stepper_set_initial (and _derivative). Independent path: the fresh
 * stepper. Also the counters: the restarted stepper's grow by exactly the
 * fresh one's (steps, the engine's RHS calls). */
static sk_model *make_model(sk_context *ctx, int which)
{
  return which == BRUSS ? brusselator(ctx) : which == ROBER_DAE ? rober_dae(ctx) : duffing(ctx);
}

/* Each stepper has its own model (a model counts its own finite-difference
 * RHS calls, which the engines report). */
static void check_same_as_fresh(sk_context *ctx, const run_cfg *c, int variant)
{
  enum { K = 40 };
  sk_model *m = make_model(ctx, c->model), *mb = make_model(ctx, c->model);
  const int64_t n = sk_model_get_n(m);
  const double t_mid = c->model == ROBER_DAE ? 0.04 : 0.3;
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  sk_stepper *a = make_stepper(ctx, m, c), *b = make_stepper(ctx, mb, c);
  if (!a || !b || !y || !yp) {
    CHECK(0);
    goto done;
  }
  double t;
  CHECK_OK(ctx, sk_stepper_advance(a, t_mid, &t));
  const int dae = sk_model_get_kind(m) == SK_MODEL_DAE;
  const double *ypa = sk_stepper_get_derivative(a); /* ida-bdf only */
  double t_re = 0.0;
  if (variant == 0 && dae) {
    CHECK_OK(ctx, sk_model_eval_dae_initial(m, 0.0, y, yp));
  } else if (variant == 0) {
    CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  } else {
    t_re = t_mid;
    memcpy(y, sk_stepper_get_state(a), (size_t)n * sizeof *y);
    if (ypa) {
      memcpy(yp, ypa, (size_t)n * sizeof *yp);
    }
    CHECK_OK(ctx, sk_stepper_set_initial(b, t_re, y));
    if (ypa) {
      CHECK_OK(ctx, sk_stepper_set_initial_derivative(b, yp));
    }
  }
  const double *yp_given = (variant == 0 && dae) || (variant == 1 && ypa) ? yp : NULL;
  int64_t steps0, steps_a, steps_b;
  const int64_t rhs0 = engine_rhs(a, &steps0);
  sk_stats st0, st1;
  sk_stepper_get_stats(a, &st0);
  CHECK_OK(ctx, sk_stepper_reinit(a, t_re, n, y, yp_given));
  sk_stepper_get_stats(a, &st1);
  check_counters_kept(&st0, &st1);
  CHECK(sk_stepper_get_time(a) == t_re && sk_stepper_get_t0(a) == t_re);
  const int diff = first_difference(ctx, a, b, n, K);
  const int64_t rhs_a = engine_rhs(a, &steps_a) - rhs0, rhs_b = engine_rhs(b, &steps_b);
  printf("  %-12s %-8s h=%-6g %s at t=%g: %s; steps %lld -> %lld (fresh %lld), engine RHS +%lld "
         "(fresh %lld)\n",
         c->method, c->linsol ? c->linsol : "auto", c->fixed_step,
         variant ? "reinit mid-run" : "reinit to t0", t_re,
         diff < 0 ? "40 steps bitwise equal" : "DIFFERENT", (long long)steps0, (long long)steps_a,
         (long long)steps_b, (long long)rhs_a, (long long)rhs_b);
  if (diff >= 0) {
    fprintf(stderr, "%s/%s variant %d: first difference at step %d after the reinit\n", c->method,
            c->linsol ? c->linsol : "auto", variant, diff);
  }
  CHECK_EQ_INT(diff, -1);
  CHECK_EQ_INT(steps_b, K);
  CHECK_EQ_INT(steps_a, steps0 + K);
  CHECK_EQ_INT(rhs_a, rhs_b);
done:
  sk_stepper_destroy(&a);
  sk_stepper_destroy(&b);
  sk_model_destroy(&m);
  sk_model_destroy(&mb);
  free(y);
  free(yp);
}

static void check_all_types(sk_context *ctx, const char *plugin, const char *plugin_abi1)
{
  const run_cfg cfgs[] = {
      {"cvode-bdf", "klu", 0, BRUSS},     {"cvode-bdf", "dense", 0, BRUSS},
      {"cvode-bdf", "spgmr", 0, BRUSS},   {"cvode-bdf", "umfpack", 0, BRUSS},
      {"cvode-adams", NULL, 0, BRUSS},    {"ida-bdf", "klu", 0, BRUSS},
      {"ida-bdf", "klu", 0, ROBER_DAE},   {"ida-bdf", "dense", 0, ROBER_DAE},
      {"euler", NULL, 0.005, BRUSS},      {"rk4", NULL, 0.01, BRUSS},
      {"rk45", NULL, 0, BRUSS},           {"rk45", NULL, 0.01, BRUSS},
      {"ab2", NULL, 0.005, BRUSS},        {"am2pc", NULL, 0.005, BRUSS},
      {"beuler", NULL, 0.01, BRUSS},      {"trap", NULL, 0.01, BRUSS},
      {"bdf2", NULL, 0, BRUSS},           {"bdf2", NULL, 0.01, BRUSS},
      {"verlet", NULL, 0.01, DUFFING},    {"inhouse-rk2", NULL, 0.01, BRUSS},
      {"abi1-euler", NULL, 0.005, BRUSS},
  };
  for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
    if ((!plugin && !strcmp(cfgs[k].method, "inhouse-rk2")) ||
        (!plugin_abi1 && !strcmp(cfgs[k].method, "abi1-euler"))) {
      printf("  %s: skipped (its plugin is not named in the environment)\n", cfgs[k].method);
      continue;
    }
    for (int variant = 0; variant < 2; variant++) {
      check_same_as_fresh(ctx, &cfgs[k], variant);
    }
  }
  /* every built-in type is in the list above */
  const sk_stepper_type *type;
  for (size_t i = 0; (type = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    int listed = 0;
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
      listed |= !strcmp(cfgs[k].method, type->name);
    }
    if (!listed) {
      fprintf(stderr, "stepper type '%s' is not checked\n", type->name);
    }
    CHECK(listed);
  }
}

/* ---- (2) a forcing switched at t = 1, integrated in two segments -------- */

/* y_i' = -lambda_i (y_i - F), lambda = (1, 10, 100), y(0) = 0, with the
 * level F set by the application: F = 1 on [0, 1], F = -0.5 on [1, 2].
 * Exact: y_i(t) = F + (y_i(t_s) - F) exp(-lambda_i (t - t_s)) on each
 * segment [t_s, .]. The DAE form (for ida-bdf with an algebraic forcing):
 * y1' = -y1 + y2, 0 = y2 - F, y(0) = (0, F): y1 as lambda = 1 above and
 * y2 = F, which the consistent initialization at the restart recomputes. */
typedef struct {
  double level;
} forcing;

static const double relax_lambda[3] = {1.0, 10.0, 100.0};

static int relax_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  const forcing *F = ud;
  for (int i = 0; i < 3; i++) {
    f[i] = -relax_lambda[i] * (y[i] - F->level);
  }
  return 0;
}

static int relax_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    v[i] = -relax_lambda[i];
  }
  return 0;
}

static int relax_init(double t0, double *y0, void *ud)
{
  (void)t0;
  (void)ud;
  memset(y0, 0, 3 * sizeof *y0);
  return 0;
}

static int relax_res(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  const forcing *F = ud;
  r[0] = yp[0] + y[0] - y[1];
  r[1] = y[1] - F->level;
  return 0;
}

static int relax_dae_init(double t0, double *y0, double *yp0, void *ud)
{
  (void)t0;
  const forcing *F = ud;
  y0[0] = 0.0;
  y0[1] = F->level;
  yp0[0] = F->level;
  yp0[1] = 0.0;
  return 0;
}

static sk_model *relax_model(sk_context *ctx, forcing *F, int dae)
{
  static const int64_t cp[] = {0, 1, 2, 3}, ri[] = {0, 1, 2};
  static const int64_t dcp[] = {0, 1, 3}, dri[] = {0, 0, 1};
  static const int id[] = {1, 0};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, dae ? SK_MODEL_DAE : SK_MODEL_ODE, dae ? 2 : 3, &m));
  sk_model_set_name(m, dae ? "relax-dae" : "relax");
  sk_model_set_user_data(m, F, NULL);
  if (dae) {
    CHECK_OK(ctx, sk_model_set_residual(m, relax_res));
    CHECK_OK(ctx, sk_model_set_dae_initial(m, relax_dae_init));
    CHECK_OK(ctx, sk_model_set_differential(m, id));
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, dcp, dri));
  } else {
    sk_model_set_rhs(m, relax_rhs);
    sk_model_set_initial(m, relax_init);
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
    sk_model_set_jac_values(m, relax_jac);
  }
  return m;
}

/* The exact piecewise solution at t in [1, 2] from y(0) = 0 (component i
 * with rate lambda), and at t <= 1. */
static double relax_exact(double t, double lambda)
{
  const double y1 = 1.0 - exp(-lambda * fmin(t, 1.0));
  return t <= 1.0 ? y1 : -0.5 + (y1 + 0.5) * exp(-lambda * (t - 1.0));
}

static void check_piecewise(sk_context *ctx, const char *method, double h, int dae, double bound)
{
  forcing F = {1.0};
  sk_model *m = relax_model(ctx, &F, dae);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  if (!s) {
    sk_model_destroy(&m);
    return;
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-10));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
  const int64_t n = sk_model_get_n(m);
  double err[2] = {0, 0}, t, y1[3];
  for (int seg = 0; seg < 2; seg++) {
    const double tend = seg ? 2.0 : 1.0;
    if (seg) {
      F.level = -0.5; /* the switch: the application changes the model, then restarts */
      memcpy(y1, sk_stepper_get_state(s), (size_t)n * sizeof *y1);
      CHECK_OK(ctx, sk_stepper_reinit(s, 1.0, n, y1, NULL));
    }
    CHECK_OK(ctx, sk_stepper_advance(s, tend, &t));
    const double *y = sk_stepper_get_state(s);
    for (int64_t i = 0; i < (dae ? 1 : 3); i++) {
      err[seg] = fmax(err[seg], fabs(y[i] - relax_exact(tend, relax_lambda[i])));
    }
    if (dae) { /* the algebraic component is the level itself */
      err[seg] = fmax(err[seg], fabs(y[1] - F.level));
    }
  }
  sk_stats st;
  sk_stepper_get_stats(s, &st);
  printf("  %-11s%s h=%-6g max error at t=1 %.2e, at t=2 %.2e (bound %.0e), %lld steps\n", method,
         dae ? " (DAE)" : "      ", h, err[0], err[1], bound, (long long)st.steps);
  CHECK(err[0] <= bound);
  CHECK(err[1] <= bound);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* ---- (3) the Jacobian self-test is not run again ------------------------ */

/* With solver.check_jacobian on (the default), the self-test runs at setup
 * and after accepted steps 1, 10 and 100 of the stepper's life: each costs
 * the same RHS calls (rhs_evals_selftest). A reinit after 5 steps adds
 * none, steps 6-9 none, and step 10 the scheduled one. */
static void check_selftest_once(sk_context *ctx, sk_model *m, const char *method)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  if (!s) {
    return;
  }
  CHECK(sk_stepper_get_check_jacobian(s) == 1);
  CHECK_OK(ctx, sk_stepper_setup(s));
  sk_stats st;
  sk_stepper_get_stats(s, &st);
  const int64_t at_setup = st.rhs_evals_selftest;
  double t;
  int64_t seen[4];
  for (int k = 0; k < 5; k++) {
    CHECK_OK(ctx, sk_stepper_step(s, 10.0, &t));
  }
  sk_stepper_get_stats(s, &st);
  seen[0] = st.rhs_evals_selftest; /* setup + step 1 */
  const int64_t n = sk_model_get_n(m);
  double *y = malloc((size_t)n * sizeof *y);
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  CHECK_OK(ctx, sk_stepper_reinit(s, 0.0, n, y, NULL));
  sk_stepper_get_stats(s, &st);
  seen[1] = st.rhs_evals_selftest;
  for (int k = 0; k < 4; k++) {
    CHECK_OK(ctx, sk_stepper_step(s, 10.0, &t));
  }
  sk_stepper_get_stats(s, &st);
  seen[2] = st.rhs_evals_selftest;
  CHECK_OK(ctx, sk_stepper_step(s, 10.0, &t));
  sk_stepper_get_stats(s, &st);
  seen[3] = st.rhs_evals_selftest;
  printf("  %-10s self-test RHS calls: setup %lld, after step 1 %lld, after the reinit %lld, "
         "steps 6-9 %lld, step 10 %lld\n",
         method, (long long)at_setup, (long long)seen[0], (long long)seen[1], (long long)seen[2],
         (long long)seen[3]);
  CHECK(at_setup > 0);
  CHECK_EQ_INT(seen[0], 2 * at_setup);
  CHECK_EQ_INT(seen[1], 2 * at_setup);
  CHECK_EQ_INT(seen[2], 2 * at_setup);
  CHECK_EQ_INT(seen[3], 3 * at_setup);
  free(y);
  sk_stepper_destroy(&s);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const char *plugin = getenv("SK_TEST_PLUGIN");           /* inhouse-rk2: a reinit op */
  const char *plugin_abi1 = getenv("SK_TEST_PLUGIN_ABI1"); /* abi1-euler: ABI 1, none */
  if (plugin) {
    CHECK_OK(ctx, sk_plugin_load(ctx, plugin));
  }
  if (plugin_abi1) {
    CHECK_OK(ctx, sk_plugin_load(ctx, plugin_abi1));
  }

  printf("(1) reinit vs a fresh stepper with the same settings:\n");
  check_all_types(ctx, plugin, plugin_abi1);

  printf("(2) forcing switched at t=1, reinit there (exact piecewise solution):\n");
  check_piecewise(ctx, "cvode-bdf", 0, 0, 1e-6);
  check_piecewise(ctx, "cvode-adams", 0, 0, 1e-6);
  check_piecewise(ctx, "ida-bdf", 0, 0, 1e-6);
  check_piecewise(ctx, "ida-bdf", 0, 1, 1e-6);
  check_piecewise(ctx, "rk45", 0, 0, 1e-6);
  check_piecewise(ctx, "bdf2", 0, 0, 1e-6);
  check_piecewise(ctx, "rk4", 1e-3, 0, 1e-6);

  printf("(3) the Jacobian self-test across a reinit:\n");
  sk_model *m = brusselator(ctx);
  check_selftest_once(ctx, m, "cvode-bdf");
  check_selftest_once(ctx, m, "bdf2");
  sk_model_destroy(&m);

  sk_context_destroy(&ctx);
  TEST_RETURN();
}
