/* data/plugins/rod_model.c: an example model plugin: heat conduction in a rod with a temperature-dependent sink, the RHS and its pattern only, public API only */
/* The model, for model.type = plugin:
 *   u_t = kappa u_xx - sigma (u^4 - u_amb^4) / rho_c,  0 < x < L,  u(0) = u(L) = 0,
 * on n interior nodes x_i = (i + 1) h, h = L / (n + 1), second-order central
 * differences. The sink is a radiating surface (sigma: an effective
 * emissivity times Stefan-Boltzmann per unit heat capacity and area).
 *
 * The initial state is u(x, t0) = A sin(pi x / L). With sigma = 0 the
 * semi-discrete system has the exact solution
 *   u_i(t) = A sin(pi x_i / L) exp(-lambda (t - t0)),
 *   lambda = (4 kappa / h^2) sin^2(pi h / (2 L)),
 * which the plugin exposes so that runs can report their error; with
 * sigma > 0 there is none (verify against independent methods instead).
 *
 * The plugin gives f and the tridiagonal sparsity pattern only: stiffkit
 * computes the Jacobian by colored finite differences (3 colors). With
 * model.parameters.pattern = false it gives f alone, and stiffkit detects
 * the pattern by probing (solver.detect_pattern). With
 * model.parameters.analytic_jacobian = true it also gives the analytic
 * Jacobian, which stiffkit's self-test checks against finite differences
 * before and during the run.
 *
 * The model declares kappa and sigma as parameters (sk_model_add_param), so
 * that solver.sensitivity.parameters can name them, with their analytic
 * df/dp; with sigma = 0 the exact sensitivity is
 *   du_i/dkappa = -(lambda / kappa) (t - t0) u_i(t).
 *
 * Build (against an installed stiffkit):
 *   cc -std=c11 -O2 -shared -fPIC rod_model.c $(pkg-config --cflags stiffkit) -o rod_model.so
 * Run:
 *   stiffkit run data/plugin_rod.yaml --set model.plugin=./rod_model.so
 */
#include <math.h>
#include <stdlib.h>

#include <stiffkit/stiffkit.h>

SK_PLUGIN_DEFINE_ABI_VERSION()

static const sk_option_spec rod_parameters[] = {
  {"model.parameters.n", SK_OPT_INT, "100", 1, 1e8, NULL, "interior nodes"},
  {"model.parameters.length", SK_OPT_REAL, "1.0", 1e-12, 1e12, NULL, "rod length L"},
  {"model.parameters.kappa", SK_OPT_REAL, "1.0", 0, 1e12, NULL, "thermal diffusivity"},
  {"model.parameters.sigma", SK_OPT_REAL, "0", 0, 1e12, NULL,
   "radiative sink coefficient (0: linear rod with an exact solution)"},
  {"model.parameters.u_ambient", SK_OPT_REAL, "0", 0, 0, NULL, "ambient temperature of the sink"},
  {"model.parameters.amplitude", SK_OPT_REAL, "1.0", 0, 0, NULL, "initial amplitude A"},
  {"model.parameters.pattern", SK_OPT_BOOL, "true", 0, 0, NULL,
   "give the tridiagonal sparsity pattern (false: f alone, stiffkit detects the pattern)"},
  {"model.parameters.analytic_jacobian", SK_OPT_BOOL, "false", 0, 0, NULL,
   "give the analytic Jacobian (needs the pattern; else stiffkit's colored finite "
   "differences)"},
};

SK_PLUGIN_EXPORT const sk_option_spec *sk_plugin_model_options(size_t *n)
{
  *n = sizeof rod_parameters / sizeof rod_parameters[0];
  return rod_parameters;
}

typedef struct {
  int64_t n;
  double length, kappa, sigma, u_amb4, amplitude, h, t0;
} rod;

static int rod_rhs(double t, const double *u, double *du, void *data)
{
  (void)t;
  const rod *r = data;
  const double c = r->kappa / (r->h * r->h);
  for (int64_t i = 0; i < r->n; i++) {
    const double left = i > 0 ? u[i - 1] : 0.0;
    const double right = i + 1 < r->n ? u[i + 1] : 0.0;
    const double u2 = u[i] * u[i];
    du[i] = c * (left - 2.0 * u[i] + right) - r->sigma * (u2 * u2 - r->u_amb4);
  }
  return 0;
}

/* Values in pattern order: column j holds rows j-1, j, j+1 (those inside). */
static int rod_jacobian(double t, const double *u, const double *fu, double *values, void *data)
{
  (void)t;
  (void)fu;
  const rod *r = data;
  const double c = r->kappa / (r->h * r->h);
  int64_t p = 0;
  for (int64_t j = 0; j < r->n; j++) {
    if (j > 0) {
      values[p++] = c;
    }
    values[p++] = -2.0 * c - 4.0 * r->sigma * u[j] * u[j] * u[j];
    if (j + 1 < r->n) {
      values[p++] = c;
    }
  }
  return 0;
}

/* df/dp: parameter 0 is kappa, 1 is sigma (the order of sk_model_add_param). */
static int rod_rhs_param(double t, const double *u, const double *fu, int k, double *dfdp,
                         void *data)
{
  (void)t;
  (void)fu;
  const rod *r = data;
  for (int64_t i = 0; i < r->n; i++) {
    const double left = i > 0 ? u[i - 1] : 0.0;
    const double right = i + 1 < r->n ? u[i + 1] : 0.0;
    const double u2 = u[i] * u[i];
    dfdp[i] = k == 0 ? (left - 2.0 * u[i] + right) / (r->h * r->h) : -(u2 * u2 - r->u_amb4);
  }
  return 0;
}

/* The sine profile decaying at the linear rod's rate (exact for sigma = 0). */
static int rod_exact(double t, double *u, void *data)
{
  const rod *r = data;
  const double pi = acos(-1.0);
  const double s = sin(pi * r->h / (2.0 * r->length));
  const double lambda = 4.0 * r->kappa / (r->h * r->h) * s * s;
  for (int64_t i = 0; i < r->n; i++) {
    u[i] = r->amplitude * sin(pi * (double)(i + 1) * r->h / r->length) * exp(-lambda * (t - r->t0));
  }
  return 0;
}

static int rod_initial(double t0, double *u, void *data)
{
  return rod_exact(t0, u, data); /* t = t0: the profile itself */
}

/* The tridiagonal pattern in CSC; the caller frees both arrays. */
static sk_status rod_pattern(int64_t n, int64_t **colptr, int64_t **rowind)
{
  *colptr = malloc((size_t)(n + 1) * sizeof **colptr);
  *rowind = malloc((size_t)(3 * n) * sizeof **rowind);
  if (!*colptr || !*rowind) {
    return SK_ERR_NOMEM;
  }
  int64_t p = 0;
  for (int64_t j = 0; j < n; j++) {
    (*colptr)[j] = p;
    for (int64_t i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < n) {
        (*rowind)[p++] = i;
      }
    }
  }
  (*colptr)[n] = p;
  return SK_OK;
}

/* Read the parameters, then build the model (on an error stiffkit destroys what was made). */
SK_PLUGIN_EXPORT sk_status sk_plugin_create_model(sk_context *ctx, const sk_options *opts,
                                                  sk_model **model)
{
  rod *r = calloc(1, sizeof *r);
  if (!r) {
    return SK_ERR_NOMEM;
  }
  double u_amb = 0.0;
  int analytic = 0, pattern = 1;
  sk_status st = sk_options_get_int(opts, "model.parameters.n", &r->n);
  st = st ? st : sk_options_get_real(opts, "model.parameters.length", &r->length);
  st = st ? st : sk_options_get_real(opts, "model.parameters.kappa", &r->kappa);
  st = st ? st : sk_options_get_real(opts, "model.parameters.sigma", &r->sigma);
  st = st ? st : sk_options_get_real(opts, "model.parameters.u_ambient", &u_amb);
  st = st ? st : sk_options_get_real(opts, "model.parameters.amplitude", &r->amplitude);
  st = st ? st : sk_options_get_bool(opts, "model.parameters.pattern", &pattern);
  st = st ? st : sk_options_get_bool(opts, "model.parameters.analytic_jacobian", &analytic);
  st = st ? st : sk_options_get_real(opts, "solver.t0", &r->t0);
  st = st ? st : sk_model_create(ctx, SK_MODEL_ODE, r->n, model);
  if (st != SK_OK) {
    free(r);
    return st;
  }
  r->h = r->length / (double)(r->n + 1);
  r->u_amb4 = u_amb * u_amb * u_amb * u_amb;
  sk_model_set_user_data(*model, r, free);
  sk_model_set_name(*model, "rod (plugin)");
  sk_model_set_rhs(*model, rod_rhs);
  sk_model_set_initial(*model, rod_initial);
  if (r->sigma == 0.0) {
    sk_model_set_exact(*model, rod_exact);
  }
  sk_model_set_default_t_end(*model, 0.1);
  /* the fields the callbacks read on every call: no changed hook is needed */
  st = sk_model_add_param(*model, "kappa", &r->kappa);
  st = st ? st : sk_model_add_param(*model, "sigma", &r->sigma);
  st = st ? st : sk_model_set_rhs_param(*model, rod_rhs_param);
  if (st != SK_OK) {
    return st;
  }
  if (!pattern && analytic) {
    return sk_context_set_error(ctx, SK_ERR_INPUT,
                                "model.parameters.analytic_jacobian needs model.parameters.pattern");
  }
  if (!pattern) {
    return SK_OK; /* f alone: stiffkit detects the pattern */
  }
  if (analytic) {
    sk_model_set_jac_values(*model, rod_jacobian);
  }
  int64_t *colptr = NULL, *rowind = NULL;
  st = rod_pattern(r->n, &colptr, &rowind);
  st = st ? st : sk_model_set_jac_pattern(*model, colptr, rowind);
  free(colptr);
  free(rowind);
  return st;
}
