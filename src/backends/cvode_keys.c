/* src/backends/cvode_keys.c: the keys only CVODE takes: the table, the reader of its fields and the cvode-* types' set_from_options */
#include <stddef.h>
#include <string.h>

#include "backends/cvode_keys.h"

#define SK__BIND_STRUCT sk__cvode_settings
SK__BIND_DEFINE(sk__cvode, SK__CVODE_KEYS, sk__cvode_settings, SK__CVODE_KEY_COUNT)
#undef SK__BIND_STRUCT

sk_status sk__cvode_set_from_options(sk_stepper *s, const sk_options *opts)
{
  sk__cvode_settings st;
  uint64_t given;
  const sk_status rc = sk__cvode_settings_given(opts, &st, &given);
  if (rc != SK_OK || !SK__CVODE_GIVEN(given, fast_vector_ops)) {
    return rc;
  }
  const char *v = st.fast_vector_ops;
  return sk_stepper_set_vector_kernels(s, !strcmp(v, "on")    ? SK_VECTOR_KERNELS_ON
                                          : !strcmp(v, "off") ? SK_VECTOR_KERNELS_OFF
                                                              : SK_VECTOR_KERNELS_AUTO);
}
