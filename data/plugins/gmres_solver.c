/* data/plugins/gmres_solver.c: an example in-house iterative linear solver plugin: GMRES without restarts, preconditioned on the side the engine asks, registered as linsol.type = gmres, public API only */
/* An iterative type never sees a matrix: the engine lends it the products
 * A v of its Newton matrix, the preconditioner the run names
 * (linsol.preconditioner), the weights of its norm and the side of the
 * preconditioner (sk_krylov_system). This one runs Arnoldi on
 * W P^-1 A W^-1 from W P^-1 b (left) or on W A P^-1 W^-1 from W b (right),
 * W = diag(w), and minimizes the weighted residual the engine tests over
 * the Krylov space (Saad, Iterative Methods for Sparse Linear Systems, 2nd
 * ed., Algorithms 6.9, 9.4 and 9.5, with modified Gram-Schmidt and Givens
 * rotations), m at most linsol.maxl (and 40).
 *
 * Build (against an installed stiffkit):
 *   cc -std=c11 -O2 -shared -fPIC gmres_solver.c $(pkg-config --cflags stiffkit) -lm -o gmres_solver.so
 * Run (2D heat with the model's ADI preconditioner):
 *   stiffkit run --set solver.plugin=./gmres_solver.so --set linsol.type=gmres \
 *     --set linsol.preconditioner=model
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiffkit/stiffkit.h>

#define MAXM 40 /* the largest Krylov space this type keeps */

typedef struct {
  int64_t n;
  double *v;   /* MAXM + 1 basis vectors of length n */
  double *t, *z;
} gmres;

static sk_status gmres_create(sk_model *m, void **state)
{
  gmres *g = calloc(1, sizeof *g);
  if (!g) {
    return SK_ERR_NOMEM;
  }
  g->n = sk_model_get_n(m);
  g->v = malloc((size_t)((MAXM + 1) * g->n) * sizeof *g->v);
  g->t = malloc((size_t)g->n * sizeof *g->t);
  g->z = malloc((size_t)g->n * sizeof *g->z);
  if (!g->v || !g->t || !g->z) {
    free(g->v);
    free(g->t);
    free(g->z);
    free(g);
    return SK_ERR_NOMEM;
  }
  *state = g;
  return SK_OK;
}

static void gmres_destroy(void *state)
{
  gmres *g = state;
  free(g->v);
  free(g->t);
  free(g->z);
  free(g);
}

static double dot(int64_t n, const double *a, const double *b)
{
  double s = 0;
  for (int64_t i = 0; i < n; i++) {
    s += a[i] * b[i];
  }
  return s;
}

/* The operator of the Arnoldi process on an unweighted t: z = P^-1 A t (left) or
 * A P^-1 t (right), through the scratch vector g->z. */
static sk_status op(gmres *g, const sk_krylov_system *A, const double *t, double *out)
{
  const sk_status st = A->side == SK_KRYLOV_LEFT ? A->apply(A->engine, t, g->z)
                                                 : A->precondition(A->engine, t, g->z);
  if (st != SK_OK) {
    return st;
  }
  return A->side == SK_KRYLOV_LEFT ? A->precondition(A->engine, g->z, out)
                                   : A->apply(A->engine, g->z, out);
}

static sk_status gmres_iterate(void *state, const sk_krylov_system *A, const double *b, double *x,
                               double tol, int *iters, double *resnorm)
{
  gmres *g = state;
  const int64_t n = A->n;
  const double *w = A->weights;
  const int m = A->maxl < MAXM ? A->maxl : MAXM;
  double h[MAXM + 1][MAXM], cs[MAXM], sn[MAXM], rhs[MAXM + 1], y[MAXM];
  *iters = 0;
  double *v0 = g->v; /* x = 0 on entry: the residual is b (left: P^-1 b), weighted */
  sk_status st = A->side == SK_KRYLOV_LEFT ? A->precondition(A->engine, b, v0) : SK_OK;
  if (st != SK_OK) {
    return st;
  }
  for (int64_t i = 0; i < n; i++) {
    v0[i] = w[i] * (A->side == SK_KRYLOV_LEFT ? v0[i] : b[i]);
  }
  const double beta = sqrt(dot(n, v0, v0));
  *resnorm = beta;
  if (beta <= tol) {
    return SK_OK;
  }
  for (int64_t i = 0; i < n; i++) {
    v0[i] /= beta;
  }
  rhs[0] = beta;
  int k = 0;
  while (k < m && *resnorm > tol) {
    double *vk = g->v + k * n, *vn = g->v + (k + 1) * n;
    for (int64_t i = 0; i < n; i++) {
      g->t[i] = vk[i] / w[i];
    }
    if ((st = op(g, A, g->t, vn)) != SK_OK) {
      return st;
    }
    (*iters)++;
    for (int64_t i = 0; i < n; i++) {
      vn[i] *= w[i];
    }
    for (int j = 0; j <= k; j++) { /* modified Gram-Schmidt */
      h[j][k] = dot(n, vn, g->v + j * n);
      for (int64_t i = 0; i < n; i++) {
        vn[i] -= h[j][k] * g->v[j * n + i];
      }
    }
    h[k + 1][k] = sqrt(dot(n, vn, vn));
    for (int64_t i = 0; h[k + 1][k] > 0 && i < n; i++) {
      vn[i] /= h[k + 1][k];
    }
    for (int j = 0; j < k; j++) { /* the earlier rotations on the new column */
      const double a = h[j][k], c = h[j + 1][k];
      h[j][k] = cs[j] * a + sn[j] * c;
      h[j + 1][k] = -sn[j] * a + cs[j] * c;
    }
    const double r = hypot(h[k][k], h[k + 1][k]);
    cs[k] = h[k][k] / r;
    sn[k] = h[k + 1][k] / r;
    h[k][k] = r;
    rhs[k + 1] = -sn[k] * rhs[k];
    rhs[k] *= cs[k];
    *resnorm = fabs(rhs[k + 1]);
    k++;
  }
  for (int j = k - 1; j >= 0; j--) { /* the upper triangular solve */
    double s = rhs[j];
    for (int l = j + 1; l < k; l++) {
      s -= h[j][l] * y[l];
    }
    y[j] = s / h[j][j];
  }
  for (int64_t i = 0; i < n; i++) { /* x = W^-1 V y (right: then P^-1 of it) */
    double s = 0;
    for (int j = 0; j < k; j++) {
      s += g->v[j * n + i] * y[j];
    }
    g->t[i] = s / w[i];
  }
  if (A->side == SK_KRYLOV_LEFT) {
    memcpy(x, g->t, (size_t)n * sizeof *x);
  } else if ((st = A->precondition(A->engine, g->t, x)) != SK_OK) {
    return st;
  }
  return *resnorm <= tol ? SK_OK : SK_RECOVERABLE;
}

static const sk_linear_solver_type gmres_type = {
    .name = "gmres",
    .description = "GMRES without restarts (an example plugin)",
    .create = gmres_create,
    .destroy = gmres_destroy,
    .kind = SK_LINSOL_ITERATIVE,
    .iterate = gmres_iterate};

SK_PLUGIN_DEFINE_ABI_VERSION()

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  return sk_linear_solver_type_register(ctx, &gmres_type);
}
