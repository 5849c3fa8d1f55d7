/* src/steppers/stepper_keys.h: the solver.* and linsol.* option keys, each written once and bound to its field of sk__stepper_settings */
#ifndef SK_STEPPERS_STEPPER_KEYS_H
#define SK_STEPPERS_STEPPER_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

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
  X(check_jacobian, "solver.check_jacobian", SK_OPT_BOOL, "true", 0, 0, NULL,                    \
    "implicit steppers: compare a model's own (analytic) Jacobian and J v with finite "          \
    "differences at the initial state and after steps 1, 10 and 100, and refuse to run on when " \
    "||J - J_fd|| / ||J|| > 1e-3 or the RHS depends on an entry outside the pattern; a DAE "     \
    "model's own dF/dy and dF/dy' at the start (false = run anyway)")                            \
  X(detect_pattern, "solver.detect_pattern", SK_OPT_CHOICE, "auto", 0, 0, "auto|on|off",         \
    "implicit steppers on a model without a Jacobian pattern: detect it by probing the RHS at "  \
    "the initial state (auto: when the stepper needs a matrix -- reference steppers, klu, "      \
    "umfpack, or auto without a model preconditioner; on: always; off: never)")

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
#define SK__STEPPER_GIVEN(given, f) SK__BIND_GIVEN(given, SK__STEPPER_KEY_##f)

/* sk__stepper_options, sk__stepper_settings_read, sk__stepper_key,
 * sk__stepper_keys_registered: the shared table (core/options_bind.h);
 * sk_stepper_options registers it with the linear solvers' and the
 * built-in types' keys. */
SK__BIND_DECLARE(sk__stepper, sk__stepper_settings)

#endif
