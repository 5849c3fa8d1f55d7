/* src/steppers/newton_klu.c: modified Newton for the implicit reference steppers: KLU on I - gamma J (an ODE) or gamma dF/dy + dF/dy' (a DAE), analyzed once, refactored with an rcond check; a DAE's consistent initial values */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "linsol/klu_factor.h"
#include "core/csc.h"
#include "steppers/newton_klu.h"

/* Re-evaluate J after this many solves even while Newton converges. */
#define SK__NEWTON_JAC_AGE 50
/* Refactor when gamma moved by more than this fraction since the last factor. */
#define SK__NEWTON_DGMAX 0.3
/* Below this klu_l_rcond, a refactor is replaced by a full factor (pivoting again). */
#define SK__NEWTON_RCOND_MIN 3.6e-11
#define SK__NEWTON_MAXIT 5
/* Full Newton iterations of a DAE's consistent initialization. */
#define SK__NEWTON_INIT_MAXIT 10
#define SK__NEWTON_INIT_MAXIT_STR "10"

struct sk__newton {
  sk_context *ctx;
  sk_model *model;
  const char *name;
  int64_t n, nnz, mnnz;
  int64_t *cp, *ri, *map, *diag; /* pattern of I - gamma J (model pattern + diagonal) */
  int dae;                       /* 1: the model is F(t, y, y') = 0 */
  double *jv;                    /* J = df/dy (ODE) or dF/dy (DAE) values in that pattern */
  double *bv;                    /* DAE: dF/dy' values in that pattern */
  double *mv;                    /* J values in the model's pattern order */
  double *ax;                    /* values of I - gamma J */
  double *fx, *dx, *x0;          /* work, length n */
  double *xp;                    /* DAE: y' = (x - psi) / gamma at the iterate, length n */
  sk__klu klu;                   /* I - gamma J */
  int have_jac;
  double gamma_fact; /* gamma of the current factorization, 0 = none */
  double crate;      /* convergence rate estimate */
  int64_t solves_since_jac;
};

sk_status sk__newton_create(sk_context *ctx, sk_model *m, const char *name, sk__newton **out)
{
  *out = NULL;
  const int64_t *mcp, *mri;
  int64_t mnnz;
  sk_model_get_jac_pattern(m, &mcp, &mri, &mnnz);
  SK_CHECK(ctx, mcp != NULL && mri != NULL, SK_ERR_UNSUPPORTED,
           "stepper '%s' needs the model's Jacobian pattern (model '%s' has none): it supports "
           "models with a pattern (solver.detect_pattern=auto or on finds one by probing the "
           "right-hand side), or use an explicit method",
           name, sk_model_get_name(m));
  sk__newton *nw = sk__calloc(ctx, 1, sizeof *nw);
  SK_CHECK(ctx, nw != NULL, SK_ERR_NOMEM, "cannot allocate the Newton solver");
  nw->ctx = ctx;
  nw->model = m;
  nw->name = name;
  nw->n = sk_model_get_n(m);
  nw->dae = sk_model_get_kind(m) == SK_MODEL_DAE;
  nw->mnnz = mnnz;
  nw->crate = 1.0;
  sk__klu_init(&nw->klu);
  sk_status rc =
      sk__csc_with_diagonal(ctx, nw->n, mcp, mri, &nw->cp, &nw->ri, &nw->map, &nw->diag);
  if (rc < 0) {
    sk__newton_destroy(&nw);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return rc;
  }
  const size_t n = (size_t)nw->n;
  nw->nnz = nw->cp[nw->n];
  nw->jv = sk__calloc(ctx, (size_t)nw->nnz, sizeof(double));
  nw->ax = sk__calloc(ctx, (size_t)nw->nnz, sizeof(double));
  nw->mv = sk__calloc(ctx, mnnz > 0 ? (size_t)mnnz : 1, sizeof(double));
  nw->fx = sk__calloc(ctx, n, sizeof(double));
  nw->dx = sk__calloc(ctx, n, sizeof(double));
  nw->x0 = sk__calloc(ctx, n, sizeof(double));
  if (nw->dae) {
    nw->bv = sk__calloc(ctx, (size_t)nw->nnz, sizeof(double));
    nw->xp = sk__calloc(ctx, n, sizeof(double));
  }
  if (!nw->jv || !nw->ax || !nw->mv || !nw->fx || !nw->dx || !nw->x0 ||
      (nw->dae && (!nw->bv || !nw->xp))) {
    sk__newton_destroy(&nw);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Newton solver for %lld states",
                    (long long)n);
  }
  if (!sk__klu_analyze(&nw->klu, nw->n, nw->cp, nw->ri)) {
    const int st = (int)nw->klu.common.status;
    sk__newton_destroy(&nw);
    rc = SK_ERROR(ctx, sk__klu_status_code(st),
                  "stepper '%s': KLU analysis of the Jacobian pattern failed (%s)", name,
                  sk__klu_status_name(st));
    sk__error_set_foreign(ctx, st, sk__klu_status_name(st));
    return rc;
  }
  *out = nw;
  return SK_OK;
}

void sk__newton_reset(sk__newton *nw)
{
  sk__klu_drop_factors(&nw->klu);
  nw->have_jac = 0;
  nw->gamma_fact = 0.0;
  nw->crate = 1.0;
  nw->solves_since_jac = 0;
}

void sk__newton_destroy(sk__newton **pnw)
{
  if (!pnw || !*pnw) {
    return;
  }
  sk__newton *nw = *pnw;
  sk__klu_free(&nw->klu);
  sk_context *ctx = nw->ctx;
  sk__free(ctx, nw->cp);
  sk__free(ctx, nw->ri);
  sk__free(ctx, nw->map);
  sk__free(ctx, nw->diag);
  sk__free(ctx, nw->jv);
  sk__free(ctx, nw->ax);
  sk__free(ctx, nw->mv);
  sk__free(ctx, nw->fx);
  sk__free(ctx, nw->dx);
  sk__free(ctx, nw->x0);
  sk__free(ctx, nw->bv);
  sk__free(ctx, nw->xp);
  sk__free(ctx, nw);
  *pnw = NULL;
}

/* The model's Jacobian values (the ODE's df/dy, or the DAE's dF/dy + cj
 * dF/dy') scattered into the pattern of I - gamma J; the RHS (residual)
 * calls of colored differences are counted. */
static sk_status model_jacobian(sk__newton *nw, double t, double cj, const double *x,
                                const double *fx, double *into, sk_stats *st)
{
  const int64_t fd0 = sk_model_get_fd_rhs_evals(nw->model);
  const sk_status rc = nw->dae ? sk_model_eval_dae_jac(nw->model, t, cj, x, nw->xp, fx, nw->mv)
                               : sk_model_eval_jac(nw->model, t, x, fx, nw->mv);
  st->rhs_evals += sk_model_get_fd_rhs_evals(nw->model) - fd0;
  st->rhs_evals_dq += sk_model_get_fd_rhs_evals(nw->model) - fd0;
  SK_CALL(nw->ctx, rc);
  memset(into, 0, (size_t)nw->nnz * sizeof *into);
  for (int64_t p = 0; p < nw->mnnz; p++) {
    into[nw->map[p]] = nw->mv[p];
  }
  return SK_OK;
}

/* J at (t, x) with fx = f(t, x); for a DAE (y' = nw->xp, fx = F) the
 * matrix dF/dy + cj dF/dy' at cj = 1/gamma when split == 0 (the stepping:
 * evaluated afresh for each factorization, as IDA does, since differences
 * of two evaluations would lose digits), else dF/dy (cj = 0) and dF/dy'
 * (the difference at cj = 1) apart (the consistent initialization). */
static sk_status eval_jacobian(sk__newton *nw, double t, double gamma, int split, const double *x,
                               const double *fx, sk_stats *st)
{
  st->jac_evals++;
  nw->have_jac = 1;
  nw->solves_since_jac = 0;
  nw->gamma_fact = 0.0;
  const double cj = nw->dae && !split ? 1.0 / gamma : 0.0;
  SK_CALL(nw->ctx, model_jacobian(nw, t, cj, x, fx, nw->jv, st));
  if (nw->dae && split) {
    SK_CALL(nw->ctx, model_jacobian(nw, t, 1.0, x, fx, nw->bv, st));
    for (int64_t p = 0; p < nw->nnz; p++) {
      nw->bv[p] -= nw->jv[p];
    }
  }
  return SK_OK;
}

/* Factor nw->ax: refactor when possible, with an rcond check and a full
 * factor as the fallback. SK_RECOVERABLE for a singular matrix. */
static sk_status factor_values(sk__newton *nw, sk_stats *st)
{
  st->lin_setups++;
  st->factorizations++;
  nw->gamma_fact = 0.0;
  nw->crate = 1.0;
  if (!sk__klu_factor(&nw->klu, nw->cp, nw->ri, nw->ax, SK__NEWTON_RCOND_MIN)) {
    const int kst = (int)nw->klu.common.status;
    if (kst == KLU_SINGULAR) {
      return SK_RECOVERABLE;
    }
    const sk_status code = sk__klu_status_code(kst);
    SK_ERROR(nw->ctx, code, "stepper '%s': KLU factorization failed (%s)", nw->name,
             sk__klu_status_name(kst));
    sk__error_set_foreign(nw->ctx, kst, sk__klu_status_name(kst));
    return code;
  }
  return SK_OK;
}

/* Factor the iteration matrix of gamma: I - gamma J (ODE), or
 * gamma (dF/dy + dF/dy' / gamma) (DAE: the derivative of
 * gamma F(t, x, (x - psi) / gamma), J evaluated at cj = 1/gamma). */
static sk_status factor(sk__newton *nw, double gamma, sk_stats *st)
{
  for (int64_t p = 0; p < nw->nnz; p++) {
    nw->ax[p] = nw->dae ? gamma * nw->jv[p] : -gamma * nw->jv[p];
  }
  for (int64_t j = 0; j < nw->n && !nw->dae; j++) {
    nw->ax[nw->diag[j]] += 1.0;
  }
  const sk_status rc = factor_values(nw, st); /* SK_RECOVERABLE: singular */
  if (rc != SK_OK) {
    return rc;
  }
  nw->gamma_fact = gamma;
  return SK_OK;
}

static double wrms(const double *v, const double *wt, int64_t n)
{
  double s = 0.0;
  for (int64_t i = 0; i < n; i++) {
    const double a = v[i] * wt[i];
    s += a * a;
  }
  return sqrt(s / (double)n);
}

/* One Newton attempt from x. SK_OK converged, SK_RECOVERABLE not
 * converged (or singular / recoverable RHS), < 0 error. */
static sk_status iterate(sk__newton *nw, double t, double gamma, const double *psi,
                         const double *wt, double tol, double *x, int fresh_jac, int full,
                         sk_stats *st)
{
  double delp = 0.0;
  for (int k = 0; k < SK__NEWTON_MAXIT; k++) {
    st->rhs_evals++;
    for (int64_t i = 0; i < nw->n && nw->dae; i++) {
      nw->xp[i] = (x[i] - psi[i]) / gamma;
    }
    sk_status rc = nw->dae ? sk_model_eval_residual(nw->model, t, x, nw->xp, nw->fx)
                           : sk_model_eval_rhs(nw->model, t, x, nw->fx);
    if (rc != SK_OK) {
      return rc;
    }
    const int refactor =
        nw->gamma_fact == 0.0 || fabs(gamma / nw->gamma_fact - 1.0) > SK__NEWTON_DGMAX;
    if ((k == 0 && (fresh_jac || !nw->have_jac)) || (full && k > 0) || (nw->dae && refactor)) {
      rc = eval_jacobian(nw, t, gamma, 0, x, nw->fx, st);
      if (rc != SK_OK) {
        nw->have_jac = 0; /* a partial J is not reused */
        return rc;
      }
    }
    if (nw->gamma_fact == 0.0 || fabs(gamma / nw->gamma_fact - 1.0) > SK__NEWTON_DGMAX) {
      rc = factor(nw, gamma, st);
      if (rc != SK_OK) {
        return rc;
      }
    }
    for (int64_t i = 0; i < nw->n; i++) {
      nw->dx[i] = nw->dae ? -gamma * nw->fx[i] : -(x[i] - psi[i] - gamma * nw->fx[i]);
    }
    if (!sk__klu_solve(&nw->klu, nw->dx, 1)) {
      return SK_RECOVERABLE;
    }
    /* the factor was built with gamma_fact: scale the update as CVODE does */
    if (gamma != nw->gamma_fact) {
      const double c = 2.0 / (1.0 + gamma / nw->gamma_fact);
      for (int64_t i = 0; i < nw->n; i++) {
        nw->dx[i] *= c;
      }
    }
    for (int64_t i = 0; i < nw->n; i++) {
      x[i] += nw->dx[i];
    }
    st->newton_iters++;
    const double del = wrms(nw->dx, wt, nw->n);
    if (!isfinite(del)) {
      return SK_RECOVERABLE;
    }
    if (k > 0) {
      nw->crate = fmax(0.3 * nw->crate, del / delp);
    }
    if (del * fmin(1.0, nw->crate) <= tol || del == 0.0) {
      return SK_OK;
    }
    if (!full && k > 0 && del > 2.0 * delp) {
      return SK_RECOVERABLE;
    }
    delp = del;
  }
  return SK_RECOVERABLE;
}

sk_status sk__newton_solve(sk__newton *nw, double t, double gamma, const double *psi,
                           const double *wt, double tol, double *x, sk_stats *st)
{
  const size_t bytes = (size_t)nw->n * sizeof *x;
  memcpy(nw->x0, x, bytes);
  const int fresh = !nw->have_jac || nw->solves_since_jac >= SK__NEWTON_JAC_AGE;
  nw->solves_since_jac++;
  const int64_t fails0 = st->newton_fails;
  sk_status rc = iterate(nw, t, gamma, psi, wt, tol, x, fresh, 0, st);
  if (rc == SK_RECOVERABLE) {
    /* an old Jacobian, or a predictor far from the solution of a strongly
     * nonlinear problem: retry once from the predictor with full Newton
     * (J re-evaluated and refactored at every iterate) */
    memcpy(x, nw->x0, bytes);
    nw->solves_since_jac = 1;
    rc = iterate(nw, t, gamma, psi, wt, tol, x, 1, 1, st);
  }
  if (rc == SK_RECOVERABLE) {
    st->newton_fails = fails0 + 1;
  }
  return rc;
}

/* Largest |F_i| and its index. */
static double largest(const double *v, int64_t n, int64_t *at)
{
  double m = -1.0;
  for (int64_t i = 0; i < n; i++) {
    if (fabs(v[i]) > m) {
      m = fabs(v[i]);
      *at = i;
    }
  }
  return m;
}

sk_status sk__newton_dae_initial(sk__newton *nw, double t, const int *id, const double *wt,
                                 double tol, double *y, double *yp, sk_stats *st)
{
  sk_context *ctx = nw->ctx;
  SK_CHECK(ctx, nw->dae, SK_ERR_STATE, "stepper '%s': consistent initial values of an ODE",
           nw->name);
  sk_status rc = SK_OK;
  double del = INFINITY;
  for (int k = 0; k < SK__NEWTON_INIT_MAXIT && rc == SK_OK && !(del <= tol); k++) {
    memcpy(nw->xp, yp, (size_t)nw->n * sizeof *yp);
    st->rhs_evals++;
    rc = sk_model_eval_residual(nw->model, t, y, yp, nw->fx);
    rc = rc == SK_OK ? eval_jacobian(nw, t, 1.0, 1, y, nw->fx, st) : rc;
    if (rc != SK_OK) {
      break;
    }
    /* the unknowns: y'_j of a differential component, y_j of an algebraic one */
    for (int64_t j = 0; j < nw->n; j++) {
      const int differential = !id || id[j];
      for (int64_t p = nw->cp[j]; p < nw->cp[j + 1]; p++) {
        nw->ax[p] = differential ? nw->bv[p] : nw->jv[p];
      }
    }
    rc = factor_values(nw, st);
    if (rc == SK_OK && !sk__klu_solve(&nw->klu, nw->fx, 1)) {
      rc = SK_RECOVERABLE;
    }
    if (rc != SK_OK) {
      break;
    }
    for (int64_t j = 0; j < nw->n; j++) {
      double *u = (!id || id[j]) ? &yp[j] : &y[j];
      *u -= nw->fx[j];
      nw->dx[j] = nw->fx[j];
    }
    st->newton_iters++;
    del = wrms(nw->dx, wt, nw->n);
  }
  sk__newton_reset(nw);
  if (rc < 0) {
    return rc;
  }
  if (rc == SK_OK && del <= tol) {
    return SK_OK;
  }
  /* name the residual that is left */
  int64_t at = 0;
  double fmax = NAN;
  if (sk_model_eval_residual(nw->model, t, y, yp, nw->fx) == SK_OK) {
    fmax = largest(nw->fx, nw->n, &at);
  }
  char name[96];
  sk_model_residual_name(nw->model, at, name, sizeof name);
  return SK_ERROR(
      ctx, SK_ERR_CONV,
      "stepper '%s': no consistent initial values at t=%.6e: %s (the largest "
      "residual left is |%s| = %.3e); check y0 and yp0, and that the DAE is of index 1 "
      "(dF/dy' of the differential and dF/dy of the algebraic components form a "
      "regular matrix)",
      nw->name, t,
      rc == SK_RECOVERABLE ? "the Newton matrix is singular"
                           : "Newton did not converge in " SK__NEWTON_INIT_MAXIT_STR
                             " iterations",
      name, fmax);
}
