/* src/sparse/eig_estimate.c: extreme eigenvalue estimates of a model Jacobian (Gershgorin, restarted Arnoldi, KLU inverse iteration) */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/csc.h"
#include "core/error.h"
#include "linsol/klu_factor.h"
#include "sparse/eig_estimate.h"

#define SK__EIG_MAX_DIM 64
#define SK__EIG_SHIFTED_CYCLES 8 /* cycles of the shifted lambda_min iteration */

sk_status sk__eig_gershgorin(sk_context *ctx, int64_t n, const int64_t *colptr,
                             const int64_t *rowind, const double *values, double *lo, double *hi,
                             double *rho)
{
  SK_CHECK(ctx, n > 0 && colptr && rowind && values && lo && hi && rho, SK_ERR_ARG,
           "gershgorin: invalid arguments (n = %lld)", (long long)n);
  double *radius = sk__calloc(ctx, (size_t)n, sizeof *radius);
  double *centre = sk__calloc(ctx, (size_t)n, sizeof *centre);
  if (!radius || !centre) {
    sk__free(ctx, radius);
    sk__free(ctx, centre);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "gershgorin: cannot allocate %lld entries", (long long)n);
  }
  /* CSC: entry p of column j is A(rowind[p], j); it adds to row rowind[p]'s radius */
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const int64_t i = rowind[p];
      if (i == j) {
        centre[i] += values[p];
      } else {
        radius[i] += fabs(values[p]);
      }
    }
  }
  double l = INFINITY, h = -INFINITY, r = 0;
  for (int64_t i = 0; i < n; i++) {
    l = fmin(l, centre[i] - radius[i]);
    h = fmax(h, centre[i] + radius[i]);
    r = fmax(r, fabs(centre[i]) + radius[i]);
  }
  *lo = l;
  *hi = h;
  *rho = r;
  sk__free(ctx, radius);
  sk__free(ctx, centre);
  return SK_OK;
}

/* ---- the small eigenproblem ------------------------------------------- */

/* Eigenvalues w[0..k-1] of the k x k complex upper Hessenberg matrix A
 * (row-major, destroyed) by the QR iteration with Wilkinson shifts and
 * deflation (Givens rotations restricted to the active block). Returns 0,
 * or -1 when an eigenvalue needs more than 100 iterations. */
static int hessenberg_eigenvalues(int k, double complex *A, double complex *w)
{
  double complex cs[SK__EIG_MAX_DIM], sn[SK__EIG_MAX_DIM];
  int hi = k - 1, iter = 0;
  double norm = 0;
  for (int i = 0; i < k * k; i++) {
    norm = fmax(norm, cabs(A[i]));
  }
  while (hi >= 0) {
    int l = hi;
    while (l > 0) {
      double s = cabs(A[l * k + l]) + cabs(A[(l - 1) * k + l - 1]);
      if (s == 0) {
        s = norm;
      }
      if (cabs(A[l * k + l - 1]) <= DBL_EPSILON * s) {
        A[l * k + l - 1] = 0;
        break;
      }
      l--;
    }
    if (l == hi) {
      w[hi] = A[hi * k + hi];
      hi--;
      iter = 0;
      continue;
    }
    const double complex a = A[(hi - 1) * k + hi - 1], b = A[(hi - 1) * k + hi];
    const double complex c = A[hi * k + hi - 1], d = A[hi * k + hi];
    const double complex half_tr = 0.5 * (a + d);
    const double complex disc = csqrt(half_tr * half_tr - (a * d - b * c));
    const double complex e1 = half_tr + disc, e2 = half_tr - disc;
    if (l == hi - 1) { /* a 2 x 2 block: its eigenvalues in closed form (a block of rounding
                          noise, as J - sigma I of J = sigma I gives, may never deflate) */
      w[hi] = e1;
      w[hi - 1] = e2;
      hi -= 2;
      iter = 0;
      continue;
    }
    if (++iter > 100) {
      return -1;
    }
    double complex mu = cabs(e1 - d) < cabs(e2 - d) ? e1 : e2;
    if (iter % 11 == 10) {
      mu = d + 0.75 * cabs(c); /* exceptional shift */
    }
    for (int i = l; i <= hi; i++) {
      A[i * k + i] -= mu;
    }
    for (int j = l; j < hi; j++) {
      const double complex x = A[j * k + j], y = A[(j + 1) * k + j];
      const double r = hypot(cabs(x), cabs(y));
      cs[j] = r > 0 ? x / r : 1;
      sn[j] = r > 0 ? y / r : 0;
      for (int col = j; col <= hi; col++) {
        const double complex t1 = A[j * k + col], t2 = A[(j + 1) * k + col];
        A[j * k + col] = conj(cs[j]) * t1 + conj(sn[j]) * t2;
        A[(j + 1) * k + col] = -sn[j] * t1 + cs[j] * t2;
      }
      A[(j + 1) * k + j] = 0;
    }
    for (int j = l; j < hi; j++) {
      const int last = j + 2 < hi ? j + 2 : hi;
      for (int row = l; row <= last; row++) {
        const double complex t1 = A[row * k + j], t2 = A[row * k + j + 1];
        A[row * k + j] = t1 * cs[j] + t2 * sn[j];
        A[row * k + j + 1] = -t1 * conj(sn[j]) + t2 * conj(cs[j]);
      }
    }
    for (int i = l; i <= hi; i++) {
      A[i * k + i] += mu;
    }
  }
  return 0;
}

/* Unit eigenvector y of the k x k Hessenberg H (row-major, real) for the
 * eigenvalue theta: two steps of inverse iteration on H - theta I (Gaussian
 * elimination with partial pivoting; a zero pivot is replaced by a tiny
 * one). M is workspace of k*k entries. */
static void hessenberg_eigenvector(int k, const double *H, double complex theta,
                                   double complex *M, double complex *y)
{
  double norm = 0;
  for (int i = 0; i < k * k; i++) {
    norm = fmax(norm, fabs(H[i]));
  }
  const double tiny = DBL_EPSILON * (norm > 0 ? norm : 1);
  int piv[SK__EIG_MAX_DIM];
  for (int i = 0; i < k * k; i++) {
    M[i] = H[i];
  }
  for (int i = 0; i < k; i++) {
    M[i * k + i] -= theta;
    y[i] = 1;
  }
  for (int c = 0; c < k; c++) { /* LU with partial pivoting, in place */
    int p = c;
    for (int r = c + 1; r < k; r++) {
      if (cabs(M[r * k + c]) > cabs(M[p * k + c])) {
        p = r;
      }
    }
    piv[c] = p;
    if (p != c) {
      for (int j = 0; j < k; j++) {
        const double complex t = M[c * k + j];
        M[c * k + j] = M[p * k + j];
        M[p * k + j] = t;
      }
    }
    if (cabs(M[c * k + c]) < tiny) {
      M[c * k + c] = tiny;
    }
    for (int r = c + 1; r < k; r++) {
      const double complex f = M[r * k + c] / M[c * k + c];
      M[r * k + c] = f;
      for (int j = c + 1; j < k; j++) {
        M[r * k + j] -= f * M[c * k + j];
      }
    }
  }
  for (int it = 0; it < 2; it++) {
    for (int c = 0; c < k; c++) {
      if (piv[c] != c) {
        const double complex t = y[c];
        y[c] = y[piv[c]];
        y[piv[c]] = t;
      }
      for (int r = c + 1; r < k; r++) {
        y[r] -= M[r * k + c] * y[c];
      }
    }
    for (int c = k - 1; c >= 0; c--) {
      for (int j = c + 1; j < k; j++) {
        y[c] -= M[c * k + j] * y[j];
      }
      y[c] /= M[c * k + c];
    }
    /* normalize: the largest component becomes real and the norm 1 */
    int big = 0;
    double s = 0;
    for (int i = 0; i < k; i++) {
      s += creal(y[i] * conj(y[i]));
      if (cabs(y[i]) > cabs(y[big])) {
        big = i;
      }
    }
    const double complex phase = conj(y[big]) / cabs(y[big]);
    for (int i = 0; i < k; i++) {
      y[i] *= phase / sqrt(s);
    }
  }
}

/* ---- restarted Arnoldi ------------------------------------------------ */

static double dot(int64_t n, const double *a, const double *b)
{
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) {
    s0 += a[i] * b[i];
  }
  return (s0 + s1) + (s2 + s3);
}

/* A fixed pseudo-random start vector in [-1, 1) plus a constant (so that it
 * meets smooth and oscillatory modes alike). */
static void start_vector(int64_t n, double *v)
{
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int64_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    v[i] = 0.5 + (double)(s >> 11) * (2.0 / 9007199254740992.0) - 1.0;
  }
}

sk_status sk__eig_arnoldi_largest(sk_context *ctx, int64_t n, sk__eig_op_fn op, void *data,
                                  const double *x0, const sk__eig_params *p,
                                  sk_eigenvalue *lambda, double *resid, int64_t *matvecs)
{
  SK_CHECK(ctx, n > 0 && op && lambda && resid && matvecs, SK_ERR_ARG,
           "arnoldi: invalid arguments (n = %lld)", (long long)n);
  int m = p && p->krylov_dim > 0 ? p->krylov_dim : 30;
  m = m > SK__EIG_MAX_DIM ? SK__EIG_MAX_DIM : m;
  m = (int64_t)m > n ? (int)n : m;
  const int cycles = p && p->max_restarts > 0 ? p->max_restarts : 30;
  const double tol = p && p->tol > 0 ? p->tol : 1e-6;
  *matvecs = 0;
  *resid = INFINITY;
  lambda->re = lambda->im = 0;
  double *V = sk__malloc(ctx, (size_t)(m + 1) * (size_t)n * sizeof *V);
  double *w = sk__malloc(ctx, (size_t)n * sizeof *w);
  double H[(SK__EIG_MAX_DIM + 1) * SK__EIG_MAX_DIM];
  double complex A[SK__EIG_MAX_DIM * SK__EIG_MAX_DIM], ev[SK__EIG_MAX_DIM], yv[SK__EIG_MAX_DIM];
  if (!V || !w) {
    sk__free(ctx, V);
    sk__free(ctx, w);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "arnoldi: cannot allocate %d vectors of length %lld",
                    m + 2, (long long)n);
  }
  sk_status st = SK_OK;
  if (x0) {
    memcpy(V, x0, (size_t)n * sizeof *V);
  } else {
    start_vector(n, V);
  }
  double complex prev = NAN;
  for (int cycle = 0; cycle < cycles; cycle++) {
    double beta = sqrt(dot(n, V, V));
    if (!(beta > 0) || !isfinite(beta)) {
      start_vector(n, V);
      beta = sqrt(dot(n, V, V));
    }
    for (int64_t i = 0; i < n; i++) {
      V[i] /= beta;
    }
    memset(H, 0, sizeof H);
    int k = m; /* dimension reached (smaller on breakdown) */
    int breakdown = 0;
    for (int j = 0; j < m; j++) {
      double *vj = V + (size_t)j * (size_t)n;
      double *vn = V + (size_t)(j + 1) * (size_t)n;
      st = op(data, vj, w);
      ++*matvecs;
      if (st != SK_OK) {
        goto done;
      }
      const double wnorm0 = sqrt(dot(n, w, w));
      for (int pass = 0; pass < 2; pass++) { /* classical Gram-Schmidt, twice */
        for (int i = 0; i <= j; i++) {
          const double h = dot(n, V + (size_t)i * (size_t)n, w);
          H[i * m + j] += h;
          const double *vi = V + (size_t)i * (size_t)n;
          for (int64_t q = 0; q < n; q++) {
            w[q] -= h * vi[q];
          }
        }
      }
      const double hn = sqrt(dot(n, w, w));
      H[(j + 1) * m + j] = hn;
      if (!(hn > 1e-12 * wnorm0) || !isfinite(hn)) {
        k = j + 1; /* invariant subspace: the Ritz values are exact */
        breakdown = 1;
        break;
      }
      for (int64_t q = 0; q < n; q++) {
        vn[q] = w[q] / hn;
      }
    }
    /* Ritz values of the leading k x k block */
    double Hk[SK__EIG_MAX_DIM * SK__EIG_MAX_DIM];
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < k; j++) {
        Hk[i * k + j] = H[i * m + j];
        A[i * k + j] = Hk[i * k + j];
      }
    }
    if (hessenberg_eigenvalues(k, A, ev) != 0) {
      st = SK_ERROR(ctx, SK_ERR_SOLVER,
                    "arnoldi: the QR iteration on the %d x %d Hessenberg matrix did not converge",
                    k, k);
      goto done;
    }
    int best = 0;
    for (int i = 1; i < k; i++) {
      if (cabs(ev[i]) > cabs(ev[best])) {
        best = i;
      }
    }
    const double complex theta = ev[best];
    hessenberg_eigenvector(k, Hk, theta, A, yv);
    const double res = breakdown ? 0 : fabs(H[k * m + k - 1]) * cabs(yv[k - 1]);
    lambda->re = creal(theta);
    lambda->im = cimag(theta);
    *resid = cabs(theta) > 0 ? res / cabs(theta) : res;
    const double change = cabs(theta - prev) / (cabs(theta) > 0 ? cabs(theta) : 1);
    if (breakdown || *resid <= tol || change <= tol * 1e-2) {
      break;
    }
    prev = theta;
    /* restart from the real part of the Ritz vector V y */
    memset(w, 0, (size_t)n * sizeof *w);
    for (int i = 0; i < k; i++) {
      const double c = creal(yv[i]);
      const double *vi = V + (size_t)i * (size_t)n;
      for (int64_t q = 0; q < n; q++) {
        w[q] += c * vi[q];
      }
    }
    memcpy(V, w, (size_t)n * sizeof *V);
  }
done:
  sk__free(ctx, V);
  sk__free(ctx, w);
  return st;
}

/* ---- the operators ---------------------------------------------------- */

typedef struct {
  sk_model *m;
  sk_context *ctx;
  int64_t n;
  double t;
  const double *y, *fy;
  const int64_t *colptr, *rowind;
  const double *values; /* NULL: difference quotient */
  double *ypert, *fpert;
  double ynorm;
  double sigma; /* the operator is J - sigma I */
  /* KLU of J - shift I (the inverse operator) */
  int64_t *kcp, *kri, *diag;
  double *kax;
  sk__klu klu;
} jac_data;

static sk_status map_callback(sk_context *ctx, sk_status st)
{
  if (st == SK_RECOVERABLE) {
    return SK_ERROR(ctx, SK_ERR_CALLBACK,
                    "eigenvalue estimate: the model callback reported a recoverable failure");
  }
  return st;
}

/* y = (J - sigma I) x */
static sk_status jac_apply(void *data, const double *x, double *y)
{
  jac_data *d = data;
  const int64_t n = d->n;
  if (d->values) {
    memset(y, 0, (size_t)n * sizeof *y);
    for (int64_t j = 0; j < n; j++) {
      const double xj = x[j];
      for (int64_t p = d->colptr[j]; p < d->colptr[j + 1]; p++) {
        y[d->rowind[p]] += d->values[p] * xj;
      }
    }
  } else {
    const double xnorm = sqrt(dot(n, x, x));
    if (!(xnorm > 0)) {
      memset(y, 0, (size_t)n * sizeof *y);
      return SK_OK;
    }
    const double delta = sqrt(DBL_EPSILON) * (1 + d->ynorm) / xnorm;
    for (int64_t i = 0; i < n; i++) {
      d->ypert[i] = d->y[i] + delta * x[i];
    }
    sk_status st = map_callback(d->ctx, sk_model_eval_rhs(d->m, d->t, d->ypert, d->fpert));
    SK_CALL(d->ctx, st);
    for (int64_t i = 0; i < n; i++) {
      y[i] = (d->fpert[i] - d->fy[i]) / delta;
    }
  }
  if (d->sigma != 0) {
    for (int64_t i = 0; i < n; i++) {
      y[i] -= d->sigma * x[i];
    }
  }
  return SK_OK;
}

/* y = (J - shift I)^{-1} x with the KLU factors */
static sk_status jac_inverse_apply(void *data, const double *x, double *y)
{
  jac_data *d = data;
  memcpy(y, x, (size_t)d->n * sizeof *y);
  if (!sk__klu_solve(&d->klu, y, 1)) {
    return SK_ERROR(d->ctx, SK_ERR_LINSOL, "eigenvalue estimate: KLU solve failed (%s)",
                    sk__klu_status_name((int)d->klu.common.status));
  }
  return SK_OK;
}

static void klu_release(jac_data *d)
{
  sk__klu_free(&d->klu);
  sk__free(d->ctx, d->kcp);
  sk__free(d->ctx, d->kri);
  sk__free(d->ctx, d->diag);
  sk__free(d->ctx, d->kax);
  d->kcp = d->kri = d->diag = NULL;
  d->kax = NULL;
}

/* Factor J - shift I with KLU: shift 0 first, then a small shift when J is
 * singular or nearly so. Returns SK_OK (d->num set), SK_ERR_SINGULAR when
 * no factorization is usable, or SK_ERR_NOMEM. */
static sk_status klu_prepare(jac_data *d, double scale, double *shift)
{
  sk_context *ctx = d->ctx;
  const int64_t n = d->n;
  int64_t *map = NULL;
  SK_CALL(ctx,
          sk__csc_with_diagonal(ctx, n, d->colptr, d->rowind, &d->kcp, &d->kri, &map, &d->diag));
  const int64_t nnz_old = d->colptr[n], nnz = d->kcp[n];
  d->kax = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *d->kax);
  if (!d->kax) {
    sk__free(ctx, map);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "eigenvalue estimate: cannot allocate %lld values",
                    (long long)nnz);
  }
  sk__klu_init(&d->klu);
  if (!sk__klu_analyze(&d->klu, n, d->kcp, d->kri)) {
    sk__free(ctx, map);
    const int kst = (int)d->klu.common.status;
    return SK_ERROR(ctx, sk__klu_status_code(kst),
                    "eigenvalue estimate: KLU analysis failed (%s)", sk__klu_status_name(kst));
  }
  const double shifts[] = {0.0, -1e-8 * scale, -1e-5 * scale};
  for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
    memset(d->kax, 0, (size_t)nnz * sizeof *d->kax);
    for (int64_t q = 0; q < nnz_old; q++) {
      d->kax[map[q]] = d->values[q];
    }
    for (int64_t j = 0; j < n; j++) {
      d->kax[d->diag[j]] -= shifts[k];
    }
    d->klu.common.halt_if_singular = 1;
    double rcond = 0.0;
    if (sk__klu_factor(&d->klu, d->kcp, d->kri, d->kax, 0.0) && sk__klu_rcond(&d->klu, &rcond) &&
        rcond > 1e-13) {
      *shift = shifts[k];
      sk__free(ctx, map);
      return SK_OK;
    }
  }
  sk__free(ctx, map);
  return SK_ERROR(ctx, SK_ERR_SINGULAR,
                  "eigenvalue estimate: J - s I is singular for every tried shift s");
}

/* Both entries: lambda_max (and the Gershgorin bounds), then lambda_min when want_min. */
static sk_status estimate(sk_model *m, double t, const double *y, const sk__eig_params *p,
                          int want_min, sk_eig_estimate *est)
{
  sk_context *ctx = sk_model_get_context(m);
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, y && est, SK_ERR_ARG, "eigenvalue estimate: NULL state or output");
  SK_CHECK(ctx, sk_model_get_kind(m) == SK_MODEL_ODE, SK_ERR_ARG,
           "eigenvalue estimate: model '%s' is not an ODE", sk_model_get_name(m));
  memset(est, 0, sizeof *est);
  const int64_t n = sk_model_get_n(m);
  jac_data d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.ctx = ctx;
  d.n = n;
  d.t = t;
  d.y = y;
  d.ynorm = sqrt(dot(n, y, y));
  sk_status st = SK_OK;
  double *fy = sk__malloc(ctx, (size_t)n * sizeof *fy);
  double *values = NULL;
  int64_t nnz = 0;
  if (!fy) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "eigenvalue estimate: cannot allocate %lld entries",
                    (long long)n);
  }
  SK_CALL_GOTO(ctx, st, map_callback(ctx, sk_model_eval_rhs(m, t, y, fy)), out);
  d.fy = fy;
  if (sk_model_has_jacobian(m)) {
    sk_model_get_jac_pattern(m, &d.colptr, &d.rowind, &nnz);
    values = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *values);
    if (!values) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "eigenvalue estimate: cannot allocate %lld values",
                    (long long)nnz);
      goto out;
    }
    SK_CALL_GOTO(ctx, st, map_callback(ctx, sk_model_eval_jac(m, t, y, fy, values)), out);
    d.values = values;
    est->sparse_jv = 1;
    SK_CALL_GOTO(ctx, st,
                 sk__eig_gershgorin(ctx, n, d.colptr, d.rowind, values, &est->gersh_lo,
                                    &est->gersh_hi, &est->gersh_rho),
                 out);
    est->have_gershgorin = 1;
  } else {
    d.ypert = sk__malloc(ctx, (size_t)n * sizeof *d.ypert);
    d.fpert = sk__malloc(ctx, (size_t)n * sizeof *d.fpert);
    if (!d.ypert || !d.fpert) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "eigenvalue estimate: cannot allocate work vectors");
      goto out;
    }
  }
  int64_t mv = 0;
  SK_CALL_GOTO(ctx, st,
               sk__eig_arnoldi_largest(ctx, n, jac_apply, &d, NULL, p, &est->lambda_max,
                                       &est->max_resid, &mv),
               out);
  est->matvecs += mv;
  if (!want_min) {
    goto out;
  }
  const double big = hypot(est->lambda_max.re, est->lambda_max.im);
  sk_status kst = SK_ERR_UNSUPPORTED;
  if (d.values && n <= SK__EIG_KLU_MAX_N && big > 0) {
    kst = klu_prepare(&d, big, &est->shift);
    if (kst == SK_ERR_NOMEM) {
      st = kst;
      goto out;
    }
  }
  if (kst == SK_OK) {
    sk_eigenvalue mu;
    SK_CALL_GOTO(ctx, st,
                 sk__eig_arnoldi_largest(ctx, n, jac_inverse_apply, &d, NULL, p, &mu,
                                         &est->min_resid, &mv),
                 out);
    est->matvecs += mv;
    const double mag2 = mu.re * mu.re + mu.im * mu.im;
    est->lambda_min.re = est->shift + (mag2 > 0 ? mu.re / mag2 : INFINITY);
    est->lambda_min.im = mag2 > 0 ? -mu.im / mag2 : 0;
    est->min_method = SK_EIG_MIN_KLU_INVERSE;
  } else {
    sk_context_clear_error(ctx); /* a singular J falls back to the shifted iteration */
    sk_eigenvalue mu;
    d.sigma = est->lambda_max.re;
    est->shift = d.sigma;
    /* its accuracy is bounded relative to |sigma| anyway: fewer cycles */
    sk__eig_params q = {p ? p->krylov_dim : 0, SK__EIG_SHIFTED_CYCLES, p ? p->tol : 0};
    if (p && p->max_restarts > 0 && p->max_restarts < q.max_restarts) {
      q.max_restarts = p->max_restarts;
    }
    SK_CALL_GOTO(
        ctx, st,
        sk__eig_arnoldi_largest(ctx, n, jac_apply, &d, NULL, &q, &mu, &est->min_resid, &mv), out);
    est->matvecs += mv;
    est->lambda_min.re = mu.re + d.sigma;
    est->lambda_min.im = mu.im;
    est->min_method = SK_EIG_MIN_SHIFTED_ARNOLDI;
  }
out:
  klu_release(&d);
  sk__free(ctx, d.ypert);
  sk__free(ctx, d.fpert);
  sk__free(ctx, values);
  sk__free(ctx, fy);
  return st;
}

sk_status sk__eig_estimate_model(sk_model *m, double t, const double *y, const sk__eig_params *p,
                                 sk_eig_estimate *est)
{
  return estimate(m, t, y, p, 1, est);
}

sk_status sk__eig_estimate_largest(sk_model *m, double t, const double *y,
                                   const sk__eig_params *p, sk_eig_estimate *est)
{
  return estimate(m, t, y, p, 0, est);
}
