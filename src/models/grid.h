/* src/models/grid.h: structured vertex-centred grids shared by the grid models (index maps, spacing, coordinates, CSC stencil patterns) */
#ifndef SK_MODELS_GRID_H
#define SK_MODELS_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"

/* Limits shared by every grid model. */
#define SK__GRID_MAX_STATES 2147483648.0        /* 2^31 */
#define SK__GRID_MAX_BYTES (8.0 * 1073741824.0) /* 8 GiB */

/* A vertex-centred grid on [0,L_0] x .. x [0,L_{dim-1}].
 * Per direction d: N_d = n_d - 1 + D_d intervals of width h_d = L_d / N_d,
 * D_d = number of Dirichlet sides (they carry no unknown), unknown i_d sits
 * at x = (i_d + off_d) h_d with off_d = 1 when the low side is Dirichlet.
 * Unknowns are ordered x fastest: idx = i + n0 (j + n1 k). Directions
 * beyond dim have n = 1, stride = total, no sides. */
typedef struct {
  int dim;
  int64_t n[3];
  double length[3];
  int dirichlet[3][2]; /* [d][0: low, 1: high] = 1 when the side carries no unknown */
  int64_t ncells[3];   /* N_d */
  int64_t off[3];
  double h[3];
  double hh[3];      /* h_d * h_d */
  int64_t stride[3]; /* 1, n0, n0 n1 */
  int64_t total;     /* n0 n1 n2 */
} sk__grid;

/* One stencil neighbour of a node: the unknown `idx`, its direction
 * `dir` (-1 for the node itself) and `side` (0: lower, 1: upper). */
typedef struct {
  int64_t idx;
  int dir;
  int side;
} sk__grid_nb;

/* sk__grid_init: validate and fill g. `ncomp` states per node (for the
 * limit check only). dirichlet[2 d + s] = 1 when side s (0 low, 1 high) of
 * direction d carries no unknown.
 * Errors (messages name model.dim / model.n / model.length):
 * SK_ERR_INPUT for dim outside 1..3, n_d < 1, n_d < 2 with no Dirichlet
 * side, a non-positive or non-finite length; SK_ERR_TOO_LARGE when the
 * state count exceeds 2^31. */
sk_status sk__grid_init(sk_context *ctx, sk__grid *g, int dim, const int64_t n[3],
                        const double length[3], const int dirichlet[6], int ncomp);

/* sk__grid_check_memory: SK_ERR_TOO_LARGE (naming model.n) when
 * bytes_per_node * nodes exceeds 8 GiB, else SK_OK. */
sk_status sk__grid_check_memory(sk_context *ctx, const sk__grid *g, double bytes_per_node);

/* sk__grid_split: ijk[d] of unknown idx (0 beyond dim). */
void sk__grid_split(const sk__grid *g, int64_t idx, int64_t ijk[3]);

/* sk__grid_coord: coordinate of unknown position i along d (exactly 0 or
 * L_d on a boundary). */
double sk__grid_coord(const sk__grid *g, int d, int64_t i);

/* sk__grid_coords: x[0..2] of unknown idx (0 beyond dim). */
void sk__grid_coords(const sk__grid *g, int64_t idx, double x[3]);

/* sk__grid_weight: 1/2 when position i along d is a node on a
 * Neumann/Robin boundary (half control volume), else 1. */
double sk__grid_weight(const sk__grid *g, int d, int64_t i);

/* sk__grid_face_size / sk__grid_face_index: the boundary faces normal to d
 * are indexed by the other coordinates in order (lower direction fastest). */
int64_t sk__grid_face_size(const sk__grid *g, int d);
int64_t sk__grid_face_index(const sk__grid *g, int d, const int64_t ijk[3]);

/* sk__grid_neighbors: the stencil of unknown idx (ijk its indices) in
 * increasing index order (-z, -y, -x, self, +x, +y, +z; absent ones
 * skipped). Writes at most 7 entries to nb, returns the count. */
int sk__grid_neighbors(const sk__grid *g, int64_t idx, const int64_t ijk[3], sk__grid_nb nb[7]);

/* sk__grid_line_starts: where each x-line's columns start in the pattern
 * of sk__grid_pattern (starts[line] = colptr[n0 ncomp line], for the
 * n1 n2 + 1 lines and the end), computed without building it. */
void sk__grid_line_starts(const sk__grid *g, int ncomp, int64_t *starts);

/* sk__grid_pattern: CSC pattern of the nearest-neighbour stencil for
 * `ncomp` interleaved components per node (state = node*ncomp + c): the
 * node's own block is dense, neighbour blocks are diagonal. Allocates
 * *colptr (states+1) and *rowind (nnz); rows strictly increase per column.
 * Errors: SK_ERR_NOMEM. */
/* sk__grid_model_create: an ODE model of ncomp * g->total states that owns
 * `data` (freed with free_fn, also on failure) and carries the stencil
 * pattern of sk__grid_pattern. Errors: as sk_model_create, sk__grid_pattern. */
sk_status sk__grid_model_create(sk_context *ctx, const sk__grid *g, int ncomp, void *data,
                                sk_free_fn free_fn, sk_model **model);

sk_status sk__grid_pattern(sk_context *ctx, const sk__grid *g, int ncomp, int64_t **colptr,
                           int64_t **rowind);

/* sk__grid_node_name: "var[i]", "var[i,j]" or "var[i,j,k]" for node idx. */
void sk__grid_node_name(const sk__grid *g, const char *var, int64_t idx, char *buf, size_t len);

/* sk__grid_check_dirs: a per-direction list option `key` with `count`
 * values on a dim-D grid must have 1 value (every direction), dim values,
 * or (allow_none) none. Otherwise SK_ERR_INPUT with a message that names
 * the key, its count, model.dim, what a dim-D grid takes, and, for more
 * values than directions, that the config was written for a count-D grid
 * (as after --set model.dim on a config for another dimension). */
sk_status sk__grid_check_dirs(sk_context *ctx, const char *key, size_t count, int dim,
                              int allow_none);

/* sk__grid_read_options: model.dim, model.n (1 value = every direction,
 * or dim values) and model.length (likewise) from opts. Directions beyond
 * dim get n = 1, L = 1. Errors: SK_ERR_INPUT naming the key. */
sk_status sk__grid_read_options(sk_context *ctx, const sk_options *opts, int *dim, int64_t n[3],
                                double length[3]);

/* ---- pieces of the grid models shared with the distributed models (src/parallel/) ---- */

/* sk__diffusion_validate (diffusion.c): the checks of sk_diffusion_create
 * (coefficients, boundary conditions, the exact solution's requirements)
 * and the grid of p into g. Errors: as sk_diffusion_create. */
sk_status sk__diffusion_validate(sk_context *ctx, const sk_diffusion_params *p, sk__grid *g);

/* sk__diffusion_mode_phi (diffusion.c): the exact mode's factor along d
 * (sin on a Dirichlet direction, cos on a Neumann one) at unknown
 * position i of grid g. */
double sk__diffusion_mode_phi(const sk__grid *g, const sk_diffusion_params *p, int d, int64_t i);

/* sk__diffusion_mode_lambda (diffusion.c): the decay rate of the exact
 * mode (the discrete eigenvalue with p->exact_semidiscrete). */
double sk__diffusion_mode_lambda(const sk__grid *g, const sk_diffusion_params *p);

/* sk__brusselator_check (brusselator.c): the checks of
 * sk_brusselator_create. Errors: SK_ERR_INPUT naming the key. */
sk_status sk__brusselator_check(sk_context *ctx, const sk_brusselator_params *p);

/* sk__brusselator_reaction: the Brusselator's reaction terms
 * ru = a - (b + 1) u + u^2 v and rv = b u - u^2 v, in the operation order
 * of the serial and the distributed right-hand sides (which add
 * alpha lap u, alpha lap v last). */
static inline void sk__brusselator_reaction(double a, double b, double u, double v, double *ru,
                                            double *rv)
{
  const double uuv = u * u * v;
  *ru = a - (b + 1.0) * u + uuv;
  *rv = b * u - uuv;
}

/* sk__brusselator_node: f = (u_t, v_t) of one node from its (u, v) at c and its four
 * neighbours' along x (e, w) and y (n, s), the missing neighbour of a boundary node being the
 * mirrored one inside (zero flux), hh = h^2: the one stencil of the serial and the distributed
 * right-hand sides (the reaction, then + alpha lap). */
static inline void sk__brusselator_node(const sk_brusselator_params *p, double hh,
                                        const double *c, const double *e, const double *w,
                                        const double *n, const double *s, double *f)
{
  const double u = c[0], v = c[1];
  const double lapu = ((e[0] - u) - (u - w[0])) / hh + ((n[0] - u) - (u - s[0])) / hh;
  const double lapv = ((e[1] - v) - (v - w[1])) / hh + ((n[1] - v) - (v - s[1])) / hh;
  double ru, rv;
  sk__brusselator_reaction(p->a, p->b, u, v, &ru, &rv);
  f[0] = ru + p->alpha * lapu;
  f[1] = rv + p->alpha * lapv;
}

/* sk__brusselator_node_jac: the node's own 2 x 2 block of J at (u, v), dlap = the diagonal of
 * alpha lap (-2 alpha / h_x^2 - 2 alpha / h_y^2): J[r][c] = d(f_r)/d(y_c), r, c in (u, v). */
static inline void sk__brusselator_node_jac(const sk_brusselator_params *p, double u, double v,
                                            double dlap, double J[2][2])
{
  J[0][0] = -(p->b + 1.0) + 2.0 * u * v + dlap;
  J[1][0] = p->b - 2.0 * u * v;
  J[0][1] = u * u;
  J[1][1] = -u * u + dlap;
}

/* sk__brusselator_perturbation (brusselator.c): the initial perturbation
 * eps cos(pi x_i / L) cos(pi y_j / L) at node (i, j). */
double sk__brusselator_perturbation(const sk_brusselator_params *p, int64_t i, int64_t j);

#endif
