/* src/models/formula_options.c: the formula model type: a model built from the formula.* keys (ODE, mass matrix, implicit DAE, events), with every formula checked at the initial state */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csc.h"
#include "core/error.h"
#include "core/model_impl.h"
#include "core/options_impl.h"
#include "models/formula_keys.h"
#include "steppers/stepper_keys.h"
#include "stiffkit/model_type.h"

/* What a formula may read. */
enum { READ_STATE, READ_STATE_DERIV, READ_PARAMS, READ_TIME };

/* The variables of the formulas of F for `what`. */
static int variables(sk__formula_model *F, int what, sk__formula_var *v)
{
  int nv = 0;
  if (what != READ_PARAMS) {
    v[nv++] = (sk__formula_var){"t", &F->t};
  }
  if (what == READ_STATE || what == READ_STATE_DERIV) {
    for (int64_t i = 0; i < F->n; i++) {
      v[nv++] = (sk__formula_var){F->names[i], &F->y[i]};
    }
    for (int64_t i = 0; what == READ_STATE_DERIV && i < F->n; i++) {
      v[nv++] = (sk__formula_var){F->names[F->n + i], &F->yp[i]};
    }
  }
  for (int k = 0; k < F->np; k++) {
    v[nv++] = (sk__formula_var){F->names[2 * F->n + k], &F->p[k]};
  }
  for (int k = 0; (what == READ_STATE || what == READ_STATE_DERIV) && k < F->nin; k++) {
    v[nv++] = (sk__formula_var){F->names[2 * F->n + F->np + k], &F->u[k]};
  }
  return nv;
}

/* Compile the formula of `key` and check its value at the initial state. */
static sk_status compile_key(sk_context *ctx, const sk_options *opts, sk__formula_model *F,
                             const char *key, int what, const char *text, sk__formula *out)
{
  char where[320];
  sk_options_where(opts, key, where, sizeof where);
  sk__formula_var *v = sk__malloc(ctx, (size_t)(2 * F->n + F->np + F->nin + 1) * sizeof *v);
  SK_CHECK(ctx, v != NULL, SK_ERR_NOMEM, "cannot allocate the formula's names");
  const int nv = variables(F, what, v);
  sk_status st = sk__formula_compile(ctx, text, where, v, nv, out);
  sk__free(ctx, v);
  SK_CALL(ctx, st);
  const double value = sk__formula_eval(*out);
  if (isfinite(value)) {
    return SK_OK;
  }
  char state[512] = "";
  size_t used = 0;
  for (int64_t i = 0; i < F->n && used < sizeof state - 40; i++) {
    const int w = snprintf(state + used, sizeof state - used, ", %s = %g", F->names[i], F->y[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s: the formula '%s' is %g at the initial state (t = %g%s%s): a division by "
                  "zero, a logarithm or root of a negative number, or an overflow there",
                  where, text, value, F->t,
                  what == READ_PARAMS ? "; it reads the parameters" : "", state);
}

/* The string value of `key` ("" when it is not a key). */
static const char *text_of(const sk_options *opts, const char *key)
{
  const char *text = "";
  if (sk_options_is_key(opts, key)) {
    sk_options_get_string(opts, key, &text);
  }
  return text;
}

/* The next registered key under `prefix` from *cursor on (copied to buf), NULL when none. */
static const char *key_under(const sk_options *opts, const char *prefix, size_t *cursor,
                             char *buf, size_t len)
{
  const size_t pl = strlen(prefix);
  for (const char *k; (k = sk__options_key_at(opts, *cursor)) != NULL; (*cursor)++) {
    if (strncmp(k, prefix, pl) == 0) {
      snprintf(buf, len, "%s", k);
      (*cursor)++;
      return buf;
    }
  }
  return NULL;
}

/* Names and storage of F from D, parameters, inputs and the initial values. */
static sk_status setup_data(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                            int dae, double t0, sk__formula_model *F)
{
  const int64_t n = D->n;
  F->n = n;
  F->dae = dae;
  F->np = D->np;
  F->nin = D->nin;
  const size_t nn = (size_t)n, np = (size_t)D->np + 1, ni = (size_t)D->nin + 1;
  F->names = sk__calloc(ctx, 2 * nn + np + ni, sizeof *F->names);
  F->eq = sk__calloc(ctx, nn, sizeof *F->eq);
  F->y = sk__calloc(ctx, nn, sizeof *F->y);
  F->yp = sk__calloc(ctx, nn, sizeof *F->yp);
  F->y0 = sk__calloc(ctx, nn, sizeof *F->y0);
  F->yp0 = sk__calloc(ctx, nn, sizeof *F->yp0);
  F->p = sk__calloc(ctx, np, sizeof *F->p);
  F->p0 = sk__calloc(ctx, np, sizeof *F->p0);
  F->u = sk__calloc(ctx, ni, sizeof *F->u);
  F->inputs = sk__calloc(ctx, ni, sizeof *F->inputs);
  F->f = sk__calloc(ctx, nn, sizeof *F->f);
  F->scratch = sk__calloc(ctx, nn + np, sizeof *F->scratch);
  SK_CHECK(ctx,
           F->names && F->eq && F->y && F->yp && F->y0 && F->yp0 && F->p && F->p0 && F->u &&
               F->inputs && F->f && F->scratch,
           SK_ERR_NOMEM, "cannot allocate the formula model (%lld variables)", (long long)n);
  for (int64_t i = 0; i < n; i++) {
    snprintf(F->names[i], SK__FM_NAME, "%s", D->var[i]);
    snprintf(F->names[n + i], SK__FM_NAME, "d%.30s", D->var[i]);
  }
  char key[SK__FM_KEY], where[320];
  for (int k = 0; k < D->np; k++) {
    snprintf(F->names[2 * n + k], SK__FM_NAME, "%s", D->param[k]);
    snprintf(key, sizeof key, "formula.parameters.%s", D->param[k]);
    SK_CALL(ctx, sk_options_get_real(opts, key, &F->p0[k]));
    F->p[k] = F->p0[k];
  }
  for (int k = 0; k < D->nin; k++) {
    snprintf(F->names[2 * n + D->np + k], SK__FM_NAME, "%s", D->input[k]);
    snprintf(key, sizeof key, "formula.inputs.%s", D->input[k]);
    if (sk_options_is_key(opts, key)) {
      sk_options_where(opts, key, where, sizeof where);
      SK_CALL(ctx, sk__time_function_formula(ctx, text_of(opts, key), where, &F->inputs[k]));
    } else {
      snprintf(key, sizeof key, "formula.tables.%s", D->input[k]);
      sk_options_where(opts, key, where, sizeof where);
      const char *path;
      SK_CALL(ctx, sk_options_get_input_file(opts, key, &path));
      SK_CALL(ctx, sk__time_function_table(ctx, path, where, &F->inputs[k]));
    }
    F->u[k] = sk__time_function_eval(F->inputs[k], t0);
  }
  /* a derivative's name d<v> must not be another name */
  for (int64_t i = 0; dae && i < n; i++) {
    for (int64_t j = 0; j < 2 * n + D->np + D->nin; j++) {
      SK_CHECK(ctx, j == n + i || strcmp(F->names[j], F->names[n + i]), SK_ERR_INPUT,
               "formula model: '%s' names the derivative of '%s' in the residuals, and is also "
               "a %s: rename one of them",
               F->names[n + i], D->var[i],
               j < n               ? "variable"
               : j < 2 * n         ? "derivative"
               : j < 2 * n + D->np ? "parameter"
                                   : "input");
    }
  }
  /* the initial values: one per variable */
  sk__formula_keys fk;
  SK_CALL(ctx, sk__formula_settings_read(opts, &fk, NULL));
  const sk__real_list ylists[2] = {fk.y0, fk.yp0};
  const int yrows[2] = {SK__FORMULA_KEY_y0, SK__FORMULA_KEY_yp0};
  for (int k = 0; k < 2; k++) {
    const double *vals = ylists[k].v;
    const size_t nv = ylists[k].n;
    sk_options_where(opts, sk__formula_key(yrows[k]), where, sizeof where);
    char vwhere[320];
    sk_options_where(opts, sk__formula_key(SK__FORMULA_KEY_variables), vwhere, sizeof vwhere);
    SK_CHECK(ctx, k == 0 || nv == 0 || dae, SK_ERR_INPUT,
             "%s: initial derivatives belong to a residual model (formula.residual); a model "
             "y' = f takes formula.y0 only",
             where);
    SK_CHECK(ctx, nv == (size_t)n || (k == 1 && nv == 0), SK_ERR_INPUT,
             "%s: %zu value%s for %lld variables (%s)%s", where, nv, nv == 1 ? "" : "s",
             (long long)n, vwhere, k == 0 && nv == 0 ? ": the initial state is required" : "");
    if (nv > 0) {
      memcpy(k ? F->yp0 : F->y0, vals, nv * sizeof *vals);
    }
  }
  F->t = t0;
  memcpy(F->y, F->y0, nn * sizeof *F->y);
  memcpy(F->yp, F->yp0, nn * sizeof *F->yp);
  return SK_OK;
}

/* The n equations: y' = f (named by variable) or residuals (in the order written). */
static sk_status compile_equations(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                                   sk__formula_model *F)
{
  char key[SK__FM_KEY], vwhere[320];
  sk_options_where(opts, sk__formula_key(SK__FORMULA_KEY_variables), vwhere, sizeof vwhere);
  if (F->dae && D->nres != D->n) {
    char labels[512] = "";
    for (int i = 0; i < D->nres && strlen(labels) < sizeof labels - 40; i++) {
      snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", i ? ", " : "",
               D->res[i]);
    }
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "formula.residual: %d residual%s (%s) for %d variables (%s): give one "
                    "equation per variable",
                    D->nres, D->nres == 1 ? "" : "s", labels, D->n, vwhere);
  }
  size_t cur = 0;
  while (!F->dae && key_under(opts, "formula.rhs.", &cur, key, sizeof key)) {
    if (sk__fm_find(D, SK__FM_VAR, key + strlen("formula.rhs.")) < 0) {
      char where[320];
      sk_options_where(opts, key, where, sizeof where);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: '%s' is not a variable (the variables are those of %s)", where,
                      key + strlen("formula.rhs."), vwhere);
    }
  }
  for (int i = 0; i < D->n; i++) {
    snprintf(key, sizeof key, F->dae ? "formula.residual.%s" : "formula.rhs.%s",
             F->dae ? D->res[i] : D->var[i]);
    snprintf(F->eq[i], SK__FM_NAME, "%s", F->dae ? D->res[i] : D->var[i]);
    const char *text = text_of(opts, key);
    SK_CHECK(ctx, text[0], SK_ERR_INPUT,
             "%s is missing: the model has %d variables (%s) and a right-hand side for each is "
             "needed (y' = f(t, y, p) as a formula)",
             key, D->n, vwhere);
    SK_CALL(ctx, compile_key(ctx, opts, F, key, F->dae ? READ_STATE_DERIV : READ_STATE, text,
                             &F->f[i]));
  }
  return SK_OK;
}

/* Both names of a matrix entry key "formula.<section>.<row>.<col>" as variable indices. */
static sk_status entry_of(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                          const char *key, size_t skip, int64_t *row, int64_t *col)
{
  char r[SK__FM_KEY], where[320];
  snprintf(r, sizeof r, "%s", key + skip);
  char *dot = strchr(r, '.');
  *dot = '\0';
  *row = sk__fm_find(D, SK__FM_VAR, r);
  *col = sk__fm_find(D, SK__FM_VAR, dot + 1);
  sk_options_where(opts, key, where, sizeof where);
  char vwhere[320];
  sk_options_where(opts, sk__formula_key(SK__FORMULA_KEY_variables), vwhere, sizeof vwhere);
  SK_CHECK(ctx, *row >= 0 && *col >= 0, SK_ERR_INPUT,
           "%s: '%s' is not a variable (row: the equation of a variable, column: a variable; "
           "the variables are those of %s)",
           where, *row < 0 ? r : dot + 1, vwhere);
  return SK_OK;
}

static int64_t find_entry(const int64_t *cp, const int64_t *ri, int64_t row, int64_t col);

/* A residual model's formula.jacobian.<residual>.<column>: the row is a residual's label, the
 * column a variable (dF/dy) or its derivative d<variable> (dF/dy', *deriv = 1). */
static sk_status dae_entry_of(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                              const char *key, size_t skip, int64_t *row, int64_t *col,
                              unsigned char *deriv)
{
  char r[SK__FM_KEY], where[320];
  snprintf(r, sizeof r, "%s", key + skip);
  char *dot = strchr(r, '.'), *c = dot + 1;
  *dot = '\0';
  *row = -1;
  for (int i = 0; i < D->nres && *row < 0; i++) {
    *row = strcmp(D->res[i], r) ? -1 : i;
  }
  *col = sk__fm_find(D, SK__FM_VAR, c);
  *deriv = 0;
  if (*col < 0 && c[0] == 'd') {
    *col = sk__fm_find(D, SK__FM_VAR, c + 1);
    *deriv = 1;
  }
  sk_options_where(opts, key, where, sizeof where);
  SK_CHECK(ctx, *row >= 0, SK_ERR_INPUT,
           "%s: '%s' is not a residual (the row of a residual model's Jacobian entry is a label "
           "of formula.residual)",
           where, r);
  SK_CHECK(ctx, *col >= 0, SK_ERR_INPUT,
           "%s: '%s' is neither a variable nor the derivative d<variable> of one (the column: "
           "dF/dy of a variable, dF/dy' of its derivative)",
           where, c);
  return SK_OK;
}

/* Keep the nt mass formulas tf (taken over) and their places in M (cp, ri, v): an event that
 * sets a parameter they read re-evaluates M (formula_model.c). */
static sk_status keep_mass(sk_context *ctx, sk__formula_model *F, int64_t nt, const int64_t *ti,
                           const int64_t *tj, sk__formula *tf, const int64_t *cp,
                           const int64_t *ri, const double *v)
{
  F->mass = sk__calloc(ctx, (size_t)nt, sizeof *F->mass);
  F->mass_slot = sk__calloc(ctx, (size_t)nt, sizeof *F->mass_slot);
  F->mass_val = sk__calloc(ctx, (size_t)cp[F->n] + 1, sizeof *F->mass_val);
  SK_CHECK(ctx, F->mass && F->mass_slot && F->mass_val, SK_ERR_NOMEM,
           "cannot allocate the mass matrix's formulas");
  memcpy(F->mass_val, v, (size_t)cp[F->n] * sizeof *v);
  for (int64_t k = 0; k < nt; k++) {
    F->mass[k] = tf[k];
    tf[k] = NULL;
    F->mass_slot[k] = find_entry(cp, ri, ti[k], tj[k]);
  }
  F->nmass = nt;
  return SK_OK;
}

/* formula.mass.<row>.<col>: M y' = f, entries of the parameters (others 0). */
static sk_status build_mass(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                            sk__formula_model *F, sk_model *m)
{
  static const char prefix[] = "formula.mass.";
  int64_t nt = 0, cap = 16, *ti = NULL, *tj = NULL;
  double *tv = NULL;
  sk__formula *tf = NULL;
  char key[SK__FM_KEY];
  sk_status st = SK_OK;
  size_t cur = 0;
  ti = malloc((size_t)cap * sizeof *ti);
  tj = malloc((size_t)cap * sizeof *tj);
  tv = malloc((size_t)cap * sizeof *tv);
  tf = calloc((size_t)cap, sizeof *tf);
  F->mass_reads = sk__calloc(ctx, (size_t)F->np + 1, sizeof *F->mass_reads);
  st = ti && tj && tv && tf && F->mass_reads
           ? SK_OK
           : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the mass matrix");
  while (st == SK_OK && key_under(opts, prefix, &cur, key, sizeof key)) {
    int64_t r, c;
    st = entry_of(ctx, opts, D, key, sizeof prefix - 1, &r, &c);
    sk__formula f = NULL;
    if (st == SK_OK) {
      st = compile_key(ctx, opts, F, key, READ_PARAMS, text_of(opts, key), &f);
    }
    if (st == SK_OK && nt == cap) {
      cap *= 2;
      int64_t *a = realloc(ti, (size_t)cap * sizeof *ti),
              *b = a ? realloc(tj, (size_t)cap * sizeof *tj) : NULL;
      double *v = b ? realloc(tv, (size_t)cap * sizeof *tv) : NULL;
      sk__formula *g = v ? realloc(tf, (size_t)cap * sizeof *tf) : NULL;
      ti = a ? a : ti;
      tj = b ? b : tj;
      tv = v ? v : tv;
      tf = g ? g : tf;
      st = g ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot grow the mass matrix");
    }
    if (st == SK_OK) {
      ti[nt] = r;
      tj[nt] = c;
      tf[nt] = f;
      tv[nt++] = sk__formula_eval(f);
      f = NULL;
      for (int k = 0; k < sk__formula_nreads(tf[nt - 1]); k++) {
        F->mass_reads[sk__formula_read(tf[nt - 1], k) - F->p] = 1; /* it reads parameters only */
      }
    }
    sk__formula_free(f);
  }
  int64_t *cp = NULL, *ri = NULL;
  double *v = NULL;
  if (st == SK_OK && nt > 0) {
    st = sk__csc_from_triplets_values(ctx, F->n, F->n, nt, ti, tj, tv, &cp, &ri, &v);
    if (st == SK_OK) {
      sk__model_set_mass_name(m, "formula.mass");
      st = sk_model_set_mass(m, cp, ri, v);
    }
    if (st == SK_OK) {
      st = keep_mass(ctx, F, nt, ti, tj, tf, cp, ri, v);
    }
  }
  for (int64_t k = 0; tf && k < nt; k++) {
    sk__formula_free(tf[k]);
  }
  free(tf);
  sk__free(ctx, cp);
  sk__free(ctx, ri);
  sk__free(ctx, v);
  free(ti);
  free(tj);
  free(tv);
  return st;
}

/* Position of (row, col) in a CSC pattern (-1 when absent). */
static int64_t find_entry(const int64_t *cp, const int64_t *ri, int64_t row, int64_t col)
{
  for (int64_t p = cp[col]; p < cp[col + 1]; p++) {
    if (ri[p] == row) {
      return p;
    }
  }
  return -1;
}

/* The Jacobian pattern from triplets (plus the diagonal when asked), stored in m. */
static sk_status set_pattern(sk_context *ctx, sk__formula_model *F, sk_model *m, int64_t nt,
                             int64_t *ti, int64_t *tj, int add_diagonal, int64_t **cp,
                             int64_t **ri)
{
  for (int64_t j = 0; add_diagonal && j < F->n; j++) {
    ti[nt] = tj[nt] = j;
    nt++;
  }
  SK_CALL(ctx, sk__csc_from_triplets(ctx, F->n, nt, ti, tj, cp, ri));
  F->jac_nnz = (*cp)[F->n];
  return sk_model_set_jac_pattern(m, *cp, *ri);
}

/* formula.jacobian.<row>.<col>: analytic df_row/dy_col of a model y' = f (others 0); of a
 * residual model, dF_row/dy_col or dF_row/dy'_col (column d<variable>), the iteration matrix
 * dF/dy + cj dF/dy' in the pattern of the entries given (the differential variables stay those
 * whose derivative some residual reads). */
static sk_status build_jacobian(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                                sk__formula_model *F, sk_model *m)
{
  static const char prefix[] = "formula.jacobian.";
  char key[SK__FM_KEY];
  size_t cur = 0;
  int64_t count = 0;
  while (key_under(opts, prefix, &cur, key, sizeof key)) {
    count++;
  }
  if (count == 0) {
    return SK_OK;
  }
  int64_t *ti = sk__malloc(ctx, (size_t)(count + F->n) * sizeof *ti);
  int64_t *tj = sk__malloc(ctx, (size_t)(count + F->n) * sizeof *tj);
  F->jac = sk__calloc(ctx, (size_t)count, sizeof *F->jac);
  F->jac_slot = sk__calloc(ctx, (size_t)count, sizeof *F->jac_slot);
  F->jac_deriv = sk__calloc(ctx, (size_t)count, 1);
  sk_status st = ti && tj && F->jac && F->jac_slot && F->jac_deriv
                     ? SK_OK
                     : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Jacobian entries");
  cur = 0;
  for (int64_t k = 0; st == SK_OK && k < count; k++) {
    key_under(opts, prefix, &cur, key, sizeof key);
    st = F->dae ? dae_entry_of(ctx, opts, D, key, sizeof prefix - 1, &ti[k], &tj[k],
                               &F->jac_deriv[k])
                : entry_of(ctx, opts, D, key, sizeof prefix - 1, &ti[k], &tj[k]);
    if (st == SK_OK) {
      st = compile_key(ctx, opts, F, key, F->dae ? READ_STATE_DERIV : READ_STATE,
                       text_of(opts, key), &F->jac[k]);
      F->njac = k + 1;
    }
  }
  int64_t *cp = NULL, *ri = NULL;
  if (st == SK_OK) {
    st = set_pattern(ctx, F, m, count, ti, tj, 0, &cp, &ri); /* as given */
  }
  for (int64_t k = 0; st == SK_OK && k < count; k++) {
    F->jac_slot[k] = find_entry(cp, ri, ti[k], tj[k]);
  }
  if (st == SK_OK) {
    st = sk__formula_model_use_jacobian(F, m);
  }
  sk__free(ctx, cp);
  sk__free(ctx, ri);
  sk__free(ctx, ti);
  sk__free(ctx, tj);
  return st;
}

/* A residual model: which variables are differential (some residual reads d<name>), and
 * the structural pattern of dF/dy + cj dF/dy' (what each residual reads). */
static sk_status build_dae_structure(sk_context *ctx, sk__formula_model *F, sk_model *m)
{
  int64_t total = 0;
  for (int64_t i = 0; i < F->n; i++) {
    total += sk__formula_nreads(F->f[i]);
  }
  int *id = sk__calloc(ctx, (size_t)F->n, sizeof *id);
  int64_t *ti = sk__malloc(ctx, (size_t)(total + F->n) * sizeof *ti);
  int64_t *tj = sk__malloc(ctx, (size_t)(total + F->n) * sizeof *tj);
  sk_status st =
      id && ti && tj ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the DAE pattern");
  int64_t nt = 0;
  for (int64_t i = 0; st == SK_OK && i < F->n; i++) {
    for (int r = 0; r < sk__formula_nreads(F->f[i]); r++) {
      const double *at = sk__formula_read(F->f[i], r);
      int64_t j = -1;
      if (at >= F->y && at < F->y + F->n) {
        j = at - F->y;
      } else if (at >= F->yp && at < F->yp + F->n) {
        j = at - F->yp;
        id[j] = 1;
      }
      if (j >= 0) {
        ti[nt] = i;
        tj[nt++] = j;
      }
    }
  }
  int64_t *cp = NULL, *ri = NULL;
  if (st == SK_OK) {
    st = sk_model_set_differential(m, id);
  }
  if (st == SK_OK) {
    st = set_pattern(ctx, F, m, nt, ti, tj, 1, &cp, &ri);
  }
  sk__free(ctx, cp);
  sk__free(ctx, ri);
  sk__free(ctx, id);
  sk__free(ctx, ti);
  sk__free(ctx, tj);
  return st;
}

/* formula.exact.<variable>: the exact solution, formulas in t and the parameters, for
 * every variable or for none. */
static sk_status build_exact(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                             sk__formula_model *F)
{
  char key[SK__FM_KEY], where[320];
  size_t cur = 0;
  int given = 0;
  while (key_under(opts, "formula.exact.", &cur, key, sizeof key)) {
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_find(D, SK__FM_VAR, key + strlen("formula.exact.")) >= 0, SK_ERR_INPUT,
             "%s: '%s' is not a variable", where, key + strlen("formula.exact."));
    given++;
  }
  if (given == 0) {
    return SK_OK;
  }
  F->exact = sk__calloc(ctx, (size_t)F->n, sizeof *F->exact);
  SK_CHECK(ctx, F->exact != NULL, SK_ERR_NOMEM, "cannot allocate the exact solution");
  for (int64_t i = 0; i < F->n; i++) {
    snprintf(key, sizeof key, "formula.exact.%s", D->var[i]);
    const char *text = text_of(opts, key);
    SK_CHECK(ctx, text[0], SK_ERR_INPUT,
             "formula.exact: give the exact solution of every variable or of none (%d of %lld "
             "given; %s is missing)",
             given, (long long)F->n, key);
    SK_CALL(ctx, compile_key(ctx, opts, F, key, READ_TIME, text, &F->exact[i]));
  }
  return SK_OK;
}

/* One event's action text: "stop", or "name = formula" items separated by ';'. */
static sk_status parse_action(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                              sk__formula_model *F, const char *key, const char *text,
                              sk__fm_event *e)
{
  char where[320];
  sk_options_where(opts, key, where, sizeof where);
  char buf[SK__FORMULA_MAX_LEN + 1];
  SK_CHECK(ctx, strlen(text) <= SK__FORMULA_MAX_LEN, SK_ERR_INPUT,
           "%s: longer than %d characters", where, SK__FORMULA_MAX_LEN);
  SK_CHECK(ctx, text[strspn(text, " \t")], SK_ERR_INPUT,
           "%s is missing: say what the event does: stop, or assignments such as \"v = -e*v\"",
           key);
  snprintf(buf, sizeof buf, "%s", text);
  size_t items = 1; /* at most one assignment per ';'-separated item */
  for (const char *c = buf; *c; c++) {
    items += *c == ';';
  }
  e->assign = sk__calloc(ctx, items, sizeof *e->assign);
  SK_CHECK(ctx, e->assign != NULL, SK_ERR_NOMEM, "%s: cannot allocate the action", where);
  for (char *item = strtok(buf, ";"); item; item = strtok(NULL, ";")) {
    item += strspn(item, " \t");
    size_t len = strlen(item);
    while (len && (item[len - 1] == ' ' || item[len - 1] == '\t')) {
      item[--len] = '\0';
    }
    if (!strcmp(item, "stop")) {
      e->stop = 1;
      continue;
    }
    char *eq = strchr(item, '=');
    SK_CHECK(ctx, eq && len > 0, SK_ERR_INPUT,
             "%s: '%s' is neither stop nor an assignment name = formula", where, item);
    char name[SK__FM_NAME + 1] = "";
    size_t nl = (size_t)(eq - item);
    while (nl && (item[nl - 1] == ' ' || item[nl - 1] == '\t')) {
      nl--;
    }
    SK_CHECK(ctx, sk__fm_is_identifier(item, nl), SK_ERR_INPUT,
             "%s: '%.*s' is not a name to assign", where, (int)nl, item);
    snprintf(name, sizeof name, "%.*s", (int)nl, item);
    const int64_t sv = sk__fm_find(D, SK__FM_VAR, name), pv = sk__fm_find(D, SK__FM_PARAM, name);
    SK_CHECK(ctx, sv >= 0 || pv >= 0, SK_ERR_INPUT,
             "%s: '%s' is neither a variable nor a parameter (an action sets those)", where,
             name);
    sk__fm_assign *a = &e->assign[e->nassign];
    a->target = sv >= 0 ? sv : F->n + pv;
    SK_CALL(ctx, compile_key(ctx, opts, F, key, READ_STATE, eq + 1, &a->value));
    e->nassign++;
  }
  return SK_OK;
}

/* formula.events.<label>.{when, direction, action}. */
static sk_status build_events(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                              sk__formula_model *F)
{
  if (D->nev == 0) {
    return SK_OK;
  }
  F->ev = sk__calloc(ctx, (size_t)D->nev, sizeof *F->ev);
  SK_CHECK(ctx, F->ev != NULL, SK_ERR_NOMEM, "cannot allocate the events");
  F->nev = D->nev;
  char key[SK__FM_KEY];
  for (int k = 0; k < D->nev; k++) {
    sk__fm_event *e = &F->ev[k];
    snprintf(e->label, sizeof e->label, "%s", D->ev[k]);
    snprintf(key, sizeof key, "formula.events.%s.when", D->ev[k]);
    const char *when = text_of(opts, key);
    SK_CHECK(ctx, when[0], SK_ERR_INPUT,
             "%s is missing: the event's root function (the event is where it crosses 0)", key);
    SK_CALL(ctx, compile_key(ctx, opts, F, key, READ_STATE, when, &e->when));
    snprintf(key, sizeof key, "formula.events.%s.direction", D->ev[k]);
    const char *dir = text_of(opts, key);
    e->direction = !strcmp(dir, "rising") ? 1 : !strcmp(dir, "falling") ? -1 : 0;
    snprintf(key, sizeof key, "formula.events.%s.action", D->ev[k]);
    SK_CALL(ctx, parse_action(ctx, opts, D, F, key, text_of(opts, key), e));
  }
  return SK_OK;
}

/* Every parameter and input must be read by some formula: one that none reads is a
 * misspelling. */
static sk_status check_used(sk_context *ctx, const sk_options *opts, const sk__fm_desc *D,
                            const sk__formula_model *F)
{
  for (int k = 0; k < D->np + D->nin; k++) {
    const double *at = k < D->np ? &F->p[k] : &F->u[k - D->np];
    int used = 0;
    const sk__formula *all[3] = {F->f, F->jac, F->exact};
    const int64_t counts[3] = {F->n, F->njac, F->exact ? F->n : 0};
    for (int s = 0; s < 3 && !used; s++) {
      for (int64_t i = 0; i < counts[s] && !used; i++) {
        for (int r = 0; r < sk__formula_nreads(all[s][i]) && !used; r++) {
          used = sk__formula_read(all[s][i], r) == at;
        }
      }
    }
    for (int e = 0; e < F->nev && !used; e++) {
      for (int r = 0; r < sk__formula_nreads(F->ev[e].when) && !used; r++) {
        used = sk__formula_read(F->ev[e].when, r) == at;
      }
      for (int a = 0; a < F->ev[e].nassign && !used; a++) {
        for (int r = 0; r < sk__formula_nreads(F->ev[e].assign[a].value) && !used; r++) {
          used = sk__formula_read(F->ev[e].assign[a].value, r) == at;
        }
      }
    }
    used |= k < D->np && F->mass_reads && F->mass_reads[k]; /* a mass entry reads it */
    if (!used) {
      char key[SK__FM_KEY], where[320];
      snprintf(key, sizeof key, k < D->np ? "formula.parameters.%s" : "formula.inputs.%s",
               k < D->np ? D->param[k] : D->input[k - D->np]);
      if (k >= D->np && !sk_options_is_key(opts, key)) {
        snprintf(key, sizeof key, "formula.tables.%s", D->input[k - D->np]);
      }
      sk_options_where(opts, key, where, sizeof where);
      return SK_ERROR(ctx, SK_ERR_INPUT, "%s: no formula reads '%s': a misspelt name?", where,
                      k < D->np ? D->param[k] : D->input[k - D->np]);
    }
  }
  return SK_OK;
}

/* A parameter set from outside (sensitivities, verify's perturbed solves) is also the value
 * a run starts from: the reset at the start of a run restores p0. */
static int param_changed(int k, void *ud)
{
  sk__formula_model *F = ud;
  F->p0[k] = F->p[k];
  return 0;
}

/* The parameters as model parameters by name (solver.sensitivity.parameters), except those a
 * mass entry reads: the mass matrix is evaluated once. */
static sk_status declare_params(sk_context *ctx, sk__formula_model *F, sk_model *m)
{
  for (int k = 0; k < F->np; k++) {
    if (!(F->mass_reads && F->mass_reads[k])) {
      SK_CALL(ctx, sk_model_add_param(m, F->names[2 * F->n + k], &F->p[k]));
    }
  }
  return sk_model_set_param_changed(m, param_changed);
}

/* The model of description D (F is owned by m once attached). */
static sk_status build(sk_context *ctx, sk_options *opts, const sk__fm_desc *D, sk_model **model)
{
  int has_rhs = 0, has_mass = 0;
  char key[SK__FM_KEY];
  size_t cur = 0;
  has_rhs = key_under(opts, "formula.rhs.", &cur, key, sizeof key) != NULL;
  cur = 0;
  has_mass = key_under(opts, "formula.mass.", &cur, key, sizeof key) != NULL;
  const int dae = D->nres > 0;
  if (dae && has_rhs) {
    cur = 0;
    key_under(opts, "formula.rhs.", &cur, key, sizeof key);
    char where[320];
    sk_options_where(opts, key, where, sizeof where);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "%s: a model is either y' = f (formula.rhs) or F(t, y, y') = 0 "
                    "(formula.residual), not both",
                    where);
  }
  SK_CHECK(ctx, !(dae && has_mass), SK_ERR_INPUT,
           "formula.mass: a residual model F(t, y, y') = 0 writes M y' in its residuals; the "
           "mass matrix is for models M y' = f (formula.rhs)");
  double t0 = 0.0; /* solver.t0, where registered (steppers/stepper_keys.h) */
  if (sk__stepper_keys_registered(opts)) {
    sk__stepper_settings st;
    uint64_t given = 0;
    SK_CALL(ctx, sk__stepper_settings_read(opts, &st, &given));
    t0 = st.t0;
  }
  sk__formula_model *F = sk__calloc(ctx, 1, sizeof *F);
  SK_CHECK(ctx, F != NULL, SK_ERR_NOMEM, "cannot allocate the formula model");
  F->ctx = ctx;
  sk_status st = setup_data(ctx, opts, D, dae, t0, F);
  if (st == SK_OK) {
    st = compile_equations(ctx, opts, D, F);
  }
  if (st == SK_OK) {
    st = build_events(ctx, opts, D, F);
  }
  if (st == SK_OK) {
    st = build_exact(ctx, opts, D, F);
  }
  if (st == SK_OK) {
    st = sk_model_create(ctx, dae ? SK_MODEL_DAE : SK_MODEL_ODE, D->n, model);
  }
  if (st != SK_OK) {
    sk__formula_model_free(F);
    return st;
  }
  SK_CALL(ctx, sk__formula_model_attach(F, *model)); /* the model owns F from here */
  if (dae) {
    SK_CALL(ctx, build_dae_structure(ctx, F, *model));
  } else {
    SK_CALL(ctx, build_mass(ctx, opts, D, F, *model));
  }
  SK_CALL(ctx, build_jacobian(ctx, opts, D, F, *model));
  SK_CALL(ctx, declare_params(ctx, F, *model));
  return check_used(ctx, opts, D, F);
}

static sk_status formula_create(sk_context *ctx, sk_options *opts, sk_model **model)
{
  *model = NULL;
  sk__fm_desc *D = calloc(1, sizeof *D);
  SK_CHECK(ctx, D != NULL, SK_ERR_NOMEM, "cannot allocate the formula description");
  sk_status st = sk__fm_read_variables(ctx, opts, D);
  if (st == SK_OK) {
    st = sk__fm_register_keys(ctx, opts, D);
  }
  if (st == SK_OK) {
    st = sk_options_check_pending(opts);
  }
  if (st == SK_OK) {
    st = build(ctx, opts, D, model);
  }
  free(D);
  if (st != SK_OK) {
    sk_model_destroy(model);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

const sk_model_type sk__model_type_formula = {
    .name = "formula",
    .description = "a model written as formulas: y' = f, M y' = f or F(t, y, y') = 0, with "
                   "parameters, inputs and events (formula.*)",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .flags = SK_MODEL_TYPE_DECLARES_KEYS,
    .options = sk__formula_options,
    .deferred_sections = sk__formula_sections,
    .create = formula_create};
