/* src/backends/ida_init.c: consistent initial values for IDA: the index-1 check on [dF/dy'_d, dF/dy_a] with KLU, then IDACalcIC with a report */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <idas/idas.h>
#include <idas/idas_ls.h>

#include "backends/ida_impl.h"
#include "core/error.h"
#include "core/stop.h"
#include "linsol/klu_factor.h"
#include "core/model_impl.h"

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

/* The index-1 decision, independent of the run's tolerances and of the
 * units of equations and variables: the matrix is equilibrated (every row
 * scaled to max |a_ij| = 1, then every column), factored with KLU, and its
 * reciprocal condition number estimated with klu_l_condest. It is
 * numerically singular when KLU finds a zero pivot or rcond lies below
 * the noise level of its entries times a margin: 1e3 eps for the model's
 * own Jacobian, 1e2 sqrt(eps) for colored finite differences (their
 * entries carry ~sqrt(eps) relative error). *col: KLU's first singular
 * column, else the column of the smallest pivot; -1 when the factorization
 * could not run (out of memory). Returns the numerical rank (n when
 * nonsingular), -1 on allocation failure. */
static int64_t index1_rank(const sk__sun_jac *J, const double *v, int64_t *col, double *rcond)
{
  const int64_t n = J->n, nnz = J->colptr[n];
  double *a = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *a);
  double *rs = calloc((size_t)(n > 0 ? n : 1), sizeof *rs);
  int64_t rank = -1;
  *col = -1;
  *rcond = 0.0;
  if (!a || !rs) {
    free(a);
    free(rs);
    return -1;
  }
  for (int64_t p = 0; p < nnz; p++) {
    rs[J->rowind[p]] = fmax(rs[J->rowind[p]], fabs(v[p]));
  }
  for (int64_t j = 0; j < n; j++) {
    double cmax = 0.0;
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
      const int64_t i = J->rowind[p];
      a[p] = rs[i] > 0 ? v[p] / rs[i] : 0.0;
      cmax = fmax(cmax, fabs(a[p]));
    }
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1] && cmax > 0; p++) {
      a[p] /= cmax;
    }
  }
  sk__klu k;
  sk__klu_init(&k);
  k.common.halt_if_singular = 0;
  k.common.scale = 0; /* equilibrated above */
  if (sk__klu_analyze(&k, n, J->colptr, J->rowind) &&
      sk__klu_factor(&k, J->colptr, J->rowind, a, 0.0)) {
    const int singular = k.common.status == KLU_SINGULAR;
    rank = singular ? k.common.numerical_rank : n;
    *col = singular ? k.common.singular_col : -1;
    double condest = 0.0;
    if (rank == n && sk__klu_condest(&k, J->colptr, a, &condest) && condest > 0) {
      *rcond = 1.0 / condest;
    }
    if (*col < 0 && k.num->Udiag && k.sym->Q) { /* the weakest pivot names the variable */
      const double *ud = k.num->Udiag;
      int64_t kmin = 0;
      for (int64_t q = 1; q < n; q++) {
        kmin = fabs(ud[q]) < fabs(ud[kmin]) ? q : kmin;
      }
      *col = n > 0 ? k.sym->Q[kmin] : -1;
    }
  }
  sk__klu_free(&k);
  free(a);
  free(rs);
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

/* SK_ERR_INPUT when [dF/dy'_d, dF/dy_a] is singular at (t0, y, y'). A
 * finite-difference matrix is taken with unit-scale increments
 * sqrt(eps) max(1, |y_j|), not the run's error weights, so that the
 * decision does not depend on rtol and atol (with atol 1e-14, a component
 * that starts at 0 would get an increment of ~1e-22, and a column of noise). */
static sk_status check_index1(sk__ida *ida, double t0, const double *y, const double *yp,
                              const double *r, const int *id)
{
  sk_context *ctx = ida->ctx;
  const sk__sun_jac *J = &ida->jac;
  const int analytic = sk__model_has_analytic_dae_jac(ida->model);
  double *v0 = sk__malloc(ctx, 2 * (size_t)(J->nnz > 0 ? J->nnz : 1) * sizeof *v0);
  SK_CHECK(ctx, v0 != NULL, SK_ERR_NOMEM, "cannot allocate the index-1 check");
  double *v1 = v0 + J->nnz;
  sk_status st = analytic ? SK_OK : sk__model_set_fd_weights(ida->model, 0.0, 1.0, NULL);
  const int64_t fd_before = sk_model_get_fd_rhs_evals(ida->model);
  st = st ? st : sk_model_eval_dae_jac(ida->model, t0, 0.0, y, yp, r, v0);
  st = st ? st : sk_model_eval_dae_jac(ida->model, t0, 1.0, y, yp, r, v1);
  /* a check, not IDA's linear solver: its residual calls are counted as
     rhs_evals_selftest, not as the engine's difference quotients */
  const int64_t fd_check = sk_model_get_fd_rhs_evals(ida->model) - fd_before;
  ida->s->rhs_selftest += fd_check;
  ida->fd_rhs_base += fd_check;
  if (!analytic) { /* back to the run's weights for IDA's own Jacobians */
    const sk_status st2 =
        sk__model_set_fd_weights(ida->model, sk_stepper_get_rtol(ida->s),
                                 sk_stepper_get_atol(ida->s), sk_stepper_get_atol_vector(ida->s));
    st = st ? st : st2;
  }
  int64_t rank = J->n, col = -1;
  double rcond = 1.0;
  const double tau = analytic ? 1e3 * DBL_EPSILON : 1e2 * sqrt(DBL_EPSILON);
  if (st == SK_OK) {
    for (int64_t j = 0; j < J->n; j++) { /* dF/dy'_j = J(1) - J(0) for differential columns */
      for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
        v1[p] = id[j] ? v1[p] - v0[p] : v0[p];
      }
    }
    rank = index1_rank(J, v1, &col, &rcond);
  }
  const int singular = st == SK_OK && rank >= 0 && (rank < J->n || rcond < tau);
  char where[200] = "";
  if (singular) {
    describe_singular(ida->model, J, v1, id, col, where, sizeof where);
  }
  sk__free(ctx, v0);
  SK_CALL(ctx, st);
  SK_CHECK(ctx, rank >= 0, SK_ERR_NOMEM, "KLU could not factor the index-1 matrix");
  if (singular) {
    char how[160];
    if (rank < J->n) {
      snprintf(how, sizeof how, "singular: numerical rank %lld of %lld", (long long)rank,
               (long long)J->n);
    } else {
      snprintf(how, sizeof how,
               "numerically singular: reciprocal condition %.1e after row and column "
               "equilibration, below %.1e (the noise level of %s entries)",
               rcond, tau, analytic ? "the model's analytic" : "finite-difference");
    }
    return SK_ERROR(
        ctx, SK_ERR_INPUT,
        "model '%s' is not an index-1 DAE at t0=%.6e: the matrix [dF/dy'_d, dF/dy_a] "
        "(dF/dy' of the differential and dF/dy of the algebraic components) is "
        "%s%s; the algebraic equations do not determine the algebraic variables (an "
        "index-2 or higher system, an algebraic variable in no equation, or a wrong id "
        "vector)",
        sk_model_get_name(ida->model), t0, how, where);
  }
  sk__log(ctx, SK_LOG_DEBUG, "index-1 check at t0=%.6e: rank %lld of %lld, rcond %.2e", t0,
          (long long)rank, (long long)J->n, rcond);
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

/* The residual equations not satisfied (|F_i| >= 1e-3 max |F|, at most 6), "name = value". */
static void list_residuals(const sk_model *m, const double *r, int64_t n, double rmax, char *buf,
                           size_t len)
{
  size_t used = 0;
  int listed = 0;
  for (int64_t i = 0; i < n && used < len - 64; i++) {
    if (!(fabs(r[i]) >= 1e-3 * rmax) || rmax == 0.0) {
      continue;
    }
    if (listed == 6) {
      snprintf(buf + used, len - used, ", ...");
      return;
    }
    char name[96];
    sk_model_residual_name(m, i, name, sizeof name);
    const int w = snprintf(buf + used, len - used, "%s%s = %.3e", listed ? ", " : "", name, r[i]);
    used += w > 0 ? (size_t)w : 0;
    listed++;
  }
}

/* The components that moved, "name given -> computed", for the stepper's report. */
static void report_correction(sk__ida *ida, double r0, double r1, const double *y_in,
                              const double *y, const double *yp_in, const double *yp)
{
  const int64_t n = sk_model_get_n(ida->model);
  char text[1024];
  size_t used = (size_t)snprintf(text, sizeof text, "max |F| %.3e -> %.3e", r0, r1);
  int listed = 0, more = 0;
  for (int pass = 0; pass < 2; pass++) {
    const double *a = pass ? yp_in : y_in, *b = pass ? yp : y;
    for (int64_t i = 0; i < n; i++) {
      const double scale = 1e-12 * (1.0 + fabs(a[i]));
      if (fabs(a[i] - b[i]) <= scale) {
        continue;
      }
      if (listed >= 12 || used >= sizeof text - 96) {
        more++;
        continue;
      }
      char name[64];
      sk_model_component_name(ida->model, i, name, sizeof name);
      const int w = snprintf(text + used, sizeof text - used, "%s %s%s %.9g -> %.9g",
                             listed ? "," : "; corrected", pass ? "d/dt " : "", name, a[i], b[i]);
      used += w > 0 ? (size_t)w : 0;
      listed++;
    }
  }
  if (more && used < sizeof text - 32) {
    snprintf(text + used, sizeof text - used, ", and %d more", more);
  } else if (!listed && used < sizeof text - 32) {
    snprintf(text + used, sizeof text - used, "; nothing changed");
  }
  sk__stepper_set_init_report(ida->s, text);
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
    sk__stop_region_enter("IDA's consistent initialization (IDACalcIC)");
    flag = IDACalcIC(ida->mem, IDA_YA_YDP_INIT, tout1);
    sk__stop_region_leave();
    ida->restarted = 0; /* its initial setup zeroed the linear solver's counters */
    IDAGetConsistentIC(ida->mem, ida->y, ida->yp);
    st = sk_model_eval_residual(ida->model, t0, y, yp, r);
    if (st == SK_OK && flag >= 0) {
      st = sk__ida_sens_after_ic(ida);
    }
  }
  const double r1 = st == SK_OK ? max_abs(r, n, &at1) : 0.0;
  if (st == SK_OK && flag < 0) {
    const char *fname;
    sk__status_from_ida(flag, &fname);
    char wname[96], cause[SK_ERROR_MSG_LEN / 2] = "";
    sk_model_component_name(ida->model, at1, wname, sizeof wname);
    long lin_fails = 0;
    if (ida->have_callback_error) {
      snprintf(cause, sizeof cause, "; cause: %.480s", ida->callback_error.message);
    } else if (sk__linsol_is(ida->ctx, ida->linsol, SK__LS_KRYLOV) &&
               IDAGetNumLinConvFails(ida->mem, &lin_fails) == IDALS_SUCCESS && lin_fails > 0) {
      int maxl;
      double eps_lin;
      sk_stepper_get_krylov(ida->s, &maxl, &eps_lin);
      sk__krylov_resolve(1, &maxl, &eps_lin);
      snprintf(cause, sizeof cause,
               "; cause: the unpreconditioned %s solver did not converge in %ld linear solves "
               "(at most linsol.maxl = %d iterations each): raise linsol.maxl, or use a direct "
               "solver (klu, umfpack, band, dense)",
               ida->linsol, lin_fails, maxl);
    }
    char resid[512] = "";
    list_residuals(ida->model, r, n, r1, resid, sizeof resid);
    st = SK_ERROR(ctx, SK_ERR_CONV,
                  "consistent initial values could not be computed at t0=%.6e (IDACalcIC: %s, "
                  "%s): max |F| = %.3e at component %lld %s (it was %.3e); the residuals left: "
                  "%s%s; likely causes: "
                  "algebraic equations with no solution near the initial guess (improve the "
                  "guess of the algebraic variables), a singular algebraic part, or a "
                  "discontinuous residual",
                  t0, fname, ida->messages.msg, r1, (long long)at1, wname, r0, resid, cause);
    sk__error_set_foreign(ctx, flag, fname);
  }
  if (st == SK_OK) {
    double dy, dyp;
    moved(y, y_in, n, &dy);
    moved(yp, yp_in, n, &dyp);
    report_correction(ida, r0, r1, y_in, y, yp_in, yp);
    sk__log(ctx, SK_LOG_INFO,
            "consistent initial values at t0=%.6e (IDACalcIC): max |F| %.3e -> %.3e; "
            "algebraic components moved by up to %.3e, derivatives by up to %.3e",
            t0, r0, r1, dy, dyp);
  }
  sk__free(ctx, work);
  return st;
}
