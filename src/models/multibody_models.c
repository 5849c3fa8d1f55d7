/* src/models/multibody_models.c: a mechanism as a model: the GGL stabilized index-2 DAE, the index-1 (acceleration-level, Baumgarte) ODE and the reduced ODE of coordinate partitioning, each with the work integral W' = P as its last component */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/dense_small.h"
#include "models/multibody_impl.h"

#define MULTIBODY_MAGIC 0x6d627331u

typedef struct {
  unsigned magic;
  sk_multibody *mech;
  sk_multibody_settings set;
  int n, m, nI;
  int *indep, *dep; /* reduced: nI independent and m dependent coordinate indices */
  int *is_dep;      /* n marks, work of the partition */
  double t0;
  double *y0, *yp0;  /* the initial state (and y' for GGL) */
  double *q0n, *v0n; /* the consistent start (q0, v0) at the nominal parameters */
  double *q, *v, *a, *lam, *G, *phi, *phit, *Q, *S, *w; /* work */
  double cond_dep;  /* reduced: cond(G_D) at the last reconstruction */
  double cond_base; /* reduced: cond(G_D) when the partition was chosen */
  double proj_max;  /* index1 with projection: the largest correction of q */
} multibody_model;

static void multibody_free(void *data)
{
  multibody_model *M = data;
  if (M) {
    sk_context *ctx = M->mech->ctx;
    sk__free(ctx, M->indep);
    sk__free(ctx, M->y0);
    sk__free(ctx, M->q);
    sk__free(ctx, M);
  }
}

static int code(sk_status st)
{
  return st == SK_OK                                                          ? 0
         : st == SK_RECOVERABLE || st == SK_ERR_SINGULAR || st == SK_ERR_CONV ? 1
                                                                              : -1;
}

/* The power of the applied forces and of the drivers: P + sum over driver rows of
 * -lambda_r Phi_t,r (the constraint force G_r^T lambda_r does work only through Phi_t). */
static sk_status total_power(multibody_model *M, double t, double *P)
{
  SK_CALL(M->mech->ctx, sk_multibody_power(M->mech, t, M->q, M->v, P));
  for (int r = 0; r < M->m; r++) {
    *P -= M->lam[r] * M->phit[r];
  }
  return SK_OK;
}

/* ---- reduced coordinates ---------------------------------------------------------- */

/* The partition at q: Gaussian elimination on G with complete pivoting row by row; the
 * pivot columns are the dependent coordinates. */
static sk_status choose_partition(multibody_model *M, double t)
{
  sk_multibody *mech = M->mech;
  const int n = M->n, m = M->m;
  SK_CALL(mech->ctx, sk_multibody_jacobian(mech, t, M->q, M->G));
  int *is_dep = M->is_dep;
  memset(is_dep, 0, (size_t)n * sizeof *is_dep);
  for (int k = 0; k < m; k++) {
    int pr = -1, pc = -1;
    double best = 0.0;
    for (int r = k; r < m; r++) {
      for (int c = 0; c < n; c++) {
        if (!is_dep[c] && fabs(M->G[r * n + c]) > best) {
          best = fabs(M->G[r * n + c]);
          pr = r;
          pc = c;
        }
      }
    }
    SK_CHECK(mech->ctx, pr >= 0 && best > 1e-12, SK_ERR_SINGULAR,
             "%s: no coordinate partition: the constraint Jacobian is rank-deficient at t = %g",
             mech->file, t);
    for (int c = 0; c < n; c++) { /* swap rows k and pr */
      const double tmp = M->G[k * n + c];
      M->G[k * n + c] = M->G[pr * n + c];
      M->G[pr * n + c] = tmp;
    }
    for (int r = k + 1; r < m; r++) {
      const double f = M->G[r * n + pc] / M->G[k * n + pc];
      for (int c = 0; c < n; c++) {
        M->G[r * n + c] -= f * M->G[k * n + c];
      }
    }
    is_dep[pc] = 1;
    M->dep[k] = pc;
  }
  int ni = 0;
  for (int c = 0; c < n; c++) {
    if (!is_dep[c]) {
      M->indep[ni++] = c;
    }
  }
  return SK_OK;
}

/* Solve G_D x = b (G row-major m x n; columns dep) into x (m). */
static int solve_dep(multibody_model *M, const double *b, double *x)
{
  const int n = M->n, m = M->m;
  for (int r = 0; r < m; r++) {
    for (int k = 0; k < m; k++) {
      M->S[r * m + k] = M->G[r * n + M->dep[k]];
    }
    x[r] = b[r];
  }
  return sk__dense_solve(M->S, m, x, 1e-14);
}

/* q and v from the independent (qI, vI): Newton on Phi(q_D; q_I) = 0 from the last q. */
static sk_status reconstruct(multibody_model *M, double t, const double *y)
{
  sk_multibody *mech = M->mech;
  const int n = M->n, m = M->m, nI = M->nI;
  for (int i = 0; i < nI; i++) {
    M->q[M->indep[i]] = y[i];
    M->v[M->indep[i]] = y[nI + i];
  }
  double *dx = M->w, *rhs = M->w + m;
  double qscale = 1.0, last_step = INFINITY;
  for (int k = 0; k < n; k++) {
    qscale = fmax(qscale, fabs(M->q[k]));
  }
  for (int it = 0;; it++) {
    SK_CALL(mech->ctx, sk__multibody_rows(mech, t, M->q, NULL, M->phi, M->G, M->phit, NULL));
    double pmax = 0.0, step = 0.0;
    for (int r = 0; r < m; r++) {
      pmax = fmax(pmax, fabs(M->phi[r]));
    }
    if (pmax <= 16.0 * DBL_EPSILON * qscale) { /* at the rounding level */
      break;
    }
    if (solve_dep(M, M->phi, dx)) {
      return SK_ERR_SINGULAR;
    }
    for (int k = 0; k < m; k++) {
      M->q[M->dep[k]] -= dx[k];
      step = fmax(step, fabs(dx[k]));
    }
    /* converged when the step reaches rounding, or stops shrinking near it */
    if (step <= 1e-14 * qscale || (step >= 0.5 * last_step && step <= 1e-10 * qscale)) {
      break;
    }
    if (it >= 30 || !isfinite(step)) {
      return SK_ERR_CONV;
    }
    last_step = step;
  }
  SK_CALL(mech->ctx, sk__multibody_rows(mech, t, M->q, NULL, M->phi, M->G, M->phit, NULL));
  for (int r = 0; r < m; r++) { /* G_D v_D = -(G_I v_I + Phi_t) */
    double s = M->phit[r];
    for (int i = 0; i < nI; i++) {
      s += M->G[r * n + M->indep[i]] * M->v[M->indep[i]];
    }
    rhs[r] = -s;
  }
  if (solve_dep(M, rhs, dx)) {
    return SK_ERR_SINGULAR;
  }
  for (int k = 0; k < m; k++) {
    M->v[M->dep[k]] = dx[k];
  }
  /* cond(G_D) for the repartition test */
  for (int r = 0; r < m; r++) {
    for (int s = 0; s < m; s++) {
      double acc = 0.0;
      for (int k = 0; k < m; k++) {
        acc += M->G[r * n + M->dep[k]] * M->G[s * n + M->dep[k]];
      }
      M->S[r * m + s] = acc;
    }
  }
  double lmin, lmax;
  sk__dense_sym_eig_range(M->S, m, &lmin, &lmax);
  M->cond_dep = lmin > 0 ? sqrt(lmax / lmin) : INFINITY;
  return SK_OK;
}

/* ---- right-hand sides and residuals ----------------------------------------------- */

static int index1_rhs(double t, const double *y, double *f, void *data)
{
  multibody_model *M = data;
  const int n = M->n;
  memcpy(M->q, y, (size_t)n * sizeof *y);
  memcpy(M->v, y + n, (size_t)n * sizeof *y);
  sk_status st =
      sk_multibody_accelerations(M->mech, t, M->q, M->v, M->set.alpha, M->set.beta, M->a, M->lam);
  if (st == SK_OK) {
    st = sk_multibody_phi_t(M->mech, t, M->q, M->phit);
  }
  double P = 0.0;
  if (st == SK_OK) {
    st = total_power(M, t, &P);
  }
  memcpy(f, M->v, (size_t)n * sizeof *f);
  memcpy(f + n, M->a, (size_t)n * sizeof *f);
  f[2 * n] = P;
  return code(st);
}

static int reduced_rhs(double t, const double *y, double *f, void *data)
{
  multibody_model *M = data;
  const int nI = M->nI;
  sk_status st = reconstruct(M, t, y);
  if (st == SK_OK) {
    st = sk_multibody_accelerations(M->mech, t, M->q, M->v, 0.0, 0.0, M->a, M->lam);
  }
  double P = 0.0;
  if (st == SK_OK) {
    st = total_power(M, t, &P);
  }
  for (int i = 0; i < nI; i++) {
    f[i] = M->v[M->indep[i]];
    f[nI + i] = st == SK_OK ? M->a[M->indep[i]] : 0.0;
  }
  f[2 * nI] = P;
  return code(st);
}

static int ggl_residual(double t, const double *y, const double *yp, double *F, void *data)
{
  multibody_model *M = data;
  sk_multibody *mech = M->mech;
  const int n = M->n, m = M->m;
  const double *q = y, *v = y + n, *lam = y + 2 * n, *mu = y + 2 * n + m;
  memcpy(M->q, q, (size_t)n * sizeof *q);
  memcpy(M->v, v, (size_t)n * sizeof *v);
  memcpy(M->lam, lam, (size_t)m * sizeof *lam);
  sk_status st = sk__multibody_rows(mech, t, q, NULL, M->phi, M->G, M->phit, NULL);
  if (st == SK_OK) {
    st = sk_multibody_forces(mech, t, q, v, M->Q);
  }
  double P = 0.0;
  if (st == SK_OK) {
    st = total_power(M, t, &P);
  }
  if (st != SK_OK) {
    return code(st);
  }
  double *mdiag = M->a;
  sk_multibody_mass(mech, mdiag);
  for (int k = 0; k < n; k++) {
    double gmu = 0.0, glam = 0.0;
    for (int r = 0; r < m; r++) {
      gmu += M->G[r * n + k] * mu[r];
      glam += M->G[r * n + k] * lam[r];
    }
    F[k] = yp[k] - v[k] - gmu;
    F[n + k] = mdiag[k] * yp[n + k] - M->Q[k] - glam;
  }
  for (int r = 0; r < m; r++) {
    double gv = M->phit[r];
    for (int k = 0; k < n; k++) {
      gv += M->G[r * n + k] * v[k];
    }
    F[2 * n + r] = M->phi[r];
    F[2 * n + m + r] = gv;
  }
  F[2 * n + 2 * m] = yp[2 * n + 2 * m] - P;
  return 0;
}

/* Index-1 projection after a step: Newton with minimum-norm steps onto Phi = 0 (a few
 * iterations from a nearby state), then v onto G v + Phi_t = 0; corr = new - old. */
static int index1_projection(double t, const double *y, double *corr, void *data)
{
  multibody_model *M = data;
  const int n = M->n;
  memcpy(M->q, y, (size_t)n * sizeof *y);
  memcpy(M->v, y + n, (size_t)n * sizeof *y);
  sk_multibody_init_report ir;
  const sk_status st = sk_multibody_assemble(M->mech, t, M->q, M->v, 0.0, 1, &ir);
  if (st != SK_OK) {
    return code(st);
  }
  for (int k = 0; k < n; k++) {
    corr[k] = M->q[k] - y[k];
    corr[n + k] = M->v[k] - y[n + k];
  }
  corr[2 * n] = 0.0;
  M->proj_max = fmax(M->proj_max, ir.dq);
  return 0;
}

static int ode_initial(double t0, double *y0, void *data)
{
  (void)t0;
  multibody_model *M = data;
  const int len = M->set.formulation == SK_MULTIBODY_REDUCED ? 2 * M->nI + 1 : 2 * M->n + 1;
  memcpy(y0, M->y0, (size_t)len * sizeof *y0);
  return 0;
}

static int dae_initial(double t0, double *y0, double *yp0, void *data)
{
  (void)t0;
  multibody_model *M = data;
  const int len = 2 * M->n + 2 * M->m + 1;
  memcpy(y0, M->y0, (size_t)len * sizeof *y0);
  memcpy(yp0, M->yp0, (size_t)len * sizeof *yp0);
  return 0;
}

/* The consistent start at the current parameter values: the nominal (q0, v0), moved by the
 * assembly (minimum-norm Newton on Phi to rounding, then the velocity projection) when
 * parameter k is a joint's attachment point; then the block system's lambda and accelerations
 * and the total power there: q, v, a (n), lam (m), *P. */
static sk_status start_point(multibody_model *M, int k, double *q, double *v, double *a,
                             double *lam, double *P)
{
  sk_multibody *mech = M->mech;
  memcpy(q, M->q0n, (size_t)M->n * sizeof *q);
  memcpy(v, M->v0n, (size_t)M->n * sizeof *v);
  if (sk__multibody_param_is_geometry(mech, k)) {
    sk_multibody_init_report rep;
    SK_CALL(mech->ctx, sk_multibody_assemble(mech, M->t0, q, v, 0.0, 1, &rep));
  }
  memcpy(M->q, q, (size_t)M->n * sizeof *q);
  memcpy(M->v, v, (size_t)M->n * sizeof *v);
  SK_CALL(mech->ctx, sk_multibody_accelerations(mech, M->t0, M->q, M->v, 0.0, 0.0, a, lam));
  SK_CALL(mech->ctx, sk_multibody_phi_t(mech, M->t0, M->q, M->phit));
  memcpy(M->lam, lam, (size_t)M->m * sizeof *lam);
  return total_power(M, M->t0, P);
}

/* The start sensitivities for parameter k: central differences of the consistent start map
 * p_k -> (q0, v0, lambda0, a0 = v'0, P0 = W'0) (step 1e-6 max(|p_k|, the length scale for a
 * joint point; 1 for p_k = 0)). Masses, gravity and springs leave (q0, v0) as they are;
 * a joint point moves them with the assembly (the start follows the minimum-norm correction of
 * the nominal one). In the formulation's state: index1 (q, v, W): (dq0, dv0, 0); GGL (q, v,
 * lambda, mu, W): (dq0, dv0, dlambda0, 0, 0) with y' (dv0, da0, 0, 0, dP0); reduced: the
 * independent coordinates' (dq0, dv0) and 0. */
static int sens_initial(double t0, int k, double *s, double *sp, void *data)
{
  (void)t0;
  multibody_model *M = data;
  sk_multibody *mech = M->mech;
  const int n = M->n, m = M->m;
  double *p = sk__multibody_param_field(mech, k);
  double *work = sk__malloc(mech->ctx, 2 * (size_t)(3 * n + m) * sizeof *work);
  if (!p || !work) {
    sk__free(mech->ctx, work);
    return -1;
  }
  const double p0 = *p;
  const double scale = sk__multibody_param_is_geometry(mech, k)
                           ? fmax(fabs(p0), sk_multibody_length_scale(mech))
                       : p0 != 0.0 ? fabs(p0)
                                   : 1.0;
  const double h = 1e-6 * scale;
  double *qp = work, *vp = qp + n, *ap = vp + n, *lp = ap + n;
  double *qm = lp + m, *vm = qm + n, *am = vm + n, *lm = am + n, Pp = 0, Pm = 0;
  *p = p0 + h;
  sk_status st = start_point(M, k, qp, vp, ap, lp, &Pp);
  *p = p0 - h;
  if (st == SK_OK) {
    st = start_point(M, k, qm, vm, am, lm, &Pm);
  }
  *p = p0;
  const double r = 1.0 / (2.0 * h);
  if (st == SK_OK && M->set.formulation == SK_MULTIBODY_REDUCED) {
    for (int i = 0; i < M->nI; i++) {
      s[i] = (qp[M->indep[i]] - qm[M->indep[i]]) * r;
      s[M->nI + i] = (vp[M->indep[i]] - vm[M->indep[i]]) * r;
    }
  } else if (st == SK_OK) {
    for (int i = 0; i < n; i++) {
      s[i] = (qp[i] - qm[i]) * r;
      s[n + i] = (vp[i] - vm[i]) * r;
    }
  }
  if (st == SK_OK && M->set.formulation == SK_MULTIBODY_GGL) {
    for (int r2 = 0; r2 < m; r2++) {
      s[2 * n + r2] = (lp[r2] - lm[r2]) * r;
    }
    for (int i = 0; sp && i < n; i++) {
      sp[i] = s[n + i];
      sp[n + i] = (ap[i] - am[i]) * r;
    }
    if (sp) {
      sp[2 * n + 2 * m] = (Pp - Pm) * r;
    }
  }
  sk__free(mech->ctx, work);
  return code(st);
}

/* Events: coordinate c of body b crosses value. */
static int events(double t, const double *y, double *g, void *data)
{
  multibody_model *M = data;
  const double *q = y;
  if (M->set.formulation == SK_MULTIBODY_REDUCED) {
    /* a failed reconstruction (a partition going singular) keeps the last good dependent
       coordinates: the engine's step monitor asks for a new partition there */
    (void)reconstruct(M, t, y);
    q = M->q;
  }
  for (int k = 0; k < M->mech->ne; k++) {
    const sk__multibody_event *e = &M->mech->events[k];
    g[k] = q[3 * e->body + e->coord] - e->value;
  }
  return 0;
}

static void component_name(int64_t i, char *buf, size_t len, void *data)
{
  const multibody_model *M = data;
  const int n = M->n, m = M->m;
  char name[64];
  if (M->set.formulation == SK_MULTIBODY_REDUCED) {
    const int nI = M->nI;
    if (i == 2 * nI) {
      snprintf(buf, len, "W");
      return;
    }
    sk_multibody_coord_name(M->mech, M->indep[i % nI], name, sizeof name);
    snprintf(buf, len, "%s%s", i < nI ? "" : "v_", name);
    return;
  }
  if (i < 2 * n) {
    sk_multibody_coord_name(M->mech, (int)(i % n), name, sizeof name);
    snprintf(buf, len, "%s%s", i < n ? "" : "v_", name);
  } else if (M->set.formulation == SK_MULTIBODY_GGL && i < 2 * n + 2 * m) {
    sk_multibody_row_name(M->mech, (int)((i - 2 * n) % m), name, sizeof name);
    snprintf(buf, len, "%s(%s)", i < 2 * n + m ? "lambda" : "mu", name);
  } else {
    snprintf(buf, len, "W");
  }
}

/* ---- construction -------------------------------------------------------------------- */

static sk_status alloc_model(sk_multibody *mech, const sk_multibody_settings *s,
                             multibody_model **out)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m;
  multibody_model *M = sk__calloc(ctx, 1, sizeof *M);
  SK_CHECK(ctx, M != NULL, SK_ERR_NOMEM, "cannot allocate the mechanism model");
  M->magic = MULTIBODY_MAGIC;
  M->mech = mech;
  M->set = *s;
  M->n = n;
  M->m = m;
  M->nI = n - m;
  const size_t ny = (size_t)(2 * n + 2 * m + 1);
  M->indep = sk__calloc(ctx, (size_t)(3 * n + 3), sizeof *M->indep);
  M->y0 = sk__calloc(ctx, 2 * ny + 2 * (size_t)n, sizeof *M->y0);
  M->q = sk__calloc(ctx, (size_t)(4 * n + 3 * m + m * n + m * m + m + n + 2), sizeof *M->q);
  if (!M->indep || !M->y0 || !M->q) {
    multibody_free(M);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the mechanism model");
  }
  M->dep = M->indep + n + 1;
  M->is_dep = M->dep + n + 1;
  M->yp0 = M->y0 + ny;
  M->q0n = M->yp0 + ny;
  M->v0n = M->q0n + n;
  M->v = M->q + n;
  M->a = M->v + n;
  M->Q = M->a + n;
  M->lam = M->Q + n;
  M->phi = M->lam + m;
  M->phit = M->phi + m;
  M->G = M->phit + m;
  M->S = M->G + m * n;
  M->w = M->S + m * m; /* m + n + 2 */
  *out = M;
  return SK_OK;
}

sk_status sk_multibody_model(sk_multibody *mech, const sk_multibody_settings *s, double t0,
                             const double *q0, const double *v0, sk_model **model)
{
  sk_context *ctx = mech->ctx;
  *model = NULL;
  multibody_model *M = NULL;
  SK_CALL(ctx, alloc_model(mech, s, &M));
  const int n = M->n, m = M->m;
  M->t0 = t0;
  memcpy(M->q0n, q0, (size_t)n * sizeof *q0);
  memcpy(M->v0n, v0, (size_t)n * sizeof *v0);
  memcpy(M->q, q0, (size_t)n * sizeof *q0);
  memcpy(M->v, v0, (size_t)n * sizeof *v0);
  sk_status st = sk_multibody_accelerations(mech, t0, M->q, M->v, 0.0, 0.0, M->a, M->lam);
  if (st == SK_OK) {
    st = sk_multibody_phi_t(mech, t0, M->q, M->phit);
  }
  double P = 0.0;
  if (st == SK_OK) {
    st = total_power(M, t0, &P);
  }
  if (st == SK_OK && s->formulation == SK_MULTIBODY_REDUCED) {
    st = choose_partition(M, t0);
  }
  int64_t ny = 0;
  if (st == SK_OK) {
    if (s->formulation == SK_MULTIBODY_REDUCED) {
      ny = 2 * M->nI + 1;
      for (int i = 0; i < M->nI; i++) {
        M->y0[i] = q0[M->indep[i]];
        M->y0[M->nI + i] = v0[M->indep[i]];
      }
      st = reconstruct(M, t0, M->y0); /* cond(G_D) of the new partition */
      M->cond_base = M->cond_dep;
    } else {
      ny = s->formulation == SK_MULTIBODY_GGL ? 2 * n + 2 * m + 1 : 2 * n + 1;
      memcpy(M->y0, q0, (size_t)n * sizeof *q0);
      memcpy(M->y0 + n, v0, (size_t)n * sizeof *v0);
      if (s->formulation == SK_MULTIBODY_GGL) {
        memcpy(M->y0 + 2 * n, M->lam, (size_t)m * sizeof *M->lam);
        memcpy(M->yp0, v0, (size_t)n * sizeof *v0);
        memcpy(M->yp0 + n, M->a, (size_t)n * sizeof *M->a);
        M->yp0[2 * n + 2 * m] = P;
      }
    }
    st = sk_model_create(ctx, s->formulation == SK_MULTIBODY_GGL ? SK_MODEL_DAE : SK_MODEL_ODE,
                         ny, model);
  }
  if (st != SK_OK) {
    multibody_free(M);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  static const char *const names[3] = {"mechanism-ggl", "mechanism-index1", "mechanism-reduced"};
  sk_model_set_name(*model, names[s->formulation]);
  sk_model_set_user_data(*model, M, multibody_free);
  sk_model_set_component_name(*model, component_name);
  if (s->formulation == SK_MULTIBODY_GGL) {
    int *id = sk__malloc(ctx, (size_t)ny * sizeof *id);
    if (!id) {
      sk_model_destroy(model);
      return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the ids");
    }
    for (int64_t i = 0; i < ny; i++) {
      id[i] = i < 2 * n || i == ny - 1;
    }
    sk_model_set_residual(*model, ggl_residual);
    sk_model_set_dae_initial(*model, dae_initial);
    st = sk_model_set_differential(*model, id);
    sk__free(ctx, id);
    if (st == SK_OK) {
      st = sk_model_set_dae_consistent(*model, 1);
    }
  } else {
    sk_model_set_rhs(*model, s->formulation == SK_MULTIBODY_REDUCED ? reduced_rhs : index1_rhs);
    sk_model_set_initial(*model, ode_initial);
    if (s->formulation == SK_MULTIBODY_INDEX1 && s->project) {
      sk_model_set_projection(*model, index1_projection);
    }
  }
  if (st == SK_OK && mech->ne > 0) {
    st = sk_model_set_events(*model, mech->ne, events, NULL);
  }
  if (st == SK_OK) {
    st = sk__multibody_declare_params(mech, *model);
  }
  if (st == SK_OK) {
    st = sk_model_set_sens_initial(*model, sens_initial);
  }
  if (st != SK_OK) {
    sk_model_destroy(model);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

static multibody_model *of(const sk_model *model)
{
  multibody_model *M = model ? sk_model_get_user_data(model) : NULL;
  return M && M->magic == MULTIBODY_MAGIC ? M : NULL;
}

sk_status sk_multibody_state(sk_multibody *mech, const sk_model *model, double t, const double *y,
                             double *q, double *v, double *lambda)
{
  multibody_model *M = of(model);
  SK_CHECK(mech->ctx, M != NULL && M->mech == mech, SK_ERR_ARG,
           "sk_multibody_state: the model is not a formulation of this mechanism");
  const int n = M->n;
  if (M->set.formulation == SK_MULTIBODY_REDUCED) {
    const sk_status st = reconstruct(M, t, y);
    SK_CHECK(mech->ctx, st == SK_OK, st < 0 ? st : SK_ERR_CONV,
             "%s: the dependent coordinates could not be reconstructed at t = %.9g (their block "
             "G_D of the constraint Jacobian is singular there: a toggle position, or a "
             "partition that went singular before a new one was chosen)",
             mech->file, t);
  } else {
    memcpy(M->q, y, (size_t)n * sizeof *y);
    memcpy(M->v, y + n, (size_t)n * sizeof *y);
  }
  memcpy(q, M->q, (size_t)n * sizeof *q);
  memcpy(v, M->v, (size_t)n * sizeof *v);
  /* the multipliers of every formulation from the block system at its (q, v): GGL's own
     lambda is an index-2 variable outside the error test, good to ~1e-6 relative only */
  if (lambda) {
    SK_CALL(mech->ctx, sk_multibody_accelerations(mech, t, q, v, 0.0, 0.0, NULL, lambda));
  }
  return SK_OK;
}

const int *sk_multibody_reduced_partition(const sk_model *model, int *count)
{
  multibody_model *M = of(model);
  if (!M || M->set.formulation != SK_MULTIBODY_REDUCED) {
    *count = 0;
    return NULL;
  }
  *count = M->nI;
  return M->indep;
}

double sk_multibody_projection_max(const sk_model *model)
{
  multibody_model *M = of(model);
  return M ? M->proj_max : 0.0;
}

double sk_multibody_reduced_condition(const sk_model *model)
{
  multibody_model *M = of(model);
  return M && M->set.formulation == SK_MULTIBODY_REDUCED ? M->cond_dep : NAN;
}

double sk_multibody_reduced_growth(const sk_model *model, double t, const double *y)
{
  multibody_model *M = of(model);
  if (!M || M->set.formulation != SK_MULTIBODY_REDUCED) {
    return NAN;
  }
  if (M->nI == 0) { /* no independent coordinate: no other partition to choose */
    return 1.0;
  }
  if (reconstruct(M, t, y) != SK_OK) {
    return INFINITY;
  }
  return M->cond_dep / M->cond_base;
}
