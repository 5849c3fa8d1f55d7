/* src/steppers/stepper_sens.c: the stepper's forward-sensitivity settings, their option table and the reader of the engine's sensitivities */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "steppers/stepper_impl.h"

static const sk_option_spec sens_options[] = {
    {"solver.sensitivity.parameters", SK_OPT_STRING, "", 0, 0, NULL,
     "forward sensitivities dy/dp of these model parameters, by name, separated by commas "
     "(\"k0, beta\"; a netlist element's as R1.R; an unknown name is refused with the model's "
     "list); engines cvode-bdf and cvode-adams (CVODES); \"\" = none"},
    {"solver.sensitivity.method", SK_OPT_CHOICE, "simultaneous", 0, 0, "simultaneous|staggered",
     "corrector of the sensitivity systems: simultaneous (with the state's Newton iteration) or "
     "staggered (after it converged), CVODES' CV_SIMULTANEOUS and CV_STAGGERED"},
    {"solver.sensitivity.error_control", SK_OPT_BOOL, "true", 0, 0, NULL,
     "include the sensitivities in the local error test (CVodeSetSensErrCon)"},
    {"solver.sensitivity.pbar", SK_OPT_REAL_LIST, "", -1e300, 1e300, NULL,
     "scale of each parameter, one per name of solver.sensitivity.parameters (\"\" = the "
     "absolute nominal values; a parameter whose value is 0 needs one)"},
};

const sk_option_spec *sk_stepper_sensitivity_options(size_t *n)
{
  *n = sizeof sens_options / sizeof sens_options[0];
  return sens_options;
}

void sk__stepper_sens_free(sk_stepper *s)
{
  sk__free(s->ctx, s->sens.param);
  sk__free(s->ctx, s->sens.pbar);
  sk__free(s->ctx, s->sens.init);
  memset(&s->sens, 0, sizeof s->sens);
}

sk_status sk__stepper_sens_write(sk_stepper *s, const double *v)
{
  for (int j = 0; j < s->sens.np; j++) {
    if (sk_model_get_param(s->user_model, s->sens.param[j]) != v[j]) {
      SK_CALL(s->ctx, sk_model_set_param(s->user_model, s->sens.param[j], v[j]));
    }
  }
  return SK_OK;
}

sk_status sk_stepper_set_sensitivity(sk_stepper *s, int np, const int *params, const double *pbar,
                                     sk_sens_method method, int error_control)
{
  if (!s) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = s->ctx;
  SK_CHECK(ctx, !s->is_setup, SK_ERR_STATE, "%s: settings cannot change after setup", __func__);
  SK_CHECK(ctx, np >= 0 && (np == 0 || params), SK_ERR_ARG,
           "sk_stepper_set_sensitivity: np = %d, params %s", np, params ? "given" : "NULL");
  if (np == 0) {
    sk__stepper_sens_free(s);
    return SK_OK;
  }
  /* (the registry that could list the types is a layer above: the built-in ones are named,
     as the other capability refusals of the generic stepper do) */
  SK_CHECK(ctx, s->type->flags & SK_STEPPER_SENSITIVITY, SK_ERR_UNSUPPORTED,
           "solver '%s' computes no sensitivities (solver.sensitivity.parameters): use one of "
           "the engines that do: cvode-bdf, cvode-adams, ida-bdf",
           s->type->name);
  const sk_model *m = s->user_model;
  const int nparams = sk_model_get_nparams(m);
  for (int j = 0; j < np; j++) {
    SK_CHECK(ctx, params[j] >= 0 && params[j] < nparams, SK_ERR_ARG,
             "sk_stepper_set_sensitivity: model '%s' has no parameter %d (it has %d)",
             sk_model_get_name(m), params[j], nparams);
    for (int k = 0; k < j; k++) {
      SK_CHECK(ctx, params[k] != params[j], SK_ERR_ARG,
               "sensitivity parameter '%s' is given twice",
               sk_model_get_param_name(m, params[j]));
    }
    if (pbar) {
      SK_CHECK(ctx, isfinite(pbar[j]) && pbar[j] != 0.0, SK_ERR_ARG,
               "solver.sensitivity.pbar for '%s' is %g: a scale must be finite and nonzero",
               sk_model_get_param_name(m, params[j]), pbar[j]);
    } else {
      SK_CHECK(ctx, sk_model_get_param(m, params[j]) != 0.0, SK_ERR_INPUT,
               "sensitivity parameter '%s' has the value 0, which gives no scale: set "
               "solver.sensitivity.pbar (one scale per parameter, the typical magnitude of each)",
               sk_model_get_param_name(m, params[j]));
    }
  }
  int *pi = sk__malloc(ctx, (size_t)np * sizeof *pi);
  double *pb = sk__malloc(ctx, (size_t)np * sizeof *pb);
  if (!pi || !pb) {
    sk__free(ctx, pi);
    sk__free(ctx, pb);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivity settings");
  }
  for (int j = 0; j < np; j++) {
    pi[j] = params[j];
    pb[j] = pbar ? fabs(pbar[j]) : fabs(sk_model_get_param(m, params[j]));
  }
  sk__stepper_sens_free(s);
  s->sens.np = np;
  s->sens.param = pi;
  s->sens.pbar = pb;
  s->sens.staggered = method == SK_SENS_STAGGERED;
  s->sens.errcon = error_control != 0;
  return SK_OK;
}

int sk_stepper_get_nsens(const sk_stepper *s)
{
  return s ? s->sens.np : 0;
}

int sk_stepper_get_sens_param(const sk_stepper *s, int j)
{
  return s && j >= 0 && j < s->sens.np ? s->sens.param[j] : -1;
}

double sk_stepper_get_sens_pbar(const sk_stepper *s, int j)
{
  return s && j >= 0 && j < s->sens.np ? s->sens.pbar[j] : 0.0;
}

sk_status sk_stepper_set_sens_initial(sk_stepper *s, const double *S)
{
  if (!s) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = s->ctx;
  SK_CHECK(ctx, S != NULL, SK_ERR_ARG, "sk_stepper_set_sens_initial: NULL sensitivities");
  SK_CHECK(ctx, s->sens.np > 0, SK_ERR_STATE,
           "sk_stepper_set_sens_initial: the stepper computes no sensitivities");
  const size_t len = (size_t)s->sens.np * (size_t)sk_model_get_n(s->model);
  for (size_t i = 0; i < len; i++) {
    SK_CHECK(ctx, isfinite(S[i]), SK_ERR_ARG,
             "initial sensitivity %zu of parameter '%s' is not finite", i % (len / s->sens.np),
             sk_model_get_param_name(s->user_model, s->sens.param[i / (len / s->sens.np)]));
  }
  if (!s->sens.init) {
    s->sens.init = sk__malloc(ctx, len * sizeof *s->sens.init);
    SK_CHECK(ctx, s->sens.init != NULL, SK_ERR_NOMEM, "cannot allocate the sensitivities");
  }
  memcpy(s->sens.init, S, len * sizeof *S);
  s->sens.have_init = 1;
  return SK_OK;
}

sk_status sk_stepper_get_sensitivity(sk_stepper *s, int j, double *out)
{
  if (!s) {
    return SK_ERR_ARG;
  }
  SK_CHECK(s->ctx, j >= 0 && j < s->sens.np && out, SK_ERR_ARG,
           "sk_stepper_get_sensitivity: no sensitivity %d (the stepper has %d)", j, s->sens.np);
  SK_CHECK(s->ctx, s->is_setup && s->sens.get, SK_ERR_STATE,
           "sk_stepper_get_sensitivity: the stepper is not set up");
  return s->sens.get(s, j, out);
}

/* Where key's value came from, as "file:line:col: " ("--set: " from the command line). */
static void origin_of(const sk_options *opts, const char *key, char *buf, size_t len)
{
  sk_option_origin o = {0};
  buf[0] = '\0';
  if (sk_options_get_origin(opts, key, &o) == SK_OK) {
    if (o.file) {
      snprintf(buf, len, "%s:%d:%d: ", o.file, o.line, o.column);
    } else if (o.from_command_line) {
      snprintf(buf, len, "--set: ");
    }
  }
}

/* Split the names of solver.sensitivity.parameters and find each in the model. */
static sk_status parse_names(sk_stepper *s, const sk_options *opts, const char *spec, int *idx,
                             int cap, int *np)
{
  sk_context *ctx = s->ctx;
  const sk_model *m = s->user_model;
  *np = 0;
  const char *p = spec;
  while (*p) {
    while (*p == ',' || isspace((unsigned char)*p)) {
      p++;
    }
    const char *b = p;
    while (*p && *p != ',' && !isspace((unsigned char)*p)) {
      p++;
    }
    if (p == b) {
      break;
    }
    char name[64];
    const size_t len = (size_t)(p - b);
    char where[512];
    origin_of(opts, "solver.sensitivity.parameters", where, sizeof where);
    char list[1024];
    sk_model_param_names(m, list, sizeof list);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), b);
    const int k = len < sizeof name ? sk_model_find_param(m, name) : -1;
    SK_CHECK(ctx, k >= 0, SK_ERR_INPUT,
             "%ssolver.sensitivity.parameters: model '%s' has no parameter '%.*s'; its "
             "parameters: %s",
             where, sk_model_get_name(m), (int)(len > 64 ? 64 : len), b, list);
    SK_CHECK(ctx, *np < cap, SK_ERR_INPUT,
             "%ssolver.sensitivity.parameters: more names than the model's %d parameters", where,
             cap);
    idx[(*np)++] = k;
  }
  return SK_OK;
}

sk_status sk__stepper_sens_from_options(sk_stepper *s, const sk_options *opts)
{
  sk_context *ctx = s->ctx;
  if (!sk_options_is_key(opts, "solver.sensitivity.parameters") ||
      !sk_options_is_set(opts, "solver.sensitivity.parameters")) {
    return SK_OK;
  }
  const char *spec = "", *method = "simultaneous";
  int errcon = 1;
  const double *pbar = NULL;
  size_t npbar = 0;
  SK_CALL(ctx, sk_options_get_string(opts, "solver.sensitivity.parameters", &spec));
  SK_CALL(ctx, sk_options_get_string(opts, "solver.sensitivity.method", &method));
  SK_CALL(ctx, sk_options_get_bool(opts, "solver.sensitivity.error_control", &errcon));
  SK_CALL(ctx, sk_options_get_real_list(opts, "solver.sensitivity.pbar", &pbar, &npbar));
  const int cap = sk_model_get_nparams(s->user_model);
  int *idx = sk__malloc(ctx, (size_t)(cap > 0 ? cap : 1) * sizeof *idx);
  SK_CHECK(ctx, idx != NULL, SK_ERR_NOMEM, "cannot allocate the sensitivity parameters");
  int np = 0;
  sk_status st = parse_names(s, opts, spec, idx, cap, &np);
  if (st == SK_OK && npbar > 0 && npbar != (size_t)np) {
    char where[512];
    origin_of(opts, "solver.sensitivity.pbar", where, sizeof where);
    st = SK_ERROR(ctx, SK_ERR_INPUT,
                  "%ssolver.sensitivity.pbar: %zu values for %d parameters (one scale per name "
                  "of solver.sensitivity.parameters)",
                  where, npbar, np);
  }
  if (st == SK_OK) {
    st = sk_stepper_set_sensitivity(
        s, np, idx, npbar ? pbar : NULL,
        strcmp(method, "staggered") ? SK_SENS_SIMULTANEOUS : SK_SENS_STAGGERED, errcon);
  }
  sk__free(ctx, idx);
  return st;
}
