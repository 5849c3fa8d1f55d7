/* src/models/bvp_options.c: the bvp.* option keys, the named keys a description declares (equations, parameters, labelled conditions, guess, exact solution), and the problem built from them */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "models/bvp_formulas.h"
#include "models/bvp_keys.h"
#include "stiffkit/model_type.h"
#include "stiffkit/options.h"

static const sk_option_spec bvp_table[] = {SK__BVP_KEYS(SK__BIND_SPEC)};

#define SK__BIND_STRUCT sk__bvp_keys
static const size_t bvp_offsets[] = {SK__BVP_KEYS(SK__BIND_OFFSET)};
#undef SK__BIND_STRUCT

sk_status sk__bvp_keys_read(const sk_options *opts, sk__bvp_keys *k, uint64_t *given)
{
  *k = (sk__bvp_keys){0};
  return sk__options_read_bound(opts, bvp_table, bvp_offsets, SK__BVP_KEY_COUNT, k, given);
}

const char *sk__bvp_key(int i)
{
  return sk__bound_key(bvp_table, SK__BVP_KEY_COUNT, i);
}

const sk_option_spec *sk_bvp_options(size_t *n)
{
  if (n) {
    *n = SK__BVP_KEY_COUNT;
  }
  return bvp_table;
}

/* The sections whose keys a description names itself. */
static const char *const named_sections[] = {"bvp.equations", "bvp.parameters", "bvp.bc",
                                             "bvp.guess",     "bvp.exact",      NULL};

sk_status sk_bvp_defer_sections(sk_options *opts)
{
  for (size_t k = 0; named_sections[k]; k++) {
    SK_CALL(sk_options_get_context(opts), sk_options_defer_section(opts, named_sections[k]));
  }
  return SK_OK;
}

/* The keys registered for one description (the options keep pointers). */
#define KEY_LEN 96
struct sk_bvp_keys {
  size_t n;
  sk_option_spec *spec;
  char (*names)[KEY_LEN];
};

void sk_bvp_keys_destroy(sk_bvp_keys **keys)
{
  if (keys && *keys) {
    free((*keys)->spec);
    free((*keys)->names);
    free(*keys);
    *keys = NULL;
  }
}

/* "file:line:col: key" (or "--set key", or "key") into buf. */
static int is_identifier(const char *s, size_t n)
{
  if (n == 0 || n >= 32 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) {
    return 0;
  }
  for (size_t i = 1; i < n; i++) {
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) {
      return 0;
    }
  }
  return 1;
}

/* A description being read. */
typedef struct {
  int m, order, d;
  char var[SK_BVP_MAX_DIM][32];
  char comp[SK_BVP_MAX_DIM][32];
  int np;
  char param[SK_BVP_MAX_PARAMS][32];
  int nbc;
  char label[SK_BVP_MAX_DIM + 1][32];
} description;

/* bvp.variables into names; order-2 derivatives named d<v>. */
static sk_status read_variables(sk_context *ctx, const sk_options *opts, description *D)
{
  sk__bvp_keys k;
  SK_CALL(ctx, sk__bvp_keys_read(opts, &k, NULL));
  const char *text = k.variables;
  char where[256];
  sk_options_where(opts, sk__bvp_key(SK__BVP_KEY_variables), where, sizeof where);
  D->order = (int)k.order;
  for (const char *p = text; *p;) {
    p += strspn(p, " ,\t");
    const size_t n = strcspn(p, " ,\t");
    if (n == 0) {
      break;
    }
    SK_CHECK(ctx, is_identifier(p, n), SK_ERR_INPUT,
             "%s: '%.*s' is not a variable name (letters, digits and _, starting with a "
             "letter, at most 31 characters)",
             where, (int)n, p);
    SK_CHECK(ctx, (D->m + 1) * D->order <= SK_BVP_MAX_DIM, SK_ERR_INPUT,
             "%s: more than %d components", where, SK_BVP_MAX_DIM);
    snprintf(D->var[D->m], sizeof D->var[0], "%.*s", (int)n, p);
    SK_CHECK(ctx, strcmp(D->var[D->m], "x") && strcmp(D->var[D->m], "pi"), SK_ERR_INPUT,
             "%s: '%s' is reserved (x is the independent variable, pi the constant)", where,
             D->var[D->m]);
    for (int i = 0; i < D->m; i++) {
      SK_CHECK(ctx, strcmp(D->var[i], D->var[D->m]), SK_ERR_INPUT, "%s: '%s' is named twice",
               where, D->var[i]);
    }
    D->m++;
    p += n;
  }
  SK_CHECK(ctx, D->m > 0, SK_ERR_INPUT,
           "%s: no variables: name the unknown functions, e.g. bvp.variables: \"T, q\"", where);
  D->d = D->m * D->order;
  for (int i = 0; i < D->m; i++) {
    snprintf(D->comp[i], sizeof D->comp[0], "%s", D->var[i]);
    if (D->order == 2) {
      SK_CHECK(ctx, strlen(D->var[i]) < 31, SK_ERR_INPUT, "%s: '%s' is too long", where,
               D->var[i]);
      D->comp[D->m + i][0] = 'd';
      memcpy(D->comp[D->m + i] + 1, D->var[i], strlen(D->var[i]) + 1);
    }
  }
  for (int i = 0; i < D->d; i++) { /* d<v> must not shadow another variable */
    for (int j = 0; j < i; j++) {
      SK_CHECK(ctx, strcmp(D->comp[i], D->comp[j]), SK_ERR_INPUT,
               "%s: the component name '%s' is used twice (order 2 names the derivative of v "
               "dv)",
               where, D->comp[i]);
    }
  }
  return SK_OK;
}

/* The parameter names and condition labels among the pending keys. */
static sk_status read_pending_names(sk_context *ctx, const sk_options *opts, description *D)
{
  const char *key;
  for (size_t i = 0; (key = sk_options_pending_key(opts, i)) != NULL; i++) {
    int seen = 0; /* a key set twice (config, then --set) is pending twice */
    for (int k = 0; k < D->np; k++) {
      seen |= !strncmp(key, "bvp.parameters.", 15) && !strcmp(D->param[k], key + 15);
    }
    if (!seen && !strncmp(key, "bvp.parameters.", 15) && !strchr(key + 15, '.')) {
      SK_CHECK(ctx, D->np < SK_BVP_MAX_PARAMS, SK_ERR_INPUT, "more than %d parameters",
               SK_BVP_MAX_PARAMS);
      const char *name = key + 15;
      SK_CHECK(ctx, is_identifier(name, strlen(name)), SK_ERR_INPUT,
               "%s: '%s' is not a parameter name", key, name);
      snprintf(D->param[D->np++], sizeof D->param[0], "%s", name);
    } else if (!strncmp(key, "bvp.bc.", 7)) {
      const char *label = key + 7;
      const size_t n = strcspn(label, ".");
      int known = 0;
      for (int k = 0; k < D->nbc; k++) {
        known |= strlen(D->label[k]) == n && !strncmp(D->label[k], label, n);
      }
      SK_CHECK(ctx, n < 32, SK_ERR_INPUT,
               "%s: the condition label '%.*s' is longer than 31 "
               "characters",
               key, (int)n, label);
      int ok = n > 0;
      for (size_t c = 0; c < n; c++) {
        ok &= isalnum((unsigned char)label[c]) || label[c] == '_' || label[c] == '-';
      }
      SK_CHECK(ctx, ok, SK_ERR_INPUT,
               "%s: the condition label '%.*s' may hold only letters, digits, '_' and '-'", key,
               (int)n, label);
      if (!known) {
        SK_CHECK(ctx, D->nbc <= SK_BVP_MAX_DIM, SK_ERR_INPUT, "more than %d boundary conditions",
                 SK_BVP_MAX_DIM);
        snprintf(D->label[D->nbc++], sizeof D->label[0], "%.*s", (int)n, label);
      }
    }
  }
  return SK_OK;
}

/* Register the named keys of description D. */
static sk_status register_named(sk_context *ctx, sk_options *opts, const description *D,
                                sk_bvp_keys **out)
{
  sk_bvp_keys *K = calloc(1, sizeof *K);
  const size_t cap = (size_t)(D->m + 2 * D->d + D->np + 2 * D->nbc);
  if (K) {
    K->spec = calloc(cap, sizeof *K->spec);
    K->names = calloc(cap, sizeof *K->names);
  }
  if (!K || !K->spec || !K->names) {
    sk_bvp_keys_destroy(&K);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the BVP's keys");
  }
#define ADD(type, def, help, ...)                                                  \
  do {                                                                             \
    snprintf(K->names[K->n], KEY_LEN, __VA_ARGS__);                                \
    K->spec[K->n] = (sk_option_spec){K->names[K->n], type, def, 0, 0, NULL, help}; \
    K->n++;                                                                        \
  } while (0)
  for (int i = 0; i < D->m; i++) {
    ADD(SK_OPT_STRING, "",
        D->order == 2 ? "y'' of this variable (formula)" : "y' of this variable (formula)",
        "bvp.equations.%s", D->var[i]);
  }
  for (int i = 0; i < D->d; i++) {
    ADD(SK_OPT_STRING, "", "initial guess of this component (formula in x; default 0)",
        "bvp.guess.%s", D->comp[i]);
    ADD(SK_OPT_STRING, "", "exact solution of this component (formula in x), if known",
        "bvp.exact.%s", D->comp[i]);
  }
  for (int k = 0; k < D->np; k++) {
    ADD(SK_OPT_REAL, "", "a parameter of the formulas", "bvp.parameters.%s", D->param[k]);
  }
  for (int k = 0; k < D->nbc; k++) {
    ADD(SK_OPT_STRING, "",
        "where the condition holds: left, right, the x of an end, or both "
        "(coupled: names <component>_a and <component>_b)",
        "bvp.bc.%s.at", D->label[k]);
    ADD(SK_OPT_STRING, "", "the condition, a formula that is 0 there", "bvp.bc.%s.condition",
        D->label[k]);
  }
#undef ADD
  const sk_status st = sk_options_register(opts, K->spec, K->n);
  if (st != SK_OK) {
    sk_bvp_keys_destroy(&K);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  *out = K;
  return SK_OK;
}

/* Where condition `label` holds: 0 left, 1 right, 2 both ends (coupled). */
static sk_status condition_end(sk_context *ctx, const sk_options *opts, const char *label,
                               double a, double b, int *end)
{
  char key[KEY_LEN], where[256];
  snprintf(key, sizeof key, "bvp.bc.%s.at", label);
  sk_options_where(opts, key, where, sizeof where);
  const char *at;
  SK_CALL(ctx, sk_options_get_string(opts, key, &at));
  if (!strcmp(at, "left") || !strcmp(at, "a")) {
    *end = 0;
    return SK_OK;
  }
  if (!strcmp(at, "right") || !strcmp(at, "b")) {
    *end = 1;
    return SK_OK;
  }
  if (!strcmp(at, "both")) {
    *end = 2;
    return SK_OK;
  }
  SK_CHECK(ctx, at[0], SK_ERR_INPUT,
           "%s: missing: say where boundary condition '%s' holds (left, right, both, or the x "
           "of an end)",
           where, label);
  char *endp;
  const double x = strtod(at, &endp);
  SK_CHECK(ctx, endp != at && *endp == '\0' && isfinite(x), SK_ERR_INPUT,
           "%s: '%s' is not left, right, both or a number", where, at);
  const double tol = 1e-12 * (b - a);
  SK_CHECK(ctx, x >= a - tol && x <= b + tol, SK_ERR_INPUT,
           "%s: x = %g is outside the interval [%g, %g] (bvp.interval)", where, x, a, b);
  SK_CHECK(ctx, fabs(x - a) <= tol || fabs(x - b) <= tol, SK_ERR_INPUT,
           "%s: x = %g is inside the interval [%g, %g]: conditions hold at an end (split the "
           "problem at an interior point)",
           where, x, a, b);
  *end = fabs(x - a) <= tol ? 0 : 1;
  return SK_OK;
}

/* Parse the formulas of D into F, conditions left first. */
static sk_status parse_formulas(sk_context *ctx, const sk_options *opts, const description *D,
                                sk_bvp *bvp, sk__bvp_formulas *F, int *n_left, int *n_right)
{
  char key[KEY_LEN], where[256];
  const char *text;
  for (int i = 0; i < D->m; i++) {
    snprintf(key, sizeof key, "bvp.equations.%s", D->var[i]);
    sk_options_where(opts, key, where, sizeof where);
    SK_CALL(ctx, sk_options_get_string(opts, key, &text));
    SK_CHECK(ctx, text[0], SK_ERR_INPUT, "%s is missing: give %s%s = f(x, %s...) as a formula",
             key, D->var[i], D->order == 2 ? "''" : "'", D->comp[0]);
    SK_CALL(ctx, sk__bvp_formulas_parse(F, bvp, SK__BVP_F_EQUATION, i, text, where));
  }
  for (int i = 0; i < D->d; i++) {
    static const char *const kinds[2] = {"guess", "exact"};
    for (int k = 0; k < 2; k++) {
      snprintf(key, sizeof key, "bvp.%s.%s", kinds[k], D->comp[i]);
      SK_CALL(ctx, sk_options_get_string(opts, key, &text));
      if (text[0]) {
        sk_options_where(opts, key, where, sizeof where);
        SK_CALL(ctx, sk__bvp_formulas_parse(F, bvp, k ? SK__BVP_F_EXACT : SK__BVP_F_GUESS, i,
                                            text, where));
      }
    }
  }
  /* exact formulas: for every variable or for none (a derivative's is optional) */
  int given = 0, missing = -1;
  for (int i = 0; i < D->d; i++) {
    snprintf(key, sizeof key, "bvp.exact.%s", D->comp[i]);
    SK_CALL(ctx, sk_options_get_string(opts, key, &text));
    if (i < D->m) {
      given += text[0] != 0;
      missing = !text[0] && missing < 0 ? i : missing;
    } else if (text[0] && given == 0) {
      sk_options_where(opts, key, where, sizeof where);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: an exact derivative without the exact solution of its variable",
                      where);
    }
  }
  SK_CHECK(ctx, given == 0 || given == D->m, SK_ERR_INPUT,
           "bvp.exact: give the exact solution of every variable or of none (%d of %d given; "
           "bvp.exact.%s is missing)",
           given, D->m, D->var[missing < 0 ? 0 : missing]);
  double a, b;
  sk_bvp_get_interval(bvp, &a, &b);
  static const char *const end_names[3] = {"left", "right", "both"};
  int ends[SK_BVP_MAX_DIM + 1], nl = 0, nr = 0;
  char summary[512] = "";
  for (int k = 0; k < D->nbc; k++) {
    SK_CALL(ctx, condition_end(ctx, opts, D->label[k], a, b, &ends[k]));
    nl += ends[k] == 0;
    nr += ends[k] == 1;
    snprintf(summary + strlen(summary), sizeof summary - strlen(summary), "%s'%s' (%s)",
             k ? ", " : "", D->label[k], end_names[ends[k]]);
  }
  SK_CHECK(ctx, D->nbc == D->d, SK_ERR_INPUT,
           "bvp.bc: %d variable%s of order %d make %d first-order equations, which need %d "
           "boundary conditions; %d %s given%s%s",
           D->m, D->m > 1 ? "s" : "", D->order, D->d, D->d, D->nbc, D->nbc == 1 ? "is" : "are",
           D->nbc ? ": " : "", summary);
  int slot = 0;
  const char *bcnames[SK_BVP_MAX_DIM];
  static const int order_of_ends[3] = {0, 2, 1}; /* left, coupled, right */
  static const int kind_of_end[3] = {SK__BVP_F_BC_LEFT, SK__BVP_F_BC_RIGHT, SK__BVP_F_BC_BOTH};
  for (int p = 0; p < 3; p++) {
    const int pass = order_of_ends[p];
    for (int k = 0; k < D->nbc; k++) {
      if (ends[k] != pass) {
        continue;
      }
      snprintf(key, sizeof key, "bvp.bc.%s.condition", D->label[k]);
      sk_options_where(opts, key, where, sizeof where);
      SK_CALL(ctx, sk_options_get_string(opts, key, &text));
      SK_CHECK(ctx, text[0], SK_ERR_INPUT,
               "%s is missing: give the condition as a formula that is 0 (at: %s; e.g. \"%s\")",
               key, end_names[pass], pass == 2 ? "y_a - y_b" : "y - 1");
      bcnames[slot] = D->label[k];
      SK_CALL(ctx, sk__bvp_formulas_parse(F, bvp, kind_of_end[pass], slot++, text, where));
    }
  }
  sk_bvp_set_condition_names(bvp, bcnames);
  *n_left = nl;
  *n_right = nr;
  return SK_OK;
}

/* Parameter names must not stand for anything else in a formula. */
static sk_status check_parameters(sk_context *ctx, const sk_options *opts, const description *D,
                                  double *values)
{
  for (int k = 0; k < D->np; k++) {
    char key[KEY_LEN], where[256];
    snprintf(key, sizeof key, "bvp.parameters.%s", D->param[k]);
    sk_options_where(opts, key, where, sizeof where);
    const char *p = D->param[k];
    SK_CHECK(ctx, strcmp(p, "x") && strcmp(p, "pi") && p[0] != '_', SK_ERR_INPUT,
             "%s: '%s' is reserved (x is the independent variable, pi the constant, names "
             "starting with _ are muparser's)",
             where, p);
    for (int i = 0; i < D->d; i++) {
      const size_t len = strlen(D->comp[i]);
      SK_CHECK(ctx,
               strcmp(p, D->comp[i]) &&
                   !(strncmp(p, D->comp[i], len) == 0 && p[len] == '_' &&
                     (p[len + 1] == 'a' || p[len + 1] == 'b') && p[len + 2] == '\0'),
               SK_ERR_INPUT,
               "%s: the parameter '%s' has the name of a component (or of its value at an "
               "end, %s_a / %s_b)",
               where, p, D->comp[i], D->comp[i]);
    }
    SK_CALL(ctx, sk_options_get_real(opts, key, &values[k]));
  }
  return SK_OK;
}

/* Every parameter must appear in some formula: one that none reads is a misspelling. */
static sk_status check_parameters_used(sk_context *ctx, const sk_options *opts,
                                       const description *D, const sk__bvp_formulas *F)
{
  for (int k = 0; k < D->np; k++) {
    if (!sk__bvp_formulas_uses(F, D->param[k])) {
      char key[KEY_LEN], where[256];
      snprintf(key, sizeof key, "bvp.parameters.%s", D->param[k]);
      sk_options_where(opts, key, where, sizeof where);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: no formula uses the parameter '%s' (equations, conditions, guess, "
                      "exact solution): a misspelt name?",
                      where, D->param[k]);
    }
  }
  return SK_OK;
}

/* The problem of description D (created in *bvp; destroyed again on failure). */
static sk_status build_problem(sk_context *ctx, const sk_options *opts, const description *D,
                               const double *iv, const double *pvals, sk_bvp *bvp)
{
  const char *names[SK_BVP_MAX_DIM], *pnames[SK_BVP_MAX_PARAMS];
  for (int i = 0; i < D->d; i++) {
    names[i] = D->comp[i];
  }
  for (int k = 0; k < D->np; k++) {
    pnames[k] = D->param[k];
  }
  SK_CALL(ctx, sk_bvp_set_component_names(bvp, names));
  SK_CALL(ctx, sk_bvp_set_parameters(bvp, D->np, pvals, pnames));
  sk_bvp_set_name(bvp, "bvp");
  sk__bvp_formulas *F = NULL;
  SK_CALL(ctx, sk__bvp_formulas_create(ctx, D->m, D->order, D->np, iv[0], iv[1], &F));
  int n_left = 0, n_right = 0;
  sk_status st = parse_formulas(ctx, opts, D, bvp, F, &n_left, &n_right);
  if (st == SK_OK) {
    st = check_parameters_used(ctx, opts, D, F);
  }
  if (st != SK_OK) {
    sk__bvp_formulas_free(F);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  sk__bvp_formulas_attach(F, bvp, n_left, n_right);
  return SK_OK;
}

sk_status sk_bvp_from_options(sk_context *ctx, sk_options *opts, sk_bvp **bvp, sk_bvp_keys **keys)
{
  SK_CHECK(ctx, opts && bvp && keys, SK_ERR_ARG, "sk_bvp_from_options: NULL argument");
  *bvp = NULL;
  *keys = NULL;
  description D;
  memset(&D, 0, sizeof D);
  SK_CALL(ctx, read_variables(ctx, opts, &D));
  SK_CALL(ctx, read_pending_names(ctx, opts, &D));
  SK_CALL(ctx, register_named(ctx, opts, &D, keys));
  SK_CALL(ctx, sk_options_check_pending(opts));
  double pvals[SK_BVP_MAX_PARAMS];
  SK_CALL(ctx, check_parameters(ctx, opts, &D, pvals));
  sk__bvp_keys k;
  SK_CALL(ctx, sk__bvp_keys_read(opts, &k, NULL));
  const double *iv = k.interval.v;
  const size_t niv = k.interval.n;
  char where[256];
  sk_options_where(opts, sk__bvp_key(SK__BVP_KEY_interval), where, sizeof where);
  SK_CHECK(ctx, niv == 2 && iv[0] < iv[1], SK_ERR_INPUT,
           "%s: give two numbers a < b (got %zu value%s)", where, niv, niv == 1 ? "" : "s");
  SK_CHECK(
      ctx, isfinite(iv[1] - iv[0]) && iv[1] - iv[0] > 1e-9 * fmax(fabs(iv[0]), fabs(iv[1])),
      SK_ERR_INPUT,
      "%s: the width of [%g, %g] must be finite and resolvable in double precision (at least "
      "1e-9 of its end values)",
      where, iv[0], iv[1]);
  SK_CALL(ctx, sk_bvp_create(ctx, D.d, iv[0], iv[1], bvp));
  const sk_status st = build_problem(ctx, opts, &D, iv, pvals, *bvp);
  if (st != SK_OK) {
    sk_bvp_destroy(bvp);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

const sk_model_type sk__model_type_bvp = {
    .name = "bvp",
    .description = "a two-point boundary-value problem from its equations (bvp.*)",
    .driver = SK_MODEL_DRIVER_BVP,
    .options = sk_bvp_options,
    .deferred_sections = named_sections};
