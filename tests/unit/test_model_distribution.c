/* tests/unit/test_model_distribution.c: the seam of a distributed model (core/model_dist.h) on one process: cvode-bdf integrates it through the distribution's vectors, right-hand side, preconditioner and agreement (y' = -k y against its exact solution), the other stepper types and the direct linear solvers refuse it, and a failure the agreement reports stops the run */
#include <math.h>
#include <string.h>

#include <nvector/nvector_serial.h>

#include "core/model_dist.h"
#include "test.h"

#define N 50

/* the counters of the distribution's ops, and a status the agreement returns from a step on */
typedef struct {
  int vectors, rhs, prec_setups, prec_solves, agreements, maxima;
  int fail_from_agreement; /* > 0: the agreement of that call and later ones is a failure */
  double rate[N];
} fake;

static void *make_vector(void *data, double *buf, int64_t n, void *sunctx, int fast)
{
  (void)fast;
  fake *f = data;
  f->vectors++;
  return N_VMake_Serial((sunindextype)n, buf, (SUNContext)sunctx);
}

static sk_status rhs(void *data, double t, const double *y, double *out)
{
  (void)t;
  fake *f = data;
  f->rhs++;
  for (int i = 0; i < N; i++) {
    out[i] = -f->rate[i] * y[i];
  }
  return SK_OK;
}

/* the exact preconditioner of a diagonal J: P = I + gamma diag(rate) */
static double gamma_held;
static sk_status prec_setup(void *data, double t, const double *y, double gamma, int jac_current)
{
  (void)t;
  (void)y;
  (void)jac_current;
  fake *f = data;
  f->prec_setups++;
  gamma_held = gamma;
  return SK_OK;
}

static sk_status prec_solve(void *data, const double *r, double *z)
{
  fake *f = data;
  f->prec_solves++;
  for (int i = 0; i < N; i++) {
    z[i] = r[i] / (1.0 + gamma_held * f->rate[i]);
  }
  return SK_OK;
}

static sk_status unused_bbd(void *data, double t, const double *y, double *g)
{
  (void)data;
  (void)t;
  (void)y;
  (void)g;
  return SK_ERR_STATE;
}

static sk_status unused_exchange(void *data, double t, const double *y)
{
  (void)data;
  (void)t;
  (void)y;
  return SK_ERR_STATE;
}

static sk_status agree(void *data, sk_status st)
{
  fake *f = data;
  f->agreements++;
  if (f->fail_from_agreement > 0 && f->agreements >= f->fail_from_agreement) {
    return SK_ERR_SOLVER; /* as another rank's failure reaches this one */
  }
  return st;
}

static double maximum(void *data, double local)
{
  fake *f = data;
  f->maxima++;
  return local;
}

static int64_t global_index(void *data, int64_t i)
{
  (void)data;
  return 1000 + i;
}

static int initial(double t0, double *y0, void *data)
{
  (void)t0;
  (void)data;
  for (int i = 0; i < N; i++) {
    y0[i] = 1.0;
  }
  return 0;
}

/* A model of N states whose engine-facing ops are the fake distribution's. */
static sk_model *fake_model(sk_context *ctx, fake *f, int with_prec)
{
  memset(f, 0, sizeof *f);
  for (int i = 0; i < N; i++) {
    f->rate[i] = pow(10.0, 4.0 * i / (N - 1)); /* 1 .. 1e4: stiff */
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, N, &m));
  CHECK_OK(ctx, sk_model_set_name(m, "fake-distributed"));
  CHECK_OK(ctx, sk_model_set_user_data(m, f, NULL));
  CHECK_OK(ctx, sk_model_set_initial(m, initial));
  sk__model_distribution d = {.data = f,
                              .make_vector = make_vector,
                              .rhs = rhs,
                              .bbd_band = 0,
                              .bbd_local = unused_bbd,
                              .bbd_exchange = unused_exchange,
                              .agree = agree,
                              .max = maximum,
                              .global_index = global_index};
  if (with_prec) {
    d.prec_setup = prec_setup;
    d.prec_solve = prec_solve;
  }
  sk__model_set_distribution(m, &d);
  CHECK(sk__model_get_distribution(m) != NULL);
  CHECK(sk__model_global_index(m, 7) == 1007);
  CHECK(sk_model_has_preconditioner(m) == with_prec);
  return m;
}

/* cvode-bdf with spgmr and the model's preconditioner, through the distribution's ops only. */
static void integrates(sk_context *ctx)
{
  fake f;
  sk_model *m = fake_model(ctx, &f, 1);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-8, 1e-12));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "spgmr"));
  CHECK_OK(ctx, sk_stepper_set_preconditioner(s, "model"));
  double t = 0.0;
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  const double *y = sk_stepper_get_state(s);
  double worst = 0.0;
  for (int i = 0; i < N; i++) { /* exact: e^{-k t}; the fast modes are below atol */
    worst = fmax(worst, fabs(y[i] - exp(-f.rate[i])));
  }
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  printf("distributed seam: %lld steps, %d vector(s) made, %d RHS, %d preconditioner setups, "
         "%d solves, %d agreements, %d maxima, max error %.2e\n",
         (long long)st.steps, f.vectors, f.rhs, f.prec_setups, f.prec_solves, f.agreements,
         f.maxima, worst);
  CHECK(worst < 1e-6);
  CHECK(f.vectors == 1); /* the template vector; CVODE clones it */
  CHECK(f.rhs == sk_model_get_rhs_evals(m));
  CHECK(f.prec_setups > 0 && f.prec_setups == st.prec_setups);
  CHECK(f.prec_solves > 0 && f.prec_solves == st.prec_solves);
  CHECK(f.maxima == 1);                /* the blow-up check's scale of the whole y0 */
  CHECK(f.agreements == st.steps + 1); /* the setup, then every step's check */
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* A failure agreed after a step (another rank's blow-up) stops this rank's run too. */
static void agreed_failure_stops(sk_context *ctx)
{
  fake f;
  sk_model *m = fake_model(ctx, &f, 0);
  f.fail_from_agreement = 6; /* the setup and 4 steps pass */
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "spgmr"));
  CHECK_OK(ctx, sk_stepper_set_preconditioner(s, "none"));
  double t = 0.0;
  CHECK_EQ_INT(sk_stepper_advance(s, 1.0, &t), SK_ERR_SOLVER);
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  CHECK(st.steps == 5);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* Every other stepper type, and the direct linear solvers of cvode-bdf, refuse it. */
static void others_refuse(sk_context *ctx)
{
  fake f;
  sk_model *m = fake_model(ctx, &f, 0);
  static const char *const others[] = {"rk45", "bdf2", "cvode-adams", "ida-bdf"};
  for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
    sk_stepper *s = NULL;
    CHECK_EQ_INT(sk_stepper_create(ctx, others[k], m, &s), SK_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "distributed over MPI ranks");
    CHECK(s == NULL);
  }
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_EQ_INT(sk_stepper_setup(s), SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "a Krylov solver");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  integrates(ctx);
  agreed_failure_stops(ctx);
  others_refuse(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
