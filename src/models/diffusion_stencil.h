/* src/models/diffusion_stencil.h: the diffusion model's finite-volume stencil, one code for the serial model (diffusion.c) and its block kernel (diffusion_block.c) */
#ifndef SK_MODELS_DIFFUSION_STENCIL_H
#define SK_MODELS_DIFFUSION_STENCIL_H

#include "stiffkit/diffusion.h"

/* The model (diffusion.c's MATHEMATICS note): per direction d a node's
 *   du/dt += (F_+ - F_-) / (h_d^2 w) + B / (h_d w),
 * F_+ = kf_+ (u_+ - u), F_- = kf_- (u - u_-), kf = (k + k_nb) / 2, w = 1/2
 * when a side of d has no node (a Neumann or Robin side carries its unknown
 * on the boundary with a half volume), B the boundary flux of such sides:
 * q (Neumann) or c (u_inf - u) (Robin). A Dirichlet side is a node: the
 * boundary node with its value and k there. The callers own the loops and
 * the neighbours' indexing; the arithmetic of a face is here, so that the
 * serial model and the block kernel give the same bits. */

/* sk__diffusion_k_default: the built-in conductivity
 * k0 (1 + beta u)(1 + sum_d kgrad_d x_d / L_d) at x (dim coordinates) and
 * its derivative dk/du into *dk. */
static inline double sk__diffusion_k_default(const sk_diffusion_params *p, int dim,
                                             const double x[3], double u, double *dk)
{
  double gx = 1.0;
  for (int d = 1; d < dim; d++) {
    gx += p->kgrad[d] * x[d] / p->length[d];
  }
  gx += p->kgrad[0] * x[0] / p->length[0];
  *dk = p->k0 * p->beta * gx;
  return p->k0 * (1.0 + p->beta * u) * gx;
}

/* One side of a node along one direction: a node (has_node: its u and
 * nodal k; for a Dirichlet side the boundary value and k there), or a
 * Neumann or Robin side (q: the flux into the domain, or u_inf). */
typedef struct {
  int has_node;
  double u, k;
  double q;
} sk__diffusion_side;

/* sk__diffusion_face_flux: the flux through the face to the neighbour
 * (u_nb, k_nb) on side `side` (1: upper, kf (u_nb - u); 0: lower,
 * kf (u - u_nb)), kf = (k + k_nb) / 2. */
static inline double sk__diffusion_face_flux(double u, double k, double unb, double knb, int side)
{
  const double kf = 0.5 * (k + knb);
  return side ? kf * (unb - u) : kf * (u - unb);
}

/* sk__diffusion_term: a node's du/dt from one direction (u, k the node's;
 * nb[0], nb[1] the lower and upper sides; bc the direction's two sides;
 * h, hh the spacing and its square). */
static inline double sk__diffusion_term(double u, double k, const sk__diffusion_side nb[2],
                                        const sk_bc bc[2], double h, double hh)
{
  double flux[2] = {0.0, 0.0};
  double bnd = 0.0, w = 1.0;
  int has_bnd = 0;
  for (int side = 0; side < 2; side++) {
    if (nb[side].has_node) {
      flux[side] = sk__diffusion_face_flux(u, k, nb[side].u, nb[side].k, side);
      continue;
    }
    w = 0.5;
    has_bnd = 1;
    bnd += bc[side].type == SK_BC_NEUMANN ? nb[side].q : bc[side].coeff * (nb[side].q - u);
  }
  double term = (flux[1] - flux[0]) / (hh * w);
  if (has_bnd) {
    term += bnd / (h * w);
  }
  return term;
}

/* sk__diffusion_jac_nb: d(face flux difference)/d u_nb of the face between
 * a node (u, k) and its neighbour (u_nb, k_nb, dk/du = kp_nb):
 * (k + k_nb)/2 + kp_nb/2 (u_nb - u); divided by h^2 w (of the node) it is
 * the Jacobian entry of the node's row in the neighbour's column. */
static inline double sk__diffusion_jac_nb(double u, double k, double unb, double knb, double kpnb)
{
  return 0.5 * (k + knb) + 0.5 * kpnb * (unb - u);
}

/* sk__diffusion_jac_self: the same face's part of d/du of the node
 * (dk/du = kp): -(k + k_nb)/2 + kp/2 (u_nb - u); a Dirichlet side counts
 * with the boundary value and k there. */
static inline double sk__diffusion_jac_self(double u, double k, double kp, double unb, double knb)
{
  return -0.5 * (k + knb) + 0.5 * kp * (unb - u);
}

/* sk__diffusion_jac_robin: a Robin side's part of d/du of its node,
 * -c / (h w). */
static inline double sk__diffusion_jac_robin(const sk_bc *bc, double h, double w)
{
  return -bc->coeff / (h * w);
}

#endif
