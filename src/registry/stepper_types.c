/* src/registry/stepper_types.c: the built-in stepper types, run-time registration of user types, and creation by name */
#include <stdio.h>
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "registry/type_names.h"
#include "steppers/stepper_impl.h"
#include "steppers/stepper_keys.h"
#include "stiffkit/plugin.h"

extern const sk_stepper_type sk__stepper_cvode_bdf;
extern const sk_stepper_type sk__stepper_ida_bdf;
extern const sk_stepper_type sk__stepper_cvode_adams;
extern const sk_stepper_type sk__stepper_euler;
extern const sk_stepper_type sk__stepper_rk4;
extern const sk_stepper_type sk__stepper_rk45;
extern const sk_stepper_type sk__stepper_ab2;
extern const sk_stepper_type sk__stepper_beuler;
extern const sk_stepper_type sk__stepper_trap;
extern const sk_stepper_type sk__stepper_am2pc;
extern const sk_stepper_type sk__stepper_bdf2;
extern const sk_stepper_type sk__stepper_verlet;

static const sk_stepper_type *const builtin_types[] = {
    &sk__stepper_cvode_bdf,
    &sk__stepper_cvode_adams,
    &sk__stepper_euler,
    &sk__stepper_rk4,
    &sk__stepper_rk45,
    &sk__stepper_ab2,
    &sk__stepper_beuler,
    &sk__stepper_trap,
    &sk__stepper_am2pc,
    &sk__stepper_bdf2,
    &sk__stepper_verlet,
    &sk__stepper_ida_bdf,
    NULL,
};

const sk_stepper_type *sk_stepper_type_list(const sk_context *ctx, size_t i)
{
  size_t nb = sizeof builtin_types / sizeof builtin_types[0] - 1;
  if (i < nb) {
    return builtin_types[i];
  }
  i -= nb;
  if (ctx && i < ctx->n_user_steppers) {
    return ctx->user_steppers[i];
  }
  return NULL;
}

const sk_stepper_type *sk_stepper_type_find(const sk_context *ctx, const char *name)
{
  if (!name) {
    return NULL;
  }
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    if (strcmp(t->name, name) == 0) {
      return t;
    }
  }
  return NULL;
}

sk_status sk_stepper_type_register(sk_context *ctx, const sk_stepper_type *type)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx,
           type && type->name && type->create && type->advance && type->get_stats &&
               type->destroy,
           SK_ERR_ARG,
           "stepper type table is incomplete (name, create, advance, get_stats and destroy are "
           "required)");
  SK_CHECK(ctx, sk_stepper_type_find(ctx, type->name) == NULL, SK_ERR_ARG,
           "a stepper type named '%s' is already registered", type->name);
  SK_CHECK(ctx, ctx->n_user_steppers < SK_MAX_USER_STEPPERS, SK_ERR_ARG,
           "too many registered stepper types (limit %d)", SK_MAX_USER_STEPPERS);
  ctx->user_stepper_abi[ctx->n_user_steppers] =
      ctx->registering_abi > 0 ? ctx->registering_abi : SK_PLUGIN_ABI_VERSION;
  ctx->user_steppers[ctx->n_user_steppers++] = type;
  return SK_OK;
}

/* The name of the i-th stepper type (sk__type_name_fn). */
static const char *type_name(const sk_context *ctx, size_t i)
{
  const sk_stepper_type *t = sk_stepper_type_list(ctx, i);
  return t ? t->name : NULL;
}

sk_status sk_stepper_type_from_options(sk_context *ctx, const sk_options *opts,
                                       const sk_stepper_type **type)
{
  SK_CHECK(ctx, opts != NULL && type != NULL, SK_ERR_ARG,
           "sk_stepper_type_from_options: NULL argument");
  *type = NULL;
  size_t i = 0;
  SK_CALL(ctx, sk__type_lookup(ctx, opts, sk__stepper_key(SK__STEPPER_KEY_method), "solver",
                               type_name, &i));
  *type = sk_stepper_type_list(ctx, i);
  return SK_OK;
}

sk_status sk_stepper_create(sk_context *ctx, const char *name, sk_model *model, sk_stepper **s)
{
  SK_CHECK(ctx, s != NULL && model != NULL, SK_ERR_ARG, "sk_stepper_create: NULL argument");
  *s = NULL;
  const sk_stepper_type *type = sk_stepper_type_find(ctx, name);
  if (!type) {
    char names[512];
    sk__type_names(ctx, type_name, ", ", names, sizeof names);
    return SK_ERROR(ctx, SK_ERR_ARG, "unknown solver '%s'; valid solvers: %s", name ? name : "",
                    names);
  }
  return sk_stepper_create_with_type(ctx, type, model, s);
}
