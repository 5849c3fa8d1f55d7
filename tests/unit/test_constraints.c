/* tests/unit/test_constraints.c: sk_model_set_constraints and solver.constraints: codes checked, honoured by CVODE, IDA and KINSOL, refused by the reference steppers */
#include "test.h"

/* y' = -lambda y: the exact solution y0 exp(-lambda t) is positive for all t */
static const double lambda[3] = {1.0, 10.0, 1000.0};

static int decay_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    ydot[i] = -lambda[i] * y[i];
  }
  return 0;
}

/* f(u) = u^3 - u: the exact roots -1, 0 and 1 */
static int cubic_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = u[0] * u[0] * u[0] - u[0];
  return 0;
}

/* The smallest component at the end of every internal step up to t = 20 with
 * loose tolerances, where BDF and Adams undershoot zero unless constrained
 * (SUNDIALS constrains the steps; values interpolated between them are not). */
static double min_over_run(sk_context *ctx, sk_model *m, const char *method)
{
  const double y0[3] = {1.0, 1.0, 1.0};
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-2, 1e-1));
  double lo = 1.0, t = 0.0;
  while (t < 20.0) {
    CHECK_OK(ctx, sk_stepper_step(s, 20.0, &t));
    for (int i = 0; i < 3; i++) {
      lo = fmin(lo, sk_stepper_get_state(s)[i]);
    }
  }
  sk_stepper_destroy(&s);
  return lo;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_name(m, "decay");
  sk_model_set_rhs(m, decay_rhs);

  /* codes outside {-2, ..., 2} refused, naming the component and the value */
  const int bad[3] = {0, 1, 3};
  CHECK(sk_model_set_constraints(m, bad) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "component 2: constraint 3");
  CHECK(sk_model_get_constraints(m) == NULL);
  const int zero[3] = {0, 0, 0};
  CHECK_OK(ctx, sk_model_set_constraints(m, zero));
  CHECK(sk_model_get_constraints(m) == NULL); /* all zero = none */

  /* CVODE: the same run with and without constraints >= 0. Unconstrained the
     step values dip below zero (-0.03 and -0.1 measured: the check can fail);
     constrained they do not, up to the round-off size violation CVODE accepts
     (measured -1.7e-18 for Adams). IDA accepts violations up to its Newton
     tolerance in the weighted norm (idaNls), so there the test is below. */
  static const char *const methods[] = {"cvode-bdf", "cvode-adams"};
  const int nonneg[3] = {1, 1, 1};
  for (int k = 0; k < 2; k++) {
    CHECK_OK(ctx, sk_model_set_constraints(m, NULL));
    const double free_min = min_over_run(ctx, m, methods[k]);
    CHECK_OK(ctx, sk_model_set_constraints(m, nonneg));
    const double con_min = min_over_run(ctx, m, methods[k]);
    printf("%s: min y unconstrained %.3g, constrained %.3g\n", methods[k], free_min, con_min);
    CHECK(free_min < -1e-3);
    CHECK(con_min >= -1e-15);
  }

  /* every engine that honours constraints refuses an initial state that violates
     them (y0 = 1 with y <= 0): the constraints reach CVODE and IDA */
  static const char *const all[] = {"cvode-bdf", "cvode-adams", "ida-bdf"};
  const int nonpos[3] = {-1, 0, 0};
  CHECK_OK(ctx, sk_model_set_constraints(m, nonpos));
  for (int k = 0; k < 3; k++) {
    const double y0[3] = {1.0, 1.0, 1.0};
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, all[k], m, &s));
    CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
    double t;
    CHECK(sk_stepper_advance(s, 1.0, &t) != SK_OK);
    printf("%s: %s\n", all[k], sk_context_get_error(ctx)->message);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                       "violates its constraints: component 0 (y[0]) = 1, constraint -1 (<= 0)");
    sk_stepper_destroy(&s);
  }
  CHECK_OK(ctx, sk_model_set_constraints(m, nonneg));

  /* a reference stepper refuses a constrained model, naming the engines that honour them */
  {
    sk_stepper *s = NULL;
    const double y0[3] = {1.0, 1.0, 1.0};
    CHECK_OK(ctx, sk_stepper_create(ctx, "bdf2", m, &s));
    CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
    double t;
    CHECK(sk_stepper_advance(s, 1.0, &t) == SK_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "cvode-bdf, cvode-adams or ida-bdf");
    sk_stepper_destroy(&s);
  }

  /* solver.constraints: one value for all, n values, a wrong length, a bad code */
  {
    sk_options *o = NULL;
    size_t n = 0;
    const sk_option_spec *t = sk_stepper_options(&n);
    CHECK_OK(ctx, sk_options_create(ctx, &o));
    CHECK_OK(ctx, sk_options_register(o, t, n));
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.constraints=2"));
    CHECK_OK(ctx, sk_model_constraints_from_options(m, o));
    CHECK(sk_model_get_constraints(m)[0] == 2 && sk_model_get_constraints(m)[2] == 2);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.constraints=[0, -1, 1]"));
    CHECK_OK(ctx, sk_model_constraints_from_options(m, o));
    CHECK(sk_model_get_constraints(m)[1] == -1);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.constraints=[1, 1]"));
    CHECK(sk_model_constraints_from_options(m, o) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "has 2 values");
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.constraints=[1, -3, 1]"));
    CHECK(sk_model_constraints_from_options(m, o) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.constraints[1] = -3");
    sk_options_destroy(&o);
  }
  sk_model_destroy(&m);

  /* KINSOL: from the guess 0.5 the first Newton step lands on the exact root -1
     (u - f/f' = 0.5 - 1.5); with u >= 0 (code 1) KINSOL shortens its steps to stay
     non-negative and must end on one of the non-negative roots, 0 or 1 */
  {
    CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 1, &m));
    sk_model_set_name(m, "cubic");
    sk_model_set_rhs(m, cubic_rhs);
    sk_steady_settings set;
    sk_steady_settings_default(&set);
    snprintf(set.linsol, sizeof set.linsol, "dense");
    double u = 0.5;
    CHECK_OK(ctx, sk_steady_solve(ctx, m, &set, &u, NULL));
    CHECK_NEAR(u, -1.0, 0, 1e-8);
    const int nonneg1 = 1;
    CHECK_OK(ctx, sk_model_set_constraints(m, &nonneg1));
    u = 0.5;
    CHECK_OK(ctx, sk_steady_solve(ctx, m, &set, &u, NULL));
    printf("KINSOL: unconstrained -1, constrained %.17g\n", u);
    CHECK(u >= 0.0);
    CHECK(fabs(u) <= 1e-8 || fabs(u - 1.0) <= 1e-8);
    sk_model_destroy(&m);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
