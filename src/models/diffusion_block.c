/* src/models/diffusion_block.c: the diffusion model on one block of its grid: right-hand side (bitwise as the serial model), Jacobian rows, initial state */
/*
 * The serial model (src/models/diffusion.c, its MATHEMATICS note) on a
 * block: every side type and the manufactured solution. The arithmetic of
 * a face is the serial model's own (models/diffusion_stencil.h), the
 * manufactured solution's too (models/diffusion_mms.h); here are the loops
 * over the block and the neighbours: in the block or its ghost layer, or a
 * side of the domain (a Dirichlet side's boundary node with its value and
 * k there; a Neumann or Robin side's datum).
 *
 * Operation order = the serial one, so that the values are bitwise equal:
 * the directions' terms summed in the order x, y, z starting from 0.0
 * (acc += term), except where the serial code takes its interior fast path
 * (nodes inside the domain in every direction on a line of n0 >= 3, with
 * constant k or in 2D), which sums the terms without the leading 0.0 (this
 * differs only in the sign of a zero). Then, with a source, s = 0.0 +
 * model.source (+ the manufactured source) is added. Face k with constant
 * k is 0.5 (k0 + k0) = k0 exactly, as the serial fast path's k0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/mg_struct.h"
#include "models/diffusion_ic.h"
#include "models/diffusion_mms.h"
#include "models/diffusion_stencil.h"
#include "models/grid_block.h"

struct sk__block_model {
  sk_context *ctx;
  sk_diffusion_params p;
  int mms;               /* model.exact = manufactured */
  double *kn, *kp;       /* nodal k and dk/du on the ghosted nodes */
  double *xc[3];         /* coordinate of each ghosted position along d (0 outside the domain) */
  double *sn[3], *cs[3]; /* manufactured: sin and cos of pi x / L there (1 and 0 beyond dim) */
  double lambda;         /* decay rate of the exact mode */
  double rows_t;         /* time of the rows' boundary data (prepare_rows) */
  sk__diffusion_ic *ic;  /* model.ic = formula */
};

/* model.* of the diffusion family: the serial model's checks. */
static sk_status heat_shape(sk_context *ctx, const sk_options *opts, sk__block_shape *out)
{
  sk_diffusion_params p;
  SK_CALL(ctx, sk_diffusion_params_from_options(ctx, opts, &p));
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
    sk__free(m->ctx, m->sn[k]);
    sk__free(m->ctx, m->cs[k]);
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
  m->mms = m->p.exact == SK_DIFFUSION_EXACT_MANUFACTURED;
  for (int k = 0; k < 3; k++) {
    m->xc[k] = sk__calloc(ctx, (size_t)B->G[k], sizeof(double));
    m->sn[k] = sk__calloc(ctx, (size_t)B->G[k], sizeof(double));
    m->cs[k] = sk__calloc(ctx, (size_t)B->G[k], sizeof(double));
    SK_CHECK(ctx, m->xc[k] && m->sn[k] && m->cs[k], SK_ERR_NOMEM,
             "cannot allocate the coordinate tables");
    for (int64_t p = 0; p < B->G[k]; p++) {
      const int64_t gi = k < B->dim ? B->lo[k] + p - 1 : 0;
      const int in = gi >= 0 && gi < B->n[k];
      m->xc[k][p] = in ? sk__grid_coord(B->g, k, gi) : 0.0;
      m->sn[k][p] = 1.0;
      if (m->mms && in && k < B->dim) {
        sk__diffusion_mms_sc(B->g, k, gi, &m->sn[k][p], &m->cs[k][p]);
      }
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

/* The side s of direction k of the node at ghosted position (q; pos the per-direction
 * positions, gijk the global indices) at time t (e_t = e^{-t}): a node in the block or its
 * ghost layer (*j its ghosted index), or a side of the domain (*j = -1). */
static sk__diffusion_side side_at(const sk__block_model *m, const sk__grid_block *B, int64_t q,
                                  const int64_t pos[3], const int64_t gijk[3], int k, int s,
                                  double e_t, int64_t *j)
{
  const sk_diffusion_params *p = &m->p;
  const sk_bc *bc = &p->bc[k][s];
  if (s ? gijk[k] < B->n[k] - 1 : gijk[k] > 0) {
    *j = s ? q + B->gs[k] : q - B->gs[k];
    return (sk__diffusion_side){1, B->ug[*j], m->kn[*j], 0.0};
  }
  *j = -1;
  double val = bc->value, kb = 0.0;
  if (m->mms || bc->type == SK_BC_DIRICHLET) { /* data at the boundary point */
    double x[3], S[3], C[3], dk;
    for (int e = 0; e < 3; e++) {
      x[e] = m->xc[e][pos[e]];
      S[e] = m->sn[e][pos[e]];
      C[e] = m->cs[e][pos[e]];
    }
    if (m->mms) {
      sk__diffusion_mms_face(p, B->dim, e_t, k, s, x, S, C, &val, &kb);
    } else {
      x[k] = s ? B->g->length[k] : 0.0;
      kb = sk__diffusion_k_default(p, B->dim, x, val, &dk);
    }
  }
  if (bc->type == SK_BC_DIRICHLET) {
    return (sk__diffusion_side){1, val, kb, 0.0};
  }
  return (sk__diffusion_side){0, 0.0, 0.0, val};
}

/* The ghosted positions of block node (a, b, c) along each direction. */
static void positions(const sk__grid_block *B, int64_t a, int64_t b, int64_t c, int64_t pos[3])
{
  pos[0] = a + (B->dim > 0);
  pos[1] = b + (B->dim > 1);
  pos[2] = c + (B->dim > 2);
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
  const int has_source = p->source_const != 0.0 || m->mms;
  const double e_t = exp(-t);
  heat_coeffs(m, B);
  int64_t r = 0;
  for (int64_t c = 0; c < B->cnt[2]; c++) {
    for (int64_t b = 0; b < B->cnt[1]; b++) {
      for (int64_t a = 0; a < B->cnt[0]; a++, r++) {
        const int64_t gijk[3] = {B->lo[0] + a, B->lo[1] + b, B->lo[2] + c};
        int64_t pos[3], j;
        positions(B, a, b, c, pos);
        const int64_t q = sk__grid_block_ghost(B, a, b, c);
        const double ui = B->ug[q], ki = m->kn[q];
        double term[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < dim; k++) {
          const sk__diffusion_side nb[2] = {side_at(m, B, q, pos, gijk, k, 0, e_t, &j),
                                            side_at(m, B, q, pos, gijk, k, 1, e_t, &j)};
          term[k] = sk__diffusion_term(ui, ki, nb, p->bc[k], B->g->h[k], B->g->hh[k]);
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
        if (has_source) {
          double s = 0.0;
          s += p->source_const;
          if (m->mms) {
            const double x[3] = {m->xc[0][pos[0]], m->xc[1][pos[1]], m->xc[2][pos[2]]};
            const double S[3] = {m->sn[0][pos[0]], m->sn[1][pos[1]], m->sn[2][pos[2]]};
            const double C[3] = {m->cs[0][pos[0]], m->cs[1][pos[1]], m->cs[2][pos[2]]};
            s += sk__diffusion_mms_source(p, dim, t, e_t, x, S, C);
          }
          v += s;
        }
        f[r] = v;
      }
    }
  }
}

/* Nodal k and dk/du for the rows, and the time of their boundary data. */
static void heat_prepare_rows(sk__block_model *m, const sk__grid_block *B, double t)
{
  heat_coeffs(m, B);
  m->rows_t = t;
}

static int heat_row(const sk__block_model *m, const sk__grid_block *B, int64_t r, int64_t *cols,
                    int *keys, double *vals)
{
  const int64_t l[3] = {r % B->cnt[0], (r / B->cnt[0]) % B->cnt[1], r / (B->cnt[0] * B->cnt[1])};
  const int64_t gijk[3] = {B->lo[0] + l[0], B->lo[1] + l[1], B->lo[2] + l[2]};
  int64_t pos[3];
  positions(B, l[0], l[1], l[2], pos);
  const int64_t q = sk__grid_block_ghost(B, l[0], l[1], l[2]);
  const double uq = B->ug[q], kq = m->kn[q], kpq = m->kp[q], e_t = exp(-m->rows_t);
  double diag = 0.0;
  int cnt = 0;
  for (int k = 0; k < B->dim; k++) {
    const double w = sk__grid_weight(B->g, k, gijk[k]), hhw = B->g->hh[k] * w;
    for (int s = 0; s < 2; s++) {
      int64_t j;
      const sk__diffusion_side sd = side_at(m, B, q, pos, gijk, k, s, e_t, &j);
      if (!sd.has_node) {
        if (m->p.bc[k][s].type == SK_BC_ROBIN) {
          diag += sk__diffusion_jac_robin(&m->p.bc[k][s], B->g->h[k], w);
        }
        continue;
      }
      diag += sk__diffusion_jac_self(uq, kq, kpq, sd.u, sd.k) / hhw;
      if (j < 0) {
        continue;
      }
      int64_t nb[3] = {gijk[0], gijk[1], gijk[2]};
      int off[3] = {0, 0, 0};
      off[k] = s ? 1 : -1;
      nb[k] += off[k];
      cols[cnt] = B->column(B->owner, nb);
      keys[cnt] = SK__MG_KEY(off[0], off[1], off[2], 0, 1);
      vals[cnt++] = sk__diffusion_jac_nb(uq, kq, sd.u, sd.k, m->kp[j]) / hhw;
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
  const double amp = m->mms ? exp(-t0) : p->amplitude * exp(m->lambda * t0);
  const double off = m->mms ? p->offset : 0.0;
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
        int64_t pos[3];
        positions(B, a, b, c, pos);
        double phi[3] = {1.0, 1.0, 1.0};
        for (int k = 0; k < B->dim; k++) {
          phi[k] = m->mms ? m->sn[k][pos[k]] : sk__diffusion_mode_phi(B->g, p, k, gijk[k]);
        }
        /* as the serial exact solution: (amp phi_y phi_z) phi_x + offset */
        y[r] = amp * phi[1] * phi[2] * phi[0] + off;
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
    .prepare_rows = heat_prepare_rows,
    .row = heat_row,
};
