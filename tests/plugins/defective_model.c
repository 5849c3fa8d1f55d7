/* tests/plugins/defective_model.c: a test model plugin (a linear decay chain) whose analytic Jacobian or pattern can be made wrong on purpose */
/* The chain y_0' = -k_0 y_0, y_i' = k_{i-1} y_{i-1} - k_i y_i (k_i = 1 + i),
 * y(0) = e_0, on n = model.parameters.n components. Its Jacobian is lower
 * bidiagonal: column j holds rows j and j+1. model.parameters.defect picks
 * what is wrong, for the tests of the Jacobian self-test:
 *   none            -- everything is right;
 *   wrong-entry     -- the analytic diagonal entry (3, 3) is twice too large;
 *   outside-pattern -- y_0' also depends on y_{n-1}, outside the pattern;
 *   late            -- the analytic entry (5, 5) is wrong only once
 *                      y_5 > 1e-8, i.e. not at the initial state but after
 *                      the first steps;
 *   wrong-jtimes    -- the J v product (given for the Krylov solvers)
 *                      drops the coupling term of component 4. */
#include <stdlib.h>
#include <string.h>

#include <stiffkit/stiffkit.h>

SK_PLUGIN_DEFINE_ABI_VERSION()

static const sk_option_spec chain_parameters[] = {
    {"model.parameters.n", SK_OPT_INT, "8", 6, 1000, NULL, "components"},
    {"model.parameters.defect", SK_OPT_CHOICE, "none", 0, 0,
     "none|wrong-entry|outside-pattern|late|wrong-jtimes", "the deliberate defect"},
};

SK_PLUGIN_EXPORT const sk_option_spec *sk_plugin_model_options(size_t *n)
{
  *n = sizeof chain_parameters / sizeof chain_parameters[0];
  return chain_parameters;
}

typedef struct {
  int64_t n;
  char defect[32];
} chain;

static double rate(int64_t i)
{
  return 1.0 + (double)i;
}

static int chain_rhs(double t, const double *y, double *f, void *data)
{
  (void)t;
  const chain *c = data;
  for (int64_t i = 0; i < c->n; i++) {
    f[i] = -rate(i) * y[i] + (i > 0 ? rate(i - 1) * y[i - 1] : 0.0);
  }
  if (strcmp(c->defect, "outside-pattern") == 0) {
    f[0] += 0.5 * y[c->n - 1];
  }
  return 0;
}

static int chain_jacobian(double t, const double *y, const double *fy, double *values, void *data)
{
  (void)t;
  (void)fy;
  const chain *c = data;
  int64_t p = 0;
  for (int64_t j = 0; j < c->n; j++) {
    double diag = -rate(j);
    if ((j == 3 && strcmp(c->defect, "wrong-entry") == 0) ||
        (j == 5 && strcmp(c->defect, "late") == 0 && y[5] > 1e-8)) {
      diag *= 2.0;
    }
    values[p++] = diag;
    if (j + 1 < c->n) {
      values[p++] = rate(j);
    }
  }
  return 0;
}

static int chain_jtimes(double t, const double *y, const double *fy, const double *v, double *jv,
                        void *data)
{
  (void)t;
  (void)y;
  (void)fy;
  const chain *c = data;
  for (int64_t i = 0; i < c->n; i++) {
    const int drop = i == 4 && strcmp(c->defect, "wrong-jtimes") == 0;
    jv[i] = -rate(i) * v[i] + (i > 0 && !drop ? rate(i - 1) * v[i - 1] : 0.0);
  }
  return 0;
}

static int chain_initial(double t0, double *y, void *data)
{
  (void)t0;
  const chain *c = data;
  memset(y, 0, (size_t)c->n * sizeof *y);
  y[0] = 1.0;
  return 0;
}

SK_PLUGIN_EXPORT sk_status sk_plugin_create_model(sk_context *ctx, const sk_options *opts,
                                                  sk_model **model)
{
  chain *c = calloc(1, sizeof *c);
  const char *defect = NULL;
  if (!c) {
    return SK_ERR_NOMEM;
  }
  sk_status st = sk_options_get_int(opts, "model.parameters.n", &c->n);
  st = st ? st : sk_options_get_string(opts, "model.parameters.defect", &defect);
  st = st ? st : sk_model_create(ctx, SK_MODEL_ODE, c->n, model);
  if (st != SK_OK) {
    free(c);
    return st;
  }
  strncpy(c->defect, defect, sizeof c->defect - 1);
  sk_model_set_user_data(*model, c, free);
  sk_model_set_name(*model, "decay chain (defective test plugin)");
  sk_model_set_rhs(*model, chain_rhs);
  sk_model_set_initial(*model, chain_initial);
  sk_model_set_jac_values(*model, chain_jacobian);
  sk_model_set_jtimes(*model, chain_jtimes);
  int64_t *colptr = malloc((size_t)(c->n + 1) * sizeof *colptr);
  int64_t *rowind = malloc((size_t)(2 * c->n) * sizeof *rowind);
  st = colptr && rowind ? SK_OK : SK_ERR_NOMEM;
  for (int64_t j = 0, p = 0; st == SK_OK && j <= c->n; j++) {
    colptr[j] = p;
    if (j < c->n) {
      rowind[p++] = j;
    }
    if (j + 1 < c->n) {
      rowind[p++] = j + 1;
    }
  }
  st = st ? st : sk_model_set_jac_pattern(*model, colptr, rowind);
  free(colptr);
  free(rowind);
  return st;
}
