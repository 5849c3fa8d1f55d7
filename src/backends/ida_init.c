/* src/backends/ida_init.c: consistent initial values for IDA: the index-1 check on [dF/dy'_d, dF/dy_a] with KLU, then IDACalcIC with a report */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <klu.h>

#include "backends/ida_impl.h"
#include "core/error.h"

/* Max |r_i| and its index. */
static double max_abs(const double *r, int64_t n, int64_t *at)
{
  double m = -1.0;
  for (int64_t i = 0; i < n; i++) {
    if (fabs(r[i]) > m) {
      m = fabs(r[i]);
      *at = i;
    }
  }
  return m;
}

/* Factor the index-1 matrix of values v (pattern order) with KLU; returns
 * its numerical rank (n when nonsingular), the first singular column in *col. */
static int64_t index1_rank(const sk__sun_jac *J, double *v, int64_t *col, double *rcond)
{
  klu_l_common common;
  klu_l_defaults(&common);
  common.halt_if_singular = 0;
  int64_t rank = -1;
  klu_l_symbolic *sym =
      klu_l_analyze(J->n, (int64_t *)J->colptr, (int64_t *)J->rowind, &common);
  klu_l_numeric *num = sym ? klu_l_factor((int64_t *)J->colptr, (int64_t *)J->rowind, v, sym,
                                          &common)
                           : NULL;
  if (num) {
    rank = common.status == KLU_SINGULAR ? common.numerical_rank : J->n;
    *col = common.singular_col;
    *rcond = 0.0;
    if (rank == J->n && klu_l_rcond(sym, num, &common)) {
      *rcond = common.rcond;
    }
    klu_l_free_numeric(&num, &common);
  }
  klu_l_free_symbolic(&sym, &common);
  return rank;
}

/* Name what makes the index-1 matrix v singular: an equation (row) with
 * no entry, a variable (column) with none, or KLU's first singular column. */
static void describe_singular(sk_model *m, const sk__sun_jac *J, const double *v, const int *id,
                              int64_t klu_col, char *buf, size_t len)
{
  const int64_t n = J->n;
  double *rowmax = calloc((size_t)n, sizeof *rowmax);
  int64_t zero_col = -1, zero_row = -1;
  for (int64_t j = 0; j < n; j++) {
    double cmax = 0.0;
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
      cmax = fmax(cmax, fabs(v[p]));
      if (rowmax) {
        rowmax[J->rowind[p]] = fmax(rowmax[J->rowind[p]], fabs(v[p]));
      }
    }
    if (cmax == 0.0 && zero_col < 0) {
      zero_col = j;
    }
  }
  for (int64_t i = 0; rowmax && i < n && zero_row < 0; i++) {
    zero_row = rowmax[i] == 0.0 ? i : -1;
  }
  free(rowmax);
  char name[96];
  if (zero_row >= 0) {
    snprintf(buf, len, ", equation %lld has no y' of a differential and no algebraic variable",
             (long long)zero_row);
  } else if (zero_col >= 0 || (klu_col >= 0 && klu_col < n)) {
    const int64_t c = zero_col >= 0 ? zero_col : klu_col;
    sk_model_component_name(m, c, name, sizeof name);
    snprintf(buf, len, ", %s column %lld %s (%s)", zero_col >= 0 ? "empty" : "first dependent",
             (long long)c, name, id[c] ? "differential" : "algebraic");
  }
}

/* SK_ERR_INPUT when [dF/dy'_d, dF/dy_a] is singular at (t0, y, y'). */
static sk_status check_index1(sk__ida *ida, double t0, const double *y, const double *yp,
                              const double *r, const int *id)
{
  sk_context *ctx = ida->ctx;
  const sk__sun_jac *J = &ida->jac;
  double *v0 = sk__malloc(ctx, 2 * (size_t)(J->nnz > 0 ? J->nnz : 1) * sizeof *v0);
  SK_CHECK(ctx, v0 != NULL, SK_ERR_NOMEM, "cannot allocate the index-1 check");
  double *v1 = v0 + J->nnz;
  sk_status st = sk_model_eval_dae_jac(ida->model, t0, 0.0, y, yp, r, v0);
  st = st ? st : sk_model_eval_dae_jac(ida->model, t0, 1.0, y, yp, r, v1);
  int64_t rank = J->n, col = -1;
  double rcond = 1.0;
  if (st == SK_OK) {
    for (int64_t j = 0; j < J->n; j++) { /* dF/dy'_j = J(1) - J(0) for differential columns */
      for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
        v1[p] = id[j] ? v1[p] - v0[p] : v0[p];
      }
    }
    rank = index1_rank(J, v1, &col, &rcond);
  }
  char where[200] = "";
  if (st == SK_OK && (rank < J->n || rcond < 1e3 * DBL_EPSILON)) {
    describe_singular(ida->model, J, v1, id, col, where, sizeof where);
  }
  sk__free(ctx, v0);
  SK_CALL(ctx, st);
  SK_CHECK(ctx, rank >= 0, SK_ERR_NOMEM, "KLU could not factor the index-1 matrix");
  if (rank < J->n || rcond < 1e3 * DBL_EPSILON) {
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "model '%s' is not an index-1 DAE at t0=%.6e: the matrix [dF/dy'_d, dF/dy_a] "
                    "(dF/dy' of the differential and dF/dy of the algebraic components) is "
                    "singular (numerical rank %lld of %lld, rcond %.1e)%s; the algebraic "
                    "equations do not determine the algebraic variables (an index-2 or higher "
                    "system, an algebraic variable in no equation, or a wrong id vector)",
                    sk_model_get_name(ida->model), t0, (long long)rank, (long long)J->n, rcond,
                    where);
  }
  return SK_OK;
}

/* How far the consistent values moved, for the report. */
static void moved(const double *a, const double *b, int64_t n, double *dmax)
{
  *dmax = 0.0;
  for (int64_t i = 0; i < n; i++) {
    *dmax = fmax(*dmax, fabs(a[i] - b[i]));
  }
}

sk_status sk__ida_consistent_init(sk__ida *ida, double t0, double tout1)
{
  sk_context *ctx = ida->ctx;
  const int64_t n = sk_model_get_n(ida->model);
  double *y = N_VGetArrayPointer(ida->y), *yp = N_VGetArrayPointer(ida->yp);
  double *work = sk__malloc(ctx, 3 * (size_t)n * sizeof *work);
  SK_CHECK(ctx, work != NULL, SK_ERR_NOMEM, "cannot allocate the initialization report");
  double *r = work, *y_in = work + n, *yp_in = work + 2 * n;
  memcpy(y_in, y, (size_t)n * sizeof *y);
  memcpy(yp_in, yp, (size_t)n * sizeof *yp);
  const int *id = sk_model_get_differential(ida->model);
  int64_t at0 = 0, at1 = 0;
  sk_status st = sk_model_eval_residual(ida->model, t0, y, yp, r);
  const double r0 = st == SK_OK ? max_abs(r, n, &at0) : 0.0;
  if (st == SK_OK && sk_model_get_dae_consistent(ida->model, NULL)) {
    sk__log(ctx, SK_LOG_INFO,
            "initial values at t0=%.6e given consistent by the model: max |F| = %.3e (no "
            "IDACalcIC)",
            t0, r0);
    sk__free(ctx, work);
    return SK_OK;
  }
  if (st == SK_OK && id && ida->jac.colptr) {
    st = check_index1(ida, t0, y, yp, r, id);
  }
  int flag = IDA_SUCCESS;
  if (st == SK_OK) {
    ida->have_callback_error = 0;
    flag = IDACalcIC(ida->mem, IDA_YA_YDP_INIT, tout1);
    IDAGetConsistentIC(ida->mem, ida->y, ida->yp);
    st = sk_model_eval_residual(ida->model, t0, y, yp, r);
  }
  const double r1 = st == SK_OK ? max_abs(r, n, &at1) : 0.0;
  if (st == SK_OK && flag < 0) {
    const char *fname;
    sk__status_from_ida(flag, &fname);
    char wname[96], cause[SK_ERROR_MSG_LEN / 2] = "";
    sk_model_component_name(ida->model, at1, wname, sizeof wname);
    if (ida->have_callback_error) {
      snprintf(cause, sizeof cause, "; cause: %.480s", ida->callback_error.message);
    }
    st = SK_ERROR(ctx, SK_ERR_CONV,
                  "consistent initial values could not be computed at t0=%.6e (IDACalcIC: %s, "
                  "%s): max |F| = %.3e at component %lld %s (it was %.3e)%s; likely causes: "
                  "algebraic equations with no solution near the initial guess (improve the "
                  "guess of the algebraic variables), a singular algebraic part, or a "
                  "discontinuous residual",
                  t0, fname, ida->messages.msg, r1, (long long)at1, wname, r0, cause);
    sk__error_set_foreign(ctx, flag, fname);
  }
  if (st == SK_OK) {
    double dy, dyp;
    moved(y, y_in, n, &dy);
    moved(yp, yp_in, n, &dyp);
    sk__log(ctx, SK_LOG_INFO,
            "consistent initial values at t0=%.6e (IDACalcIC): max |F| %.3e -> %.3e; "
            "algebraic components moved by up to %.3e, derivatives by up to %.3e",
            t0, r0, r1, dy, dyp);
  }
  sk__free(ctx, work);
  return st;
}
