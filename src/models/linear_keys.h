/* src/models/linear_keys.h: the model.* keys of model.type = linear (Matrix Market files, load, initial state), each written once and bound to its field */
#ifndef SK_MODELS_LINEAR_KEYS_H
#define SK_MODELS_LINEAR_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__LINEAR_KEYS(X)                                                                     \
  X(stiffness, "model.stiffness", SK_OPT_PATH, "", 0, 0, NULL,                                 \
    "model.type = linear, M u' = -K u + g(t) b: Matrix Market file of the square stiffness "   \
    "matrix K (required; a path in a config is relative to the config's directory, one given " \
    "with --set to the working directory)")                                                    \
  X(mass, "model.mass", SK_OPT_PATH, "", 0, 0, NULL,                                           \
    "Matrix Market file of the mass matrix M (\"\" = identity): M u' = g b - K u. ida-bdf: "   \
    "the residual M u' + K u - g b with iteration matrix c M + K (any linsol.type; zero "      \
    "columns of M make algebraic variables, a zero row an algebraic equation); the other "     \
    "solvers: u' = M^{-1} (g b - K u), M nonsingular (diagonal M: any linsol.type; general "   \
    "M: linsol.type=spgmr, the Newton systems solved exactly through M + gamma K)")            \
  X(mass_lumping, "model.mass_lumping", SK_OPT_CHOICE, "none", 0, 0, "none|row-sum",           \
    "row-sum: replace M by the diagonal of its row sums (lumped mass; an approximation of a "  \
    "consistent M that keeps each row's total)")                                               \
  X(load, "model.load", SK_OPT_PATH, "", 0, 0, NULL,                                           \
    "Matrix Market file of the load vector b (n x 1; \"\" = no load)")                         \
  X(load_amplitude, "model.load_amplitude", SK_OPT_STRING, "", 0, 0, NULL,                     \
    "load amplitude g(t) as a formula in t (muparser: + - * / ^, sin, exp, sqrt, min, max, "   \
    "pi, t < 1 ? a : b, ...; \"\" = 1 unless model.load_table is given)")                      \
  X(load_table, "model.load_table", SK_OPT_PATH, "", 0, 0, NULL,                               \
    "load amplitude g(t) from a CSV file of rows 't, g' (t increasing; linear between rows, "  \
    "constant beyond the ends; \"\" = none)")                                                  \
  X(initial, "model.initial", SK_OPT_PATH, "", 0, 0, NULL,                                     \
    "Matrix Market file of the initial state u0 (n x 1; \"\" = model.ic_value everywhere)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__LINEAR_KEYS(SK__BIND_FIELD)
} sk__linear_keys;

/* SK__LINEAR_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__LINEAR_KEY_INDEX(f, ...) SK__LINEAR_KEY_##f,
  SK__LINEAR_KEYS(SK__LINEAR_KEY_INDEX)
#undef SK__LINEAR_KEY_INDEX
      SK__LINEAR_KEY_COUNT
};

SK__BIND_DECLARE(sk__linear, sk__linear_keys)

#endif
