/* stiffkit/diffusion.h: u_t = div(k grad u) + s on 1D/2D/3D structured grids (vertex-centred finite volumes) */
#ifndef STIFFKIT_DIFFUSION_H
#define STIFFKIT_DIFFUSION_H

#include <stdint.h>

#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Boundary condition on one side, with n the outward normal:
 *   DIRICHLET  u = value
 *   NEUMANN    heat flux into the domain  k du/dn = value
 *   ROBIN      convection  k du/dn = coeff * (value - u)  (value = ambient)
 * Dirichlet sides carry no unknowns; Neumann/Robin sides carry a node on the
 * boundary with a half control volume. */
typedef enum { SK_BC_DIRICHLET = 0, SK_BC_NEUMANN = 1, SK_BC_ROBIN = 2 } sk_bc_type;

typedef struct {
  sk_bc_type type;
  double value;
  double coeff;
} sk_bc;

/* k(x, u) and dk/du; s(x, t, u) and ds/du. x has `dim` coordinates. */
typedef double (*sk_conductivity_fn)(const double *x, double u, double *dk_du, void *user_data);
typedef double (*sk_source_fn)(const double *x, double t, double u, double *ds_du,
                               void *user_data);

typedef enum {
  SK_DIFFUSION_IC_EXACT = 0, /* the exact solution at t0 (sine/cosine mode or manufactured) */
  SK_DIFFUSION_IC_CONSTANT = 1,
  SK_DIFFUSION_IC_FORMULA = 2 /* ic_formula evaluated at every node */
} sk_diffusion_ic;

typedef enum {
  SK_DIFFUSION_EXACT_NONE = 0,
  SK_DIFFUSION_EXACT_MODE =
      1, /* separable sine (Dirichlet) / cosine (Neumann) mode, k constant, s = 0 */
  SK_DIFFUSION_EXACT_MANUFACTURED = 2 /* u = e^{-t} prod sin(pi x_d / L_d) + u_off, s computed;
                                         any BCs (data follow u), default k form only */
} sk_diffusion_exact;

typedef struct {
  int dim;          /* 1, 2 or 3 */
  int64_t n[3];     /* unknown nodes per direction */
  double length[3]; /* domain [0, L_d] */
  sk_bc bc[3][2];   /* [direction][0: low side, 1: high side] */
  double k0; /* k = k0 (1 + beta u) (1 + sum_d kgrad_d x_d / L_d) unless conductivity set */
  double beta;
  double kgrad[3];
  sk_conductivity_fn conductivity; /* optional: overrides k0/beta/kgrad */
  sk_source_fn source;             /* optional extra source */
  void *user_data;                 /* for conductivity/source */
  sk_diffusion_exact exact;
  int mode[3];      /* mode numbers for SK_DIFFUSION_EXACT_MODE (>= 1 Dirichlet, >= 0 Neumann) */
  double amplitude; /* of the exact mode */
  double offset;    /* u_off of the manufactured solution */
  sk_diffusion_ic ic;
  double ic_value;        /* for SK_DIFFUSION_IC_CONSTANT */
  const char *ic_formula; /* for SK_DIFFUSION_IC_FORMULA: a muparser expression in x, y, z (the
                             node, 0 beyond dim), Lx, Ly, Lz, k0, beta, source and pi; read by
                             sk_diffusion_create, which keeps its own copy */
  char ic_formula_where[320]; /* prefix of the formula's messages (file:line:col: key); "" =
                                 `model.ic_formula` */
  int exact_semidiscrete; /* 1: the mode solution uses the discrete eigenvalue (no space error) */
  double source_const;    /* constant extra source added everywhere (model.source) */
} sk_diffusion_params;

/* sk_diffusion_params_default: 2D unit square, 64x64 unknowns, homogeneous
 * Dirichlet, k = 1, exact sine mode (1,1), amplitude 1, IC = exact. */
void sk_diffusion_params_default(sk_diffusion_params *p);

/* sk_diffusion_create: build the model (RHS, CSC Jacobian pattern and
 * values, exact solution, initial state, ADI line-tridiagonal
 * preconditioner). Errors: SK_ERR_INPUT (bad dimension, size, length, BC,
 * an exact solution that does not fit the BCs/coefficients: message says
 * which field), SK_ERR_TOO_LARGE (state count or memory estimate over the
 * limits), SK_ERR_NOMEM. */
sk_status sk_diffusion_create(sk_context *ctx, const sk_diffusion_params *p, sk_model **model);

/* sk_grid_options: the model.* keys shared by every grid model (model.dim,
 * model.n, model.length); sk_model_register_options (stiffkit/model_type.h)
 * registers them with every model type's keys, and sk_model_from_options
 * builds a diffusion or brusselator model from them. `n` (may be NULL)
 * receives the entry count. */
const sk_option_spec *sk_grid_options(size_t *n);

/* sk_diffusion_options: the model.* keys of the diffusion family. */
const sk_option_spec *sk_diffusion_options(size_t *n);

/* sk_diffusion_params_from_options: fill p from the model.* keys. */
sk_status sk_diffusion_params_from_options(sk_context *ctx, const sk_options *opts,
                                           sk_diffusion_params *p);

/* sk_diffusion_node_coords: coordinates of unknown i of a diffusion model
 * (0 beyond dim). Errors: SK_ERR_ARG when m is not a diffusion model or i
 * is out of range. */
sk_status sk_diffusion_node_coords(const sk_model *m, int64_t i, double x[3]);

/* Brusselator (2D, two species, zero-flux boundaries, interleaved u,v):
 *   u_t = a - (b + 1) u + u^2 v + alpha lap u
 *   v_t = b u - u^2 v + alpha lap v
 * on [0, L]^2 with n x n vertex-centred nodes. */
typedef struct {
  int64_t n;
  double length;
  double a, b, alpha;
  double perturbation; /* amplitude of the smooth initial perturbation */
} sk_brusselator_params;

void sk_brusselator_params_default(sk_brusselator_params *p);
sk_status sk_brusselator_create(sk_context *ctx, const sk_brusselator_params *p,
                                sk_model **model);
const sk_option_spec *sk_brusselator_options(size_t *n);
sk_status sk_brusselator_params_from_options(sk_context *ctx, const sk_options *opts,
                                             sk_brusselator_params *p);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
