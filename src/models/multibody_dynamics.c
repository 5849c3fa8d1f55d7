/* src/models/multibody_dynamics.c: mechanism dynamics: applied forces, energy and power, the block system [M G^T; G 0] for accelerations and multipliers, rank and condition of G, consistent initialization */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/dense_small.h"
#include "models/multibody_impl.h"

/* A force F applied at point s of body b into Q (generalized: F and the moment (A s) x F). */
static void apply(int b, const double *q, const double s[2], const double F[2], double *Q)
{
  if (b == SK__MULTIBODY_GROUND) {
    return;
  }
  double As[2];
  sk__multibody_rotate(q[3 * b + 2], s, As);
  Q[3 * b] += F[0];
  Q[3 * b + 1] += F[1];
  Q[3 * b + 2] += As[0] * F[1] - As[1] * F[0];
}

/* A spring's length L, its rate and the unit vector e from P1 to P2. */
static void spring_state(const sk__multibody_force *f, const double *q, const double *v,
                         double *L, double *Ld, double e[2])
{
  double P1[2], P1v[2], P2[2], P2v[2];
  sk__multibody_point(f->b1, q, v, f->s1, P1, P1v);
  sk__multibody_point(f->b2, q, v, f->s2, P2, P2v);
  const double d[2] = {P2[0] - P1[0], P2[1] - P1[1]};
  *L = hypot(d[0], d[1]);
  e[0] = *L > 0 ? d[0] / *L : 0.0;
  e[1] = *L > 0 ? d[1] / *L : 0.0;
  *Ld = e[0] * (P2v[0] - P1v[0]) + e[1] * (P2v[1] - P1v[1]);
}

sk_status sk_multibody_forces(sk_multibody *mech, double t, const double *q, const double *v,
                              double *Q)
{
  const int n = 3 * mech->nb;
  memset(Q, 0, (size_t)n * sizeof *Q);
  for (int b = 0; b < mech->nb; b++) {
    Q[3 * b] += mech->bodies[b].mass * mech->gravity[0];
    Q[3 * b + 1] += mech->bodies[b].mass * mech->gravity[1];
  }
  for (int k = 0; k < mech->nf; k++) {
    const sk__multibody_force *f = &mech->forces[k];
    if (f->type == SK__MULTIBODY_SPRING) {
      double L, Ld, e[2];
      spring_state(f, q, v, &L, &Ld, e);
      const double T = f->k * (L - f->length) + f->damping * Ld; /* tension */
      const double F1[2] = {T * e[0], T * e[1]}, F2[2] = {-T * e[0], -T * e[1]};
      apply(f->b1, q, f->s1, F1, Q);
      apply(f->b2, q, f->s2, F2, Q);
    } else if (f->type == SK__MULTIBODY_FORCE) {
      const double F[2] = {sk__time_function_eval(f->fx, t), sk__time_function_eval(f->fy, t)};
      apply(f->b1, q, f->s1, F, Q);
    } else {
      Q[3 * f->b1 + 2] += sk__time_function_eval(f->fx, t);
    }
  }
  for (int i = 0; i < n; i++) {
    SK_CHECK(mech->ctx, isfinite(Q[i]), SK_ERR_NONFINITE,
             "the applied forces are not finite at t = %.9g (generalized force %d)", t, i);
  }
  return SK_OK;
}

void sk_multibody_energy(const sk_multibody *mech, const double *q, const double *v,
                         double *kinetic, double *potential)
{
  double T = 0.0, V = 0.0;
  for (int b = 0; b < mech->nb; b++) {
    const sk__multibody_body *B = &mech->bodies[b];
    T += 0.5 * B->mass * (v[3 * b] * v[3 * b] + v[3 * b + 1] * v[3 * b + 1]) +
         0.5 * B->inertia * v[3 * b + 2] * v[3 * b + 2];
    V -= B->mass * (mech->gravity[0] * q[3 * b] + mech->gravity[1] * q[3 * b + 1]);
  }
  for (int k = 0; k < mech->nf; k++) {
    const sk__multibody_force *f = &mech->forces[k];
    if (f->type == SK__MULTIBODY_SPRING) {
      double L, Ld, e[2];
      spring_state(f, q, v, &L, &Ld, e);
      V += 0.5 * f->k * (L - f->length) * (L - f->length);
    }
  }
  *kinetic = T;
  *potential = V;
}

sk_status sk_multibody_power(sk_multibody *mech, double t, const double *q, const double *v,
                             double *power)
{
  double P = 0.0;
  for (int k = 0; k < mech->nf; k++) {
    const sk__multibody_force *f = &mech->forces[k];
    if (f->type == SK__MULTIBODY_SPRING) {
      double L, Ld, e[2];
      spring_state(f, q, v, &L, &Ld, e);
      P -= f->damping * Ld * Ld;
    } else if (f->type == SK__MULTIBODY_FORCE) {
      double Pp[2], Pv[2];
      sk__multibody_point(f->b1, q, v, f->s1, Pp, Pv);
      P += sk__time_function_eval(f->fx, t) * Pv[0] + sk__time_function_eval(f->fy, t) * Pv[1];
    } else {
      P += sk__time_function_eval(f->fx, t) * v[3 * f->b1 + 2];
    }
  }
  SK_CHECK(mech->ctx, isfinite(P), SK_ERR_NONFINITE,
           "the power of the applied forces is not "
           "finite at t = %.9g",
           t);
  *power = P;
  return SK_OK;
}

/* ---- rank, condition ------------------------------------------------------------ */

/* The names of the constraint rows marked in dep (joints and drivers, each once). */
static void dependent_names(const sk_multibody *mech, const int *dep, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int r = 0; r < mech->m; r++) {
    if (!dep[r]) {
      continue;
    }
    char name[64];
    sk_multibody_row_name(mech, r, name, sizeof name);
    snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", name);
  }
}

sk_status sk_multibody_check_rank(sk_multibody *mech, double t, const double *q)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m;
  double *G = sk__malloc(ctx, (size_t)(m * n + 1) * sizeof *G);
  int *dep = sk__calloc(ctx, (size_t)m + 1, sizeof *dep);
  if (!G || !dep) {
    sk__free(ctx, G);
    sk__free(ctx, dep);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the constraint Jacobian");
  }
  sk_status st = sk_multibody_jacobian(mech, t, q, G);
  const int rank = st == SK_OK ? sk__dense_row_rank(G, m, n, dep) : m;
  if (st == SK_OK && rank < m) {
    char names[1024];
    dependent_names(mech, dep, names, sizeof names);
    st = SK_ERROR(ctx, SK_ERR_SINGULAR,
                  "%s: the constraint Jacobian has rank %d < %d at t = %g: redundant or "
                  "conflicting constraints; these rows depend on the ones before them: %s "
                  "(remove or replace those joints or drivers, or move the mechanism off a "
                  "singular (toggle) configuration)",
                  mech->file, rank, m, t, names);
  }
  sk__free(ctx, G);
  sk__free(ctx, dep);
  return st;
}

double sk_multibody_condition(sk_multibody *mech, double t, const double *q)
{
  const int n = 3 * mech->nb, m = mech->m;
  if (m == 0) {
    return 1.0;
  }
  double *G = sk__malloc(mech->ctx, (size_t)(m * n + m * m) * sizeof *G);
  if (!G || sk_multibody_jacobian(mech, t, q, G) != SK_OK) {
    sk__free(mech->ctx, G);
    return INFINITY;
  }
  /* equilibrate rows and columns (Ruiz, a few sweeps of square roots of the largest entries),
     so that units and where the ground points lie do not make a regular mechanism look
     singular */
  for (int sweep = 0; sweep < 8; sweep++) {
    for (int i = 0; i < m; i++) {
      double big = 0.0;
      for (int k = 0; k < n; k++) {
        big = fmax(big, fabs(G[i * n + k]));
      }
      for (int k = 0; big > 0 && k < n; k++) {
        G[i * n + k] /= sqrt(big);
      }
    }
    for (int k = 0; k < n; k++) {
      double big = 0.0;
      for (int i = 0; i < m; i++) {
        big = fmax(big, fabs(G[i * n + k]));
      }
      for (int i = 0; big > 0 && i < m; i++) {
        G[i * n + k] /= sqrt(big);
      }
    }
  }
  double *S = G + m * n; /* G G^T */
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) {
        s += G[i * n + k] * G[j * n + k];
      }
      S[i * m + j] = s;
    }
  }
  double lmin, lmax;
  sk__dense_sym_eig_range(S, m, &lmin, &lmax);
  sk__free(mech->ctx, G);
  return lmin > 0.0 ? sqrt(lmax / lmin) : INFINITY;
}

double sk_multibody_length_scale(const sk_multibody *mech)
{
  double L = 0.0;
  for (int b = 0; b < mech->nb; b++) {
    const double *p = mech->bodies[b].q0;
    L = fmax(L, hypot(p[0], p[1]));
    for (int c = 0; c < b; c++) {
      const double *r = mech->bodies[c].q0;
      L = fmax(L, hypot(p[0] - r[0], p[1] - r[1]));
    }
  }
  for (int j = 0; j < mech->nj; j++) {
    L = fmax(L, fmax(hypot(mech->joints[j].s1[0], mech->joints[j].s1[1]),
                     hypot(mech->joints[j].s2[0], mech->joints[j].s2[1])));
  }
  for (int k = 0; k < mech->nf; k++) {
    L = fmax(L, mech->forces[k].type == SK__MULTIBODY_SPRING ? mech->forces[k].length : 0.0);
  }
  return L > 0 ? L : 1.0;
}

/* ---- the block system ---------------------------------------------------------------- */

sk_status sk_multibody_accelerations(sk_multibody *mech, double t, const double *q,
                                     const double *v, double alpha, double beta, double *a,
                                     double *lambda)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m, N = n + m;
  double *K = sk__malloc(ctx, (size_t)(N * N + N + m * n + 2 * m + n) * sizeof *K);
  SK_CHECK(ctx, K != NULL, SK_ERR_NOMEM, "cannot allocate the block system");
  double *rhs = K + N * N, *G = rhs + N, *phi = G + m * n, *phit = phi + m, *mdiag = phit + m;
  sk_status st = sk__multibody_rows(mech, t, q, v, phi, G, phit, rhs + n);
  if (st == SK_OK) {
    st = sk_multibody_forces(mech, t, q, v, rhs);
  }
  if (st != SK_OK) {
    sk__free(ctx, K);
    return st;
  }
  sk_multibody_mass(mech, mdiag);
  memset(K, 0, (size_t)(N * N) * sizeof *K);
  for (int i = 0; i < n; i++) {
    K[i * N + i] = mdiag[i];
  }
  for (int r = 0; r < m; r++) {
    double Gv = 0.0;
    for (int k = 0; k < n; k++) {
      K[(n + r) * N + k] = G[r * n + k]; /* G a */
      K[k * N + n + r] = -G[r * n + k];  /* M a - G^T lambda = Q */
      Gv += G[r * n + k] * v[k];
    }
    rhs[n + r] -= 2.0 * alpha * (Gv + phit[r]) + beta * beta * phi[r];
  }
  const int bad = sk__dense_solve(K, N, rhs, 1e-13);
  if (bad) {
    sk__free(ctx, K);
    SK_CALL(ctx, sk_multibody_check_rank(mech, t, q));
    return SK_ERROR(ctx, SK_ERR_SINGULAR,
                    "%s: the block system [M G^T; G 0] is singular at t = %.9g (column %d)",
                    mech->file, t, bad - 1);
  }
  if (a) {
    memcpy(a, rhs, (size_t)n * sizeof *a);
  }
  if (lambda) {
    memcpy(lambda, rhs + n, (size_t)m * sizeof *lambda);
  }
  sk__free(ctx, K);
  return SK_OK;
}

/* ---- constraint residuals ------------------------------------------------------------ */

/* res = G v + Phi_t (m). */
static void velocity_residual(const double *G, const double *phit, const double *v, int m, int n,
                              double *res)
{
  for (int r = 0; r < m; r++) {
    double s = phit[r];
    for (int k = 0; k < n; k++) {
      s += G[r * n + k] * v[k];
    }
    res[r] = s;
  }
}

sk_status sk_multibody_residuals(sk_multibody *mech, double t, const double *q, const double *v,
                                 double *phi_max, double *dphi_max)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m;
  double *phi = sk__malloc(ctx, (size_t)(3 * m + m * n + 1) * sizeof *phi);
  SK_CHECK(ctx, phi != NULL, SK_ERR_NOMEM, "cannot allocate the constraint residuals");
  double *phit = phi + m, *res = phit + m, *G = res + m;
  const sk_status st = sk__multibody_rows(mech, t, q, NULL, phi, G, phit, NULL);
  *phi_max = *dphi_max = 0.0;
  if (st == SK_OK) {
    velocity_residual(G, phit, v, m, n, res);
    for (int r = 0; r < m; r++) {
      *phi_max = fmax(*phi_max, fabs(phi[r]));
      *dphi_max = fmax(*dphi_max, fabs(res[r]));
    }
  }
  sk__free(ctx, phi);
  return st;
}

/* ---- consistent initialization ----------------------------------------------------- */

static double max_abs(const double *x, int n, int *where)
{
  double mx = 0.0;
  *where = 0;
  for (int i = 0; i < n; i++) {
    if (fabs(x[i]) > mx) {
      mx = fabs(x[i]);
      *where = i;
    }
  }
  return mx;
}

/* x -= G^T (G G^T)^-1 r (the minimum-norm correction); S, w: work (m m, m). */
static int min_norm_correct(const double *G, int m, int n, const double *r, double *x, double *S,
                            double *w)
{
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) {
        s += G[i * n + k] * G[j * n + k];
      }
      S[i * m + j] = s;
    }
    w[i] = r[i];
  }
  if (sk__dense_solve(S, m, w, 1e-14)) {
    return -1;
  }
  for (int k = 0; k < n; k++) {
    double s = 0.0;
    for (int i = 0; i < m; i++) {
      s += G[i * n + k] * w[i];
    }
    x[k] -= s;
  }
  return 0;
}

sk_status sk_multibody_assemble(sk_multibody *mech, double t, double *q, double *v, double tol,
                                int fix, sk_multibody_init_report *rep)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m;
  memset(rep, 0, sizeof *rep);
  if (m == 0) {
    return SK_OK;
  }
  double *G = sk__malloc(ctx, (size_t)(m * n + m * m + 4 * m + 2 * n) * sizeof *G);
  SK_CHECK(ctx, G != NULL, SK_ERR_NOMEM, "cannot allocate the initialization");
  double *S = G + m * n, *w = S + m * m, *phi = w + m, *phit = phi + m, *res = phit + m;
  double *q0 = res + m, *v0 = q0 + n;
  memcpy(q0, q, (size_t)n * sizeof *q);
  memcpy(v0, v, (size_t)n * sizeof *v);
  int worst;
  sk_status st = sk__multibody_rows(mech, t, q, NULL, phi, G, phit, NULL);
  if (st != SK_OK) {
    goto done;
  }
  rep->phi_before = max_abs(phi, m, &worst);
  sk_multibody_row_name(mech, worst, rep->worst_row, sizeof rep->worst_row);
  velocity_residual(G, phit, v, m, n, res);
  rep->dphi_before = max_abs(res, m, &worst);
  if (!fix && (rep->phi_before > tol || rep->dphi_before > tol)) {
    st = SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s: the initial positions and velocities are inconsistent at t = %g: "
                  "max |Phi| = %.3e (largest in %s), max |G v + Phi_t| = %.3e, above %.3e; set "
                  "the option to fix them (multibody.inconsistent: fix) or correct the file",
                  mech->file, t, rep->phi_before, rep->worst_row, rep->dphi_before, tol);
    goto done;
  }
  SK_CALL_GOTO(ctx, st, sk_multibody_check_rank(mech, t, q), done);
  double qscale = 1.0;
  for (int k = 0; k < n; k++) {
    qscale = fmax(qscale, fabs(q[k]));
  }
  const double target = fmax(1e-3 * tol, 64.0 * DBL_EPSILON * qscale); /* rounding level */
  double r_now = rep->phi_before;
  for (int it = 0; it < 50 && r_now > target; it++) {
    if (min_norm_correct(G, m, n, phi, q, S, w)) {
      SK_CALL_GOTO(ctx, st, sk_multibody_check_rank(mech, t, q), done);
      st = SK_ERROR(ctx, SK_ERR_SINGULAR, "%s: G G^T is singular during assembly", mech->file);
      goto done;
    }
    rep->newton_iters = it + 1;
    SK_CALL_GOTO(ctx, st, sk__multibody_rows(mech, t, q, NULL, phi, G, phit, NULL), done);
    r_now = max_abs(phi, m, &worst);
    if (!isfinite(r_now) || r_now > 1e6 * fmax(rep->phi_before, 1.0)) {
      break;
    }
  }
  rep->phi_after = max_abs(phi, m, &worst);
  if (!(rep->phi_after <= target)) {
    char name[64];
    sk_multibody_row_name(mech, worst, name, sizeof name);
    st = SK_ERROR(ctx, SK_ERR_CONV,
                  "%s: the mechanism cannot be assembled at t = %g: Newton on the position "
                  "constraints stopped after %d iterations with max |Phi| = %.3e, largest in %s "
                  "(from %.3e); the links may be too short or too long to close the loop at "
                  "this driver position",
                  mech->file, t, rep->newton_iters, rep->phi_after, name, rep->phi_before);
    goto done;
  }
  velocity_residual(G, phit, v, m, n, res);
  if (min_norm_correct(G, m, n, res, v, S, w)) {
    st = SK_ERROR(ctx, SK_ERR_SINGULAR, "%s: G G^T is singular at the assembled position",
                  mech->file);
    goto done;
  }
  velocity_residual(G, phit, v, m, n, res);
  rep->dphi_after = max_abs(res, m, &worst);
  for (int k = 0; k < n; k++) {
    rep->dq = fmax(rep->dq, fabs(q[k] - q0[k]));
    rep->dv = fmax(rep->dv, fabs(v[k] - v0[k]));
  }
done:
  sk__free(ctx, G);
  return st;
}
