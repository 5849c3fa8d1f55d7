/* src/models/diffusion_block.c: the diffusion model on one block of its grid: right-hand side (bitwise as the serial model), Jacobian rows, initial state */
/*
 * The serial model (src/models/diffusion.c) with Dirichlet sides only:
 *   du_i/dt = sum_d (kf_+ (u_+ - u_i) - kf_- (u_i - u_-)) / h_d^2 + s,
 * kf = (k_i + k_j)/2, k = k0 (1 + beta u)(1 + sum_d kgrad_d x_d / L_d)
 * (sk__diffusion_k_default), a Dirichlet neighbour's k taken at the
 * boundary node with the boundary value. Neighbours in other blocks come
 * from the ghost layer of B->ug.
 *
 * Operation order = the serial one, so that the values are bitwise equal:
 * per direction the term (kf_+ (u_+ - u) - kf_- (u - u_-)) / h_d^2, then
 * the terms summed in the order x, y, z -- starting from 0.0 (acc += term)
 * except where the serial code takes its interior fast path (nodes inside
 * the domain in every direction on a line of n0 >= 3, with constant k or
 * in 2D), which sums the terms without the leading 0.0 (this differs only
 * in the sign of a zero). Then s = 0.0 + model.source is added when the
 * source is nonzero. Face k with constant k is 0.5 (k0 + k0) = k0 exactly,
 * as the serial fast path's k0.
 *
 * Jacobian rows: df_q/du_j = (kf + k'_j/2 (u_j - u_q)) / h_d^2,
 * df_q/du_q = sum over faces (-kf + k'_q/2 (u_nb - u_q)) / h_d^2, Dirichlet
 * faces included with u_nb the boundary value.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/mg_struct.h"
#include "models/diffusion_ic.h"
#include "models/grid_block.h"

struct sk__block_model {
  sk_context *ctx;
  sk_diffusion_params p;
  double *kn, *kp;      /* nodal k and dk/du on the ghosted nodes */
  double *xc[3];        /* coordinate of each ghosted position along d (0 outside the domain) */
  double lambda;        /* decay rate of the exact mode */
  sk__diffusion_ic *ic; /* model.ic = formula */
};

static const char axis[] = "xyz";

/* model.* of the diffusion family, with what the block kernels refuse. */
static sk_status heat_shape(sk_context *ctx, const sk_options *opts, sk__block_shape *out)
{
  sk_diffusion_params p;
  SK_CALL(ctx, sk_diffusion_params_from_options(ctx, opts, &p));
  for (int d = 0; d < p.dim; d++) {
    for (int side = 0; side < 2; side++) {
      SK_CHECK(ctx, p.bc[d][side].type == SK_BC_DIRICHLET, SK_ERR_UNSUPPORTED,
               "model.bc.%c%d.type = %s: distributed runs support Dirichlet sides only", axis[d],
               side, p.bc[d][side].type == SK_BC_NEUMANN ? "neumann" : "robin");
    }
  }
  SK_CHECK(ctx, p.exact != SK_DIFFUSION_EXACT_MANUFACTURED, SK_ERR_UNSUPPORTED,
           "model.exact = manufactured: not supported by distributed runs (use mode or none)");
  SK_CALL(ctx, sk__diffusion_validate(ctx, &p, &out->g));
  out->dim = p.dim;
  out->ncomp = 1;
  for (int d = 0; d < 3; d++) {
    out->n[d] = out->g.n[d];
  }
  return SK_OK;
}

/* The initial-state formula at block node (a, b, c), checked finite when check is set. */
static sk_status ic_formula_at(const sk__block_model *m, const sk__grid_block *B, int64_t a,
                               int64_t b, int64_t c, int check, double *u)
{
  const double x[3] = {m->xc[0][a + (B->dim > 0)], m->xc[1][b + (B->dim > 1)],
                       m->xc[2][c + (B->dim > 2)]};
  *u = sk__diffusion_ic_value(m->ic, &m->p, x);
  if (!check || isfinite(*u)) {
    return SK_OK;
  }
  char node[96];
  const int64_t g[3] = {B->lo[0] + a, B->lo[1] + b, B->lo[2] + c};
  snprintf(node, sizeof node, "global node (%lld, %lld, %lld)", (long long)g[0], (long long)g[1],
           (long long)g[2]);
  return sk__diffusion_ic_nonfinite(m->ic, x, node, *u);
}

/* model.ic = formula: finite at every node of the block (a bad input, found before CVODE). */
static sk_status ic_formula_check(const sk__block_model *m, const sk__grid_block *B)
{
  for (int64_t c = 0; c < B->cnt[2]; c++) {
    for (int64_t b = 0; b < B->cnt[1]; b++) {
      for (int64_t a = 0; a < B->cnt[0]; a++) {
        double u;
        SK_CALL(m->ctx, ic_formula_at(m, B, a, b, c, 1, &u));
      }
    }
  }
  return SK_OK;
}

static void heat_destroy(sk__block_model **mp)
{
  if (!mp || !*mp) {
    return;
  }
  sk__block_model *m = *mp;
  for (int k = 0; k < 3; k++) {
    sk__free(m->ctx, m->xc[k]);
  }
  sk__free(m->ctx, m->kn);
  sk__free(m->ctx, m->kp);
  sk__diffusion_ic_destroy(&m->ic);
  sk__free(m->ctx, m);
  *mp = NULL;
}

static sk_status heat_fill(sk__block_model *m, const sk_options *opts, const sk__grid_block *B)
{
  sk_context *ctx = m->ctx;
  SK_CALL(ctx, sk_diffusion_params_from_options(ctx, opts, &m->p));
  for (int k = 0; k < 3; k++) {
    m->xc[k] = sk__calloc(ctx, (size_t)B->G[k], sizeof(double));
    SK_CHECK(ctx, m->xc[k] != NULL, SK_ERR_NOMEM, "cannot allocate the coordinate tables");
    for (int64_t p = 0; p < B->G[k]; p++) {
      const int64_t gi = k < B->dim ? B->lo[k] + p - 1 : 0;
      m->xc[k][p] = (gi >= 0 && gi < B->n[k]) ? sk__grid_coord(B->g, k, gi) : 0.0;
    }
  }
  m->kn = sk__calloc(ctx, (size_t)B->nghost, sizeof(double));
  m->kp = sk__calloc(ctx, (size_t)B->nghost, sizeof(double));
  SK_CHECK(ctx, m->kn && m->kp, SK_ERR_NOMEM, "cannot allocate the conductivity scratch");
  if (m->p.exact == SK_DIFFUSION_EXACT_MODE) {
    m->lambda = sk__diffusion_mode_lambda(B->g, &m->p);
  }
  if (m->p.ic == SK_DIFFUSION_IC_FORMULA) {
    SK_CALL(ctx, sk__diffusion_ic_create(ctx, &m->p, &m->ic));
    m->p.ic_formula = NULL; /* the options' text: the compiled copy is m->ic */
    SK_CALL(ctx, ic_formula_check(m, B));
  }
  return SK_OK;
}

static sk_status heat_create(sk_context *ctx, const sk_options *opts, const sk__grid_block *B,
                             sk__block_model **out)
{
  *out = NULL;
  sk__block_model *m = sk__calloc(ctx, 1, sizeof *m);
  SK_CHECK(ctx, m != NULL, SK_ERR_NOMEM, "cannot allocate the block model");
  m->ctx = ctx;
  const sk_status st = heat_fill(m, opts, B);
  if (st != SK_OK) {
    heat_destroy(&m);
    return st;
  }
  *out = m;
  return SK_OK;
}

static const char *heat_name(const sk__block_model *m)
{
  static const char *const names[] = {"diffusion-1d", "diffusion-2d", "diffusion-3d"};
  return names[m->p.dim - 1];
}

static const char *heat_var(const sk__block_model *m, int c)
{
  (void)m;
  (void)c;
  return "u";
}

/* 1 when ghosted position p along k is a node of the grid. */
static int inside(const sk__grid_block *B, int k, int64_t p)
{
  const int64_t gi = k < B->dim ? B->lo[k] + p - 1 : 0;
  return gi >= 0 && gi < B->n[k];
}

/* Nodal k and dk/du of B->ug (interior and ghosts) into m->kn, m->kp. */
static void heat_coeffs(sk__block_model *m, const sk__grid_block *B)
{
  const sk_diffusion_params *p = &m->p;
  for (int64_t c = 0; c < B->G[2]; c++) {
    for (int64_t b = 0; b < B->G[1]; b++) {
      if (!inside(B, 2, c) || !inside(B, 1, b)) {
        continue;
      }
      for (int64_t a = 0; a < B->G[0]; a++) {
        const int64_t q = a + B->G[0] * (b + B->G[1] * c);
        if (!inside(B, 0, a)) {
          continue;
        }
        const double x[3] = {m->xc[0][a], m->xc[1][b], m->xc[2][c]};
        m->kn[q] = sk__diffusion_k_default(p, B->dim, x, B->ug[q], &m->kp[q]);
      }
    }
  }
}

/* k at the Dirichlet boundary node of side s along k next to global node gijk. */
static double face_k(const sk__block_model *m, const sk__grid_block *B, const int64_t gijk[3],
                     int k, int s)
{
  const sk_diffusion_params *p = &m->p;
  double x[3], dk;
  for (int e = 0; e < 3; e++) {
    x[e] = sk__grid_coord(B->g, e, gijk[e]);
  }
  x[k] = s ? B->g->length[k] : 0.0;
  return sk__diffusion_k_default(p, B->dim, x, p->bc[k][s].value, &dk);
}

/* Neighbour of ghosted node q on side s along k: its value and k, or the
 * Dirichlet boundary's; returns the ghosted index or -1 for a boundary. */
static int64_t neighbour(const sk__block_model *m, const sk__grid_block *B, int64_t q,
                         const int64_t gijk[3], int k, int s, double *uj, double *kj)
{
  const int interior = s ? gijk[k] < B->n[k] - 1 : gijk[k] > 0;
  if (interior) {
    const int64_t j = s ? q + B->gs[k] : q - B->gs[k];
    *uj = B->ug[j];
    *kj = m->kn[j];
    return j;
  }
  *uj = m->p.bc[k][s].value;
  *kj = face_k(m, B, gijk, k, s);
  return -1;
}

/* The serial interior fast path's nodes (see the operation-order note). */
static int fast_node(const sk__grid_block *B, const int64_t gijk[3])
{
  const int64_t *n = B->n;
  const int dim = B->dim;
  const int z_in = dim < 3 || (gijk[2] > 0 && gijk[2] < n[2] - 1);
  const int y_in = dim < 2 || (gijk[1] > 0 && gijk[1] < n[1] - 1);
  return z_in && y_in && n[0] >= 3 && gijk[0] > 0 && gijk[0] < n[0] - 1;
}

static void heat_rhs(sk__block_model *m, const sk__grid_block *B, double t, double *f)
{
  const sk_diffusion_params *p = &m->p;
  const int dim = B->dim;
  const int plain = p->beta == 0.0 && p->kgrad[0] == 0.0 && p->kgrad[1] == 0.0 &&
                    p->kgrad[2] == 0.0; /* constant k: the serial fast path in every dim */
  (void)t;
  heat_coeffs(m, B);
  int64_t r = 0;
  for (int64_t c = 0; c < B->cnt[2]; c++) {
    for (int64_t b = 0; b < B->cnt[1]; b++) {
      for (int64_t a = 0; a < B->cnt[0]; a++, r++) {
        const int64_t gijk[3] = {B->lo[0] + a, B->lo[1] + b, B->lo[2] + c};
        const int64_t q = sk__grid_block_ghost(B, a, b, c);
        const double ui = B->ug[q], ki = m->kn[q];
        double term[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < dim; k++) {
          double flux[2];
          for (int s = 0; s < 2; s++) {
            double uj, kj;
            (void)neighbour(m, B, q, gijk, k, s, &uj, &kj);
            const double kf = 0.5 * (ki + kj);
            flux[s] = s ? kf * (uj - ui) : kf * (ui - uj);
          }
          term[k] = (flux[1] - flux[0]) / B->g->hh[k];
        }
        double v;
        if (fast_node(B, gijk) && (plain || dim == 2)) {
          v = term[0];
          for (int k = 1; k < dim; k++) {
            v = v + term[k];
          }
        } else {
          v = 0.0;
          for (int k = 0; k < dim; k++) {
            v += term[k];
          }
        }
        if (p->source_const != 0.0) {
          double s = 0.0;
          s += p->source_const;
          v += s;
        }
        f[r] = v;
      }
    }
  }
}

static int heat_row(const sk__block_model *m, const sk__grid_block *B, int64_t r, int64_t *cols,
                    int *keys, double *vals)
{
  const int64_t l[3] = {r % B->cnt[0], (r / B->cnt[0]) % B->cnt[1], r / (B->cnt[0] * B->cnt[1])};
  const int64_t gijk[3] = {B->lo[0] + l[0], B->lo[1] + l[1], B->lo[2] + l[2]};
  const int64_t q = sk__grid_block_ghost(B, l[0], l[1], l[2]);
  const double uq = B->ug[q], kq = m->kn[q], hkq = 0.5 * m->kp[q];
  double diag = 0.0;
  int cnt = 0;
  for (int k = 0; k < B->dim; k++) {
    for (int s = 0; s < 2; s++) {
      double uj, kj;
      const int64_t j = neighbour(m, B, q, gijk, k, s, &uj, &kj);
      const double kf = 0.5 * (kq + kj), du = uj - uq;
      diag += (-kf + hkq * du) / B->g->hh[k];
      if (j < 0) {
        continue;
      }
      int64_t nb[3] = {gijk[0], gijk[1], gijk[2]};
      int off[3] = {0, 0, 0};
      off[k] = s ? 1 : -1;
      nb[k] += off[k];
      cols[cnt] = B->column(B->owner, nb);
      keys[cnt] = SK__MG_KEY(off[0], off[1], off[2], 0, 1);
      vals[cnt++] = (kf + 0.5 * m->kp[j] * du) / B->g->hh[k];
    }
  }
  cols[cnt] = B->column(B->owner, gijk);
  keys[cnt] = SK__MG_KEY(0, 0, 0, 0, 1);
  vals[cnt++] = diag;
  return cnt;
}

static void heat_initial(const sk__block_model *m, const sk__grid_block *B, double t0, double *y)
{
  const sk_diffusion_params *p = &m->p;
  const double amp = p->amplitude * exp(m->lambda * t0);
  int64_t r = 0;
  for (int64_t c = 0; c < B->cnt[2]; c++) {
    for (int64_t b = 0; b < B->cnt[1]; b++) {
      for (int64_t a = 0; a < B->cnt[0]; a++, r++) {
        if (p->ic == SK_DIFFUSION_IC_FORMULA) {
          (void)ic_formula_at(m, B, a, b, c, 0, &y[r]); /* checked at the create */
          continue;
        }
        if (p->ic != SK_DIFFUSION_IC_EXACT) {
          y[r] = p->ic_value;
          continue;
        }
        const int64_t gijk[3] = {B->lo[0] + a, B->lo[1] + b, B->lo[2] + c};
        double phi[3] = {1.0, 1.0, 1.0};
        for (int k = 0; k < B->dim; k++) {
          phi[k] = sk__diffusion_mode_phi(B->g, p, k, gijk[k]);
        }
        /* as the serial exact solution: (amp phi_y phi_z) phi_x + 0 */
        y[r] = amp * phi[1] * phi[2] * phi[0] + 0.0;
      }
    }
  }
}

const sk__block_kernels sk__diffusion_block = {
    .model_type = "diffusion",
    .own_prec = "amg",
    .shape = heat_shape,
    .create = heat_create,
    .destroy = heat_destroy,
    .name = heat_name,
    .var = heat_var,
    .initial = heat_initial,
    .rhs = heat_rhs,
    .prepare_rows = heat_coeffs,
    .row = heat_row,
};
