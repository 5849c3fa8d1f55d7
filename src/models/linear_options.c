/* src/models/linear_options.c: the linear model from Matrix Market files, a formula or a table: reading, size checks, the model.* keys of model.type = linear */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "io/time_function.h"
#include "models/grid.h"
#include "sparse/matrix_market.h"
#include "stiffkit/linear.h"
#include "stiffkit/model_type.h"

/* the rows of linear_table, in order */
enum {
  KEY_STIFFNESS,
  KEY_MASS,
  KEY_MASS_LUMPING,
  KEY_LOAD,
  KEY_LOAD_AMPLITUDE,
  KEY_LOAD_TABLE,
  KEY_INITIAL
};

static const sk_option_spec linear_table[] = {
    {"model.stiffness", SK_OPT_PATH, "", 0, 0, NULL,
     "model.type = linear, M u' = -K u + g(t) b: Matrix Market file of the square stiffness "
     "matrix K (required; a path in a config is relative to the config's directory, one given "
     "with --set to the working directory)"},
    {"model.mass", SK_OPT_PATH, "", 0, 0, NULL,
     "Matrix Market file of the mass matrix M (\"\" = identity): M u' = g b - K u. ida-bdf: "
     "the residual M u' + K u - g b with iteration matrix c M + K (any linsol.type; zero "
     "columns of M make algebraic variables, a zero row an algebraic equation); the other "
     "solvers: u' = M^{-1} (g b - K u), M nonsingular (diagonal M: any linsol.type; general "
     "M: linsol.type=spgmr, the Newton systems solved exactly through M + gamma K)"},
    {"model.mass_lumping", SK_OPT_CHOICE, "none", 0, 0, "none|row-sum",
     "row-sum: replace M by the diagonal of its row sums (lumped mass; an approximation of a "
     "consistent M that keeps each row's total)"},
    {"model.load", SK_OPT_PATH, "", 0, 0, NULL,
     "Matrix Market file of the load vector b (n x 1; \"\" = no load)"},
    {"model.load_amplitude", SK_OPT_STRING, "", 0, 0, NULL,
     "load amplitude g(t) as a formula in t (muparser: + - * / ^, sin, exp, sqrt, min, max, "
     "pi, t < 1 ? a : b, ...; \"\" = 1 unless model.load_table is given)"},
    {"model.load_table", SK_OPT_PATH, "", 0, 0, NULL,
     "load amplitude g(t) from a CSV file of rows 't, g' (t increasing; linear between rows, "
     "constant beyond the ends; \"\" = none)"},
    {"model.initial", SK_OPT_PATH, "", 0, 0, NULL,
     "Matrix Market file of the initial state u0 (n x 1; \"\" = model.ic_value everywhere)"},
};
_Static_assert(sizeof linear_table / sizeof linear_table[0] == KEY_INITIAL + 1,
               "one KEY_* a row");

const sk_option_spec *sk_linear_options(size_t *n)
{
  if (n) {
    *n = sizeof linear_table / sizeof linear_table[0];
  }
  return linear_table;
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
           formula ? linear_table[KEY_LOAD_AMPLITUDE].key : linear_table[KEY_LOAD_TABLE].key);
  if (formula) {
    SK_CALL_STOP(ctx, sk__time_function_formula(ctx, p->load_amplitude,
                                                linear_table[KEY_LOAD_AMPLITUDE].key, &f->tf));
  } else if (table) {
    SK_CALL_STOP(ctx, sk__time_function_table(ctx, p->load_table,
                                              linear_table[KEY_LOAD_TABLE].key, &f->tf));
  }
  return SK_OK;
}

/* Read K, M, b, u0 and g(t), checking that the sizes agree. */
static sk_status read_files(sk_context *ctx, const sk_linear_params *p, linear_files *f)
{
  snprintf(f->k_name, sizeof f->k_name, "model.stiffness '%s'", p->stiffness);
  SK_CALL_STOP(ctx, sk__mm_read_matrix(ctx, p->stiffness, linear_table[KEY_STIFFNESS].key,
                                       SK__MM_SQUARE, &f->k));
  SK_CHECK(ctx, p->lumping == SK_LINEAR_LUMP_NONE || given(p->mass), SK_ERR_INPUT,
           "model.mass_lumping = row-sum needs a mass matrix (model.mass)");
  if (given(p->mass)) {
    snprintf(f->m_name, sizeof f->m_name, "model.mass '%s'", p->mass);
    SK_CALL_STOP(
        ctx, sk__mm_read_matrix(ctx, p->mass, linear_table[KEY_MASS].key, SK__MM_SQUARE, &f->m));
    SK_CHECK(ctx, f->m.nrows == f->k.nrows, SK_ERR_INPUT,
             "%s is %lld x %lld but %s is %lld x %lld: the sizes must agree", f->m_name,
             (long long)f->m.nrows, (long long)f->m.ncols, f->k_name, (long long)f->k.nrows,
             (long long)f->k.ncols);
  }
  if (given(p->load)) {
    SK_CALL_STOP(ctx,
                 sk__mm_read_vector(ctx, p->load, linear_table[KEY_LOAD].key, &f->nb, &f->b));
    SK_CALL_STOP(ctx, check_length(ctx, linear_table[KEY_LOAD].key, p->load, f->nb, f));
  }
  if (given(p->initial)) {
    SK_CALL_STOP(
        ctx, sk__mm_read_vector(ctx, p->initial, linear_table[KEY_INITIAL].key, &f->nu0, &f->u0));
    SK_CALL_STOP(ctx, check_length(ctx, linear_table[KEY_INITIAL].key, p->initial, f->nu0, f));
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
  SK_CALL_STOP(ctx,
               sk_options_get_input_file(opts, linear_table[KEY_STIFFNESS].key, &p->stiffness));
  SK_CHECK(ctx, given(p->stiffness), SK_ERR_INPUT,
           "model.type = linear needs model.stiffness (a Matrix Market file of K)");
  SK_CALL_STOP(ctx, sk_options_get_input_file(opts, linear_table[KEY_MASS].key, &p->mass));
  const char *lump = NULL;
  SK_CALL_STOP(ctx, sk_options_get_string(opts, linear_table[KEY_MASS_LUMPING].key, &lump));
  p->lumping = strcmp(lump, "row-sum") == 0 ? SK_LINEAR_LUMP_ROW_SUM : SK_LINEAR_LUMP_NONE;
  SK_CALL_STOP(ctx, sk_options_get_input_file(opts, linear_table[KEY_LOAD].key, &p->load));
  SK_CALL_STOP(
      ctx, sk_options_get_string(opts, linear_table[KEY_LOAD_AMPLITUDE].key, &p->load_amplitude));
  SK_CALL_STOP(ctx,
               sk_options_get_input_file(opts, linear_table[KEY_LOAD_TABLE].key, &p->load_table));
  SK_CALL_STOP(ctx, sk_options_get_input_file(opts, linear_table[KEY_INITIAL].key, &p->initial));
  /* the diffusion family's constant initial state, where its keys are registered */
  const char *ic_value = sk__diffusion_key(SK__DIFFUSION_KEY_IC_VALUE);
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
