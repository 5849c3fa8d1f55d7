/* src/backends/steady_keys.h: the steady.* option keys of the KINSOL steady-state solve, each written once and bound to its field */
#ifndef SK_BACKENDS_STEADY_KEYS_H
#define SK_BACKENDS_STEADY_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__STEADY_KEYS(X)                                                                       \
  X(t, "steady.t", SK_OPT_REAL, "", -1e300, 1e300, NULL,                                         \
    "time t_s of the steady state f(t_s, u) = 0 (unset: solver.t0)")                             \
  X(guess, "steady.guess", SK_OPT_CHOICE, "initial", 0, 0, "initial|zero",                       \
    "initial guess: the model's initial state at solver.t0, or zero")                            \
  X(strategy, "steady.strategy", SK_OPT_CHOICE, "linesearch", 0, 0, "linesearch|none",           \
    "globalization of Newton's method: KINSOL's line search, or the full Newton step")           \
  X(prec_gamma, "steady.prec_gamma", SK_OPT_REAL, "1e-3", 1e-300, 1e300, NULL,                   \
    "gamma of the model preconditioner M = J - I/gamma (for the model's ADI-type P, about "      \
    "1/sqrt(|lambda_max lambda_min|) of J works best: stiffkit diagnose prints both)")           \
  X(fnormtol, "steady.fnormtol", SK_OPT_REAL, "1e-8", 1e-300, 1e300, NULL,                       \
    "accept u when max_i |f_scale f_i(t_s, u)| <= fnormtol (checked again after KINSOL)")        \
  X(scsteptol, "steady.scsteptol", SK_OPT_REAL, "1e-12", 1e-300, 1, NULL,                        \
    "KINSOL stops when the scaled Newton step falls below this (a stall unless the residual "    \
    "passes steady.fnormtol)")                                                                   \
  X(u_scale, "steady.u_scale", SK_OPT_REAL, "1", 1e-300, 1e300, NULL,                            \
    "scale of u: KINSOL measures steps in u_scale * u (1 / typical size of u)")                  \
  X(f_scale, "steady.f_scale", SK_OPT_REAL, "1", 1e-300, 1e300, NULL,                            \
    "scale of f: the residual is measured as f_scale * f (1 / typical size of f)")               \
  X(max_step, "steady.max_step", SK_OPT_REAL, "0", 0, 1e300, NULL,                               \
    "longest Newton step ||u_scale d||_2 (0: 1000 max(||u_scale u_guess||_2, ||u_scale||_2); "   \
    "KINSOL's own default, 1000 ||u_scale u_guess||_2, would cripple a zero guess)")             \
  X(max_iters, "steady.max_iters", SK_OPT_INT, "200", 1, 1e9, NULL, "Newton iterations at most") \
  X(max_setup_calls, "steady.max_setup_calls", SK_OPT_INT, "1", 1, 1e9, NULL,                    \
    "Newton iterations per Jacobian evaluation (1 = full Newton; KINSOL's default is 10)")       \
  X(max_restarts, "steady.max_restarts", SK_OPT_INT, "5", 0, 10000, NULL,                        \
    "spgmr: restarts per linear solve")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__STEADY_KEYS(SK__BIND_FIELD)
} sk__steady_keys;

/* SK__STEADY_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__STEADY_KEY_INDEX(f, ...) SK__STEADY_KEY_##f,
  SK__STEADY_KEYS(SK__STEADY_KEY_INDEX)
#undef SK__STEADY_KEY_INDEX
      SK__STEADY_KEY_COUNT
};

#define SK__STEADY_GIVEN(given, f) SK__BIND_GIVEN(given, SK__STEADY_KEY_##f)

SK__BIND_DECLARE(sk__steady, sk__steady_keys)

#endif
