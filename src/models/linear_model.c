/* src/models/linear_model.c: the linear model M u' = -K u + g(t) b: lumped M as an ODE with the sparse Jacobian -D^{-1} K, any other M as the model's mass matrix (sk_model_set_mass) */
/*
 * Mathematics (see stiffkit/linear.h for the contract):
 *   lumped D = the row sums of M:  f(t, u) = D^{-1} (g(t) b - K u),
 *     J = -D^{-1} K in the pattern of K (constant);
 *   M as given:  M u' = f(t, u) = g(t) b - K u with J = -K, M the model's
 *     mass matrix: each engine's form of it (src/steppers/mass_form.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"
#include "stiffkit/linear.h"

typedef struct {
  sk_context *ctx;
  int64_t n;
  const char *k_name, *m_name;
  int64_t *kcp, *kri; /* K */
  double *kv;
  double *dinv; /* lumped M: 1 / D; NULL otherwise */
  double *jv;   /* -D^{-1} K (lumped M) or -K in the pattern of K */
  double *b;    /* load, or NULL */
  sk_amplitude_fn g;
  void *gdata;
  sk_free_fn gfree;
  double *u0; /* or NULL: ic_value */
  double ic_value;
} linear_data;

/* Free the model data, its KLU objects and the amplitude (the model's free_fn). */
static void linear_data_free(void *ud)
{
  linear_data *d = ud;
  if (!d) {
    return;
  }
  sk_context *ctx = d->ctx;
  int64_t *ints[] = {d->kcp, d->kri};
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
    sk__free(ctx, ints[k]);
  }
  double *reals[] = {d->kv, d->dinv, d->jv, d->b, d->u0};
  for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
    sk__free(ctx, reals[k]);
  }
  if (d->gfree) {
    d->gfree(d->gdata);
  }
  sk__free(ctx, d);
}

/* ---- callbacks ------------------------------------------------------------- */

/* f = D^{-1} (g(t) b - K u) (lumped M), else g(t) b - K u. */
static int linear_rhs(double t, const double *u, double *f, void *ud)
{
  linear_data *d = ud;
  const int64_t n = d->n;
  const double g = d->b ? (d->g ? d->g(t, d->gdata) : 1.0) : 0.0;
  for (int64_t i = 0; i < n; i++) {
    f[i] = d->b ? g * d->b[i] : 0.0;
  }
  for (int64_t j = 0; j < n; j++) {
    const double uj = u[j];
    for (int64_t p = d->kcp[j]; p < d->kcp[j + 1]; p++) {
      f[d->kri[p]] -= d->kv[p] * uj;
    }
  }
  for (int64_t i = 0; d->dinv && i < n; i++) {
    f[i] *= d->dinv[i];
  }
  return 0;
}

/* The constant values of -D^{-1} K or -K in K's pattern. */
static int linear_jac(double t, const double *y, const double *fy, double *values, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  const linear_data *d = ud;
  memcpy(values, d->jv, (size_t)d->kcp[d->n] * sizeof *values);
  return 0;
}

/* u0 from the vector, or ic_value everywhere. */
static int linear_initial(double t0, double *y0, void *ud)
{
  (void)t0;
  const linear_data *d = ud;
  for (int64_t i = 0; i < d->n; i++) {
    y0[i] = d->u0 ? d->u0[i] : d->ic_value;
  }
  return 0;
}

/* "u[i]" (0-based, as output.probes counts). */
static void linear_component_name(int64_t i, char *buf, size_t len, void *ud)
{
  (void)ud;
  snprintf(buf, len, "u[%lld]", (long long)i);
}

/* ---- construction -------------------------------------------------------- */

/* Check a CSC matrix of order n: colptr from 0, non-decreasing; rows in
 * range and strictly increasing per column; finite values. */
static sk_status check_csc(sk_context *ctx, const char *name, int64_t n, const int64_t *cp,
                           const int64_t *ri, const double *v)
{
  SK_CHECK(ctx, cp != NULL && ri != NULL && v != NULL, SK_ERR_ARG,
           "linear model: %s needs colptr, rowind and values", name);
  SK_CHECK(ctx, cp[0] == 0, SK_ERR_INPUT, "linear model: %s: colptr[0] = %lld, must be 0", name,
           (long long)cp[0]);
  for (int64_t j = 0; j < n; j++) {
    SK_CHECK(ctx, cp[j + 1] >= cp[j], SK_ERR_INPUT,
             "linear model: %s: colptr decreases at column %lld", name, (long long)j);
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      SK_CHECK(ctx, ri[p] >= 0 && ri[p] < n && (p == cp[j] || ri[p] > ri[p - 1]), SK_ERR_INPUT,
               "linear model: %s: row %lld in column %lld is out of range [0, %lld) or not "
               "strictly increasing",
               name, (long long)ri[p], (long long)j, (long long)n);
      SK_CHECK(ctx, isfinite(v[p]), SK_ERR_INPUT,
               "linear model: %s: entry (%lld, %lld) is not finite", name, (long long)ri[p],
               (long long)j);
    }
  }
  return SK_OK;
}

/* A copy of count elements of size `size` (src may be NULL: *out = NULL). */
static sk_status copy_array(sk_context *ctx, const void *src, int64_t count, size_t size,
                            void **out)
{
  *out = NULL;
  if (!src) {
    return SK_OK;
  }
  *out = sk__malloc(ctx, (size_t)(count > 0 ? count : 1) * size);
  SK_CHECK(ctx, *out != NULL, SK_ERR_NOMEM, "linear model: cannot allocate %lld entries",
           (long long)count);
  memcpy(*out, src, (size_t)count * size);
  return SK_OK;
}

/* Copy one CSC matrix. */
static sk_status copy_csc(sk_context *ctx, int64_t n, const int64_t *cp, const int64_t *ri,
                          const double *v, int64_t **ocp, int64_t **ori, double **ov)
{
  SK_CALL(ctx, copy_array(ctx, cp, n + 1, sizeof *cp, (void **)ocp));
  SK_CALL(ctx, copy_array(ctx, ri, cp[n], sizeof *ri, (void **)ori));
  SK_CALL(ctx, copy_array(ctx, v, cp[n], sizeof *v, (void **)ov));
  return SK_OK;
}

/* D = the row sums of M when lumping, into d->dinv = 1 / D (positive
 * required). Without lumping a diagonal M may hold zeros (algebraic rows)
 * but no negative entry. d->dinv stays NULL without lumping. */
static sk_status mass_diagonal(linear_data *d, const sk_linear_system *sys)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n;
  const int lump = sys->lumping == SK_LINEAR_LUMP_ROW_SUM;
  if (!sys->m_colptr) {
    return SK_OK;
  }
  double *dg = sk__calloc(ctx, (size_t)n, sizeof *dg);
  SK_CHECK(ctx, dg != NULL, SK_ERR_NOMEM, "linear model: cannot allocate the mass diagonal");
  int diagonal = 1;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = sys->m_colptr[j]; p < sys->m_colptr[j + 1]; p++) {
      const int64_t i = sys->m_rowind[p];
      if (lump || i == j) {
        dg[i] += sys->m_values[p];
      } else if (sys->m_values[p] != 0.0) {
        diagonal = 0;
      }
    }
  }
  for (int64_t i = 0; i < n && (lump || diagonal); i++) {
    if (lump ? !(dg[i] > 0.0 && isfinite(1.0 / dg[i])) : dg[i] < 0.0) {
      const double bad = dg[i];
      sk__free(ctx, dg);
      return SK_ERROR(ctx, SK_ERR_INPUT, "%s: row %lld (1-based) has %s %g: %s", d->m_name,
                      (long long)(i + 1), lump ? "the row sum" : "the diagonal entry", bad,
                      lump ? "a lumped mass matrix needs positive entries"
                           : "a diagonal mass matrix needs entries >= 0 (0: an algebraic row)");
    }
    dg[i] = lump ? 1.0 / dg[i] : dg[i];
  }
  if (!lump) {
    sk__free(ctx, dg);
    return SK_OK;
  }
  d->dinv = dg;
  return SK_OK;
}

/* The values of J = -D^{-1} K (lumped M) or -K in K's pattern. */
static sk_status diagonal_jacobian(linear_data *d)
{
  const int64_t nnz = d->kcp[d->n];
  d->jv = sk__malloc(d->ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *d->jv);
  SK_CHECK(d->ctx, d->jv != NULL, SK_ERR_NOMEM, "linear model: cannot allocate the Jacobian");
  for (int64_t p = 0; p < nnz; p++) {
    d->jv[p] = -d->kv[p] * (d->dinv ? d->dinv[d->kri[p]] : 1.0);
  }
  return SK_OK;
}

/* Validate sys and fill d (which owns the amplitude already). */
static sk_status fill_data(linear_data *d, const sk_linear_system *sys)
{
  sk_context *ctx = d->ctx;
  const int64_t n = sys->n;
  SK_CHECK(ctx, n >= 1, SK_ERR_ARG, "linear model: n = %lld, must be >= 1", (long long)n);
  d->n = n;
  d->k_name = sys->k_name ? sys->k_name : "K";
  d->m_name = sys->m_name ? sys->m_name : "M";
  SK_CHECK(ctx, sys->k_colptr != NULL, SK_ERR_ARG,
           "linear model: the stiffness matrix is missing");
  SK_CALL(ctx, check_csc(ctx, d->k_name, n, sys->k_colptr, sys->k_rowind, sys->k_values));
  if (sys->m_colptr) {
    SK_CALL(ctx, check_csc(ctx, d->m_name, n, sys->m_colptr, sys->m_rowind, sys->m_values));
  }
  for (int64_t i = 0; i < n; i++) {
    SK_CHECK(ctx, !sys->load || isfinite(sys->load[i]), SK_ERR_INPUT,
             "linear model: load entry %lld is not finite", (long long)i);
    SK_CHECK(ctx, !sys->initial || isfinite(sys->initial[i]), SK_ERR_INPUT,
             "linear model: initial state entry %lld is not finite", (long long)i);
  }
  SK_CHECK(ctx, isfinite(sys->ic_value), SK_ERR_INPUT, "linear model: ic_value is not finite");
  SK_CALL(ctx, copy_csc(ctx, n, sys->k_colptr, sys->k_rowind, sys->k_values, &d->kcp, &d->kri,
                        &d->kv));
  SK_CALL(ctx, copy_array(ctx, sys->load, n, sizeof *d->b, (void **)&d->b));
  SK_CALL(ctx, copy_array(ctx, sys->initial, n, sizeof *d->u0, (void **)&d->u0));
  d->ic_value = sys->ic_value;
  SK_CALL(ctx, mass_diagonal(d, sys));
  SK_CALL(ctx, diagonal_jacobian(d));
  return SK_OK;
}

/* The model around d (owned by the model from the first step on); M
 * without lumping becomes the model's mass matrix. */
static sk_status make_model(sk_context *ctx, linear_data *d, const sk_linear_system *sys,
                            sk_model **model)
{
  sk_model *m = NULL;
  sk_status st = sk_model_create(ctx, SK_MODEL_ODE, d->n, &m);
  if (st != SK_OK) {
    linear_data_free(d);
    SK_CALL(ctx, st);
  }
  sk_model_set_user_data(m, d, linear_data_free);
  sk_model_set_name(m, "linear");
  sk_model_set_rhs(m, linear_rhs);
  sk_model_set_initial(m, linear_initial);
  sk_model_set_component_name(m, linear_component_name);
  st = sk_model_set_jac_pattern(m, d->kcp, d->kri);
  sk_model_set_jac_values(m, linear_jac);
  if (st == SK_OK && sys->m_colptr && !d->dinv) {
    sk__model_set_mass_name(m, d->m_name);
    st = sk_model_set_mass(m, sys->m_colptr, sys->m_rowind, sys->m_values);
  }
  if (st != SK_OK) {
    sk_model_destroy(&m);
    SK_CALL(ctx, st);
  }
  *model = m;
  return SK_OK;
}

sk_status sk_linear_create(sk_context *ctx, const sk_linear_system *sys, sk_model **model)
{
  SK_CHECK(ctx, model != NULL, SK_ERR_ARG, "sk_linear_create: NULL model");
  *model = NULL;
  SK_CHECK(ctx, sys != NULL, SK_ERR_ARG, "sk_linear_create: NULL system");
  linear_data *d = sk__calloc(ctx, 1, sizeof *d);
  if (!d) {
    if (sys->amplitude_free) {
      sys->amplitude_free(sys->amplitude_data);
    }
    return SK_ERROR(ctx, SK_ERR_NOMEM, "linear model: cannot allocate its data");
  }
  d->ctx = ctx;
  d->g = sys->amplitude;
  d->gdata = sys->amplitude_data;
  d->gfree = sys->amplitude_free;
  const sk_status st = fill_data(d, sys);
  if (st != SK_OK) {
    linear_data_free(d);
    SK_CALL(ctx, st);
  }
  SK_CALL(ctx, make_model(ctx, d, sys, model));
  return SK_OK;
}
