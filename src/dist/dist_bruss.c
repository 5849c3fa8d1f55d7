/* src/dist/dist_bruss.c: the 2D Brusselator on one rank's block: local RHS (bitwise as the serial model), Jacobian rows, initial state */
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
#include <string.h>

#include "dist/dist_impl.h"

/* Ghosted index and global position of the (mirrored) neighbour of ghosted
 * node q at global position gi along k, side s. */
static int64_t mirror(const sk__dist *d, int64_t q, int64_t gi, int k, int s, int64_t *gnb)
{
  const int64_t n = d->L.n[k];
  int up = s;
  if (gi == 0 && !s) {
    up = 1;
  } else if (gi == n - 1 && s) {
    up = 0;
  }
  *gnb = gi + (up ? 1 : -1);
  return up ? q + d->gs[k] : q - d->gs[k];
}

void sk__dist_bruss_rhs(sk__dist *d, double t, double *f)
{
  const sk__dist_layout *L = &d->L;
  const sk_brusselator_params *p = &d->s.bp;
  const double hh = d->g.hh[0];
  const double a = p->a, b = p->b, alpha = p->alpha;
  const double *y = d->ug;
  int64_t tmp;
  (void)t;
  for (int64_t j = 0; j < L->cnt[1]; j++) {
    for (int64_t i = 0; i < L->cnt[0]; i++) {
      const int64_t q = sk__dist_ghost(d, i, j, 0);
      const int64_t gi = L->lo[0] + i, gj = L->lo[1] + j;
      const int64_t w = 2 * mirror(d, q, gi, 0, 0, &tmp), e = 2 * mirror(d, q, gi, 0, 1, &tmp);
      const int64_t so = 2 * mirror(d, q, gj, 1, 0, &tmp), no = 2 * mirror(d, q, gj, 1, 1, &tmp);
      const double u = y[2 * q], v = y[2 * q + 1];
      const double lapu = ((y[e] - u) - (u - y[w])) / hh + ((y[no] - u) - (u - y[so])) / hh;
      const double lapv =
          ((y[e + 1] - v) - (v - y[w + 1])) / hh + ((y[no + 1] - v) - (v - y[so + 1])) / hh;
      double ru, rv;
      sk__brusselator_reaction(a, b, u, v, &ru, &rv);
      double *fc = f + 2 * (i + L->cnt[0] * j);
      fc[0] = ru + alpha * lapu;
      fc[1] = rv + alpha * lapv;
    }
  }
}

int sk__dist_bruss_row(const sk__dist *d, int64_t r, int64_t *cols, int *keys, double *vals)
{
  const sk__dist_layout *L = &d->L;
  const sk_brusselator_params *p = &d->s.bp;
  const int64_t node = r / 2, comp = r % 2;
  const int64_t i = node % L->cnt[0], j = node / L->cnt[0];
  const int64_t gijk[3] = {L->lo[0] + i, L->lo[1] + j, 0};
  const int64_t q = sk__dist_ghost(d, i, j, 0);
  const double u = d->ug[2 * q], v = d->ug[2 * q + 1];
  const double dlap = -2.0 * p->alpha / d->g.hh[0] - 2.0 * p->alpha / d->g.hh[1];
  const int64_t self = sk__dist_block_index(d, gijk);
  int cnt = 0;
  for (int k = 0; k < 2; k++) {
    for (int s = 0; s < 2; s++) {
      int64_t nb[3] = {gijk[0], gijk[1], 0};
      (void)mirror(d, q, gijk[k], k, s, &nb[k]);
      const int o = (int)(nb[k] - gijk[k]); /* the mirrored side's: -1 or 1 */
      cols[cnt] = sk__dist_block_index(d, nb) + comp;
      keys[cnt] = SK__MG_KEY(k == 0 ? o : 0, k == 1 ? o : 0, 0, (int)comp, 2);
      vals[cnt++] = p->alpha / d->g.hh[k];
    }
  }
  cols[cnt] = self;
  keys[cnt] = SK__MG_KEY(0, 0, 0, 0, 2);
  vals[cnt++] = comp ? p->b - 2.0 * u * v : -(p->b + 1.0) + 2.0 * u * v + dlap;
  cols[cnt] = self + 1;
  keys[cnt] = SK__MG_KEY(0, 0, 0, 1, 2);
  vals[cnt++] = comp ? -u * u + dlap : u * u;
  return cnt;
}

void sk__dist_bruss_initial(const sk__dist *d, double *y)
{
  const sk__dist_layout *L = &d->L;
  const sk_brusselator_params *p = &d->s.bp;
  for (int64_t j = 0; j < L->cnt[1]; j++) {
    for (int64_t i = 0; i < L->cnt[0]; i++) {
      const double pert = sk__brusselator_perturbation(p, L->lo[0] + i, L->lo[1] + j);
      y[2 * (i + L->cnt[0] * j)] = p->a + pert;
      y[2 * (i + L->cnt[0] * j) + 1] = p->b / p->a + pert;
    }
  }
}
