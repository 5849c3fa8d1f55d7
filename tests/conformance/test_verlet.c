/* tests/conformance/test_verlet.c: the battery of the second-order-only steppers (Stoermer-Verlet): accuracy, order, restore, bounded energy error on a Kepler orbit vs rk4's drift */
#include "test.h"

/* ---- second-order test problems, y = (q, v), f = (v, a(q)) ---------------
 * oscillator: q'' = -q, q(0) = 1, v(0) = 0; q = cos t, v = -sin t (nq = 1)
 * Kepler:     q'' = -q / |q|^3 (GM = 1, semi-major axis 1, period 2 pi),
 *             eccentricity e = 0.5 started at perihelion: q(0) = (1 - e, 0),
 *             v(0) = (0, sqrt((1 + e) / (1 - e))); energy
 *             H = |v|^2 / 2 - 1 / |q| = -1/2 (nq = 2) */
typedef struct {
  int kepler;
  int fail_once; /* 1: the first RHS call with t > fail_t returns +1 */
  double fail_t;
  int failed;
} prob;

#define KEPLER_E 0.5
#define SK_TEST_PI 3.14159265358979323846

static int prob_rhs(double t, const double *y, double *f, void *ud)
{
  prob *p = ud;
  if (p->fail_once && !p->failed && t > p->fail_t) {
    p->failed = 1;
    return 1;
  }
  if (!p->kepler) {
    f[0] = y[1];
    f[1] = -y[0];
    return 0;
  }
  const double r = sqrt(y[0] * y[0] + y[1] * y[1]), r3 = r * r * r;
  f[0] = y[2];
  f[1] = y[3];
  f[2] = -y[0] / r3;
  f[3] = -y[1] / r3;
  return 0;
}

static int prob_exact(double t, double *y, void *ud)
{
  prob *p = ud;
  if (!p->kepler) {
    y[0] = cos(t);
    y[1] = -sin(t);
    return 0;
  }
  if (t != 0.0) {
    return -1; /* only the initial state is known in closed form here */
  }
  y[0] = 1.0 - KEPLER_E;
  y[1] = 0.0;
  y[2] = 0.0;
  y[3] = sqrt((1.0 + KEPLER_E) / (1.0 - KEPLER_E));
  return 0;
}

static int prob_initial(double t0, double *y0, void *ud)
{
  return prob_exact(t0, y0, ud);
}

static double kepler_energy(const double *y)
{
  return 0.5 * (y[2] * y[2] + y[3] * y[3]) - 1.0 / sqrt(y[0] * y[0] + y[1] * y[1]);
}

static sk_model *make_model(sk_context *ctx, prob *p, int second_order)
{
  sk_model *m = NULL;
  const int64_t nq = p->kepler ? 2 : 1;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2 * nq, &m));
  sk_model_set_name(m, p->kepler ? "kepler" : "oscillator");
  sk_model_set_user_data(m, p, NULL);
  sk_model_set_rhs(m, prob_rhs);
  sk_model_set_exact(m, prob_exact);
  sk_model_set_initial(m, prob_initial);
  if (second_order) {
    CHECK_OK(ctx, sk_model_set_second_order(m, nq));
    CHECK_EQ_INT(sk_model_get_second_order(m), nq);
  }
  return m;
}

/* Integrate the oscillator from 0 to tout with the fixed step h. */
static sk_status run(sk_context *ctx, const char *name, sk_model *m, double h, double tout,
                     double *y, sk_stats *st)
{
  sk_stepper *s = NULL;
  sk_status rc = sk_stepper_create(ctx, name, m, &s);
  if (rc != SK_OK) {
    return rc;
  }
  double y0[4];
  CHECK_OK(ctx, sk_model_eval_exact(m, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
  CHECK_OK(ctx, sk_stepper_set_max_steps(s, 0));
  double t = 0;
  rc = sk_stepper_advance(s, tout, &t);
  memcpy(y, sk_stepper_get_state(s), (size_t)sk_model_get_n(m) * sizeof *y);
  if (st) {
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  return rc;
}

static double osc_err(double t, const double *y)
{
  return fmax(fabs(y[0] - cos(t)), fabs(y[1] + sin(t)));
}

/* accuracy and observed order on the oscillator; one RHS call per step */
static void check_accuracy_order(sk_context *ctx, const sk_stepper_type *ty)
{
  prob p = {0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 1);
  double y[2];
  sk_stats st;
  CHECK_OK(ctx, run(ctx, ty->name, m, 1e-3, 1.0, y, &st));
  const double err = osc_err(1.0, y), bound = 10.0 * pow(1e-3, ty->order);
  printf("  accuracy %-8s oscillator h=1e-3: error %.2e (bound %.1e), %lld steps, %lld RHS\n",
         ty->name, err, bound, (long long)st.steps, (long long)st.rhs_evals);
  CHECK(err <= bound);
  CHECK_EQ_INT(st.steps, 1000);
  CHECK_EQ_INT(st.rhs_evals, st.steps + 1);
  double e[3];
  for (int j = 0; j < 3; j++) {
    CHECK_OK(ctx, run(ctx, ty->name, m, 1.0 / (40 << j), 4.0, y, NULL));
    e[j] = osc_err(4.0, y);
  }
  const double obs = log2(e[1] / e[2]);
  printf("  order    %-8s oscillator: errors %.3e %.3e %.3e, observed %.3f (declared %d)\n",
         ty->name, e[0], e[1], e[2], obs, ty->order);
  CHECK(fabs(obs - ty->order) <= 0.2);
  CHECK(fabs(log2(e[0] / e[1]) - ty->order) <= 0.2);
  sk_model_destroy(&m);
}

/* A recoverable RHS failure at t > 0.5 with a fixed step: the run fails
 * with the state and time of the last successful step, then resumes and
 * ends where the run without the failure ends. */
static void check_restore(sk_context *ctx, const sk_stepper_type *ty)
{
  prob p = {0, 0, 0.5, 0};
  sk_model *m = make_model(ctx, &p, 1);
  double yref[2], yfail[2];
  CHECK_OK(ctx, run(ctx, ty->name, m, 0.01, 1.0, yref, NULL));
  p.fail_once = 1;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, ty->name, m, &s));
  const double y0[2] = {1.0, 0.0};
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, 0.01));
  double t = 0;
  sk_status rc = sk_stepper_advance(s, 1.0, &t);
  CHECK(p.failed == 1);
  CHECK(rc < 0);
  const double tf = sk_stepper_get_time(s);
  printf("  restore  %-8s failed at t=%.4f (%s), resuming\n", ty->name, tf, sk_status_name(rc));
  CHECK(t == tf && tf <= 0.5 + 1e-12 && tf > 0.3);
  p.fail_once = 0;
  CHECK_OK(ctx, run(ctx, ty->name, m, 0.01, tf, yfail, NULL));
  for (int i = 0; i < 2; i++) {
    CHECK_NEAR(sk_stepper_get_state(s)[i], yfail[i], 1e-12, 1e-12);
  }
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  CHECK(t == 1.0);
  for (int i = 0; i < 2; i++) {
    CHECK_NEAR(sk_stepper_get_state(s)[i], yref[i], 1e-12, 1e-12);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* The Kepler orbit over `periods` periods with `per` steps per period,
 * one step at a time: dev[k] = max |H - H0| over the k-th tenth of the run. */
static void energy_deciles(sk_context *ctx, const char *name, sk_model *m, int periods, int per,
                           double dev[10])
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, name, m, &s));
  const double h = 2.0 * SK_TEST_PI / per;
  double y0[4];
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_fixed_step(s, h));
  CHECK_OK(ctx, sk_stepper_set_max_steps(s, 0));
  const double h0 = kepler_energy(y0);
  const long nsteps = (long)periods * per;
  for (int k = 0; k < 10; k++) {
    dev[k] = 0;
  }
  double t = 0;
  for (long j = 0; j < nsteps; j++) {
    sk_status rc = sk_stepper_step(s, 1e300, &t);
    if (rc != SK_OK) {
      CHECK_OK(ctx, rc);
      break;
    }
    const int k = (int)(10 * j / nsteps);
    dev[k] = fmax(dev[k], fabs(kepler_energy(sk_stepper_get_state(s)) - h0));
  }
  CHECK_NEAR(t, nsteps * h, 1e-9, 0);
  sk_stepper_destroy(&s);
}

/* Symplectic vs not, both measured: Verlet's energy error stays bounded
 * (last tenth / first tenth < 2) while rk4's at the same step drifts
 * (its tenth-by-tenth maximum grows monotonically, by far more). */
static void check_energy(sk_context *ctx)
{
  prob p = {1, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 1);
  CHECK_NEAR(kepler_energy((double[]){0.5, 0.0, 0.0, sqrt(3.0)}), -0.5, 1e-15, 0);
  const int periods = 1000, per = 200;
  double dv[10], dr[10];
  energy_deciles(ctx, "verlet", m, periods, per, dv);
  energy_deciles(ctx, "rk4", m, periods, per, dr);
  printf("  Kepler e=0.5, %d periods, h = 2pi/%d: max |H - H0| by tenth of the run\n", periods,
         per);
  for (int k = 0; k < 10; k++) {
    printf("    tenth %2d: verlet %.3e   rk4 %.3e\n", k + 1, dv[k], dr[k]);
  }
  const double ratio_v = dv[9] / dv[0], ratio_r = dr[9] / dr[0];
  printf("  last/first tenth: verlet %.3f, rk4 %.3f\n", ratio_v, ratio_r);
  CHECK(ratio_v < 2.0);
  CHECK(dv[9] < 1e-2); /* bounded and small: O(h^2) */
  int monotone = 1;
  for (int k = 1; k < 10; k++) {
    monotone = monotone && dr[k] > dr[k - 1];
  }
  CHECK(monotone);
  CHECK(ratio_r > 5.0);
  /* rk4's drift is secular: about linear in time (tenth k ~ k times the first) */
  CHECK(ratio_r > 8.0 && ratio_r < 12.0);
  sk_model_destroy(&m);
}

static void check_bad_input(sk_context *ctx)
{
  prob p = {0, 0, 0, 0};
  sk_model *m = make_model(ctx, &p, 0);
  sk_stepper *s = NULL;
  /* a model not marked second order */
  CHECK(sk_stepper_create(ctx, "verlet", m, &s) == SK_ERR_UNSUPPORTED);
  CHECK(s == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "is not marked second order");
  /* n must be 2 nq */
  CHECK(sk_model_set_second_order(m, 2) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "needs n = 2 nq");
  CHECK(sk_model_set_second_order(m, -1) == SK_ERR_ARG);
  CHECK(sk_model_set_second_order(NULL, 1) == SK_ERR_ARG);
  CHECK_EQ_INT(sk_model_get_second_order(m), 0);
  CHECK_EQ_INT(sk_model_get_second_order(NULL), 0);
  /* fixed step only */
  CHECK_OK(ctx, sk_model_set_second_order(m, 1));
  double y[2];
  CHECK(run(ctx, "verlet", m, 0.0, 1.0, y, NULL) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.fixed_step > 0");
  /* clearing the mark makes the model first-order again */
  CHECK_OK(ctx, sk_model_set_second_order(m, 0));
  CHECK(sk_stepper_create(ctx, "verlet", m, &s) == SK_ERR_UNSUPPORTED);
  sk_model_destroy(&m);
  /* only ODE models can be marked */
  sk_model *dae = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 2, &dae));
  CHECK(sk_model_set_second_order(dae, 1) == SK_ERR_ARG);
  sk_model_destroy(&dae);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const sk_stepper_type *ty;
  int seen = 0;
  for (size_t i = 0; (ty = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    if (!(ty->flags & SK_STEPPER_SECOND_ORDER)) {
      continue;
    }
    const int before = sk_test_failures;
    printf("%s (order %d, flags 0x%x): %s\n", ty->name, ty->order, ty->flags, ty->description);
    check_accuracy_order(ctx, ty);
    check_restore(ctx, ty);
    printf("%s: %s\n", ty->name, sk_test_failures == before ? "PASS" : "FAIL");
    seen++;
  }
  CHECK(seen >= 1);
  CHECK(sk_stepper_type_find(ctx, "verlet") != NULL);
  check_energy(ctx);
  check_bad_input(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
