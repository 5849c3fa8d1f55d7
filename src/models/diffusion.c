/* src/models/diffusion.c: u_t = div(k(x,u) grad u) + s on 1D/2D/3D vertex-centred grids: RHS, CSC Jacobian, exact solutions, ADI rows */
/*
 * MATHEMATICS
 *
 *   u_t = div(k(x,u) grad u) + s(x,t,u)   on [0,L_0] x .. x [0,L_{dim-1}]
 *
 * Vertex-centred finite volumes. Per direction d there are nodes x = i h_d
 * on the closed interval. A Dirichlet side carries no unknown (the boundary
 * node holds the value); a Neumann or Robin side carries an unknown ON the
 * boundary with a half control volume. With n_d unknowns and D_d Dirichlet
 * sides, h_d = L_d / (n_d - 1 + D_d) and unknown i_d sits at
 * (i_d + [low side Dirichlet]) h_d. Ordering: idx = i + n0 (j + n1 k).
 *
 * Conductivity: nodal k_i = k(x_i, u_i), by default
 *   k(x,u) = k0 (1 + beta u)(1 + sum_d kgrad_d x_d / L_d)
 * (p->conductivity overrides it); face k = (k_i + k_j)/2, with a Dirichlet
 * neighbour's k taken at the boundary node with the boundary value.
 *
 * Control volume V_i = prod_d h_d w_d (w_d = 1/2 on a Neumann/Robin
 * boundary in direction d, else 1); face area A_d = prod_{e != d} h_e w_e,
 * so A_d / (h_d V_i) = 1 / (h_d^2 w_d) and A_d / V_i = 1 / (h_d w_d):
 *
 *   du_i/dt = sum_d [ (kf_+ (u_+ - u_i) - kf_- (u_i - u_-)) / (h_d^2 w_d)
 *                     + F_d / (h_d w_d) ]  +  s_i
 *
 * where a missing neighbour on a Neumann/Robin side contributes no face
 * flux and F_d = q (Neumann, heat flux into the domain) or c (u_inf - u_i)
 * (Robin). Operation order (the benchmark baseline reproduces it exactly):
 * the directions are summed in the order x, y, z, each term computed as
 * (kf_plus*(u_plus - u) - kf_minus*(u - u_minus)) / (h_d*h_d), and then s
 * is added. For constant k = k0 the 2D interior RHS is
 *   ((k*(uE-u) - k*(u-uW))/(hx*hx) + (k*(uN-u) - k*(u-uS))/(hy*hy))  (+ s)
 * The fast path (constant k, no source) runs a tight branch-free loop over
 * interior nodes of interior lines; nodes on a boundary in any direction
 * are done by the general per-node routine.
 *
 * Total source: s = p->source(x,t,u) + source_const (+ s_mms with the
 * manufactured solution).
 *
 * Jacobian (CSC, rows of column j = the stencil of j incl. the diagonal):
 *   df_r/du_j = c_r [kf + k'_j/2 (u_j - u_r)],  c_r = 1/(h_d^2 w_d(r)),
 *   df_j/du_j = sum_faces c_j [-kf + k'_j/2 (u_nb - u_j)] - sum_Robin c/(h_d w_d) + ds/du,
 * with the Dirichlet faces included in the first sum (u_nb = boundary value).
 *
 * Exact solutions.
 * (1) mode: k constant, no source, each direction homogeneous Dirichlet on
 *   both sides (phi = sin(m pi x/L), m >= 1) or homogeneous Neumann on both
 *   sides (phi = cos(m pi x/L), m >= 0): u = A e^{lambda t} prod_d phi_d,
 *   lambda = -k sum_d (m_d pi/L_d)^2, or with exact_semidiscrete the
 *   discrete eigenvalue lambda_h = -k sum_d (4/h_d^2) sin^2(m_d pi h_d/(2 L_d))
 *   (on this grid the nodal sin/cos values are exact eigenvectors: at a
 *   Neumann node the half volume gives 2(u_1 - u_0)/h^2, the mirror image
 *   of the three-point stencil).
 * (2) manufactured: u* = e^{-t} P(x) + u_off, P = prod_d sin(pi x_d/L_d), with
 *   the default k. With S_d = sin(pi x_d/L_d), C_d = cos(.), a_d = pi/L_d:
 *     d(u*)/dx_d = e^{-t} a_d C_d prod_{e!=d} S_e,  d2(u*)/dx_d2 = -e^{-t} a_d^2 P,
 *     dk/dx_d  = k0 [beta d(u*)/dx_d (1 + G) + (1 + beta u*) kgrad_d / L_d],
 *     G = sum_d kgrad_d x_d / L_d,
 *     s_mms = u*_t - sum_d (dk/dx_d d(u*)/dx_d + k d2(u*)/dx_d2)
 *             - p->source(x, t, u*) - source_const,
 *   so u* solves the full equation with any extra source. Boundary data
 *   follow u* at each time: Dirichlet value u*, Neumann q = k d(u*)/dn, Robin
 *   u_inf = u* + (k/c) d(u*)/dn (n the outward normal).
 *
 * Preconditioner (adi_prec.c): P = prod_d (I - gamma J_d), J_d the part of
 * the Jacobian from direction-d faces and boundary terms (off-diagonals in
 * direction d and their diagonal contributions); ds/du joins the first
 * factor. Every setup re-evaluates the rows at (t, y), whatever
 * jac_current says; the solve uses the factors of the last setup.
 *
 * Callbacks keep scratch (nodal k, face data) in the model data: one model
 * must not be evaluated from two threads at once (it is not declared
 * sk_model_set_thread_safe). Inside one call the work is threaded (OpenMP):
 * the nodal coefficients, the RHS and the Jacobian values split the grid
 * lines (x-lines) among threads, each line writing only its own entries
 * with the same operations as one thread, so results are bitwise identical
 * for any thread count. User callbacks (p.source, p.conductivity) are
 * never called from several threads: with them these loops stay serial.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"
#include "core/threads.h"
#include "models/adi_prec.h"
#include "models/diffusion_ic.h"
#include "models/diffusion_mms.h"
#include "models/diffusion_stencil.h"
#include "models/grid.h"
#include "stiffkit/diffusion.h"

#define SK_PI 3.14159265358979323846

typedef struct {
  double *val; /* per face node: Dirichlet value, Neumann q or Robin u_inf */
  double *kb;  /* Dirichlet: k at the boundary node with the boundary value */
} face_data;

typedef struct {
  sk_context *ctx;
  sk__grid g;
  sk_diffusion_params p;
  int const_k;      /* k = k0 everywhere */
  int const_filled; /* kn, kp hold the constant values */
  int has_source;   /* p.source, source_const or the manufactured source */
  int mms;
  double lambda; /* decay rate of the mode solution */
  face_data face[3][2];
  double face_time; /* time of the (manufactured) face data; NaN before the first fill */
  double *xc[3];    /* coordinates of the unknown positions per direction */
  double *phi[3];   /* mode: phi_d at the unknown positions; manufactured: sin(pi x/L) */
  double *cosv[3];  /* manufactured: cos(pi x/L) at the unknown positions */
  double *kg[3];    /* kgrad_d x_d / L_d at the unknown positions */
  double *kn, *kp;  /* scratch: nodal k and dk/du */
  double *sp;       /* scratch: nodal ds/du (only with p.source) */
  int64_t *linepos; /* n1 n2 + 1: first Jacobian entry of each x-line (lines run in parallel) */
  int par_ok;       /* no user callbacks: the loops over lines may be threaded */
  const double *adi_u; /* state of the current preconditioner setup */
  sk__adi *adi;
  sk__diffusion_ic *ic; /* model.ic = formula */
} diff_data;

static const char axis_chars[] = "xyz";

/* ---- coefficients --------------------------------------------------------- */

/* k(x, u) and dk/du at one point. */
static double cond(const diff_data *dd, const double x[3], double u, double *dk)
{
  const sk_diffusion_params *p = &dd->p;
  if (p->conductivity) {
    double dkv = 0.0;
    const double k = p->conductivity(x, u, &dkv, p->user_data);
    *dk = dkv;
    return k;
  }
  return sk__diffusion_k_default(p, dd->g.dim, x, u, dk);
}

/* Fill the nodal scratch kn, kp (and sp with p.source) at (t, u). */
static void nodal_coeffs(diff_data *dd, double t, const double *u)
{
  const sk__grid *g = &dd->g;
  const int par = dd->par_ok && sk__threaded(g->total);
  if (dd->const_k && !dd->const_filled) {
    SK__OMP(parallel for if(parallel: par) schedule(static))
    for (int64_t i = 0; i < g->total; i++) {
      dd->kn[i] = dd->p.k0;
      dd->kp[i] = 0.0;
    }
    dd->const_filled = 1; /* constant k: the nodal values never change */
  }
  if (dd->const_k && !dd->sp) {
    return;
  }
  const sk_diffusion_params *p = &dd->p;
  const int builtin = !dd->const_k && !p->conductivity;
  const double k0 = p->k0, beta = p->beta;
  const int64_t n0 = g->n[0], n1 = g->n[1], nlines = g->n[1] * g->n[2];
  SK__OMP(parallel for if(parallel: par) schedule(static))
  for (int64_t line = 0; line < nlines; line++) {
    const int64_t k1 = line % n1, k2 = line / n1, idx = n0 * line;
    if (builtin) {
      /* k0 (1 + beta u)(1 + sum_d kgrad_d x_d / L_d), the x term innermost */
      const double g12 = 1.0 + dd->kg[1][k1] + dd->kg[2][k2];
      const double *kg0 = dd->kg[0];
      for (int64_t i = 0; i < n0; i++) {
        const double gx = g12 + kg0[i];
        dd->kn[idx + i] = k0 * (1.0 + beta * u[idx + i]) * gx;
        dd->kp[idx + i] = k0 * beta * gx;
      }
    }
    for (int64_t i = 0; i < n0 && (dd->sp || p->conductivity); i++) {
      const double x[3] = {dd->xc[0][i], dd->xc[1][k1], dd->xc[2][k2]};
      if (p->conductivity) {
        dd->kn[idx + i] = cond(dd, x, u[idx + i], &dd->kp[idx + i]);
      }
      if (dd->sp) {
        double ds = 0.0;
        (void)p->source(x, t, u[idx + i], &ds, p->user_data);
        dd->sp[idx + i] = ds;
      }
    }
  }
}

/* ---- boundary face data ---------------------------------------------------- */

/* The two directions other than d, in increasing order. */
static void other_dirs(int d, int *e1, int *e2)
{
  *e1 = d == 0 ? 1 : 0;
  *e2 = d == 2 ? 1 : 2;
}

/* Face data of every side at time t (constant data, or u* for the manufactured solution). */
static void fill_faces(diff_data *dd, double t)
{
  const sk__grid *g = &dd->g;
  const double e_t = exp(-t);
  for (int d = 0; d < g->dim; d++) {
    int e1, e2;
    other_dirs(d, &e1, &e2);
    for (int s = 0; s < 2; s++) {
      const sk_bc *bc = &dd->p.bc[d][s];
      face_data *fd = &dd->face[d][s];
      for (int64_t b = 0; b < g->n[e2]; b++) {
        for (int64_t a = 0; a < g->n[e1]; a++) {
          const int64_t f = a + g->n[e1] * b;
          double x[3], S[3] = {1.0, 1.0, 1.0}, C[3] = {0.0, 0.0, 0.0};
          x[d] = s ? g->length[d] : 0.0; /* the manufactured face sets x[d], S[d], C[d] again */
          x[e1] = dd->xc[e1][a];
          x[e2] = dd->xc[e2][b];
          if (!dd->mms) {
            fd->val[f] = bc->value;
            if (bc->type == SK_BC_DIRICHLET) {
              double dk;
              fd->kb[f] = cond(dd, x, bc->value, &dk);
            }
            continue;
          }
          S[e1] = dd->phi[e1][a];
          C[e1] = dd->cosv[e1][a];
          S[e2] = dd->phi[e2][b];
          C[e2] = dd->cosv[e2][b];
          double kb = 0.0;
          sk__diffusion_mms_face(&dd->p, g->dim, e_t, d, s, x, S, C, &fd->val[f], &kb);
          if (bc->type == SK_BC_DIRICHLET) {
            fd->kb[f] = kb;
          }
        }
      }
    }
  }
  dd->face_time = t;
}

/* Time-dependent boundary data hook: refresh the face data for time t. */
static void update_faces(diff_data *dd, double t)
{
  if (dd->mms && !(t == dd->face_time)) {
    fill_faces(dd, t);
  }
}

/* ---- right-hand side -------------------------------------------------------- */

/* Diffusion part of du/dt at unknown idx (indices ijk), any node.
 * kn == NULL means k = k0. */
static double node_flux(const diff_data *dd, const double *u, const double *kn, int64_t idx,
                        const int64_t ijk[3])
{
  const sk__grid *g = &dd->g;
  const double ui = u[idx];
  const double k0 = dd->p.k0;
  const double ki = kn ? kn[idx] : k0;
  double acc = 0.0;
  for (int d = 0; d < g->dim; d++) {
    const int64_t s = g->stride[d], id = ijk[d];
    sk__diffusion_side nb[2];
    for (int side = 0; side < 2; side++) {
      const int interior = side ? (id < g->n[d] - 1) : (id > 0);
      if (interior) {
        const int64_t j = side ? idx + s : idx - s;
        nb[side] = (sk__diffusion_side){1, u[j], kn ? kn[j] : k0, 0.0};
        continue;
      }
      const face_data *fd = &dd->face[d][side];
      const int64_t f = sk__grid_face_index(g, d, ijk);
      if (dd->p.bc[d][side].type == SK_BC_DIRICHLET) {
        nb[side] = (sk__diffusion_side){1, fd->val[f], fd->kb[f], 0.0};
      } else {
        nb[side] = (sk__diffusion_side){0, 0.0, 0.0, fd->val[f]};
      }
    }
    acc += sk__diffusion_term(ui, ki, nb, dd->p.bc[d], g->h[d], g->hh[d]);
  }
  return acc;
}

/* Interior nodes [i0, i1) of an interior line starting at `base`, k = k0. */
static void interior_const(const diff_data *dd, const double *restrict u, double *restrict f,
                           int64_t base, int64_t i0, int64_t i1)
{
  const sk__grid *g = &dd->g;
  const double k = dd->p.k0;
  const double hx2 = g->hh[0], hy2 = g->hh[1], hz2 = g->hh[2];
  const int64_t sy = g->stride[1], sz = g->stride[2];
  const double *restrict uu = u + base;
  double *restrict ff = f + base;
  if (g->dim == 1) {
    for (int64_t i = i0; i < i1; i++) {
      const double uc = uu[i];
      ff[i] = (k * (uu[i + 1] - uc) - k * (uc - uu[i - 1])) / hx2;
    }
  } else if (g->dim == 2) {
    for (int64_t i = i0; i < i1; i++) {
      const double uc = uu[i];
      ff[i] = (k * (uu[i + 1] - uc) - k * (uc - uu[i - 1])) / hx2 +
              (k * (uu[i + sy] - uc) - k * (uc - uu[i - sy])) / hy2;
    }
  } else {
    for (int64_t i = i0; i < i1; i++) {
      const double uc = uu[i];
      ff[i] = (k * (uu[i + 1] - uc) - k * (uc - uu[i - 1])) / hx2 +
              (k * (uu[i + sy] - uc) - k * (uc - uu[i - sy])) / hy2 +
              (k * (uu[i + sz] - uc) - k * (uc - uu[i - sz])) / hz2;
    }
  }
}

/* Interior nodes [i0, i1) of an interior line, nodal k in kn. */
static void interior_var(const diff_data *dd, const double *restrict u, const double *restrict kn,
                         double *restrict f, int64_t base, int64_t i0, int64_t i1)
{
  const sk__grid *g = &dd->g;
  const int dim = g->dim;
  if (dim == 2) {
    const int64_t sy = g->stride[1];
    const double hx2 = g->hh[0], hy2 = g->hh[1];
    for (int64_t i = base + i0; i < base + i1; i++) {
      const double uc = u[i], kc = kn[i];
      f[i] = (sk__diffusion_face_flux(uc, kc, u[i + 1], kn[i + 1], 1) -
              sk__diffusion_face_flux(uc, kc, u[i - 1], kn[i - 1], 0)) /
                 hx2 +
             (sk__diffusion_face_flux(uc, kc, u[i + sy], kn[i + sy], 1) -
              sk__diffusion_face_flux(uc, kc, u[i - sy], kn[i - sy], 0)) /
                 hy2;
    }
    return;
  }
  for (int64_t i = base + i0; i < base + i1; i++) {
    const double uc = u[i], kc = kn[i];
    double acc = 0.0;
    for (int d = 0; d < dim; d++) {
      const int64_t s = g->stride[d];
      acc += (sk__diffusion_face_flux(uc, kc, u[i + s], kn[i + s], 1) -
              sk__diffusion_face_flux(uc, kc, u[i - s], kn[i - s], 0)) /
             g->hh[d];
    }
    f[i] = acc;
  }
}

/* Add the total source along the x-line (k1, k2). */
static void line_source(const diff_data *dd, double t, double e_t, const double *u, double *f,
                        int64_t k1, int64_t k2)
{
  const sk__grid *g = &dd->g;
  const sk_diffusion_params *p = &dd->p;
  const int64_t base = g->n[0] * (k1 + g->n[1] * k2);
  for (int64_t i = 0; i < g->n[0]; i++) {
    const double x[3] = {dd->xc[0][i], dd->xc[1][k1], dd->xc[2][k2]};
    double s = 0.0;
    if (p->source) {
      double ds = 0.0;
      s += p->source(x, t, u[base + i], &ds, p->user_data);
    }
    s += p->source_const;
    if (dd->mms) {
      const double S[3] = {dd->phi[0][i], dd->phi[1][k1], dd->phi[2][k2]};
      const double C[3] = {dd->cosv[0][i], dd->cosv[1][k1], dd->cosv[2][k2]};
      s += sk__diffusion_mms_source(p, g->dim, t, e_t, x, S, C);
    }
    f[base + i] += s;
  }
}

static int diffusion_rhs(double t, const double *u, double *f, void *user_data)
{
  diff_data *dd = user_data;
  const sk__grid *g = &dd->g;
  update_faces(dd, t);
  const double *kn = NULL;
  if (!dd->const_k) {
    nodal_coeffs(dd, t, u);
    kn = dd->kn;
  }
  const double e_t = dd->mms ? exp(-t) : 0.0;
  const int64_t n0 = g->n[0], n1 = g->n[1], nlines = g->n[1] * g->n[2];
  SK__OMP(parallel for if(parallel: dd->par_ok && sk__threaded(g->total)) schedule(static))
  for (int64_t line = 0; line < nlines; line++) {
    const int64_t k1 = line % n1, k2 = line / n1, base = n0 * line;
    const int z_in = g->dim < 3 || (k2 > 0 && k2 < g->n[2] - 1);
    const int line_in = z_in && (g->dim < 2 || (k1 > 0 && k1 < g->n[1] - 1)) && n0 >= 3;
    int64_t ijk[3] = {0, k1, k2};
    if (line_in) {
      f[base] = node_flux(dd, u, kn, base, ijk);
      if (kn) {
        interior_var(dd, u, kn, f, base, 1, n0 - 1);
      } else {
        interior_const(dd, u, f, base, 1, n0 - 1);
      }
      ijk[0] = n0 - 1;
      f[base + n0 - 1] = node_flux(dd, u, kn, base + n0 - 1, ijk);
    } else {
      for (int64_t i = 0; i < n0; i++) {
        ijk[0] = i;
        f[base + i] = node_flux(dd, u, kn, base + i, ijk);
      }
    }
    if (dd->has_source) {
      line_source(dd, t, e_t, u, f, k1, k2);
    }
  }
  return 0;
}

/* ---- Jacobian -------------------------------------------------------------- */

/* Diagonal contribution of the boundary sides of unknown q in direction d. */
static double boundary_diag(const diff_data *dd, const double *u, int64_t q, const int64_t ijk[3],
                            int d)
{
  const sk__grid *g = &dd->g;
  const double w = sk__grid_weight(g, d, ijk[d]);
  double diag = 0.0;
  for (int side = 0; side < 2; side++) {
    const int at_side = side ? (ijk[d] == g->n[d] - 1) : (ijk[d] == 0);
    if (!at_side) {
      continue;
    }
    const sk_bc *bc = &dd->p.bc[d][side];
    if (bc->type == SK_BC_DIRICHLET) {
      const int64_t f = sk__grid_face_index(g, d, ijk);
      const face_data *fd = &dd->face[d][side];
      diag += sk__diffusion_jac_self(u[q], dd->kn[q], dd->kp[q], fd->val[f], fd->kb[f]) /
              (g->hh[d] * w);
    } else if (bc->type == SK_BC_ROBIN) {
      diag += sk__diffusion_jac_robin(bc, g->h[d], w);
    }
  }
  return diag;
}

/* Column q of the Jacobian, any node: entries in pattern order from vals[pos];
 * returns the position after the column. */
static int64_t jac_node(const diff_data *dd, const double *u, int64_t q, const int64_t ijk[3],
                        double *vals, int64_t pos)
{
  const sk__grid *g = &dd->g;
  const double *kn = dd->kn, *kp = dd->kp;
  sk__grid_nb nb[7];
  const int cnt = sk__grid_neighbors(g, q, ijk, nb);
  double diag = 0.0;
  int64_t dpos = pos;
  for (int e = 0; e < cnt; e++) {
    if (nb[e].dir < 0) {
      dpos = pos++;
      continue;
    }
    const int d = nb[e].dir;
    const int64_t r = nb[e].idx;
    const int64_t rp = ijk[d] + (nb[e].side ? 1 : -1);
    /* row r's entry in column q, and q's own: the face between r and q */
    vals[pos++] = sk__diffusion_jac_nb(u[r], kn[r], u[q], kn[q], kp[q]) /
                  (g->hh[d] * sk__grid_weight(g, d, rp));
    diag += sk__diffusion_jac_self(u[q], kn[q], kp[q], u[r], kn[r]) /
            (g->hh[d] * sk__grid_weight(g, d, ijk[d]));
  }
  for (int d = 0; d < g->dim; d++) {
    if (ijk[d] == 0 || ijk[d] == g->n[d] - 1) {
      diag += boundary_diag(dd, u, q, ijk, d);
    }
  }
  if (dd->sp) {
    diag += dd->sp[q];
  }
  vals[dpos] = diag;
  return pos;
}

/* Columns of the interior nodes [i0, i1) of an interior line from `base`:
 * every neighbour present, full volumes; pattern order -z, -y, -x, diag, +x, +y, +z. */
static int64_t jac_interior(const diff_data *dd, const double *u, int64_t base, int64_t i0,
                            int64_t i1, double *vals, int64_t pos)
{
  const sk__grid *g = &dd->g;
  const int dim = g->dim, width = 2 * dim + 1;
  const double *kn = dd->kn, *kp = dd->kp;
  double ihh[3];
  for (int d = 0; d < 3; d++) {
    ihh[d] = 1.0 / g->hh[d];
  }
  for (int64_t q = base + i0; q < base + i1; q++, pos += width) {
    const double uq = u[q], kq = kn[q], kpq = kp[q];
    double diag = dd->sp ? dd->sp[q] : 0.0;
    for (int d = 0; d < dim; d++) {
      const int64_t m = q - g->stride[d], p = q + g->stride[d];
      vals[pos + dim - 1 - d] = sk__diffusion_jac_nb(u[m], kn[m], uq, kq, kpq) * ihh[d];
      vals[pos + dim + 1 + d] = sk__diffusion_jac_nb(u[p], kn[p], uq, kq, kpq) * ihh[d];
      diag += sk__diffusion_jac_self(uq, kq, kpq, u[m], kn[m]) * ihh[d] +
              sk__diffusion_jac_self(uq, kq, kpq, u[p], kn[p]) * ihh[d];
    }
    vals[pos + dim] = diag;
  }
  return pos;
}

static int diffusion_jac(double t, const double *u, const double *fy, double *vals,
                         void *user_data)
{
  diff_data *dd = user_data;
  const sk__grid *g = &dd->g;
  (void)fy;
  update_faces(dd, t);
  nodal_coeffs(dd, t, u);
  /* column q involves the volumes of its neighbours too: the interior range
   * [lo_d, hi_d) along d keeps one node away from a half-volume boundary node */
  int64_t lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = d < g->dim ? (g->dirichlet[d][0] ? 1 : 2) : 0;
    hi[d] = d < g->dim ? g->n[d] - (g->dirichlet[d][1] ? 1 : 2) : 1;
  }
  const int64_t n0 = g->n[0], n1 = g->n[1], nlines = g->n[1] * g->n[2];
  SK__OMP(parallel for if(parallel: sk__threaded(g->total)) schedule(static))
  for (int64_t line = 0; line < nlines; line++) {
    const int64_t k1 = line % n1, k2 = line / n1, base = n0 * line;
    const int line_in = k1 >= lo[1] && k1 < hi[1] && k2 >= lo[2] && k2 < hi[2] && hi[0] > lo[0];
    const int64_t i0 = line_in ? lo[0] : n0, i1 = line_in ? hi[0] : n0;
    int64_t ijk[3] = {0, k1, k2};
    int64_t pos = dd->linepos[line];
    for (int64_t i = 0; i < i0; i++) {
      ijk[0] = i;
      pos = jac_node(dd, u, base + i, ijk, vals, pos);
    }
    if (line_in) {
      pos = jac_interior(dd, u, base, i0, i1, vals, pos);
    }
    for (int64_t i = i1; i < n0; i++) {
      ijk[0] = i;
      pos = jac_node(dd, u, base + i, ijk, vals, pos);
    }
  }
  return 0;
}

/* ---- ADI preconditioner rows ------------------------------------------------ */

/* Row of J_d at idx (position p on `line`), from the setup state adi_u. */
static void adi_row(int d, int64_t idx, int64_t p, int64_t line, double *a, double *b, double *c,
                    void *data)
{
  const diff_data *dd = data;
  const sk__grid *g = &dd->g;
  const double *u = dd->adi_u;
  const int64_t s = g->stride[d];
  const double cc = 1.0 / (g->hh[d] * sk__grid_weight(g, d, p));
  /* constant k: the values nodal_coeffs would store (k0, and 0 for dk/du), read without the
     two state-sized arrays, which a run with this preconditioner alone then never touches */
  const int ck = dd->const_k;
  const double k0 = dd->p.k0;
#define SK__KN(i) (ck ? k0 : dd->kn[i])
#define SK__KP(i) (ck ? 0.0 : dd->kp[i])
  double diag = 0.0;
  for (int side = 0; side < 2; side++) {
    const int interior = side ? (p < g->n[d] - 1) : (p > 0);
    if (interior) {
      const int64_t j = side ? idx + s : idx - s;
      const double off =
          cc * sk__diffusion_jac_nb(u[idx], SK__KN(idx), u[j], SK__KN(j), SK__KP(j));
      if (side) {
        *c = off;
      } else {
        *a = off;
      }
      diag += cc * sk__diffusion_jac_self(u[idx], SK__KN(idx), SK__KP(idx), u[j], SK__KN(j));
      continue;
    }
    const sk_bc *bc = &dd->p.bc[d][side];
    const face_data *fd = &dd->face[d][side];
    if (bc->type == SK_BC_DIRICHLET) {
      diag += cc * sk__diffusion_jac_self(u[idx], SK__KN(idx), SK__KP(idx), fd->val[line],
                                          fd->kb[line]);
    } else if (bc->type == SK_BC_ROBIN) {
      diag += sk__diffusion_jac_robin(bc, g->h[d], sk__grid_weight(g, d, p));
    }
  }
  if (d == 0 && dd->sp) {
    diag += dd->sp[idx];
  }
  *b = diag;
#undef SK__KN
#undef SK__KP
}

static int diffusion_prec_setup(double t, const double *y, double gamma, int jac_current,
                                void *user_data)
{
  diff_data *dd = user_data;
  (void)jac_current;
  if (!dd->adi) {
    /* constant k and no u-dependent source: every line of a direction is alike */
    if (sk__adi_create(dd->ctx, &dd->g, dd->const_k, dd->const_k && !dd->sp, &dd->adi) != SK_OK) {
      return -1;
    }
  }
  update_faces(dd, t);
  if (!dd->const_k || dd->sp) { /* constant k: adi_row reads k0 itself (no nodal arrays) */
    nodal_coeffs(dd, t, y);
  }
  dd->adi_u = y;
  const int rc = sk__adi_setup(dd->adi, gamma, adi_row, dd);
  dd->adi_u = NULL;
  return rc;
}

static int diffusion_prec_solve(double t, const double *y, const double *r, double *z,
                                double gamma, void *user_data)
{
  diff_data *dd = user_data;
  (void)t;
  (void)y;
  (void)gamma;
  if (!dd->adi) {
    return -1;
  }
  sk__adi_solve(dd->adi, r, z);
  return 0;
}

/* ---- exact solution, initial state, names --------------------------------- */

static int diffusion_exact(double t, double *y, void *user_data)
{
  const diff_data *dd = user_data;
  const sk__grid *g = &dd->g;
  const double amp = dd->mms ? exp(-t) : dd->p.amplitude * exp(dd->lambda * t);
  const double off = dd->mms ? dd->p.offset : 0.0;
  int64_t idx = 0;
  for (int64_t k2 = 0; k2 < g->n[2]; k2++) {
    for (int64_t k1 = 0; k1 < g->n[1]; k1++) {
      const double a12 = amp * dd->phi[1][k1] * dd->phi[2][k2];
      for (int64_t i = 0; i < g->n[0]; i++, idx++) {
        y[idx] = a12 * dd->phi[0][i] + off;
      }
    }
  }
  return 0;
}

/* The initial-state formula at every node into y0 (NULL: only check that it is finite). */
static sk_status ic_formula_fill(diff_data *dd, double *y0)
{
  for (int64_t i = 0; i < dd->g.total; i++) {
    double x[3];
    sk__grid_coords(&dd->g, i, x);
    const double u = sk__diffusion_ic_value(dd->ic, &dd->p, x);
    if (!isfinite(u)) {
      char node[64];
      sk__grid_node_name(&dd->g, "u", i, node, sizeof node);
      return sk__diffusion_ic_nonfinite(dd->ic, x, node, u);
    }
    if (y0) {
      y0[i] = u;
    }
  }
  return SK_OK;
}

static int diffusion_initial(double t0, double *y0, void *user_data)
{
  diff_data *dd = user_data;
  if (dd->p.ic == SK_DIFFUSION_IC_EXACT) {
    return diffusion_exact(t0, y0, user_data);
  }
  if (dd->p.ic == SK_DIFFUSION_IC_FORMULA) {
    return ic_formula_fill(dd, y0) == SK_OK ? 0 : -1;
  }
  for (int64_t i = 0; i < dd->g.total; i++) {
    y0[i] = dd->p.ic_value;
  }
  return 0;
}

static void diffusion_name(int64_t i, char *buf, size_t len, void *user_data)
{
  const diff_data *dd = user_data;
  sk__grid_node_name(&dd->g, "u", i, buf, len);
}

static void diff_data_free(void *user_data)
{
  diff_data *dd = user_data;
  if (!dd) {
    return;
  }
  sk_context *ctx = dd->ctx;
  for (int d = 0; d < 3; d++) {
    sk__free(ctx, dd->face[d][0].val);
    sk__free(ctx, dd->face[d][0].kb);
    sk__free(ctx, dd->face[d][1].val);
    sk__free(ctx, dd->face[d][1].kb);
    sk__free(ctx, dd->xc[d]);
    sk__free(ctx, dd->phi[d]);
    sk__free(ctx, dd->cosv[d]);
    sk__free(ctx, dd->kg[d]);
  }
  sk__free(ctx, dd->kn);
  sk__free(ctx, dd->kp);
  sk__free(ctx, dd->sp);
  sk__free(ctx, dd->linepos);
  sk__adi_destroy(&dd->adi);
  sk__diffusion_ic_destroy(&dd->ic);
  sk__free(ctx, dd);
}

/* ---- parameters ------------------------------------------------------------ */

void sk_diffusion_params_default(sk_diffusion_params *p)
{
  memset(p, 0, sizeof *p);
  p->dim = 2;
  for (int d = 0; d < 3; d++) {
    p->n[d] = 64;
    p->length[d] = 1.0;
    p->mode[d] = 1;
    for (int s = 0; s < 2; s++) {
      p->bc[d][s].type = SK_BC_DIRICHLET;
    }
  }
  p->k0 = 1.0;
  p->exact = SK_DIFFUSION_EXACT_MODE;
  p->amplitude = 1.0;
  p->ic = SK_DIFFUSION_IC_EXACT;
}

static const char *bc_type_name(sk_bc_type t)
{
  return t == SK_BC_DIRICHLET ? "dirichlet" : t == SK_BC_NEUMANN ? "neumann" : "robin";
}

/* Coefficients, BCs and the choice of exact solution (the grid is checked by sk__grid_init). */
static sk_status check_params(sk_context *ctx, const sk_diffusion_params *p)
{
  SK_CHECK(ctx, p->dim >= 1 && p->dim <= 3, SK_ERR_INPUT, "model.dim = %d: must be 1, 2 or 3",
           p->dim);
  if (!p->conductivity) {
    SK_CHECK(ctx, isfinite(p->k0) && p->k0 > 0.0, SK_ERR_INPUT, "model.k0 = %g: must be > 0",
             p->k0);
    SK_CHECK(ctx, isfinite(p->beta), SK_ERR_INPUT, "model.beta = %g: must be finite", p->beta);
  }
  for (int d = 0; d < p->dim; d++) {
    SK_CHECK(ctx, isfinite(p->kgrad[d]), SK_ERR_INPUT, "model.kgrad[%d] = %g: must be finite", d,
             p->kgrad[d]);
    for (int s = 0; s < 2; s++) {
      const sk_bc *bc = &p->bc[d][s];
      const char ax = axis_chars[d];
      SK_CHECK(ctx,
               bc->type == SK_BC_DIRICHLET || bc->type == SK_BC_NEUMANN ||
                   bc->type == SK_BC_ROBIN,
               SK_ERR_INPUT, "model.bc.%c%d.type = %d: must be dirichlet, neumann or robin", ax,
               s, (int)bc->type);
      SK_CHECK(ctx, isfinite(bc->value), SK_ERR_INPUT, "model.bc.%c%d.value = %g: must be finite",
               ax, s, bc->value);
      SK_CHECK(ctx, isfinite(bc->coeff) && bc->coeff >= 0.0, SK_ERR_INPUT,
               "model.bc.%c%d.coeff = %g: must be >= 0", ax, s, bc->coeff);
    }
  }
  SK_CHECK(ctx, isfinite(p->amplitude), SK_ERR_INPUT, "model.amplitude = %g: must be finite",
           p->amplitude);
  SK_CHECK(ctx, isfinite(p->offset), SK_ERR_INPUT, "model.offset = %g: must be finite",
           p->offset);
  SK_CHECK(ctx, isfinite(p->ic_value), SK_ERR_INPUT, "model.ic_value = %g: must be finite",
           p->ic_value);
  SK_CHECK(ctx, isfinite(p->source_const), SK_ERR_INPUT, "model.source = %g: must be finite",
           p->source_const);
  SK_CHECK(ctx,
           p->exact == SK_DIFFUSION_EXACT_NONE || p->exact == SK_DIFFUSION_EXACT_MODE ||
               p->exact == SK_DIFFUSION_EXACT_MANUFACTURED,
           SK_ERR_INPUT, "model.exact = %d: must be none, mode or manufactured", (int)p->exact);
  SK_CHECK(ctx,
           p->ic == SK_DIFFUSION_IC_EXACT || p->ic == SK_DIFFUSION_IC_CONSTANT ||
               p->ic == SK_DIFFUSION_IC_FORMULA,
           SK_ERR_INPUT, "model.ic = %d: must be exact, constant or formula", (int)p->ic);
  SK_CHECK(ctx, p->ic != SK_DIFFUSION_IC_EXACT || p->exact != SK_DIFFUSION_EXACT_NONE,
           SK_ERR_INPUT, "model.ic: 'exact' needs an exact solution (model.exact = none)");
  return SK_OK;
}

/* The requirements of the separable mode solution. */
static sk_status check_mode(sk_context *ctx, const sk_diffusion_params *p)
{
  SK_CHECK(ctx, !p->conductivity, SK_ERR_INPUT,
           "model.exact: 'mode' needs constant conductivity (a conductivity function is set)");
  SK_CHECK(ctx, p->beta == 0.0, SK_ERR_INPUT,
           "model.exact: 'mode' needs constant conductivity (model.beta = %g)", p->beta);
  for (int d = 0; d < p->dim; d++) {
    SK_CHECK(ctx, p->kgrad[d] == 0.0, SK_ERR_INPUT,
             "model.exact: 'mode' needs constant conductivity (model.kgrad[%d] = %g)", d,
             p->kgrad[d]);
  }
  SK_CHECK(ctx, !p->source, SK_ERR_INPUT,
           "model.exact: 'mode' needs no source (a source function is set)");
  SK_CHECK(ctx, p->source_const == 0.0, SK_ERR_INPUT,
           "model.exact: 'mode' needs no source (model.source = %g)", p->source_const);
  for (int d = 0; d < p->dim; d++) {
    const sk_bc *lo = &p->bc[d][0], *hi = &p->bc[d][1];
    const char ax = axis_chars[d];
    SK_CHECK(ctx, lo->type == hi->type && lo->type != SK_BC_ROBIN, SK_ERR_INPUT,
             "model.exact: 'mode' needs homogeneous Dirichlet or homogeneous Neumann on both "
             "sides of %c (model.bc.%c0.type = %s, model.bc.%c1.type = %s)",
             ax, ax, bc_type_name(lo->type), ax, bc_type_name(hi->type));
    for (int s = 0; s < 2; s++) {
      SK_CHECK(ctx, p->bc[d][s].value == 0.0, SK_ERR_INPUT,
               "model.exact: 'mode' needs homogeneous boundary data (model.bc.%c%d.value = %g)",
               ax, s, p->bc[d][s].value);
    }
    const int minmode = lo->type == SK_BC_DIRICHLET ? 1 : 0;
    SK_CHECK(ctx, p->mode[d] >= minmode, SK_ERR_INPUT,
             "model.mode[%d] = %d: must be >= %d on a %s direction", d, p->mode[d], minmode,
             bc_type_name(lo->type));
  }
  return SK_OK;
}

static sk_status check_manufactured(sk_context *ctx, const sk_diffusion_params *p)
{
  SK_CHECK(ctx, !p->conductivity, SK_ERR_INPUT,
           "model.exact: 'manufactured' needs the built-in conductivity k0 (1 + beta u)"
           "(1 + kgrad.x/L) (a conductivity function is set)");
  for (int d = 0; d < p->dim; d++) {
    for (int s = 0; s < 2; s++) {
      const sk_bc *bc = &p->bc[d][s];
      SK_CHECK(ctx, bc->type != SK_BC_ROBIN || bc->coeff > 0.0, SK_ERR_INPUT,
               "model.bc.%c%d.coeff = %g: a Robin side needs coeff > 0 with model.exact = "
               "manufactured",
               axis_chars[d], s, bc->coeff);
    }
  }
  return SK_OK;
}

/* ---- construction ----------------------------------------------------------- */

/* Per-direction tables: coordinates, and phi/cos for the exact solutions. */
static sk_status fill_tables(diff_data *dd)
{
  const sk__grid *g = &dd->g;
  sk_context *ctx = dd->ctx;
  for (int d = 0; d < 3; d++) {
    const int64_t n = g->n[d];
    dd->xc[d] = sk__malloc(ctx, (size_t)n * sizeof(double));
    dd->phi[d] = sk__malloc(ctx, (size_t)n * sizeof(double));
    dd->cosv[d] = sk__malloc(ctx, (size_t)n * sizeof(double));
    dd->kg[d] = sk__malloc(ctx, (size_t)n * sizeof(double));
    SK_CHECK(ctx, dd->xc[d] && dd->phi[d] && dd->cosv[d] && dd->kg[d], SK_ERR_NOMEM,
             "cannot allocate the grid tables");
    for (int64_t i = 0; i < n; i++) {
      dd->xc[d][i] = sk__grid_coord(g, d, i);
      dd->kg[d][i] = d < g->dim ? dd->p.kgrad[d] * dd->xc[d][i] / dd->p.length[d] : 0.0;
      dd->phi[d][i] = 1.0;
      dd->cosv[d][i] = 0.0;
      if (d >= g->dim) {
        continue;
      }
      if (dd->mms) {
        sk__diffusion_mms_sc(g, d, i, &dd->phi[d][i], &dd->cosv[d][i]);
      } else if (dd->p.exact == SK_DIFFUSION_EXACT_MODE) {
        dd->phi[d][i] = sk__diffusion_mode_phi(g, &dd->p, d, i);
      }
    }
  }
  return SK_OK;
}

static sk_status alloc_data(diff_data *dd)
{
  const sk__grid *g = &dd->g;
  sk_context *ctx = dd->ctx;
  for (int d = 0; d < g->dim; d++) {
    const size_t fs = (size_t)sk__grid_face_size(g, d) * sizeof(double);
    for (int s = 0; s < 2; s++) {
      dd->face[d][s].val = sk__calloc(ctx, 1, fs);
      dd->face[d][s].kb = sk__calloc(ctx, 1, fs);
      SK_CHECK(ctx, dd->face[d][s].val && dd->face[d][s].kb, SK_ERR_NOMEM,
               "cannot allocate the boundary data");
    }
  }
  const size_t nb = (size_t)g->total * sizeof(double);
  dd->kn = sk__malloc(ctx, nb);
  dd->kp = sk__malloc(ctx, nb);
  SK_CHECK(ctx, dd->kn && dd->kp, SK_ERR_NOMEM, "cannot allocate the conductivity scratch");
  if (dd->p.source) {
    dd->sp = sk__malloc(ctx, nb);
    SK_CHECK(ctx, dd->sp != NULL, SK_ERR_NOMEM, "cannot allocate the source scratch");
  }
  SK_CALL(ctx, fill_tables(dd));
  return SK_OK;
}

/* ---- parameters (forward sensitivities) ------------------------------------ */

/* k = k0 everywhere: no conductivity function, no u or x dependence. */
static int is_const_k(const sk_diffusion_params *p)
{
  return !p->conductivity && p->beta == 0.0 && p->kgrad[0] == 0.0 && p->kgrad[1] == 0.0 &&
         p->kgrad[2] == 0.0;
}

/* sk_param_changed_fn: a parameter in dd->p changed: recompute what depends on it (the
 * constant-k fast path and its nodal values, kgrad x/L, the mode's decay rate, the
 * boundary data, the ADI factors' shape). */
static int diffusion_param_changed(int k, void *user_data)
{
  (void)k;
  diff_data *dd = user_data;
  const int const_k = is_const_k(&dd->p);
  if (const_k != dd->const_k) {
    sk__adi_destroy(&dd->adi); /* built for uniform lines or not: again at the next setup */
  }
  dd->const_k = const_k;
  dd->const_filled = 0;
  dd->has_source = dd->p.source != NULL || dd->p.source_const != 0.0 || dd->mms;
  for (int d = 0; d < dd->g.dim; d++) {
    for (int64_t i = 0; i < dd->g.n[d]; i++) {
      dd->kg[d][i] = dd->p.kgrad[d] * dd->xc[d][i] / dd->p.length[d];
    }
  }
  if (dd->p.exact == SK_DIFFUSION_EXACT_MODE) {
    dd->lambda = sk__diffusion_mode_lambda(&dd->g, &dd->p);
  }
  if (dd->mms) {
    dd->face_time = NAN; /* refilled at the next evaluation's time */
  } else {
    fill_faces(dd, 0.0);
  }
  return 0;
}

/* Declare k0, beta, kgrad.<axis>, source and bc.<side>.value / .coeff (Robin). */
static sk_status declare_params(sk_model *m, diff_data *dd)
{
  static const char *const sides[3][2] = {{"x0", "x1"}, {"y0", "y1"}, {"z0", "z1"}};
  sk_context *ctx = dd->ctx;
  SK_CALL(ctx, sk_model_add_param(m, "k0", &dd->p.k0));
  SK_CALL(ctx, sk_model_add_param(m, "beta", &dd->p.beta));
  char name[32];
  for (int d = 0; d < dd->g.dim; d++) {
    snprintf(name, sizeof name, "kgrad.%c", axis_chars[d]);
    SK_CALL(ctx, sk_model_add_param(m, name, &dd->p.kgrad[d]));
  }
  SK_CALL(ctx, sk_model_add_param(m, "source", &dd->p.source_const));
  for (int d = 0; d < dd->g.dim; d++) {
    for (int s = 0; s < 2; s++) {
      snprintf(name, sizeof name, "bc.%s.value", sides[d][s]);
      SK_CALL(ctx, sk_model_add_param(m, name, &dd->p.bc[d][s].value));
      if (dd->p.bc[d][s].type == SK_BC_ROBIN) {
        snprintf(name, sizeof name, "bc.%s.coeff", sides[d][s]);
        SK_CALL(ctx, sk_model_add_param(m, name, &dd->p.bc[d][s].coeff));
      }
    }
  }
  return sk_model_set_param_changed(m, diffusion_param_changed);
}

double sk__diffusion_mode_phi(const sk__grid *g, const sk_diffusion_params *p, int d, int64_t i)
{
  const double frac = (double)(i + g->off[d]) / (double)g->ncells[d]; /* x / L */
  const double arg = (double)p->mode[d] * SK_PI * frac;
  return g->dirichlet[d][0] ? sin(arg) : cos(arg);
}

/* Continuous or semi-discrete decay rate of the mode solution. */
double sk__diffusion_mode_lambda(const sk__grid *g, const sk_diffusion_params *p)
{
  double lam = 0.0;
  for (int d = 0; d < g->dim; d++) {
    const double m = (double)p->mode[d];
    if (p->exact_semidiscrete) {
      const double sn = sin(m * SK_PI / (2.0 * (double)g->ncells[d]));
      lam += 4.0 / g->hh[d] * sn * sn;
    } else {
      const double a = m * SK_PI / g->length[d];
      lam += a * a;
    }
  }
  return -p->k0 * lam;
}

sk_status sk__diffusion_validate(sk_context *ctx, const sk_diffusion_params *p, sk__grid *g)
{
  SK_CALL(ctx, check_params(ctx, p));
  int dirichlet[6];
  for (int d = 0; d < 3; d++) {
    for (int s = 0; s < 2; s++) {
      dirichlet[2 * d + s] = d < p->dim && p->bc[d][s].type == SK_BC_DIRICHLET;
    }
  }
  SK_CALL(ctx, sk__grid_init(ctx, g, p->dim, p->n, p->length, dirichlet, 1));
  if (p->exact == SK_DIFFUSION_EXACT_MODE) {
    SK_CALL(ctx, check_mode(ctx, p));
  } else if (p->exact == SK_DIFFUSION_EXACT_MANUFACTURED) {
    SK_CALL(ctx, check_manufactured(ctx, p));
  }
  return SK_OK;
}

sk_status sk_diffusion_create(sk_context *ctx, const sk_diffusion_params *p, sk_model **model)
{
  SK_CHECK(ctx, model != NULL && p != NULL, SK_ERR_ARG, "sk_diffusion_create: NULL argument");
  *model = NULL;
  sk__grid g;
  SK_CALL(ctx, sk__diffusion_validate(ctx, p, &g));
  sk_diffusion_params used = *p; /* the directions beyond dim have no gradient */
  for (int d = p->dim; d < 3; d++) {
    used.kgrad[d] = 0.0;
  }
  const int const_k = is_const_k(&used);
  /* model pattern copy + transient copy + values, k/dk scratch, ADI factors */
  const double stencil = 2.0 * p->dim + 1.0;
  const double per_node = 2.0 * 8.0 * (stencil + 1.0) + 8.0 * stencil + 16.0 +
                          (p->source ? 8.0 : 0.0) + 8.0 * p->dim * (const_k ? 2.0 : 3.0);
  SK_CALL(ctx, sk__grid_check_memory(ctx, &g, per_node));

  diff_data *dd = sk__calloc(ctx, 1, sizeof *dd);
  SK_CHECK(ctx, dd != NULL, SK_ERR_NOMEM, "cannot allocate the diffusion model");
  dd->ctx = ctx;
  dd->g = g;
  dd->p = *p;
  for (int d = p->dim; d < 3; d++) {
    dd->p.kgrad[d] = 0.0;
  }
  dd->const_k = const_k;
  dd->mms = p->exact == SK_DIFFUSION_EXACT_MANUFACTURED;
  dd->has_source = p->source != NULL || p->source_const != 0.0 || dd->mms;
  dd->face_time = NAN;
  dd->par_ok = !p->source && !p->conductivity;
  dd->linepos = sk__malloc(ctx, ((size_t)(g.n[1] * g.n[2]) + 1) * sizeof *dd->linepos);
  sk_status st = dd->linepos ? alloc_data(dd)
                             : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the line table");
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    diff_data_free(dd);
    return st;
  }
  if (p->exact == SK_DIFFUSION_EXACT_MODE) {
    dd->lambda = sk__diffusion_mode_lambda(&dd->g, &dd->p);
  }
  fill_faces(dd, 0.0);
  dd->p.ic_formula = NULL; /* the caller's text: the compiled copy is dd->ic */
  if (p->ic == SK_DIFFUSION_IC_FORMULA) {
    st = sk__diffusion_ic_create(ctx, p, &dd->ic);
    st = st == SK_OK ? ic_formula_fill(dd, NULL) : st; /* a NaN is bad input, found now */
    if (st != SK_OK) {
      sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
      diff_data_free(dd);
      return st;
    }
  }

  sk_model *m = NULL;
  st = sk__grid_model_create(ctx, &g, 1, dd, diff_data_free, &m);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  /* where each x-line's columns start in the pattern (lines run in parallel); the pattern
     itself is built only when a run needs it */
  sk__grid_line_starts(&g, 1, dd->linepos);
  char name[32];
  snprintf(name, sizeof name, "diffusion-%dd", p->dim);
  sk_model_set_name(m, name);
  sk_model_set_rhs(m, diffusion_rhs);
  sk_model_set_jac_values(m, diffusion_jac);
  sk_model_set_initial(m, diffusion_initial);
  if (p->exact != SK_DIFFUSION_EXACT_NONE) {
    sk_model_set_exact(m, diffusion_exact);
  }
  SK_CALL_GOTO(ctx, st,
               sk_model_set_preconditioner(m, diffusion_prec_setup, diffusion_prec_solve), fail);
  sk_model_set_component_name(m, diffusion_name);
  SK_CALL_GOTO(ctx, st, declare_params(m, dd), fail);
  *model = m;
  return SK_OK;
fail:
  sk_model_destroy(&m);
  return st;
}

sk_status sk_diffusion_node_coords(const sk_model *m, int64_t i, double x[3])
{
  if (!m || !x) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->rhs == diffusion_rhs, SK_ERR_ARG,
           "sk_diffusion_node_coords: model '%s' is not a diffusion model", m->name);
  const diff_data *dd = m->user_data;
  SK_CHECK(m->ctx, i >= 0 && i < dd->g.total, SK_ERR_ARG,
           "sk_diffusion_node_coords: unknown %lld out of range [0, %lld)", (long long)i,
           (long long)dd->g.total);
  sk__grid_coords(&dd->g, i, x);
  return SK_OK;
}
