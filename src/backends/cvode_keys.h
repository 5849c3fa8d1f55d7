/* src/backends/cvode_keys.h: the keys only CVODE takes (cvode-bdf, cvode-adams, and the distributed runs' CVODE), bound to sk__cvode_settings, and the types' set_from_options */
#ifndef SK_BACKENDS_CVODE_KEYS_H
#define SK_BACKENDS_CVODE_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"
#include "stiffkit/stepper.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__CVODE_KEYS(X)                                                                      \
  X(fast_vector_ops, "solver.fast_vector_ops", SK_OPT_CHOICE, "auto", 0, 0, "auto|on|off",     \
    "CVODE's N_Vector kernels: on = stiffkit's optimized ones (bitwise the packaged kernels' " \
    "results, for every thread count), off = the packaged SUNDIALS ones, auto = stiffkit's "   \
    "where measured faster (every size on the reference machine: benchmarks/README.md)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__CVODE_KEYS(SK__BIND_FIELD)
} sk__cvode_settings;

/* SK__CVODE_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__CVODE_KEY_INDEX(f, ...) SK__CVODE_KEY_##f,
  SK__CVODE_KEYS(SK__CVODE_KEY_INDEX)
#undef SK__CVODE_KEY_INDEX
      SK__CVODE_KEY_COUNT
};

/* SK__CVODE_GIVEN(given, f): 1 when the key of field f was given. */
#define SK__CVODE_GIVEN(given, f) SK__BIND_GIVEN(given, SK__CVODE_KEY_##f)

SK__BIND_DECLARE(sk__cvode, sk__cvode_settings)

/* sk__cvode_set_from_options: the cvode-* types' set_from_options: the
 * given keys of the table applied to s (nothing when opts lacks the table).
 * Errors: as the setters. */
sk_status sk__cvode_set_from_options(sk_stepper *s, const sk_options *opts);

#endif
