/* tests/plugins/abi4_linsol.c: a test plugin built as for plugin ABI 4: its linear solver table (dense LU without pivoting, for the diagonally dominant Newton matrices of 1D heat) ends at destroy, before the iterative kind's fields */
#include <stdlib.h>
#include <string.h>

#include <stiffkit/stiffkit.h>

/* The layout of sk_linear_solver_type in plugin ABI 4 (no kind, no iterate): the table
 * below occupies only this much memory, as in a plugin compiled against that header, so
 * a library that read a later field would read past it (AddressSanitizer reports that as
 * a global-buffer-overflow). */
typedef struct {
  const char *name;
  const char *description;
  sk_status (*create)(sk_model *model, void **state);
  sk_status (*setup)(void *state, const sk_jacobian_view *A);
  sk_status (*solve)(void *state, const double *b, double *x);
  void (*destroy)(void *state);
} abi4_linear_solver_type;

typedef struct {
  int64_t n;
  double *a; /* column-major n x n: L (unit, below) and U */
} dense;

static sk_status lu_create(sk_model *m, void **state)
{
  dense *d = calloc(1, sizeof *d);
  if (!d) {
    return SK_ERR_NOMEM;
  }
  d->n = sk_model_get_n(m);
  d->a = calloc((size_t)(d->n * d->n), sizeof *d->a);
  if (!d->a) {
    free(d);
    return SK_ERR_NOMEM;
  }
  *state = d;
  return SK_OK;
}

static void lu_destroy(void *state)
{
  dense *d = state;
  free(d->a);
  free(d);
}

static sk_status lu_setup(void *state, const sk_jacobian_view *A)
{
  dense *d = state;
  const int64_t n = d->n;
  memset(d->a, 0, (size_t)(n * n) * sizeof *d->a);
  for (int64_t j = 0; j < n; j++) {
    for (int64_t q = A->colptr[j]; q < A->colptr[j + 1]; q++) {
      d->a[j * n + A->rowind[q]] = A->values[q];
    }
  }
  for (int64_t k = 0; k < n; k++) {
    const double pivot = d->a[k * n + k];
    if (pivot == 0.0) {
      return SK_RECOVERABLE;
    }
    for (int64_t i = k + 1; i < n; i++) {
      d->a[k * n + i] /= pivot;
    }
    for (int64_t j = k + 1; j < n; j++) {
      for (int64_t i = k + 1; i < n; i++) {
        d->a[j * n + i] -= d->a[k * n + i] * d->a[j * n + k];
      }
    }
  }
  return SK_OK;
}

static sk_status lu_solve(void *state, const double *b, double *x)
{
  const dense *d = state;
  const int64_t n = d->n;
  for (int64_t i = 0; i < n; i++) { /* L y = b */
    double s = b[i];
    for (int64_t k = 0; k < i; k++) {
      s -= d->a[k * n + i] * x[k];
    }
    x[i] = s;
  }
  for (int64_t i = n - 1; i >= 0; i--) { /* U x = y */
    double s = x[i];
    for (int64_t k = i + 1; k < n; k++) {
      s -= d->a[k * n + i] * x[k];
    }
    x[i] = s / d->a[i * n + i];
  }
  return SK_OK;
}

static const abi4_linear_solver_type abi4_lu = {
    .name = "abi4-lu",
    .description = "dense LU without pivoting, from an ABI 4 plugin",
    .create = lu_create,
    .setup = lu_setup,
    .solve = lu_solve,
    .destroy = lu_destroy,
};

SK_PLUGIN_EXPORT int sk_plugin_abi_version(void)
{
  return 4;
}

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  /* what an ABI 4 binary passes: the address of its shorter table */
  const void *table = &abi4_lu;
  return sk_linear_solver_type_register(ctx, table);
}
