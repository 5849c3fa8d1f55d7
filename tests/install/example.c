/* example.c: a user ODE solved through the installed stiffkit API (Prothero-Robinson, exact y = cos t) */
#include <math.h>
#include <stdio.h>

#include <stiffkit/stiffkit.h>

/* y_i' = -lambda_i (y_i - cos t) - sin t, y_i(0) = 1; exact y_i(t) = cos t.
 * lambda = 1e3 and 1e6: stiff, so an implicit method is needed. */
static const double lambda[2] = {1e3, 1e6};

static int rhs(double t, const double *y, double *ydot, void *user_data)
{
  (void)user_data;
  for (int i = 0; i < 2; i++) {
    ydot[i] = -lambda[i] * (y[i] - cos(t)) - sin(t);
  }
  return 0; /* 0 ok, > 0 recoverable, < 0 fatal */
}

static int exact(double t, double *y, void *user_data)
{
  (void)user_data;
  y[0] = y[1] = cos(t);
  return 0;
}

int main(void)
{
  sk_context *ctx = NULL;
  sk_model *model = NULL;
  sk_stepper *solver = NULL;
  double t = 0.0;
  sk_status st = sk_context_create(&ctx);
  if (st == SK_OK) {
    st = sk_model_create(ctx, SK_MODEL_ODE, 2, &model);
  }
  if (st == SK_OK) {
    sk_model_set_rhs(model, rhs);
    sk_model_set_exact(model, exact); /* also gives the initial state y(0) */
    st = sk_stepper_create(ctx, "cvode-bdf", model, &solver);
  }
  if (st == SK_OK) {
    sk_stepper_set_tolerances(solver, 1e-8, 1e-10);
    sk_stepper_set_linear_solver(solver, "dense");
    st = sk_stepper_advance(solver, 10.0, &t);
  }
  if (st != SK_OK) {
    char msg[2048];
    sk_error_format(sk_context_get_error(ctx), 1, msg, sizeof msg);
    fprintf(stderr, "example: %s\n", msg);
  } else {
    const double *y = sk_stepper_get_state(solver);
    sk_stats stats;
    sk_stepper_get_stats(solver, &stats);
    sk_stats_print_table(&stats, stdout);
    printf("y(10) = %.10f %.10f, exact %.10f, error %.2e\n", y[0], y[1], cos(10.0),
           fmax(fabs(y[0] - cos(10.0)), fabs(y[1] - cos(10.0))));
    st = fabs(y[1] - cos(10.0)) < 1e-6 ? SK_OK : SK_ERR_SOLVER;
  }
  sk_stepper_destroy(&solver);
  sk_model_destroy(&model);
  sk_context_destroy(&ctx);
  return st == SK_OK ? 0 : 1;
}
