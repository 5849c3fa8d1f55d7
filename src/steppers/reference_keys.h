/* src/steppers/reference_keys.h: the keys only the reference steppers take, bound to sk__reference_settings, and their set_from_options */
#ifndef SK_STEPPERS_REFERENCE_KEYS_H
#define SK_STEPPERS_REFERENCE_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"
#include "stiffkit/stepper.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__REFERENCE_KEYS(X)                                                                  \
  X(allow_unstable, "solver.allow_unstable", SK_OPT_BOOL, "false", 0, 0, NULL,                 \
    "explicit methods with solver.fixed_step (euler, rk4, rk45, ab2, am2pc): at t0 and every " \
    "100 steps (doubling up to 6400 while the estimate holds within 5%) the Jacobian's "       \
    "dominant eigenvalue lambda is estimated (restarted Arnoldi) and "                         \
    "the run is refused (exit 10, the limit named) when h lambda lies outside the method's "   \
    "stability region; true = warn once and run anyway. Implicit methods are A-stable and "    \
    "not checked")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__REFERENCE_KEYS(SK__BIND_FIELD)
} sk__reference_settings;

/* SK__REFERENCE_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__REFERENCE_KEY_INDEX(f, ...) SK__REFERENCE_KEY_##f,
  SK__REFERENCE_KEYS(SK__REFERENCE_KEY_INDEX)
#undef SK__REFERENCE_KEY_INDEX
      SK__REFERENCE_KEY_COUNT
};

/* SK__REFERENCE_GIVEN(given, f): 1 when the key of field f was given. */
#define SK__REFERENCE_GIVEN(given, f) SK__BIND_GIVEN(given, SK__REFERENCE_KEY_##f)

SK__BIND_DECLARE(sk__reference, sk__reference_settings)

/* sk__reference_set_from_options: the reference types' set_from_options:
 * the given keys of the table applied to s (nothing when opts lacks the
 * table). Errors: as the setters. */
sk_status sk__reference_set_from_options(sk_stepper *s, const sk_options *opts);

#endif
