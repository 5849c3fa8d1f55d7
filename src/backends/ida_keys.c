/* src/backends/ida_keys.c: the keys only IDA takes: the table, the reader of its fields and ida-bdf's set_from_options */
#include <stddef.h>

#include "backends/ida_keys.h"

#define SK__BIND_STRUCT sk__ida_settings
SK__BIND_DEFINE(sk__ida, SK__IDA_KEYS, sk__ida_settings, SK__IDA_KEY_COUNT)
#undef SK__BIND_STRUCT

sk_status sk__ida_set_from_options(sk_stepper *s, const sk_options *opts)
{
  sk__ida_settings st;
  uint64_t given;
  const sk_status rc = sk__ida_settings_given(opts, &st, &given);
  return rc == SK_OK && SK__IDA_GIVEN(given, suppress_alg)
             ? sk_stepper_set_suppress_alg(s, st.suppress_alg)
             : rc;
}
