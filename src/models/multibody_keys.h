/* src/models/multibody_keys.h: the multibody.* option keys of a multibody run, each written once and bound to its field */
#ifndef SK_MODELS_MULTIBODY_KEYS_H
#define SK_MODELS_MULTIBODY_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__MULTIBODY_KEYS(X)                                                                  \
  X(file, "multibody.file", SK_OPT_PATH, "", 0, 0, NULL,                                       \
    "the mechanism file (YAML: bodies, joints, drivers, forces, events; model.type = "         \
    "multibody; in a config relative to the config's directory)")                              \
  X(formulation, "multibody.formulation", SK_OPT_CHOICE, "ggl", 0, 0, "ggl|index1|reduced",    \
    "ggl: stabilized index 2 in IDA; index1: acceleration level (Baumgarte) in CVODE; "        \
    "reduced: coordinate partitioning in CVODE")                                               \
  X(compare, "multibody.compare", SK_OPT_CHOICE, "reduced", 0, 0, "ggl|index1|reduced",        \
    "the second formulation `stiffkit verify` compares with multibody.formulation")            \
  X(alpha, "multibody.baumgarte.alpha", SK_OPT_REAL, "0", 0, 1e6, NULL,                        \
    "index1: Baumgarte velocity-drift damping alpha (gamma - 2 alpha Phi' - beta^2 Phi)")      \
  X(beta, "multibody.baumgarte.beta", SK_OPT_REAL, "0", 0, 1e6, NULL,                          \
    "index1: Baumgarte position term beta")                                                    \
  X(projection, "multibody.projection", SK_OPT_BOOL, "false", 0, 0, NULL,                      \
    "index1: project q and v back onto the constraints after every step (cvode-bdf)")          \
  X(inconsistent, "multibody.inconsistent", SK_OPT_CHOICE, "fix", 0, 0, "fix|refuse",          \
    "an initial state off the constraints: fix it (least change, reported) or refuse")         \
  X(init_tol, "multibody.init_tol", SK_OPT_REAL, "1e-10", 0, 1, NULL,                          \
    "max |Phi| and |G v + Phi_t| an initial state may have without being called inconsistent") \
  X(cond_limit, "multibody.cond_limit", SK_OPT_REAL, "1e6", 1, 1e300, NULL,                    \
    "warn when cond(G) (rows and columns equilibrated) exceeds this: near a toggle")           \
  X(repartition, "multibody.repartition", SK_OPT_REAL, "4", 1.5, 1e300, NULL,                  \
    "reduced: a new coordinate partition once cond(G_D) has grown by this factor since the "   \
    "last one (checked after every step)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__MULTIBODY_KEYS(SK__BIND_FIELD)
} sk__multibody_keys;

/* SK__MULTIBODY_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__MULTIBODY_KEY_INDEX(f, ...) SK__MULTIBODY_KEY_##f,
  SK__MULTIBODY_KEYS(SK__MULTIBODY_KEY_INDEX)
#undef SK__MULTIBODY_KEY_INDEX
      SK__MULTIBODY_KEY_COUNT
};

SK__BIND_DECLARE(sk__multibody, sk__multibody_keys)

#endif
