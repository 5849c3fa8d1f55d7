/* src/models/brusselator_block.c: the 2D Brusselator on one block of its grid: right-hand side (bitwise as the serial model), Jacobian rows, initial state */
/*
 * The serial model (src/models/brusselator.c): u, v interleaved per node,
 * zero flux by the mirrored stencil (the missing neighbour of a boundary
 * node is the one inside: u_{-1} = u_1), so
 *   u_t = a - (b+1) u + u^2 v + alpha lap u,  v_t = b u - u^2 v + alpha lap v,
 *   lap u = ((u_E - u) - (u - u_W)) / h^2 + ((u_N - u) - (u - u_S)) / h^2,
 * in the serial operation order (sk__brusselator_reaction, then + alpha lap).
 * A mirrored neighbour is at most one node away, so it is in the block or
 * in its ghost layer.
 */
#include "core/error.h"
#include "linsol/mg_struct.h"
#include "models/grid_block.h"

struct sk__block_model {
  sk_context *ctx;
  sk_brusselator_params p;
};

static sk_status bruss_shape(sk_context *ctx, const sk_options *opts, sk__block_shape *out)
{
  sk_brusselator_params p;
  SK_CALL(ctx, sk_brusselator_params_from_options(ctx, opts, &p));
  SK_CALL(ctx, sk__brusselator_check(ctx, &p));
  out->dim = 2;
  out->ncomp = 2;
  out->n[0] = out->n[1] = p.n;
  out->n[2] = 1;
  const double len[3] = {p.length, p.length, 1.0};
  const int dirichlet[6] = {0, 0, 0, 0, 0, 0};
  SK_CALL(ctx, sk__grid_init(ctx, &out->g, 2, out->n, len, dirichlet, 2));
  return SK_OK;
}

static sk_status bruss_create(sk_context *ctx, const sk_options *opts, const sk__grid_block *B,
                              sk__block_model **out)
{
  (void)B;
  *out = NULL;
  sk__block_model *m = sk__calloc(ctx, 1, sizeof *m);
  SK_CHECK(ctx, m != NULL, SK_ERR_NOMEM, "cannot allocate the block model");
  m->ctx = ctx;
  const sk_status st = sk_brusselator_params_from_options(ctx, opts, &m->p);
  if (st != SK_OK) {
    sk__free(ctx, m);
    return st;
  }
  *out = m;
  return SK_OK;
}

static void bruss_destroy(sk__block_model **mp)
{
  if (mp && *mp) {
    sk__free((*mp)->ctx, *mp);
    *mp = NULL;
  }
}

static const char *bruss_name(const sk__block_model *m)
{
  (void)m;
  return "brusselator-2d";
}

static const char *bruss_var(const sk__block_model *m, int c)
{
  (void)m;
  return c ? "v" : "u";
}

/* Ghosted index and global position of the (mirrored) neighbour of ghosted
 * node q at global position gi along k, side s. */
static int64_t mirror(const sk__grid_block *B, int64_t q, int64_t gi, int k, int s, int64_t *gnb)
{
  const int64_t n = B->n[k];
  int up = s;
  if (gi == 0 && !s) {
    up = 1;
  } else if (gi == n - 1 && s) {
    up = 0;
  }
  *gnb = gi + (up ? 1 : -1);
  return up ? q + B->gs[k] : q - B->gs[k];
}

static void bruss_rhs(sk__block_model *m, const sk__grid_block *B, double t, double *f)
{
  const double hh = B->g->hh[0];
  const double *y = B->ug;
  int64_t tmp;
  (void)t;
  for (int64_t j = 0; j < B->cnt[1]; j++) {
    for (int64_t i = 0; i < B->cnt[0]; i++) {
      const int64_t q = sk__grid_block_ghost(B, i, j, 0);
      const int64_t gi = B->lo[0] + i, gj = B->lo[1] + j;
      const int64_t w = 2 * mirror(B, q, gi, 0, 0, &tmp), e = 2 * mirror(B, q, gi, 0, 1, &tmp);
      const int64_t so = 2 * mirror(B, q, gj, 1, 0, &tmp), no = 2 * mirror(B, q, gj, 1, 1, &tmp);
      sk__brusselator_node(&m->p, hh, y + 2 * q, y + e, y + w, y + no, y + so,
                           f + 2 * (i + B->cnt[0] * j));
    }
  }
}

static void bruss_prepare_rows(sk__block_model *m, const sk__grid_block *B, double t)
{
  (void)m;
  (void)B;
  (void)t;
}

static int bruss_row(const sk__block_model *m, const sk__grid_block *B, int64_t r, int64_t *cols,
                     int *keys, double *vals)
{
  const sk_brusselator_params *p = &m->p;
  const int64_t node = r / 2, comp = r % 2;
  const int64_t i = node % B->cnt[0], j = node / B->cnt[0];
  const int64_t gijk[3] = {B->lo[0] + i, B->lo[1] + j, 0};
  const int64_t q = sk__grid_block_ghost(B, i, j, 0);
  const double dlap = -2.0 * p->alpha / B->g->hh[0] - 2.0 * p->alpha / B->g->hh[1];
  double J[2][2];
  sk__brusselator_node_jac(p, B->ug[2 * q], B->ug[2 * q + 1], dlap, J);
  const int64_t self = B->column(B->owner, gijk);
  int cnt = 0;
  for (int k = 0; k < 2; k++) {
    for (int s = 0; s < 2; s++) {
      int64_t nb[3] = {gijk[0], gijk[1], 0};
      (void)mirror(B, q, gijk[k], k, s, &nb[k]);
      const int o = (int)(nb[k] - gijk[k]); /* the mirrored side's: -1 or 1 */
      cols[cnt] = B->column(B->owner, nb) + comp;
      keys[cnt] = SK__MG_KEY(k == 0 ? o : 0, k == 1 ? o : 0, 0, (int)comp, 2);
      vals[cnt++] = p->alpha / B->g->hh[k];
    }
  }
  for (int c = 0; c < 2; c++) { /* row comp of the node's own block */
    cols[cnt] = self + c;
    keys[cnt] = SK__MG_KEY(0, 0, 0, c, 2);
    vals[cnt++] = J[comp][c];
  }
  return cnt;
}

static void bruss_initial(const sk__block_model *m, const sk__grid_block *B, double t0, double *y)
{
  const sk_brusselator_params *p = &m->p;
  (void)t0;
  for (int64_t j = 0; j < B->cnt[1]; j++) {
    for (int64_t i = 0; i < B->cnt[0]; i++) {
      const double pert = sk__brusselator_perturbation(p, B->lo[0] + i, B->lo[1] + j);
      y[2 * (i + B->cnt[0] * j)] = p->a + pert;
      y[2 * (i + B->cnt[0] * j) + 1] = p->b / p->a + pert;
    }
  }
}

const sk__block_kernels sk__brusselator_block = {
    .model_type = "brusselator",
    .own_prec = "bbd",
    .shape = bruss_shape,
    .create = bruss_create,
    .destroy = bruss_destroy,
    .name = bruss_name,
    .var = bruss_var,
    .initial = bruss_initial,
    .rhs = bruss_rhs,
    .prepare_rows = bruss_prepare_rows,
    .row = bruss_row,
};
