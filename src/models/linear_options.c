/* src/models/linear_options.c: the linear model from Matrix Market files, a formula or a table: reading, size checks, the model.* keys of model.type = linear */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "io/time_function.h"
#include "models/grid_keys.h"
#include "models/linear_keys.h"
#include "sparse/matrix_market.h"
#include "stiffkit/linear.h"
#include "stiffkit/model_type.h"

#define SK__BIND_STRUCT sk__linear_keys
SK__BIND_DEFINE(sk__linear, SK__LINEAR_KEYS, sk__linear_keys, SK__LINEAR_KEY_COUNT)
#undef SK__BIND_STRUCT

const sk_option_spec *sk_linear_options(size_t *n)
{
  return sk__linear_options(n);
}

void sk_linear_params_default(sk_linear_params *p)
{
  memset(p, 0, sizeof *p);
  p->lumping = SK_LINEAR_LUMP_NONE;
}

/* 1 for a non-empty string (a file or formula that was given). */
static int given(const char *s)
{
  return s != NULL && s[0] != '\0';
}

/* What the files hold, and the names used in messages. */
typedef struct {
  sk__mm_matrix k, m;
  double *b, *u0;
  int64_t nb, nu0;
  sk__time_function *tf;
  char k_name[320], m_name[320];
} linear_files;

/* Free what read_files read (accepts a partly filled f). */
static void files_free(sk_context *ctx, linear_files *f)
{
  sk__mm_matrix_free(ctx, &f->k);
  sk__mm_matrix_free(ctx, &f->m);
  sk__free(ctx, f->b);
  sk__free(ctx, f->u0);
  sk__time_function_destroy(&f->tf);
}

/* A vector's length against the order of K. */
static sk_status check_length(sk_context *ctx, const char *key, const char *path, int64_t len,
                              const linear_files *f)
{
  SK_CHECK(ctx, len == f->k.nrows, SK_ERR_INPUT,
           "%s '%s' has %lld entries but %s is %lld x %lld: the sizes must agree", key, path,
           (long long)len, f->k_name, (long long)f->k.nrows, (long long)f->k.ncols);
  return SK_OK;
}

/* The amplitude g(t): a formula, a table or none (g = 1). */
static sk_status read_amplitude(sk_context *ctx, const sk_linear_params *p, linear_files *f)
{
  const int formula = given(p->load_amplitude), table = given(p->load_table);
  SK_CHECK(ctx, !(formula && table), SK_ERR_INPUT,
           "model.load_amplitude and model.load_table are both set: give one amplitude g(t)");
  SK_CHECK(ctx, !(formula || table) || given(p->load), SK_ERR_INPUT,
           "%s is set but model.load is not: g(t) scales the load vector b",
           formula ? sk__linear_key(SK__LINEAR_KEY_load_amplitude)
                   : sk__linear_key(SK__LINEAR_KEY_load_table));
  if (formula) {
    SK_CALL_STOP(ctx, sk__time_function_formula(ctx, p->load_amplitude,
                                                sk__linear_key(SK__LINEAR_KEY_load_amplitude),
                                                &f->tf));
  } else if (table) {
    SK_CALL_STOP(ctx, sk__time_function_table(ctx, p->load_table,
                                              sk__linear_key(SK__LINEAR_KEY_load_table), &f->tf));
  }
  return SK_OK;
}

/* Read K, M, b, u0 and g(t), checking that the sizes agree. */
static sk_status read_files(sk_context *ctx, const sk_linear_params *p, linear_files *f)
{
  snprintf(f->k_name, sizeof f->k_name, "model.stiffness '%s'", p->stiffness);
  SK_CALL_STOP(ctx,
               sk__mm_read_matrix(ctx, p->stiffness, sk__linear_key(SK__LINEAR_KEY_stiffness),
                                  SK__MM_SQUARE, &f->k));
  SK_CHECK(ctx, p->lumping == SK_LINEAR_LUMP_NONE || given(p->mass), SK_ERR_INPUT,
           "model.mass_lumping = row-sum needs a mass matrix (model.mass)");
  if (given(p->mass)) {
    snprintf(f->m_name, sizeof f->m_name, "model.mass '%s'", p->mass);
    SK_CALL_STOP(ctx, sk__mm_read_matrix(ctx, p->mass, sk__linear_key(SK__LINEAR_KEY_mass),
                                         SK__MM_SQUARE, &f->m));
    SK_CHECK(ctx, f->m.nrows == f->k.nrows, SK_ERR_INPUT,
             "%s is %lld x %lld but %s is %lld x %lld: the sizes must agree", f->m_name,
             (long long)f->m.nrows, (long long)f->m.ncols, f->k_name, (long long)f->k.nrows,
             (long long)f->k.ncols);
  }
  if (given(p->load)) {
    SK_CALL_STOP(ctx, sk__mm_read_vector(ctx, p->load, sk__linear_key(SK__LINEAR_KEY_load),
                                         &f->nb, &f->b));
    SK_CALL_STOP(ctx, check_length(ctx, sk__linear_key(SK__LINEAR_KEY_load), p->load, f->nb, f));
  }
  if (given(p->initial)) {
    SK_CALL_STOP(ctx, sk__mm_read_vector(ctx, p->initial, sk__linear_key(SK__LINEAR_KEY_initial),
                                         &f->nu0, &f->u0));
    SK_CALL_STOP(
        ctx, check_length(ctx, sk__linear_key(SK__LINEAR_KEY_initial), p->initial, f->nu0, f));
  }
  SK_CALL_STOP(ctx, read_amplitude(ctx, p, f));
  return SK_OK;
}

/* g(t) of a time function, as the model's amplitude callback. */
static double amplitude_eval(double t, void *ud)
{
  return sk__time_function_eval(ud, t);
}

/* Free the time function with the model. */
static void amplitude_free(void *ud)
{
  sk__time_function *tf = ud;
  sk__time_function_destroy(&tf);
}

sk_status sk_linear_create_from_files(sk_context *ctx, const sk_linear_params *p,
                                      sk_model **model)
{
  SK_CHECK(ctx, model != NULL && p != NULL, SK_ERR_ARG,
           "sk_linear_create_from_files: NULL argument");
  *model = NULL;
  SK_CHECK(ctx, given(p->stiffness), SK_ERR_ARG,
           "linear model: no stiffness matrix file given (model.stiffness)");
  linear_files f;
  memset(&f, 0, sizeof f);
  sk_status st = read_files(ctx, p, &f);
  if (st == SK_OK) {
    sk_linear_system sys;
    memset(&sys, 0, sizeof sys);
    sys.n = f.k.nrows;
    sys.k_colptr = f.k.colptr;
    sys.k_rowind = f.k.rowind;
    sys.k_values = f.k.values;
    sys.m_colptr = f.m.colptr;
    sys.m_rowind = f.m.rowind;
    sys.m_values = f.m.values;
    sys.lumping = p->lumping;
    sys.load = f.b;
    sys.initial = f.u0;
    sys.ic_value = p->ic_value;
    sys.k_name = f.k_name;
    sys.m_name = f.m_name;
    if (f.tf) { /* the model owns the amplitude from here on */
      sys.amplitude = amplitude_eval;
      sys.amplitude_data = f.tf;
      sys.amplitude_free = amplitude_free;
      f.tf = NULL;
    }
    st = sk_linear_create(ctx, &sys, model);
  }
  files_free(ctx, &f);
  SK_CALL_STOP(ctx, st);
  return SK_OK;
}

sk_status sk_linear_params_from_options(sk_context *ctx, const sk_options *opts,
                                        sk_linear_params *p)
{
  SK_CHECK(ctx, opts != NULL && p != NULL, SK_ERR_ARG,
           "sk_linear_params_from_options: NULL argument");
  sk_linear_params_default(p);
  sk__linear_keys k;
  SK_CALL_STOP(ctx, sk__linear_settings_read(opts, &k, NULL));
  SK_CHECK(ctx, given(k.stiffness), SK_ERR_INPUT,
           "model.type = linear needs model.stiffness (a Matrix Market file of K)");
  SK_CALL_STOP(ctx, sk__linear_paths_resolve(opts, &k));
  p->stiffness = k.stiffness;
  p->mass = k.mass;
  /* the choices' order is the enum's: none, row-sum */
  p->lumping = (sk_linear_lumping)sk__choice_index(
      sk__linear_options(NULL)[SK__LINEAR_KEY_mass_lumping].choices, k.mass_lumping);
  p->load = k.load;
  p->load_amplitude = k.load_amplitude;
  p->load_table = k.load_table;
  p->initial = k.initial;
  /* the diffusion family's constant initial state, where its keys are registered */
  const char *ic_value = sk__diffusion_key(SK__DIFFUSION_KEY_ic_value);
  if (sk_options_is_key(opts, ic_value)) {
    SK_CALL_STOP(ctx, sk_options_get_real(opts, ic_value, &p->ic_value));
  }
  return SK_OK;
}

sk_status sk_linear_model_from_options(sk_context *ctx, const sk_options *opts, sk_model **model)
{
  SK_CHECK(ctx, model != NULL, SK_ERR_ARG, "sk_linear_model_from_options: NULL model");
  *model = NULL;
  sk_linear_params p;
  SK_CALL_STOP(ctx, sk_linear_params_from_options(ctx, opts, &p));
  sk_model *m = NULL;
  SK_CALL_STOP(ctx, sk_linear_create_from_files(ctx, &p, &m));
  *model = m;
  return SK_OK;
}

static sk_status create_linear(sk_context *ctx, sk_options *opts, sk_model **model)
{
  return sk_linear_model_from_options(ctx, opts, model);
}

const sk_model_type sk__model_type_linear = {
    .name = "linear",
    .description = "a linear model M u' = -K u + g(t) b from Matrix Market files",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .options = sk_linear_options,
    .create = create_linear};
