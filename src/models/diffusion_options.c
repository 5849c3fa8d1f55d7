/* src/models/diffusion_options.c: model.* option tables of the diffusion and Brusselator models, and building a grid model or a library problem from options */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "core/stop.h"
#include "models/grid.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/model_type.h"

#define SK__BC_KEYS(side)                                                                      \
  {"model.bc." side ".type",                                                                   \
   SK_OPT_CHOICE,                                                                              \
   "dirichlet",                                                                                \
   0,                                                                                          \
   0,                                                                                          \
   "dirichlet|neumann|robin",                                                                  \
   "boundary condition on side " side " (x0: x = 0, x1: x = L_x, ...)"},                       \
      {"model.bc." side ".value",                                                              \
       SK_OPT_REAL,                                                                            \
       "0",                                                                                    \
       0,                                                                                      \
       0,                                                                                      \
       NULL,                                                                                   \
       "side " side ": Dirichlet value, Neumann heat flux into the domain, or Robin ambient"}, \
  {                                                                                            \
    "model.bc." side ".coeff", SK_OPT_REAL, "0", 0, 0, NULL,                                   \
        "side " side ": Robin heat transfer coefficient c >= 0 in k du/dn = c (ambient - u)"   \
  }

/* the rows of diffusion_table, in order (models/grid.h: SK__DIFFUSION_KEY_*) */
static const sk_option_spec diffusion_table[] = {
    {"model.k0", SK_OPT_REAL, "1.0", 0, 0, NULL,
     "conductivity scale: k = k0 (1 + beta u) (1 + sum_d kgrad_d x_d / L_d), > 0"},
    {"model.beta", SK_OPT_REAL, "0", 0, 0, NULL,
     "conductivity dependence on u (nonlinear if != 0)"},
    {"model.kgrad", SK_OPT_REAL_LIST, "", 0, 0, NULL,
     "conductivity gradient per direction (empty = 0; one value for all, or one per direction)"},
    SK__BC_KEYS("x0"),
    SK__BC_KEYS("x1"),
    SK__BC_KEYS("y0"),
    SK__BC_KEYS("y1"),
    SK__BC_KEYS("z0"),
    SK__BC_KEYS("z1"),
    {"model.exact", SK_OPT_CHOICE, "mode", 0, 0, "none|mode|manufactured",
     "exact solution: separable sine/cosine mode (constant k, no source, homogeneous "
     "Dirichlet/Neumann), manufactured e^{-t} prod sin(pi x/L) + offset, or none"},
    {"model.mode", SK_OPT_INT_LIST, "1", 0, 1e9, NULL,
     "mode numbers of the exact mode (one for all directions, or one per direction)"},
    {"model.amplitude", SK_OPT_REAL, "1.0", 0, 0, NULL, "amplitude of the exact mode"},
    {"model.offset", SK_OPT_REAL, "0.0", 0, 0, NULL, "offset of the manufactured solution"},
    {"model.semidiscrete", SK_OPT_BOOL, "false", 0, 0, NULL,
     "exact mode uses the eigenvalue of the discrete operator (no space error)"},
    {"model.ic", SK_OPT_CHOICE, "exact", 0, 0, "exact|constant|formula",
     "initial state: the exact solution at t0, model.ic_value everywhere, or the formula "
     "model.ic_formula at every node"},
    {"model.ic_formula", SK_OPT_STRING, "", 0, 0, NULL,
     "initial state u0(x, y, z) for model.ic = formula: a muparser expression in x, y, z, Lx, "
     "Ly, Lz, k0, beta, source and pi (e.g. 16*x*(1-x)*y*(1-y))"},
    {"model.ic_value", SK_OPT_REAL, "0.0", 0, 0, NULL,
     "constant initial state (model.ic = constant; model.type = linear without model.initial)"},
    {"model.source", SK_OPT_REAL, "0", 0, 0, NULL, "constant source added everywhere"},
};

_Static_assert(sizeof diffusion_table / sizeof diffusion_table[0] == SK__DIFFUSION_KEY_COUNT,
               "one SK__DIFFUSION_KEY_* a row");

/* the rows of brusselator_table, in order */
enum { KEY_BR_A, KEY_BR_B, KEY_BR_ALPHA, KEY_BR_PERTURBATION };

static const sk_option_spec brusselator_table[] = {
    {"model.brusselator.a", SK_OPT_REAL, "1.0", 0, 0, NULL, "Brusselator feed rate a (> 0)"},
    {"model.brusselator.b", SK_OPT_REAL, "3.4", 0, 0, NULL,
     "Brusselator rate b (>= 0; oscillates for b > 1 + a^2)"},
    {"model.brusselator.alpha", SK_OPT_REAL, "2e-3", 0, 0, NULL,
     "Brusselator diffusion coefficient alpha (>= 0)"},
    {"model.brusselator.perturbation", SK_OPT_REAL, "0.1", 0, 0, NULL,
     "amplitude of the smooth initial perturbation cos(pi x/L) cos(pi y/L)"},
};

const char *sk__diffusion_key(int row)
{
  return diffusion_table[row].key;
}

const sk_option_spec *sk_diffusion_options(size_t *n)
{
  if (n) {
    *n = sizeof diffusion_table / sizeof diffusion_table[0];
  }
  return diffusion_table;
}

const sk_option_spec *sk_brusselator_options(size_t *n)
{
  if (n) {
    *n = sizeof brusselator_table / sizeof brusselator_table[0];
  }
  return brusselator_table;
}

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
  const int given = sk_options_is_set(opts, diffusion_table[SK__DIFFUSION_KEY_IC_FORMULA].key);
  if (p->ic != SK_DIFFUSION_IC_FORMULA) {
    char where[320];
    sk_options_where(opts, diffusion_table[SK__DIFFUSION_KEY_IC_FORMULA].key, where,
                     sizeof where);
    SK_CHECK(ctx, !given, SK_ERR_INPUT,
             "%s is set but model.ic is not 'formula' (set model.ic: formula to start from it)",
             where);
    return SK_OK;
  }
  sk_options_where(opts, diffusion_table[SK__DIFFUSION_KEY_IC].key, p->ic_formula_where,
                   sizeof p->ic_formula_where);
  SK_CHECK(ctx, given, SK_ERR_INPUT,
           "%s = formula needs model.ic_formula, the initial state as a formula in x, y, z "
           "(for example model.ic_formula: \"16*x*(1-x)*y*(1-y)\")",
           p->ic_formula_where);
  SK_CALL_STOP(ctx, sk_options_get_string(opts, diffusion_table[SK__DIFFUSION_KEY_IC_FORMULA].key,
                                          &p->ic_formula));
  sk_options_where(opts, diffusion_table[SK__DIFFUSION_KEY_IC_FORMULA].key, p->ic_formula_where,
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
  SK_CALL_STOP(ctx, sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_K0].key, &p->k0));
  SK_CHECK(ctx, p->k0 > 0.0, SK_ERR_INPUT, "model.k0 = %g: must be > 0", p->k0);
  SK_CALL_STOP(ctx,
               sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_BETA].key, &p->beta));
  SK_CALL_STOP(ctx, read_real_dirs(ctx, opts, diffusion_table[SK__DIFFUSION_KEY_KGRAD].key,
                                   p->dim, 0.0, p->kgrad));
  for (int d = 0; d < 3; d++) {
    for (int s = 0; s < 2; s++) {
      SK_CALL_STOP(ctx, read_bc(ctx, opts, d, s, p->dim, &p->bc[d][s]));
    }
  }
  const char *exact = NULL, *ic = NULL;
  SK_CALL_STOP(ctx,
               sk_options_get_string(opts, diffusion_table[SK__DIFFUSION_KEY_EXACT].key, &exact));
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
      ctx, sk_options_get_int_list(opts, diffusion_table[SK__DIFFUSION_KEY_MODE].key, &mv, &nm));
  SK_CALL_STOP(
      ctx, sk__grid_check_dirs(ctx, diffusion_table[SK__DIFFUSION_KEY_MODE].key, nm, p->dim, 0));
  for (int d = 0; d < p->dim; d++) {
    const int64_t m = mv[nm == 1 ? 0 : d];
    SK_CHECK(ctx, m >= 0 && m <= 1000000000, SK_ERR_INPUT,
             "model.mode[%d] = %lld: must be in [0, 1e9]", d, (long long)m);
    p->mode[d] = (int)m;
  }
  SK_CALL_STOP(ctx, sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_AMPLITUDE].key,
                                        &p->amplitude));
  SK_CALL_STOP(
      ctx, sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_OFFSET].key, &p->offset));
  SK_CALL_STOP(ctx, sk_options_get_bool(opts, diffusion_table[SK__DIFFUSION_KEY_SEMIDISCRETE].key,
                                        &p->exact_semidiscrete));
  SK_CALL_STOP(ctx, sk_options_get_string(opts, diffusion_table[SK__DIFFUSION_KEY_IC].key, &ic));
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
  SK_CALL_STOP(ctx, sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_IC_VALUE].key,
                                        &p->ic_value));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, diffusion_table[SK__DIFFUSION_KEY_SOURCE].key,
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
  SK_CALL_STOP(ctx, sk_options_get_real(opts, brusselator_table[KEY_BR_A].key, &p->a));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, brusselator_table[KEY_BR_B].key, &p->b));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, brusselator_table[KEY_BR_ALPHA].key, &p->alpha));
  SK_CALL_STOP(ctx, sk_options_get_real(opts, brusselator_table[KEY_BR_PERTURBATION].key,
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
