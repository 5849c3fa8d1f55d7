/* src/linsol/linsol_keys.c: the linsol.* keys (the table and the reader of its fields) */
#include <stddef.h>

#include "linsol/linsol_keys.h"

#define SK__BIND_STRUCT sk__linsol_settings
SK__BIND_DEFINE(sk__linsol, SK__LINSOL_KEYS, sk__linsol_settings, SK__LINSOL_KEY_COUNT)
#undef SK__BIND_STRUCT
