/* src/models/diffusion_options.c: reading the model.* keys of the diffusion and Brusselator models (tables in diffusion_keys.c) into their parameters, and their model-type entries */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "models/grid.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/model_type.h"

static const char *const side_names[3][2] = {{"x0", "x1"}, {"y0", "y1"}, {"z0", "z1"}};

/* Reject a key for a direction the grid does not have. */
static sk_status check_unused(sk_context *ctx, const sk_options *opts, const char *key, int dim)
{
  SK_CHECK(ctx, !sk_options_is_set(opts, key), SK_ERR_INPUT,
           "%s is set but model.dim = %d has no such side", key, dim);
  return SK_OK;
}

static sk_status read_bc(sk_context *ctx, const sk_options *opts, int d, int s, int dim,
                         sk_bc *bc)
{
  char kt[40], kv[40], kc[40];
  snprintf(kt, sizeof kt, "model.bc.%s.type", side_names[d][s]);
  snprintf(kv, sizeof kv, "model.bc.%s.value", side_names[d][s]);
  snprintf(kc, sizeof kc, "model.bc.%s.coeff", side_names[d][s]);
  if (d >= dim) {
    SK_CALL_STOP(ctx, check_unused(ctx, opts, kt, dim));
    SK_CALL_STOP(ctx, check_unused(ctx, opts, kv, dim));
    SK_CALL_STOP(ctx, check_unused(ctx, opts, kc, dim));
    return SK_OK;
  }
  const char *type = NULL;
  SK_CALL_STOP(ctx, sk_options_get_string(opts, kt, &type));
  if (strcmp(type, "dirichlet") == 0) {
    bc->type = SK_BC_DIRICHLET;
  } else if (strcmp(type, "neumann") == 0) {
    bc->type = SK_BC_NEUMANN;
  } else if (strcmp(type, "robin") == 0) {
    bc->type = SK_BC_ROBIN;
  } else {
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s = '%s': must be dirichlet, neumann or robin", kt,
                    type);
  }
  SK_CALL_STOP(ctx, sk_options_get_real(opts, kv, &bc->value));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, kc, &bc->coeff));
  SK_CHECK(ctx, bc->coeff >= 0.0, SK_ERR_INPUT, "%s = %g: must be >= 0", kc, bc->coeff);
  return SK_OK;
}

/* A per-direction real list: 0 values (all `def`), 1 (every direction) or dim. */
static sk_status read_real_dirs(sk_context *ctx, const sk_options *opts, const char *key, int dim,
                                double def, double out[3])
{
  const double *v = NULL;
  size_t n = 0;
  SK_CALL_STOP(ctx, sk_options_get_real_list(opts, key, &v, &n));
  SK_CALL_STOP(ctx, sk__grid_check_dirs(ctx, key, n, dim, 1));
  for (int d = 0; d < 3; d++) {
    out[d] = (n == 0 || d >= dim) ? def : v[n == 1 ? 0 : d];
  }
  return SK_OK;
}

/* model.ic_formula, given exactly when model.ic = formula, and where it was set. */
static sk_status read_ic_formula(sk_context *ctx, const sk_options *opts, sk_diffusion_params *p)
{
  const int given = sk_options_is_set(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC_FORMULA));
  if (p->ic != SK_DIFFUSION_IC_FORMULA) {
    char where[320];
    sk_options_where(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC_FORMULA), where, sizeof where);
    SK_CHECK(ctx, !given, SK_ERR_INPUT,
             "%s is set but model.ic is not 'formula' (set model.ic: formula to start from it)",
             where);
    return SK_OK;
  }
  sk_options_where(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC), p->ic_formula_where,
                   sizeof p->ic_formula_where);
  SK_CHECK(ctx, given, SK_ERR_INPUT,
           "%s = formula needs model.ic_formula, the initial state as a formula in x, y, z "
           "(for example model.ic_formula: \"16*x*(1-x)*y*(1-y)\")",
           p->ic_formula_where);
  SK_CALL_STOP(ctx, sk_options_get_string(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC_FORMULA),
                                          &p->ic_formula));
  sk_options_where(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC_FORMULA), p->ic_formula_where,
                   sizeof p->ic_formula_where);
  return SK_OK;
}

sk_status sk_diffusion_params_from_options(sk_context *ctx, const sk_options *opts,
                                           sk_diffusion_params *p)
{
  SK_CHECK(ctx, opts != NULL && p != NULL, SK_ERR_ARG,
           "sk_diffusion_params_from_options: NULL argument");
  sk_diffusion_params_default(p);
  SK_CALL_STOP(ctx, sk__grid_read_options(ctx, opts, &p->dim, p->n, p->length));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_K0), &p->k0));
  SK_CHECK(ctx, p->k0 > 0.0, SK_ERR_INPUT, "model.k0 = %g: must be > 0", p->k0);
  SK_CALL_STOP(ctx,
               sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_BETA), &p->beta));
  SK_CALL_STOP(ctx, read_real_dirs(ctx, opts, sk__diffusion_key(SK__DIFFUSION_KEY_KGRAD), p->dim,
                                   0.0, p->kgrad));
  for (int d = 0; d < 3; d++) {
    for (int s = 0; s < 2; s++) {
      SK_CALL_STOP(ctx, read_bc(ctx, opts, d, s, p->dim, &p->bc[d][s]));
    }
  }
  const char *exact = NULL, *ic = NULL;
  SK_CALL_STOP(ctx,
               sk_options_get_string(opts, sk__diffusion_key(SK__DIFFUSION_KEY_EXACT), &exact));
  if (strcmp(exact, "none") == 0) {
    p->exact = SK_DIFFUSION_EXACT_NONE;
  } else if (strcmp(exact, "mode") == 0) {
    p->exact = SK_DIFFUSION_EXACT_MODE;
  } else if (strcmp(exact, "manufactured") == 0) {
    p->exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  } else {
    return SK_ERROR(ctx, SK_ERR_INPUT, "model.exact = '%s': must be none, mode or manufactured",
                    exact);
  }
  const int64_t *mv = NULL;
  size_t nm = 0;
  SK_CALL_STOP(
      ctx, sk_options_get_int_list(opts, sk__diffusion_key(SK__DIFFUSION_KEY_MODE), &mv, &nm));
  SK_CALL_STOP(
      ctx, sk__grid_check_dirs(ctx, sk__diffusion_key(SK__DIFFUSION_KEY_MODE), nm, p->dim, 0));
  for (int d = 0; d < p->dim; d++) {
    const int64_t m = mv[nm == 1 ? 0 : d];
    SK_CHECK(ctx, m >= 0 && m <= 1000000000, SK_ERR_INPUT,
             "model.mode[%d] = %lld: must be in [0, 1e9]", d, (long long)m);
    p->mode[d] = (int)m;
  }
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_AMPLITUDE),
                                        &p->amplitude));
  SK_CALL_STOP(
      ctx, sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_OFFSET), &p->offset));
  SK_CALL_STOP(ctx, sk_options_get_bool(opts, sk__diffusion_key(SK__DIFFUSION_KEY_SEMIDISCRETE),
                                        &p->exact_semidiscrete));
  SK_CALL_STOP(ctx, sk_options_get_string(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC), &ic));
  if (strcmp(ic, "exact") == 0) {
    p->ic = SK_DIFFUSION_IC_EXACT;
  } else if (strcmp(ic, "constant") == 0) {
    p->ic = SK_DIFFUSION_IC_CONSTANT;
  } else if (strcmp(ic, "formula") == 0) {
    p->ic = SK_DIFFUSION_IC_FORMULA;
  } else {
    return SK_ERROR(ctx, SK_ERR_INPUT, "model.ic = '%s': must be exact, constant or formula", ic);
  }
  SK_CALL_STOP(ctx, read_ic_formula(ctx, opts, p));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_IC_VALUE),
                                        &p->ic_value));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__diffusion_key(SK__DIFFUSION_KEY_SOURCE),
                                        &p->source_const));
  return SK_OK;
}

sk_status sk_brusselator_params_from_options(sk_context *ctx, const sk_options *opts,
                                             sk_brusselator_params *p)
{
  SK_CHECK(ctx, opts != NULL && p != NULL, SK_ERR_ARG,
           "sk_brusselator_params_from_options: NULL argument");
  sk_brusselator_params_default(p);
  int dim = 2;
  int64_t n[3];
  double length[3];
  SK_CALL_STOP(ctx, sk__grid_read_options(ctx, opts, &dim, n, length));
  SK_CHECK(ctx, dim == 2, SK_ERR_INPUT, "model.dim = %d: the Brusselator is 2D", dim);
  SK_CHECK(ctx, n[0] == n[1], SK_ERR_INPUT,
           "model.n = [%lld, %lld]: the Brusselator uses an n x n grid", (long long)n[0],
           (long long)n[1]);
  SK_CHECK(ctx, length[0] == length[1], SK_ERR_INPUT,
           "model.length = [%g, %g]: the Brusselator uses a square [0, L]^2", length[0],
           length[1]);
  p->n = n[0];
  p->length = length[0];
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__brusselator_key(SK__BRUSSELATOR_KEY_A), &p->a));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, sk__brusselator_key(SK__BRUSSELATOR_KEY_B), &p->b));
  SK_CALL_STOP(
      ctx, sk_options_get_real(opts, sk__brusselator_key(SK__BRUSSELATOR_KEY_ALPHA), &p->alpha));
  SK_CALL_STOP(ctx,
               sk_options_get_real(opts, sk__brusselator_key(SK__BRUSSELATOR_KEY_PERTURBATION),
                                   &p->perturbation));
  SK_CHECK(ctx, p->a > 0.0, SK_ERR_INPUT, "model.brusselator.a = %g: must be > 0", p->a);
  SK_CHECK(ctx, p->b >= 0.0, SK_ERR_INPUT, "model.brusselator.b = %g: must be >= 0", p->b);
  SK_CHECK(ctx, p->alpha >= 0.0, SK_ERR_INPUT, "model.brusselator.alpha = %g: must be >= 0",
           p->alpha);
  return SK_OK;
}

static sk_status create_diffusion(sk_context *ctx, sk_options *opts, sk_model **model)
{
  sk_diffusion_params p;
  SK_CALL_STOP(ctx, sk_diffusion_params_from_options(ctx, opts, &p));
  SK_CALL_STOP(ctx, sk_diffusion_create(ctx, &p, model));
  return SK_OK;
}

static sk_status create_brusselator(sk_context *ctx, sk_options *opts, sk_model **model)
{
  sk_brusselator_params p;
  SK_CALL_STOP(ctx, sk_brusselator_params_from_options(ctx, opts, &p));
  SK_CALL_STOP(ctx, sk_brusselator_create(ctx, &p, model));
  return SK_OK;
}

const sk_model_type sk__model_type_diffusion = {
    .name = "diffusion",
    .description =
        "heat/diffusion equation u_t = div(k grad u) + s on a 1D/2D/3D structured grid",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .flags = SK_MODEL_TYPE_GRID | SK_MODEL_TYPE_DISTRIBUTABLE,
    .options = sk_diffusion_options,
    .create = create_diffusion};

const sk_model_type sk__model_type_brusselator = {
    .name = "brusselator",
    .description = "the 2D Brusselator reaction-diffusion system on a structured grid",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .flags = SK_MODEL_TYPE_GRID | SK_MODEL_TYPE_DISTRIBUTABLE,
    .options = sk_brusselator_options,
    .create = create_brusselator};
