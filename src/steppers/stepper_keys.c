/* src/steppers/stepper_keys.c: the solver.* keys every stepper shares (the table and the reader of its fields) */
#include <stddef.h>

#include "steppers/stepper_keys.h"

#define SK__BIND_STRUCT sk__stepper_settings
SK__BIND_DEFINE(sk__stepper, SK__STEPPER_KEYS, sk__stepper_settings, SK__STEPPER_KEY_COUNT)
#undef SK__BIND_STRUCT
