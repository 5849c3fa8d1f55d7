/* src/core/model_dense_jac.c: the setters of the dense Jacobian callbacks (df/dy, or dF/dy + cj dF/dy' of a DAE, as an n x n column-major array; model.c gathers them into the CSC pattern) */
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/model_impl.h"

/* the largest n whose n x n array (8 bytes an entry) stays within 512 MiB */
#define SK__DENSE_JAC_MAX_N 8192

/* SK_ERR_ARG unless m has `kind`; SK_ERR_TOO_LARGE for an n too large for an n x n array. */
static sk_status require(sk_model *m, sk_model_kind kind, const char *func, const char *other)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->kind == kind, SK_ERR_ARG, "%s: model '%s' is not %s model (use %s)", func,
           m->name, kind == SK_MODEL_ODE ? "an ODE" : "a DAE", other);
  SK_CHECK(m->ctx, m->n <= SK__DENSE_JAC_MAX_N, SK_ERR_TOO_LARGE,
           "%s: model '%s' has n = %lld, above the %d of a dense Jacobian (an n x n array of "
           "at most 512 MiB); give a sparse pattern (sk_model_set_jac_pattern) with its values "
           "(sk_model_set_jac_values or sk_model_set_dae_jac_values)",
           func, m->name, (long long)m->n, SK__DENSE_JAC_MAX_N);
  return SK_OK;
}

/* Install the full pattern (every entry of every column) when the model has none. */
static sk_status full_pattern(sk_model *m)
{
  SK_CALL_STOP(m->ctx, sk__model_pattern(m));
  if (m->colptr) {
    return SK_OK;
  }
  const int64_t n = m->n;
  int64_t *cp = sk__malloc(m->ctx, (size_t)(n + 1) * sizeof *cp);
  int64_t *ri = sk__malloc(m->ctx, (size_t)(n * n) * sizeof *ri);
  if (!cp || !ri) {
    sk__free(m->ctx, cp);
    sk__free(m->ctx, ri);
    return SK_ERROR(m->ctx, SK_ERR_NOMEM, "cannot allocate the full %lld x %lld Jacobian pattern",
                    (long long)n, (long long)n);
  }
  for (int64_t j = 0; j <= n; j++) {
    cp[j] = j * n;
  }
  for (int64_t p = 0; p < n * n; p++) {
    ri[p] = p % n;
  }
  sk__fd_jac_destroy(&m->fd);
  m->colptr = cp;
  m->rowind = ri;
  m->dense_pattern = 1;
  return SK_OK;
}

/* The callback was removed: drop the full pattern it brought, and the work array. */
static void drop(sk_model *m)
{
  if (m->dense_pattern) {
    sk__fd_jac_destroy(&m->fd);
    sk__free(m->ctx, m->colptr);
    sk__free(m->ctx, m->rowind);
    m->colptr = NULL;
    m->rowind = NULL;
    m->dense_pattern = 0;
  }
  sk__free(m->ctx, m->dense_work);
  m->dense_work = NULL;
}

sk_status sk_model_set_dense_jacobian(sk_model *m, sk_dense_jac_fn jac)
{
  SK_CALL(m ? m->ctx : NULL,
          require(m, SK_MODEL_ODE, __func__, "sk_model_set_dae_dense_jacobian for a DAE"));
  SK_CHECK(m->ctx, jac == NULL || m->jac == NULL, SK_ERR_ARG,
           "%s: model '%s' already has Jacobian values in its pattern (sk_model_set_jac_values): "
           "give one or the other",
           __func__, m->name);
  m->dense_jac = jac;
  if (!jac) {
    drop(m);
    return SK_OK;
  }
  return full_pattern(m);
}

sk_status sk_model_set_dae_dense_jacobian(sk_model *m, sk_dae_dense_jac_fn jac)
{
  SK_CALL(m ? m->ctx : NULL,
          require(m, SK_MODEL_DAE, __func__, "sk_model_set_dense_jacobian for an ODE"));
  SK_CHECK(m->ctx, jac == NULL || m->dae_jac == NULL, SK_ERR_ARG,
           "%s: model '%s' already has DAE Jacobian values in its pattern "
           "(sk_model_set_dae_jac_values): give one or the other",
           __func__, m->name);
  m->dae_dense_jac = jac;
  if (!jac) {
    drop(m);
    return SK_OK;
  }
  return full_pattern(m);
}

int sk_model_has_dense_jacobian(const sk_model *m)
{
  return m && (m->dense_jac || m->dae_dense_jac);
}
