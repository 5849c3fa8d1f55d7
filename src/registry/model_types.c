/* src/registry/model_types.c: the built-in model types, run-time registration of user types, and the model.type lookup */
#include <stdio.h>
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "core/stop.h"
#include "registry/type_names.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/model_type.h"

extern const sk_model_type sk__model_type_diffusion;
extern const sk_model_type sk__model_type_brusselator;
extern const sk_model_type sk__model_type_problem;
extern const sk_model_type sk__model_type_plugin;
extern const sk_model_type sk__model_type_linear;
extern const sk_model_type sk__model_type_network;
extern const sk_model_type sk__model_type_bvp;
extern const sk_model_type sk__model_type_multibody;
extern const sk_model_type sk__model_type_formula;

static const sk_model_type *const builtin_types[] = {
    &sk__model_type_diffusion, &sk__model_type_brusselator, &sk__model_type_problem,
    &sk__model_type_plugin,    &sk__model_type_linear,      &sk__model_type_network,
    &sk__model_type_bvp,       &sk__model_type_multibody,   &sk__model_type_formula,
};

static const sk_option_spec model_type_table[] = {
    {SK_MODEL_TYPE_KEY, SK_OPT_STRING, "diffusion", 0, 0, NULL,
     "model family: a registered model type (diffusion, brusselator, problem, plugin, linear, "
     "network, bvp, multibody, formula, ...; `stiffkit info` lists them)"},
};

const sk_model_type *sk_model_type_list(const sk_context *ctx, size_t i)
{
  const size_t nb = sizeof builtin_types / sizeof builtin_types[0];
  if (i < nb) {
    return builtin_types[i];
  }
  i -= nb;
  return ctx && i < ctx->n_user_models ? ctx->user_models[i] : NULL;
}

const sk_model_type *sk_model_type_find(const sk_context *ctx, const char *name)
{
  const sk_model_type *t;
  for (size_t i = 0; name && (t = sk_model_type_list(ctx, i)) != NULL; i++) {
    if (strcmp(t->name, name) == 0) {
      return t;
    }
  }
  return NULL;
}

sk_status sk_model_type_register(sk_context *ctx, const sk_model_type *type)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, type && type->name && type->name[0], SK_ERR_ARG,
           "sk_model_type_register: the type table or its name is NULL");
  SK_CHECK(ctx, type->driver != SK_MODEL_DRIVER_STEPPER || type->create, SK_ERR_ARG,
           "model type '%s': a type driven by a stepper needs create", type->name);
  SK_CHECK(ctx, sk_model_type_find(ctx, type->name) == NULL, SK_ERR_ARG,
           "a model type named '%s' is already registered", type->name);
  SK_CHECK(ctx, ctx->n_user_models < SK_MAX_USER_MODELS, SK_ERR_ARG,
           "too many registered model types (limit %d)", SK_MAX_USER_MODELS);
  ctx->user_models[ctx->n_user_models++] = type;
  return SK_OK;
}

sk_status sk_model_register_options(sk_options *opts)
{
  sk_context *ctx = sk_options_get_context(opts);
  if (!ctx) {
    return SK_ERR_ARG;
  }
  size_t n;
  SK_CALL(ctx, sk_options_register(opts, model_type_table,
                                   sizeof model_type_table / sizeof model_type_table[0]));
  const sk_option_spec *grid = sk_grid_options(&n);
  SK_CALL(ctx, sk_options_register(opts, grid, n));
  const sk_model_type *t;
  for (size_t i = 0; (t = sk_model_type_list(ctx, i)) != NULL; i++) {
    if (t->options) {
      const sk_option_spec *table = t->options(&n);
      SK_CALL(ctx, sk_options_register(opts, table, n));
    }
    for (const char *const *s = t->deferred_sections; s && *s; s++) {
      SK_CALL(ctx, sk_options_defer_section(opts, *s));
    }
  }
  return SK_OK;
}

/* The name of the i-th model type (sk__type_name_fn). */
static const char *type_name(const sk_context *ctx, size_t i)
{
  const sk_model_type *t = sk_model_type_list(ctx, i);
  return t ? t->name : NULL;
}

sk_status sk_model_type_from_options(sk_context *ctx, const sk_options *opts,
                                     const sk_model_type **type)
{
  SK_CHECK(ctx, opts != NULL && type != NULL, SK_ERR_ARG,
           "sk_model_type_from_options: NULL argument");
  *type = NULL;
  size_t i = 0;
  SK_CALL(ctx, sk__type_lookup(ctx, opts, SK_MODEL_TYPE_KEY, "model type", type_name, &i));
  *type = sk_model_type_list(ctx, i);
  return SK_OK;
}

sk_status sk_model_from_options(sk_context *ctx, sk_options *opts, sk_model **model)
{
  SK_CHECK(ctx, opts != NULL && model != NULL, SK_ERR_ARG,
           "sk_model_from_options: NULL argument");
  *model = NULL;
  const sk_model_type *t;
  SK_CALL(ctx, sk_model_type_from_options(ctx, opts, &t));
  SK_CHECK(ctx, t->driver == SK_MODEL_DRIVER_STEPPER, SK_ERR_UNSUPPORTED,
           "model.type = %s is %s, not a model for a stepper", t->name,
           t->driver == SK_MODEL_DRIVER_BVP ? "a boundary-value problem (sk_bvp_from_options)"
                                            : "a mechanism (sk_multibody_load)");
  if (!(t->flags & SK_MODEL_TYPE_DECLARES_KEYS)) {
    SK_CALL_STOP(ctx, sk_options_check_pending(opts));
  }
  SK_CALL_STOP(ctx, t->create(ctx, opts, model));
  return SK_OK;
}
