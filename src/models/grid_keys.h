/* src/models/grid_keys.h: the model.* keys of the grid models (the grid, the diffusion family, the Brusselator), each written once and bound to its field */
#ifndef SK_MODELS_GRID_KEYS_H
#define SK_MODELS_GRID_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__GRID_KEYS(X)                                                                      \
  X(dim, "model.dim", SK_OPT_INT, "2", 1, 3, NULL, "space dimension of the grid (1, 2 or 3)") \
  X(n, "model.n", SK_OPT_INT_LIST, "64", 1, 1e15, NULL,                                       \
    "unknown nodes per direction: one value for every direction, or one per direction")       \
  X(length, "model.length", SK_OPT_REAL_LIST, "1.0", 0, 0, NULL,                              \
    "domain length per direction ([0, L_d]): one value for every direction, or one per "      \
    "direction")

/* The three rows of one side's boundary condition (side "x0": x = 0, "x1": x = L_x, ...). */
#define SK__BC_KEYS(X, s)                                                                \
  X(bc_##s##_type, "model.bc." #s ".type", SK_OPT_CHOICE, "dirichlet", 0, 0,             \
    "dirichlet|neumann|robin",                                                           \
    "boundary condition on side " #s " (x0: x = 0, x1: x = L_x, ...)")                   \
  X(bc_##s##_value, "model.bc." #s ".value", SK_OPT_REAL, "0", 0, 0, NULL,               \
    "side " #s ": Dirichlet value, Neumann heat flux into the domain, or Robin ambient") \
  X(bc_##s##_coeff, "model.bc." #s ".coeff", SK_OPT_REAL, "0", 0, 0, NULL,               \
    "side " #s ": Robin heat transfer coefficient c >= 0 in k du/dn = c (ambient - u)")

#define SK__DIFFUSION_KEYS(X)                                                                    \
  X(k0, "model.k0", SK_OPT_REAL, "1.0", 0, 0, NULL,                                              \
    "conductivity scale: k = k0 (1 + beta u) (1 + sum_d kgrad_d x_d / L_d), > 0")                \
  X(beta, "model.beta", SK_OPT_REAL, "0", 0, 0, NULL,                                            \
    "conductivity dependence on u (nonlinear if != 0)")                                          \
  X(kgrad, "model.kgrad", SK_OPT_REAL_LIST, "", 0, 0, NULL,                                      \
    "conductivity gradient per direction (empty = 0; one value for all, or one per "             \
    "direction)")                                                                                \
  SK__BC_KEYS(X, x0)                                                                             \
  SK__BC_KEYS(X, x1)                                                                             \
  SK__BC_KEYS(X, y0)                                                                             \
  SK__BC_KEYS(X, y1)                                                                             \
  SK__BC_KEYS(X, z0)                                                                             \
  SK__BC_KEYS(X, z1)                                                                             \
  X(exact, "model.exact", SK_OPT_CHOICE, "mode", 0, 0, "none|mode|manufactured",                 \
    "exact solution: separable sine/cosine mode (constant k, no source, homogeneous "            \
    "Dirichlet/Neumann), manufactured e^{-t} prod sin(pi x/L) + offset, or none")                \
  X(mode, "model.mode", SK_OPT_INT_LIST, "1", 0, 1e9, NULL,                                      \
    "mode numbers of the exact mode (one for all directions, or one per direction)")             \
  X(amplitude, "model.amplitude", SK_OPT_REAL, "1.0", 0, 0, NULL, "amplitude of the exact mode") \
  X(offset, "model.offset", SK_OPT_REAL, "0.0", 0, 0, NULL,                                      \
    "offset of the manufactured solution")                                                       \
  X(semidiscrete, "model.semidiscrete", SK_OPT_BOOL, "false", 0, 0, NULL,                        \
    "exact mode uses the eigenvalue of the discrete operator (no space error)")                  \
  X(ic, "model.ic", SK_OPT_CHOICE, "exact", 0, 0, "exact|constant|formula",                      \
    "initial state: the exact solution at t0, model.ic_value everywhere, or the formula "        \
    "model.ic_formula at every node")                                                            \
  X(ic_formula, "model.ic_formula", SK_OPT_STRING, "", 0, 0, NULL,                               \
    "initial state u0(x, y, z) for model.ic = formula: a muparser expression in x, y, z, Lx, "   \
    "Ly, Lz, k0, beta, source and pi (e.g. 16*x*(1-x)*y*(1-y))")                                 \
  X(ic_value, "model.ic_value", SK_OPT_REAL, "0.0", 0, 0, NULL,                                  \
    "constant initial state (model.ic = constant; model.type = linear without "                  \
    "model.initial)")                                                                            \
  X(source, "model.source", SK_OPT_REAL, "0", 0, 0, NULL, "constant source added everywhere")

#define SK__BRUSSELATOR_KEYS(X)                                                                \
  X(a, "model.brusselator.a", SK_OPT_REAL, "1.0", 0, 0, NULL, "Brusselator feed rate a (> 0)") \
  X(b, "model.brusselator.b", SK_OPT_REAL, "3.4", 0, 0, NULL,                                  \
    "Brusselator rate b (>= 0; oscillates for b > 1 + a^2)")                                   \
  X(alpha, "model.brusselator.alpha", SK_OPT_REAL, "2e-3", 0, 0, NULL,                         \
    "Brusselator diffusion coefficient alpha (>= 0)")                                          \
  X(perturbation, "model.brusselator.perturbation", SK_OPT_REAL, "0.1", 0, 0, NULL,            \
    "amplitude of the smooth initial perturbation cos(pi x/L) cos(pi y/L)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__GRID_KEYS(SK__BIND_FIELD)
} sk__grid_keys;
typedef struct {
  SK__DIFFUSION_KEYS(SK__BIND_FIELD)
} sk__diffusion_keys;
typedef struct {
  SK__BRUSSELATOR_KEYS(SK__BIND_FIELD)
} sk__brusselator_keys;

/* SK__GRID_KEY_<field>, SK__DIFFUSION_KEY_<field>, SK__BRUSSELATOR_KEY_<field>: the row's
 * index, its bit in the `given` mask */
#define SK__GRID_KEY_INDEX(f, ...) SK__GRID_KEY_##f,
#define SK__DIFFUSION_KEY_INDEX(f, ...) SK__DIFFUSION_KEY_##f,
#define SK__BRUSSELATOR_KEY_INDEX(f, ...) SK__BRUSSELATOR_KEY_##f,
enum { SK__GRID_KEYS(SK__GRID_KEY_INDEX) SK__GRID_KEY_COUNT };
enum { SK__DIFFUSION_KEYS(SK__DIFFUSION_KEY_INDEX) SK__DIFFUSION_KEY_COUNT };
enum { SK__BRUSSELATOR_KEYS(SK__BRUSSELATOR_KEY_INDEX) SK__BRUSSELATOR_KEY_COUNT };
#undef SK__GRID_KEY_INDEX
#undef SK__DIFFUSION_KEY_INDEX
#undef SK__BRUSSELATOR_KEY_INDEX

/* the rows of one side, from the side's first row (bc_x0_type + 3 (2 d + s)) */
enum { SK__BC_KEY_TYPE, SK__BC_KEY_VALUE, SK__BC_KEY_COEFF, SK__BC_KEY_ROWS };

SK__BIND_DECLARE(sk__grid, sk__grid_keys)
SK__BIND_DECLARE(sk__diffusion, sk__diffusion_keys)
SK__BIND_DECLARE(sk__brusselator, sk__brusselator_keys)

#endif
