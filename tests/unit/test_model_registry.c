/* tests/unit/test_model_registry.c: the model-type registry: a user type added with one table and one registration call is configured, built and integrated like a built-in one; lookups, located errors and refusals */
#include <stdlib.h>

#include "models/grid_block.h"
#include "test.h"

/* ---- a model type of its own: y' = -rate y, y(0) = 1, exact y = exp(-rate t) ---- */

static const sk_option_spec decay_table[] = {
    {"model.decay.rate", SK_OPT_REAL, "2.0", 1e-12, 1e6, NULL, "decay rate (> 0)"},
};

static const sk_option_spec *decay_options(size_t *n)
{
  *n = sizeof decay_table / sizeof decay_table[0];
  return decay_table;
}

static int decay_rhs(double t, const double *y, double *ydot, void *user_data)
{
  (void)t;
  ydot[0] = -*(const double *)user_data * y[0];
  return 0;
}

static int decay_initial(double t0, double *y0, void *user_data)
{
  (void)t0;
  (void)user_data;
  y0[0] = 1.0;
  return 0;
}

static int decay_exact(double t, double *y, void *user_data)
{
  y[0] = exp(-*(const double *)user_data * t);
  return 0;
}

static sk_status decay_create(sk_context *ctx, sk_options *opts, sk_model **model)
{
  double *rate = malloc(sizeof *rate);
  if (!rate) {
    return SK_ERR_NOMEM;
  }
  sk_status st = sk_options_get_real(opts, "model.decay.rate", rate);
  if (st == SK_OK) {
    st = sk_model_create(ctx, SK_MODEL_ODE, 1, model);
  }
  if (st != SK_OK) {
    free(rate);
    return st;
  }
  sk_model_set_name(*model, "decay");
  sk_model_set_user_data(*model, rate, free);
  sk_model_set_rhs(*model, decay_rhs);
  sk_model_set_initial(*model, decay_initial);
  sk_model_set_exact(*model, decay_exact);
  return SK_OK;
}

static const sk_model_type decay_type = {.name = "decay",
                                         .description = "scalar decay y' = -rate y",
                                         .driver = SK_MODEL_DRIVER_STEPPER,
                                         .options = decay_options,
                                         .create = decay_create};

/* ---- the tests -------------------------------------------------------------------- */

static sk_options *model_options(sk_context *ctx)
{
  sk_options *o = NULL;
  size_t n;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  const sk_option_spec *t = sk_stepper_options(&n);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  CHECK_OK(ctx, sk_model_register_options(o));
  return o;
}

/* The registered type is built from its keys and integrated; its answer is the exact one. */
static void test_user_type_end_to_end(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK_OK(ctx, sk_model_type_register(ctx, &decay_type));
  CHECK(sk_model_type_find(ctx, "decay") == &decay_type);
  CHECK(sk_model_type_find(NULL, "decay") == NULL); /* registered in ctx only */
  sk_options *o = model_options(ctx);
  CHECK(sk_options_is_key(o, "model.decay.rate"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.type=decay"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.decay.rate=3"));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  CHECK(m != NULL && sk_model_get_n(m) == 1);
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-14));
  CHECK_OK(ctx, sk_stepper_setup(s));
  double t = 0;
  CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
  /* exact solution exp(-3 t) at t = 1, to the tolerance */
  CHECK_NEAR(sk_stepper_get_state(s)[0], exp(-3.0), 1e-7, 1e-12);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
  sk_context_destroy(&ctx);
}

/* Every built-in type is listed and found by its name; the generic keys are registered. */
static void test_builtin_types(void)
{
  const char *names[] = {"diffusion", "brusselator", "problem",   "plugin", "linear",
                         "network",   "bvp",         "multibody", "formula"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    const sk_model_type *t = sk_model_type_find(NULL, names[k]);
    CHECK(t != NULL && sk_model_type_list(NULL, k) == t);
    CHECK(t && (t->driver != SK_MODEL_DRIVER_STEPPER || t->create != NULL));
    /* a type says it is distributable exactly when it has block kernels (the distributed
       runs evaluate it block by block: models/grid_block.h) */
    CHECK(t && !(t->flags & SK_MODEL_TYPE_DISTRIBUTABLE) == !sk__block_kernels_find(names[k]));
  }
  CHECK(sk_model_type_list(NULL, sizeof names / sizeof names[0]) == NULL);
  CHECK(sk_model_type_find(NULL, "difusion") == NULL);
  CHECK(sk_model_type_find(NULL, NULL) == NULL);
  CHECK(sk_model_type_find(NULL, "diffusion")->flags & SK_MODEL_TYPE_DISTRIBUTABLE);
  CHECK(sk_model_type_find(NULL, "plugin")->flags & SK_MODEL_TYPE_DECLARES_KEYS);
  CHECK(sk_model_type_find(NULL, "formula")->flags & SK_MODEL_TYPE_DECLARES_KEYS);
}

/* Refused registrations and lookups name the cause. */
static void test_refusals(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK_EQ_INT(sk_model_type_register(ctx, NULL), SK_ERR_ARG);
  const sk_model_type taken = {.name = "diffusion", .create = decay_create};
  CHECK_EQ_INT(sk_model_type_register(ctx, &taken), SK_ERR_ARG);
  CHECK(strstr(sk_context_get_error(ctx)->message, "already registered") != NULL);
  const sk_model_type no_create = {.name = "nocreate"};
  CHECK_EQ_INT(sk_model_type_register(ctx, &no_create), SK_ERR_ARG);
  CHECK(strstr(sk_context_get_error(ctx)->message, "needs create") != NULL);

  sk_options *o = model_options(ctx);
  const sk_option_origin origin = {"case.yaml", 4, 9, 0};
  CHECK_OK(ctx, sk_options_set(o, "model.type", "difusion", &origin));
  sk_model *m = NULL;
  CHECK_EQ_INT(sk_model_from_options(ctx, o, &m), SK_ERR_INPUT);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK(strstr(msg, "case.yaml:4:9") != NULL && strstr(msg, "difusion") != NULL &&
        strstr(msg, "valid model types: diffusion, brusselator") != NULL);
  CHECK(m == NULL);
  /* a boundary-value problem is no model for a stepper */
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.type=bvp"));
  CHECK_EQ_INT(sk_model_from_options(ctx, o, &m), SK_ERR_UNSUPPORTED);
  CHECK(strstr(sk_context_get_error(ctx)->message, "boundary-value") != NULL);
  /* a key that no table declared is refused before the model is built */
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.type=diffusion"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.parameters.k=1"));
  CHECK(sk_model_from_options(ctx, o, &m) != SK_OK && m == NULL);
  sk_options_destroy(&o);
  sk_context_destroy(&ctx);
}

int main(void)
{
  test_user_type_end_to_end();
  test_builtin_types();
  test_refusals();
  TEST_RETURN();
}
