/* data/plugins/thomas_solver.c: an example in-house linear solver plugin: the Thomas algorithm for tridiagonal Newton matrices (1D grid models), registered as linsol.type = thomas, public API only */
/* The Newton matrices of a 1D diffusion model (I - gamma J for cvode-*, the
 * Jacobian for the steady solve) are tridiagonal. The Thomas algorithm
 * factors such a matrix in O(n) without pivoting, which is stable when the
 * matrix is diagonally dominant (as I - gamma J of a diffusion operator is).
 * create refuses a model whose Jacobian pattern reaches beyond the first
 * off-diagonals; setup reports a zero pivot as recoverable (the engine
 * retries with a smaller step).
 *
 * Build (against an installed stiffkit):
 *   cc -std=c11 -O2 -shared -fPIC thomas_solver.c $(pkg-config --cflags stiffkit) -o thomas_solver.so
 * Run (1D heat, 200 cells):
 *   stiffkit run --set solver.plugin=./thomas_solver.so --set linsol.type=thomas \
 *     --set "model.n=[200]"
 */
#include <stdlib.h>

#include <stiffkit/stiffkit.h>

/* The factors: sub-diagonal a (a[0] unused), the modified diagonal d and the
 * super-diagonal c of L U, L unit lower bidiagonal with l_i = a_i / d_{i-1}. */
typedef struct {
  int64_t n;
  double *a, *d, *c;
} thomas;

static void thomas_destroy(void *state)
{
  thomas *t = state;
  free(t->a);
  free(t->d);
  free(t->c);
  free(t);
}

static sk_status thomas_create(sk_model *model, void **state)
{
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(model, &colptr, &rowind, &nnz);
  const int64_t n = sk_model_get_n(model);
  for (int64_t j = 0; colptr && j < n; j++) {
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      if (rowind[p] < j - 1 || rowind[p] > j + 1) {
        return SK_ERR_UNSUPPORTED; /* not tridiagonal */
      }
    }
  }
  thomas *t = calloc(1, sizeof *t);
  if (!t) {
    return SK_ERR_NOMEM;
  }
  t->n = n;
  t->a = calloc((size_t)n, sizeof *t->a);
  t->d = calloc((size_t)n, sizeof *t->d);
  t->c = calloc((size_t)n, sizeof *t->c);
  if (!t->a || !t->d || !t->c) {
    thomas_destroy(t);
    return SK_ERR_NOMEM;
  }
  *state = t;
  return SK_OK;
}

static sk_status thomas_setup(void *state, const sk_jacobian_view *A)
{
  thomas *t = state;
  const int64_t n = t->n;
  for (int64_t i = 0; i < n; i++) {
    t->a[i] = t->d[i] = t->c[i] = 0.0;
  }
  for (int64_t j = 0; j < n; j++) { /* column j: (j-1, j) is c[j-1], (j, j) d[j], (j+1, j) a[j+1] */
    for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
      const int64_t i = A->rowind[p];
      if (i == j) {
        t->d[j] = A->values[p];
      } else if (i == j - 1) {
        t->c[i] = A->values[p];
      } else if (i == j + 1) {
        t->a[i] = A->values[p];
      } else if (A->values[p] != 0.0) {
        return SK_ERR_UNSUPPORTED; /* an entry outside the three diagonals */
      }
    }
  }
  for (int64_t i = 0; i < n; i++) {
    if (i > 0) {
      t->a[i] /= t->d[i - 1];          /* l_i */
      t->d[i] -= t->a[i] * t->c[i - 1]; /* u_ii */
    }
    if (t->d[i] == 0.0) {
      return SK_RECOVERABLE; /* a zero pivot */
    }
  }
  return SK_OK;
}

static sk_status thomas_solve(void *state, const double *b, double *x)
{
  const thomas *t = state;
  const int64_t n = t->n;
  x[0] = b[0];
  for (int64_t i = 1; i < n; i++) { /* L z = b */
    x[i] = b[i] - t->a[i] * x[i - 1];
  }
  x[n - 1] /= t->d[n - 1];
  for (int64_t i = n - 2; i >= 0; i--) { /* U x = z */
    x[i] = (x[i] - t->c[i] * x[i + 1]) / t->d[i];
  }
  return SK_OK;
}

static const sk_linear_solver_type thomas_type = {
    .name = "thomas",
    .description = "tridiagonal LU (the Thomas algorithm), from a plugin",
    .create = thomas_create,
    .setup = thomas_setup,
    .solve = thomas_solve,
    .destroy = thomas_destroy,
};

SK_PLUGIN_DEFINE_ABI_VERSION()

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  return sk_linear_solver_type_register(ctx, &thomas_type);
}
