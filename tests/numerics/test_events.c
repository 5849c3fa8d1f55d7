/* tests/numerics/test_events.c: event location: a thermostat with hysteresis whose switch times have a closed form, through CVODE and IDA (as an ODE and as a DAE with an algebraic heater power) */
#include "thermostat_exact.h"

/* A lumped body heated by a thermostat:
 *   T' = (Ta - T) / tau + s P / C,   s = 1 (on) or 0 (off),
 * switched off when T rises through T_high, on when it falls through T_low.
 * On each leg T relaxes exponentially to T_on = Ta + tau P / C or to Ta:
 * the closed-form switch times of thermostat_exact.h. */
#define TAU 100.0
#define TA 20.0
#define P_OVER_C 1.0
#define T_LOW 40.0
#define T_HIGH 60.0
#define T_END 1000.0

typedef struct {
  int on;
  int dae; /* y = (T, q), 0 = q - s P/C algebraic */
} thermostat;

static int rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  const thermostat *th = ud;
  f[0] = (TA - y[0]) / TAU + (th->on ? P_OVER_C : 0.0);
  return 0;
}

static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  const thermostat *th = ud;
  r[0] = yp[0] - (TA - y[0]) / TAU - y[1];
  r[1] = y[1] - (th->on ? P_OVER_C : 0.0);
  return 0;
}

/* g = T - T_high while heating (rising through it switches off), T - T_low while off. */
static int events(double t, const double *y, double *g, void *ud)
{
  (void)t;
  const thermostat *th = ud;
  g[0] = y[0] - (th->on ? T_HIGH : T_LOW);
  return 0;
}

static int action(double t, const double *y, const int *fired, void *ud)
{
  (void)t;
  (void)y;
  thermostat *th = ud;
  if (!fired) { /* the start of a run: the heater starts on */
    th->on = 1;
  } else if (fired[0]) {
    th->on = !th->on;
  }
  return 0;
}

static int initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = TA;
  return 0;
}

static int dae_initial(double t0, double *y, double *yp, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = TA;
  y[1] = 0.0; /* inconsistent on purpose: IDACalcIC finds q = P/C */
  yp[0] = yp[1] = 0.0;
  return 0;
}

static sk_model *make(sk_context *ctx, thermostat *th)
{
  static const int64_t ode_cp[] = {0, 1}, ode_ri[] = {0};
  static const int64_t dae_cp[] = {0, 1, 3}, dae_ri[] = {0, 0, 1};
  static const int dae_id[] = {1, 0};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, th->dae ? SK_MODEL_DAE : SK_MODEL_ODE, th->dae ? 2 : 1, &m));
  CHECK_OK(ctx, sk_model_set_user_data(m, th, NULL));
  if (th->dae) {
    CHECK_OK(ctx, sk_model_set_residual(m, residual));
    CHECK_OK(ctx, sk_model_set_dae_initial(m, dae_initial));
    CHECK_OK(ctx, sk_model_set_differential(m, dae_id));
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, dae_cp, dae_ri));
  } else {
    CHECK_OK(ctx, sk_model_set_rhs(m, rhs));
    CHECK_OK(ctx, sk_model_set_initial(m, initial));
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, ode_cp, ode_ri));
  }
  CHECK_OK(ctx, sk_model_set_events(m, 1, events, action));
  return m;
}

static void run(sk_context *ctx, const char *method, int dae, const char *linsol)
{
  thermostat th = {1, dae};
  sk_model *m = make(ctx, &th);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-10));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, linsol));
  double t = 0;
  for (int k = 1; k <= 10; k++) { /* output times in between do not disturb the events */
    CHECK_OK(ctx, sk_stepper_advance(s, T_END * k / 10.0, &t));
  }
  double ex[64];
  const int ne =
      thermostat_switch_times(TAU, TA + TAU * P_OVER_C, TA, T_LOW, T_HIGH, TA, T_END, ex, 64);
  const double worst = check_switch_log(s, ex, ne);
  size_t n;
  const sk_event_record *log;
  sk_stepper_get_events(s, &log, &n);
  printf("%-10s %s: %zu switches in [0, %g] (closed form %d), worst relative time error %.2e\n",
         method, dae ? "DAE" : "ODE", n, T_END, ne, worst);
  CHECK(worst < 1e-7);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  run(ctx, "cvode-bdf", 0, "klu");
  run(ctx, "cvode-adams", 0, "none");
  run(ctx, "ida-bdf", 0, "klu");
  run(ctx, "ida-bdf", 1, "klu");
  /* steppers without event location refuse a model with events */
  thermostat th = {1, 0};
  sk_model *m = make(ctx, &th);
  sk_stepper *s = NULL;
  CHECK(sk_stepper_create(ctx, "rk45", m, &s) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "does not locate events");
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
