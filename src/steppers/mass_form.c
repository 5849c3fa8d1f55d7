/* src/steppers/mass_form.c: M y' = f(t, y) as the engines see it: the DAE F = M y' - f with iteration matrix c M - J, or the ODE y' = M^{-1} f (KLU factors of M, exact preconditioner (M - gamma J)^{-1} M) */
/*
 * Mathematics (contract: sk_model_set_mass in stiffkit/model.h):
 *   DAE form (ida-bdf):   F(t, y, y') = M y' - f(t, y),
 *     dF/dy + c dF/dy' = c M - J in the union of the patterns of M and J;
 *     y_j is algebraic when column j of M is zero (y'_j in no equation).
 *   ODE form (the others): y' = M^{-1} f(t, y), M nonsingular.
 *     Diagonal M = D: Jacobian D^{-1} J in the pattern of J.
 *     General M: M = LU once (KLU); the Newton matrix is
 *     I - gamma M^{-1} J = M^{-1} (M - gamma J), so the preconditioner
 *     z = (M - gamma J)^{-1} (M r) is its exact inverse; M - gamma J is
 *     analyzed once and refactored when gamma or J changes (a full factor
 *     when the refactor's rcond is poor).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <klu.h>

#include "core/error.h"
#include "core/model_impl.h"
#include "linsol/klu_factor.h"
#include "steppers/mass_form.h"
#include "core/csc.h"

/* Below this klu_l_rcond a refactor of M - gamma J is replaced by a full
 * factor (pivoting again), as in the Newton solver of the reference steppers. */
#define SK__MASS_RCOND_MIN 3.6e-11

typedef struct {
  sk_context *ctx;
  sk_model *inner; /* the user's model (not owned) */
  int64_t n;
  const int64_t *mcp, *mri; /* M (the inner model's arrays) */
  const double *mv;
  const int64_t *jcp, *jri;         /* J's pattern (the inner model's), or NULL */
  double *jv;                       /* J values */
  double *work;                     /* n */
  int64_t *acp, *ari, *amap, *jmap; /* union pattern; positions of M's and J's entries */
  double *ax;                       /* values in the union pattern (ODE form) */
  double *dg, *dinv;                /* diagonal M: D and 1 / D */
  sk__klu mklu;                     /* M (a general M of the ODE form) */
  sk__klu aklu;                     /* M - gamma J */
  double gamma_f;                   /* gamma of the factors of M - gamma J; 0 = none */
  int have_j;                       /* jv holds J from the last preconditioner setup */
  int *id;                          /* DAE form: 1 for a differential column of M */
  unsigned mass_version;            /* the inner model's M this form was derived from */
  const char *solver;               /* the engine (messages) */
} mass_form;

static void mass_form_free(void *ud)
{
  mass_form *d = ud;
  if (!d) {
    return;
  }
  sk_context *ctx = d->ctx;
  sk__klu_free(&d->mklu);
  sk__klu_free(&d->aklu);
  int64_t *ints[] = {d->acp, d->ari, d->amap, d->jmap};
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
    sk__free(ctx, ints[k]);
  }
  sk__free(ctx, d->id);
  double *reals[] = {d->jv, d->work, d->ax, d->dg, d->dinv};
  for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
    sk__free(ctx, reals[k]);
  }
  sk__free(ctx, d);
}

/* A checked evaluation of the inner model as a callback's return code: a
 * non-finite output is passed on (0), for the form's own check to name. */
static int callback_rc(sk_status st)
{
  return st == SK_OK || st == SK_ERR_NONFINITE ? 0 : st == SK_RECOVERABLE ? 1 : -1;
}

/* out = M v. */
static void mass_times(const mass_form *d, const double *v, double *out)
{
  memset(out, 0, (size_t)d->n * sizeof *out);
  for (int64_t j = 0; j < d->n; j++) {
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      out[d->mri[p]] += d->mv[p] * v[j];
    }
  }
}

/* ---- forwarded callbacks ----------------------------------------------------- */

static int form_initial(double t0, double *y0, void *ud)
{
  const mass_form *d = ud;
  return callback_rc(sk_model_eval_initial(d->inner, t0, y0));
}

static int form_exact(double t, double *y, void *ud)
{
  const mass_form *d = ud;
  return callback_rc(sk_model_eval_exact(d->inner, t, y));
}

static void form_component_name(int64_t i, char *buf, size_t len, void *ud)
{
  const mass_form *d = ud;
  sk_model_component_name(d->inner, i, buf, len);
}

static int form_events(double t, const double *y, double *g, void *ud)
{
  const mass_form *d = ud;
  return callback_rc(sk_model_eval_events(d->inner, t, y, g));
}

static int refresh_mass(mass_form *d);

/* An event action may change M (sk__model_update_mass_values): the form follows it. */
static int form_event_action(double t, const double *y, const int *fired, void *ud)
{
  mass_form *d = ud;
  return sk_model_eval_event_action(d->inner, t, y, fired) == SK_OK ? refresh_mass(d) : -1;
}

static int form_event_jump(double t, double *y, const int *fired, void *ud)
{
  mass_form *d = ud;
  int stop = 0;
  if (sk_model_eval_event_jump(d->inner, t, y, fired, &stop) != SK_OK) {
    return -1;
  }
  return refresh_mass(d) ? -1 : stop;
}

/* ---- DAE form ---------------------------------------------------------------- */

/* r = M y' - f(t, y). */
static int dae_residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  mass_form *d = ud;
  const int rc = callback_rc(sk_model_eval_rhs(d->inner, t, y, r));
  if (rc) {
    return rc;
  }
  mass_times(d, yp, d->work);
  for (int64_t i = 0; i < d->n; i++) {
    r[i] = d->work[i] - r[i];
  }
  return 0;
}

/* c M - J in the union pattern; f = M y' - r is recovered for J's finite differences. */
static int dae_jac(double t, double cj, const double *y, const double *yp, const double *r,
                   double *values, void *ud)
{
  mass_form *d = ud;
  mass_times(d, yp, d->work);
  for (int64_t i = 0; i < d->n; i++) {
    d->work[i] -= r[i];
  }
  const int rc = callback_rc(sk_model_eval_jac(d->inner, t, y, d->work, d->jv));
  if (rc) {
    return rc;
  }
  memset(values, 0, (size_t)d->acp[d->n] * sizeof *values);
  for (int64_t p = 0; p < d->mcp[d->n]; p++) {
    values[d->amap[p]] += cj * d->mv[p];
  }
  for (int64_t p = 0; p < d->jcp[d->n]; p++) {
    values[d->jmap[p]] -= d->jv[p];
  }
  return 0;
}

/* y0 from the model, y'0 = 0 as the guess IDACalcIC corrects. */
static int dae_initial(double t0, double *y0, double *yp0, void *ud)
{
  const mass_form *d = ud;
  memset(yp0, 0, (size_t)d->n * sizeof *yp0);
  return callback_rc(sk_model_eval_initial(d->inner, t0, y0));
}

/* ---- ODE form ---------------------------------------------------------------- */

/* y' = D^{-1} f or M^{-1} f. */
static int ode_rhs(double t, const double *y, double *f, void *ud)
{
  mass_form *d = ud;
  const int rc = callback_rc(sk_model_eval_rhs(d->inner, t, y, f));
  if (rc) {
    return rc;
  }
  if (d->dinv) {
    for (int64_t i = 0; i < d->n; i++) {
      f[i] *= d->dinv[i];
    }
  } else if (!sk__klu_solve(&d->mklu, f, 1)) {
    return -1;
  }
  return 0;
}

/* D^{-1} J in J's pattern (f = D fy for J's finite differences). */
static int ode_jac_diagonal(double t, const double *y, const double *fy, double *values, void *ud)
{
  mass_form *d = ud;
  for (int64_t i = 0; fy && i < d->n; i++) {
    d->work[i] = d->dg[i] * fy[i];
  }
  const int rc = callback_rc(sk_model_eval_jac(d->inner, t, y, fy ? d->work : NULL, values));
  if (rc) {
    return rc;
  }
  for (int64_t p = 0; p < d->jcp[d->n]; p++) {
    values[p] = d->dinv[d->jri[p]] * values[p];
  }
  return 0;
}

/* Factor M - gamma J (J in jv): 0, 1 (singular: the integrator may retry) or -1. */
static int factor_pencil(mass_form *d, double gamma)
{
  memset(d->ax, 0, (size_t)d->acp[d->n] * sizeof *d->ax);
  for (int64_t p = 0; p < d->mcp[d->n]; p++) {
    d->ax[d->amap[p]] += d->mv[p];
  }
  for (int64_t p = 0; p < d->jcp[d->n]; p++) {
    d->ax[d->jmap[p]] -= gamma * d->jv[p];
  }
  d->gamma_f = 0.0;
  if (!sk__klu_factor(&d->aklu, d->acp, d->ari, d->ax, SK__MASS_RCOND_MIN)) {
    return d->aklu.common.status == KLU_SINGULAR ? 1 : -1;
  }
  d->gamma_f = gamma;
  return 0;
}

/* J at (t, y) when the integrator asks for a fresh one (or none is kept),
 * then the factors of M - gamma J. */
static int ode_prec_setup(double t, const double *y, double gamma, int jac_current, void *ud)
{
  mass_form *d = ud;
  if (jac_current || !d->have_j) {
    d->have_j = 0;
    const int rc = callback_rc(sk_model_eval_jac(d->inner, t, y, NULL, d->jv));
    if (rc) {
      return rc;
    }
    d->have_j = 1;
    d->gamma_f = 0.0;
  }
  return gamma == d->gamma_f ? 0 : factor_pencil(d, gamma);
}

/* z = (M - gamma J)^{-1} (M r), refactoring first when gamma moved since the setup. */
static int ode_prec_solve(double t, const double *y, const double *r, double *z, double gamma,
                          void *ud)
{
  mass_form *d = ud;
  if (!d->have_j) {
    const int rc = ode_prec_setup(t, y, gamma, 1, ud);
    if (rc) {
      return rc;
    }
  }
  if (gamma != d->gamma_f) {
    const int rc = factor_pencil(d, gamma);
    if (rc) {
      return rc;
    }
  }
  mass_times(d, r, d->work);
  if (!sk__klu_solve(&d->aklu, d->work, 1)) {
    return -1;
  }
  memcpy(z, d->work, (size_t)d->n * sizeof *z);
  return 0;
}

/* ---- construction ------------------------------------------------------------ */

/* The positions in the pattern (acp, ari) of the entries of (cp, ri), a sub-pattern of it. */
static void map_entries(int64_t n, const int64_t *cp, const int64_t *ri, const int64_t *acp,
                        const int64_t *ari, int64_t *map)
{
  for (int64_t j = 0; j < n; j++) {
    int64_t q = acp[j];
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      while (ari[q] != ri[p]) {
        q++;
      }
      map[p] = q;
    }
  }
}

/* The union of the patterns of M and J and the maps into it. */
static sk_status union_pattern(mass_form *d)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n, nm = d->mcp[n], nj = d->jcp[n], nt = nm + nj;
  int64_t *rows = sk__malloc(ctx, (size_t)(nt > 0 ? nt : 1) * sizeof *rows);
  int64_t *cols = sk__malloc(ctx, (size_t)(nt > 0 ? nt : 1) * sizeof *cols);
  d->amap = sk__malloc(ctx, (size_t)(nm > 0 ? nm : 1) * sizeof *d->amap);
  d->jmap = sk__malloc(ctx, (size_t)(nj > 0 ? nj : 1) * sizeof *d->jmap);
  sk_status st = rows && cols && d->amap && d->jmap
                     ? SK_OK
                     : SK_ERROR(ctx, SK_ERR_NOMEM, "mass matrix: cannot allocate M - gamma J");
  for (int64_t j = 0; st == SK_OK && j < n; j++) {
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      rows[p] = d->mri[p];
      cols[p] = j;
    }
    for (int64_t p = d->jcp[j]; p < d->jcp[j + 1]; p++) {
      rows[nm + p] = d->jri[p];
      cols[nm + p] = j;
    }
  }
  if (st == SK_OK) {
    st = sk__csc_from_triplets(ctx, n, nt, rows, cols, &d->acp, &d->ari);
  }
  sk__free(ctx, rows);
  sk__free(ctx, cols);
  SK_CALL(ctx, st);
  map_entries(n, d->mcp, d->mri, d->acp, d->ari, d->amap);
  map_entries(n, d->jcp, d->jri, d->acp, d->ari, d->jmap);
  return SK_OK;
}

/* Record the failure of KLU k (on M or M - gamma J); a singular M is bad input. */
static sk_status klu_failure(mass_form *d, const sk__klu *k, const char *what, const char *solver)
{
  const int st = (int)k->common.status;
  const char *nm = sk__model_mass_name(d->inner);
  sk_status code = sk__klu_status_code(st);
  if (st == KLU_SINGULAR) {
    code = SK_ERR_INPUT;
    SK_ERROR(d->ctx, code,
             "%s is singular (KLU: KLU_SINGULAR): solver '%s' integrates y' = M^{-1} f and "
             "needs a nonsingular M; use solver ida-bdf for a singular M (a DAE)",
             nm, solver);
  } else {
    SK_ERROR(d->ctx, code, "%s: KLU cannot %s (%s)", nm, what, sk__klu_status_name(st));
  }
  sk__error_set_foreign(d->ctx, st, sk__klu_status_name(st));
  return code;
}

/* 1 when M holds no nonzero value off its diagonal. */
static int mass_is_diagonal(const mass_form *d)
{
  for (int64_t j = 0; j < d->n; j++) {
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      if (d->mri[p] != j && d->mv[p] != 0.0) {
        return 0;
      }
    }
  }
  return 1;
}

/* The first row of M without a nonzero value, or -1. */
static int64_t first_zero_row(const mass_form *d)
{
  char *seen = sk__calloc(d->ctx, (size_t)d->n, 1);
  if (!seen) {
    return -1; /* KLU's factorization reports it then */
  }
  for (int64_t p = 0; p < d->mcp[d->n]; p++) {
    if (d->mv[p] != 0.0) {
      seen[d->mri[p]] = 1;
    }
  }
  int64_t row = -1;
  for (int64_t i = 0; i < d->n && row < 0; i++) {
    if (!seen[i]) {
      row = i;
    }
  }
  sk__free(d->ctx, seen);
  return row;
}

/* 1 when column j of M holds a nonzero value: y_j is differential. */
static int column_differential(const mass_form *d, int64_t j)
{
  for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
    if (d->mv[p] != 0.0) {
      return 1;
    }
  }
  return 0;
}

/* The DAE form: the union pattern (when the model has J's) and the ids. */
static sk_status setup_dae(mass_form *d, sk_model *form)
{
  sk_context *ctx = d->ctx;
  sk_model_set_residual(form, dae_residual);
  sk_model_set_dae_initial(form, dae_initial);
  d->id = sk__calloc(ctx, (size_t)d->n, sizeof *d->id);
  SK_CHECK(ctx, d->id != NULL, SK_ERR_NOMEM, "mass matrix: cannot allocate the ids");
  for (int64_t j = 0; j < d->n; j++) {
    d->id[j] = column_differential(d, j);
  }
  SK_CALL(ctx, sk_model_set_differential(form, d->id));
  if (d->jcp) {
    SK_CALL(ctx, union_pattern(d));
    SK_CALL(ctx, sk_model_set_jac_pattern(form, d->acp, d->ari));
    sk_model_set_dae_jac_values(form, dae_jac);
  }
  return SK_OK;
}

/* The ODE form: D^{-1} (diagonal M) or the KLU factors of M and the pencil. */
/* D and D^{-1} of a diagonal M from its current values (M has no zero row). */
static void diagonal_from_mass(mass_form *d)
{
  for (int64_t j = 0; j < d->n; j++) {
    d->dg[j] = 0.0;
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      d->dg[j] += d->mri[p] == j ? d->mv[p] : 0.0;
    }
    d->dinv[j] = 1.0 / d->dg[j];
  }
}

static sk_status setup_ode(mass_form *d, sk_model *form, const char *solver)
{
  sk_context *ctx = d->ctx;
  const int64_t zero = first_zero_row(d);
  SK_CHECK(ctx, zero < 0, SK_ERR_INPUT,
           "%s is singular: row %lld (1-based) is zero (an algebraic equation); solver '%s' "
           "integrates y' = M^{-1} f and needs a nonsingular M; use solver ida-bdf",
           sk__model_mass_name(d->inner), (long long)(zero + 1), solver);
  sk_model_set_rhs(form, ode_rhs);
  if (mass_is_diagonal(d)) {
    d->dg = sk__calloc(ctx, (size_t)d->n, sizeof *d->dg);
    d->dinv = sk__calloc(ctx, (size_t)d->n, sizeof *d->dinv);
    SK_CHECK(ctx, d->dg && d->dinv, SK_ERR_NOMEM, "mass matrix: cannot allocate its diagonal");
    diagonal_from_mass(d);
    if (d->jcp) {
      SK_CALL(ctx, sk_model_set_jac_pattern(form, d->jcp, d->jri));
      sk_model_set_jac_values(form, ode_jac_diagonal);
    }
    return SK_OK;
  }
  if (!sk__klu_analyze(&d->mklu, d->n, d->mcp, d->mri)) {
    return klu_failure(d, &d->mklu, "analyze M", solver);
  }
  if (!sk__klu_factor(&d->mklu, d->mcp, d->mri, d->mv, 0.0)) {
    return klu_failure(d, &d->mklu, "factor M", solver);
  }
  if (d->jcp) {
    SK_CALL(ctx, union_pattern(d));
    d->ax = sk__calloc(ctx, (size_t)(d->acp[d->n] > 0 ? d->acp[d->n] : 1), sizeof *d->ax);
    SK_CHECK(ctx, d->ax != NULL, SK_ERR_NOMEM, "mass matrix: cannot allocate M - gamma J");
    if (!sk__klu_analyze(&d->aklu, d->n, d->acp, d->ari)) {
      return klu_failure(d, &d->aklu, "analyze the pattern of M - gamma J", solver);
    }
    sk_model_set_preconditioner(form, ode_prec_setup, ode_prec_solve);
  }
  return SK_OK;
}

/* After an event action: when the inner model's M changed (sk__model_update_mass_values),
 * what this form derived from it is derived again (D^{-1}, the factors of M, those of
 * M - gamma J at the next use). 0, or -1 with the error recorded when the new M does not fit
 * the form: a column that turns between differential and algebraic (the DAE form's ids), a
 * zero row, a diagonal M that gains an off-diagonal value, or a singular M (y' = M^{-1} f). */
static int refresh_mass(mass_form *d)
{
  const unsigned version = sk__model_mass_version(d->inner);
  if (version == d->mass_version) {
    return 0;
  }
  d->mass_version = version;
  d->gamma_f = 0.0;
  const char *nm = sk__model_mass_name(d->inner);
  if (d->id) {
    for (int64_t j = 0; j < d->n; j++) {
      if (column_differential(d, j) != d->id[j]) {
        SK_ERROR(d->ctx, SK_ERR_INPUT,
                 "%s changed at an event so that column %lld (1-based) became %s: a variable "
                 "cannot change between differential and algebraic during a run",
                 nm, (long long)(j + 1),
                 d->id[j] ? "zero (algebraic)" : "nonzero (differential)");
        return -1;
      }
    }
    return 0;
  }
  const int64_t zero = first_zero_row(d);
  if (zero >= 0) {
    SK_ERROR(d->ctx, SK_ERR_INPUT,
             "%s changed at an event so that row %lld (1-based) is zero; solver '%s' needs a "
             "nonsingular M; use solver ida-bdf",
             nm, (long long)(zero + 1), d->solver);
    return -1;
  }
  if (d->dinv) {
    if (!mass_is_diagonal(d)) {
      SK_ERROR(d->ctx, SK_ERR_INPUT,
               "%s changed at an event from diagonal to non-diagonal; solver '%s' integrates "
               "it as diagonal: give the off-diagonal entries a nonzero start, or use ida-bdf",
               nm, d->solver);
      return -1;
    }
    diagonal_from_mass(d);
    return 0;
  }
  if (!sk__klu_factor(&d->mklu, d->mcp, d->mri, d->mv, 0.0)) {
    klu_failure(d, &d->mklu, "factor M", d->solver);
    return -1;
  }
  return 0;
}

/* Fill d and the form's callbacks. */
static sk_status fill_form(mass_form *d, sk_model *form, int dae, const char *solver)
{
  sk_context *ctx = d->ctx;
  sk_model *inner = d->inner;
  int64_t nnz = 0;
  sk_model_get_mass(inner, &d->mcp, &d->mri, &d->mv, &nnz);
  sk_model_get_jac_pattern(inner, &d->jcp, &d->jri, &nnz);
  d->work = sk__malloc(ctx, (size_t)d->n * sizeof *d->work);
  SK_CHECK(ctx, d->work != NULL, SK_ERR_NOMEM, "mass matrix: cannot allocate work space");
  if (d->jcp) {
    d->jv = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *d->jv);
    SK_CHECK(ctx, d->jv != NULL, SK_ERR_NOMEM, "mass matrix: cannot allocate J");
  }
  sk_model_set_name(form, sk_model_get_name(inner));
  sk_model_set_component_name(form, form_component_name);
  if (sk_model_has_exact(inner)) {
    sk_model_set_exact(form, form_exact);
  }
  if (sk_model_get_nevents(inner) > 0) {
    SK_CALL(ctx,
            sk_model_set_events(form, sk_model_get_nevents(inner), form_events,
                                sk_model_has_event_action(inner) ? form_event_action : NULL));
    if (sk_model_get_event_directions(inner)) {
      SK_CALL(ctx, sk_model_set_event_directions(form, sk_model_get_event_directions(inner)));
    }
    if (sk_model_has_event_jump(inner)) {
      SK_CALL(ctx, sk_model_set_event_jump(form, form_event_jump));
    }
  }
  if (sk_model_get_default_t_end(inner) > 0) {
    SK_CALL(ctx, sk_model_set_default_t_end(form, sk_model_get_default_t_end(inner)));
  }
  if (dae) {
    SK_CALL(ctx, setup_dae(d, form));
  } else {
    sk_model_set_initial(form, form_initial);
    SK_CALL(ctx, setup_ode(d, form, solver));
  }
  return SK_OK;
}

sk_status sk__mass_form_create(sk_context *ctx, sk_model *model, int dae, const char *solver,
                               sk_model **form)
{
  *form = NULL;
  SK_CHECK(ctx, sk_model_has_mass(model), SK_ERR_ARG, "model '%s' has no mass matrix",
           sk_model_get_name(model));
  const int64_t n = sk_model_get_n(model);
  sk_model *f = NULL;
  SK_CALL(ctx, sk_model_create(ctx, dae ? SK_MODEL_DAE : SK_MODEL_ODE, n, &f));
  mass_form *d = sk__calloc(ctx, 1, sizeof *d);
  if (!d) {
    sk_model_destroy(&f);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "mass matrix: cannot allocate its form");
  }
  d->ctx = ctx;
  d->inner = model;
  d->n = n;
  d->solver = solver;
  d->mass_version = sk__model_mass_version(model);
  sk__klu_init(&d->mklu);
  sk__klu_init(&d->aklu);
  sk_model_set_user_data(f, d, mass_form_free);
  const sk_status st = fill_form(d, f, dae, solver);
  if (st != SK_OK) {
    sk_model_destroy(&f);
    SK_CALL(ctx, st);
  }
  *form = f;
  return SK_OK;
}

int sk__mass_form_is_dense(const sk_model *form)
{
  if (!form || form->free_fn != mass_form_free) {
    return 0;
  }
  const mass_form *d = form->user_data;
  return d->mklu.num != NULL;
}
