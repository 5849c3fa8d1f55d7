/* tests/unit/test_dq_jacobian.c: linsol.dq_jacobian chooses who differences a dense or band Jacobian the model gives no values for (stiffkit's colored finite differences or the package's own), on cvode-bdf and ida-bdf */
#include "test.h"

#define PI 3.14159265358979323846

/* The heat equation u' = u_xx + u_yy on NX x NY interior points (u = 0
 * outside, unit spacing, unknown (i, j) at i + NX j): the 5-point
 * Jacobian has half-bandwidths NX and fewer colors than 2 NX + 1. */
#define NX 4
#define NY 3
#define N (NX * NY)

static double at(const double *u, int i, int j)
{
  return i < 0 || j < 0 || i >= NX || j >= NY ? 0.0 : u[i + NX * j];
}

static int rhs(double t, const double *u, double *du, void *ud)
{
  (void)t;
  (void)ud;
  for (int j = 0; j < NY; j++) {
    for (int i = 0; i < NX; i++) {
      du[i + NX * j] = at(u, i - 1, j) + at(u, i + 1, j) + at(u, i, j - 1) + at(u, i, j + 1) -
                       4.0 * at(u, i, j);
    }
  }
  return 0;
}

static int residual(double t, const double *u, const double *up, double *r, void *ud)
{
  rhs(t, u, r, ud);
  for (int k = 0; k < N; k++) {
    r[k] = up[k] - r[k];
  }
  return 0;
}

/* the slowest mode, sin(pi (i + 1) / (NX + 1)) sin(pi (j + 1) / (NY + 1)) */
static double mode(int k)
{
  return sin(PI * (k % NX + 1.0) / (NX + 1.0)) * sin(PI * (k / NX + 1.0) / (NY + 1.0));
}

static int initial(double t0, double *u, void *ud)
{
  (void)t0;
  (void)ud;
  for (int k = 0; k < N; k++) {
    u[k] = mode(k);
  }
  return 0;
}

static int dae_initial(double t0, double *u, double *up, void *ud)
{
  initial(t0, u, ud);
  return rhs(t0, u, up, ud);
}

/* the 5-point pattern, column by column, rows ascending, and its exact values */
static int64_t colptr[N + 1], rowind[5 * N];

static int neighbours(int k, int rows[5])
{
  const int i = k % NX, j = k / NX;
  int m = 0;
  if (j > 0) {
    rows[m++] = k - NX;
  }
  if (i > 0) {
    rows[m++] = k - 1;
  }
  rows[m++] = k;
  if (i < NX - 1) {
    rows[m++] = k + 1;
  }
  if (j < NY - 1) {
    rows[m++] = k + NX;
  }
  return m;
}

static void five_point(void)
{
  int64_t w = 0;
  for (int k = 0; k < N; k++) {
    colptr[k] = w;
    int rows[5];
    const int m = neighbours(k, rows);
    for (int q = 0; q < m; q++) {
      rowind[w++] = rows[q];
    }
  }
  colptr[N] = w;
}

static int jac(double t, const double *u, const double *fu, double *v, void *ud)
{
  (void)t;
  (void)u;
  (void)fu;
  (void)ud;
  int w = 0;
  for (int k = 0; k < N; k++) {
    int rows[5];
    const int m = neighbours(k, rows);
    for (int q = 0; q < m; q++) {
      v[w++] = rows[q] == k ? -4.0 : 1.0;
    }
  }
  return 0;
}

/* One run to t = 2; the stats into st. */
static void run(sk_context *ctx, sk_model *m, const char *engine, const char *linsol,
                const char *dq, sk_stats *st)
{
  sk_options *o = NULL;
  size_t nspec = 0;
  const sk_option_spec *spec = sk_stepper_options(&nspec);
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, spec, nspec));
  CHECK_OK(ctx, sk_options_set(o, "linsol.dq_jacobian", dq, NULL));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, engine, m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-9));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, linsol));
  CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
  CHECK(sk_stepper_get_dq_jacobian(s) ==
        (!strcmp(dq, "sundials") ? SK_DQ_JACOBIAN_SUNDIALS : SK_DQ_JACOBIAN_STIFFKIT));
  double t;
  CHECK_OK(ctx, sk_stepper_advance(s, 2.0, &t));
  /* exact: the mode decays with rate (2 - 2 cos(pi / (NX + 1))) + (2 - 2 cos(pi / (NY + 1)));
     checked to the run's own accuracy */
  const double lambda = 4.0 - 2.0 * cos(PI / (NX + 1.0)) - 2.0 * cos(PI / (NY + 1.0));
  for (int k = 0; k < N; k++) {
    CHECK_NEAR(sk_stepper_get_state(s)[k], exp(-lambda * 2.0) * mode(k), 0.0, 1e-4);
  }
  CHECK(sk_stepper_set_dq_jacobian(s, SK_DQ_JACOBIAN_STIFFKIT) == SK_ERR_STATE);
  CHECK_OK(ctx, sk_stepper_get_stats(s, st));
  printf("%s %s %s: %lld Jacobians, %lld difference-quotient calls\n", engine, linsol, dq,
         (long long)st->jac_evals, (long long)st->rhs_evals_dq);
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  five_point();
  sk_model *ode = NULL, *dae = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, N, &ode));
  CHECK_OK(ctx, sk_model_set_rhs(ode, rhs));
  CHECK_OK(ctx, sk_model_set_initial(ode, initial));
  CHECK_OK(ctx, sk_model_set_jac_pattern(ode, colptr, rowind));
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, N, &dae));
  CHECK_OK(ctx, sk_model_set_residual(dae, residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(dae, dae_initial));
  CHECK_OK(ctx, sk_model_set_jac_pattern(dae, colptr, rowind));

  /* calls per Jacobian: the pattern's colors (stiffkit), N columns (the
     package's dense difference quotients), ml + mu + 1 = 2 NX + 1 (its band
     ones); klu: no sparse difference quotients in the package, stiffkit's */
  const struct {
    sk_model *m;
    const char *engine, *linsol;
    int64_t sundials; /* 0: the colors */
  } cases[] = {
      {ode, "cvode-bdf", "dense", N}, {ode, "cvode-bdf", "band", 2 * NX + 1},
      {dae, "ida-bdf", "dense", N},   {dae, "ida-bdf", "band", 2 * NX + 1},
      {dae, "ida-bdf", "klu", 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    sk_stats a, b;
    run(ctx, cases[k].m, cases[k].engine, cases[k].linsol, "stiffkit", &a);
    run(ctx, cases[k].m, cases[k].engine, cases[k].linsol, "sundials", &b);
    const int64_t nc = sk_model_get_jac_colors(cases[k].m);
    CHECK(nc > 0 && nc < 2 * NX + 1);
    CHECK(a.jac_evals > 0 && b.jac_evals > 0);
    CHECK_EQ_INT(a.rhs_evals_dq, nc * a.jac_evals);
    CHECK_EQ_INT(b.rhs_evals_dq, (cases[k].sundials ? cases[k].sundials : nc) * b.jac_evals);
  }

  /* a model's own values are used whatever the choice: no difference quotients */
  CHECK_OK(ctx, sk_model_set_jac_values(ode, jac));
  for (int k = 0; k < 2; k++) {
    sk_stats st;
    run(ctx, ode, "cvode-bdf", k ? "band" : "dense", "sundials", &st);
    CHECK(st.jac_evals > 0);
    CHECK_EQ_INT(st.rhs_evals_dq, 0);
  }
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", ode, &s));
  CHECK(sk_stepper_set_dq_jacobian(s, (sk_dq_jacobian_mode)7) == SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "stiffkit or sundials");
  CHECK(sk_stepper_get_dq_jacobian(s) == SK_DQ_JACOBIAN_STIFFKIT); /* the default, unchanged */
  sk_stepper_destroy(&s);

  sk_model_destroy(&ode);
  sk_model_destroy(&dae);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
