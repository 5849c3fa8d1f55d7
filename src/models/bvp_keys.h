/* src/models/bvp_keys.h: the bvp.* solver and problem keys of a fixed name, each written once and bound to its field of sk__bvp_keys (the keys a description names itself, equations and the like, are registered from the description) */
#ifndef SK_MODELS_BVP_KEYS_H
#define SK_MODELS_BVP_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__BVP_KEYS(X)                                                                          \
  X(interval, "bvp.interval", SK_OPT_REAL_LIST, "[0, 1]", 0, 0, NULL,                            \
    "the interval [a, b] of x")                                                                  \
  X(order, "bvp.order", SK_OPT_INT, "1", 1, 2, NULL,                                             \
    "1: y' = f(x, y) per variable; 2: y'' = f(x, y, y') (the derivative of v is named dv)")      \
  X(variables, "bvp.variables", SK_OPT_STRING, "", 0, 0, NULL,                                   \
    "the unknown functions, comma separated (\"T, q\"); each needs bvp.equations.<name>")        \
  X(method, "bvp.method", SK_OPT_CHOICE, "fd", 0, 0, "fd|shooting|multiple-shooting",            \
    "finite differences (KINSOL + KLU), single or multiple shooting (CVODE + KINSOL)")           \
  X(tol, "bvp.tol", SK_OPT_REAL, "1e-6", 1e-14, 0.1, NULL,                                       \
    "requested error: max |err| / (1 + |y|) (fd: Richardson estimate; shooting: IVP "            \
    "tolerances)")                                                                               \
  X(mesh_n, "bvp.mesh.n", SK_OPT_INT, "32", 1, 100000000, NULL, "intervals of the initial mesh") \
  X(mesh_ratio, "bvp.mesh.ratio", SK_OPT_REAL, "1", 1e-3, 1e3, NULL,                             \
    "geometric grading h_{i+1}/h_i of the initial mesh (1: uniform)")                            \
  X(mesh_refine, "bvp.mesh.refine", SK_OPT_BOOL, "true", 0, 0, NULL,                             \
    "bisect where the local defect is large until the error estimate meets bvp.tol")             \
  X(mesh_estimate, "bvp.mesh.estimate", SK_OPT_BOOL, "true", 0, 0, NULL,                         \
    "estimate the error by a second solve on the bisected mesh (Richardson)")                    \
  X(mesh_max_points, "bvp.mesh.max_points", SK_OPT_INT, "1000000", 3, 1000000000, NULL,          \
    "refinement stops with an error beyond this many points")                                    \
  X(mesh_max_refinements, "bvp.mesh.max_refinements", SK_OPT_INT, "20", 0, 1000, NULL,           \
    "refinement rounds at most")                                                                 \
  X(newton_max_iters, "bvp.newton.max_iters", SK_OPT_INT, "50", 1, 100000, NULL,                 \
    "Newton iterations per solve")                                                               \
  X(newton_fnormtol, "bvp.newton.fnormtol", SK_OPT_REAL, "0", 0, 1, NULL,                        \
    "accept when max |scaled residual| <= this (0: automatic, from bvp.tol and the mesh)")       \
  X(newton_linesearch, "bvp.newton.linesearch", SK_OPT_BOOL, "true", 0, 0, NULL,                 \
    "KINSOL's line search (false: full Newton steps)")                                           \
  X(shooting_intervals, "bvp.shooting.intervals", SK_OPT_INT, "10", 1, 100000, NULL,             \
    "multiple shooting: uniform subintervals")                                                   \
  X(shooting_nodes, "bvp.shooting.nodes", SK_OPT_REAL_LIST, "", 0, 0, NULL,                      \
    "multiple shooting: explicit nodes a = x0 < ... < xK = b (replace bvp.shooting.intervals)")  \
  X(shooting_ivp_method, "bvp.shooting.ivp_method", SK_OPT_STRING, "cvode-bdf", 0, 0, NULL,      \
    "stepper integrating the initial-value problems")                                            \
  X(shooting_rtol, "bvp.shooting.rtol", SK_OPT_REAL, "0", 0, 1, NULL,                            \
    "IVP relative tolerance (0: bvp.tol / 100)")                                                 \
  X(shooting_atol, "bvp.shooting.atol", SK_OPT_REAL, "0", 0, 1e10, NULL,                         \
    "IVP absolute tolerance (0: bvp.tol / 1000)")                                                \
  X(shooting_sensitivity_limit, "bvp.shooting.sensitivity_limit", SK_OPT_REAL, "1e8", 1.0,       \
    1e300, NULL, "warn when ||dy(x_k+1)/dy(x_k)|| exceeds this (an unstable IVP)")               \
  X(output_points, "bvp.output.points", SK_OPT_INT, "101", 2, 1000000, NULL,                     \
    "shooting: uniform points at which the solution is written")                                 \
  X(continuation_parameter, "bvp.continuation.parameter", SK_OPT_STRING, "", 0, 0, NULL,         \
    "a parameter (bvp.parameters.<name>) to step from its value to bvp.continuation.to")         \
  X(continuation_to, "bvp.continuation.to", SK_OPT_REAL, "", 0, 0, NULL,                         \
    "the continuation's final value")                                                            \
  X(continuation_step, "bvp.continuation.step", SK_OPT_REAL, "0.1", 1e-300, 1e300, NULL,         \
    "the continuation step")                                                                     \
  X(continuation_min_step, "bvp.continuation.min_step", SK_OPT_REAL, "1e-4", 1e-12, 1e300, NULL, \
    "failed steps are halved down to this")

/* The values of the keys (core/options_bind.h gives each field its C type). */
typedef struct {
  SK__BVP_KEYS(SK__BIND_FIELD)
} sk__bvp_keys;

/* SK__BVP_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__BVP_INDEX(f, ...) SK__BVP_KEY_##f,
  SK__BVP_KEYS(SK__BVP_INDEX)
#undef SK__BVP_INDEX
      SK__BVP_KEY_COUNT
};

/* SK__BVP_GIVEN(given, f): 1 when the key of field f was set by a config or
 * the command line. */
#define SK__BVP_GIVEN(given, f) ((int)(((given) >> SK__BVP_KEY_##f) & 1u))

/* sk__bvp_keys_read: every key into *k (its default when not given) and the
 * mask of the keys given (given may be NULL). Errors: SK_ERR_UNKNOWN_KEY
 * when the bvp.* keys are not registered in opts (sk_bvp_options). */
sk_status sk__bvp_keys_read(const sk_options *opts, sk__bvp_keys *k, uint64_t *given);

/* sk__bvp_key: the key string of field index i (SK__BVP_KEY_<f>), "" outside
 * the table. */
const char *sk__bvp_key(int i);

#endif
