/* src/models/diffusion_keys.c: the model.* key tables of the diffusion and Brusselator models (each key written once; the readers in diffusion_options.c take the rows) */
#include <stddef.h>

#include "models/grid.h"
#include "stiffkit/diffusion.h"

#define SK__BC_KEYS(side)                                                                      \
  {"model.bc." side ".type",                                                                   \
   SK_OPT_CHOICE,                                                                              \
   "dirichlet",                                                                                \
   0,                                                                                          \
   0,                                                                                          \
   "dirichlet|neumann|robin",                                                                  \
   "boundary condition on side " side " (x0: x = 0, x1: x = L_x, ...)"},                       \
      {"model.bc." side ".value",                                                              \
       SK_OPT_REAL,                                                                            \
       "0",                                                                                    \
       0,                                                                                      \
       0,                                                                                      \
       NULL,                                                                                   \
       "side " side ": Dirichlet value, Neumann heat flux into the domain, or Robin ambient"}, \
  {                                                                                            \
    "model.bc." side ".coeff", SK_OPT_REAL, "0", 0, 0, NULL,                                   \
        "side " side ": Robin heat transfer coefficient c >= 0 in k du/dn = c (ambient - u)"   \
  }

/* the rows of diffusion_table, in order (models/grid.h: SK__DIFFUSION_KEY_*) */
static const sk_option_spec diffusion_table[] = {
    {"model.k0", SK_OPT_REAL, "1.0", 0, 0, NULL,
     "conductivity scale: k = k0 (1 + beta u) (1 + sum_d kgrad_d x_d / L_d), > 0"},
    {"model.beta", SK_OPT_REAL, "0", 0, 0, NULL,
     "conductivity dependence on u (nonlinear if != 0)"},
    {"model.kgrad", SK_OPT_REAL_LIST, "", 0, 0, NULL,
     "conductivity gradient per direction (empty = 0; one value for all, or one per direction)"},
    SK__BC_KEYS("x0"),
    SK__BC_KEYS("x1"),
    SK__BC_KEYS("y0"),
    SK__BC_KEYS("y1"),
    SK__BC_KEYS("z0"),
    SK__BC_KEYS("z1"),
    {"model.exact", SK_OPT_CHOICE, "mode", 0, 0, "none|mode|manufactured",
     "exact solution: separable sine/cosine mode (constant k, no source, homogeneous "
     "Dirichlet/Neumann), manufactured e^{-t} prod sin(pi x/L) + offset, or none"},
    {"model.mode", SK_OPT_INT_LIST, "1", 0, 1e9, NULL,
     "mode numbers of the exact mode (one for all directions, or one per direction)"},
    {"model.amplitude", SK_OPT_REAL, "1.0", 0, 0, NULL, "amplitude of the exact mode"},
    {"model.offset", SK_OPT_REAL, "0.0", 0, 0, NULL, "offset of the manufactured solution"},
    {"model.semidiscrete", SK_OPT_BOOL, "false", 0, 0, NULL,
     "exact mode uses the eigenvalue of the discrete operator (no space error)"},
    {"model.ic", SK_OPT_CHOICE, "exact", 0, 0, "exact|constant|formula",
     "initial state: the exact solution at t0, model.ic_value everywhere, or the formula "
     "model.ic_formula at every node"},
    {"model.ic_formula", SK_OPT_STRING, "", 0, 0, NULL,
     "initial state u0(x, y, z) for model.ic = formula: a muparser expression in x, y, z, Lx, "
     "Ly, Lz, k0, beta, source and pi (e.g. 16*x*(1-x)*y*(1-y))"},
    {"model.ic_value", SK_OPT_REAL, "0.0", 0, 0, NULL,
     "constant initial state (model.ic = constant; model.type = linear without model.initial)"},
    {"model.source", SK_OPT_REAL, "0", 0, 0, NULL, "constant source added everywhere"},
};

_Static_assert(sizeof diffusion_table / sizeof diffusion_table[0] == SK__DIFFUSION_KEY_COUNT,
               "one SK__DIFFUSION_KEY_* a row");

/* the rows of brusselator_table, in order (models/grid.h: SK__BRUSSELATOR_KEY_*) */
static const sk_option_spec brusselator_table[] = {
    {"model.brusselator.a", SK_OPT_REAL, "1.0", 0, 0, NULL, "Brusselator feed rate a (> 0)"},
    {"model.brusselator.b", SK_OPT_REAL, "3.4", 0, 0, NULL,
     "Brusselator rate b (>= 0; oscillates for b > 1 + a^2)"},
    {"model.brusselator.alpha", SK_OPT_REAL, "2e-3", 0, 0, NULL,
     "Brusselator diffusion coefficient alpha (>= 0)"},
    {"model.brusselator.perturbation", SK_OPT_REAL, "0.1", 0, 0, NULL,
     "amplitude of the smooth initial perturbation cos(pi x/L) cos(pi y/L)"},
};

const char *sk__diffusion_key(int row)
{
  return diffusion_table[row].key;
}

const char *sk__brusselator_key(int row)
{
  return brusselator_table[row].key;
}

const sk_option_spec *sk_diffusion_options(size_t *n)
{
  if (n) {
    *n = sizeof diffusion_table / sizeof diffusion_table[0];
  }
  return diffusion_table;
}

const sk_option_spec *sk_brusselator_options(size_t *n)
{
  if (n) {
    *n = sizeof brusselator_table / sizeof brusselator_table[0];
  }
  return brusselator_table;
}
