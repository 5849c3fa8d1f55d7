/* src/models/grid.c: structured vertex-centred grid helpers and the model.* grid option table */
#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/model_grid.h"
#include "core/model_impl.h"
#include "core/stop.h"
#include "models/grid.h"
#include "models/grid_keys.h"
#include "stiffkit/diffusion.h"

static const char *const axis_chars = "xyz";

sk_status sk__grid_init(sk_context *ctx, sk__grid *g, int dim, const int64_t n[3],
                        const double length[3], const int dirichlet[6], int ncomp)
{
  SK_CHECK(ctx, g != NULL && n != NULL && length != NULL && dirichlet != NULL, SK_ERR_ARG,
           "sk__grid_init: NULL argument");
  SK_CHECK(ctx, dim >= 1 && dim <= 3, SK_ERR_INPUT, "model.dim = %d: must be 1, 2 or 3", dim);
  g->dim = dim;
  double states = (double)(ncomp > 0 ? ncomp : 1);
  for (int d = 0; d < 3; d++) {
    if (d >= dim) {
      g->n[d] = 1;
      g->length[d] = 1.0;
      g->dirichlet[d][0] = g->dirichlet[d][1] = 0;
      g->ncells[d] = 1;
      g->off[d] = 0;
      g->h[d] = 1.0;
      g->hh[d] = 1.0;
      continue;
    }
    SK_CHECK(ctx, n[d] >= 1, SK_ERR_INPUT, "model.n[%d] = %lld: must be >= 1", d,
             (long long)n[d]);
    SK_CHECK(ctx, isfinite(length[d]) && length[d] > 0.0, SK_ERR_INPUT,
             "model.length[%d] = %g: must be a positive finite length", d, length[d]);
    const int nd = (dirichlet[2 * d] ? 1 : 0) + (dirichlet[2 * d + 1] ? 1 : 0);
    SK_CHECK(ctx, n[d] >= 2 || nd > 0, SK_ERR_INPUT,
             "model.n[%d] = %lld: a direction with no Dirichlet side (model.bc.%c0, "
             "model.bc.%c1) needs at least 2 nodes",
             d, (long long)n[d], axis_chars[d], axis_chars[d]);
    states *= (double)n[d];
  }
  if (states > SK__GRID_MAX_STATES) {
    char sizes[96];
    if (dim == 1) {
      snprintf(sizes, sizeof sizes, "%lld", (long long)n[0]);
    } else if (dim == 2) {
      snprintf(sizes, sizeof sizes, "%lld x %lld", (long long)n[0], (long long)n[1]);
    } else {
      snprintf(sizes, sizeof sizes, "%lld x %lld x %lld", (long long)n[0], (long long)n[1],
               (long long)n[2]);
    }
    return SK_ERROR(ctx, SK_ERR_TOO_LARGE,
                    "model.n: %s%s = %.3g unknowns exceeds the limit of 2^31 = 2147483648", sizes,
                    ncomp > 1 ? (ncomp == 2 ? " x 2 species" : " x species") : "", states);
  }
  for (int d = 0; d < dim; d++) {
    g->n[d] = n[d];
    g->length[d] = length[d];
    g->dirichlet[d][0] = dirichlet[2 * d] ? 1 : 0;
    g->dirichlet[d][1] = dirichlet[2 * d + 1] ? 1 : 0;
    g->ncells[d] = n[d] - 1 + g->dirichlet[d][0] + g->dirichlet[d][1];
    g->off[d] = g->dirichlet[d][0];
    g->h[d] = length[d] / (double)g->ncells[d];
    g->hh[d] = g->h[d] * g->h[d];
  }
  g->stride[0] = 1;
  g->stride[1] = g->n[0];
  g->stride[2] = g->n[0] * g->n[1];
  g->total = g->n[0] * g->n[1] * g->n[2];
  return SK_OK;
}

sk_status sk__grid_check_memory(sk_context *ctx, const sk__grid *g, double bytes_per_node)
{
  const double bytes = bytes_per_node * (double)g->total;
  SK_CHECK(ctx, bytes <= SK__GRID_MAX_BYTES, SK_ERR_TOO_LARGE,
           "model.n: %lld unknown nodes need about %.1f GiB (%.0f bytes per node), over the "
           "limit of 8 GiB",
           (long long)g->total, bytes / 1073741824.0, bytes_per_node);
  return SK_OK;
}

void sk__grid_split(const sk__grid *g, int64_t idx, int64_t ijk[3])
{
  ijk[0] = idx % g->n[0];
  const int64_t rest = idx / g->n[0];
  ijk[1] = rest % g->n[1];
  ijk[2] = rest / g->n[1];
}

double sk__grid_coord(const sk__grid *g, int d, int64_t i)
{
  if (d >= g->dim) {
    return 0.0;
  }
  if (i == g->n[d] - 1 && !g->dirichlet[d][1]) {
    return g->length[d];
  }
  return (double)(i + g->off[d]) * g->h[d];
}

void sk__grid_coords(const sk__grid *g, int64_t idx, double x[3])
{
  int64_t ijk[3];
  sk__grid_split(g, idx, ijk);
  for (int d = 0; d < 3; d++) {
    x[d] = sk__grid_coord(g, d, ijk[d]);
  }
}

double sk__grid_weight(const sk__grid *g, int d, int64_t i)
{
  if (d >= g->dim) {
    return 1.0;
  }
  if ((i == 0 && !g->dirichlet[d][0]) || (i == g->n[d] - 1 && !g->dirichlet[d][1])) {
    return 0.5;
  }
  return 1.0;
}

int64_t sk__grid_face_size(const sk__grid *g, int d)
{
  return g->total / g->n[d];
}

int64_t sk__grid_face_index(const sk__grid *g, int d, const int64_t ijk[3])
{
  if (d == 0) {
    return ijk[1] + g->n[1] * ijk[2];
  }
  if (d == 1) {
    return ijk[0] + g->n[0] * ijk[2];
  }
  return ijk[0] + g->n[0] * ijk[1];
}

int sk__grid_neighbors(const sk__grid *g, int64_t idx, const int64_t ijk[3], sk__grid_nb nb[7])
{
  int c = 0;
  for (int d = g->dim - 1; d >= 0; d--) {
    if (ijk[d] > 0) {
      nb[c].idx = idx - g->stride[d];
      nb[c].dir = d;
      nb[c].side = 0;
      c++;
    }
  }
  nb[c].idx = idx;
  nb[c].dir = -1;
  nb[c].side = 0;
  c++;
  for (int d = 0; d < g->dim; d++) {
    if (ijk[d] < g->n[d] - 1) {
      nb[c].idx = idx + g->stride[d];
      nb[c].dir = d;
      nb[c].side = 1;
      c++;
    }
  }
  return c;
}

sk_status sk__grid_pattern(sk_context *ctx, const sk__grid *g, int ncomp, int64_t **colptr,
                           int64_t **rowind)
{
  *colptr = NULL;
  *rowind = NULL;
  const int64_t nodes = g->total;
  const int64_t states = nodes * ncomp;
  /* per node: (ncomp - 1) extra rows in the dense own block, plus one row per stencil entry */
  int64_t links = 0;
  for (int d = 0; d < g->dim; d++) {
    links += 2 * (nodes / g->n[d]) * (g->n[d] - 1);
  }
  const int64_t nnz = (int64_t)ncomp * (nodes * ncomp + links);
  int64_t *cp = sk__malloc(ctx, (size_t)(states + 1) * sizeof *cp);
  int64_t *ri = sk__malloc(ctx, (size_t)nnz * sizeof *ri);
  if (!cp || !ri) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Jacobian pattern (%lld entries)",
                    (long long)nnz);
  }
  int64_t p = 0;
  int64_t ijk[3] = {0, 0, 0};
  for (int64_t q = 0; q < nodes; q++) {
    const sk_status st = sk__stop_poll(
        ctx, q, "building the model (the grid's Jacobian pattern); nothing was written");
    if (st != SK_OK) {
      sk__free(ctx, cp);
      sk__free(ctx, ri);
      return st;
    }
    sk__grid_nb nb[7];
    const int cnt = sk__grid_neighbors(g, q, ijk, nb);
    for (int c = 0; c < ncomp; c++) {
      cp[q * ncomp + c] = p;
      for (int e = 0; e < cnt; e++) {
        if (nb[e].dir < 0) {
          for (int r = 0; r < ncomp; r++) {
            ri[p++] = q * ncomp + r;
          }
        } else {
          ri[p++] = nb[e].idx * ncomp + c;
        }
      }
    }
    /* advance ijk (x fastest) */
    if (++ijk[0] == g->n[0]) {
      ijk[0] = 0;
      if (++ijk[1] == g->n[1]) {
        ijk[1] = 0;
        ijk[2]++;
      }
    }
  }
  cp[states] = p;
  if (p != nnz) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    return SK_ERROR(ctx, SK_ERR_INTERNAL, "grid pattern: %lld entries written, %lld expected",
                    (long long)p, (long long)nnz);
  }
  *colptr = cp;
  *rowind = ri;
  return SK_OK;
}

void sk__grid_line_starts(const sk__grid *g, int ncomp, int64_t *starts)
{
  const int64_t lines = g->n[1] * g->n[2];
  int64_t p = 0;
  for (int64_t line = 0; line < lines; line++) {
    starts[line] = p;
    int64_t ijk[3] = {0, line % g->n[1], line / g->n[1]};
    for (int64_t i = 0; i < g->n[0]; i++) {
      ijk[0] = i;
      sk__grid_nb nb[7];
      const int cnt = sk__grid_neighbors(g, line * g->n[0] + i, ijk, nb);
      p += (int64_t)ncomp * (ncomp + cnt - 1); /* the own block, one row per neighbour */
    }
  }
  starts[lines] = p;
}

void sk__grid_node_name(const sk__grid *g, const char *var, int64_t idx, char *buf, size_t len)
{
  int64_t ijk[3];
  if (idx < 0 || idx >= g->total) {
    snprintf(buf, len, "%s[?%lld]", var, (long long)idx);
    return;
  }
  sk__grid_split(g, idx, ijk);
  if (g->dim == 1) {
    snprintf(buf, len, "%s[%lld]", var, (long long)ijk[0]);
  } else if (g->dim == 2) {
    snprintf(buf, len, "%s[%lld,%lld]", var, (long long)ijk[0], (long long)ijk[1]);
  } else {
    snprintf(buf, len, "%s[%lld,%lld,%lld]", var, (long long)ijk[0], (long long)ijk[1],
             (long long)ijk[2]);
  }
}

sk_status sk__grid_check_dirs(sk_context *ctx, const char *key, size_t count, int dim,
                              int allow_none)
{
  if (count == 1 || count == (size_t)dim || (allow_none && count == 0)) {
    return SK_OK;
  }
  char takes[64];
  if (dim == 1) {
    snprintf(takes, sizeof takes, "%s1 value", allow_none ? "none or " : "");
  } else {
    snprintf(takes, sizeof takes, "%s1 value for every direction, or %d",
             allow_none ? "none, " : "", dim);
  }
  if (count > (size_t)dim && count <= 3) {
    return SK_ERROR(
        ctx, SK_ERR_INPUT,
        "dimension mismatch: %s has %zu values, one per direction of a %zu-D grid, but "
        "model.dim = %d (a %d-D grid takes %s): change %s to match, or leave "
        "model.dim at %zu",
        key, count, count, dim, dim, takes, key, count);
  }
  return SK_ERROR(
      ctx, SK_ERR_INPUT,
      "dimension mismatch: %s has %zu values but model.dim = %d (a %d-D grid takes %s)", key,
      count, dim, dim, takes);
}

sk_status sk__grid_read_options(sk_context *ctx, const sk_options *opts, int *dim, int64_t n[3],
                                double length[3])
{
  sk__grid_keys k;
  SK_CALL(ctx, sk__grid_settings_read(opts, &k, NULL));
  SK_CHECK(ctx, k.dim >= 1 && k.dim <= 3, SK_ERR_INPUT, "model.dim = %lld: must be 1, 2 or 3",
           (long long)k.dim);
  const int nd = (int)k.dim;
  SK_CALL(ctx, sk__grid_check_dirs(ctx, sk__grid_key(SK__GRID_KEY_n), k.n.n, nd, 0));
  SK_CALL(ctx, sk__grid_check_dirs(ctx, sk__grid_key(SK__GRID_KEY_length), k.length.n, nd, 0));
  for (int d = 0; d < 3; d++) {
    n[d] = 1;
    length[d] = 1.0;
    if (d < nd) {
      n[d] = k.n.v[k.n.n == 1 ? 0 : d];
      length[d] = k.length.v[k.length.n == 1 ? 0 : d];
      SK_CHECK(ctx, n[d] >= 1, SK_ERR_INPUT, "model.n[%d] = %lld: must be >= 1", d,
               (long long)n[d]);
      SK_CHECK(ctx, isfinite(length[d]) && length[d] > 0.0, SK_ERR_INPUT,
               "model.length[%d] = %g: must be positive", d, length[d]);
    }
  }
  *dim = nd;
  return SK_OK;
}

/* What the grid's Jacobian pattern is built from (sk__model_set_lazy_pattern). */
typedef struct {
  sk__grid g;
  int ncomp;
} grid_recipe;

static sk_status grid_pattern_of(sk_context *ctx, const void *arg, int64_t **colptr,
                                 int64_t **rowind)
{
  const grid_recipe *r = arg;
  return sk__grid_pattern(ctx, &r->g, r->ncomp, colptr, rowind);
}

sk_status sk__grid_model_create(sk_context *ctx, const sk__grid *g, int ncomp, void *data,
                                sk_free_fn free_fn, sk_model **model)
{
  sk_model *m = NULL;
  sk_status st = sk_model_create(ctx, SK_MODEL_ODE, ncomp * g->total, &m);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    free_fn(data);
    return st;
  }
  sk_model_set_user_data(m, data, free_fn);
  /* built when a run needs it (5-7 entries per unknown: at 10^6 unknowns 48 MB that a Krylov
     run with the model's preconditioner never reads) */
  const grid_recipe recipe = {*g, ncomp};
  st = sk__model_set_lazy_pattern(m, grid_pattern_of, &recipe, sizeof recipe);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk_model_destroy(&m);
    return st;
  }
  /* the states on the grid, for the structured multigrid (linsol.preconditioner=mg) */
  const sk__model_grid mg = {g->dim, {g->n[0], g->n[1], g->n[2]}, ncomp};
  st = sk__model_set_grid(m, &mg);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk_model_destroy(&m);
    return st;
  }
  *model = m;
  return SK_OK;
}
