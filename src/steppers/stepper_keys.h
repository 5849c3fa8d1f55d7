/* src/steppers/stepper_keys.h: the solver.* and linsol.* option keys, each written once and bound to its field of sk__stepper_settings */
#ifndef SK_STEPPERS_STEPPER_KEYS_H
#define SK_STEPPERS_STEPPER_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"
#include "linsol/linsol_types.h"

/* the default of linsol.amg_reuse_gamma_ratio (SK__AMG_REUSE_RATIO_DEFAULT), as text */
#define SK__AMG_REUSE_RATIO_TEXT "2"

/* X(field, key, type, default, min, max, choices, help): one row per key of
 * sk_stepper_options. sk_stepper_set_from_options applies them, the
 * distributed runs and the steady solve read the same fields; no other code
 * writes a key's string. */
#define SK__STEPPER_KEYS(X)                                                                      \
  X(method, "solver.method", SK_OPT_STRING, "cvode-bdf", 0, 0, NULL,                             \
    "engine: a registered stepper type (cvode-bdf, cvode-adams, euler, rk4, rk45, ab2, "         \
    "beuler, trap, am2pc, bdf2, ...)")                                                           \
  X(plugin, "solver.plugin", SK_OPT_PATH_LIST, "", 0, 0, NULL,                                   \
    "plugin shared objects to load before the stepper is created: a comma-separated list of "    \
    "paths (in a config: relative to the config's directory; with --set: to the working "        \
    "directory), each registering in-house stepper types for "                                   \
    "solver.method (see stiffkit/plugin.h; \"\" = none)")                                        \
  X(t0, "solver.t0", SK_OPT_REAL, "0", -1e300, 1e300, NULL, "initial time")                      \
  X(t_end, "solver.t_end", SK_OPT_REAL, "1", -1e300, 1e300, NULL, "final time (> solver.t0)")    \
  X(rtol, "solver.rtol", SK_OPT_REAL, "1e-6", 0, 1.0, NULL,                                      \
    "relative tolerance (0 = pure absolute error control, as SUNDIALS allows)")                  \
  X(atol, "solver.atol", SK_OPT_REAL, "1e-9", 1e-300, 1e300, NULL,                               \
    "absolute tolerance (scalar; see solver.atol_list for one per component)")                   \
  X(atol_list, "solver.atol_list", SK_OPT_REAL_LIST, "", 1e-300, 1e300, NULL,                    \
    "absolute tolerance per component: a list of n values, in the model's component order "      \
    "(replaces solver.atol; \"\" = the scalar)")                                                 \
  X(constraints, "solver.constraints", SK_OPT_INT_LIST, "", -1e15, 1e15, NULL,                   \
    "inequality constraints on the state (SUNDIALS' codes: 0 none, 1 >= 0, -1 <= 0, 2 > 0, "     \
    "-2 < 0): one value for all components or a list of n; honoured by cvode-bdf, cvode-adams, " \
    "ida-bdf and steady (KINSOL), refused by the other engines (\"\" = none)")                   \
  X(atol_field, "solver.atol_field", SK_OPT_STRING, "", 0, 0, NULL,                              \
    "absolute tolerance per field of the state, as \"u=1e-8, v=1e-6\": a component's field is "  \
    "its name up to '[' (u[3,7] is in u); components of other fields keep solver.atol or "       \
    "solver.atol_list; an unknown field is an error listing the model's fields")                 \
  X(max_steps, "solver.max_steps", SK_OPT_INT, "500000", 1, 1e15, NULL,                          \
    "total step budget over the whole run, all output intervals and restarts together (the "     \
    "run stops with a numerical failure when it is spent)")                                      \
  X(max_order, "solver.max_order", SK_OPT_INT, "0", 0, 12, NULL,                                 \
    "maximum method order (0 = method default)")                                                 \
  X(h0, "solver.h0", SK_OPT_REAL, "0", 0, 1e300, NULL, "initial step size (0 = estimated)")      \
  X(hmin, "solver.hmin", SK_OPT_REAL, "0", 0, 1e300, NULL, "minimum step size (0 = none)")       \
  X(hmax, "solver.hmax", SK_OPT_REAL, "0", 0, 1e300, NULL, "maximum step size (0 = none)")       \
  X(fixed_step, "solver.fixed_step", SK_OPT_REAL, "0", 0, 1e300, NULL,                           \
    "fixed step size of the reference steppers (0 = adaptive where the method allows; "          \
    "euler, rk4, ab2, beuler, trap and am2pc need it > 0; cvode-* and ida-bdf refuse it)")       \
  X(suppress_alg, "solver.suppress_alg", SK_OPT_BOOL, "false", 0, 0, NULL,                       \
    "ida-bdf: leave a DAE's algebraic variables (model ids 0) out of the local error test "      \
    "(IDASetSuppressAlg), with the consistent initialization (IDACalcIC) still computed; "       \
    "other engines integrate ODEs only and have no algebraic variables")                         \
  X(allow_unstable, "solver.allow_unstable", SK_OPT_BOOL, "false", 0, 0, NULL,                   \
    "explicit methods with solver.fixed_step (euler, rk4, rk45, ab2, am2pc): at t0 and every "   \
    "100 steps (doubling up to 6400 while the estimate holds within 5%) the Jacobian's "         \
    "dominant eigenvalue lambda is estimated (restarted Arnoldi) and "                           \
    "the run is refused (exit 10, the limit named) when h lambda lies outside the method's "     \
    "stability region; true = warn once and run anyway. Implicit methods are A-stable and "      \
    "not checked")                                                                               \
  X(max_growth, "solver.max_growth", SK_OPT_REAL, "1e8", 0, 1e300, NULL,                         \
    "every engine: stop (exit 10, time and component named) when a state component becomes "     \
    "non-finite or exceeds max_growth times max(max_i |y0_i|, 1), y0 the state the run starts "  \
    "from (a DAE's algebraic variables: non-finite only; 0 = check only for non-finite "         \
    "values)")                                                                                   \
  X(stop_time, "solver.stop_time", SK_OPT_REAL, "", -1e300, 1e300, NULL,                         \
    "time the integrator must not step past (unset = none)")                                     \
  X(threads, "solver.threads", SK_OPT_INT, "0", 0, 4096, NULL,                                   \
    "OpenMP threads of the vector and model kernels (0 = auto: OMP_NUM_THREADS when set, else "  \
    "the processors not already busy by the load average; loops shorter than 32768 items "       \
    "never use threads; every thread count gives bitwise the same results)")                     \
  X(fast_vector_ops, "solver.fast_vector_ops", SK_OPT_CHOICE, "auto", 0, 0, "auto|on|off",       \
    "CVODE's N_Vector kernels: on = stiffkit's optimized ones (bitwise the packaged kernels' "   \
    "results, for every thread count), off = the packaged SUNDIALS ones, auto = stiffkit's "     \
    "where measured faster (every size on the reference machine: benchmarks/README.md)")         \
  X(check_jacobian, "solver.check_jacobian", SK_OPT_BOOL, "true", 0, 0, NULL,                    \
    "implicit steppers: compare a model's own (analytic) Jacobian and J v with finite "          \
    "differences at the initial state and after steps 1, 10 and 100, and refuse to run on when " \
    "||J - J_fd|| / ||J|| > 1e-3 or the RHS depends on an entry outside the pattern; a DAE "     \
    "model's own dF/dy and dF/dy' at the start (false = run anyway)")                            \
  X(detect_pattern, "solver.detect_pattern", SK_OPT_CHOICE, "auto", 0, 0, "auto|on|off",         \
    "implicit steppers on a model without a Jacobian pattern: detect it by probing the RHS at "  \
    "the initial state (auto: when the stepper needs a matrix -- reference steppers, klu, "      \
    "umfpack, or auto without a model preconditioner; on: always; off: never)")                  \
  X(linsol_type, "linsol.type", SK_OPT_CHOICE, "auto", 0, 0, SK__LINSOL_CHOICES,                 \
    "linear solver (auto: from the Jacobian's structure: dense for a full pattern (a dense "     \
    "Jacobian callback) up to n = 2000, else klu, or spgmr with the model's own "                \
    "preconditioner (or mg, on a 2D/3D grid model from 5e4 states) when the predicted LU "       \
    "factorization costs more than 100 flops per pattern entry; without a pattern spgmr with "   \
    "the model's preconditioner, else dense up to n = 2000, "                                    \
    "else spgmr; none for cvode-adams; the decision is printed and in the provenance)")          \
  X(dq_jacobian, "linsol.dq_jacobian", SK_OPT_CHOICE, "stiffkit", 0, 0, "stiffkit|sundials",     \
    "dense and band solvers of cvode-* and ida-bdf on a model with a Jacobian pattern but no "   \
    "values: stiffkit = colored finite differences on the pattern (one call per color), "        \
    "sundials = the package's own difference quotients (n calls for dense, ml + mu + 1 for "     \
    "band), as SUNDIALS' examples without a Jacobian function")                                  \
  X(preconditioner, "linsol.preconditioner", SK_OPT_CHOICE, "auto", 0, 0, SK__PREC_CHOICES,      \
    "Krylov preconditioner (auto: mg for a grid model in 2D/3D from 5e4 states with its "        \
    "Jacobian, else the model's own if it has one, else jacobi; amg: one "                       \
    "hypre BoomerAMG V-cycle on I - gamma J, needs the model's Jacobian; mg: geometric "         \
    "multigrid on the model's structured grid (hypre PFMG/SMG, SysPFMG for several species) "    \
    "on I - gamma J from the model's Jacobian, grid models only; bbd: band blocks "              \
    "of the Jacobian by difference quotients (MPI runs: CVBBDPRE, one block per rank; serial "   \
    "cvode-*: CVBANDPRE, one block of the pattern's bandwidths); MPI runs take "                 \
    "auto|model|bbd|amg|none, auto and model = amg for diffusion and bbd for the Brusselator; "  \
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

/* The values of the keys: field `f` of the row X(f, ...) has the C type of
 * the key's type (core/options_bind.h). */
typedef struct {
  SK__STEPPER_KEYS(SK__BIND_FIELD)
} sk__stepper_settings;

/* SK__STEPPER_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__STEPPER_INDEX(f, ...) SK__STEPPER_KEY_##f,
  SK__STEPPER_KEYS(SK__STEPPER_INDEX)
#undef SK__STEPPER_INDEX
      SK__STEPPER_KEY_COUNT
};
_Static_assert(SK__STEPPER_KEY_COUNT <= 64, "the given mask has 64 bits");

/* SK__STEPPER_GIVEN(given, f): 1 when the key of field f was set by a
 * config or the command line (the mask from sk__stepper_settings_read). */
#define SK__STEPPER_GIVEN(given, f) ((int)(((given) >> SK__STEPPER_KEY_##f) & 1u))

/* sk__stepper_settings_read: every key into *st (its default when not
 * given) and the mask of the keys given. Errors: SK_ERR_UNKNOWN_KEY when
 * the keys are not registered in opts (sk_stepper_options). */
sk_status sk__stepper_settings_read(const sk_options *opts, sk__stepper_settings *st,
                                    uint64_t *given);

/* sk__stepper_keys_registered: 1 when opts holds the keys (a program that
 * registered sk_stepper_options), else 0. */
int sk__stepper_keys_registered(const sk_options *opts);

/* sk__stepper_key: the key string of field index k (SK__STEPPER_KEY_<f>),
 * for messages and origins. */
const char *sk__stepper_key(int k);

#endif
