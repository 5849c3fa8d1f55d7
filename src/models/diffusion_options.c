/* src/models/diffusion_options.c: reading the model.* keys of the diffusion and Brusselator models (tables in grid_keys.h) into their parameters, and their model-type entries */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "models/grid.h"
#include "models/grid_keys.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/model_type.h"

/* The sides in the order of sk_diffusion_params.bc[d][s]: x0, x1, y0, y1, z0, z1. */
#define SIDES(X) X(x0) X(x1) X(y0) X(y1) X(z0) X(z1)

/* The boundary conditions from the keys: a side the grid does not have may not be given. */
static sk_status read_bcs(sk_context *ctx, const sk__diffusion_keys *k, uint64_t given, int dim,
                          sk_bc bc[3][2])
{
#define TYPE_OF(s) k->bc_##s##_type,
#define VALUE_OF(s) k->bc_##s##_value,
#define COEFF_OF(s) k->bc_##s##_coeff,
  const char *const type[6] = {SIDES(TYPE_OF)};
  const double value[6] = {SIDES(VALUE_OF)}, coeff[6] = {SIDES(COEFF_OF)};
#undef TYPE_OF
#undef VALUE_OF
#undef COEFF_OF
  static const sk_bc_type types[] = {SK_BC_DIRICHLET, SK_BC_NEUMANN, SK_BC_ROBIN};
  const sk_option_spec *spec = sk__diffusion_options(NULL);
  for (int j = 0; j < 6; j++) {
    const int first = SK__DIFFUSION_KEY_bc_x0_type + SK__BC_KEY_ROWS * j, d = j / 2;
    if (d >= dim) {
      for (int r = first; r < first + SK__BC_KEY_ROWS; r++) {
        SK_CHECK(ctx, !SK__BIND_GIVEN(given, r), SK_ERR_INPUT,
                 "%s is set but model.dim = %d has no such side", sk__diffusion_key(r), dim);
      }
      continue;
    }
    sk_bc *b = &bc[d][j % 2];
    b->type = types[sk__choice_index(spec[first].choices, type[j])];
    b->value = value[j];
    b->coeff = coeff[j];
    SK_CHECK(ctx, b->coeff >= 0.0, SK_ERR_INPUT, "%s = %g: must be >= 0",
             sk__diffusion_key(first + SK__BC_KEY_COEFF), b->coeff);
  }
  return SK_OK;
}
#undef SIDES

/* A per-direction real list: 0 values (all `def`), 1 (every direction) or dim. */
static sk_status real_dirs(sk_context *ctx, const char *key, sk__real_list l, int dim, double def,
                           double out[3])
{
  SK_CALL_STOP(ctx, sk__grid_check_dirs(ctx, key, l.n, dim, 1));
  for (int d = 0; d < 3; d++) {
    out[d] = (l.n == 0 || d >= dim) ? def : l.v[l.n == 1 ? 0 : d];
  }
  return SK_OK;
}

/* model.ic_formula, given exactly when model.ic = formula, and where it was set. */
static sk_status ic_formula(sk_context *ctx, const sk_options *opts, const sk__diffusion_keys *k,
                            uint64_t given, sk_diffusion_params *p)
{
  const char *key = sk__diffusion_key(SK__DIFFUSION_KEY_ic_formula);
  const int set = SK__BIND_GIVEN(given, SK__DIFFUSION_KEY_ic_formula);
  if (p->ic != SK_DIFFUSION_IC_FORMULA) {
    char where[320];
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, !set, SK_ERR_INPUT,
             "%s is set but model.ic is not 'formula' (set model.ic: formula to start from it)",
             where);
    return SK_OK;
  }
  sk_options_where(opts, sk__diffusion_key(SK__DIFFUSION_KEY_ic), p->ic_formula_where,
                   sizeof p->ic_formula_where);
  SK_CHECK(ctx, set, SK_ERR_INPUT,
           "%s = formula needs model.ic_formula, the initial state as a formula in x, y, z "
           "(for example model.ic_formula: \"16*x*(1-x)*y*(1-y)\")",
           p->ic_formula_where);
  p->ic_formula = k->ic_formula;
  sk_options_where(opts, key, p->ic_formula_where, sizeof p->ic_formula_where);
  return SK_OK;
}

sk_status sk_diffusion_params_from_options(sk_context *ctx, const sk_options *opts,
                                           sk_diffusion_params *p)
{
  SK_CHECK(ctx, opts != NULL && p != NULL, SK_ERR_ARG,
           "sk_diffusion_params_from_options: NULL argument");
  sk_diffusion_params_default(p);
  SK_CALL_STOP(ctx, sk__grid_read_options(ctx, opts, &p->dim, p->n, p->length));
  sk__diffusion_keys k;
  uint64_t given = 0;
  SK_CALL_STOP(ctx, sk__diffusion_settings_read(opts, &k, &given));
  const sk_option_spec *spec = sk__diffusion_options(NULL);
  p->k0 = k.k0;
  SK_CHECK(ctx, p->k0 > 0.0, SK_ERR_INPUT, "model.k0 = %g: must be > 0", p->k0);
  p->beta = k.beta;
  SK_CALL_STOP(ctx, real_dirs(ctx, sk__diffusion_key(SK__DIFFUSION_KEY_kgrad), k.kgrad, p->dim,
                              0.0, p->kgrad));
  SK_CALL_STOP(ctx, read_bcs(ctx, &k, given, p->dim, p->bc));
  static const sk_diffusion_exact exacts[] = {SK_DIFFUSION_EXACT_NONE, SK_DIFFUSION_EXACT_MODE,
                                              SK_DIFFUSION_EXACT_MANUFACTURED};
  p->exact = exacts[sk__choice_index(spec[SK__DIFFUSION_KEY_exact].choices, k.exact)];
  const char *mode_key = sk__diffusion_key(SK__DIFFUSION_KEY_mode);
  SK_CALL_STOP(ctx, sk__grid_check_dirs(ctx, mode_key, k.mode.n, p->dim, 0));
  for (int d = 0; d < p->dim; d++) {
    const int64_t m = k.mode.v[k.mode.n == 1 ? 0 : d];
    SK_CHECK(ctx, m >= 0 && m <= 1000000000, SK_ERR_INPUT, "%s[%d] = %lld: must be in [0, 1e9]",
             mode_key, d, (long long)m);
    p->mode[d] = (int)m;
  }
  p->amplitude = k.amplitude;
  p->offset = k.offset;
  p->exact_semidiscrete = k.semidiscrete;
  static const sk_diffusion_ic ics[] = {SK_DIFFUSION_IC_EXACT, SK_DIFFUSION_IC_CONSTANT,
                                        SK_DIFFUSION_IC_FORMULA};
  p->ic = ics[sk__choice_index(spec[SK__DIFFUSION_KEY_ic].choices, k.ic)];
  SK_CALL_STOP(ctx, ic_formula(ctx, opts, &k, given, p));
  p->ic_value = k.ic_value;
  p->source_const = k.source;
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
  sk__brusselator_keys k;
  SK_CALL_STOP(ctx, sk__brusselator_settings_read(opts, &k, NULL));
  p->a = k.a;
  p->b = k.b;
  p->alpha = k.alpha;
  p->perturbation = k.perturbation;
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
