/* src/backends/ida_keys.h: the keys only IDA takes (ida-bdf), bound to sk__ida_settings, and the type's set_from_options */
#ifndef SK_BACKENDS_IDA_KEYS_H
#define SK_BACKENDS_IDA_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"
#include "stiffkit/stepper.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__IDA_KEYS(X)                                                                     \
  X(suppress_alg, "solver.suppress_alg", SK_OPT_BOOL, "false", 0, 0, NULL,                  \
    "ida-bdf: leave a DAE's algebraic variables (model ids 0) out of the local error test " \
    "(IDASetSuppressAlg), with the consistent initialization (IDACalcIC) still computed; "  \
    "other engines integrate ODEs only and have no algebraic variables")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__IDA_KEYS(SK__BIND_FIELD)
} sk__ida_settings;

/* SK__IDA_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__IDA_KEY_INDEX(f, ...) SK__IDA_KEY_##f,
  SK__IDA_KEYS(SK__IDA_KEY_INDEX)
#undef SK__IDA_KEY_INDEX
      SK__IDA_KEY_COUNT
};

/* SK__IDA_GIVEN(given, f): 1 when the key of field f was given. */
#define SK__IDA_GIVEN(given, f) SK__BIND_GIVEN(given, SK__IDA_KEY_##f)

SK__BIND_DECLARE(sk__ida, sk__ida_settings)

/* sk__ida_set_from_options: ida-bdf's set_from_options: the given keys of
 * the table applied to s (nothing when opts lacks the table). Errors: as
 * the setters. */
sk_status sk__ida_set_from_options(sk_stepper *s, const sk_options *opts);

#endif
