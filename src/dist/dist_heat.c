/* src/dist/dist_heat.c: the diffusion model on one rank's block: local RHS (bitwise as the serial model), Jacobian rows, initial state */
/*
 * The serial model (src/models/diffusion.c) with Dirichlet sides only:
 *   du_i/dt = sum_d (kf_+ (u_+ - u_i) - kf_- (u_i - u_-)) / h_d^2 + s,
 * kf = (k_i + k_j)/2, k = k0 (1 + beta u)(1 + sum_d kgrad_d x_d / L_d)
 * (sk__diffusion_k_default), a Dirichlet neighbour's k taken at the
 * boundary node with the boundary value. Neighbours on other ranks come
 * from the ghost layer of d->ug.
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
 * Jacobian rows (for AMG): df_q/du_j = (kf + k'_j/2 (u_j - u_q)) / h_d^2,
 * df_q/du_q = sum over faces (-kf + k'_q/2 (u_nb - u_q)) / h_d^2, Dirichlet
 * faces included with u_nb the boundary value.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "dist/dist_impl.h"

/* The initial-state formula at the rank's node (a, b, c), checked finite when check is set. */
static sk_status ic_formula_at(const sk__dist *d, int64_t a, int64_t b, int64_t c, int check,
                               double *u)
{
  const double x[3] = {d->xc[0][a + (d->L.dim > 0)], d->xc[1][b + (d->L.dim > 1)],
                       d->xc[2][c + (d->L.dim > 2)]};
  *u = sk__diffusion_ic_value(d->ic, &d->s.hp, x);
  if (!check || isfinite(*u)) {
    return SK_OK;
  }
  char node[96];
  const int64_t g[3] = {d->L.lo[0] + a, d->L.lo[1] + b, d->L.lo[2] + c};
  snprintf(node, sizeof node, "global node (%lld, %lld, %lld)", (long long)g[0], (long long)g[1],
           (long long)g[2]);
  return sk__diffusion_ic_nonfinite(d->ic, x, node, *u);
}

/* model.ic = formula: finite at every node of this rank (a bad input, found before CVODE). */
static sk_status ic_formula_check(const sk__dist *d)
{
  const sk__dist_layout *L = &d->L;
  for (int64_t c = 0; c < L->cnt[2]; c++) {
    for (int64_t b = 0; b < L->cnt[1]; b++) {
      for (int64_t a = 0; a < L->cnt[0]; a++) {
        double u;
        SK_CALL(d->ctx, ic_formula_at(d, a, b, c, 1, &u));
      }
    }
  }
  return SK_OK;
}

sk_status sk__dist_heat_init(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  const sk__dist_layout *L = &d->L;
  for (int k = 0; k < 3; k++) {
    d->xc[k] = sk__calloc(ctx, (size_t)d->G[k], sizeof(double));
    SK_CHECK(ctx, d->xc[k] != NULL, SK_ERR_NOMEM, "cannot allocate the coordinate tables");
    for (int64_t p = 0; p < d->G[k]; p++) {
      const int64_t gi = k < L->dim ? L->lo[k] + p - 1 : 0;
      d->xc[k][p] = (gi >= 0 && gi < L->n[k]) ? sk__grid_coord(&d->g, k, gi) : 0.0;
    }
  }
  d->kn = sk__calloc(ctx, (size_t)d->nghost, sizeof(double));
  d->kp = sk__calloc(ctx, (size_t)d->nghost, sizeof(double));
  SK_CHECK(ctx, d->kn && d->kp, SK_ERR_NOMEM, "cannot allocate the conductivity scratch");
  if (d->s.hp.exact == SK_DIFFUSION_EXACT_MODE) {
    d->lambda = sk__diffusion_mode_lambda(&d->g, &d->s.hp);
  }
  if (d->s.hp.ic == SK_DIFFUSION_IC_FORMULA) {
    SK_CALL(ctx, sk__diffusion_ic_create(ctx, &d->s.hp, &d->ic));
    d->s.hp.ic_formula = NULL; /* the options' text: the compiled copy is d->ic */
    SK_CALL(ctx, ic_formula_check(d));
  }
  return SK_OK;
}

/* 1 when ghosted position p along k is a node of the grid. */
static int inside(const sk__dist *d, int k, int64_t p)
{
  const int64_t gi = k < d->L.dim ? d->L.lo[k] + p - 1 : 0;
  return gi >= 0 && gi < d->L.n[k];
}

void sk__dist_heat_coeffs(sk__dist *d)
{
  const sk_diffusion_params *p = &d->s.hp;
  for (int64_t c = 0; c < d->G[2]; c++) {
    for (int64_t b = 0; b < d->G[1]; b++) {
      if (!inside(d, 2, c) || !inside(d, 1, b)) {
        continue;
      }
      for (int64_t a = 0; a < d->G[0]; a++) {
        const int64_t q = a + d->G[0] * (b + d->G[1] * c);
        if (!inside(d, 0, a)) {
          continue;
        }
        const double x[3] = {d->xc[0][a], d->xc[1][b], d->xc[2][c]};
        d->kn[q] = sk__diffusion_k_default(p, d->L.dim, x, d->ug[q], &d->kp[q]);
      }
    }
  }
}

/* k at the Dirichlet boundary node of side s along k next to global node gijk. */
static double face_k(const sk__dist *d, const int64_t gijk[3], int k, int s)
{
  const sk_diffusion_params *p = &d->s.hp;
  double x[3], dk;
  for (int e = 0; e < 3; e++) {
    x[e] = sk__grid_coord(&d->g, e, gijk[e]);
  }
  x[k] = s ? d->g.length[k] : 0.0;
  return sk__diffusion_k_default(p, d->L.dim, x, p->bc[k][s].value, &dk);
}

/* Neighbour of ghosted node q on side s along k: its value and k, or the
 * Dirichlet boundary's; returns the ghosted index or -1 for a boundary. */
static int64_t neighbour(const sk__dist *d, int64_t q, const int64_t gijk[3], int k, int s,
                         double *uj, double *kj)
{
  const int interior = s ? gijk[k] < d->L.n[k] - 1 : gijk[k] > 0;
  if (interior) {
    const int64_t j = s ? q + d->gs[k] : q - d->gs[k];
    *uj = d->ug[j];
    *kj = d->kn[j];
    return j;
  }
  *uj = d->s.hp.bc[k][s].value;
  *kj = face_k(d, gijk, k, s);
  return -1;
}

/* The serial interior fast path's nodes (see the operation-order note). */
static int fast_node(const sk__dist *d, const int64_t gijk[3])
{
  const int64_t *n = d->L.n;
  const int dim = d->L.dim;
  const int z_in = dim < 3 || (gijk[2] > 0 && gijk[2] < n[2] - 1);
  const int y_in = dim < 2 || (gijk[1] > 0 && gijk[1] < n[1] - 1);
  return z_in && y_in && n[0] >= 3 && gijk[0] > 0 && gijk[0] < n[0] - 1;
}

void sk__dist_heat_rhs(sk__dist *d, double t, double *f)
{
  const sk__dist_layout *L = &d->L;
  const sk_diffusion_params *p = &d->s.hp;
  const int dim = L->dim;
  const int plain = p->beta == 0.0 && p->kgrad[0] == 0.0 && p->kgrad[1] == 0.0 &&
                    p->kgrad[2] == 0.0; /* constant k: the serial fast path in every dim */
  (void)t;
  sk__dist_heat_coeffs(d);
  int64_t m = 0;
  for (int64_t c = 0; c < L->cnt[2]; c++) {
    for (int64_t b = 0; b < L->cnt[1]; b++) {
      for (int64_t a = 0; a < L->cnt[0]; a++, m++) {
        const int64_t gijk[3] = {L->lo[0] + a, L->lo[1] + b, L->lo[2] + c};
        const int64_t q = sk__dist_ghost(d, a, b, c);
        const double ui = d->ug[q], ki = d->kn[q];
        double term[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < dim; k++) {
          double flux[2];
          for (int s = 0; s < 2; s++) {
            double uj, kj;
            (void)neighbour(d, q, gijk, k, s, &uj, &kj);
            const double kf = 0.5 * (ki + kj);
            flux[s] = s ? kf * (uj - ui) : kf * (ui - uj);
          }
          term[k] = (flux[1] - flux[0]) / d->g.hh[k];
        }
        double v;
        if (fast_node(d, gijk) && (plain || dim == 2)) {
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
        f[m] = v;
      }
    }
  }
}

/* Local node coordinates of local node index r. */
static void local_split(const sk__dist_layout *L, int64_t r, int64_t l[3])
{
  l[0] = r % L->cnt[0];
  l[1] = (r / L->cnt[0]) % L->cnt[1];
  l[2] = r / (L->cnt[0] * L->cnt[1]);
}

int sk__dist_heat_row(const sk__dist *d, int64_t r, int64_t *cols, int *keys, double *vals)
{
  const sk__dist_layout *L = &d->L;
  const sk_diffusion_params *p = &d->s.hp;
  int64_t l[3];
  local_split(L, r, l);
  const int64_t gijk[3] = {L->lo[0] + l[0], L->lo[1] + l[1], L->lo[2] + l[2]};
  const int64_t q = sk__dist_ghost(d, l[0], l[1], l[2]);
  const double uq = d->ug[q], kq = d->kn[q], hkq = 0.5 * d->kp[q];
  double diag = 0.0;
  int cnt = 0;
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      double uj, kj;
      const int64_t j = neighbour(d, q, gijk, k, s, &uj, &kj);
      const double kf = 0.5 * (kq + kj), du = uj - uq;
      diag += (-kf + hkq * du) / d->g.hh[k];
      if (j < 0) {
        continue;
      }
      int64_t nb[3] = {gijk[0], gijk[1], gijk[2]};
      int off[3] = {0, 0, 0};
      off[k] = s ? 1 : -1;
      nb[k] += off[k];
      cols[cnt] = sk__dist_block_index(d, nb);
      keys[cnt] = SK__MG_KEY(off[0], off[1], off[2], 0, 1);
      vals[cnt++] = (kf + 0.5 * d->kp[j] * du) / d->g.hh[k];
    }
  }
  (void)p;
  cols[cnt] = sk__dist_block_index(d, gijk);
  keys[cnt] = SK__MG_KEY(0, 0, 0, 0, 1);
  vals[cnt++] = diag;
  return cnt;
}

void sk__dist_heat_initial(const sk__dist *d, double t0, double *y)
{
  const sk__dist_layout *L = &d->L;
  const sk_diffusion_params *p = &d->s.hp;
  const double amp = p->amplitude * exp(d->lambda * t0);
  int64_t m = 0;
  for (int64_t c = 0; c < L->cnt[2]; c++) {
    for (int64_t b = 0; b < L->cnt[1]; b++) {
      for (int64_t a = 0; a < L->cnt[0]; a++, m++) {
        if (p->ic == SK_DIFFUSION_IC_FORMULA) {
          (void)ic_formula_at(d, a, b, c, 0, &y[m]); /* checked at sk__dist_heat_init */
          continue;
        }
        if (p->ic != SK_DIFFUSION_IC_EXACT) {
          y[m] = p->ic_value;
          continue;
        }
        const int64_t gijk[3] = {L->lo[0] + a, L->lo[1] + b, L->lo[2] + c};
        double phi[3] = {1.0, 1.0, 1.0};
        for (int k = 0; k < L->dim; k++) {
          phi[k] = sk__diffusion_mode_phi(&d->g, p, k, gijk[k]);
        }
        /* as the serial exact solution: (amp phi_y phi_z) phi_x + 0 */
        y[m] = amp * phi[1] * phi[2] * phi[0] + 0.0;
      }
    }
  }
}
