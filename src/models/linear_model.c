/* src/models/linear_model.c: the linear model M u' = -K u + g(t) b: diagonal/lumped M as an ODE with the sparse Jacobian -D^{-1} K, general M folded into the RHS with KLU and an exact preconditioner through M + gamma K */
/*
 * Mathematics (see stiffkit/linear.h for the contract):
 *   diagonal D = diag(M) or the row sums of M:  f(t, u) = D^{-1} (g(t) b - K u),
 *     J = -D^{-1} K in the pattern of K (constant);
 *   general M:  f(t, u) = M^{-1} (g(t) b - K u) with M = LU (KLU) once;
 *     Newton matrix I - gamma J = M^{-1} (M + gamma K), so the preconditioner
 *     z = (M + gamma K)^{-1} (M r) is the exact inverse; the pencil's pattern
 *     is the union of those of M and K, analyzed once, refactored when gamma
 *     changes (a full factor when the refactor's rcond is poor).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <klu.h>

#include "core/error.h"
#include "linsol/klu_refactor.h"
#include "sparse/csc.h"
#include "stiffkit/linear.h"

/* Below this klu_l_rcond a refactor of M + gamma K is replaced by a full
 * factor (pivoting again), as in the Newton solver of the reference steppers. */
#define SK__LINEAR_RCOND_MIN 3.6e-11

typedef struct {
  sk_context *ctx;
  int64_t n;
  const char *k_name, *m_name;
  int64_t *kcp, *kri; /* K */
  double *kv;
  double *dinv;       /* diagonal path: 1 / D; NULL for a general M */
  double *jv;         /* diagonal path: -D^{-1} K in the pattern of K */
  int64_t *mcp, *mri; /* general M */
  double *mv;
  klu_l_common common;
  klu_l_symbolic *msym;
  klu_l_numeric *mnum;
  int64_t *acp, *ari, *amap, *kmap; /* pencil M + gamma K; positions of M's and K's entries */
  double *ax;
  klu_l_symbolic *asym;
  klu_l_numeric *anum;
  double gamma_f; /* gamma of the pencil's factors; 0 = none */
  double *work;   /* n */
  double *b;      /* load, or NULL */
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
  if (d->mnum) {
    klu_l_free_numeric(&d->mnum, &d->common);
  }
  if (d->msym) {
    klu_l_free_symbolic(&d->msym, &d->common);
  }
  if (d->anum) {
    klu_l_free_numeric(&d->anum, &d->common);
  }
  if (d->asym) {
    klu_l_free_symbolic(&d->asym, &d->common);
  }
  int64_t *ints[] = {d->kcp, d->kri, d->mcp, d->mri, d->acp, d->ari, d->amap, d->kmap};
  for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
    sk__free(ctx, ints[k]);
  }
  double *reals[] = {d->kv, d->dinv, d->jv, d->mv, d->ax, d->work, d->b, d->u0};
  for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++) {
    sk__free(ctx, reals[k]);
  }
  if (d->gfree) {
    d->gfree(d->gdata);
  }
  sk__free(ctx, d);
}

/* ---- callbacks ------------------------------------------------------------- */

/* f = D^{-1} (g(t) b - K u), or M^{-1} (g(t) b - K u) through M's LU factors;
 * -1 when the KLU solve fails. */
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
  if (d->dinv) {
    for (int64_t i = 0; i < n; i++) {
      f[i] *= d->dinv[i];
    }
  } else if (d->mnum && !klu_l_solve(d->msym, d->mnum, n, 1, f, &d->common)) {
    return -1;
  }
  return 0;
}

/* The constant values of -D^{-1} K in K's pattern. */
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

/* Factor M + gamma K: a refactor with the last pivots when there are
 * factors, else (or when the refactor's rcond is poor) a full factor.
 * Returns 0, 1 (singular: the integrator may retry) or -1. */
static int factor_pencil(linear_data *d, double gamma)
{
  const int64_t nnz = d->acp[d->n];
  memset(d->ax, 0, (size_t)nnz * sizeof *d->ax);
  for (int64_t p = 0; p < d->mcp[d->n]; p++) {
    d->ax[d->amap[p]] += d->mv[p];
  }
  for (int64_t p = 0; p < d->kcp[d->n]; p++) {
    d->ax[d->kmap[p]] += gamma * d->kv[p];
  }
  d->gamma_f = 0.0;
  if (!sk__klu_factor_or_refactor(d->acp, d->ari, d->ax, d->asym, &d->anum, SK__LINEAR_RCOND_MIN,
                                  &d->common)) {
    return d->common.status == KLU_SINGULAR ? 1 : -1;
  }
  d->gamma_f = gamma;
  return 0;
}

/* Factor M + gamma K for the integrator's gamma (nothing when already done):
 * 0, 1 (singular, recoverable) or -1. */
static int linear_prec_setup(double t, const double *y, double gamma, int jac_current, void *ud)
{
  (void)t;
  (void)y;
  (void)jac_current;
  linear_data *d = ud;
  return gamma == d->gamma_f ? 0 : factor_pencil(d, gamma);
}

/* z = (M + gamma K)^{-1} (M r), refactoring first when gamma moved since
 * the setup, so that the solve is exact for the system being solved. */
static int linear_prec_solve(double t, const double *y, const double *r, double *z, double gamma,
                             void *ud)
{
  (void)t;
  (void)y;
  linear_data *d = ud;
  if (gamma != d->gamma_f) {
    const int rc = factor_pencil(d, gamma);
    if (rc) {
      return rc;
    }
  }
  const int64_t n = d->n;
  memset(d->work, 0, (size_t)n * sizeof *d->work);
  for (int64_t j = 0; j < n; j++) {
    const double rj = r[j];
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      d->work[d->mri[p]] += d->mv[p] * rj;
    }
  }
  if (!klu_l_solve(d->asym, d->anum, n, 1, d->work, &d->common)) {
    return -1;
  }
  memcpy(z, d->work, (size_t)n * sizeof *z);
  return 0;
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

/* D = diag(M) of a diagonal M, or its row sums when lumping, into
 * d->dinv = 1 / D. d->dinv stays NULL without M (D = I) and for a general
 * M without lumping. */
static sk_status mass_diagonal(linear_data *d, const sk_linear_system *sys)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n;
  const int lump = sys->lumping == SK_LINEAR_LUMP_ROW_SUM;
  double *dg = sk__calloc(ctx, (size_t)n, sizeof *dg);
  SK_CHECK(ctx, dg != NULL, SK_ERR_NOMEM, "linear model: cannot allocate the mass diagonal");
  int diagonal = 1;
  for (int64_t j = 0; j < n && sys->m_colptr; j++) {
    for (int64_t p = sys->m_colptr[j]; p < sys->m_colptr[j + 1]; p++) {
      const int64_t i = sys->m_rowind[p];
      if (lump || i == j) {
        dg[i] += sys->m_values[p];
      } else if (sys->m_values[p] != 0.0) {
        diagonal = 0;
      }
    }
  }
  if (!sys->m_colptr || (!diagonal && !lump)) {
    sk__free(ctx, dg);
    return SK_OK;
  }
  for (int64_t i = 0; i < n; i++) {
    if (!(dg[i] > 0.0 && isfinite(1.0 / dg[i]))) {
      const double bad = dg[i];
      sk__free(ctx, dg);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: row %lld (1-based) has %s %g: a %s mass matrix needs positive "
                      "entries",
                      d->m_name, (long long)(i + 1), lump ? "the row sum" : "the diagonal entry",
                      bad, lump ? "lumped" : "diagonal");
    }
    dg[i] = 1.0 / dg[i];
  }
  d->dinv = dg;
  return SK_OK;
}

/* The values of J = -D^{-1} K in K's pattern (D = I without M). */
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

/* Record a KLU failure on `what`. */
static sk_status klu_failure(linear_data *d, const char *what)
{
  const int st = (int)d->common.status;
  const sk_status code = st == KLU_SINGULAR        ? SK_ERR_SINGULAR
                         : st == KLU_OUT_OF_MEMORY ? SK_ERR_NOMEM
                                                   : SK_ERR_LINSOL;
  SK_ERROR(d->ctx, code, "linear model: KLU cannot %s (KLU status %d%s)", what, st,
           st == KLU_SINGULAR ? ": the matrix is singular" : "");
  sk__error_set_foreign(d->ctx, st, st == KLU_SINGULAR ? "KLU_SINGULAR" : "KLU");
  return code;
}

/* The positions in the pattern (acp, ari) of the entries of (cp, ri),
 * a sub-pattern of it. */
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

/* The pattern of M + gamma K (union of both) and the maps into it. */
static sk_status pencil_pattern(linear_data *d)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n, nm = d->mcp[n], nk = d->kcp[n], nt = nm + nk;
  int64_t *rows = sk__malloc(ctx, (size_t)(nt > 0 ? nt : 1) * sizeof *rows);
  int64_t *cols = sk__malloc(ctx, (size_t)(nt > 0 ? nt : 1) * sizeof *cols);
  d->amap = sk__malloc(ctx, (size_t)(nm > 0 ? nm : 1) * sizeof *d->amap);
  d->kmap = sk__malloc(ctx, (size_t)(nk > 0 ? nk : 1) * sizeof *d->kmap);
  sk_status st = rows && cols && d->amap && d->kmap
                     ? SK_OK
                     : SK_ERROR(ctx, SK_ERR_NOMEM, "linear model: cannot allocate the pencil");
  for (int64_t j = 0; st == SK_OK && j < n; j++) {
    for (int64_t p = d->mcp[j]; p < d->mcp[j + 1]; p++) {
      rows[p] = d->mri[p];
      cols[p] = j;
    }
    for (int64_t p = d->kcp[j]; p < d->kcp[j + 1]; p++) {
      rows[nm + p] = d->kri[p];
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
  map_entries(n, d->kcp, d->kri, d->acp, d->ari, d->kmap);
  const int64_t na = d->acp[n];
  d->ax = sk__calloc(ctx, (size_t)(na > 0 ? na : 1), sizeof *d->ax);
  SK_CHECK(ctx, d->ax != NULL, SK_ERR_NOMEM, "linear model: cannot allocate the pencil values");
  return SK_OK;
}

/* General M: factor M once, analyze the pencil M + gamma K once. */
static sk_status setup_general(linear_data *d, const sk_linear_system *sys)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n;
  SK_CALL(ctx, copy_csc(ctx, n, sys->m_colptr, sys->m_rowind, sys->m_values, &d->mcp, &d->mri,
                        &d->mv));
  d->work = sk__malloc(ctx, (size_t)n * sizeof *d->work);
  SK_CHECK(ctx, d->work != NULL, SK_ERR_NOMEM, "linear model: cannot allocate work space");
  klu_l_defaults(&d->common);
  d->msym = klu_l_analyze(n, d->mcp, d->mri, &d->common);
  if (!d->msym) {
    return klu_failure(d, "analyze the mass matrix");
  }
  d->mnum = klu_l_factor(d->mcp, d->mri, d->mv, d->msym, &d->common);
  if (!d->mnum) {
    char what[160];
    snprintf(what, sizeof what, "factor the mass matrix %s", d->m_name);
    return klu_failure(d, what);
  }
  SK_CALL(ctx, pencil_pattern(d));
  d->asym = klu_l_analyze(n, d->acp, d->ari, &d->common);
  if (!d->asym) {
    return klu_failure(d, "analyze the pattern of M + gamma K");
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
  if (sys->m_colptr && !d->dinv) {
    SK_CALL(ctx, setup_general(d, sys));
  } else {
    SK_CALL(ctx, diagonal_jacobian(d));
  }
  return SK_OK;
}

/* The model around d (owned by the model from the first step on). */
static sk_status make_model(sk_context *ctx, linear_data *d, sk_model **model)
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
  if (d->mcp) {
    sk_model_set_preconditioner(m, linear_prec_setup, linear_prec_solve);
  } else {
    st = sk_model_set_jac_pattern(m, d->kcp, d->kri);
    sk_model_set_jac_values(m, linear_jac);
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
  SK_CALL(ctx, make_model(ctx, d, model));
  return SK_OK;
}
