/* src/core/model_grid.c: a model's structured-grid description (sk__model_set_grid, sk__model_get_grid, sk_model_get_grid) */
#include "core/model_grid.h"

#include "core/error.h"
#include "core/model_impl.h"

sk_status sk__model_set_grid(sk_model *m, const sk__model_grid *g)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, g != NULL, SK_ERR_ARG, "sk__model_set_grid: NULL grid");
  SK_CHECK(m->ctx, g->dim >= 1 && g->dim <= 3 && g->ncomp >= 1, SK_ERR_ARG,
           "sk__model_set_grid: dim = %d (1..3), ncomp = %d (>= 1)", g->dim, g->ncomp);
  int64_t states = g->ncomp;
  for (int d = 0; d < 3; d++) {
    SK_CHECK(m->ctx, g->n[d] >= 1 && (d < g->dim || g->n[d] == 1), SK_ERR_ARG,
             "sk__model_set_grid: n[%d] = %lld on a %d-D grid", d, (long long)g->n[d], g->dim);
    states *= g->n[d];
  }
  SK_CHECK(m->ctx, states == m->n, SK_ERR_ARG,
           "sk__model_set_grid: %d x %lld x %lld x %lld grid states, but the model has %lld",
           g->ncomp, (long long)g->n[0], (long long)g->n[1], (long long)g->n[2], (long long)m->n);
  m->grid = *g;
  return SK_OK;
}

const sk__model_grid *sk__model_get_grid(const sk_model *m)
{
  return m && m->grid.dim > 0 ? &m->grid : NULL;
}

sk_status sk_model_get_grid(const sk_model *m, int *dim, int64_t n[3], int *ncomp)
{
  if (!m || !dim || !n || !ncomp) {
    return SK_ERR_ARG;
  }
  const sk__model_grid *g = sk__model_get_grid(m);
  if (!g) {
    return SK_ERR_UNSUPPORTED;
  }
  *dim = g->dim;
  for (int d = 0; d < 3; d++) {
    n[d] = g->n[d];
  }
  *ncomp = g->ncomp;
  return SK_OK;
}
