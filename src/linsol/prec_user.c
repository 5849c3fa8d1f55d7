/* src/linsol/prec_user.c: the preconditioner types an application registers at run time (stiffkit/preconditioner.h) */
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "linsol/linsol_types.h"

const sk_preconditioner_type *sk_preconditioner_type_find(const sk_context *ctx, const char *name)
{
  for (size_t i = 0; ctx && name && i < ctx->n_user_precs; i++) {
    if (strcmp(ctx->user_precs[i]->name, name) == 0) {
      return ctx->user_precs[i];
    }
  }
  return NULL;
}

sk_status sk_preconditioner_type_register(sk_context *ctx, const sk_preconditioner_type *type)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, type && type->name && type->name[0] && type->setup && type->solve, SK_ERR_ARG,
           "sk_preconditioner_type_register: the table needs a name, setup and solve");
  SK_CHECK(ctx, strlen(type->name) <= SK_PREC_NAME_MAX, SK_ERR_ARG,
           "preconditioner type name '%s' is longer than %d characters", type->name,
           SK_PREC_NAME_MAX);
  SK_CHECK(ctx,
           strcmp(type->name, "auto") && !sk__prec_type_find(type->name) &&
               !sk_preconditioner_type_find(ctx, type->name),
           SK_ERR_ARG, "a preconditioner named '%s' already exists", type->name);
  SK_CHECK(ctx, ctx->n_user_precs < SK_MAX_USER_PRECS, SK_ERR_ARG,
           "too many registered preconditioner types (limit %d)", SK_MAX_USER_PRECS);
  ctx->user_precs[ctx->n_user_precs++] = type;
  return SK_OK;
}
