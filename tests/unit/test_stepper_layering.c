/* tests/unit/test_stepper_layering.c: sk_stepper_set_from_options never clobbers earlier setter calls; rtol = 0; solver.atol_list; vector kernels on/off give the same steps */
#include "test.h"

/* y' = -lambda y (3 components), y(t0) = y0: exact y(t) = y0 exp(-lambda (t - t0)). */
static const double lambda[3] = {1.0, 10.0, 100.0};

static int decay_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    ydot[i] = -lambda[i] * y[i];
  }
  return 0;
}

/* Components named as two fields: u[0], v[1], u[2]. */
static void uv_name(int64_t i, char *buf, size_t len, void *ud)
{
  (void)ud;
  snprintf(buf, len, "%s[%lld]", i % 2 ? "v" : "u", (long long)i);
}

static int decay_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)ud;
  for (int i = 0; i < 3; i++) {
    v[i] = -lambda[i];
  }
  return 0;
}

static sk_model *make_model(sk_context *ctx)
{
  static const int64_t cp[] = {0, 1, 2, 3};
  static const int64_t ri[] = {0, 1, 2};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_name(m, "decay");
  sk_model_set_rhs(m, decay_rhs);
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  sk_model_set_jac_values(m, decay_jac);
  return m;
}

static sk_options *make_options(sk_context *ctx)
{
  sk_options *o = NULL;
  size_t n = 0;
  const sk_option_spec *t = sk_stepper_options(&n);
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, t, n));
  return o;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = make_model(ctx);
  const double y0[3] = {2.0, 3.0, 4.0};

  /* setters first, then a database that sets one unrelated key: t0, y0 and
     the tolerances stay as set (before this, t0 went back to 0 and rtol to 1e-6) */
  {
    sk_options *o = make_options(ctx);
    CHECK_OK(ctx, sk_options_set(o, "solver.fast_vector_ops", "off", NULL));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_initial(s, 5.0, y0));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-9, 1e-12));
    CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
    CHECK(sk_stepper_get_t0(s) == 5.0);
    CHECK(sk_stepper_get_rtol(s) == 1e-9);
    CHECK(sk_stepper_get_atol(s) == 1e-12);
    CHECK(sk_stepper_get_state(s)[2] == 4.0);
    CHECK_STR_CONTAINS(sk_stepper_get_vector_kernels(s), "off");
    double t;
    CHECK_OK(ctx, sk_stepper_advance(s, 5.5, &t));
    CHECK(t == 5.5);
    /* exact: y0 exp(-lambda (t - t0)) from t0 = 5 */
    for (int i = 0; i < 3; i++) {
      CHECK_NEAR(sk_stepper_get_state(s)[i], y0[i] * exp(-lambda[i] * 0.5), 1e-6, 1e-10);
    }
    CHECK_STR_CONTAINS(sk_stepper_get_vector_kernels(s), "sundials");
    sk_stepper_destroy(&s);
    sk_options_destroy(&o);
  }

  /* a database that does set the keys overrides the earlier setters, and a
     setter called after it overrides the database */
  {
    sk_options *o = make_options(ctx);
    CHECK_OK(ctx, sk_options_set(o, "solver.rtol", "1e-4", NULL));
    CHECK_OK(ctx, sk_options_set(o, "solver.t0", "1.5", NULL));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-9, 1e-12));
    CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
    CHECK(sk_stepper_get_rtol(s) == 1e-4);
    CHECK(sk_stepper_get_atol(s) == 1e-12); /* not in the database: kept */
    CHECK(sk_stepper_get_t0(s) == 1.5);
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-7, 1e-10));
    CHECK(sk_stepper_get_rtol(s) == 1e-7);
    sk_stepper_destroy(&s);
    sk_options_destroy(&o);
  }

  /* rtol = 0: pure absolute control, as SUNDIALS allows (cvAdvDiff_bnd) */
  {
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 0.0, 1e-8));
    double t;
    CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
    for (int i = 0; i < 3; i++) { /* global error a few hundred atol at most */
      CHECK_NEAR(sk_stepper_get_state(s)[i], y0[i] * exp(-lambda[i]), 0, 1e-5);
    }
    sk_stepper_destroy(&s);
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK(sk_stepper_set_tolerances(s, -1e-3, 1e-8) == SK_ERR_ARG);
    CHECK(sk_stepper_set_tolerances(s, 1.5, 1e-8) == SK_ERR_ARG);
    CHECK(sk_stepper_set_tolerances(s, 0.0, 0.0) == SK_ERR_ARG);
    sk_stepper_destroy(&s);
  }

  /* solver.atol_list: one per component; wrong length refused with both sizes */
  {
    sk_options *o = make_options(ctx);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.atol_list=[1e-8, 1e-14, 1e-6]"));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
    const double *av = sk_stepper_get_atol_vector(s);
    CHECK(av != NULL && av[1] == 1e-14 && av[2] == 1e-6);
    sk_stepper_destroy(&s);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.atol_list=[1e-8, 1e-14]"));
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK(sk_stepper_set_from_options(s, o) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.atol_list has 2 values");
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "3 components");
    sk_stepper_destroy(&s);
    sk_options_destroy(&o);
  }

  /* solver.atol_field: per named field (components named u[0], v[1], u[2]
     here); the vector handed to the engine equals the per-field values,
     and the run matches the run with the equivalent atol_list bitwise;
     an unknown field names itself and the model's fields */
  {
    sk_model_set_component_name(m, uv_name);
    double y[2][3];
    const char *set[2] = {"solver.atol_field=u=1e-8, v=1e-12",
                          "solver.atol_list=[1e-8, 1e-12, 1e-8]"};
    for (int k = 0; k < 2; k++) {
      sk_options *o = make_options(ctx);
      CHECK_OK(ctx, sk_options_set_assignment(o, set[k]));
      sk_stepper *s = NULL;
      CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
      CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
      CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
      const double *av = sk_stepper_get_atol_vector(s);
      CHECK(av != NULL && av[0] == 1e-8 && av[1] == 1e-12 && av[2] == 1e-8);
      double tret = 0;
      CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &tret));
      memcpy(y[k], sk_stepper_get_state(s), sizeof y[k]);
      sk_stepper_destroy(&s);
      sk_options_destroy(&o);
    }
    CHECK(memcmp(y[0], y[1], sizeof y[0]) == 0);
    sk_options *o = make_options(ctx);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.atol_field=w=1e-8"));
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK(sk_stepper_set_from_options(s, o) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                       "solver.atol_field: model 'decay' has no field 'w' (its fields: u, v)");
    sk_stepper_destroy(&s);
    CHECK_OK(ctx, sk_options_set_assignment(o, "solver.atol_field=u=-1"));
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK(sk_stepper_set_from_options(s, o) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                       "solver.atol_field: cannot read 'u=-1'");
    sk_stepper_destroy(&s);
    sk_options_destroy(&o);
    sk_model_set_component_name(m, NULL);
  }

  /* vector kernels: stiffkit's and the packaged ones take the same steps to
     the same bits (the kernels' contract: src/backends/nvector_fast.c) */
  {
    sk_stats st[2];
    double y[2][3];
    for (int k = 0; k < 2; k++) {
      sk_stepper *s = NULL;
      CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
      CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, y0));
      CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-14));
      CHECK_OK(ctx, sk_stepper_set_vector_kernels(s, k ? SK_VECTOR_KERNELS_OFF
                                                       : SK_VECTOR_KERNELS_ON));
      double t;
      CHECK_OK(ctx, sk_stepper_advance(s, 3.0, &t));
      CHECK_OK(ctx, sk_stepper_get_stats(s, &st[k]));
      memcpy(y[k], sk_stepper_get_state(s), sizeof y[k]);
      CHECK_STR_CONTAINS(sk_stepper_get_vector_kernels(s), k ? "sundials" : "stiffkit");
      sk_stepper_destroy(&s);
    }
    CHECK_EQ_INT(st[0].steps, st[1].steps);
    CHECK_EQ_INT(st[0].rhs_evals, st[1].rhs_evals);
    CHECK_EQ_INT(st[0].newton_iters, st[1].newton_iters);
    CHECK(memcmp(y[0], y[1], sizeof y[0]) == 0);
  }

  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}
