/* src/linsol/linsol_keys.h: the linsol.* option keys (linear solver, preconditioner, Krylov and ordering settings that CVODE, IDA, KINSOL, the reference steppers' Newton and the distributed runs share), each written once and bound to its field of sk__linsol_settings */
#ifndef SK_LINSOL_LINSOL_KEYS_H
#define SK_LINSOL_LINSOL_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"
#include "linsol/linsol_types.h"

/* the default of linsol.amg_reuse_gamma_ratio (SK__AMG_REUSE_RATIO_DEFAULT), as text */
#define SK__AMG_REUSE_RATIO_TEXT "2"
/* the default of linsol.mg_model_below (SK__MG_MODEL_BELOW_DEFAULT, linsol/mg_struct.h) */
#define SK__MG_MODEL_BELOW_TEXT "25"
/* the default of linsol.mg_model_max_lin (SK__MG_MODEL_MAX_LIN_DEFAULT, linsol/mg_struct.h) */
#define SK__MG_MODEL_MAX_LIN_TEXT "3"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__LINSOL_KEYS(X)                                                                       \
  X(type, "linsol.type", SK_OPT_STRING, "auto", 0, 0, NULL,                                      \
    "linear solver: " SK__LINSOL_CHOICES_TEXT ", or a sparse direct solver type registered at "  \
    "run time (stiffkit/linear_solver.h, from the application or a plugin; cvode-*, ida-bdf "    \
    "and the steady solve) (auto: from the Jacobian's structure: dense for a full pattern (a "   \
    "dense Jacobian callback) up to n = 2000, else klu, or spgmr with the model's own "          \
    "preconditioner (or mg, on a 2D/3D grid model from 5e4 states) when the predicted LU "       \
    "factorization costs more than 100 flops per pattern entry; without a pattern spgmr with "   \
    "the model's preconditioner, else dense up to n = 2000, "                                    \
    "else spgmr; none for cvode-adams; the decision is printed and in the provenance)")          \
  X(dq_jacobian, "linsol.dq_jacobian", SK_OPT_CHOICE, "stiffkit", 0, 0, "stiffkit|sundials",     \
    "dense and band solvers of cvode-* and ida-bdf on a model with a Jacobian pattern but no "   \
    "values: stiffkit = colored finite differences on the pattern (one call per color), "        \
    "sundials = the package's own difference quotients (n calls for dense, ml + mu + 1 for "     \
    "band), as SUNDIALS' examples without a Jacobian function")                                  \
  X(preconditioner, "linsol.preconditioner", SK_OPT_STRING, "auto", 0, 0, NULL,                  \
    "Krylov preconditioner: " SK__PREC_CHOICES_TEXT ", or a type registered at run time "        \
    "(stiffkit/preconditioner.h, from the application or a plugin; cvode-* only) (auto: mg for " \
    "a grid model in 2D/3D from 5e4 states with its "                                            \
    "Jacobian, else the model's own if it has one, else jacobi; amg: one "                       \
    "hypre BoomerAMG V-cycle on I - gamma J, needs the model's Jacobian; mg: geometric "         \
    "multigrid on the model's structured grid (hypre PFMG/SMG, SysPFMG for several species) "    \
    "on I - gamma J from the model's Jacobian, grid models only; bbd: band blocks "              \
    "of the Jacobian by difference quotients (MPI runs: CVBBDPRE, one block per rank; serial "   \
    "cvode-*: CVBANDPRE, one block of the pattern's bandwidths); MPI runs take "                 \
    "auto|model|bbd|amg|mg|none, auto = mg from 5e4 states (where hypre has the Struct "         \
    "interface), else model = amg for diffusion and bbd for the Brusselator; "                   \
    "the steady solve takes "                                                                    \
    "auto|none|jacobi|model)")                                                                   \
  X(mg_solver, "linsol.mg_solver", SK_OPT_CHOICE, "pfmg", 0, 0, "pfmg|smg",                      \
    "linsol.preconditioner=mg: hypre's structured multigrid (pfmg: PFMG, semicoarsening with "   \
    "point smoothing, SysPFMG for several species; smg: SMG, plane smoothing, more robust for "  \
    "strong anisotropy and costlier, one species only)")                                         \
  X(mg_cycles, "linsol.mg_cycles", SK_OPT_INT, "1", 1, 100, NULL,                                \
    "linsol.preconditioner=mg: V-cycles per preconditioner solve (from a zero guess)")           \
  X(mg_relax, "linsol.mg_relax", SK_OPT_CHOICE, "auto", 0, 0, "auto|jacobi|wjacobi|rbgs",        \
    "linsol.preconditioner=mg with pfmg: the smoother (auto: rbgs, symmetric red/black "         \
    "Gauss-Seidel, for one species and wjacobi, weighted Jacobi, for several; SMG has its own)") \
  X(mg_model_below, "linsol.mg_model_below", SK_OPT_REAL, SK__MG_MODEL_BELOW_TEXT, 0, 1e12,      \
    NULL,                                                                                        \
    "linsol.preconditioner=mg with cvode-* on a model with a preconditioner of its own (the "    \
    "grid diffusion models' ADI): a setup where gamma ||J||_1 (a bound on gamma J's spectral "   \
    "radius) is below this takes that preconditioner, cheaper where I - gamma J is close to "    \
    "the identity, instead of a multigrid hierarchy; 0 = mg at every setup (one process: the "   \
    "distributed runs build a hierarchy at every setup)")                                        \
  X(mg_model_max_lin, "linsol.mg_model_max_lin", SK_OPT_REAL, SK__MG_MODEL_MAX_LIN_TEXT, 0,      \
    1000, NULL,                                                                                  \
    "with linsol.mg_model_below > 0: above that bound the model's preconditioner keeps "         \
    "serving while its Krylov iterations per nonlinear iteration between two setups stay at "    \
    "most this (a smooth solution); the first interval above it fixes the gamma from which "     \
    "on mg builds hierarchies; 0 = the bound alone, as with sensitivities")                      \
  X(maxl, "linsol.maxl", SK_OPT_INT, "0", 0, 1000, NULL,                                         \
    "Krylov subspace size (0 = the default: 20 for cvode-* and ida-bdf, 50 for the steady "      \
    "solve; SUNDIALS' own is 5)")                                                                \
  X(eps_lin, "linsol.eps_lin", SK_OPT_REAL, "0", 0, 1, NULL,                                     \
    "Krylov linear tolerance factor relative to the nonlinear tolerance (0 = the default: "      \
    "1e-3 for cvode-* with any preconditioner, SUNDIALS' 0.05 for ida-bdf; CVODE's own is "      \
    "0.05: benchmarks/README.md, \"Krylov tolerances\")")                                        \
  X(amg_reuse_ratio, "linsol.amg_reuse_gamma_ratio", SK_OPT_REAL, SK__AMG_REUSE_RATIO_TEXT, 1,   \
    1e6, NULL,                                                                                   \
    "linsol.preconditioner=amg with cvode-*: keep the BoomerAMG hierarchy (built for I - "       \
    "gamma0 J) while CVODE keeps its Jacobian (jok) and gamma / gamma0 stays within [1/r, "      \
    "r]; 1 = build a hierarchy at every preconditioner setup")                                   \
  X(ordering, "linsol.ordering", SK_OPT_CHOICE, "auto", 0, 0, SK__ORDERING_CHOICES,              \
    "fill-reducing ordering of the sparse direct solvers (auto: metis-nd for n >= 1000, "        \
    "else amd)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__LINSOL_KEYS(SK__BIND_FIELD)
} sk__linsol_settings;

/* SK__LINSOL_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__LINSOL_KEY_INDEX(f, ...) SK__LINSOL_KEY_##f,
  SK__LINSOL_KEYS(SK__LINSOL_KEY_INDEX)
#undef SK__LINSOL_KEY_INDEX
      SK__LINSOL_KEY_COUNT
};

/* SK__LINSOL_GIVEN(given, f): 1 when the key of field f was given. */
#define SK__LINSOL_GIVEN(given, f) SK__BIND_GIVEN(given, SK__LINSOL_KEY_##f)

SK__BIND_DECLARE(sk__linsol, sk__linsol_settings)

#endif
