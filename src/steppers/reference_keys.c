/* src/steppers/reference_keys.c: the keys only the reference steppers take: the table, the reader of its fields and the reference types' set_from_options */
#include <stddef.h>

#include "steppers/reference_keys.h"

#define SK__BIND_STRUCT sk__reference_settings
SK__BIND_DEFINE(sk__reference, SK__REFERENCE_KEYS, sk__reference_settings,
                SK__REFERENCE_KEY_COUNT)
#undef SK__BIND_STRUCT

sk_status sk__reference_set_from_options(sk_stepper *s, const sk_options *opts)
{
  sk__reference_settings st;
  uint64_t given;
  const sk_status rc = sk__reference_settings_given(opts, &st, &given);
  return rc == SK_OK && SK__REFERENCE_GIVEN(given, allow_unstable)
             ? sk_stepper_set_allow_unstable(s, st.allow_unstable)
             : rc;
}
