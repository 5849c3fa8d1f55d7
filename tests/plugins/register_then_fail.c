/* tests/plugins/register_then_fail.c: a test plugin whose sk_plugin_register adds a model type, a preconditioner and a linear solver, then fails: loading it must leave none of them registered */
#include <stiffkit/stiffkit.h>

static sk_status never_create(sk_context *ctx, sk_options *opts, sk_model **model)
{
  (void)ctx;
  (void)opts;
  (void)model;
  return SK_ERR_INTERNAL;
}

static sk_status never_setup_prec(void *state, double t, const double *y, double gamma,
                                  const sk_jacobian_view *jac, int jac_fresh)
{
  (void)state;
  (void)t;
  (void)y;
  (void)gamma;
  (void)jac;
  (void)jac_fresh;
  return SK_ERR_INTERNAL;
}

static sk_status never_solve_prec(void *state, double t, const double *y, const double *r,
                                  double *z, double gamma)
{
  (void)state;
  (void)t;
  (void)y;
  (void)r;
  (void)z;
  (void)gamma;
  return SK_ERR_INTERNAL;
}

static sk_status never_setup_ls(void *state, const sk_jacobian_view *A)
{
  (void)state;
  (void)A;
  return SK_ERR_INTERNAL;
}

static sk_status never_solve_ls(void *state, const double *b, double *x)
{
  (void)state;
  (void)b;
  (void)x;
  return SK_ERR_INTERNAL;
}

static const sk_model_type model = {.name = "doomed-model", .create = never_create};
static const sk_preconditioner_type prec = {
    .name = "doomed-prec", .setup = never_setup_prec, .solve = never_solve_prec};
static const sk_linear_solver_type linsol = {
    .name = "doomed-ls", .setup = never_setup_ls, .solve = never_solve_ls};

SK_PLUGIN_DEFINE_ABI_VERSION()

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  sk_status st = sk_model_type_register(ctx, &model);
  st = st == SK_OK ? sk_preconditioner_type_register(ctx, &prec) : st;
  st = st == SK_OK ? sk_linear_solver_type_register(ctx, &linsol) : st;
  return st == SK_OK ? SK_ERR_INPUT : st; /* and then fail */
}
