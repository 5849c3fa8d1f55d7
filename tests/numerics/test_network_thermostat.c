/* tests/numerics/test_network_thermostat.c: a netlist thermostat (S element) whose switch times have a closed form, as an ODE network (cvode-bdf, ida-bdf) and with a massless node (ida-bdf), plus its energy balance and bad thermostat lines */
#include "thermostat_exact.h"

/* A body (C = 100 J/K) tied to a 20-degree ambient through 1 K/W (tau = 100 s),
 * with a 100 W heater switched by a thermostat on the body: off when it rises
 * through 60, on when it falls through 40, starting on at 20. On each leg the
 * body relaxes exponentially to 120 (heating) or 20 (off), so the switch times
 * are t1 = 100 ln(100/60), then alternately 100 ln(40/20) of cooling and
 * 100 ln(80/60) of heating -- the same closed form as tests/numerics/test_events.c. */
static const char *const ode_net = "* thermostat on a lumped body\n"
                                   "Vamb amb 0 20\n"
                                   "Cbody body 0 100\n"
                                   "Rloss body amb 1\n"
                                   "Sheat 0 body body 40 60 q=100 on=1\n"
                                   ".ic body=20\n"
                                   ".end\n";

/* The same with the loss split by a massless node (0.4 + 0.6 K/W): an index-1 DAE. */
static const char *const dae_net = "Vamb amb 0 20\n"
                                   "Cbody body 0 100\n"
                                   "R1 body mid 0.4\n"
                                   "R2 mid amb 0.6\n"
                                   "Sheat 0 body body 40 60 q=100 on=1\n"
                                   ".ic body=20\n"
                                   ".option tinit=20\n"
                                   ".end\n";

#define T_END 1000.0

static void run(sk_context *ctx, const char *text, const char *method)
{
  sk_network_params p;
  sk_network_params_default(&p);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_network_create_from_string(ctx, text, "thermostat.net", &p, &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(sk_model_get_nevents(m), 1);
  CHECK(strcmp(sk_network_event_name(m, 0), "Sheat") == 0);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-10));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, T_END, &t));
  double ex[64];
  const int ne = thermostat_switch_times(100.0, 120.0, 20.0, 40.0, 60.0, 20.0, T_END, ex, 64);
  const double worst = check_switch_log(s, ex, ne);
  size_t n;
  const sk_event_record *log;
  sk_stepper_get_events(s, &log, &n);
  sk_network_energy e;
  CHECK_OK(ctx, sk_network_energy_balance(m, sk_stepper_get_state(s), &e));
  printf("%-9s %s: %zu switches (closed form %d), worst relative time error %.2e, energy "
         "imbalance %.1e\n",
         method, sk_model_get_kind(m) == SK_MODEL_DAE ? "DAE" : "ODE", n, ne, worst, e.relative);
  CHECK(worst < 1e-7);
  CHECK(e.relative < 1e-8); /* the heater's switched flow is accounted as injected heat */
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

static void bad(sk_context *ctx, const char *line, const char *message)
{
  char text[256];
  snprintf(text, sizeof text, "Cb b 0 1\nRb b 0 1\n%s\n", line);
  sk_network_params p;
  sk_network_params_default(&p);
  sk_model *m = NULL;
  CHECK(sk_network_create_from_string(ctx, text, "bad.net", &p, &m) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, message);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  run(ctx, ode_net, "cvode-bdf");
  run(ctx, ode_net, "ida-bdf");
  run(ctx, dae_net, "ida-bdf");
  bad(ctx, "S1 0 b b 60 40 q=1",
      "bad.net:3:10: thermostat: T_low (60) must be below T_high (40)");
  bad(ctx, "S1 0 b b 40 60", "bad.net:3:8: thermostat: expected sense_node T_low T_high");
  bad(ctx, "S1 0 b b 40 60 q=1 g=2", "give exactly one of g=");
  bad(ctx, "S1 0 b b 40 60 q=1 cool=2", "cool= and on= take 0 or 1");
  bad(ctx, "S1 0 b b 40 60 w=1", "unknown keyword 'w' (expected g, q, cool, on)");
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
