/* src/core/model_mass.c: the constant mass matrix M of an ODE model M y' = f(t, y): validation, copy, getters */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"

void sk__model_mass_free(sk_model *m)
{
  sk__free(m->ctx, m->mass_colptr);
  sk__free(m->ctx, m->mass_rowind);
  sk__free(m->ctx, m->mass_values);
  m->mass_colptr = m->mass_rowind = NULL;
  m->mass_values = NULL;
}

void sk__model_set_mass_name(sk_model *m, const char *name)
{
  snprintf(m->mass_name, sizeof m->mass_name, "%s", name ? name : "");
}

const char *sk__model_mass_name(const sk_model *m)
{
  return m->mass_name[0] ? m->mass_name : "mass matrix";
}

/* Check the CSC arrays of M (order n): colptr from 0 and non-decreasing,
 * rows in range and strictly increasing per column, finite values. */
static sk_status check_mass(sk_model *m, const int64_t *cp, const int64_t *ri, const double *v)
{
  sk_context *ctx = m->ctx;
  const char *nm = sk__model_mass_name(m);
  const int64_t n = m->n;
  SK_CHECK(ctx, cp[0] == 0, SK_ERR_INPUT, "%s: colptr[0] = %lld, expected 0", nm,
           (long long)cp[0]);
  for (int64_t j = 0; j < n; j++) {
    SK_CHECK(ctx, cp[j + 1] >= cp[j], SK_ERR_INPUT, "%s: colptr decreases at column %lld", nm,
             (long long)(j + 1));
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      SK_CHECK(ctx, ri[p] >= 0 && ri[p] < n, SK_ERR_INPUT,
               "%s: row %lld out of range [1, %lld] in column %lld (1-based)", nm,
               (long long)(ri[p] + 1), (long long)n, (long long)(j + 1));
      SK_CHECK(ctx, p == cp[j] || ri[p] > ri[p - 1], SK_ERR_INPUT,
               "%s: rows not strictly increasing in column %lld (row %lld, 1-based)", nm,
               (long long)(j + 1), (long long)(ri[p] + 1));
      SK_CHECK(ctx, isfinite(v[p]), SK_ERR_INPUT, "%s: entry (%lld, %lld) (1-based) is %g", nm,
               (long long)(ri[p] + 1), (long long)(j + 1), v[p]);
    }
  }
  return SK_OK;
}

sk_status sk_model_set_mass(sk_model *m, const int64_t *colptr, const int64_t *rowind,
                            const double *values)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = m->ctx;
  SK_CHECK(ctx, m->kind == SK_MODEL_ODE, SK_ERR_ARG,
           "model '%s': a mass matrix belongs to an ODE model M y' = f(t, y)", m->name);
  if (!colptr) {
    sk__model_mass_free(m);
    return SK_OK;
  }
  SK_CHECK(ctx, rowind && values, SK_ERR_ARG, "%s: rowind or values is NULL",
           sk__model_mass_name(m));
  SK_CALL(ctx, check_mass(m, colptr, rowind, values));
  const int64_t n = m->n, nnz = colptr[n];
  const size_t nz = (size_t)(nnz > 0 ? nnz : 1);
  int64_t *cp = sk__malloc(ctx, (size_t)(n + 1) * sizeof *cp);
  int64_t *ri = sk__malloc(ctx, nz * sizeof *ri);
  double *v = sk__malloc(ctx, nz * sizeof *v);
  if (!cp || !ri || !v) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    sk__free(ctx, v);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the mass matrix (nnz %lld)",
                    (long long)nnz);
  }
  memcpy(cp, colptr, (size_t)(n + 1) * sizeof *cp);
  memcpy(ri, rowind, (size_t)nnz * sizeof *ri);
  memcpy(v, values, (size_t)nnz * sizeof *v);
  sk__model_mass_free(m);
  m->mass_colptr = cp;
  m->mass_rowind = ri;
  m->mass_values = v;
  return SK_OK;
}

sk_status sk__model_update_mass_values(sk_model *m, const double *values)
{
  sk_context *ctx = m->ctx;
  SK_CHECK(ctx, m->mass_colptr != NULL, SK_ERR_STATE, "model '%s' has no mass matrix", m->name);
  SK_CALL(ctx, check_mass(m, m->mass_colptr, m->mass_rowind, values));
  memcpy(m->mass_values, values, (size_t)m->mass_colptr[m->n] * sizeof *values);
  m->mass_version++;
  return SK_OK;
}

unsigned sk__model_mass_version(const sk_model *m)
{
  return m->mass_version;
}

void sk_model_get_mass(const sk_model *m, const int64_t **colptr, const int64_t **rowind,
                       const double **values, int64_t *nnz)
{
  const int have = m && m->mass_colptr;
  *colptr = have ? m->mass_colptr : NULL;
  *rowind = have ? m->mass_rowind : NULL;
  *values = have ? m->mass_values : NULL;
  *nnz = have ? m->mass_colptr[m->n] : 0;
}

int sk_model_has_mass(const sk_model *m)
{
  return m && m->mass_colptr;
}
