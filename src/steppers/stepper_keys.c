/* src/steppers/stepper_keys.c: the solver.* and linsol.* option table (sk_stepper_options) and the reader of its fields */
#include <stddef.h>

#include "steppers/stepper_keys.h"
#include "stiffkit/stepper.h"

static const sk_option_spec stepper_options[] = {SK__STEPPER_KEYS(SK__BIND_SPEC)};

#define SK__BIND_STRUCT sk__stepper_settings
static const size_t stepper_offsets[] = {SK__STEPPER_KEYS(SK__BIND_OFFSET)};
#undef SK__BIND_STRUCT

_Static_assert(sizeof stepper_options / sizeof stepper_options[0] == SK__STEPPER_KEY_COUNT,
               "one spec per key");

const sk_option_spec *sk_stepper_options(size_t *n)
{
  *n = SK__STEPPER_KEY_COUNT;
  return stepper_options;
}

sk_status sk__stepper_settings_read(const sk_options *opts, sk__stepper_settings *st,
                                    uint64_t *given)
{
  *st = (sk__stepper_settings){0};
  return sk__options_read_bound(opts, stepper_options, stepper_offsets, SK__STEPPER_KEY_COUNT, st,
                                given);
}

int sk__stepper_keys_registered(const sk_options *opts)
{
  return sk_options_is_key(opts, stepper_options[0].key);
}

const char *sk__stepper_key(int k)
{
  return sk__bound_key(stepper_options, SK__STEPPER_KEY_COUNT, k);
}
